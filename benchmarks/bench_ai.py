"""Decision time of each AI tier: `python benchmarks/bench_ai.py [--deals N] [--profile points]`.

Plays heads-up deals of each tier against itself with fixed seeds and times every `act` call
(the observation is built outside the timer: the bot builds it anyway for the hand view).
Prints p50 / p95 / max per tier in milliseconds beside the targets (hard p95 <= 100 ms, medium
p95 <= 10 ms). A benchmark, not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import make_policy
from bot.engine.match import Match, MatchPhase
from bot.engine.rules import get_profile

TARGETS_MS = {"hard": 100.0, "medium": 10.0}


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return 0.0
    k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[k]


def time_tier(tier: str, profile: str, deals: int, players: int, seed: int) -> list[float]:
    rules = get_profile(profile)
    times: list[float] = []
    rng = random.Random(seed)
    for _ in range(deals):
        match_seed = rng.getrandbits(32)
        match = Match.create([f"P{i}" for i in range(players)], rules, seed=match_seed)
        policies = [make_policy(tier, match_seed + s) for s in range(players)]
        while match.phase is MatchPhase.PLAYING and len(match.results) == 0:
            deal = match.deal
            assert deal is not None
            seat = deal.turn
            obs = match.observation(seat)
            t0 = time.perf_counter()
            action = policies[seat].act(obs)
            times.append(time.perf_counter() - t0)
            match.apply(action)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--profile", default="points")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tiers", default="easy,medium,hard")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = {}
    for tier in args.tiers.split(","):
        ts = [t * 1000 for t in time_tier(tier, args.profile, args.deals, args.players, args.seed)]
        out[tier] = {
            "decisions": len(ts),
            "p50_ms": round(percentile(ts, 0.50), 2),
            "p95_ms": round(percentile(ts, 0.95), 2),
            "max_ms": round(max(ts), 2),
            "mean_ms": round(statistics.fmean(ts), 2),
            "target_p95_ms": TARGETS_MS.get(tier),
        }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.profile}, {args.players} players, {args.deals} deals per tier")
    print(f"{'tier':<8}{'decisions':>10}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'target':>9}")
    for tier, r in out.items():
        target = r["target_p95_ms"]
        mark = "" if target is None else ("  ok" if r["p95_ms"] <= target else "  MISSED")
        print(f"{tier:<8}{r['decisions']:>10}{r['p50_ms']:>9}{r['p95_ms']:>9}{r['max_ms']:>9}"
              f"{'-' if target is None else target:>9}{mark}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
