"""The unit of work of a tournament: the one way a tournament changes (as `unit.py` for a table).

The same promises as a table's change, step for step:

1. **Lock** the tournament (`Tournament.lock`): its changes apply one at a time.
2. **Work on a copy** (`TournamentChange.work`): readers of the live tournament (the presenter,
   a status command) see committed state only; a refusal drops the copy.
3. **One transaction** writes the new state and its event, the notes it makes due (a round
   seated, a round's standings, the end: `tournament_outbox`), the tables a round opens (their
   rows, and this process's lease on each) and, at the end, every entrant's place. A round is
   seated whole or not at all. If storage fails, `SaveFailed`: nothing changed.
4. **Swap in** the stored copy.
5. **Effects after the commit** (`bot.table.tournament_effects`): the new tables start
   playing, the notes are posted, timers are armed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.storage import Storage, StorageError
from bot.storage.tournaments import NewTable, PlaceRow, TournamentNote

from . import errors
from .errors import TournamentProblem, TournamentRefused
from .model import Table, json_default
from .tournament_model import Tournament, TournamentStatus
from .unit import outlast

log = logging.getLogger(__name__)


@dataclass(slots=True)
class TournamentChange:
    """One change in progress; the use case sets `event` (None: nothing to store) and what
    the change makes due."""

    tournament: Tournament
    work: Tournament
    event: dict[str, Any] | None = None
    notes: list[TournamentNote] = field(default_factory=list)
    #: Tables this change opens (a round seated), built in memory, stored with it.
    tables: list[Table] = field(default_factory=list)
    #: Final places (the change that finishes the tournament).
    places: list[PlaceRow] = field(default_factory=list)
    #: Entrants to take out of their table after the commit (removed by the organiser).
    leave: list[str] = field(default_factory=list)
    #: Hold (True) or release (False) the current round's tables after the commit.
    hold: bool | None = None
    status_before: TournamentStatus = TournamentStatus.REGISTRATION

    @property
    def closed(self) -> bool:
        return self.status_before.open and not self.tournament.status.open


class TournamentRegistry:
    """The open tournaments this process drives, by id and by channel (one a channel)."""

    def __init__(self) -> None:
        self.by_id: dict[str, Tournament] = {}
        self.by_channel: dict[int, Tournament] = {}

    def hold(self, tournament: Tournament) -> None:
        self.by_id[tournament.id] = tournament
        self.by_channel[tournament.channel_id] = tournament

    def drop(self, tournament: Tournament) -> None:
        self.by_id.pop(tournament.id, None)
        if self.by_channel.get(tournament.channel_id) is tournament:
            del self.by_channel[tournament.channel_id]


AfterTournament = Callable[[Tournament, TournamentChange], Awaitable[None]]


class TournamentUnit:
    """Opens `change` units on tournaments; `after` is told of every stored change."""

    def __init__(
        self, storage: Storage, clock_now: Callable[[], float], owner: str, lease: float
    ) -> None:
        self.storage = storage
        self._now = clock_now
        self.owner = owner
        self.lease = lease
        self.after: AfterTournament | None = None
        self._orphans: set[asyncio.Future[None]] = set()

    @asynccontextmanager
    async def change(self, tournament: Tournament) -> AsyncIterator[TournamentChange]:
        """``async with unit.change(t) as ch:`` mutate ``ch.work``, set ``ch.event``."""
        async with tournament.lock:
            if not tournament.status.open:
                raise TournamentRefused(TournamentProblem.CLOSED)
            ch = TournamentChange(tournament, tournament.copy(), status_before=tournament.status)
            yield ch
            if ch.event is None:
                return
            await self._store(ch)
        if self.after is not None:
            await self.after(tournament, ch)

    async def _store(self, ch: TournamentChange) -> None:
        live, work = ch.tournament, ch.work
        work.version = live.version + 1
        commit = asyncio.ensure_future(self._commit(ch))
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            # Cancelled from outside (a shutdown): the transaction runs to its end, and if it
            # landed, memory takes it and its effects still run.
            if await outlast(commit):
                live.adopt(work)
                if self.after is not None:
                    task = asyncio.ensure_future(self.after(live, ch))
                    self._orphans.add(task)
                    task.add_done_callback(self._orphans.discard)
            raise
        except (StorageError, OSError) as exc:
            log.exception("could not save tournament %s", live.id)
            raise errors.SaveFailed() from exc
        live.adopt(work)

    async def _commit(self, ch: TournamentChange) -> None:
        work = ch.work
        now = self._now()
        event = json.dumps({**(ch.event or {}), "version": work.version}, default=json_default)
        new_tables = [
            NewTable(
                table.id,
                table.guild_id,
                table.channel_id,
                table.host_id,
                table.status.value,
                table.to_json(),
                table.version,
                table.deadline,
                table.tournament.round if table.tournament is not None else 0,
            )
            for table in ch.tables
        ]
        storage = self.storage
        async with storage.transaction() as tx:
            for table in ch.tables:
                # Claimed in the same transaction as the row: no other process ever sees the
                # table without its driver.
                if not await storage.leases.claim_table(
                    table.id, self.owner, self.lease, now=now, tx=tx
                ):
                    raise StorageError(f"table id {table.id} is held by another process")
            await storage.tournaments.commit(
                work.id,
                work.version,
                work.to_json(),
                event,
                status=work.status.value,
                name=work.options.name,
                start_at=work.options.start_at,
                notes=ch.notes,
                tables=new_tables,
                places=ch.places,
                guild_id=work.guild_id,
                players=len(work.places),
                now=now,
                tx=tx,
            )
