"""What a stored tournament change makes happen, after its commit (as `effects.py` for a table).

In a fixed order: the tables the change opened are held and start playing (their threads are
the presenter's business); the notes it made due are posted and marked (a failure is retried a
few times, then left to the next start, from the outbox); tables are held, released, left or
closed as the change asked; the listener redraws the tournament's messages; its clock is armed
again (the check-in window, the start). A failure here never turns into "nothing changed":
the change is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.engine.actions import Action
from bot.storage import StorageError
from bot.storage.tournaments import TournamentNoteKind, lease_key

from . import errors
from .context import TableContext
from .effects import Effects
from .events import Held, Released, TakenOut, TournamentCancelled
from .listener import CloseReason, TableListener
from .model import Table
from .moves import apply_action
from .tournament_model import (
    CHECK_IN_SECONDS,
    Tournament,
    TournamentStatus,
)
from .tournament_unit import TournamentChange, TournamentRegistry
from .vocabulary import TableStatus

log = logging.getLogger(__name__)

#: Attempts at posting a note before leaving it to the next start.
NOTE_ATTEMPTS = 5


class TournamentListener(Protocol):
    """What the tournament side tells the outside world (the Discord presenter's part)."""

    async def tournament_changed(self, tournament: Tournament) -> None:
        """Redraw what shows the tournament (its registration message, its round)."""
        ...

    async def round_table_changed(self, tournament: Tournament, table: Table) -> None:
        """A table of the running round moved on (its standings changed)."""
        ...

    async def tournament_note(
        self,
        tournament: Tournament,
        kind: TournamentNoteKind,
        round_no: int,
        payload: dict[str, Any],
        *,
        again: bool = False,
    ) -> None:
        """Post a note (a round seated, a round's standings, the end, the cancellation, the
        private word to those left out); raise if it was not posted. ``again``: an earlier
        run may have posted it: look first."""
        ...


class QuietTournaments:
    """A listener that shows nothing (the simulator; the default)."""

    async def tournament_changed(self, tournament: Tournament) -> None:
        return None

    async def round_table_changed(self, tournament: Tournament, table: Table) -> None:
        return None

    async def tournament_note(
        self,
        tournament: Tournament,
        kind: TournamentNoteKind,
        round_no: int,
        payload: dict[str, Any],
        *,
        again: bool = False,
    ) -> None:
        return None


class TournamentEffects:
    """Runs the effects of stored tournament changes, each guarded."""

    def __init__(
        self,
        ctx: TableContext,
        effects: Effects,
        registry: TournamentRegistry,
        listener: TournamentListener,
    ) -> None:
        self.ctx = ctx
        self.effects = effects
        self.registry = registry
        self.listener = listener
        self._retries: set[asyncio.Task[None]] = set()
        self._closing = False
        #: The clock's use cases (set by `Tournaments`): open check-in, start.
        self.open_check_in: Callable[[Tournament], Awaitable[None]] = _nothing
        self.start_now: Callable[[Tournament], Awaitable[None]] = _nothing

    async def after(self, t: Tournament, ch: TournamentChange) -> None:
        """The effects of one stored change (outside the tournament's lock)."""
        for table in ch.tables:
            self.ctx.registry.hold(table)
        for note in ch.notes:
            await self.announce(t, note.kind, note.round_no, note.payload_json)
        for key in ch.leave:
            await self.take_out(t, key)
        if ch.hold is not None:
            await self.hold_tables(t, ch.hold)
        if t.status is TournamentStatus.CANCELLED:
            await self.close_tables(t)
        if ch.tables:
            # Placing a round's tables (a message and a thread each, within Discord's limits)
            # takes a while: whoever started the round has their answer meanwhile.
            self._background(self._start_tables(t, list(ch.tables)))
        await self._guard(t, "show", self.listener.tournament_changed(t))
        if ch.closed:
            self.ctx.scheduler.cancel(t.id, "t_clock")
            self.registry.drop(t)
            await self.release(t)
        else:
            self.arm(t)

    async def _start_tables(self, t: Tournament, tables: list[Table]) -> None:
        """What players see of a new round's tables, and their first turns (every table
        already plays: its deadlines were set when the round was stored)."""
        for table in tables:
            await self._guard(t, "start a table", self.effects.game_changed(table, None))

    def _background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    # ---- the clock -------------------------------------------------------------------------

    def arm(self, t: Tournament) -> None:
        """Before the start: wake at the check-in window, then at the start time."""
        if t.status is TournamentStatus.REGISTRATION:
            when, then = t.options.start_at - CHECK_IN_SECONDS, self.open_check_in
        elif t.status is TournamentStatus.CHECK_IN and not t.stalled:
            when, then = t.options.start_at, self.start_now
        else:
            self.ctx.scheduler.cancel(t.id, "t_clock")
            return
        self.ctx.scheduler.schedule(t.id, "t_clock", self._at(when, then, t))

    async def _at(
        self, when: float, then: Callable[[Tournament], Awaitable[None]], t: Tournament
    ) -> None:
        clock = self.ctx.clock
        wait = when - clock.now()
        if wait > 0:
            await clock.sleep(wait)
        await then(t)

    # ---- tables ----------------------------------------------------------------------------

    def open_tables(self, t: Tournament) -> list[Table]:
        """The current round's tables this process holds open."""
        r = t.current
        if r is None:
            return []
        found = (self.ctx.registry.by_id.get(slot.table_id) for slot in r.tables)
        return [table for table in found if table is not None and table.status.open]

    async def hold_tables(self, t: Tournament, hold: bool) -> None:
        """Pause (hold) or resume (release) every open table of the round."""
        for table in self.open_tables(t):
            try:
                async with self.ctx.unit.change(table) as tch:
                    if tch.work.held == hold:
                        continue
                    tch.work.held = hold
                    tch.event = Held(t.id) if hold else Released(t.id)
            except (errors.Refusal, StorageError, OSError):
                log.warning("could not %s table %s", "hold" if hold else "release", table.id)

    async def take_out(self, t: Tournament, key: str) -> None:
        """An entrant the organiser removed leaves their table: their seat is played out as
        a drop (the engine's leave)."""
        for table in self.open_tables(t):
            if all(s.key != key for s in table.seats):
                continue
            try:
                async with self.ctx.unit.change(table) as tch:
                    m = tch.work.match
                    if tch.work.status is not TableStatus.PLAYING or m is None:
                        return
                    seat = next((i for i, p in enumerate(m.players) if p.id == key), None)
                    if seat is None or seat in m.left:
                        return
                    apply_action(tch.work, Action.leave(seat), self.ctx.clock.now())
                    tch.event = TakenOut(key, t.id)
            except (errors.Refusal, StorageError, OSError):
                log.warning("could not take %s out of table %s", key, table.id)

    async def close_tables(self, t: Tournament) -> None:
        """A cancelled tournament closes every table of it still open (cancelled tables
        record no match: nothing is rated)."""
        ids = set(t.table_ids())
        for table in [x for x in self.ctx.registry.by_id.values() if x.id in ids]:
            try:
                async with self.ctx.unit.change(table) as tch:
                    tch.work.status = TableStatus.CANCELLED
                    tch.event = TournamentCancelled(t.id)
            except errors.TableClosed:
                continue
            except (errors.Refusal, StorageError, OSError):
                log.warning("could not close table %s of tournament %s", table.id, t.id)

    # ---- notes -----------------------------------------------------------------------------

    async def announce(
        self, t: Tournament, kind: TournamentNoteKind, round_no: int, payload_json: str,
        *, again: bool = False,
    ) -> None:  # fmt: skip
        """Post a note and mark it posted; on failure retried a few times in the background,
        then left to the next start (the outbox keeps it)."""
        tries = [0]
        payload = json.loads(payload_json or "{}")

        async def post() -> None:
            maybe = again or tries[0] > 0
            tries[0] += 1
            await self.listener.tournament_note(t, kind, round_no, payload, again=maybe)
            try:
                await self.ctx.storage.tournaments.mark(t.id, kind, round_no)
            except (StorageError, OSError):
                log.warning("could not mark %s %s of tournament %s posted", kind, round_no, t.id)

        try:
            await post()
        except Exception:
            log.warning("could not post %s of tournament %s; retrying", kind, t.id, exc_info=True)
            self._retry(post)

    def _retry(self, attempt: Callable[[], Awaitable[None]]) -> None:
        if self._closing:
            return
        task = asyncio.ensure_future(self._retry_loop(attempt))
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def _retry_loop(self, attempt: Callable[[], Awaitable[None]]) -> None:
        delays = self.ctx.settings.retry_delays
        for tries in range(NOTE_ATTEMPTS):
            await self.ctx.clock.sleep(delays[min(tries, len(delays) - 1)])
            try:
                await attempt()
            except Exception:
                log.warning("retry %d of a tournament note failed", tries + 1, exc_info=True)
                continue
            return

    # ---- leases and guarding --------------------------------------------------------------

    async def release(self, t: Tournament) -> None:
        try:
            await self.ctx.storage.leases.release_table(lease_key(t.id), self.ctx.settings.owner)
        except (StorageError, OSError):
            log.warning("could not release tournament %s (its lease will run out)", t.id)

    async def _guard(self, t: Tournament, what: str, effect: Awaitable[None]) -> None:
        try:
            await effect
        except Exception:
            log.exception("after a stored change of tournament %s: %s failed", t.id, what)

    async def shutdown(self) -> None:
        self._closing = True
        tasks = list(self._retries)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _nothing(_t: Tournament) -> None:
    return None


class TournamentTables:
    """The table listener as the table layer sees it, which also tells the tournament side
    when one of a round's tables moved on (its standings message shows every table)."""

    def __init__(
        self,
        inner: TableListener,
        registry: TournamentRegistry,
        tournaments: TournamentListener,
    ) -> None:
        self.inner = inner
        self.registry = registry
        self.tournaments = tournaments

    async def _tell(self, table: Table) -> None:
        seat = table.tournament
        t = self.registry.by_id.get(seat.tournament_id) if seat is not None else None
        if t is not None:
            try:
                await self.tournaments.round_table_changed(t, table)
            except Exception:
                log.exception("could not show table %s in tournament %s", table.id, t.id)

    async def table_changed(self, table: Table) -> None:
        await self.inner.table_changed(table)
        await self._tell(table)

    async def turn_started(self, table: Table) -> None:
        await self.inner.turn_started(table)

    async def turn_warning(self, table: Table) -> None:
        await self.inner.turn_warning(table)

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        await self.inner.deal_finished(table, number, again=again)
        await self._tell(table)

    async def table_closed(self, table: Table, reason: CloseReason, *, again: bool = False) -> None:
        await self.inner.table_closed(table, reason, again=again)
        await self._tell(table)
