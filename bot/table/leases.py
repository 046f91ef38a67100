"""Leases: exactly one process drives each table (its timers, AI turns and messages).

A process claims a table before it creates or restores it and renews all its claims every
third of `lease_seconds`; a table whose process stopped renewing (it crashed) is adopted by a
process of the same shards once the lease runs out, and a process that finds its lease taken
lets go of the table. A clean stop releases every lease at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.storage import StorageError

from .context import TableContext

log = logging.getLogger(__name__)


class Leases:
    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self._task: asyncio.Task[None] | None = None
        #: Called for an open table of our shards whose owner stopped renewing.
        self.adopt: Callable[[str], Awaitable[None]] | None = None
        #: Called for a table another process took over (we no longer drive it).
        self.lost: Callable[[str], None] = lambda _table_id: None
        #: Called after every renewal (the service checks that every table is moving).
        self.renewed: Callable[[], None] = lambda: None

    def keep(self) -> None:
        """Start the renewal task once (from the first restore or create, on the loop)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._loop())

    async def _loop(self) -> None:
        while True:
            await self.ctx.clock.sleep(self.ctx.settings.lease_seconds / 3)
            try:
                await self.renew()
            except (StorageError, OSError):
                log.exception("could not renew table leases; retrying")
            self.renewed()

    async def claim(self, table_id: str) -> bool:
        """Claim a table for this process; on refusal, say who has it and leave it alone."""
        storage, settings = self.ctx.storage, self.ctx.settings
        now = self.ctx.clock.now()
        if await storage.leases.claim_table(
            table_id, settings.owner, settings.lease_seconds, now=now
        ):
            return True
        holder = await storage.leases.table_owner(table_id)
        log.warning(
            "table %s is driven by another process (%s, lease for %.0f more seconds); "
            "leaving it alone. Two processes run overlapping shards: check SHARD_IDS.",
            table_id,
            holder.owner if holder else "?",
            (holder.lease_until - now) if holder else 0.0,
        )
        return False

    async def renew(self) -> None:
        """Renew every table this process drives (one transaction); let go of any another
        process took over after our lease ran out; adopt open tables of our shards whose
        owner stopped renewing (it crashed), so no table is left without a driver."""
        storage, settings, registry = self.ctx.storage, self.ctx.settings, self.ctx.registry
        now = self.ctx.clock.now()
        lost = await storage.leases.renew_tables(
            list(registry.by_id), settings.owner, settings.lease_seconds, now=now
        )
        for table_id in lost:
            if table_id not in registry.by_id:
                continue  # closed meanwhile
            log.warning(
                "lost table %s to another process (our lease ran out); no longer driving it",
                table_id,
            )
            self.lost(table_id)
        for table_id, guild_id in await storage.leases.orphan_tables(now=now):
            mine = table_id not in registry.by_id and self.ctx.owns_guild(guild_id)
            if mine and self.adopt is not None:
                await self.adopt(table_id)

    async def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
