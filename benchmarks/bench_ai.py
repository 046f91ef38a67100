"""Decision time of each AI tier: `python benchmarks/bench_ai.py [--deals N] [--profile points]`.

`--tiers` also takes a variant as `duplicate.py` does (`expert@chips_per_turn=2`).

Plays heads-up deals of each tier against itself with fixed seeds and times every `act` call
(the observation is built outside the timer: the bot builds it anyway for the hand view).
Prints p50 / p95 / max / mean per tier in milliseconds of CPU time (`time.process_time`: on a
shared machine wall time measures the neighbours) beside the targets (expert p95 <= 300 ms and
max <= 1 s, hard p95 <= 100 ms, medium p95 <= 10 ms).

`--loop-lag`: the event loop's lag while expert decisions are computed, the way the bot would
run them: a ticker task sleeps 5 ms at a time and records how late it wakes, first with no AI
thinking (the baseline), then with the decisions run on a thread (`asyncio.to_thread`, what
the table service did), then in the worker process (`bot.ai.thinking.decide`). Prints the
ticker's p50 / p95 / max lateness for each. A benchmark, not a test: numbers depend on the
machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot.ai import make_policy
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation
from bot.engine.policy import Policy
from bot.engine.rules import get_profile

TARGETS_MS = {"expert": 300.0, "hard": 100.0, "medium": 10.0}


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return 0.0
    k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[k]


def _policy(tier: str, seed: int) -> Policy:
    """A tier, or a variant `tier@name=value...` as `duplicate.py` takes it."""
    if "@" not in tier:
        return make_policy(tier, seed)
    from duplicate import variant

    return variant(tier)(random.Random(seed))


def time_tier(tier: str, profile: str, deals: int, players: int, seed: int) -> list[float]:
    rules = get_profile(profile)
    times: list[float] = []
    rng = random.Random(seed)
    for _ in range(deals):
        match_seed = rng.getrandbits(32)
        match = Match.create([f"P{i}" for i in range(players)], rules, seed=match_seed)
        policies = [_policy(tier, match_seed + s) for s in range(players)]
        while match.phase is MatchPhase.PLAYING and len(match.results) == 0:
            deal = match.deal
            assert deal is not None
            seat = deal.turn
            obs = match.observation(seat)
            t0 = time.process_time()
            action = policies[seat].act(obs)
            times.append(time.process_time() - t0)
            match.apply(action)
    return times


def sample_observations(n: int, seed: int) -> list[Observation]:
    """Observations from hard-vs-hard heads-up points deals, every seat's every decision."""
    rules = get_profile("points")
    out: list[Observation] = []
    rng = random.Random(seed)
    while len(out) < n:
        match = Match.create(["P0", "P1"], rules, seed=rng.getrandbits(32))
        policies = [make_policy("hard", s) for s in range(2)]
        while match.phase is MatchPhase.PLAYING and len(out) < n:
            deal = match.deal
            assert deal is not None
            obs = match.observation(deal.turn)
            out.append(obs)
            match.apply(policies[deal.turn].act(obs))
    return out


async def _lag(mode: str, observations: list[Observation]) -> list[float]:
    """Ticker lateness (ms) while `observations` are decided one after another in `mode`."""
    from bot.ai import thinking

    lateness: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        loop = asyncio.get_running_loop()
        while not done.is_set():
            t0 = loop.time()
            await asyncio.sleep(0.005)
            lateness.append(1000 * (loop.time() - t0 - 0.005))

    task = asyncio.create_task(ticker())
    if mode == "idle":
        await asyncio.sleep(0.005 * len(observations) * 4)
    for obs in observations if mode != "idle" else ():
        if mode == "thread":
            await asyncio.to_thread(thinking.think, "expert", obs, 1)
        else:
            await thinking.decide("expert", obs, 1)
    done.set()
    await task
    return lateness


def loop_lag(decisions: int, seed: int) -> dict[str, dict[str, float]]:
    from bot.ai import thinking

    observations = sample_observations(decisions, seed)
    out = {}
    try:
        asyncio.run(thinking.warm_up())
        for mode in ("idle", "thread", "process"):
            lag = asyncio.run(_lag(mode, observations))
            out[mode] = {
                "ticks": len(lag),
                "p50_ms": round(percentile(lag, 0.5), 2),
                "p95_ms": round(percentile(lag, 0.95), 2),
                "max_ms": round(max(lag), 2),
            }
    finally:
        thinking.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--profile", default="points")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tiers", default="easy,medium,hard,expert")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--loop-lag", type=int, default=0, metavar="N",
                        help="event-loop lag over N expert decisions instead")  # fmt: skip
    args = parser.parse_args()
    if args.loop_lag:
        lag = loop_lag(args.loop_lag, args.seed)
        if args.json:
            print(json.dumps(lag))
            return 0
        print(f"event-loop lag over {args.loop_lag} expert decisions (5 ms ticker, lateness)")
        print(f"{'mode':<9}{'ticks':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
        for mode, r in lag.items():
            print(f"{mode:<9}{r['ticks']:>7}{r['p50_ms']:>9}{r['p95_ms']:>9}{r['max_ms']:>9}")
        return 0
    out = {}
    for tier in args.tiers.split(","):
        ts = [t * 1000 for t in time_tier(tier, args.profile, args.deals, args.players, args.seed)]
        out[tier] = {
            "decisions": len(ts),
            "p50_ms": round(percentile(ts, 0.50), 2),
            "p95_ms": round(percentile(ts, 0.95), 2),
            "max_ms": round(max(ts), 2),
            "mean_ms": round(statistics.fmean(ts), 2),
            "target_p95_ms": TARGETS_MS.get(tier.split("@")[0]),
        }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.profile}, {args.players} players, {args.deals} deals per tier, CPU ms")
    print(f"{'tier':<8}{'decisions':>10}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'mean ms':>9}"
          f"{'target':>9}")  # fmt: skip
    for tier, r in out.items():
        target = r["target_p95_ms"]
        mark = "" if target is None else ("  ok" if r["p95_ms"] <= target else "  MISSED")
        print(f"{tier:<8}{r['decisions']:>10}{r['p50_ms']:>9}{r['p95_ms']:>9}{r['max_ms']:>9}"
              f"{r['mean_ms']:>9}"
              f"{'-' if target is None else target:>9}{mark}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
