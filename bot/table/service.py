"""The table service: every use case of a rummy table, with no Discord in sight.

It owns, per table: who sits where (user id <-> engine seat), a lock so concurrent clicks apply
one at a time, the state `version` every button carries (a click on an older view is refused),
turn timers and AI turns (through the `Scheduler`), and durability: every accepted change is
written to storage (state + event, one transaction) *before* anyone is shown its result, and a
failed write rolls memory back to what it was.

Use cases return typed outcomes (`bot.table.outcomes`) and refuse with typed `Refusal`s
(`bot.table.errors`); words are the Discord side's business. After each change the service
tells its `TableListener` what to show; the listener never changes state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.ai import TIERS, make_policy
from bot.ai.review import ReplayError, Review, review_seat
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card
from bot.engine.describe import describe_seating
from bot.engine.errors import RummyError
from bot.engine.match import Match, MatchPhase, Player
from bot.storage import (
    Announcement,
    AnnouncementKind,
    AnnouncementRecord,
    Storage,
    StorageError,
    StorageIntegrityError,
)

from . import errors
from .autoplay import timeout_finish, timeout_opening
from .listener import TableListener
from .messages import UNCHANGED, remember_messages
from .model import Seat, Table, TableOptions, TableStatus, json_default, new_table_id
from .outcomes import AddedAI, DealReview, Left, Played, Voted
from .results import deal_record, match_record
from .scheduler import Clock, Scheduler

log = logging.getLogger(__name__)

#: Seconds before the turn timer runs out at which the player is warned.
WARNING_BEFORE = 15.0

#: Seconds between two re-posts of one table's message (`/rummy table`).
REPOST_INTERVAL = 30.0

#: Seconds a claim on a table lasts without renewal. A process renews every third of it, so a
#: stall of up to two renewals loses nothing; a crashed process's tables can be taken over
#: by another process this long after its last renewal.
LEASE_SECONDS = 60.0

#: Finished deals kept in memory for "Review my play" (state of the match right after each).
REVIEWS_KEPT = 64

#: How a control's action token maps to the engine's move.
ACTION_TOKENS: dict[str, ActionKind] = {
    "draw": ActionKind.DRAW_STOCK,
    "take": ActionKind.TAKE_DISCARD,
    "discard": ActionKind.DISCARD,
    "declare": ActionKind.DECLARE,
    "rummy": ActionKind.DECLARE,  # hand rummy: declare before drawing, no discard
    "drop": ActionKind.DROP,
}


class TableService:
    """Every open table of this bot, by channel and by id, and what can be done with them."""

    def __init__(
        self,
        storage: Storage,
        listener: TableListener,
        *,
        ai_delay: float = 1.5,
        next_deal_delay: float = 20.0,
        lobby_timeout: float = 30 * 60.0,
        deck_seed: int | None = None,
        clock: Clock | None = None,
        owner: str = "local",
        owns_guild: Callable[[int], bool] | None = None,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        """``owner`` names this process in the database's table leases (stable across
        restarts, so a restarted process takes its own tables straight back);
        ``owns_guild`` says which guilds' tables this process drives (its shards; None =
        all of them)."""
        self.storage = storage
        self.listener = listener
        self.ai_delay = ai_delay
        self.next_deal_delay = next_deal_delay
        self.lobby_timeout = lobby_timeout
        self.deck_seed = deck_seed
        self.scheduler = Scheduler(clock)
        self.by_id: dict[str, Table] = {}
        self.by_channel: dict[int, Table] = {}
        self._pinged: dict[str, list[int]] = {}  # table id -> turn marker last announced
        self._recorded: dict[str, int] = {}  # table id -> deals recorded in this process
        self._announced: dict[str, int] = {}  # table id -> deals announced in this process
        self._creating: dict[int, asyncio.Lock] = {}  # channel id -> creation in progress
        self._reposted: dict[str, float] = {}  # table id -> when its message was last re-posted
        self._undelivered: list[AnnouncementRecord] = []  # closed tables' outbox, at restore
        self.owner = owner
        self.owns_guild: Callable[[int], bool] = owns_guild or (lambda _guild_id: True)
        self.lease_seconds = lease_seconds
        self._lease_task: asyncio.Task[None] | None = None
        # (table id, deal number) -> (guild, channel, match state right after the deal):
        # enough to replay any seat's observations for a review, kept past the next deal and
        # past the table's close, bounded by REVIEWS_KEPT; memory only (lost on restart).
        self._finished_deals: dict[tuple[str, int], tuple[int, int, dict[str, Any]]] = {}
        self._reviews: dict[tuple[str, int, int], DealReview] = {}

    @property
    def clock(self) -> Clock:
        """The one clock of turn timers, AI pauses and deadlines (the scheduler's)."""
        return self.scheduler.clock

    # ---- lookup -------------------------------------------------------------------------

    def get(
        self, table_id: str, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> Table:
        """The open table with this id. Given where a click came from, a table of another
        server or channel is refused: a client can send any id, from anywhere."""
        table = self.by_id.get(table_id)
        if table is None:
            raise errors.TableClosed()
        checked = guild_id is not None or channel_id is not None
        if checked and (guild_id, channel_id) != (table.guild_id, table.channel_id):
            raise errors.WrongPlace()
        return table

    def in_channel(self, channel_id: int) -> Table:
        table = self.by_channel.get(channel_id)
        if table is None:
            raise errors.NoTableHere()
        return table

    # ---- lobby --------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions,
    ) -> Table:
        # One table per channel: two `/rummy new` a few milliseconds apart must not both pass
        # the check while the first is still being written, so creation in a channel is serial.
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
    ) -> Table:
        existing = self.by_channel.get(channel_id)
        if existing is not None:
            raise errors.ChannelBusy(in_lobby=existing.status is TableStatus.LOBBY)
        table = Table(new_table_id(), guild_id, channel_id, host_id, options, seed=self.deck_seed)
        table.seats.append(Seat(f"u{host_id}", host_name, user_id=host_id))
        table.version = 1
        self._keep_leases()
        try:
            # Claimed before the row exists, so no other process ever sees it unowned.
            if not await self.storage.leases.claim_table(
                table.id, self.owner, self.lease_seconds, now=self.clock.now()
            ):
                raise StorageError(f"table id {table.id} is already held by another process")
            await self.storage.tables.save_table(
                table.id,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                status="lobby",
                state_json=table.to_json(),
                version=table.version,
            )
        except StorageIntegrityError as exc:
            # The database keeps one open table per channel (another process, or a table
            # this process could not restore, holds it).
            log.warning("channel %s already has an open table in storage: %s", channel_id, exc)
            raise errors.ChannelBusy(in_lobby=False) from exc
        except (StorageError, OSError) as exc:
            log.exception("could not create a table in channel %s", channel_id)
            await self._release(table.id)
            raise errors.SaveFailed() from exc
        self.by_id[table.id] = table
        self.by_channel[channel_id] = table
        self._expire_lobby_later(table)
        return table

    def _expire_lobby_later(self, table: Table) -> None:
        """An idle lobby closes by itself; any change to the lobby restarts the wait."""
        self.scheduler.schedule(table.id, "lobby", self._expire_lobby(table, table.version))

    async def _expire_lobby(self, table: Table, version: int) -> None:
        await self.clock.sleep(self.lobby_timeout)
        async with table.lock:
            if table.status is not TableStatus.LOBBY or table.version != version:
                return
            await self._close(table, TableStatus.CANCELLED)
        await self.listener.table_closed(table, "expired")
        self._forget(table)

    async def join(self, table: Table, user_id: int, name: str) -> None:
        async with table.lock:
            self._need_lobby(table, "join")
            if table.seat_by_user(user_id) is not None:
                raise errors.AlreadySeated()
            if len(table.seats) >= table.options.max_seats:
                raise errors.TableFull()
            snapshot = table.to_state()
            table.seats.append(Seat(f"u{user_id}", name, user_id=user_id))
            await self._save(table, {"type": "join", "user": user_id}, snapshot)
        self._expire_lobby_later(table)
        await self.listener.table_changed(table)

    async def add_ai(self, table: Table, user_id: int, tier: str) -> AddedAI:
        async with table.lock:
            self._need_lobby(table, "add_ai")
            if user_id != table.host_id:
                raise errors.HostOnly("add_ai")
            if tier not in TIERS:
                raise errors.UnknownTier(TIERS)
            if len(table.seats) >= table.options.max_seats:
                raise errors.TableFull()
            snapshot = table.to_state()
            table.ai_counter += 1
            name = f"🤖 {tier.capitalize()}"
            if any(s.name == name for s in table.seats):
                name += f" {table.ai_counter}"
            table.seats.append(Seat(f"ai{table.ai_counter}", name, ai=tier))
            await self._save(table, {"type": "add_ai", "tier": tier}, snapshot)
        self._expire_lobby_later(table)
        await self.listener.table_changed(table)
        return AddedAI(tier, name)

    async def leave(self, table: Table, user_id: int) -> Left:
        """Leave a lobby seat, or leave a running match (a drop, with its cost)."""
        async with table.lock:
            seat = table.seat_by_user(user_id)
            if seat is None:
                raise errors.NotSeated()
            snapshot = table.to_state()
            in_lobby = table.status is TableStatus.LOBBY
            if in_lobby:
                if user_id == table.host_id:
                    raise errors.HostCannotLeave()
                table.seats.remove(seat)
            else:
                engine_seat = table.engine_seat(user_id)
                if table.match is None or engine_seat is None:
                    raise errors.NotPlaying()
                if engine_seat in table.match.left:
                    raise errors.AlreadyLeft()
                mark = table.match.event_count
                self._apply(table, Action.leave(engine_seat))
                table.log.extend(table.match.lines_since(mark))
            await self._save(table, {"type": "leave", "user": user_id}, snapshot)
        if in_lobby:
            self._expire_lobby_later(table)
            await self.listener.table_changed(table)
        else:
            await self._after_game_change(table)
        return Left(in_match=not in_lobby)

    async def start(self, table: Table, user_id: int) -> None:
        async with table.lock:
            self._need_lobby(table, "start")
            if user_id != table.host_id:
                raise errors.HostOnly("start")
            rules = table.options.rules()
            if len(table.seats) < rules.min_players:
                raise errors.NotEnoughPlayers(rules.name, rules.min_players)
            snapshot = table.to_state()
            players = [Player(s.key, s.name) for s in table.seats]
            seed = table.seed if table.seed is not None else random.SystemRandom().getrandbits(63)
            table.seed = seed
            table.match = Match.create(players, rules, seed=seed)
            table.status = TableStatus.PLAYING
            m = table.match
            if m.seating:  # paplu seats the table by a card draw: show it, it decides a lot
                table.log.extend(describe_seating(m.seating, [(p.id, p.name) for p in m.players]))
            table.log.extend(m.lines_since(0))
            self._new_turn_if_needed(table)
            await self._save(table, {"type": "start"}, snapshot)
        self.scheduler.cancel(table.id, "lobby")
        await self._after_game_change(table)

    async def cancel(self, table: Table, user_id: int, is_manager: bool) -> None:
        async with table.lock:
            if user_id != table.host_id and not is_manager:
                raise errors.HostOrManagerOnly()
            await self._close(table, TableStatus.CANCELLED)
        await self.listener.table_closed(table, "cancelled")
        self._forget(table)

    def claim_repost(self, table: Table, user_id: int, is_manager: bool) -> None:
        """May this user have the table message posted again at the bottom of the channel?
        Only players and managers, and not more than once per `REPOST_INTERVAL` per table (a
        re-post deletes the old message: a bystander must not be able to spam or hide it)."""
        if table.seat_by_user(user_id) is None and not is_manager:
            raise errors.SeatedOrManagerOnly()
        now = self.clock.now()
        last = self._reposted.get(table.id)
        if last is not None and now - last < REPOST_INTERVAL:
            raise errors.TooSoon(int(REPOST_INTERVAL - (now - last)) + 1)
        self._reposted[table.id] = now

    def check_drop(self, table: Table, user_id: int) -> None:
        """Why `/rummy drop` cannot be offered right now, as a refusal (or nothing)."""
        obs = table.observation_for(user_id)
        if obs.may_drop:
            return
        if not obs.rules.packing_allowed:
            raise errors.DropNotAllowed("rules")
        if not obs.hand:
            raise errors.DropNotAllowed("out")
        if not obs.my_turn:
            raise errors.DropNotAllowed("turn")
        raise errors.DropNotAllowed("drawn")

    # ---- game actions ------------------------------------------------------------------

    async def act(
        self,
        table: Table,
        user_id: int,
        version: int | None,
        token: str,
        card: int | None = None,
        owner_seat: int | None = None,
    ) -> Played:
        """One game move by a user, named by its control token (`ACTION_TOKENS`)."""
        async with table.lock:
            m = table.match
            if table.status is not TableStatus.PLAYING or m is None:
                raise errors.NotStarted()
            seat = table.engine_seat(user_id)
            if seat is None:
                raise errors.NotPlaying()
            if owner_seat is not None and owner_seat != seat:
                raise errors.NotYourControls()
            if version is not None and version != table.version:
                raise errors.StaleView()
            action = self._action(seat, token, card)
            snapshot = table.to_state()
            deal = m.deal
            top = deal.pile[-1] if deal is not None and deal.pile else None
            hand_before = {c.id for c in deal.hands[seat]} if deal is not None else set()
            concerned = _card_of(m, action)
            cost = m.observation(seat).drop_cost
            mark = m.event_count
            self._apply(table, action)
            table.timeouts[m.players[seat].id] = 0
            declared = self._won_by(table, seat)
            table.log.extend(m.lines_since(mark))
            await self._save(table, {"type": "act", "user": user_id, **action.to_dict()}, snapshot)
            played = self._played(table, seat, action, hand_before, top, concerned, cost, declared)
        await self._after_game_change(table)
        return played

    async def vote_next(self, table: Table, user_id: int) -> Voted:
        async with table.lock:
            m = table.match
            if m is None or m.phase is not MatchPhase.BETWEEN_DEALS:
                raise errors.NoDealWaiting()
            seat = table.engine_seat(user_id)
            if seat is None or seat not in m.in_play:
                raise errors.NotInMatch()
            key = m.players[seat].id
            if key in table.next_votes:
                return Voted(started=False, already=True)
            snapshot = table.to_state()
            table.next_votes.append(key)
            ready = self._all_ready(table)
            if ready:
                self._start_next_deal(table)
            await self._save(table, {"type": "next", "user": user_id}, snapshot)
        if ready:
            await self._after_game_change(table)
        else:
            await self.listener.table_changed(table)
        return Voted(started=ready)

    # ---- internals: applying and saving --------------------------------------------------

    def _need_lobby(self, table: Table, what: str) -> None:
        if table.status is not TableStatus.LOBBY:
            raise errors.AlreadyStarted(what)

    @staticmethod
    def _action(seat: int, token: str, card: int | None) -> Action:
        kind = ACTION_TOKENS.get(token)
        if kind is None:
            raise errors.UnknownAction()
        if token in ("discard", "declare") and card is None:
            raise errors.ChooseCard()
        return Action(kind, seat, None if token == "rummy" else card)

    def _apply(self, table: Table, action: Action) -> None:
        if table.match is None:
            raise errors.NotStarted()
        try:
            table.match.apply(action)
        except RummyError as exc:
            raise errors.RuleRefused(exc) from None
        self._new_turn_if_needed(table)

    @staticmethod
    def _won_by(table: Table, seat: int) -> bool:
        m = table.match
        return bool(
            m is not None
            and m.results
            and m.results[-1].winner == seat
            and (m.phase is not MatchPhase.PLAYING or m.deal is None or m.deal.over)
        )

    @staticmethod
    def _played(
        table: Table,
        seat: int,
        action: Action,
        hand_before: set[int],
        top: Any,
        concerned: Any,
        cost: int | None,
        declared: bool,
    ) -> Played:
        k = action.kind
        if k is ActionKind.DRAW_STOCK:
            m = table.match
            deal = m.deal if m is not None else None
            drawn = None
            if deal is not None and not deal.over:
                drawn = next((c for c in deal.hands[seat] if c.id not in hand_before), None)
            return Played(k, card=drawn)
        if k is ActionKind.TAKE_DISCARD:
            return Played(k, card=top)
        if k is ActionKind.DISCARD:
            return Played(k, card=concerned)
        if k is ActionKind.DROP:
            return Played(k, cost=cost)
        return Played(k, card=concerned, declared=declared, wrong_show=not declared)

    def _new_turn_if_needed(self, table: Table) -> None:
        """Reset the turn timer when the turn passes to someone (or a new deal starts)."""
        m = table.match
        turn = table.current_turn()
        if m is None or turn is None:
            table.deadline = None
            table.turn_marker = None
            return
        marker = [m.deal_number, turn, sum(m.deal.turns_taken.values()) if m.deal else 0]
        if marker != table.turn_marker:
            table.turn_marker = marker
            table.deadline = self.clock.now() + table.options.turn_timer

    def _start_next_deal(self, table: Table) -> None:
        if table.match is None:
            raise errors.NotStarted()
        mark = table.match.event_count
        table.match.start_next_deal()
        table.next_votes = []
        table.log.extend(table.match.lines_since(mark))
        self._new_turn_if_needed(table)

    def _all_ready(self, table: Table) -> bool:
        m = table.match
        if m is None:
            return False
        humans = [m.players[s].id for s in m.in_play if m.players[s].id.startswith("u")]
        return all(h in table.next_votes for h in humans)

    async def _save(
        self, table: Table, event: dict[str, Any], snapshot: dict[str, Any] | None
    ) -> None:
        """Write the new state before anyone sees it; on failure, roll back to `snapshot`."""
        table.version += 1
        try:
            await self.storage.tables.commit_action(
                table.id,
                table.version,
                table.to_json(),
                json.dumps({**event, "version": table.version}, default=json_default),
                status="lobby" if table.status is TableStatus.LOBBY else "playing",
                turn_deadline=table.deadline,
                announce=_due(table),
            )
        except (StorageError, OSError) as exc:
            log.exception("could not save table %s", table.id)
            if snapshot is not None:
                table.load_state(snapshot)
            else:
                table.version -= 1
            raise errors.SaveFailed() from exc

    async def _close(self, table: Table, status: TableStatus) -> None:
        self.scheduler.cancel_table(table.id)
        table.status = status
        table.deadline = None
        finished = status is TableStatus.FINISHED
        # A finished table is never restored: its end goes to the outbox with the close.
        await self.storage.tables.close_table(
            table.id,
            "finished" if finished else "cancelled",
            announce=[Announcement("match_over")] if finished else (),
        )
        self._drop(table)
        await self._release(table.id)

    def _drop(self, table: Table) -> None:
        """Stop holding a table in memory (closed, or now driven by another process)."""
        self.by_id.pop(table.id, None)
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]

    async def _release(self, table_id: str) -> None:
        """Give up the lease; a failure only delays a takeover until the lease runs out."""
        try:
            await self.storage.leases.release_table(table_id, self.owner)
        except (StorageError, OSError):
            log.warning("could not release table %s (its lease will run out)", table_id)

    def _forget(self, table: Table) -> None:
        """Drop every per-table entry once the table is closed and shown closed."""
        self._pinged.pop(table.id, None)
        self._recorded.pop(table.id, None)
        self._announced.pop(table.id, None)
        self._reposted.pop(table.id, None)

    # ---- after a change: results, timers, AI ----------------------------------------------

    async def _after_game_change(self, table: Table) -> None:
        """Results, announcements, timers and AI after a change. Runs outside the lock, so
        two of these may overlap (a quick next move); what to announce is therefore decided
        under the lock, once: each deal's results and the match's end are announced exactly
        once per process."""
        m = table.match
        if m is None:
            return
        await self._record_results(table)
        async with table.lock:
            if not table.status.open:
                return  # closed (and announced) by an earlier follow-up
            number = len(m.results)
            ended = m.phase in (MatchPhase.BETWEEN_DEALS, MatchPhase.OVER)
            announce = ended and number > self._announced.get(table.id, 0)
            if announce:
                self._announced[table.id] = number
            closing = m.phase is MatchPhase.OVER and table.status is TableStatus.PLAYING
            if closing:
                await self._close(table, TableStatus.FINISHED)
        if m.phase is MatchPhase.OVER:
            if announce:
                await self.listener.deal_finished(table, number)
                await self._delivered(table.id, "deal_results", number)
            if closing:
                await self.listener.table_closed(table, "finished")
                await self._delivered(table.id, "match_over")
                self._forget(table)
            return
        await self.listener.table_changed(table)
        if announce:
            await self.listener.deal_finished(table, number)
            await self._delivered(table.id, "deal_results", number)
            self.scheduler.schedule(table.id, "next", self._auto_next_deal(table, table.version))
            return
        turn = table.current_turn()
        if turn is None:
            return
        seat = table.seat_info(turn)
        if seat.ai is not None:
            self.scheduler.schedule(table.id, "ai", self._ai_turn(table, table.version))
            self.scheduler.cancel(table.id, "timer")
        else:
            marker = list(table.turn_marker or [])
            if self._pinged.get(table.id) != marker:
                self._pinged[table.id] = marker
                await self.listener.turn_started(table)
            self.scheduler.schedule(table.id, "timer", self._turn_timer(table, marker))

    async def _ai_turn(self, table: Table, version: int) -> None:
        await self.clock.sleep(self.ai_delay)
        async with table.lock:
            m = table.match
            if table.version != version or table.status is not TableStatus.PLAYING or m is None:
                return
            turn = table.current_turn()
            if turn is None:
                return
            seat = table.seat_info(turn)
            if seat.ai is None:
                return
            obs = m.observation(turn)
            policy = make_policy(seat.ai, seed=(table.seed or 0) + table.version)
            # Off the event loop: a hard AI thinks for tens of milliseconds.
            action = await asyncio.to_thread(policy.act, obs)
            snapshot = table.to_state()
            mark = m.event_count
            self._apply(table, action)
            table.log.extend(m.lines_since(mark))
            await self._save(table, {"type": "ai", **action.to_dict()}, snapshot)
        await self._after_game_change(table)

    async def _turn_timer(self, table: Table, marker: list[int]) -> None:
        if table.deadline is None:
            return
        wait = table.deadline - self.clock.now() - WARNING_BEFORE
        if wait > 0:
            await self.clock.sleep(wait)
            if table.turn_marker == marker:
                await self.listener.turn_warning(table)
        remaining = (table.deadline or 0) - self.clock.now()
        if remaining > 0:
            await self.clock.sleep(remaining)
        await self.timeout(table, marker)

    async def timeout(self, table: Table, marker: list[int]) -> None:
        """The player on turn ran out of time: play for them, or drop them after repeats."""
        async with table.lock:
            m = table.match
            if table.status is not TableStatus.PLAYING or m is None or table.turn_marker != marker:
                return
            turn = table.current_turn()
            if turn is None or m.deal is None:
                return
            snapshot = table.to_state()
            key = m.players[turn].id
            count = table.timeouts.get(key, 0) + 1
            table.timeouts[key] = count
            # Pure auto-play (`autoplay`): the opening move from what the seat sees now, and,
            # after an automatic draw, the throw chosen from what it sees then.
            obs = m.observation(turn)
            opening = timeout_opening(obs, count)
            if opening is None:
                actions, then = [timeout_finish(obs, just_drew=False)], None
            else:
                actions, then = [opening], partial(timeout_finish, just_drew=True)
            mark = m.event_count
            try:
                m.apply_timeout(turn, actions, count, then)
            except RummyError as exc:
                table.load_state(snapshot)
                raise errors.RuleRefused(exc) from None
            self._new_turn_if_needed(table)
            table.log.extend(m.lines_since(mark))
            event = {"type": "timeout", "seat": turn, "actions": [a.to_dict() for a in actions]}
            await self._save(table, event, snapshot)
        await self._after_game_change(table)

    async def _auto_next_deal(self, table: Table, version: int) -> None:
        await self.clock.sleep(self.next_deal_delay)
        async with table.lock:
            m = table.match
            if table.version != version or m is None or m.phase is not MatchPhase.BETWEEN_DEALS:
                return
            snapshot = table.to_state()
            self._start_next_deal(table)
            await self._save(table, {"type": "next", "auto": True}, snapshot)
        await self._after_game_change(table)

    # ---- results --------------------------------------------------------------------------

    async def _record_results(self, table: Table) -> None:
        """Store the deal that just ended and the match result; idempotent, so safe to repeat.

        The match hands out a finished deal's record (`Match.finished_deal`) only until the
        next deal starts; this runs after every change (and on resume), before anyone can start
        the next deal."""
        m = table.match
        if m is None:
            return
        now = int(self.clock.now())
        finished = m.finished_deal()
        if finished is not None:
            self._keep_for_review(table, m, finished.result.number)
        if finished is not None and finished.result.number > self._recorded.get(table.id, 0):
            record = deal_record(table, finished.result, finished.history, now)
            await self.storage.results.record_deal_result(record)
            self._recorded[table.id] = finished.result.number
        if m.phase is MatchPhase.OVER:
            await self.storage.results.record_match_result(match_record(table, now))

    # ---- post-deal review ---------------------------------------------------------------------

    def _keep_for_review(self, table: Table, m: Match, number: int) -> None:
        key = (table.id, number)
        if key in self._finished_deals:
            return
        self._finished_deals[key] = (table.guild_id, table.channel_id, m.to_dict())
        while len(self._finished_deals) > REVIEWS_KEPT:
            del self._finished_deals[next(iter(self._finished_deals))]

    async def review(
        self,
        table_id: str,
        user_id: int,
        deal_number: int,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> DealReview:
        """`user_id`'s review of deal `deal_number` at table `table_id` (see `bot.ai.review`):
        only that player's own information at each of their turns is used. Works after the
        next deal started and after the table closed, while the deal is kept in memory.

        The replay and hard's analysis take a second or so of CPU, so they run in a worker
        thread (the event loop keeps serving clicks); the result is cached per player."""
        kept = self._finished_deals.get((table_id, deal_number))
        if kept is None:
            raise errors.ReviewGone()
        guild, channel, state = kept
        checked = guild_id is not None or channel_id is not None
        if checked and (guild_id, channel_id) != (guild, channel):
            raise errors.WrongPlace()
        key = f"u{user_id}"
        seat = next((i for i, p in enumerate(state["players"]) if p[0] == key), None)
        deal = state.get("deal") or {}
        if seat is None or seat not in deal.get("seats", ()):
            raise errors.NotInDeal()
        cache_key = (table_id, deal_number, seat)
        cached = self._reviews.get(cache_key)
        if cached is not None:
            return cached
        try:
            review = await asyncio.to_thread(_review_from_state, state, seat)
        except ReplayError as exc:
            raise errors.ReviewGone() from exc
        outcome = DealReview(deal_number, seat, review)
        self._reviews[cache_key] = outcome
        while len(self._reviews) > 4 * REVIEWS_KEPT:
            del self._reviews[next(iter(self._reviews))]
        return outcome

    # ---- start-up and shut-down -------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Bring back every open table after a restart (timers resume in `resume`), and note
        what the outbox still owes: a pending announcement of an open table is made by
        `resume` (and only a pending one: a delivered deal is not announced again); those of
        closed tables are posted by `deliver_pending`.

        Only the tables of this process's shards, each claimed first: a table another live
        process holds (overlapping shard configuration) is left alone, with a warning.

        One table per channel, whatever the database holds: the schema keeps it so since
        migration 0003, and a second open table of a channel (a database copied in from
        elsewhere) is closed here rather than loaded over the first. A table whose state
        cannot be read is closed too, with an error in the log: it could never be played
        and it would hold its channel forever."""
        self._keep_leases()
        pending = await self.storage.outbox.pending_announcements()
        owed: dict[str, set[int]] = {}
        for note in pending:
            if note.kind == "deal_results":
                owed.setdefault(note.table_id, set()).add(note.deal_no)
        restored: list[Table] = []
        # Newest first, so the table kept in a channel is the newest one.
        records = sorted(
            await self.storage.tables.load_open_tables(),
            key=lambda r: (r.created_at, r.table_id),
            reverse=True,
        )
        for record in records:
            if not self.owns_guild(record.guild_id):
                continue  # another shard's process drives it
            kept = self.by_channel.get(record.channel_id)
            if kept is not None:
                log.warning(
                    "table %s is a second open table in channel %s (keeping the newer %s);"
                    " closing it",
                    record.table_id,
                    record.channel_id,
                    kept.id,
                )
                await self._close_unrestorable(record.table_id)
                continue
            if not await self._claim(record.table_id):
                continue
            try:
                table = Table.from_json(record.state_json)
            except (ValueError, KeyError, TypeError) as exc:
                log.error("cannot restore table %s (closing it): %s", record.table_id, exc)
                await self._close_unrestorable(record.table_id)
                continue
            table.version = record.version
            table.message_id = record.public_message_id or table.message_id
            table.prompt_message_id = record.prompt_message_id or table.prompt_message_id
            m = table.match
            if m is not None and m.phase in (MatchPhase.BETWEEN_DEALS, MatchPhase.OVER):
                number = len(m.results)
                self._announced[table.id] = (
                    number - 1 if number in owed.get(table.id, ()) else number
                )
            self.by_id[table.id] = table
            self.by_channel[table.channel_id] = table
            restored.append(table)
        self._undelivered = [p for p in pending if p.table_id not in self.by_id]
        restored.reverse()  # oldest first, as stored
        return restored

    async def _close_unrestorable(self, table_id: str) -> None:
        try:
            await self.storage.tables.close_table(table_id, "cancelled")
        except StorageError:
            log.exception("could not close table %s", table_id)

    async def deliver_pending(self) -> int:
        """Post what closed tables still owe (noted by `restore`): a crash after a match was
        closed in storage but before its results were posted. Each table is rebuilt from its
        last stored state, which still holds its last deal; each announcement is marked
        delivered once the listener has posted it. Only closed tables of this process's
        shards: an open table not restored here is held by another process, which posts
        what it owes. Returns how many were posted."""
        owed, self._undelivered = self._undelivered, []
        posted = 0
        tables: dict[str, Table | None] = {}
        for note in owed:
            if note.table_id not in tables:
                tables[note.table_id] = await self._closed_table(note.table_id)
            table = tables[note.table_id]
            if table is None and await self._elsewhere(note.table_id):
                continue  # another process owes it
            if table is not None and await self._deliver(table, note):
                posted += 1
            await self._delivered(note.table_id, note.kind, note.deal_no)
        return posted

    async def _elsewhere(self, table_id: str) -> bool:
        """Another process owes this: the table is another shard's, or it is still open
        (not restored here, so another process holds it; it, or whoever takes the table
        over when its lease runs out, posts what the table owes)."""
        record = await self.storage.tables.load_table(table_id)
        return record is not None and (
            not self.owns_guild(record.guild_id) or TableStatus(record.status).open
        )

    async def _closed_table(self, table_id: str) -> Table | None:
        record = await self.storage.tables.load_table(table_id)
        if record is None:
            return None
        if not self.owns_guild(record.guild_id) or TableStatus(record.status).open:
            return None  # another process announces it (see `_elsewhere`)
        try:
            table = Table.from_json(record.state_json)
        except (ValueError, KeyError, TypeError) as exc:
            log.error("cannot rebuild closed table %s to announce: %s", table_id, exc)
            return None
        table.status = TableStatus(record.status)
        table.version = record.version
        table.deadline = None
        table.message_id = record.public_message_id or table.message_id
        table.prompt_message_id = record.prompt_message_id or table.prompt_message_id
        return table

    async def _deliver(self, table: Table, note: AnnouncementRecord) -> bool:
        m = table.match
        if note.kind == "match_over":
            await self.listener.table_closed(table, "finished")
            return True
        if m is None or len(m.results) != note.deal_no or m.finished_deal() is None:
            # Only the last deal's results can be rebuilt from the state; an older one is
            # in the deals table (its hand history) and in /rummy history.
            log.warning("cannot re-post deal %s of table %s", note.deal_no, table.id)
            return False
        await self.listener.deal_finished(table, note.deal_no)
        return True

    async def _delivered(self, table_id: str, kind: AnnouncementKind, deal_no: int = 0) -> None:
        """Mark an announcement posted. If that fails it is posted again after a restart:
        a repeat, never a loss, so the failure is logged and not raised."""
        try:
            await self.storage.outbox.mark_announced(table_id, kind, deal_no)
        except StorageError:
            log.exception("could not mark %s %s of table %s posted", kind, deal_no, table_id)

    async def _claim(self, table_id: str) -> bool:
        """Claim a table for this process; on refusal, say who has it and leave it alone."""
        now = self.clock.now()
        if await self.storage.leases.claim_table(table_id, self.owner, self.lease_seconds, now=now):
            return True
        holder = await self.storage.leases.table_owner(table_id)
        log.warning(
            "table %s is driven by another process (%s, lease for %.0f more seconds); "
            "leaving it alone. Two processes run overlapping shards: check SHARD_IDS.",
            table_id,
            holder.owner if holder else "?",
            (holder.lease_until - now) if holder else 0.0,
        )
        return False

    def _load(self, record: Any) -> Table | None:
        """Rebuild a table from its stored record and hold it in memory."""
        try:
            table = Table.from_json(record.state_json)
        except (ValueError, KeyError) as exc:
            log.error("cannot restore table %s: %s", record.table_id, exc)
            return None
        table.version = record.version
        table.message_id = record.public_message_id or table.message_id
        table.prompt_message_id = record.prompt_message_id or table.prompt_message_id
        self.by_id[table.id] = table
        self.by_channel[table.channel_id] = table
        return table

    # ---- leases: one process drives each table -----------------------------------------------

    def _keep_leases(self) -> None:
        """Start the renewal task once (from the first restore or create, on the loop). It
        is the service's, not a table's, so it is kept apart from the scheduler's per-table
        tasks, but it sleeps on the same clock."""
        if self._lease_task is None:
            self._lease_task = asyncio.ensure_future(self._lease_loop())

    async def _lease_loop(self) -> None:
        while True:
            await self.clock.sleep(self.lease_seconds / 3)
            try:
                await self.renew_leases()
            except (StorageError, OSError):
                log.exception("could not renew table leases; retrying")

    async def renew_leases(self) -> None:
        """Renew every table this process drives (one transaction); let go of any another
        process took over after our lease ran out; adopt open tables of our shards whose
        owner stopped renewing (it crashed), so no table is left without a driver."""
        now = self.clock.now()
        lost = await self.storage.leases.renew_tables(
            list(self.by_id), self.owner, self.lease_seconds, now=now
        )
        for table_id in lost:
            table = self.by_id.get(table_id)
            if table is None:
                continue  # closed meanwhile
            log.warning(
                "lost table %s to another process (our lease ran out); no longer driving it",
                table_id,
            )
            self.scheduler.cancel_table(table_id)
            self._drop(table)
            self._forget(table)
        for table_id, guild_id in await self.storage.leases.orphan_tables(now=now):
            if table_id not in self.by_id and self.owns_guild(guild_id):
                await self._adopt(table_id)

    async def _adopt(self, table_id: str) -> None:
        now = self.clock.now()
        if not await self.storage.leases.claim_table(
            table_id, self.owner, self.lease_seconds, now=now
        ):
            return  # another process adopted it first
        record = await self.storage.tables.load_table(table_id)
        if record is None or record.status not in ("lobby", "playing"):
            await self._release(table_id)
            return
        if record.channel_id in self.by_channel:
            await self._release(table_id)
            return
        table = self._load(record)
        if table is None:
            await self._release(table_id)
            return
        log.warning("took over table %s: its previous process stopped renewing its lease", table_id)
        await self.resume(table)

    async def resume(self, table: Table) -> None:
        """After `restore` and once the listener can show things: results, timers, AI."""
        if table.status is TableStatus.LOBBY:
            self._expire_lobby_later(table)
            await self.listener.table_changed(table)
            return
        await self._after_game_change(table)

    async def set_messages(
        self, table: Table, *, message_id: int | None = None, prompt_id: int | None = UNCHANGED
    ) -> None:
        await remember_messages(self.storage, table, message_id=message_id, prompt_id=prompt_id)

    async def shutdown(self) -> None:
        """Stop every task, then hand the tables back at once (a clean stop need not make
        another process wait for the leases to run out)."""
        if self._lease_task is not None:
            self._lease_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lease_task
        await self.scheduler.shutdown()
        for table_id in list(self.by_id):
            await self._release(table_id)


def _due(table: Table) -> list[Announcement]:
    """What a saved state makes due: once a deal has ended (between deals, or the match
    over), its results. Written with every save in that phase; the outbox ignores a
    repeat, so a posted deal is never owed again."""
    m = table.match
    if m is None or not m.results or m.phase not in (MatchPhase.BETWEEN_DEALS, MatchPhase.OVER):
        return []
    return [Announcement("deal_results", len(m.results))]


def _review_from_state(state: dict[str, Any], seat: int) -> Review | None:
    """Rebuild the match right after the deal and review `seat` (runs in a worker thread; it
    reads its own copy of the state, so the live table is never touched)."""
    return review_seat(Match.from_dict(state), seat, seed=int(state.get("seed") or 0))


def _card_of(match: Match, action: Action) -> Card | None:
    """The physical card an action names (a discard or declaration), before it is applied."""
    if match.deal is None or action.card is None:
        return None
    return match.deal.card(action.card)
