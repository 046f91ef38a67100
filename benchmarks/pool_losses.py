"""What the loser of a heads-up pool deal adds to their total: the spread `bot.ai.equity` uses.

    python benchmarks/pool_losses.py --matches 100 --seed 2026 --seats expert@pool_equity=0,hard
    python benchmarks/pool_losses.py --seats hard,hard --profile pool201

Plays heads-up pool matches, each match seed in both seatings, and counts the points every
lost deal added to its loser (drops, full counts and deadwood alike; void deals add nothing
and are left out). Prints the share of each 5-point step (a loss of 1-2 points is the step
"2", since a deal never adds 0 to its loser) as a Python tuple to paste into
`bot/ai/equity.py`, and the mean. A benchmark, not a test: no assertion.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.match import Match, MatchPhase
from bot.engine.rules import MatchFormat, get_profile
from bot.simulate import seats_to_act

sys.path.insert(0, str(Path(__file__).resolve().parent))
from duplicate import variant


def losses(profile: str, seed: int, seats: Sequence[str]) -> list[float]:
    """The points each lost deal of one match added to its loser."""
    rules = get_profile(profile)
    match = Match.create(["P0", "P1"], rules, seed=seed)
    policies = [variant(s)(random.Random(seed * 7919 + i)) for i, s in enumerate(seats)]
    out: list[float] = []
    for seat in seats_to_act(match):
        match.apply(policies[seat].act(match.observation(seat)))
        if match.phase is not MatchPhase.PLAYING:
            result = match.results[-1]
            if not result.void:
                out += [float(d) for s, d in result.deltas.items() if s != result.winner and d > 0]
    return out


def step(points: float) -> int:
    """The 5-point step a loss falls in; 1-2 points is the step 2."""
    s = min(80, 5 * round(points / 5))
    return s if s > 0 else 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100, help="match seeds (each played twice)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--seats", default="expert,hard",
                        help="the two policies, as duplicate.py's variants")  # fmt: skip
    parser.add_argument("--profile", default="pool101")
    args = parser.parse_args(argv)
    if get_profile(args.profile).match_format is not MatchFormat.POOL:
        parser.error(f"{args.profile} is not a pool profile")
    seats = [s.strip() for s in args.seats.split(",")]
    if len(seats) != 2:
        parser.error("--seats takes two policies")
    master = random.Random(args.seed)
    added: list[float] = []
    for _ in range(args.matches):
        match_seed = master.getrandbits(40)
        added += losses(args.profile, match_seed, seats)
        added += losses(args.profile, match_seed, seats[::-1])
    counts = Counter(step(p) for p in added)
    mean = statistics.fmean(added)
    print(f"{args.profile}, {args.seats}, {args.matches} match seeds x 2 seatings, "
          f"seed {args.seed}: {len(added)} lost deals, mean {mean:.1f} points")  # fmt: skip
    rows = ", ".join(f"({k}, {counts[k] / len(added):.3f})" for k in sorted(counts))
    print(f"LOSS_POINTS = ({rows})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
