"""The garbage collector's settings for the bot process (a long-running asyncio server).

CPython frees almost everything by reference counting; the cyclic collector exists for the
rest, and by default it runs a young collection every 700 net container allocations and a
full one whenever the objects promoted since the last full one reach a quarter of the old
heap. In this bot many objects live for a second or two, across awaits (a click waiting for
its table's lock, an edit waiting for a slot of the rate budget), so at the default young
threshold they survive two collections and are promoted; the heap of a few hundred open
tables then fills its quarter every few seconds, and each full collection walks the whole heap
with the event loop stopped. Measured with `benchmarks/bench_load.py` (300 tables, 50 s,
load ~3): 8 full collections, the longest 478 ms, 1.95 ms of collector time per game action;
the loop's longest callbacks (~300-480 ms, every interaction waiting behind them) were these.

Two changes, both standard for servers:

* everything alive once the bot is set up (modules, discord.py's and the catalogue's tables,
  the evaluator's suit tables) is moved out of the collector's sight (`gc.freeze`): it lives
  as long as the process, and walking it in every full collection bought nothing;
* a larger young threshold, so that an object that lives a second is usually gone before a
  collection looks at it, and fewer reach the old generation at all.

Cycles are still collected; memory held by garbage cycles waits a little longer.
"""

from __future__ import annotations

import gc

#: (young, middle, old) thresholds: a young collection every this many net allocations of
#: container objects (default 700), a middle one every 20 young ones (default 10), an old
#: one after 10 middle ones (default 10, and then only if the 25% rule above allows it).
THRESHOLDS = (20_000, 20, 10)


def tune() -> None:
    """At the start of the process."""
    gc.set_threshold(*THRESHOLDS)


def freeze_startup() -> None:
    """Once the bot is set up, before it serves anything: collect what start-up left over, then
    take everything still alive out of future collections."""
    gc.collect()
    gc.freeze()
