"""A tournament's use cases: create, register, check in, start, rounds, and the organiser's tools.

Every change is one tournament change (`bot.table.tournament_unit`): lock, change a copy, one
transaction (state + event + notes + the tables a round opens + places), swap in, effects after
the commit (`bot.table.tournament_effects`). The rules of seating, byes, who goes through and
places are `bot.table.bracket`'s; tables are ordinary tables with a `TournamentSeat`.

The life of a tournament: **registration** (Register / Unregister, up to the cap) until the
check-in window opens `CHECK_IN_SECONDS` before the start; **check-in** ("I'm here"; a player
who registers now is checked in at once); at the start time the players who checked in are
seated (the others are left out, and told) unless fewer than `MIN_ENTRANTS` did: then it waits
(*stalled*) for its organiser, who may start it late, delay it or cancel it. **Running**: the
round's tables play at once; when the last of them is done the round's results are read from
the stored tables, who goes through is decided, and the next round is seated in the same
transaction, or, after the final, the places are written. Pausing holds every table between
deals (a deal in play is finished) and seats no new round until resumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.storage import StorageError
from bot.storage.settings import GuildSettings
from bot.storage.tournaments import TournamentNote, lease_key

from . import bracket, errors
from .context import TableContext
from .effects import Effects
from .errors import TournamentProblem, TournamentRefused
from .model import Table, new_table_id
from .recovery import UNREADABLE, rebuild
from .tournament_effects import TournamentEffects, TournamentListener
from .tournament_model import (
    CHECK_IN_SECONDS,
    MIN_ENTRANTS,
    Entrant,
    Tournament,
    TournamentStatus,
)
from .tournament_model import rebuild as rebuild_tournament
from .tournament_options import TournamentRequest, build, zone_of
from .tournament_rounds import finish, next_players, seat_round, table_results
from .tournament_unit import TournamentChange, TournamentRegistry, TournamentUnit
from .vocabulary import Locale

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Organiser:
    """Who asks for an organiser's tool, with what the Discord side knows of them."""

    user_id: int
    manager: bool = False  # Manage Server
    roles: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Registered:
    count: int
    checked_in: bool  # registered during check-in: checked in at once


@dataclass(frozen=True, slots=True)
class CheckedIn:
    already: bool


def _refuse(problem: TournamentProblem, **params: object) -> TournamentRefused:
    return TournamentRefused(problem, **params)


class Tournaments:
    """Every open tournament of this process, and what can be done with them."""

    def __init__(
        self,
        ctx: TableContext,
        effects: Effects,
        listener: TournamentListener,
        registry: TournamentRegistry | None = None,
    ) -> None:
        self.ctx = ctx
        self.registry = registry or TournamentRegistry()
        settings = ctx.settings
        self.unit = TournamentUnit(
            ctx.storage, ctx.clock.now, settings.owner, settings.lease_seconds
        )
        self.effects = TournamentEffects(ctx, effects, self.registry, listener)
        self.unit.after = self.effects.after
        self.effects.open_check_in = self._open_check_in
        self.effects.start_now = self._auto_start
        self._creating = asyncio.Lock()
        self._dirty: set[str] = set()
        self._checks: dict[str, asyncio.Task[None]] = {}
        self._closing = False
        #: Called when a tournament is created here (its lease must be renewed).
        self.created: Callable[[], None] = lambda: None

    # ---- finding one ---------------------------------------------------------------------

    def get(
        self, tournament_id: str, *, guild_id: int | None, channel_id: int | None
    ) -> Tournament:
        """The open tournament with this id, refused if it is another server's or channel's
        (a click carries the id; anyone can send any id)."""
        t = self.registry.by_id.get(tournament_id)
        if t is None:
            raise _refuse(TournamentProblem.CLOSED)
        if guild_id != t.guild_id or channel_id != t.channel_id:
            raise _refuse(TournamentProblem.WRONG_PLACE)
        return t

    def here(self, channel_id: int | None) -> Tournament:
        """The open tournament of a channel, or of the channel a table's thread is under."""
        t = self.registry.by_channel.get(channel_id or 0)
        if t is None:
            table = self.ctx.registry.in_thread(channel_id or 0)
            seat = table.tournament if table is not None else None
            t = self.registry.by_id.get(seat.tournament_id) if seat is not None else None
        if t is None:
            raise _refuse(TournamentProblem.NONE_HERE)
        return t

    def live_tables(self, t: Tournament) -> dict[str, Table]:
        """The current round's tables this process holds, by id (open or just closed)."""
        r = t.current
        if r is None:
            return {}
        found = {s.table_id: self.ctx.registry.by_id.get(s.table_id) for s in r.tables}
        return {k: v for k, v in found.items() if v is not None}

    async def find(
        self, guild_id: int, channel_id: int | None, tournament_id: str | None = None
    ) -> Tournament:
        """A tournament of this server, open or not: by its id, else the channel's open one
        (or that of the table thread the command came from), else the channel's latest (its
        standings and record after it ended)."""
        if tournament_id is None:
            with contextlib.suppress(TournamentRefused):
                return self.here(channel_id)
        else:
            t = self.registry.by_id.get(tournament_id)
            if t is not None and t.guild_id == guild_id:
                return t
        for record in await self.ctx.storage.tournaments.recent(guild_id, limit=50):
            wanted = record.tournament_id == tournament_id or (
                tournament_id is None and record.channel_id == channel_id
            )
            if wanted:
                try:
                    return rebuild_tournament(record)
                except UNREADABLE:
                    break
        raise _refuse(TournamentProblem.NONE_HERE)

    async def may_organise(self, guild_id: int, who: Organiser, t: Tournament | None) -> bool:
        settings = await self.ctx.storage.settings.get_settings(guild_id)
        return _may(settings, who, t)

    async def need_organiser(self, t: Tournament, who: Organiser) -> None:
        if not await self.may_organise(t.guild_id, who, t):
            raise _refuse(TournamentProblem.NOT_ORGANISER)

    # ---- creating -------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        who: Organiser,
        request: TournamentRequest,
        language: Callable[[str | None], Locale],
    ) -> Tournament:
        """`/rummy tournament create`: a server manager (or the organiser role) opens one
        tournament in a channel. `language` turns the server's chosen language into the
        language of its public messages."""
        settings = await self.ctx.storage.settings.get_settings(guild_id)
        if not _may(settings, who, None):
            raise _refuse(TournamentProblem.NOT_ORGANISER)
        if not settings.channel_allowed(channel_id):
            raise errors.ChannelNotAllowed()
        now = self.ctx.clock.now()
        options = build(
            request,
            now=now,
            zone=zone_of(settings.time_zone),
            default_timer=settings.turn_timer,
            language=language(settings.language),
        )
        async with self._creating:
            if channel_id in self.registry.by_channel:
                raise _refuse(TournamentProblem.CHANNEL_BUSY)
            t = Tournament(new_table_id(), guild_id, channel_id, who.user_id, options)
            t.seed, t.created_at, t.version = self.ctx.settings.deck_seed, now, 1
            if options.start_at - now <= CHECK_IN_SECONDS:
                t.status = TournamentStatus.CHECK_IN
            await self._store_new(t, now)
            self.registry.hold(t)
        self.created()
        self.effects.arm(t)
        return t

    async def _store_new(self, t: Tournament, now: float) -> None:
        storage, settings = self.ctx.storage, self.ctx.settings
        try:
            async with storage.transaction() as tx:
                if not await storage.leases.claim_table(
                    lease_key(t.id), settings.owner, settings.lease_seconds, now=now, tx=tx
                ):
                    raise StorageError(f"tournament id {t.id} is held by another process")
                await storage.tournaments.create(
                    t.id,
                    guild_id=t.guild_id,
                    channel_id=t.channel_id,
                    organiser_id=t.organiser_id,
                    name=t.options.name,
                    status=t.status.value,
                    state_json=t.to_json(),
                    version=t.version,
                    start_at=t.options.start_at,
                    now=now,
                    tx=tx,
                )
        except (StorageError, OSError) as exc:
            log.exception("could not create a tournament in channel %s", t.channel_id)
            raise errors.SaveFailed() from exc

    async def remember_message(self, t: Tournament, name: str, message_id: int) -> None:
        """Bookkeeping: which Discord message shows what of the tournament."""
        t.messages[name] = message_id
        try:
            await self.ctx.storage.tournaments.set_messages(t.id, dict(t.messages))
        except StorageError:
            log.warning("could not store the message ids of tournament %s", t.id)

    # ---- entering -------------------------------------------------------------------------

    async def register(self, t: Tournament, user_id: int, name: str) -> Registered:
        async with self.unit.change(t) as ch:
            w = ch.work
            if not w.status.entering:
                raise _refuse(TournamentProblem.REGISTRATION_CLOSED)
            known = w.entrant_of(user_id)
            if known is not None:
                problem = TournamentProblem.REMOVED if known.removed else None
                raise _refuse(problem or TournamentProblem.ALREADY_REGISTERED)
            if len(w.registered) >= w.options.cap:
                raise _refuse(TournamentProblem.FULL, cap=w.options.cap)
            here = w.status is TournamentStatus.CHECK_IN
            w.entrants.append(Entrant(f"u{user_id}", name, user_id=user_id, checked_in=here))
            ch.event = {"type": "register", "user": user_id}
        return Registered(len(t.registered), here)

    async def unregister(self, t: Tournament, user_id: int) -> None:
        async with self.unit.change(t) as ch:
            w = ch.work
            if not w.status.entering:
                raise _refuse(TournamentProblem.REGISTRATION_CLOSED)
            known = w.entrant_of(user_id)
            if known is None or known.removed:
                raise _refuse(TournamentProblem.NOT_REGISTERED)
            w.entrants.remove(known)
            ch.event = {"type": "unregister", "user": user_id}

    async def check_in(self, t: Tournament, user_id: int) -> CheckedIn:
        async with self.unit.change(t) as ch:
            w = ch.work
            if w.status is TournamentStatus.REGISTRATION:
                opens = int(w.options.start_at - CHECK_IN_SECONDS)
                raise _refuse(TournamentProblem.CHECK_IN_NOT_OPEN, opens=opens)
            if not w.status.entering:
                raise _refuse(TournamentProblem.REGISTRATION_CLOSED)
            known = w.entrant_of(user_id)
            if known is None or known.removed:
                raise _refuse(TournamentProblem.NOT_REGISTERED)
            if known.checked_in:
                return CheckedIn(already=True)
            known.checked_in = True
            ch.event = {"type": "check_in", "user": user_id}
        return CheckedIn(already=False)

    # ---- the start --------------------------------------------------------------------------

    async def _open_check_in(self, t: Tournament) -> None:
        try:
            async with self.unit.change(t) as ch:
                if ch.work.status is not TournamentStatus.REGISTRATION:
                    return
                ch.work.status = TournamentStatus.CHECK_IN
                ch.event = {"type": "check_in_open"}
        except errors.SaveFailed:
            self._later(t, self._open_check_in)
        except TournamentRefused:
            return

    async def _auto_start(self, t: Tournament) -> None:
        try:
            async with self.unit.change(t) as ch:
                if ch.work.status is TournamentStatus.REGISTRATION:
                    ch.work.status = TournamentStatus.CHECK_IN  # the window was missed
                if ch.work.status is not TournamentStatus.CHECK_IN or ch.work.stalled:
                    return
                self.begin(ch)
        except errors.SaveFailed:
            self._later(t, self._auto_start)
        except TournamentRefused:
            return

    def _later(self, t: Tournament, again: Callable[[Tournament], object]) -> None:
        """A clock change that could not be stored is tried again after a pause."""

        async def retry() -> None:
            await self.ctx.clock.sleep(self.ctx.settings.retry_delays[-1] / 6)
            result = again(t)
            if asyncio.iscoroutine(result):
                await result

        log.warning("could not store a timed change of tournament %s; trying again", t.id)
        self.ctx.scheduler.schedule(t.id, "t_clock", retry())

    def begin(self, ch: TournamentChange) -> None:
        """Seat round 1 with everyone checked in, or stall for the organiser."""
        w = ch.work
        ready = w.checked_in
        if len(ready) < MIN_ENTRANTS:
            w.stalled = True
            facts = {"count": len(ready), "minimum": MIN_ENTRANTS}
            ch.notes.append(TournamentNote("stalled", ch.tournament.version + 1, json.dumps(facts)))
            ch.event = {"type": "stalled", **facts}
            return
        left_out = [e for e in w.registered if not e.checked_in and e.user_id is not None]
        if left_out:
            users = {"users": [e.user_id for e in left_out], "names": [e.name for e in left_out]}
            ch.notes.append(TournamentNote("left_out", 0, json.dumps(users)))
        w.status, w.stalled = TournamentStatus.RUNNING, False
        ch.tables = seat_round(w, [e.key for e in ready], self.ctx.clock.now())
        ch.notes.append(TournamentNote("round_seated", 1))
        ch.event = {"type": "start", "players": len(ready)}

    # ---- rounds ---------------------------------------------------------------------------

    def table_closed(self, table: Table) -> None:
        """One of a round's tables closed: see whether the round is done (soon, once)."""
        seat = table.tournament
        t = self.registry.by_id.get(seat.tournament_id) if seat is not None else None
        if t is not None:
            self.nudge(t)

    def nudge(self, t: Tournament) -> None:
        """Check the round of `t` (several nudges while a check runs make one more check)."""
        if self._closing or t.status is not TournamentStatus.RUNNING:
            return
        self._dirty.add(t.id)
        task = self._checks.get(t.id)
        if task is None or task.done():
            self._checks[t.id] = asyncio.ensure_future(self._check_loop(t))

    async def _check_loop(self, t: Tournament) -> None:
        delays = self.ctx.settings.retry_delays
        tries = 0
        while t.id in self._dirty and not self._closing:
            self._dirty.discard(t.id)
            try:
                await self.check_round(t)
                tries = 0
            except (errors.SaveFailed, StorageError, OSError):
                log.warning("could not advance tournament %s; trying again", t.id)
                self._dirty.add(t.id)
                await self.ctx.clock.sleep(delays[min(tries, len(delays) - 1)])
                tries += 1
            except TournamentRefused:
                return

    async def check_round(self, t: Tournament) -> None:
        """Read the round's finished tables; when the last is done, decide who goes through
        and seat the next round (or finish), all in one change."""
        async with self.unit.change(t) as ch:
            w = ch.work
            r = w.current
            if w.status is not TournamentStatus.RUNNING or r is None or r.done:
                return
            done = await self._collect(w)
            if not all(slot.done for slot in r.tables):
                if done:
                    ch.event = {"type": "tables_done", "round": r.number, "tables": done}
                return
            r.done = True
            ch.notes.append(TournamentNote("round_done", r.number))
            ch.event = {"type": "round_done", "round": r.number}
            self.advance(ch)

    async def _collect(self, w: Tournament) -> list[int]:
        """Each finished table's results and qualifiers, from its stored record (the truth,
        whichever process played it); returns the numbers of tables newly done."""
        r = w.current
        assert r is not None
        done: list[int] = []
        for slot in r.tables:
            if slot.done:
                continue
            record = await self.ctx.storage.tables.load_table(slot.table_id)
            if record is not None and record.status in ("lobby", "playing"):
                continue
            table = None
            if record is not None:
                try:
                    table = rebuild(record)
                except UNREADABLE:
                    log.error("cannot read table %s of tournament %s", slot.table_id, w.id)
            if table is None:
                table = Table(slot.table_id, w.guild_id, w.channel_id, w.organiser_id,
                              w.options.table_options(len(slot.seats)))  # fmt: skip
            slot.results = table_results(w, r, slot, table)
            slot.advanced = [] if r.final else bracket.qualifiers(slot.results, w.options.advance)
            done.append(slot.number)
        return done

    def advance(self, ch: TournamentChange) -> None:
        """After a round: the final decides the places; otherwise the next round is seated
        (unless paused: then on resume)."""
        w = ch.work
        r = w.current
        assert r is not None
        players = [] if r.final else next_players(r, w)
        if r.final or len(players) < bracket.MIN_TABLE:
            ch.places = finish(w)
            ch.notes.append(TournamentNote("finished", 0))
            return
        if w.paused:
            return
        ch.tables = seat_round(w, players, self.ctx.clock.now())
        ch.notes.append(TournamentNote("round_seated", r.number + 1))

    # ---- shutting down --------------------------------------------------------------------

    async def shutdown(self) -> None:
        self._closing = True
        for task in list(self._checks.values()):
            task.cancel()
        for task in list(self._checks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.effects.shutdown()
        for t in list(self.registry.by_id.values()):
            self.ctx.scheduler.cancel(t.id, "t_clock")
            await self.effects.release(t)


def _may(settings: GuildSettings, who: Organiser, t: Tournament | None) -> bool:
    """Manage Server, the server's organiser role, or (for its own tournament) its organiser."""
    if who.manager or (t is not None and who.user_id == t.organiser_id):
        return True
    role = settings.organiser_role_id
    return role is not None and role in who.roles
