"""What knowing how close the opponent really is would be worth to the expert, in chips.

    python benchmarks/closeness_oracle.py --deals 300
    python benchmarks/closeness_oracle.py --b hard --deals 300

The expert reads each opponent's chance to declare from the pile (`closeness.py`). Here a copy
of it is *told* the truth instead: its hazard for the opponent comes from the opponent's real
13 cards (their distance and effective draws, counted over the cards the opponent cannot see,
turned into a per-turn chance by `chips.finish_chances`, as the expert does for its own hand).
Nothing else changes. Both the told expert and the default play heads-up against `--b` on the
same match seeds, seats swapped as in `duplicate.py`; the script prints each headline and the
paired difference (told minus default) with its 95% interval. That difference is the value of
the information the rules hide, and so a ceiling for any better reading of the pile.

This cheats on purpose and only here: the policy the bot plays never sees another hand. A
benchmark, not a test: no assertion.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.chips import HORIZON, finish_chances, first_step_rate
from bot.ai.closeness import Closeness
from bot.ai.distance import HandCode, effective_draws, set_limit
from bot.ai.expert import ExpertPolicy
from bot.ai.tracking import Tracker
from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.observation import Observation
from bot.engine.policy import Policy, PolicyFactory
from bot.engine.rules import get_profile
from bot.simulate import interval_text, seats_to_act

sys.path.insert(0, str(Path(__file__).resolve().parent))
from duplicate import variant


class TrueHazard:
    """An opponent's per-turn chance to declare, read off its real hand."""

    def __init__(self, seat: int, hand: Sequence[Card], obs: Observation) -> None:
        rules, wr = obs.rules, obs.wild_rank
        unseen = Counter(Tracker.from_observation(obs).unseen_faces())
        unseen.subtract(Counter(c.face for c in hand))  # not unseen to them: they hold it
        unseen.update(Counter(c.face for c in obs.hand))  # ours are unseen to them
        live = Counter({f: n for f, n in unseen.items() if n > 0})
        code = HandCode.of(hand, rules, wr)
        d, good = effective_draws(code, live, rules, wr, set_limit(rules))
        finish = finish_chances(d, first_step_rate(good, sum(live.values()) or 1), HORIZON + 4)
        self.seat = seat
        self.rates: list[float] = []
        left = 1.0
        for f in finish:
            self.rates.append(min(0.95, f / left) if left > 1e-9 else 0.95)
            left -= f

    def hazard(self, ahead: int = 0) -> float:
        return self.rates[min(ahead, len(self.rates) - 1)]


class ToldExpert(ExpertPolicy):
    """The expert with every opponent's real hand at hand (`hands`, set before each move)."""

    hands: dict[int, Sequence[Card]] | None = None

    def closeness(self, obs: Observation) -> list[Closeness]:
        opps = super().closeness(obs)
        if not self.hands:
            return opps
        return [TrueHazard(o.seat, self.hands[o.seat], obs) for o in opps]  # type: ignore[misc]


def play(profile: str, seed: int, makers: Sequence[PolicyFactory]) -> list[float]:
    """One heads-up match; each seat's chips. A `ToldExpert` seat is told the other's hand."""
    match = Match.create(["P0", "P1"], get_profile(profile), seed=seed)
    policies: list[Policy] = [m(random.Random(seed * 7919 + i)) for i, m in enumerate(makers)]
    for seat in seats_to_act(match):
        policy = policies[seat]
        if isinstance(policy, ToldExpert):
            policy.hands = {s: match.observation(s).hand for s in (0, 1) if s != seat}
        match.apply(policy.act(match.observation(seat)))
    chips = [0.0, 0.0]
    for r in match.results:
        for s, d in r.deltas.items():
            chips[s] += float(d)
    return chips


def paired(profile: str, seeds: Sequence[int], a: PolicyFactory, b: PolicyFactory) -> list[float]:
    """A's chips a deal against B for each seed, over both seatings (as duplicate.py)."""
    out = []
    for s in seeds:
        c1 = play(profile, s, [a, b])
        c2 = play(profile, s, [b, a])
        out.append(((c1[0] - c1[1]) + (c2[1] - c2[0])) / 4)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--b", default="benchmarks.experiments.reference_opponent:ReferencePolicy")
    parser.add_argument("--deals", type=int, default=300, help="match seeds (each played twice)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", default="points")
    args = parser.parse_args(argv)
    master = random.Random(args.seed)
    seeds = [master.getrandbits(40) for _ in range(args.deals)]
    opponent = variant(args.b)
    told = paired(args.profile, seeds, ToldExpert, opponent)
    default = paired(args.profile, seeds, variant("expert"), opponent)
    print(f"{args.profile}, heads-up against {args.b}, {args.deals} seeds x 2, seed {args.seed}")
    print(f"told the opponent's hand: {interval_text(told)} chips a deal")
    print(f"the default expert:       {interval_text(default)} chips a deal")
    gained = [t - d for t, d in zip(told, default, strict=True)]
    print(f"told - default (paired):  {interval_text(gained)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
