"""CPU time and size of replay pages (a script, not a test: it prints figures, asserts nothing).

    python benchmarks/bench_replay.py [--deals 12] [--runs 20] [--seed 1]

The Discord side makes a page when a player asks for one (`bot.replay.deal_page`), so what
matters is the CPU it takes in a warm process and the size of the file sent. This plays deals
with program players (the medium AI at 4 and 6 seats under points rules, the easy AI in pool
101, and the random player, whose aimless play makes deals of a hundred moves and more), keeps
their hand histories as JSON gives them back, then makes each page `--runs` times and prints,
per kind of deal, the moves per deal and the CPU per page (`time.process_time`, the median of
the runs, so another process on the machine does not count) and the page's size; then the worst
page, a match page, and the first page of a fresh process (which also loads the catalogue and
builds the evaluator's tables, once per process). The budget (issue 43): a deal's page at most
250 KB and 50 ms of CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import make_policy
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import Policy, RandomPolicy

History = dict[str, Any]


def play(profile: str, players: int, tier: str, seed: int, deals: int) -> list[History]:
    """`deals` finished deals (consecutive matches) played by `tier` at every seat."""
    out: list[History] = []
    match_seed = seed
    while len(out) < deals:
        match_seed += 1
        m = Match.create([f"Player {i + 1}" for i in range(players)], profile, seed=match_seed)
        policies: list[Policy] = [
            RandomPolicy(random.Random(match_seed * 7 + s), drop_chance=0.02)
            if tier == "random"
            else make_policy(tier, match_seed * 31 + s)
            for s in range(players)
        ]
        while m.phase is not MatchPhase.OVER and len(out) < deals:
            if m.phase is MatchPhase.BETWEEN_DEALS:
                m.start_next_deal()
                continue
            assert m.deal is not None
            seat = m.deal.turn
            m.apply(policies[seat].act(m.observation(seat)))
            if m.phase is not MatchPhase.PLAYING:
                out.append(json.loads(json.dumps(m.hand_history(len(m.results)))))
    return out


def cpu_ms(make: Any, runs: int) -> float:
    """Median CPU milliseconds of `make()` over `runs` runs."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        make()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=12, help="deals of each kind")
    parser.add_argument("--runs", type=int, default=20, help="pages made per deal")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    kinds = {
        "points, 4 medium AI": play("points", 4, "medium", args.seed, args.deals),
        "points, 6 medium AI": play("points", 6, "medium", args.seed, args.deals),
        "pool101, 3 easy AI": play("pool101", 3, "easy", args.seed, args.deals),
        "pool101, 4 random players": play("pool101", 4, "random", args.seed, args.deals),
    }
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")

    # A fresh import: the first page of a process pays the catalogue and the evaluator's tables.
    first = next(iter(kinds.values()))[0]
    start = time.process_time()
    from bot.replay import deal_page, match_page

    deal_page(first, "hi")
    print(f"first page of the process (imports, catalogue, tables): "
          f"{(time.process_time() - start) * 1000:.0f} ms CPU")  # fmt: skip

    worst: tuple[float, int, int, str] = (0.0, 0, 0, "")
    print(f"\n{'deals':<28}{'moves (med/max)':>17}{'CPU ms (med/max)':>18}{'KB (med/max)':>14}")
    for name, histories in kinds.items():
        moves, cpus, sizes = [], [], []
        for h in histories:
            size = len(deal_page(h))
            cpu = cpu_ms(lambda h=h: deal_page(h), args.runs)
            moves.append(len(h["events"]))
            cpus.append(cpu)
            sizes.append(size / 1024)
            if cpu > worst[0]:
                worst = (cpu, size, len(h["events"]), name)
        print(
            f"{name:<28}{statistics.median(moves):>9.0f} /{max(moves):>5}"
            f"{statistics.median(cpus):>10.1f} /{max(cpus):>6.1f}"
            f"{statistics.median(sizes):>7.0f} /{max(sizes):>5.0f}"
        )
    print(f"\nslowest page: {worst[0]:.1f} ms CPU, {worst[1] / 1024:.0f} KB, "
          f"{worst[2]} events ({worst[3]})")  # fmt: skip
    pool = kinds["pool101, 3 easy AI"]
    by_match: list[History] = []
    for h in pool:  # the first match's deals: deal numbers rise until the next match starts
        if by_match and h["deal_number"] <= by_match[-1]["deal_number"]:
            break
        by_match.append(h)
    size = len(match_page(by_match))
    cpu = cpu_ms(lambda: match_page(by_match), max(3, args.runs // 4))
    print(f"match page, {len(by_match)} deals of pool101: {cpu:.1f} ms CPU, {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
