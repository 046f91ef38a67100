"""AI moves off the event loop: `await decide(tier, obs, seed)`.

An expert decision costs tens of milliseconds of pure-Python CPU, now and then a few hundred.
Run on the event loop it stalls every table; run on a thread of the bot's process it still
holds the GIL while it thinks, so the loop waits for the lock each time it wakes (measured by
`benchmarks/bench_ai.py --loop-lag`). So the tiers that search (`SEARCHING`) think in one
worker process, started on first use; the cheap tiers (a few milliseconds) run on a thread, as
the table service always ran them, where a process round trip would cost more than the move.

One process, not a pool: the machine the bot runs on is small, and a queue of AI moves is
better than every core taken from the engine and storage. The process is spawned (never
forked: the bot has threads whose locks a fork would copy in any state), with the program's
main module hidden so the child imports only `bot.ai`, and it exits by itself when the bot's
process dies. If it dies, the next decision starts a new one and is tried once more there.

The move is a function of (tier, observation, seed) only, whichever worker computes it: the
policy is built fresh from the seed for every decision, as the table service always did.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.engine.actions import Action
from bot.engine.match import Match
from bot.engine.observation import Observation
from bot.workers import leave_with_parent, main_module_hidden

from . import AiTier, make_policy
from .review import Review, review_seat

SEARCHING = frozenset({AiTier.EXPERT, AiTier.HARD})  # tiers that think in the worker process

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def think(tier: AiTier, obs: Observation, seed: int) -> Action:
    """One decision, synchronously (what the worker runs; also usable from a thread)."""
    return make_policy(tier, seed).act(obs)


def _worker() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=leave_with_parent,
            )
            with main_module_hidden():
                pool.submit(os.getpid).result()  # the process starts here, main hidden
            _pool = pool
        return _pool


def _discard_worker(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


async def decide(tier: AiTier, obs: Observation, seed: int) -> Action:
    """The move of an AI seat of `tier` for `obs`, computed off the event loop.

    `seed` is the per-decision seed (the table service passes its table seed plus the
    version). Searching tiers run in the worker process, the others on a thread; the answer
    is the same either way. Raises ValueError for an unknown tier, like `make_policy`."""
    if tier not in SEARCHING:
        return await asyncio.to_thread(think, tier, obs, seed)
    loop = asyncio.get_running_loop()
    for attempt in (1, 2):
        pool = await asyncio.to_thread(_worker)  # spawning takes ~0.3 s: not on the loop
        try:
            return await loop.run_in_executor(pool, think, tier, obs, seed)
        except BrokenProcessPool:
            _discard_worker(pool)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _review(state: dict[str, Any], seat: int, seed: int) -> Review | None:
    return review_seat(Match.from_dict(state), seat, seed=seed)


async def review(state: dict[str, Any], seat: int, seed: int) -> Review | None:
    """`review_seat` of the match saved as `state` (`Match.to_dict()` right after the deal),
    in the worker process: a review asks the expert about every move of the deal, which is
    the longest think the bot does. Raises `ReplayError` like `review_seat`."""
    loop = asyncio.get_running_loop()
    for attempt in (1, 2):
        pool = await asyncio.to_thread(_worker)
        try:
            return await loop.run_in_executor(pool, _review, state, seat, seed)
        except BrokenProcessPool:
            _discard_worker(pool)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


async def warm_up() -> None:
    """Start the worker process now (optional: the first expert move starts it otherwise)."""
    await asyncio.to_thread(_worker)


def worker_pid() -> int | None:
    """The worker process's id, or None when none is running (for tests and tools)."""
    pool = _pool
    if pool is None:
        return None
    return pool.submit(os.getpid).result()


def close() -> None:
    """Stop the worker process (at shutdown). A later `decide` starts a new one."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
