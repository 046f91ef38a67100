"""What one REST request costs a discord.py bot's process, by kind (figures, no assertions).

    python benchmarks/bench_rest_floor.py [--clicks 300] [--mix FILE.json]
    python benchmarks/bench_rest_floor.py --speedups [--rounds 8] [--clicks 400]

Starts the fake Discord here (rate limits off: this measures cost, not pacing) and
`benchmarks/rest_floor_bot.py` as a subprocess, then clicks its buttons one at a time. Each
mode makes one kind of request the real bot makes, through the same discord.py calls and with
payloads of the same size; the bot's CPU per click is read over each mode's clicks (the sum
of its threads' on-CPU time, `/proc/<pid>/task/<tid>/schedstat`, in nanoseconds: the 10-ms
ticks of utime + stime needed hundreds of clicks to a figure):

* `ack`: receive the click over the gateway and acknowledge it (deferred update, type 6);
* `hand`: the same, then edit the message through the interaction's webhook with an embed,
  a five-row view and a 25 KB PNG (a hand refresh);
* `table`: the same without the picture, and with a table's few buttons instead of a hand's
  five rows (a table edit whose picture did not change; the cheapest edit the bot makes, so
  the floor charges every edit without a picture at this price);
* `ping`: the same, then post a line in the channel and delete it (a turn ping's life);
* `answer`: answer the click with the edited message itself (UPDATE_MESSAGE with the picture);
* `lean`: `table` as the bot sends it (`bot.discord_ui.edits`: through discord.py's webhook
  adapter, Discord's answer not parsed into a message object; `table` minus `lean` is what
  that parse costs);
* `handlean`: `hand` the same way, reading only the picture's attachment of the answer.

A request's own cost is its mode's figure minus `ack`'s (medians of the rounds). With
`--mix`, the JSON line of a `bench_load.py --json` run, it also prints the floor per game
action: the requests that run made per action, each at its measured cost. The bot's real CPU
per action can only be above it: the floor has no engine, storage, layout or drawing
hand-off. `--speedups` measures the floor with and without the `speedups` extra, A/B in one
run: each round starts a floor bot per configuration in turn (asyncio's loop or uvloop,
orjson hidden or not) and clicks it `--clicks / --rounds` times a mode; the ratios to the
plain configuration are taken round by round. `bench_load.py` measures the floor itself at
the end of each run (`measure_on`, the same fake, the run's own request mix:
`floor_ms_per_action`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import RateLimits

MODES = ("ack", "hand", "table", "ping", "answer", "lean", "handlean")
#: What `floor_per_action` needs.
FLOOR_MODES = ("ack", "hand", "table", "ping")


def schedstat_ns(pid: int, only: int | None = None, field: int = 0) -> int:
    """A field of the scheduler's own account of process `pid`, summed over its threads
    (`only`: that thread alone), from `/proc/<pid>/task/<tid>/schedstat`: 0, nanoseconds on a
    CPU; 1, nanoseconds runnable but waiting for one. A thread that already ended is not
    counted: measure over a stretch in which the threads stay (the loop's, the database's)."""
    total = 0
    tids = [str(only)] if only is not None else os.listdir(f"/proc/{pid}/task")
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as stat:
                total += int(stat.read().split()[field])
        except (OSError, ValueError, IndexError):
            continue  # the thread ended meanwhile
    return total


def thread_cpu_ns(pid: int, only: int | None = None) -> int:
    """On-CPU nanoseconds of process `pid` (`only`: of that thread alone); `schedstat_ns`."""
    return schedstat_ns(pid, only)


async def measure(clicks: int, rounds: int) -> dict[str, list[float]]:
    """`measure_on` a fake of its own (rate limits off: this is cost, not pacing)."""
    fake = FakeDiscord(users=("asha",), channels=("floor",), rate_limits=RateLimits(enabled=False))
    await fake.start()
    try:
        return await measure_on(fake, "asha", "floor", clicks, rounds)
    finally:
        await fake.stop()


async def measure_on(
    fake: FakeDiscord,
    user: str,
    channel: str,
    clicks: int,
    rounds: int,
    modes: tuple[str, ...] = MODES,
    env: dict[str, str] | None = None,
) -> dict[str, list[float]]:
    """CPU ms of the floor bot per click, by mode, one figure a round (the modes interleaved
    round by round, so the machine's drift is shared). The floor bot is started here, posts
    its message in `channel`, and `user` clicks it; `env` reaches the floor bot (its event
    loop: `EVENT_LOOP`, as the real bot reads it)."""
    violations_before = len(fake.server.violations)
    bot = await fake.launch(
        "benchmarks.rest_floor_bot", env={"FLOOR_CHANNEL": channel, **(env or {})}, timeout=60.0
    )
    try:
        home = fake.channel(channel).id

        def posted() -> list[Any]:
            return [
                m
                for m in fake.server.messages.values()
                if m.content == "floor" and m.channel_id == home
            ]

        await fake.wait_for(
            lambda: bool(posted()),
            30.0,
            message=lambda: f"the floor bot posted nothing; log:\n{bot.log()}",
        )
        message = posted()[0]
        per_round = max(1, clicks // rounds)
        figures: dict[str, list[float]] = {mode: [] for mode in modes}
        for _ in range(rounds):
            for mode in modes:
                await fake.settle(quiet=0.05)
                before = thread_cpu_ns(bot.pid)
                for _ in range(per_round):
                    await fake.click(user, message.id, custom_id=f"floor:{mode}")
                # the settle's quiet wait is idle time: the bot spends ~nothing in it
                await fake.settle(quiet=0.05)
                figures[mode].append((thread_cpu_ns(bot.pid) - before) / 1e6 / per_round)
        # Only the floor's own clicks are judged: a load run before it keeps its own record.
        broken = fake.server.violations[violations_before:]
        assert not broken, f"the floor bot broke Discord's rules: {broken[:3]}"
        return figures
    finally:
        await bot.terminate()


SPEEDUPS: dict[str, dict[str, str]] = {
    "plain": {"EVENT_LOOP": "asyncio", "BENCH_NO_ORJSON": "1"},
    "orjson": {"EVENT_LOOP": "asyncio", "BENCH_NO_ORJSON": "0"},
    "uvloop": {"EVENT_LOOP": "uvloop", "BENCH_NO_ORJSON": "1"},
    "both": {"EVENT_LOOP": "uvloop", "BENCH_NO_ORJSON": "0"},
}


async def measure_speedups(clicks: int, rounds: int) -> dict[str, dict[str, list[float]]]:
    """CPU ms a click by configuration and mode, one figure a round; each round runs every
    configuration's floor bot in turn (the order reversed every other round)."""
    fake = FakeDiscord(users=("asha",), channels=(), rate_limits=RateLimits(enabled=False))
    await fake.start()
    out: dict[str, dict[str, list[float]]] = {name: {m: [] for m in MODES} for name in SPEEDUPS}
    try:
        names = list(SPEEDUPS)
        for round_no in range(rounds):
            for name in names if round_no % 2 == 0 else reversed(names):
                channel = f"floor-{round_no}-{name}"
                fake.add_channel(channel)
                got = await measure_on(
                    fake, "asha", channel, clicks // rounds, 1, MODES, SPEEDUPS[name]
                )
                for mode, values in got.items():
                    out[name][mode] += values
        return out
    finally:
        await fake.stop()


def floor_per_action(cost: dict[str, float], mix: dict[str, Any]) -> dict[str, float]:
    """The request mix of a load run, each request at its measured cost (ms an action)."""
    answer = cost["ack"]
    upload = cost["hand"] - cost["ack"]
    edit = cost["table"] - cost["ack"]
    ping_life = cost["ping"] - cost["ack"]  # a post and its deletion
    uploads = mix.get("uploads_per_action", 0.0)
    by_kind = mix.get("rest_per_action_by_kind", {})
    edits = by_kind.get("webhook_edit", 0.0) + by_kind.get("channel_edit", 0.0)
    posts = by_kind.get("channel_post", 0.0) + by_kind.get("webhook_post", 0.0)
    parts = {
        "click answers": by_kind.get("interaction_response", 0.0) * answer,
        "edits with a picture": uploads * upload,
        "edits without": max(0.0, edits - uploads) * edit,
        "posts and deletions": posts * ping_life,
    }
    parts["total"] = sum(parts.values())
    return parts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clicks", type=int, default=300, help="clicks per mode")
    parser.add_argument("--rounds", type=int, default=10, help="rounds the clicks are split in")
    parser.add_argument("--mix", type=Path, help="a bench_load.py --json output (last line)")
    parser.add_argument(
        "--speedups", action="store_true", help="A/B: uvloop and orjson on and off, interleaved"
    )
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.speedups:
        speedups(args.clicks, args.rounds)
        return
    t0 = time.perf_counter()
    figures = asyncio.run(measure(args.clicks, args.rounds))
    print(f"{args.clicks} clicks a mode in {args.rounds} rounds, {time.perf_counter() - t0:.0f} s")
    cost = {mode: statistics.median(values) for mode, values in figures.items()}
    print("mode      bot CPU ms a click (median of rounds, [min, max])   the request itself")
    for mode in MODES:
        low, high = min(figures[mode]), max(figures[mode])
        extra = "" if mode == "ack" else f"{cost[mode] - cost['ack']:8.2f}"
        print(f"{mode:<9} {cost[mode]:6.2f} [{low:5.2f}, {high:5.2f}]              {extra}")
    if args.mix:
        mix = json.loads(args.mix.read_text().strip().splitlines()[-1])
        print(f"floor per game action, at the request mix of {args.mix.name}:")
        for name, ms in floor_per_action(cost, mix).items():
            print(f"  {name:<22} {ms:6.2f} ms")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(json.dumps({"cpu_ms_per_click": cost}))


def speedups(clicks: int, rounds: int) -> None:
    t0 = time.perf_counter()
    figures = asyncio.run(measure_speedups(clicks, rounds))
    took, load = time.perf_counter() - t0, os.getloadavg()[0]
    print(f"{clicks} clicks a mode and configuration in {rounds} rounds, {took:.0f} s; "
          f"load average now {load:.2f}")  # fmt: skip
    print("configuration, then CPU ms a click by mode (median of rounds) and its ratio to plain "
          "(median of the rounds' ratios)")  # fmt: skip
    plain = figures["plain"]
    for name, by_mode in figures.items():
        cells = []
        for mode in MODES:
            ratio = statistics.median(
                a / b for a, b in zip(by_mode[mode], plain[mode], strict=True)
            )
            cells.append(f"{mode} {statistics.median(by_mode[mode]):.2f} ({ratio:.2f})")
        print(f"  {name:<7} " + "  ".join(cells))
    print(json.dumps({"speedups_cpu_ms_per_click": figures}))


if __name__ == "__main__":
    main()
