"""The lobby's use cases: open a table, take and leave seats, add AI players, start, cancel."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import replace

from bot.ai import TIERS, AiTier
from bot.engine.actions import Action
from bot.engine.match import Match, MatchPhase, Player
from bot.engine.public_log import seating_entries
from bot.engine.settlement import fixed_cost
from bot.engine.states import SeatStatus
from bot.storage import StorageError, StorageIntegrityError

from . import errors
from .context import TableContext
from .effects import Effects
from .errors import LobbyAction
from .events import (
    AiAdded,
    Cancelled,
    Expired,
    HostHanded,
    Joined,
    LeftSeat,
    RematchOpened,
    Started,
    Unseated,
)
from .model import Seat, Table, TableOptions, new_table_id
from .moves import apply_action, new_turn_if_needed
from .options import LobbyRequest, build_options, parse_hints
from .outcomes import AddedAI, Left, Rematch, SeatRemoved
from .recovery import UNREADABLE, rebuild
from .vocabulary import Locale, TableStatus

log = logging.getLogger(__name__)


class Lobby:
    def __init__(self, ctx: TableContext, effects: Effects) -> None:
        self.ctx = ctx
        self.effects = effects
        self._creating: dict[int, asyncio.Lock] = {}  # channel id -> creation in progress

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        request: LobbyRequest,
        language: Callable[[str | None], Locale],
    ) -> Table:
        """`/rummy new`: a lobby with the options the host asked for, the server's defaults
        for the rest, in one of the server's channels. `language` turns the server's chosen
        language (None: none chosen) into the language of the table's public messages."""
        settings = await self.ctx.storage.settings.get_settings(guild_id)
        if not settings.channel_allowed(channel_id):
            raise errors.ChannelNotAllowed()
        options = build_options(
            request.profile or settings.default_profile,
            request.seats,
            request.turn_timer or settings.turn_timer,
            request.declaration,
            request.toggles,
            request.deals,
            request.pool_limit,
            request.target_score,
            hints=parse_hints(request.hints) if request.hints else settings.hints,
            rated_needs_hints_off=settings.rated_hints_off,
        )
        options.invited = request.invited
        options.language = language(settings.language)
        return await self.create(guild_id, channel_id, host_id, host_name, options)

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions,
    ) -> Table:
        """Open a lobby in a channel. One table per channel: two `/rummy new` a few
        milliseconds apart must not both pass the check while the first is still being
        written, so creation in a channel is serial."""
        lock = self._creating.setdefault(channel_id, asyncio.Lock())
        try:
            async with lock:
                return await self._create(guild_id, channel_id, host_id, host_name, options)
        finally:
            if not lock.locked() and self._creating.get(channel_id) is lock:
                del self._creating[channel_id]

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions,
        *,
        rematch_of: str | None = None,
    ) -> Table:
        existing = self.ctx.registry.here(channel_id)
        if existing is not None:
            raise errors.ChannelBusy(in_lobby=existing.status is TableStatus.LOBBY)
        seed = self.ctx.settings.deck_seed
        table = Table(new_table_id(), guild_id, channel_id, host_id, options, seed=seed)
        table.rematch_of = rematch_of
        table.seats.append(Seat(f"u{host_id}", host_name, user_id=host_id))
        table.version = 1
        storage, owner = self.ctx.storage, self.ctx.settings.owner
        try:
            # Claimed before the row exists, so no other process ever sees it unowned.
            now = self.ctx.clock.now()
            if not await storage.leases.claim_table(
                table.id, owner, self.ctx.settings.lease_seconds, now=now
            ):
                raise StorageError(f"table id {table.id} is already held by another process")
            await storage.tables.save_table(
                table.id,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                status=TableStatus.LOBBY.value,
                state_json=table.to_json(),
                version=table.version,
            )
        except StorageIntegrityError as exc:
            # The database keeps one open table per channel (another process, or a table
            # this process could not restore, holds it).
            log.warning("channel %s already has an open table in storage: %s", channel_id, exc)
            await self.effects.release(table.id)
            raise errors.ChannelBusy(in_lobby=False) from exc
        except (StorageError, OSError) as exc:
            log.exception("could not create a table in channel %s", channel_id)
            await self.effects.release(table.id)
            raise errors.SaveFailed() from exc
        self.ctx.registry.hold(table)
        self.effects.turns.expire_lobby_later(table)
        return table

    async def join(self, table: Table, user_id: int, name: str) -> None:
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            _need_lobby(work, LobbyAction.JOIN)
            if work.seat_by_user(user_id) is not None:
                raise errors.AlreadySeated()
            if not work.options.may_join(user_id):
                raise errors.NotInvited()
            if len(work.seats) >= work.options.max_seats:
                raise errors.TableFull()
            work.seats.append(Seat(f"u{user_id}", name, user_id=user_id))
            ch.event = Joined(user_id)

    async def add_ai(
        self, table: Table, user_id: int, tier: AiTier, name: str | None = None
    ) -> AddedAI:
        """Seat an AI player of `tier`. `name` is its display name as the table's language
        words it (the Discord side's); without one it is named by its tier. A second AI of
        the same name gets a number."""
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            _need_lobby(work, LobbyAction.ADD_AI)
            if user_id != work.host_id:
                raise errors.HostOnly(LobbyAction.ADD_AI)
            if len(work.seats) >= work.options.max_seats:
                raise errors.TableFull()
            work.ai_counter += 1
            name = name or f"🤖 {tier.capitalize()}"
            if any(s.name == name for s in work.seats):
                name += f" {work.ai_counter}"
            work.seats.append(Seat(f"ai{work.ai_counter}", name, ai=tier))
            ch.event = AiAdded(tier)
        return AddedAI(tier, name)

    async def leave(self, table: Table, user_id: int) -> Left:
        """Leave a lobby seat, or leave a running match (a drop, with its cost)."""
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            seat = work.seat_by_user(user_id)
            if seat is None:
                raise errors.NotSeated()
            if work.status is TableStatus.LOBBY:
                left = _leave_lobby(work, seat)
            else:
                left = self._leave_match(work, user_id)
            ch.event = LeftSeat(user_id)
        return left

    def _leave_match(self, work: Table, user_id: int) -> Left:
        """A player leaves a running match: a drop in the deal under way (at its cost),
        and no further deals. A leaving host hands hosting to the next human (in the order
        they sat down) still in the match, as in a lobby."""
        m, seat = work.match, work.engine_seat(user_id)
        if m is None or seat is None:
            raise errors.NotPlaying()
        if seat in m.left:
            raise errors.AlreadyLeft()
        deal = m.deal
        in_deal = deal is not None and not deal.over and deal.status[seat] is SeatStatus.ACTIVE
        apply_action(work, Action.leave(seat), self.ctx.clock.now())
        if user_id == work.host_id:
            playing = {m.players[s].id for s in m.in_play}
            heir = next((s.user_id for s in work.seats if s.key in playing and s.user_id), None)
            if heir is not None:
                work.host_id = heir
        cost = None
        if in_deal and deal is not None and seat in deal.out_reason:
            cost = fixed_cost(work.rules, deal.out_reason[seat])
        over = m.phase is MatchPhase.OVER
        return Left(in_match=True, cost=cost, chips=work.rules.chips, match_over=over)

    async def start(self, table: Table, user_id: int) -> None:
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            _need_lobby(work, LobbyAction.START)
            if user_id != work.host_id:
                raise errors.HostOnly(LobbyAction.START)
            rules = work.options.rules()
            if len(work.seats) < rules.min_players:
                raise errors.NotEnoughPlayers(rules.name, rules.min_players)
            players = [Player(s.key, s.name) for s in work.seats]
            seed = work.seed if work.seed is not None else random.SystemRandom().getrandbits(63)
            work.seed = seed
            work.match = m = Match.create(players, rules, seed=seed)
            work.status = TableStatus.PLAYING
            if m.seating:  # paplu seats the table by a card draw: show it, it decides a lot
                work.log.extend(seating_entries(m.seating, [(p.id, p.name) for p in m.players]))
            work.log.extend(m.entries_since(0))
            new_turn_if_needed(work, self.ctx.clock.now())
            ch.event = Started()
        self.ctx.scheduler.cancel(table.id, "lobby")

    async def remove_seat(self, table: Table, user_id: int, seat_key: str) -> SeatRemoved:
        """The host takes a seat away: an AI player, or a player who joined."""
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            _need_lobby(work, LobbyAction.REMOVE)
            if user_id != work.host_id:
                raise errors.HostOnly(LobbyAction.REMOVE)
            seat = next((s for s in work.seats if s.key == seat_key), None)
            if seat is None or seat.user_id == work.host_id:
                raise errors.NoSuchSeat()
            work.seats.remove(seat)
            ch.event = Unseated(user_id, seat_key)
        return SeatRemoved(seat.name, seat.ai is not None)

    async def hand_host(self, table: Table, user_id: int, seat_key: str) -> str:
        """The host hands the host role to another player at the table; returns their name."""
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            _need_lobby(work, LobbyAction.HOST)
            if user_id != work.host_id:
                raise errors.HostOnly(LobbyAction.HOST)
            seat = next((s for s in work.seats if s.key == seat_key), None)
            if seat is None or seat.user_id is None or seat.user_id == work.host_id:
                raise errors.NoSuchSeat()
            work.host_id = seat.user_id
            ch.event = HostHanded(user_id, seat.user_id)
        return seat.name

    async def rematch(
        self, last_id: str, guild_id: int, channel_id: int, user_id: int, name: str
    ) -> tuple[Table, Rematch]:
        """ "Play again" after the finished table `last_id`: the first of its players to press
        it opens a lobby with the same options and AI players; each of its players who presses
        it after that takes a seat there. Refused, like `/rummy new`, where the server's
        channel list keeps tables out."""
        try:
            record = await self.ctx.storage.tables.load_table(last_id)
        except (StorageError, OSError) as exc:
            raise errors.SaveFailed() from exc
        if record is None or TableStatus(record.status) is not TableStatus.FINISHED:
            raise errors.TableClosed()
        if record.guild_id != guild_id or channel_id not in (record.channel_id, record.thread_id):
            raise errors.WrongPlace()
        channel_id = record.channel_id  # pressed in the table's thread: the lobby opens above
        try:
            last = rebuild(record)
        except UNREADABLE as exc:
            raise errors.TableClosed() from exc
        if last.seat_by_user(user_id) is None:
            raise errors.NotAtLastTable()
        if last.tournament is not None:
            raise errors.TournamentRefused(errors.TournamentProblem.TOURNAMENT_TABLE)
        # A rematch is a new table: the same rules as `/rummy new` decide where it may open.
        settings = await self.ctx.storage.settings.get_settings(guild_id)
        if not settings.channel_allowed(channel_id):
            raise errors.ChannelNotAllowed()
        # Two presses at once: the channel's creation lock makes one open the lobby (marked as
        # this match's rematch from its first save) and the other find it and sit down.
        lock = self._creating.setdefault(channel_id, asyncio.Lock())
        try:
            async with lock:
                here = self.ctx.registry.by_channel.get(channel_id)
                if (
                    here is not None
                    and here.status is TableStatus.LOBBY
                    and here.rematch_of == last.id
                ):
                    already = here.seat_by_user(user_id) is not None
                    if not already:
                        await self.join(here, user_id, name)
                    return here, Rematch(here.id, False, channel_id, already)
                options = _rematch_options(last)
                table = await self._create(
                    guild_id, channel_id, user_id, name, options, rematch_of=last.id
                )
        finally:
            if not lock.locked() and self._creating.get(channel_id) is lock:
                del self._creating[channel_id]
        try:
            async with self.ctx.unit.change(table) as ch:
                work = ch.work
                for seat in last.seats:
                    if seat.ai is not None and len(work.seats) < work.options.max_seats:
                        work.ai_counter += 1
                        work.seats.append(Seat(f"ai{work.ai_counter}", seat.name, ai=seat.ai))
                ch.event = RematchOpened(last.id)
        except errors.SaveFailed:
            log.warning("rematch lobby %s opened without its AI players", table.id)
        return table, Rematch(table.id, True, channel_id)

    async def cancel(self, table: Table, user_id: int, is_manager: bool) -> None:
        """Close the table: its host (while still at it: a host who left a match passed
        hosting on, or kept it for want of anyone to take it, and may not) or a manager."""
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            if work.tournament is not None:  # its organiser runs it (and may cancel it)
                raise errors.TournamentRefused(errors.TournamentProblem.TOURNAMENT_TABLE)
            host = user_id == work.host_id and not _has_left(work, user_id)
            if not host and not is_manager:
                raise errors.HostOrManagerOnly()
            work.status = TableStatus.CANCELLED
            ch.event = Cancelled(user_id)

    async def expire(self, table: Table, version: int) -> None:
        """An idle lobby closes by itself (armed again by every change to the lobby)."""
        try:
            async with self.ctx.unit.change(table) as ch:
                if ch.work.status is not TableStatus.LOBBY or ch.work.version != version:
                    return
                ch.work.status = TableStatus.CANCELLED
                ch.event = Expired()
        except errors.TableClosed:
            return
        except errors.SaveFailed:
            log.warning("could not close the idle lobby %s; trying again later", table.id)
            self.effects.turns.expire_lobby_later(table)


def parse_tier(value: str) -> AiTier:
    """The AI tier a click or command names; a client can send anything, so this is where an
    unknown tier is refused (`UnknownTier`), once, before any use case sees it."""
    try:
        return AiTier(value)
    except ValueError:
        raise errors.UnknownTier(TIERS) from None


def _leave_lobby(work: Table, seat: Seat) -> Left:
    """A lobby seat given up. A leaving host is succeeded by the next human to have sat
    down; with nobody left, the lobby closes."""
    work.seats.remove(seat)
    if seat.user_id == work.host_id:
        heir = next((s.user_id for s in work.seats if s.user_id is not None), None)
        if heir is None:
            work.status = TableStatus.CANCELLED
        else:
            work.host_id = heir
    return Left(in_match=False, closed=not work.status.open)


def _rematch_options(last: Table) -> TableOptions:
    """The options of a rematch: the finished table's, but for a private one every player of
    its match may sit down (whoever presses Play again first hosts the rematch, and the host
    who made the table is not on its own invitation list)."""
    invited = last.options.invited
    if invited is None:
        return last.options
    players = (s.user_id for s in last.seats if s.user_id is not None)
    return replace(last.options, invited=tuple(dict.fromkeys((*invited, last.host_id, *players))))


def _has_left(table: Table, user_id: int) -> bool:
    """Whether this user left the table's running match."""
    seat = table.engine_seat(user_id)
    return table.match is not None and seat is not None and seat in table.match.left


def _need_lobby(table: Table, what: LobbyAction) -> None:
    if table.status is not TableStatus.LOBBY:
        raise errors.AlreadyStarted(what)
