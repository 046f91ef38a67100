"""After a restart (or a takeover): tournaments come back, and what they owe is delivered.

As for tables (`bot.table.recovery`, `bot.table.leases`): a process claims each open tournament
of its shards before driving it (a lease in `table_owners`, key `tournament:<id>`), renews its
claims every third of the lease, lets go of one another process took over, and adopts one whose
process stopped renewing. Its tables are ordinary tables, restored by the table recovery.

`resume` (once the listener can show things) posts the notes still pending in the outbox (with
``again``: the presenter looks before posting), closes the open tables of a tournament that
was cancelled (or finished) while they were still open, re-arms each tournament's clock, redraws
its messages and checks its round, so a round whose last table finished just before the stop
advances now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.storage import StorageError
from bot.storage.tournaments import TournamentRecord, lease_key

from . import errors
from .context import TableContext
from .events import TournamentCancelled
from .tournament import Tournaments
from .tournament_model import Tournament, TournamentStatus, rebuild
from .vocabulary import TableStatus

log = logging.getLogger(__name__)

UNREADABLE = (ValueError, KeyError, TypeError)


class TournamentRecovery:
    def __init__(self, ctx: TableContext, tournaments: Tournaments) -> None:
        self.ctx = ctx
        self.tournaments = tournaments
        self._task: asyncio.Task[None] | None = None
        tournaments.created = self.keep

    def keep(self) -> None:
        """Start the renewal task once."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._loop())

    async def restore(self) -> list[Tournament]:
        """Claim and hold every open tournament of this process's shards."""
        self.keep()
        restored: list[Tournament] = []
        for record in await self.ctx.storage.tournaments.load_open():
            if not self.ctx.owns_guild(record.guild_id):
                continue
            t = await self._take(record)
            if t is not None:
                restored.append(t)
        return restored

    async def _take(self, record: TournamentRecord) -> Tournament | None:
        settings, registry = self.ctx.settings, self.tournaments.registry
        if record.tournament_id in registry.by_id:
            return None
        now = self.ctx.clock.now()
        if not await self.ctx.storage.leases.claim_table(
            lease_key(record.tournament_id), settings.owner, settings.lease_seconds, now=now
        ):
            log.warning("tournament %s is driven by another process", record.tournament_id)
            return None
        try:
            t = rebuild(record)
        except UNREADABLE as exc:
            log.error("cannot restore tournament %s: %s", record.tournament_id, exc)
            return None
        registry.hold(t)
        return t

    async def resume(self) -> None:
        """Deliver what is owed, close orphaned tables, re-arm clocks, check rounds."""
        storage = self.ctx.storage
        held = self.tournaments.registry.by_id
        for note in await storage.tournaments.pending():
            t = held.get(note.tournament_id)
            if t is None:
                record = await storage.tournaments.load(note.tournament_id)
                if record is None or record.open or not self.ctx.owns_guild(record.guild_id):
                    continue  # another process drives it
                try:
                    t = rebuild(record)
                except UNREADABLE:
                    await storage.tournaments.mark(note.tournament_id, note.kind, note.round_no)
                    continue
            await self.tournaments.effects.announce(
                t, note.kind, note.round_no, note.payload_json, again=True
            )
        await self._close_orphan_tables()
        for t in list(held.values()):
            await self._resume_one(t)

    async def _resume_one(self, t: Tournament) -> None:
        effects = self.tournaments.effects
        effects.arm(t)
        if t.status is TournamentStatus.RUNNING and t.paused:
            await effects.hold_tables(t, True)
        try:
            await effects.listener.tournament_changed(t)
        except Exception:
            log.exception("could not show tournament %s", t.id)
        self.tournaments.nudge(t)

    async def _close_orphan_tables(self) -> None:
        """Tables whose tournament is over (a crash between cancelling it and closing them)."""
        storage = self.ctx.storage
        for table in list(self.ctx.registry.by_id.values()):
            seat = table.tournament
            if seat is None or seat.tournament_id in self.tournaments.registry.by_id:
                continue
            record = await storage.tournaments.load(seat.tournament_id)
            if record is None or record.open:
                continue
            try:
                async with self.ctx.unit.change(table) as ch:
                    ch.work.status = TableStatus.CANCELLED
                    ch.event = TournamentCancelled(seat.tournament_id)
            except (errors.Refusal, StorageError, OSError):
                log.warning("could not close table %s of a closed tournament", table.id)

    # ---- leases ---------------------------------------------------------------------------

    async def _loop(self) -> None:
        while True:
            await self.ctx.clock.sleep(self.ctx.settings.lease_seconds / 3)
            try:
                await self.renew()
            except (StorageError, OSError):
                log.exception("could not renew tournament leases; retrying")

    async def renew(self) -> None:
        """Renew our tournaments' leases; let go of one taken over; adopt orphans of our
        shards; and check every running round (a table may have finished elsewhere)."""
        storage, settings = self.ctx.storage, self.ctx.settings
        registry = self.tournaments.registry
        now = self.ctx.clock.now()
        keys = {lease_key(tid): tid for tid in registry.by_id}
        lost = await storage.leases.renew_tables(
            list(keys), settings.owner, settings.lease_seconds, now=now
        )
        for key in lost:
            t = registry.by_id.get(keys[key])
            if t is not None:
                log.warning("lost tournament %s to another process", t.id)
                self.ctx.scheduler.cancel(t.id, "t_clock")
                registry.drop(t)
        for tournament_id, guild_id in await storage.tournaments.orphans(now=now):
            if tournament_id in registry.by_id or not self.ctx.owns_guild(guild_id):
                continue
            record = await storage.tournaments.load(tournament_id)
            if record is None or not record.open:
                continue
            t = await self._take(record)
            if t is not None:
                log.warning("took over tournament %s: its process stopped renewing", t.id)
                await self._resume_one(t)
        for t in list(registry.by_id.values()):
            self.tournaments.nudge(t)

    async def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
