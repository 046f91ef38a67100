"""Every background task of every table, in one place, on an injectable clock.

A table has at most one task per purpose ("timer", "ai", "next", "lobby"): scheduling a new one
replaces the old. Tasks are cancelled when the table closes or the bot shuts down, and forgotten
when they finish, so nothing per-table outlives the table. Time comes from a `Clock`, so tests
can run a 60-second turn timer without sleeping (see `ManualClock`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

log = logging.getLogger(__name__)

TASK_NAMES = ("timer", "ai", "next", "lobby")


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (deadlines are stored and shown as epoch times)."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that moves only when told: `await clock.advance(60)` fires every sleeper due."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._counter), future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking sleepers in deadline order and letting each run."""
        for _ in range(20):  # tasks scheduled just now start sleeping at the current time
            await asyncio.sleep(0)
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if not future.done():
                future.set_result(None)
            for _ in range(20):  # let the woken task (and what it awaits) run
                await asyncio.sleep(0)
        self._now = target
        for _ in range(20):
            await asyncio.sleep(0)


class Scheduler:
    """Named per-table tasks: at most one per (table, name)."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock: Clock = clock or SystemClock()
        self._tasks: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._closing = False

    def schedule(self, table_id: str, name: str, coro: Coroutine[Any, Any, None]) -> None:
        if self._closing:
            coro.close()
            return
        key = (table_id, name)
        old = self._tasks.get(key)
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        task = asyncio.ensure_future(coro)
        self._tasks[key] = task
        task.add_done_callback(lambda t: self._done(key, t))

    def _done(self, key: tuple[str, str], task: asyncio.Task[None]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("table task %s failed", key, exc_info=task.exception())

    def cancel(self, table_id: str, name: str) -> None:
        task = self._tasks.get((table_id, name))
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def cancel_table(self, table_id: str) -> None:
        for name in TASK_NAMES:
            self.cancel(table_id, name)

    def pending(self, table_id: str | None = None) -> list[tuple[str, str]]:
        """Keys of tasks not yet finished (all tables, or one)."""
        return [
            key
            for key, task in self._tasks.items()
            if not task.done()
            and not task.cancelling()  # cancelled: it ends as soon as it next runs
            and (table_id is None or key[0] == table_id)
        ]

    async def shutdown(self) -> None:
        self._closing = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
