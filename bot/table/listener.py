"""What the table service tells the outside world after a change (it never waits on answers).

The Discord presenter implements this; tests use a recorder. The listener only shows things:
it must not change game state; the Discord message ids it creates are recorded with
`bot.table.messages.remember_messages`, which is bookkeeping, not a game change.
"""

from __future__ import annotations

import enum
from typing import Protocol

from .model import Table


class CloseReason(enum.StrEnum):
    """Why a table closed, as its listener is told (`TableListener.table_closed`)."""

    FINISHED = "finished"  # its match ended
    CANCELLED = "cancelled"  # the host or a server manager cancelled it
    EXPIRED = "expired"  # an idle lobby closed by itself


class TableListener(Protocol):
    async def table_changed(self, table: Table) -> None: ...
    async def turn_started(self, table: Table) -> None: ...
    async def turn_warning(self, table: Table) -> None: ...
    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        """Post deal `number`'s results. Raise if they were not posted (the table layer
        retries); ``again``: an earlier run may have posted them already, look first."""
        ...

    async def table_closed(self, table: Table, reason: CloseReason, *, again: bool = False) -> None:
        """Show the table closed and why; raise if the final message could not be shown;
        ``again`` as for `deal_finished`."""
        ...
