"""Play many deals with program players: `python -m bot.simulate --variant paplu --players 4`.

Meaning of `--deals K`: K deals in total, played as consecutive matches of the chosen variant
(a new match starts whenever one ends; the last one may be cut short). Every seat is driven by a
policy (`--seats random,random,...`, names registered in `bot.engine.policy.POLICIES`) that
sees only its own `Observation`. With `--check` every step is verified against the engine's
invariants (card conservation, hand sizes, ledger sums). `--dump-dir` writes each finished
deal's hand history as JSON; `--json` prints one summary object at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine.actions import Action, ActionKind
from .engine.deal import Deal, OutReason, Phase
from .engine.match import Match, MatchPhase, ScoreKind
from .engine.observation import Observation
from .engine.policy import POLICIES, Policy
from .engine.rules import MatchFormat, Rules, get_profile
from .engine.settlement import fixed_cost


@dataclass
class Summary:
    variant: str
    players: int
    deals: int = 0
    matches: int = 0
    matches_finished: int = 0
    steps: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "deals": self.deals,
            "matches": self.matches,
            "matches_finished": self.matches_finished,
            "steps": self.steps,
            "ends": dict(sorted(self.ends.items())),
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals / self.seconds, 1) if self.seconds else None,
        }


def check_observation(match: Match, obs: Observation) -> None:
    """No card of another seat's hand (or of the stock) may appear in an observation."""
    deal = match.deal
    if deal is None or deal.over:
        return
    visible = {c.id for c in obs.hand} | {c.id for c in obs.pile}
    visible |= {e.card.id for e in obs.pile_history}
    if obs.indicator is not None:
        visible.add(obs.indicator.id)
    hidden = {c.id for c in deal.stock} | {c.id for c in deal.set_aside}
    for s, h in deal.hands.items():
        if s != obs.seat:
            hidden |= {c.id for c in h}
    # A card thrown then taken back by another seat is public knowledge: it is in the log.
    public = {e.card.id for e in deal.pile_log}
    assert not (visible & hidden) - public, "observation reveals a hidden card"


def play(
    rules: Rules,
    players: int,
    deals: int,
    seed: int | None = None,
    seats: Sequence[str] = (),
    dump_dir: Path | None = None,
    check: bool = False,
    drop_chance: float | None = None,
) -> Summary:
    """Play `deals` deals; returns counts of how they ended and any errors (never raises for
    a failure inside a match: it is recorded and the next match starts)."""
    summary = Summary(rules.name, players)
    master = random.Random(seed)
    names = list(seats) or ["random"] * players
    if len(names) != players:
        raise ValueError("--seats must name one policy per player")
    start = time.perf_counter()
    while summary.deals < deals:
        match_seed = master.getrandbits(48)
        rng = random.Random(match_seed)
        policies: list[Policy] = []
        for name in names:
            policy = POLICIES[name](rng)
            if drop_chance is not None and hasattr(policy, "drop_chance"):
                policy.drop_chance = drop_chance
            policies.append(policy)
        summary.matches += 1
        try:
            match = Match.create([f"P{i + 1}" for i in range(players)], rules, seed=match_seed)
            _play_match(match, policies, summary, deals, dump_dir, check)
        except Exception as exc:  # recorded; the run goes on
            summary.errors.append(f"match seed {match_seed}: {type(exc).__name__}: {exc}")
            summary.deals += 1
    summary.seconds = time.perf_counter() - start
    return summary


def _play_match(
    match: Match,
    policies: list[Policy],
    summary: Summary,
    deals: int,
    dump_dir: Path | None,
    check: bool,
) -> None:
    while summary.deals < deals:
        if match.phase is MatchPhase.OVER:
            summary.matches_finished += 1
            return
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.start_next_deal()
            continue
        deal = match.deal
        assert deal is not None
        seat = deal.turn
        obs = match.observation(seat)
        if check:
            check_observation(match, obs)
        action: Action = policies[seat].act(obs)
        if check and action not in obs.legal_actions:
            raise AssertionError(f"policy chose an illegal action {action}")
        version = match.version
        expected_cost = obs.drop_cost
        match.apply(action)
        summary.steps += 1
        if check:
            assert match.version == version + 1, "version did not advance"
            match.check_invariants()
            _check_step(deal, seat, action, expected_cost)
        if match.phase is not MatchPhase.PLAYING:
            summary.deals += 1
            summary.ends[match.results[-1].end.value] += 1
            if dump_dir is not None:
                number = len(match.results)
                path = dump_dir / f"match{summary.matches:04d}-deal{number:02d}.json"
                path.write_text(json.dumps(match.hand_history(number), indent=1))
    if match.phase is MatchPhase.OVER:
        summary.matches_finished += 1
        if check:
            check_match_end(match)


def _check_step(deal: Deal, seat: int, action: Action, expected_cost: int | None) -> None:
    """Turn order and drop costs, checked after every accepted action."""
    if action.kind is ActionKind.DROP:
        reason = deal.out_reason[seat]
        assert fixed_cost(deal.rules, reason) == expected_cost, "drop cost changed"
        first = reason is OutReason.FIRST_DROP
        assert first == (deal.turns_taken[seat] == 1), "first drop after a turn"
    if not deal.over and action.kind in (ActionKind.DISCARD, ActionKind.DROP):
        assert deal.turn == deal.next_seat(seat), "turn did not pass to the right"
        assert deal.phase is Phase.DRAW


def check_match_end(match: Match) -> None:
    """The match ended for the reason its format gives, with the right winners."""
    rules, played = match.rules, len(match.results)
    fmt = rules.match_format
    playing = match.in_play
    if len(playing) >= 2 or fmt is MatchFormat.POOL:
        if fmt is MatchFormat.SINGLE_DEAL:
            assert played == 1
        elif fmt is MatchFormat.DEALS:
            assert played == rules.num_deals
        elif fmt is MatchFormat.ROTATION:
            assert played == len(match.players)
        elif fmt is MatchFormat.TARGET:
            target = rules.target_score
            reached = target is not None and any(match.scores[s] >= target for s in playing)
            assert played == rules.num_deals or reached
        elif fmt is MatchFormat.POOL:
            limit = rules.pool_limit
            assert limit is not None
            assert all(match.scores[s] >= limit for s in match.eliminated)
            assert all(match.scores[s] < limit for s in playing)
            assert len(playing) <= 1 and match.winners == tuple(playing)
    if match.score_kind is ScoreKind.NET:
        assert sum(match.scores.values()) == 0
    if match.winners and fmt is not MatchFormat.POOL:
        pick = max if match.score_kind is ScoreKind.NET else min
        best = pick(match.scores[s] for s in playing)
        assert match.winners == tuple(s for s in playing if match.scores[s] == best)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.simulate", description=__doc__)
    parser.add_argument("--variant", default="paplu", help="profile name")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=100, help="total deals (across matches)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--seats", default="", help="comma-separated policy names per seat")
    parser.add_argument("--option", action="append", default=[], metavar="NAME[=VALUE]",
                        help="house-rule toggle or match option, e.g. honor, no_reshuffle, "
                        "num_deals=3")  # fmt: skip
    parser.add_argument("--dump-dir", type=Path, default=None)
    parser.add_argument("--check", action="store_true", help="verify invariants every step")
    parser.add_argument("--json", action="store_true", help="print one JSON summary")
    args = parser.parse_args(argv)
    try:
        rules = get_profile(args.variant)
        rules = rules.with_options(**_options(args.option))
    except ValueError as exc:
        parser.error(str(exc))
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    unknown = [s for s in seats if s not in POLICIES]
    if unknown:
        parser.error(f"unknown policy {unknown[0]!r} (known: {', '.join(sorted(POLICIES))})")
    if args.dump_dir is not None:
        args.dump_dir.mkdir(parents=True, exist_ok=True)
    summary = play(rules, args.players, args.deals, args.seed, seats, args.dump_dir, args.check)
    out = summary.to_dict()
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>18}: {v}")
    return 1 if summary.errors else 0


def _options(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, _, value = item.partition("=")
        if name in ("honor", "assisted"):
            out["declaration_mode"] = name
        elif not value:
            out[name] = True
        elif value.isdigit():
            out[name] = int(value)
        else:
            out[name] = value
    return out


if __name__ == "__main__":
    sys.exit(main())
