"""The unit of work: the one way any use case changes a table.

Why one unit: every change has the same shape, and each step of it is a promise to someone.

1. **Lock.** Changes to one table apply one at a time (`Table.lock`), in arrival order.
2. **Work on a copy.** The use case mutates `Change.work`, a copy of the table; the live
   `Change.table` keeps its last *stored* state until step 4, so the presenter, a hand view
   or a timer reading it meanwhile can never show a move that is not saved yet. A refusal
   raised by the use case just drops the copy: nothing changed, anywhere.
3. **One transaction** writes the new state, its event and the outbox rows it makes due (a
   finished deal's results to post and to record, the match's end), and, for a table that
   ends, its closed status. If storage fails, `SaveFailed` is raised and nothing changed.
   The commit and the swap are shielded from cancellation: once the database has the
   change, memory gets it too.
4. **Swap in** the stored copy (`Table.adopt`).
5. **Effects after the commit** (`bot.table.effects`): recording results, closing the table
   in memory, announcements, timers, AI turns. The move has happened: an effect that fails
   is logged and retried; it never turns into "nothing changed".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot import fastjson
from bot.engine.match import MatchPhase
from bot.storage import Announcement, Storage, StorageError

from . import errors
from .events import TableEvent
from .jobs import result_jobs
from .model import Table, json_default
from .vocabulary import TableStatus

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Change:
    """One change in progress. The use case sets `event` (what happened, as stored in the
    table's event log); leaving it None means there was nothing to store (the unit then
    writes nothing and runs no effects)."""

    table: Table
    work: Table
    event: TableEvent | None = None
    #: What the commit wrote to the outbox (filled by the unit).
    due: list[Announcement] = field(default_factory=list)
    #: Deals finished and match phase before the change (to tell what this change ended).
    deals_before: int = 0
    status_before: TableStatus = TableStatus.LOBBY
    #: What the stored change left (filled by the unit when it stores it): its effects run
    #: later, in the background, when the table may have changed again, so they read these,
    #: never the live table (which made a deal's results post twice when the next change
    #: had finished it before the first one's effects ran).
    status_after: TableStatus = TableStatus.LOBBY
    ended_deal: int | None = None

    @property
    def closed(self) -> bool:
        return self.status_before.open and not self.status_after.open


#: What runs after a stored change (`bot.table.effects.Effects.after`).
AfterCommit = Callable[[Table, Change], Awaitable[None]]


class UnitOfWork:
    """Opens `change` units on tables; `after` is told of every stored change."""

    def __init__(self, storage: Storage, clock_now: Callable[[], float]) -> None:
        self.storage = storage
        self._now = clock_now
        self.after: AfterCommit | None = None
        self._orphans: set[asyncio.Future[None]] = set()  # effects of cancelled changes

    @asynccontextmanager
    async def change(self, table: Table) -> AsyncIterator[Change]:
        """``async with unit.change(table) as ch:`` mutate ``ch.work``, set ``ch.event``.

        Refusals raised inside leave everything as it was. On leaving the block the change
        is stored and swapped in, then its effects run (outside the lock, so a follow-up
        such as an AI turn can take it again)."""
        async with table.lock:
            if not table.status.open:
                raise errors.TableClosed()
            ch = Change(
                table,
                table.copy(),
                deals_before=len(table.match.results) if table.match is not None else 0,
                status_before=table.status,
            )
            yield ch
            if ch.event is None:
                return
            await self._store(ch, ch.event)
        if self.after is not None:
            await self.after(table, ch)

    async def _store(self, ch: Change, event: TableEvent) -> None:
        table, work = ch.table, ch.work
        work.version = table.version + 1
        work.message_id, work.prompt_message_id = table.message_id, table.prompt_message_id
        work.thread_id, work.lobby_message_id = table.thread_id, table.lobby_message_id
        m = work.match
        if m is not None and m.phase is MatchPhase.OVER and work.status is TableStatus.PLAYING:
            work.status = TableStatus.FINISHED  # the move that ends the match closes the table
        if not work.status.open:
            work.deadline = None
            work.turn_marker = None
        ch.due = _due(ch, int(self._now()))
        ch.status_after = work.status
        finished = len(m.results) if m is not None else 0
        ch.ended_deal = finished if finished > ch.deals_before else None
        commit = asyncio.ensure_future(self._commit(work, event, ch.due))
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            # The caller was cancelled (a shutdown, a timer replaced): the transaction goes
            # on to its end, and if it is stored, memory takes it before the cancel goes on.
            if await outlast(commit):
                table.adopt(work)
                # Stored, so it happened: its effects (the next turn, results) still run.
                if self.after is not None:
                    self._orphans.add(task := asyncio.ensure_future(self.after(table, ch)))
                    task.add_done_callback(self._orphans.discard)
            raise
        except (StorageError, OSError) as exc:
            log.exception("could not save table %s", table.id)
            raise errors.SaveFailed() from exc
        table.adopt(work)

    async def _commit(self, work: Table, event: TableEvent, due: list[Announcement]) -> None:
        stored = {**event.to_dict(), "version": work.version}
        event_json = fastjson.dumps(stored, default=json_default)
        await self.storage.tables.commit_action(
            work.id,
            work.version,
            work.to_json(),
            event_json,
            status=work.status.value,
            turn_deadline=work.deadline,
            announce=due,
            now=self._now(),
        )


async def outlast(commit: asyncio.Future[None]) -> bool:
    """After its caller was cancelled: wait for a commit to end all the same (cancelled again
    meanwhile: still waiting); True if it was stored, so that memory takes it and its effects
    run. Shared by the tables' and the tournaments' units."""
    while not commit.done():
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            continue
        except Exception:
            break
    return not commit.cancelled() and commit.exception() is None


def _due(ch: Change, now: int) -> list[Announcement]:
    """The outbox rows this change makes due: for a deal it finished, its results message and
    its record; for a match it finished, the closing message and the match record."""
    work = ch.work
    m = work.match
    due: list[Announcement] = []
    if m is None:
        return due
    number = len(m.results)
    if number > ch.deals_before and m.phase in (MatchPhase.BETWEEN_DEALS, MatchPhase.OVER):
        due.append(Announcement("deal_results", number))
    ended = work.status is TableStatus.FINISHED and ch.status_before.open
    due.extend(result_jobs(work, ch.deals_before, ended, now))
    if ended:
        due.append(Announcement("match_over"))
    return due
