"""What a game action costs the table layer below Discord, piece by piece (figures only).

    python benchmarks/bench_table_costs.py [--rounds 7] [--calls 300]

On a real three-seat `points` table a dozen turns into its first deal, times (CPU of this
thread, `time.thread_time_ns`) the pieces every stored change pays, the old way and the new
interleaved round by round: the working copy (`Table.copy`; before: `load_state(to_state())`,
which read the match back by replaying its dealing and pile), the saved state (`to_json`;
before: the standard library's `json.dumps`), the mover's drop cost (`Match.drop_cost`;
before: the mover's whole `Match.observation`), and an observation as the hand view asks for
it (`Table.observation_for`, kept per state and seat). Medians of the rounds, in µs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.match import Match
from bot.engine.states import Player
from bot.images.samples import NAMES, play_until
from bot.table.model import Seat, Table, TableOptions, json_default


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    players = [Player(f"u{i + 1}", name) for i, name in enumerate(NAMES[:3])]
    m = Match.create(players, "points", seed=5)
    play_until(m, lambda mm: mm.deal is not None and sum(mm.deal.turns_taken.values()) >= 12, 5)
    table = Table("abcdefghij", 1, 2, 3, TableOptions("points", 3, 60))
    table.seats = [Seat(p.id, p.name, user_id=i + 1) for i, p in enumerate(m.players)]
    table.match = m

    def copy_before() -> object:
        work = Table(table.id, table.guild_id, table.channel_id, table.host_id, table.options)
        work.load_state(table.to_state())
        work.log = list(table.log)
        return work

    def json_before() -> object:
        return json.dumps(table.to_state(), default=json_default, separators=(",", ":"))

    user = table.seats[0].user_id or 0
    pieces: dict[str, Callable[[], object]] = {
        "working copy, before": copy_before,
        "working copy, after": table.copy,
        "saved state, before": json_before,
        "saved state, after": table.to_json,
        "drop cost, before (observation)": lambda: m.observation(0).drop_cost,
        "drop cost, after": lambda: m.drop_cost(0),
        "observation, every time": lambda: m.observation(0),
        "observation, kept per state": lambda: table.observation_for(user),
    }
    figures: dict[str, list[float]] = {name: [] for name in pieces}
    for _ in range(args.rounds):
        for name, piece in pieces.items():
            start = time.thread_time_ns()
            for _ in range(args.calls):
                piece()
            figures[name].append((time.thread_time_ns() - start) / args.calls / 1000)
    for name, values in figures.items():
        print(f"{name:<34} {statistics.median(values):8.1f} µs")


if __name__ == "__main__":
    main()
