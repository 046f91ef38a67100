"""Bytes per write of the live table state over a seeded pool101 match (a script, not a test).

    python benchmarks/bench_state_size.py [--players 4 6] [--deals 6] [--seed 1] [--seeds 5]
                                          [--policy medium|easy|hard|random] [--drop-chance 0.02]

The table service saves the whole table (`bot.table.model.Table.to_json()`, which embeds
`Match.to_dict()`) on every accepted click, so the size of that JSON is paid on every move. This
plays one match with program players, takes the same snapshot after every accepted change
(each action, each `start_next_deal`) and prints the largest write, the median, and the write
that ended each deal, for one match per seed and players count, then the worst over all of
them. The default players are the medium AI (what a table plays against); `--policy random` is a
stress test: the random player drops less often than the engine's default (`--drop-chance`) so
pool matches last, and its aimless discarding makes deals of hundreds of turns. The script
only uses public APIs that exist before and after the state-size work, so it measures both.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import make_policy
from bot.engine.match import Match, MatchPhase, Player
from bot.engine.policy import Policy, RandomPolicy
from bot.table.model import Seat, Table, TableOptions
from bot.table.vocabulary import TableStatus


def make(policy: str, seed: int, drop_chance: float) -> Policy:
    if policy == "random":
        return RandomPolicy(random.Random(seed), drop_chance=drop_chance)
    return make_policy(policy, seed)


def play(players: int, deals: int, seed: int, policy: str, drop_chance: float) -> dict[str, Any]:
    names = [f"Player {i + 1}" for i in range(players)]
    seats = [Seat(f"u{100 + i}", n, user_id=100 + i) for i, n in enumerate(names)]
    table = Table("benchtable", 1, 2, 100, TableOptions("pool101", players, 60), seats=seats)
    table.status = TableStatus.PLAYING
    table.seed = seed
    match = Match.create([Player(s.key, s.name) for s in seats], "pool101", seed=seed)
    table.match = match
    policies: dict[int, Policy] = {
        s: make(policy, seed * 31 + s, drop_chance) for s in range(players)
    }
    writes: list[int] = []
    engine_writes: list[int] = []
    deal_ends: list[int] = []

    def write() -> int:
        table.version += 1
        size = len(table.to_json().encode())
        writes.append(size)
        engine_writes.append(len(match.to_json().encode()))
        return size

    write()
    while match.phase is not MatchPhase.OVER:
        if match.phase is MatchPhase.BETWEEN_DEALS:
            if len(match.results) >= deals:
                break
            mark = match.event_count
            match.start_next_deal()
            table.log = match.entries_since(mark)  # as the table does: this deal's moves only
            write()
            continue
        deal = match.deal
        assert deal is not None
        seat = deal.turn
        mark = match.event_count
        match.apply(policies[seat].act(match.observation(seat)))
        table.log.extend(match.entries_since(mark))  # the public log's records (facts)
        size = write()
        if match.phase is not MatchPhase.PLAYING:
            deal_ends.append(size)
    return {
        "players": players,
        "deals": len(match.results),
        "writes": len(writes),
        "max": max(writes),
        "median": int(statistics.median(writes)),
        "deal_ends": deal_ends,
        "engine_max": max(engine_writes),
        "engine_median": int(statistics.median(engine_writes)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--seeds", type=int, default=5, help="how many seeds (one match each)")
    parser.add_argument("--policy", default="medium", help="random, easy, medium or hard")
    parser.add_argument("--drop-chance", type=float, default=0.02, help="random player only")
    args = parser.parse_args()
    for n in args.players:
        worst: dict[str, Any] | None = None
        medians = []
        for seed in range(args.seed, args.seed + args.seeds):
            r = play(n, args.deals, seed, args.policy, args.drop_chance)
            medians.append(r["median"])
            print(
                f"seed {seed}: pool101 {n} players, {r['deals']} deals, {r['writes']} writes: "
                f"max {r['max']} B, median {r['median']} B "
                f"(Match.to_json max {r['engine_max']} B); at deal ends {r['deal_ends']}"
            )
            if worst is None or r["max"] > worst["max"]:
                worst = {**r, "seed": seed}
        assert worst is not None
        print(
            f"== {n} players ({args.policy}): worst write {worst['max']} B (seed {worst['seed']}, "
            f"{worst['deals']} deals), median of medians {int(statistics.median(medians))} B"
        )


if __name__ == "__main__":
    main()
