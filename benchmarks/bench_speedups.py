"""The `speedups` extra, A/B in one run: the load test with and without uvloop and orjson.

    python benchmarks/bench_speedups.py [--tables 60] [--seconds 40] [--rounds 2]

Runs `bench_load.run_load` once per configuration and round, the configurations in turn
(the second round in the reverse order, so a drift of the shared machine falls on both
sides): asyncio's loop without orjson (the plain install), orjson alone, uvloop alone, both.
Each run measures its own floor (the floor bot on the same loop, with or without orjson).
Prints, per configuration, the bot's CPU and the floor per game action, their difference,
the drawing process's, and each run's ratio to the plain run of its round; then one JSON line.
The machine's load is printed with every run. Figures, no assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_load import run_load

CONFIGS: dict[str, tuple[str, bool]] = {  # name: (EVENT_LOOP, orjson)
    "plain": ("asyncio", False),
    "orjson": ("asyncio", True),
    "uvloop": ("uvloop", False),
    "both": ("uvloop", True),
}
KEYS = (
    "bot_cpu_ms_per_action",
    "bot_loop_cpu_ms_per_action",
    "floor_ms_per_action",
    "bot_minus_floor_ms_per_action",
    "drawing_cpu_ms_per_action",
    "ack_p99_ms",
    "loop_lag_p99_ms",
    "actions_per_s",
    "load_average",
)


async def main_async(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in CONFIGS}
    order = list(CONFIGS)
    for round_no in range(args.rounds):
        for name in order if round_no % 2 == 0 else reversed(order):
            loop, orjson = CONFIGS[name]
            load = os.getloadavg()[0]
            report = await run_load(
                args.tables,
                args.seconds,
                event_loop=loop,
                orjson=orjson,
                floor_clicks=args.floor_clicks,
                driver_nice=args.driver_nice,
                seed=round_no + 1,
                say=lambda _line: None,
            )
            figures = report.figures()
            figures["load_before"] = round(load, 2)
            results[name].append(figures)
            shown = ", ".join(f"{k} {figures[k]}" for k in KEYS)
            print(f"round {round_no + 1} {name:<7} load {load:.1f}: {shown}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--floor-clicks", type=int, default=120)
    parser.add_argument("--driver-nice", type=int, default=5)
    args = parser.parse_args()
    results = asyncio.run(main_async(args))
    print(f"medians over {args.rounds} rounds ({args.tables} tables, {args.seconds:.0f} s):")
    summary: dict[str, dict[str, float]] = {}
    for name, runs in results.items():
        summary[name] = {k: statistics.median(r[k] for r in runs) for k in KEYS}
        print(f"  {name:<7} " + ", ".join(f"{k} {v:.2f}" for k, v in summary[name].items()))
    for name in CONFIGS:
        if name == "plain":
            continue
        ratios = [
            round(r["bot_cpu_ms_per_action"] / p["bot_cpu_ms_per_action"], 3)
            for r, p in zip(results[name], results["plain"], strict=True)
        ]
        floors = [
            round(r["floor_ms_per_action"] / p["floor_ms_per_action"], 3)
            for r, p in zip(results[name], results["plain"], strict=True)
        ]
        print(f"  {name:<7} / plain, bot CPU per action by round: {ratios}; floor: {floors}")
    print(json.dumps({"summary": summary, "runs": results}))


if __name__ == "__main__":
    main()
