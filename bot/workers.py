"""What the bot's worker processes share (the drawing process, the AI's thinking process).

Both are spawned from a `ProcessPoolExecutor` and have the same two needs: not to import the
bot's main module again while they start, and not to outlive the bot. This module imports
nothing of the bot's layers, so `bot.images`, `bot.ai` and the Discord side may all use it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator
from multiprocessing.connection import wait
from typing import Any


def start_worker() -> None:
    """What every worker runs first: it ignores Ctrl-C and leaves with its parent.

    Ctrl-C in a terminal interrupts the whole foreground process group, workers included. A
    worker interrupted while it waits for its next job dies printing a traceback (the AI's
    pool printed `Process SpawnProcess-2: Traceback ... KeyboardInterrupt` after every game
    with an AI seat); the bot, which handles Ctrl-C itself, stops its workers as it closes,
    and a worker whose bot is gone leaves by itself (`leave_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    leave_with_parent()


def leave_with_parent() -> None:
    """Run first in a worker: exit as soon as the parent process is gone. A killed parent
    (SIGKILL, out of memory) cannot shut its pool down, and a worker blocked on its job queue
    never notices (it holds both ends of that pipe)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


@contextlib.contextmanager
def main_module_hidden() -> Iterator[None]:
    """While a worker is being spawned, make `__main__` look like an interactive session (no
    spec, no file), so multiprocessing does not import the program's main module again in
    the child (all of discord.py and storage, and whatever it runs at import)."""
    main = sys.modules["__main__"]
    saved: dict[str, Any] = {
        name: main.__dict__[name] for name in ("__spec__", "__file__") if name in main.__dict__
    }
    main.__dict__["__spec__"] = None
    main.__dict__.pop("__file__", None)
    try:
        yield
    finally:
        main.__dict__.update(saved)
        if "__spec__" not in saved:
            main.__dict__.pop("__spec__", None)
