"""Deals per second with random players, per profile (a script, not a test).

    python benchmarks/bench_flow.py [--deals 300] [--players 4] [--check]

Measures the whole flow: shuffling, dealing, observations with legal actions (which run the
evaluator when a declaration might be possible), settlement and hand histories.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.rules import PROFILES
from bot.simulate import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="also verify invariants")
    args = parser.parse_args()
    print(f"{'profile':<10}{'deals/s':>10}{'steps/deal':>12}  ends")
    for name, rules in PROFILES.items():
        s = play(rules, args.players, args.deals, seed=args.seed, check=args.check)
        rate = s.deals / s.seconds if s.seconds else float("inf")
        print(f"{name:<10}{rate:>10.1f}{s.steps / max(s.deals, 1):>12.1f}  {dict(s.ends)}")
        if s.errors:
            print("  errors:", s.errors[:3])


if __name__ == "__main__":
    main()
