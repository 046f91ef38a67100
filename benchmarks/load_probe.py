"""Measurements from inside the bot process, for `bench_load.py`.

Run as ``python -m tests.fakediscord.launch benchmarks.load_probe``: it wraps a few functions
(without changing what they do), then runs the real entry point, ``python -m bot``. Why inside:
event-loop lag can only be seen by a task on the bot's own loop, and database writes are
counted where they are made. Every ``LOAD_PROBE_EVERY`` seconds the figures so far are written
to the JSON file named by ``LOAD_PROBE_FILE`` (atomically, so the benchmark never reads half).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

if os.environ.get("BENCH_NO_ORJSON") == "1":
    # For A/B runs: as if orjson were not installed (discord.py and `bot.fastjson` import it
    # when they can; a None entry makes that import fail).
    sys.modules["orjson"] = None  # type: ignore[assignment]

import bot.__main__
from bot.discord_ui import client
from bot.storage.pg import PgDatabase
from bot.storage.sqlite import SqliteDatabase
from bot.storage.tables import TableRepo

PERIOD = 0.05  # seconds the lag probe sleeps; lag = how much later than that it wakes

_budget: list[Any] = []  # the bot's RestBudget, once it exists
_bots: list[Any] = []  # the bot itself (its presenter's lent-token counters)
_stats: dict[str, Any] = {
    "lag": [],  # [epoch seconds, overshoot ms]
    "transactions": 0,  # write transactions (any aggregate)
    "commits": 0,  # game actions saved (state + event, one transaction each)
    "payload_bytes": 0,  # state_json + event_json bytes handed to SQLite
    "events": {},  # event type -> count
    "slow": {},  # callback description -> [count, total ms, max ms] for callbacks over SLOW_MS
    "ack_sent": [],  # ms from the interaction's creation (its snowflake) to the bot's ack call
    "memory": [],  # tracemalloc top lines (LOAD_PROBE_TRACEMALLOC=1), latest dump only
    "drawn": {},  # picture name stem -> pictures the drawing process was asked for
}
SLOW_MS = 20.0  # a callback that holds the loop this long delays every other table


def _watch_slow_callbacks() -> None:
    """Time every callback the loop runs (two clock reads each) and keep the slow ones by
    what they were: the loop-lag figure says *that* the loop was late, this says *why*."""
    original_run = asyncio.events.Handle._run

    def _run(self: asyncio.events.Handle) -> None:
        start = time.perf_counter()
        original_run(self)
        ms = (time.perf_counter() - start) * 1000
        if ms >= SLOW_MS:
            key = _describe(self)
            entry = _stats["slow"].setdefault(key, [0, 0.0, 0.0])
            entry[0] += 1
            entry[1] += ms
            entry[2] = max(entry[2], ms)

    asyncio.events.Handle._run = _run  # type: ignore[method-assign]


def _watch_acks() -> None:
    """When the bot starts each acknowledgement, measured from the interaction's snowflake
    time (stamped by the fake server as it creates it): the bot's share of the ack latency,
    without the fake server's own delays in reading the answer."""
    import discord

    for name in ("defer", "send_message", "edit_message", "send_modal"):
        original = getattr(discord.InteractionResponse, name)

        def wrapper(original: Any, name: str) -> Any:
            async def ack(self: Any, *args: Any, **kwargs: Any) -> Any:
                created = self._parent.created_at.timestamp()
                data = self._parent.data or {}
                what = str(data.get("custom_id") or data.get("name") or "?").split(":")
                kind = ":".join(what[4:5] or what[:1]) + f" {name}"
                _stats["ack_sent"].append(
                    (round(time.time(), 3), round((time.time() - created) * 1000, 1), kind)
                )
                return await original(self, *args, **kwargs)

            return ack

        setattr(discord.InteractionResponse, name, wrapper(original, name))


def _watch_drawing() -> None:
    """Count the pictures the bot asks its drawing process for, by file name stem: set
    beside the uploads the fake Discord counts, it says how many are drawn and never sent
    (a table picture whose edit a newer one replaced, a refresh that drew the same scene)."""
    from bot.discord_ui.card_images import ImageWorker

    original = ImageWorker.run

    async def run(self: Any, picture: Any, *args: Any, **kwargs: Any) -> Any:
        stem = str(getattr(picture, "name", "?"))
        _stats["drawn"][stem] = _stats["drawn"].get(stem, 0) + 1
        return await original(self, picture, *args, **kwargs)

    ImageWorker.run = run  # type: ignore[method-assign]


def _describe(handle: asyncio.events.Handle) -> str:
    callback = getattr(handle, "_callback", None)
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        frame = getattr(coro, "cr_frame", None)
        name = getattr(coro, "__qualname__", repr(coro))
        where = f"{frame.f_code.co_filename.rsplit('/', 1)[-1]}:{frame.f_lineno}" if frame else ""
        return f"task {name} {where}"
    return repr(callback)[:120]


def _memory_top() -> list[str]:
    import tracemalloc

    snapshot = tracemalloc.take_snapshot()
    stats = snapshot.statistics("lineno")
    total = sum(s.size for s in stats)
    lines = [f"total traced {total / 2**20:.1f} MiB"]
    lines += [f"{s.size / 1024:9.0f} KiB {s.count:8d} {s.traceback}" for s in stats[:40]]
    return lines


async def _lag_probe() -> None:
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(PERIOD)
        overshoot = loop.time() - start - PERIOD
        _stats["lag"].append((round(time.time(), 3), round(overshoot * 1000, 2)))


#: The growing sample lists: appended to `samples_path(path)` as they come, never rewritten
#: (rewriting them whole every dump cost the bot's loop ~4% of its CPU at 60 tables).
SAMPLES = ("lag", "ack_sent")


def samples_path(path: Path) -> Path:
    return path.with_suffix(".samples")


async def _dump(path: Path, every: float) -> None:
    trace = os.environ.get("LOAD_PROBE_TRACEMALLOC") == "1"
    count = 0
    while True:
        await asyncio.sleep(every)
        count += 1
        if trace and count % 20 == 0:
            _stats["memory"] = _memory_top()
        for budget in _budget:
            _stats["budget"] = {
                "slots": budget.slots,
                "expired": budget.expired,
                "waited_s": round(budget.waited, 3),
                "held_s": round(budget.held, 3),
                "shedding": budget.shedding,
            }
        for client_ in _bots:
            hooks = getattr(
                getattr(getattr(client_, "presenter", None), "table_message", None), "hooks", None
            )
            if hooks is not None:
                _stats["budget"]["hook_edits"] = hooks.edits
                _stats["budget"]["hook_fallbacks"] = hooks.fallbacks
                _stats["budget"]["hook_none_lent"] = hooks.none_lent
                _stats["budget"]["hook_all_busy"] = hooks.all_busy
        # New samples first, as whole lines: a reader never sees a half-written one twice.
        lines = "".join(json.dumps([key, _stats[key]]) + "\n" for key in SAMPLES if _stats[key])
        if lines:
            with samples_path(path).open("a") as out:
                out.write(lines)
            for key in SAMPLES:
                _stats[key] = []
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(_stats))
        os.replace(tmp, path)


def _install(path: Path, every: float) -> None:
    for backend in (SqliteDatabase, PgDatabase):
        original_transaction = backend._transaction

        def transaction(
            self: Any, *args: Any, _original: Any = original_transaction, **kwargs: Any
        ) -> Any:
            _stats["transactions"] += 1
            return _original(self, *args, **kwargs)

        backend._transaction = transaction  # type: ignore[method-assign]

    original_atomically = getattr(SqliteDatabase, "atomically", None)  # (older code: none)
    if original_atomically is not None:

        async def atomically(self: Any, *args: Any, **kwargs: Any) -> Any:
            _stats["transactions"] += 1  # a whole transaction in one call (commit_action)
            return await original_atomically(self, *args, **kwargs)

        SqliteDatabase.atomically = atomically  # type: ignore[method-assign]

    original_commit = TableRepo.commit_action

    async def commit_action(
        repo: Any, table_id: str, version: int, state_json: str, event_json: str, **kw: Any
    ) -> None:
        _stats["commits"] += 1
        _stats["payload_bytes"] += len(state_json.encode()) + len(event_json.encode())
        kind = json.loads(event_json).get("type", "?")
        _stats["events"][kind] = _stats["events"].get(kind, 0) + 1
        await original_commit(repo, table_id, version, state_json, event_json, **kw)

    TableRepo.commit_action = commit_action  # type: ignore[method-assign]

    original_save = TableRepo.save_table

    async def save_table(repo: Any, table_id: str, **kw: Any) -> None:
        _stats["payload_bytes"] += len(str(kw.get("state_json", "")).encode())
        await original_save(repo, table_id, **kw)

    TableRepo.save_table = save_table  # type: ignore[method-assign]

    original_setup = client.PapluBot.setup_hook
    background: list[asyncio.Task[None]] = []

    async def setup_hook(self: Any) -> None:
        _budget.append(self.budget)
        _bots.append(self)
        background.append(asyncio.create_task(_lag_probe()))
        background.append(asyncio.create_task(_dump(path, every)))
        await original_setup(self)

    client.PapluBot.setup_hook = setup_hook  # type: ignore[method-assign]


def _watch_gc() -> None:
    """Time every garbage collection, by generation: a full collection of a large heap holds
    the loop like any long callback, and is not one."""
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        entry = _stats["gc"].setdefault(str(info["generation"]), [0, 0.0, 0.0])
        took = (time.perf_counter() - started[0]) * 1000
        entry[0] += 1
        entry[1] += took
        entry[2] = max(entry[2], took)

    _stats["gc"] = {}
    gc.callbacks.append(callback)


def main() -> int:
    path = Path(os.environ["LOAD_PROBE_FILE"])
    _watch_gc()
    if os.environ.get("LOAD_PROBE_TRACEMALLOC") == "1":
        import tracemalloc

        tracemalloc.start(1)
    _watch_slow_callbacks()
    _watch_acks()
    _watch_drawing()
    if os.environ.get("BENCH_DRAWING_NICE"):
        # For A/B runs of the drawing process's priority (`bench_load.py --drawing-nice`).
        from bot.discord_ui import card_images

        card_images.DRAWING_NICENESS = int(os.environ["BENCH_DRAWING_NICE"])
    _install(path, float(os.environ.get("LOAD_PROBE_EVERY", "1")))
    return bot.__main__.main()


if __name__ == "__main__":
    raise SystemExit(main())
