"""What a stored change makes happen, after its commit: the move has happened by then.

Why apart from the use cases: every change ends the same way (store the results it made due,
close the table in memory, tell the listener, arm the next timer or AI turn), and each of
these can fail on its own (the database, Discord). A failure here must never be reported to
the player as "nothing changed" (the change is stored) and must never be lost: storage jobs
and announcements (a deal's results, a match's end) are retried with a growing pause until
they are done, for as long as the process lives (and, should it stop first, at the next start,
from the outbox); everything else is logged. Announcements used to give up after five tries:
with Discord answering 429 for forty seconds, a match's results then waited for a restart.

The order matters: what is in memory first (the table leaves the registry the moment it is
closed, so `/rummy new` works at once), then the durable jobs, then what players see.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from bot.engine.match import MatchPhase
from bot.storage import AnnouncementKind, StorageError

from .context import TableContext
from .events import Expired
from .jobs import RESULT_KINDS, store_result
from .listener import CloseReason
from .model import Table
from .unit import Change
from .vocabulary import TableStatus

if TYPE_CHECKING:
    from .reviews import Reviews
    from .turns import Turns

log = logging.getLogger(__name__)

#: Failed retries logged with their traceback; later ones of the same effect are one line each
#: (an outage of an hour must not fill the log with the same traceback every minute).
TRACEBACKS_LOGGED = 3


class Effects:
    """Runs the effects of stored changes (`UnitOfWork.after`), each guarded and retried."""

    def __init__(self, ctx: TableContext, turns: Turns, reviews: Reviews) -> None:
        self.ctx = ctx
        self.turns = turns
        self.reviews = reviews
        self._retries: set[asyncio.Task[None]] = set()
        #: The last effect queued per table (`queue`): the next one runs after it.
        self._showing: dict[str, asyncio.Future[None]] = {}
        self._closing = False
        #: Called when a closed table's last effects are done (the service forgets it).
        self.on_closed: Callable[[Table], None] = lambda _table: None

    async def after(self, table: Table, ch: Change) -> None:
        """The effects of one stored change (the unit calls this outside the table lock).

        What is in memory and what is durable happens now, before the use case returns;
        what players see (the table message, results, the next turn's ping) is queued for
        the table and runs in order, in the background: the answer to the player who made
        the change never waits for a public post (a channel's posts are rate-limited, five
        per five seconds, and a ping could hold a move's answer for seconds)."""
        if ch.work.match is not None and ch.ended_deal is not None:
            # The state this change stored: an effect run late (its caller was cancelled)
            # may find the table moved on.
            self.reviews.keep(table, ch.ended_deal, ch.work.match)
        if ch.closed:
            self.ctx.scheduler.cancel_table(table.id)
            self.ctx.registry.drop(table)
            await self.release(table.id)
        for job in ch.due:
            if job.kind in RESULT_KINDS:
                await self.store_job(table.id, job.kind, job.deal_no, job.payload_json)
        self.queue(table, self._shown(table, ch))

    async def _shown(self, table: Table, ch: Change) -> None:
        """What players see of one stored change (queued by `after`, in order per table)."""
        if ch.status_before is TableStatus.LOBBY and ch.status_after is TableStatus.LOBBY:
            self.turns.expire_lobby_later(table)
            await self._guard("table_changed", table, self.ctx.listener.table_changed(table))
        elif ch.status_after is TableStatus.CANCELLED:
            reason = CloseReason.EXPIRED if isinstance(ch.event, Expired) else CloseReason.CANCELLED
            await self._guard("table_closed", table, self.ctx.listener.table_closed(table, reason))
        else:
            await self.game_changed(table, ch.ended_deal, ch.status_after)
        if ch.closed:
            self.on_closed(table)

    def queue(self, table: Table, effect: Coroutine[Any, Any, None]) -> None:
        """Run `effect` after every effect queued before it for this table (their order is
        what players see: the table, then its results, then the next turn)."""
        before = self._showing.get(table.id)

        async def in_turn() -> None:
            if before is not None:
                # `wait`, not `await`: its failure is its own (logged when it ended), and this
                # one runs all the same; only this task's own cancellation stops it here.
                try:
                    await asyncio.wait({before})
                except asyncio.CancelledError:
                    effect.close()  # never started: closed, not left "never awaited"
                    raise
            await effect

        task = asyncio.ensure_future(in_turn())
        self._showing[table.id] = task

        def done(finished: asyncio.Future[None]) -> None:
            if self._showing.get(table.id) is finished:
                del self._showing[table.id]
            if finished.cancelled():
                # Cancelled before `in_turn` first ran (a shutdown right after the change):
                # the effect never started; closed, not left "never awaited". A no-op when
                # it did start.
                effect.close()
            if not finished.cancelled() and finished.exception() is not None:
                log.error("effects of table %s failed", table.id, exc_info=finished.exception())

        task.add_done_callback(done)

    async def settled(self, table_id: str | None = None) -> list[BaseException]:
        """Wait until the queued effects (of one table, or of all) have run, and return how
        those that failed failed (they were logged already); for tests."""
        failures: list[BaseException] = []
        while True:
            pending = [t for key, t in self._showing.items() if table_id is None or key == table_id]
            if not pending:
                return failures
            done = await asyncio.gather(*pending, return_exceptions=True)
            failures += [d for d in done if isinstance(d, BaseException)]

    async def game_changed(
        self, table: Table, ended_deal: int | None, status: TableStatus | None = None
    ) -> None:
        """What players see after a game change (also on resume after a restart, where
        `status` is the table's own; after a change it is what the change left, since the
        table may have moved on by the time this runs)."""
        m = table.match
        if m is None:
            return
        if (status or table.status) is TableStatus.FINISHED:
            if ended_deal is not None:
                await self.announce(table, "deal_results", ended_deal)
            await self.announce(table, "match_over", 0)
            return
        await self._guard("table_changed", table, self.ctx.listener.table_changed(table))
        if ended_deal is not None:
            await self.announce(table, "deal_results", ended_deal)
        if m.phase is MatchPhase.BETWEEN_DEALS:
            self.turns.next_deal_later(table)
            return
        await self._guard("next turn", table, self.turns.next_turn(table))

    # ---- storage jobs ---------------------------------------------------------------------

    async def store_job(self, table_id: str, kind: str, deal_no: int, payload_json: str) -> None:
        """Store a result job and mark it done; on failure, retried in the background until
        it is done (and, if this process stops first, at the next start)."""

        async def attempt() -> None:
            await store_result(self.ctx.storage, table_id, kind, deal_no, payload_json)

        try:
            await attempt()
        except (StorageError, OSError):
            log.warning(
                "could not store %s %s of table %s; retrying",
                kind,
                deal_no,
                table_id,
                exc_info=True,
            )
            self._retry(f"{kind} {deal_no} of table {table_id}", attempt)

    # ---- announcements -----------------------------------------------------------------------

    async def announce(
        self, table: Table, kind: AnnouncementKind, deal_no: int, *, again: bool = False
    ) -> None:
        """Post a deal's results or a match's end, then mark it posted. ``again``: it may
        have been posted by an earlier run that stopped before marking it (the listener then
        looks for it before posting)."""
        listener = self.ctx.listener
        tries = [0]

        async def mark() -> None:
            await self.ctx.storage.outbox.mark_announced(table.id, kind, deal_no)

        async def post() -> None:
            # A failed attempt may have posted all the same (Discord stored the message, its
            # answer was lost): every retry looks for it first.
            maybe_posted = again or tries[0] > 0
            tries[0] += 1
            if kind == "deal_results":
                await listener.deal_finished(table, deal_no, again=maybe_posted)
            else:
                await listener.table_closed(table, CloseReason.FINISHED, again=maybe_posted)
            try:
                await mark()
            except (StorageError, OSError):
                # Posted, not marked: the mark alone is retried, in the background (it needs
                # no Discord), instead of waiting for the next start.
                log.warning(
                    "could not mark %s %s of table %s posted; retrying", kind, deal_no, table.id
                )
                self._retry(f"the mark of {kind} {deal_no} of table {table.id}", mark)

        try:
            await post()
        except Exception:
            log.warning(
                "could not post %s %s of table %s; retrying", kind, deal_no, table.id, exc_info=True
            )
            self._retry(f"{kind} {deal_no} of table {table.id}", post)

    # ---- leases --------------------------------------------------------------------------------

    async def release(self, table_id: str) -> None:
        """Give up the lease; a failure only delays a takeover until the lease runs out."""
        try:
            await self.ctx.storage.leases.release_table(table_id, self.ctx.settings.owner)
        except (StorageError, OSError):
            log.warning("could not release table %s (its lease will run out)", table_id)

    # ---- guarding and retrying -----------------------------------------------------------------

    async def _guard(self, what: str, table: Table, effect: Awaitable[None]) -> None:
        """Run an effect that is not retried (showing the table, arming a timer): a failure
        is logged; the next change shows the table again anyway."""
        try:
            await effect
        except Exception:
            log.exception("after a stored change of table %s: %s failed", table.id, what)

    def _retry(self, what: str, attempt: Callable[[], Awaitable[None]]) -> None:
        """Retry `attempt` in the background until it succeeds or the service shuts down
        (the outbox keeps it for the next start then)."""
        if self._closing:
            return
        task = asyncio.ensure_future(self._retry_loop(what, attempt))
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def _retry_loop(self, what: str, attempt: Callable[[], Awaitable[None]]) -> None:
        """The pauses grow along `retry_delays` and the last one repeats: soon after a blip,
        at most a minute apart in a long outage, never given up while the process lives."""
        delays = self.ctx.settings.retry_delays
        tries = 0
        while True:
            await self.ctx.clock.sleep(delays[min(tries, len(delays) - 1)])
            tries += 1
            try:
                await attempt()
            except Exception as exc:
                if tries <= TRACEBACKS_LOGGED:
                    log.warning("retry %d of %s failed", tries, what, exc_info=True)
                else:
                    log.warning("retry %d of %s failed: %r (retrying)", tries, what, exc)
                continue
            log.info("%s done after %d retries", what, tries)
            return

    async def shutdown(self) -> None:
        self._closing = True
        showing = list(self._showing.values())
        for task in showing:
            task.cancel()
        for task in showing:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        tasks = list(self._retries)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def pending(self) -> int:
        """Retries still running (tests wait for them)."""
        return sum(1 for t in self._retries if not t.done())
