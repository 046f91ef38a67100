"""After a restart (or a takeover): bring the open tables back and deliver what is owed.

What is owed lives in the outbox (`bot.storage.outbox`): results to store (`record_deal`,
`record_match`) and messages to post (`deal_results`, `match_over`), each written in the same
transaction as the change that made it due. A message that may have been posted by the run
that stopped, but not marked, is delivered with ``again``: the listener looks for it before
posting, so it is shown once.
"""

from __future__ import annotations

import logging

from bot.engine.match import MatchPhase
from bot.storage import AnnouncementRecord, StorageError, TableRecord

from .context import TableContext
from .effects import Effects
from .jobs import RESULT_KINDS
from .leases import Leases
from .model import Table
from .reviews import Reviews
from .vocabulary import TableStatus

log = logging.getLogger(__name__)


def rebuild(record: TableRecord) -> Table:
    """The one way a table is rebuilt from its stored record. Raises ValueError (or
    KeyError/TypeError) for a state this code cannot read."""
    table = Table.from_json(record.state_json)
    table.status = TableStatus(record.status)
    table.version = record.version
    table.message_id = record.public_message_id or table.message_id
    table.prompt_message_id = record.prompt_message_id or table.prompt_message_id
    # The columns are written as soon as a table is placed; the state only with its next move.
    table.lobby_message_id = record.lobby_message_id or table.lobby_message_id
    if record.lobby_message_id is not None:
        table.thread_id = record.thread_id
    if not table.status.open:
        table.deadline = None
    return table


UNREADABLE = (ValueError, KeyError, TypeError)


class Recovery:
    def __init__(
        self, ctx: TableContext, effects: Effects, leases: Leases, reviews: Reviews
    ) -> None:
        self.ctx = ctx
        self.effects = effects
        self.leases = leases
        self.reviews = reviews
        self._owed: dict[str, list[AnnouncementRecord]] = {}  # open tables restored here
        self._undelivered: list[AnnouncementRecord] = []  # closed tables' outbox

    async def restore(self) -> list[Table]:
        """Bring back every open table of this process's shards (each claimed first: a table
        another live process holds is left alone, with a warning), and note what the outbox
        still owes: `resume` delivers an open table's, `deliver_pending` a closed table's.

        One table per channel, whatever the database holds: a second open table of a
        channel is closed rather than loaded over the first; so is a table whose state
        cannot be read (it could never be played and would hold its channel forever)."""
        self.leases.keep()
        storage, registry = self.ctx.storage, self.ctx.registry
        pending = await storage.outbox.pending_announcements()
        restored: list[Table] = []
        # Newest first, so the table kept in a channel is the newest one.
        records = sorted(
            await storage.tables.load_open_tables(),
            key=lambda r: (r.created_at, r.table_id),
            reverse=True,
        )
        for record in records:
            if not self.ctx.owns_guild(record.guild_id):
                continue  # another shard's process drives it
            kept = registry.by_channel.get(record.channel_id)
            if kept is not None and record.tournament_id is None:
                log.warning(
                    "table %s is a second open table in channel %s (keeping the newer %s);"
                    " closing it",
                    record.table_id,
                    record.channel_id,
                    kept.id,
                )
                await self._close_unrestorable(record.table_id)
                continue
            if not await self.leases.claim(record.table_id):
                continue
            try:
                table = rebuild(record)
            except UNREADABLE as exc:
                log.error("cannot restore table %s (closing it): %s", record.table_id, exc)
                await self._close_unrestorable(record.table_id)
                continue
            registry.hold(table)
            restored.append(table)
        for note in pending:
            if note.table_id in registry.by_id:
                self._owed.setdefault(note.table_id, []).append(note)
            else:
                self._undelivered.append(note)
        restored.reverse()  # oldest first, as stored
        return restored

    async def _close_unrestorable(self, table_id: str) -> None:
        try:
            await self.ctx.storage.tables.close_table(table_id, "cancelled")
        except StorageError:
            log.exception("could not close table %s", table_id)

    async def resume(self, table: Table) -> None:
        """After `restore` (or an adoption) and once the listener can show things: what the
        table owes, then its timers and AI turns."""
        turns = self.effects.turns
        if table.status is TableStatus.LOBBY:
            turns.expire_lobby_later(table)
            await self.ctx.listener.table_changed(table)
            return
        owed = self._owed.pop(table.id, [])
        if not owed:
            owed = await self.ctx.storage.outbox.pending_announcements(table.id)
        for note in owed:
            if note.kind in RESULT_KINDS:
                await self.effects.store_job(table.id, note.kind, note.deal_no, note.payload_json)
        m = table.match
        announce: int | None = None
        if m is not None and m.phase in (MatchPhase.BETWEEN_DEALS, MatchPhase.OVER):
            self.reviews.keep(table, len(m.results))
        for note in owed:
            if note.kind != "deal_results":
                continue
            if m is not None and note.deal_no == len(m.results) and m.finished_deal() is not None:
                announce = note.deal_no
            else:
                log.warning("cannot re-post deal %s of table %s", note.deal_no, table.id)
                await self._mark(note)
        await self.effects.game_changed(table, None)
        if announce is not None:
            await self.effects.announce(table, "deal_results", announce, again=True)

    async def deliver_pending(self) -> int:
        """Deliver what closed tables still owe (noted by `restore`): results not yet stored,
        and messages not yet posted (a crash after a match was closed in storage but before
        its results were posted). Only this process's shards' tables; an open table not
        restored here is another process's, which delivers its own. Returns how many
        messages were posted."""
        owed, self._undelivered = self._undelivered, []
        posted = 0
        tables: dict[str, Table | None] = {}
        records: dict[str, TableRecord | None] = {}
        for note in owed:
            if note.table_id not in records:
                records[note.table_id] = await self.ctx.storage.tables.load_table(note.table_id)
            record = records[note.table_id]
            if record is not None and (
                not self.ctx.owns_guild(record.guild_id) or TableStatus(record.status).open
            ):
                continue  # another process owes it
            if note.kind in RESULT_KINDS:
                await self.effects.store_job(
                    note.table_id, note.kind, note.deal_no, note.payload_json
                )
                continue
            if note.table_id not in tables:
                tables[note.table_id] = _closed(record)
            table = tables[note.table_id]
            if table is not None and await self._deliver(table, note):
                posted += 1
            else:
                await self._mark(note)
        return posted

    async def _deliver(self, table: Table, note: AnnouncementRecord) -> bool:
        m = table.match
        if note.kind == "match_over":
            await self.effects.announce(table, "match_over", 0, again=True)
            return True
        if m is None or len(m.results) != note.deal_no or m.finished_deal() is None:
            # Only the last deal's results can be rebuilt from the state; an older one is
            # in the deals table (its hand history) and in /rummy history.
            log.warning("cannot re-post deal %s of table %s", note.deal_no, table.id)
            return False
        await self.effects.announce(table, "deal_results", note.deal_no, again=True)
        return True

    async def _mark(self, note: AnnouncementRecord) -> None:
        try:
            await self.ctx.storage.outbox.mark_announced(note.table_id, note.kind, note.deal_no)
        except StorageError:
            log.exception(
                "could not mark %s %s of table %s", note.kind, note.deal_no, note.table_id
            )

    async def adopt(self, table_id: str) -> None:
        """Take over an open table whose process stopped renewing its lease."""
        storage, registry, settings = self.ctx.storage, self.ctx.registry, self.ctx.settings
        now = self.ctx.clock.now()
        if not await storage.leases.claim_table(
            table_id, settings.owner, settings.lease_seconds, now=now
        ):
            return  # another process adopted it first
        record = await storage.tables.load_table(table_id)
        if (
            record is None
            or not TableStatus(record.status).open
            or (record.tournament_id is None and record.channel_id in registry.by_channel)
        ):
            await self.effects.release(table_id)
            return
        try:
            table = rebuild(record)
        except UNREADABLE as exc:
            log.error("cannot take over table %s: %s", table_id, exc)
            await self.effects.release(table_id)
            return
        registry.hold(table)
        log.warning("took over table %s: its previous process stopped renewing its lease", table_id)
        await self.resume(table)


def _closed(record: TableRecord | None) -> Table | None:
    """A closed table rebuilt to post what it owes (None if it cannot be read)."""
    if record is None:
        return None
    try:
        return rebuild(record)
    except UNREADABLE as exc:
        log.error("cannot rebuild closed table %s to announce: %s", record.table_id, exc)
        return None
