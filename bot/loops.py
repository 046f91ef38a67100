"""Which event loop the bot runs on (`EVENT_LOOP`): uvloop where it is installed, else asyncio's.

uvloop (the `speedups` extra, built on libuv) runs the same asyncio programs with its own
loop, transports and timers written in Cython; discord.py and aiohttp spend less of their time
in the loop's Python machinery on it (`docs/scaling.md`, "Eighth pass"). It is optional: it is
not built for Windows, and a loop is a deep thing to swap, so `EVENT_LOOP=asyncio` turns it
off without uninstalling anything. This module only names the choice and builds the loop; the
entry point (`bot.__main__`) hands the factory to the runner.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable

#: `EVENT_LOOP` values: `auto` is uvloop when it can be imported, asyncio's loop otherwise.
CHOICES = ("auto", "uvloop", "asyncio")

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def uvloop_installed() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def resolve(choice: str) -> str:
    """`auto` made concrete: the loop the bot will run on ("uvloop" or "asyncio")."""
    if choice == "auto":
        return "uvloop" if uvloop_installed() else "asyncio"
    return choice


def factory(name: str) -> LoopFactory | None:
    """What `asyncio.Runner(loop_factory=...)` takes for loop `name` (None: asyncio's own)."""
    if name == "uvloop":
        import uvloop

        return uvloop.new_event_loop
    return None
