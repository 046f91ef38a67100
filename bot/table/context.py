"""What every part of the table layer shares: built once by `TableService` (the bootstrap).

The parts (lobby, game, turns, effects, recovery, leases, reviews) are small classes that
each hold this one context rather than references to each other's internals, so the order
they are built in is the only wiring there is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.storage import Storage

from .listener import TableListener
from .registry import Registry
from .scheduler import Clock, Scheduler
from .unit import UnitOfWork

#: Seconds a claim on a table lasts without renewal. A process renews every third of it, so a
#: stall of up to two renewals loses nothing; a crashed process's tables can be taken over
#: by another process this long after its last renewal.
LEASE_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The knobs of the table layer (from `bot.config` in the bot, small values in tests)."""

    ai_delay: float = 1.5
    next_deal_delay: float = 20.0
    lobby_timeout: float = 30 * 60.0
    deck_seed: int | None = None
    owner: str = "local"
    lease_seconds: float = LEASE_SECONDS
    #: Seconds between retries of an effect that failed after its change was stored
    #: (the last one repeats).
    retry_delays: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


@dataclass(slots=True)
class TableContext:
    storage: Storage
    listener: TableListener
    scheduler: Scheduler
    registry: Registry
    unit: UnitOfWork
    settings: TableSettings
    owns_guild: Callable[[int], bool] = field(default=lambda _guild_id: True)

    @property
    def clock(self) -> Clock:
        return self.scheduler.clock
