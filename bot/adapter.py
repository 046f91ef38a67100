"""The bridge between Discord and the engine: the one place that knows both.

It owns, per table: who sits where (Discord user id <-> engine seat), an `asyncio.Lock` so
concurrent clicks apply one at a time, the state `version` carried by every button so a click on
a stale view is refused, the turn timer, AI turns, and durability: every accepted action is
written to storage (snapshot + event, one transaction) *before* anyone is shown its result.

Engine refusals (`RummyError`) and table-level mistakes become `UserError`s with a short message
the cog shows ephemerally; nothing changes in that case. What people see is produced by a
`Presenter` (see `presenter.py`), which this module calls after each change; the presenter never
changes state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from bot.ai import make_policy
from bot.engine.actions import Action, ActionKind
from bot.engine.errors import RummyError
from bot.engine.evaluate import evaluate_drawn
from bot.engine.match import Match, MatchPhase, Player, ScoreKind
from bot.engine.observation import Observation, PublicView
from bot.engine.rules import HOUSE_TOGGLES, DeclarationMode, MatchFormat, Rules, get_profile
from bot.engine.settlement import DealResult
from bot.engine.states import Phase
from bot.storage import (
    DealResult as StoredDeal,
)
from bot.storage import (
    DealSeat,
    MatchResult,
    MatchSeat,
    Storage,
    StorageError,
)

log = logging.getLogger(__name__)

STATE_FORMAT = 1
WARNING_BEFORE = 15.0  # seconds before the turn timer runs out
MAX_TIMEOUTS = 3  # consecutive timeouts before the bot drops an absent player
AI_TIERS = ("easy", "medium", "hard")
CUSTOM_ID_PREFIX = "rm"
# rm:<table>:<version>:<seat or x>:<action>[:<arg>]
CUSTOM_ID_TEMPLATE = (
    r"rm:(?P<table>[0-9a-z]{4,16}):(?P<version>\d{1,9}):(?P<seat>\d{1,2}|x)"
    r":(?P<action>[a-z_]{2,16})(?::(?P<arg>[0-9a-z_-]{1,24}))?"
)


class UserError(Exception):
    """A mistake a user can make; `message` is short and shown only to them."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleView(UserError):
    """A click on a view built for an older state of the table."""

    def __init__(self) -> None:
        super().__init__(
            "The table has moved on since that view was shown, so nothing was played. "
            "Here is your hand as it is now."
        )


def custom_id(table_id: str, version: int, seat: int | None, action: str, arg: str = "") -> str:
    """A button/select id carrying the table version it was built for."""
    cid = f"{CUSTOM_ID_PREFIX}:{table_id}:{version}:{'x' if seat is None else seat}:{action}"
    if arg:
        cid += f":{arg}"
    return cid


def new_table_id() -> str:
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    return "".join(secrets.choice(alphabet) for _ in range(10))


@dataclass(slots=True)
class Seat:
    """A chair at the table: a Discord user, or an AI of some tier."""

    key: str  # the engine's player id: "u<user id>" or "ai<n>"
    name: str
    user_id: int | None = None
    ai: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "user_id": self.user_id, "ai": self.ai}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        return cls(d["key"], d["name"], d.get("user_id"), d.get("ai"))


@dataclass(slots=True)
class TableOptions:
    """What the host chose at `/rummy new`."""

    profile: str
    max_seats: int
    turn_timer: int
    changes: dict[str, Any] = field(default_factory=dict)  # rule toggles and match length

    def rules(self) -> Rules:
        return get_profile(self.profile).with_options(**self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "max_seats": self.max_seats,
            "turn_timer": self.turn_timer,
            "changes": self.changes,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableOptions:
        return cls(d["profile"], d["max_seats"], d["turn_timer"], dict(d.get("changes", {})))


def build_options(
    profile: str,
    max_seats: int | None,
    turn_timer: int,
    declaration: str | None,
    toggles: dict[str, bool],
    deals: int | None,
    pool_limit: int | None,
    target_score: int | None,
) -> TableOptions:
    """Validate lobby options against the rules object; raises UserError explaining why."""
    try:
        base = get_profile(profile)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    changes: dict[str, Any] = {k: v for k, v in toggles.items() if k in HOUSE_TOGGLES and v}
    if declaration:
        changes["declaration_mode"] = DeclarationMode(declaration)
    if deals is not None:
        if base.match_format is MatchFormat.DEALS and deals not in base.deals_choices:
            choices = ", ".join(map(str, base.deals_choices))
            raise UserError(f"Deals rummy is played over {choices} deals.")
        if base.match_format not in (MatchFormat.DEALS, MatchFormat.TARGET):
            raise UserError(f"`{profile}` has no number of deals to choose.")
        changes["num_deals"] = deals
    if pool_limit is not None:
        if base.match_format is not MatchFormat.POOL:
            raise UserError(f"`{profile}` is not a pool game.")
        changes["pool_limit"] = pool_limit
    if target_score is not None:
        if base.match_format is not MatchFormat.TARGET:
            raise UserError(f"Only `classic` plays to a target score, not `{profile}`.")
        changes["target_score"] = target_score
        changes.setdefault("num_deals", None)
    seats = max_seats or base.max_players
    if not base.min_players <= seats <= base.max_players:
        raise UserError(
            f"`{profile}` seats {base.min_players}–{base.max_players} players, not {seats}."
        )
    options = TableOptions(profile, seats, turn_timer, changes)
    try:
        options.rules()
    except ValueError as exc:
        raise UserError(str(exc).capitalize() + ".") from None
    return options


def _json_default(value: Any) -> Any:
    if hasattr(value, "value"):
        return value.value
    raise TypeError(f"not serialisable: {value!r}")


@dataclass
class Table:
    """One table in one channel: the lobby, then the match. Serialised whole on every change."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    options: TableOptions
    seats: list[Seat] = field(default_factory=list)
    status: str = "lobby"  # lobby, playing, finished, cancelled
    match: Match | None = None
    version: int = 0
    message_id: int | None = None
    prompt_message_id: int | None = None
    deadline: float | None = None
    turn_marker: list[int] | None = None  # [deal number, seat on turn] the timer is for
    timeouts: dict[str, int] = field(default_factory=dict)  # consecutive, by seat key
    log: list[str] = field(default_factory=list)
    next_votes: list[str] = field(default_factory=list)
    seed: int | None = None
    ai_counter: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    # ---- questions ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.match.rules if self.match is not None else self.options.rules()

    def seat_by_user(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def engine_seat(self, user_id: int) -> int | None:
        """The engine seat index of a Discord user (seating may differ from joining order)."""
        if self.match is None:
            return None
        key = f"u{user_id}"
        for i, p in enumerate(self.match.players):
            if p.id == key:
                return i
        return None

    def seat_info(self, engine_seat: int) -> Seat:
        assert self.match is not None
        key = self.match.players[engine_seat].id
        return next(s for s in self.seats if s.key == key)

    @property
    def names(self) -> list[str]:
        if self.match is None:
            return [s.name for s in self.seats]
        return [p.name for p in self.match.players]

    def current_turn(self) -> int | None:
        m = self.match
        if m is None or m.phase is not MatchPhase.PLAYING or m.deal is None or m.deal.over:
            return None
        return m.deal.turn

    # ---- persistence ------------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "options": self.options.to_dict(),
            "seats": [s.to_dict() for s in self.seats],
            "status": self.status,
            "match": None if self.match is None else self.match.to_dict(),
            "version": self.version,
            "message_id": self.message_id,
            "prompt_message_id": self.prompt_message_id,
            "deadline": self.deadline,
            "turn_marker": None if self.turn_marker is None else list(self.turn_marker),
            "timeouts": dict(self.timeouts),
            "log": self.log[-20:],
            "next_votes": list(self.next_votes),
            "seed": self.seed,
            "ai_counter": self.ai_counter,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_state(), default=_json_default, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Table:
        d = json.loads(text)
        if d.get("format") != STATE_FORMAT:
            raise ValueError(f"unknown table state format {d.get('format')}")
        table = cls(
            id=d["id"],
            guild_id=d["guild_id"],
            channel_id=d["channel_id"],
            host_id=d["host_id"],
            options=TableOptions.from_dict(d["options"]),
        )
        table.load_state(d)
        return table

    def load_state(self, d: dict[str, Any]) -> None:
        self.seats = [Seat.from_dict(s) for s in d["seats"]]
        self.status = d["status"]
        self.match = None if d["match"] is None else Match.from_dict(d["match"])
        self.version = d["version"]
        self.message_id = d.get("message_id")
        self.prompt_message_id = d.get("prompt_message_id")
        self.deadline = d.get("deadline")
        self.turn_marker = d.get("turn_marker")
        self.timeouts = dict(d.get("timeouts", {}))
        self.log = list(d.get("log", []))
        self.next_votes = list(d.get("next_votes", []))
        self.seed = d.get("seed")
        self.ai_counter = d.get("ai_counter", 0)


class Presenter(Protocol):
    """What the adapter asks of the Discord side after a change (never changes state)."""

    async def table_changed(self, table: Table) -> None: ...
    async def turn_started(self, table: Table) -> None: ...
    async def turn_warning(self, table: Table) -> None: ...
    async def deal_finished(self, table: Table, number: int) -> None: ...
    async def table_closed(self, table: Table, reason: str) -> None: ...


class Tables:
    """Every open table of this bot, by channel and by id."""

    def __init__(
        self,
        storage: Storage,
        presenter: Presenter,
        *,
        ai_delay: float = 1.5,
        next_deal_delay: float = 20.0,
        deck_seed: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.presenter = presenter
        self.ai_delay = ai_delay
        self.next_deal_delay = next_deal_delay
        self.deck_seed = deck_seed
        self.clock = clock
        self.by_id: dict[str, Table] = {}
        self.by_channel: dict[int, Table] = {}
        self._tasks: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._pinged: dict[str, list[int]] = {}  # table id -> turn marker last announced
        self._closing = False

    # ---- lookup -------------------------------------------------------------------------

    def get(self, table_id: str) -> Table:
        table = self.by_id.get(table_id)
        if table is None:
            raise UserError("This table is closed. Start a new one with `/rummy new`.")
        return table

    def in_channel(self, channel_id: int) -> Table:
        table = self.by_channel.get(channel_id)
        if table is None:
            raise UserError("There is no table in this channel. Open one with `/rummy new`.")
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
        existing = self.by_channel.get(channel_id)
        if existing is not None:
            what = "a lobby" if existing.status == "lobby" else "a game"
            raise UserError(
                f"This channel already has {what} open. Join it, or use `/rummy cancel` first."
            )
        table = Table(new_table_id(), guild_id, channel_id, host_id, options, seed=self.deck_seed)
        table.seats.append(Seat(f"u{host_id}", host_name, user_id=host_id))
        table.version = 1
        await self.storage.save_table(
            table.id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            state_json=table.to_json(),
            version=table.version,
        )
        self.by_id[table.id] = table
        self.by_channel[channel_id] = table
        return table

    async def join(self, table: Table, user_id: int, name: str) -> None:
        async with table.lock:
            self._need_lobby(table, "join")
            if table.seat_by_user(user_id) is not None:
                raise UserError("You are already seated at this table.")
            if len(table.seats) >= table.options.max_seats:
                raise UserError("This table is full.")
            snapshot = table.to_state()
            table.seats.append(Seat(f"u{user_id}", name, user_id=user_id))
            await self._save(table, {"type": "join", "user": user_id}, snapshot)
        await self.presenter.table_changed(table)

    async def add_ai(self, table: Table, user_id: int, tier: str) -> None:
        async with table.lock:
            self._need_lobby(table, "add an AI")
            if user_id != table.host_id:
                raise UserError("Only the host can add AI players.")
            if tier not in AI_TIERS:
                raise UserError(f"AI tiers are {', '.join(AI_TIERS)}.")
            if len(table.seats) >= table.options.max_seats:
                raise UserError("This table is full.")
            snapshot = table.to_state()
            table.ai_counter += 1
            name = f"🤖 {tier.capitalize()}"
            if any(s.name == name for s in table.seats):
                name += f" {table.ai_counter}"
            table.seats.append(Seat(f"ai{table.ai_counter}", name, ai=tier))
            await self._save(table, {"type": "add_ai", "tier": tier}, snapshot)
        await self.presenter.table_changed(table)

    async def leave(self, table: Table, user_id: int) -> str:
        """Leave a lobby seat, or leave a running match (a drop, with its cost)."""
        async with table.lock:
            seat = table.seat_by_user(user_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            snapshot = table.to_state()
            in_lobby = table.status == "lobby"
            if in_lobby:
                if user_id == table.host_id:
                    raise UserError(
                        "You are the host: use Cancel to close the table instead of leaving."
                    )
                table.seats.remove(seat)
                message = "You left the table."
            else:
                engine_seat = table.engine_seat(user_id)
                assert table.match is not None and engine_seat is not None
                if engine_seat in table.match.left:
                    raise UserError("You have already left this match.")
                mark = table.match.event_count
                self._apply(table, Action.leave(engine_seat))
                table.log.extend(table.match.lines_since(mark))
                message = "You left the match; it counts as a drop for this deal."
            await self._save(table, {"type": "leave", "user": user_id}, snapshot)
        if in_lobby:
            await self.presenter.table_changed(table)
        else:
            await self._after_game_change(table)
        return message

    async def start(self, table: Table, user_id: int) -> None:
        async with table.lock:
            self._need_lobby(table, "start")
            if user_id != table.host_id:
                raise UserError("Only the host can start the game.")
            rules = table.options.rules()
            if len(table.seats) < rules.min_players:
                raise UserError(
                    f"`{rules.name}` needs at least {rules.min_players} players "
                    "(invite someone, or add an AI)."
                )
            snapshot = table.to_state()
            players = [Player(s.key, s.name) for s in table.seats]
            seed = table.seed if table.seed is not None else random.SystemRandom().getrandbits(63)
            table.seed = seed
            table.match = Match.create(players, rules, seed=seed)
            table.status = "playing"
            table.log.extend(table.match.lines_since(0))
            self._new_turn_if_needed(table)
            await self._save(table, {"type": "start"}, snapshot)
        await self._after_game_change(table)

    async def cancel(self, table: Table, user_id: int, is_admin: bool) -> None:
        async with table.lock:
            if user_id != table.host_id and not is_admin:
                raise UserError("Only the host or a server manager can cancel this table.")
            await self._close(table, "cancelled")
        await self.presenter.table_closed(table, "cancelled")

    # ---- game actions ------------------------------------------------------------------

    async def act(
        self,
        table: Table,
        user_id: int,
        version: int | None,
        kind: str,
        card: int | None = None,
        owner_seat: int | None = None,
    ) -> str:
        """One game move by a Discord user; returns a short confirmation for them."""
        async with table.lock:
            if table.status != "playing" or table.match is None:
                raise UserError("The game has not started yet.")
            seat = table.engine_seat(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if owner_seat is not None and owner_seat != seat:
                raise UserError(
                    "Those controls belong to someone else's hand. "
                    "Press “Your hand” on the table to see yours."
                )
            if version is not None and version != table.version:
                raise StaleView()
            action = self._action(table, seat, kind, card)
            snapshot = table.to_state()
            before = self._describe_before(table, action)
            mark = table.match.event_count
            self._apply(table, action)
            table.timeouts[table.match.players[seat].id] = 0
            table.log.extend(table.match.lines_since(mark))
            await self._save(table, {"type": "act", "user": user_id, **action.to_dict()}, snapshot)
            reply = self._reply(table, action, before)
        await self._after_game_change(table)
        return reply

    async def vote_next(self, table: Table, user_id: int, version: int | None) -> str:
        async with table.lock:
            m = table.match
            if m is None or m.phase is not MatchPhase.BETWEEN_DEALS:
                raise UserError("There is no deal waiting to start.")
            seat = table.engine_seat(user_id)
            if seat is None or seat not in m.in_play:
                raise UserError("Only players still in the match can start the next deal.")
            key = m.players[seat].id
            if key in table.next_votes:
                return "You are ready; waiting for the others."
            snapshot = table.to_state()
            table.next_votes.append(key)
            ready = self._all_ready(table)
            if ready:
                self._start_next_deal(table)
            await self._save(table, {"type": "next", "user": user_id}, snapshot)
        if ready:
            await self._after_game_change(table)
        else:
            await self.presenter.table_changed(table)
        return "Next deal!" if ready else "You are ready; waiting for the others."

    # ---- views for the presenter ---------------------------------------------------------

    def observation_for(self, table: Table, user_id: int) -> Observation:
        seat = table.engine_seat(user_id)
        if seat is None or table.match is None:
            raise UserError("You are not playing at this table.")
        return table.match.observation(seat)

    def public_view(self, table: Table) -> PublicView:
        assert table.match is not None
        return table.match.public_view()

    def standings(self, table: Table) -> list[str]:
        """Score lines, best first, in the match's own terms (net or penalty points)."""
        from bot.render import amount

        m = table.match
        assert m is not None
        net = m.score_kind is ScoreKind.NET
        order = sorted(range(len(m.players)), key=lambda s: -m.scores[s] if net else m.scores[s])
        lines = []
        for s in order:
            mark = ""
            if s in m.eliminated:
                mark = " (out)"
            elif s in m.left:
                mark = " (left)"
            if s in m.winners:
                mark += " 🏆"
            lines.append(f"{m.players[s].name}: {amount(m.scores[s])}{mark}")
        return lines

    # ---- internals: applying and saving --------------------------------------------------

    def _need_lobby(self, table: Table, what: str) -> None:
        if table.status != "lobby":
            raise UserError(f"The game has already started; you cannot {what} now.")

    def _action(self, table: Table, seat: int, kind: str, card: int | None) -> Action:
        kinds = {
            "draw": ActionKind.DRAW_STOCK,
            "take": ActionKind.TAKE_DISCARD,
            "discard": ActionKind.DISCARD,
            "declare": ActionKind.DECLARE,
            "rummy": ActionKind.DECLARE,
            "drop": ActionKind.DROP,
        }
        if kind not in kinds:
            raise UserError("Unknown action.")
        if kind in ("discard", "declare") and card is None:
            raise UserError("Choose a card first.")
        return Action(kinds[kind], seat, None if kind == "rummy" else card)

    def _apply(self, table: Table, action: Action) -> None:
        assert table.match is not None
        try:
            table.match.apply(action)
        except RummyError as exc:
            raise UserError(exc.message) from None
        self._new_turn_if_needed(table)

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
            table.deadline = self.clock() + table.options.turn_timer

    def _start_next_deal(self, table: Table) -> None:
        assert table.match is not None
        mark = table.match.event_count
        table.match.start_next_deal()
        table.next_votes = []
        table.log.extend(table.match.lines_since(mark))
        self._new_turn_if_needed(table)

    def _all_ready(self, table: Table) -> bool:
        m = table.match
        assert m is not None
        humans = [m.players[s].id for s in m.in_play if m.players[s].id.startswith("u")]
        return all(h in table.next_votes for h in humans)

    async def _save(
        self, table: Table, event: dict[str, Any], snapshot: dict[str, Any] | None
    ) -> None:
        """Write the new state before anyone sees it; on failure, roll back to `snapshot`."""
        table.version += 1
        try:
            await self.storage.commit_action(
                table.id,
                table.version,
                table.to_json(),
                json.dumps({**event, "version": table.version}, default=_json_default),
                status="lobby" if table.status == "lobby" else "playing",
                turn_deadline=table.deadline,
            )
        except (StorageError, OSError) as exc:
            log.exception("could not save table %s", table.id)
            if snapshot is not None:
                table.load_state(snapshot)
            raise UserError("Could not save that move, so it did not happen. Try again.") from exc

    async def _close(self, table: Table, status: str) -> None:
        self._cancel_tasks(table)
        table.status = status
        table.deadline = None
        await self.storage.close_table(
            table.id, "finished" if status == "finished" else "cancelled"
        )
        self.by_id.pop(table.id, None)
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]

    # ---- after a change: results, timers, AI ----------------------------------------------

    async def _after_game_change(self, table: Table) -> None:
        m = table.match
        if m is None:
            return
        await self._record_results(table)
        if m.phase is MatchPhase.OVER:
            async with table.lock:
                if table.status == "playing":
                    await self._close(table, "finished")
            await self.presenter.deal_finished(table, len(m.results))
            await self.presenter.table_closed(table, "finished")
            return
        finished_now = m.phase is MatchPhase.BETWEEN_DEALS and not table.next_votes
        await self.presenter.table_changed(table)
        if finished_now:
            await self.presenter.deal_finished(table, len(m.results))
            self._schedule(table, "next", self._auto_next_deal(table, table.version))
            return
        turn = table.current_turn()
        if turn is None:
            return
        seat = table.seat_info(turn)
        if seat.ai is not None:
            self._schedule(table, "ai", self._ai_turn(table, table.version))
            self._cancel_task(table, "timer")
        else:
            marker = list(table.turn_marker or [])
            if self._pinged.get(table.id) != marker:
                self._pinged[table.id] = marker
                await self.presenter.turn_started(table)
            self._schedule(table, "timer", self._turn_timer(table, marker))

    def _schedule(self, table: Table, name: str, coro: Awaitable[None]) -> None:
        if self._closing:
            coro.close()  # type: ignore[attr-defined]
            return
        key = (table.id, name)
        old = self._tasks.get(key)
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        task = asyncio.ensure_future(coro)
        self._tasks[key] = task
        task.add_done_callback(lambda t: self._task_done(key, t))

    def _task_done(self, key: tuple[str, str], task: asyncio.Task[None]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("table task %s failed", key, exc_info=task.exception())

    def _cancel_task(self, table: Table, name: str) -> None:
        task = self._tasks.get((table.id, name))
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _cancel_tasks(self, table: Table) -> None:
        for name in ("timer", "ai", "next"):
            self._cancel_task(table, name)

    async def _ai_turn(self, table: Table, version: int) -> None:
        await asyncio.sleep(self.ai_delay)
        async with table.lock:
            if table.version != version or table.status != "playing" or table.match is None:
                return
            turn = table.current_turn()
            if turn is None:
                return
            seat = table.seat_info(turn)
            if seat.ai is None:
                return
            obs = table.match.observation(turn)
            policy = make_policy(seat.ai, seed=(table.seed or 0) + table.version)
            # Off the event loop: a hard AI thinks for tens of milliseconds.
            action = await asyncio.to_thread(policy.act, obs)
            snapshot = table.to_state()
            mark = table.match.event_count
            self._apply(table, action)
            table.log.extend(table.match.lines_since(mark))
            await self._save(table, {"type": "ai", **action.to_dict()}, snapshot)
        await self._after_game_change(table)

    async def _turn_timer(self, table: Table, marker: list[int]) -> None:
        if table.deadline is None:
            return
        wait = table.deadline - self.clock() - WARNING_BEFORE
        if wait > 0:
            await asyncio.sleep(wait)
            if table.turn_marker == marker:
                await self.presenter.turn_warning(table)
        remaining = (table.deadline or 0) - self.clock()
        if remaining > 0:
            await asyncio.sleep(remaining)
        await self.timeout(table, marker)

    async def timeout(self, table: Table, marker: list[int]) -> None:
        """The player on turn ran out of time: play for them, or drop them after repeats."""
        async with table.lock:
            m = table.match
            if table.status != "playing" or m is None or table.turn_marker != marker:
                return
            turn = table.current_turn()
            if turn is None or m.deal is None:
                return
            snapshot = table.to_state()
            key = m.players[turn].id
            count = table.timeouts.get(key, 0) + 1
            table.timeouts[key] = count
            actions = self._auto_actions(table, turn, count)
            mark = m.event_count
            try:
                m.apply_timeout(turn, actions, count)
            except RummyError as exc:
                raise UserError(exc.message) from None
            self._new_turn_if_needed(table)
            table.log.extend(m.lines_since(mark))
            event = {"type": "timeout", "seat": turn, "actions": [a.to_dict() for a in actions]}
            await self._save(table, event, snapshot)
        await self._after_game_change(table)

    def _auto_actions(self, table: Table, seat: int, count: int) -> list[Action]:
        """Draw from the stock and throw the drawn card, or declare if that is valid."""
        m = table.match
        assert m is not None and m.deal is not None
        deal = m.deal
        legal = m.legal_actions(seat)
        kinds = {a.kind for a in legal}
        if deal.phase is Phase.DRAW:
            if count >= MAX_TIMEOUTS and ActionKind.DROP in kinds:
                return [Action.drop(seat)]
            if ActionKind.DRAW_STOCK in kinds:
                draw = Action.draw_stock(seat)
            else:
                draw = Action.take_discard(seat)
            before = {c.id for c in deal.hands[seat]}
            probe = Match.from_dict(m.to_dict())
            probe.apply(draw)
            assert probe.deal is not None
            if probe.deal.over or probe.phase is not MatchPhase.PLAYING:
                return [draw]
            hand = probe.deal.hands[seat]
            drawn = next(c for c in hand if c.id not in before)
            return [draw, self._auto_finish(probe, seat, drawn.id)]
        hand = deal.hands[seat]
        fallback = next(c.id for c in reversed(hand) if deal.taken is None or c.id != deal.taken.id)
        return [self._auto_finish(m, seat, fallback)]

    def _auto_finish(self, m: Match, seat: int, fallback: int) -> Action:
        deal = m.deal
        assert deal is not None
        drawn = evaluate_drawn(deal.hands[seat], m.rules, deal.wild_rank, forbidden=deal.taken)
        if drawn.declarable:
            return Action.declare(seat, drawn.winning_discards[0].id)
        if deal.taken is not None and fallback == deal.taken.id:
            fallback = drawn.best_discard.id
        return Action.discard(seat, fallback)

    async def _auto_next_deal(self, table: Table, version: int) -> None:
        await asyncio.sleep(self.next_deal_delay)
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
        """Write the deal that just ended and the match result; idempotent, so safe to repeat.

        The match hands out a finished deal's record (`finished_deal()`) only until the next
        deal starts, and this runs after every change (and on resume), so each deal is stored
        before the next one can start."""
        m = table.match
        assert m is not None
        now = int(self.clock())
        finished = m.finished_deal()
        if finished is not None:
            result, history = finished.result, finished.history
            await self.storage.record_deal_result(
                StoredDeal(
                    guild_id=table.guild_id,
                    match_id=table.id,
                    deal_no=result.number,
                    profile=m.rules.name,
                    finished_at=now,
                    hand_history_json=json.dumps(history, default=_json_default),
                    seats=self._deal_seats(table, result),
                )
            )
        if m.phase is MatchPhase.OVER:
            await self.storage.record_match_result(
                MatchResult(
                    match_id=table.id,
                    guild_id=table.guild_id,
                    profile=m.rules.name,
                    finished_at=now,
                    seats=self._match_seats(table),
                )
            )

    def _deal_seats(self, table: Table, result: DealResult) -> list[DealSeat]:
        m = table.match
        assert m is not None
        charges = {c.seat: c for c in result.charges}
        out = []
        for s, player in enumerate(m.players):
            if s not in result.deltas:
                continue
            info = table.seat_info(s)
            charge = charges.get(s)
            outcome = result.outcome(s).value
            delta = result.deltas.get(s, Fraction(0))
            net = delta if m.score_kind is ScoreKind.NET else -delta
            out.append(
                DealSeat(
                    user_id=info.user_id,
                    name=player.name,
                    is_ai=info.ai is not None,
                    outcome=outcome,  # type: ignore[arg-type]
                    penalty=Fraction(0) if charge is None else charge.amount,
                    net=net,
                )
            )
        return out

    def _match_seats(self, table: Table) -> list[MatchSeat]:
        m = table.match
        assert m is not None
        net = m.score_kind is ScoreKind.NET

        def key(s: int) -> tuple[int, Fraction]:
            if m.rules.match_format is MatchFormat.POOL:
                # Winner first, then the later a player went out, the better.
                if s in m.winners:
                    return (0, Fraction(0))
                order = m.eliminated.index(s) if s in m.eliminated else -1
                return (1, Fraction(-order))
            return (0, -m.scores[s] if net else m.scores[s])

        seats = sorted(range(len(m.players)), key=key)
        out: list[MatchSeat] = []
        place = 0
        previous: tuple[int, Fraction] | None = None
        for i, s in enumerate(seats):
            k = key(s)
            if k != previous:
                place = i + 1
                previous = k
            info = table.seat_info(s)
            out.append(
                MatchSeat(
                    user_id=info.user_id,
                    name=m.players[s].name,
                    is_ai=info.ai is not None,
                    place=place,
                    is_winner=s in m.winners,
                    net=m.scores[s] if net else -m.scores[s],
                )
            )
        return out

    # ---- words for the action log -----------------------------------------------------------

    def _describe_before(self, table: Table, action: Action) -> dict[str, Any]:
        m = table.match
        assert m is not None and m.deal is not None
        deal = m.deal
        top = deal.pile[-1] if deal.pile else None
        card = deal.card(action.card) if action.card is not None else None
        return {"top": top, "card": card, "name": m.players[action.seat].name,
                "cost": m.observation(action.seat).drop_cost}  # fmt: skip

    def _reply(self, table: Table, action: Action, before: dict[str, Any]) -> str:
        from bot.render import card

        k = action.kind
        if k is ActionKind.DRAW_STOCK:
            return "You drew from the stock."
        if k is ActionKind.TAKE_DISCARD:
            return f"You took {card(before['top'])}."
        if k is ActionKind.DISCARD:
            return f"You discarded {card(before['card'])}."
        if k is ActionKind.DROP:
            return f"You dropped ({before['cost']} points)."
        return table.log[-1]

    # ---- start-up and shut-down -------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Bring back every open table after a restart, with timers and AI turns resumed."""
        restored = []
        for record in await self.storage.load_open_tables():
            try:
                table = Table.from_json(record.state_json)
            except (ValueError, KeyError) as exc:
                log.error("cannot restore table %s: %s", record.table_id, exc)
                continue
            table.version = record.version
            table.message_id = record.public_message_id or table.message_id
            table.prompt_message_id = record.prompt_message_id or table.prompt_message_id
            self.by_id[table.id] = table
            self.by_channel[table.channel_id] = table
            restored.append(table)
        return restored

    async def resume(self, table: Table) -> None:
        """After `restore` and once Discord is reachable: results, timers, AI, messages."""
        if table.status == "lobby":
            await self.presenter.table_changed(table)
            return
        await self._after_game_change(table)

    async def set_messages(
        self, table: Table, *, message_id: int | None = None, prompt_id: int | None = -1
    ) -> None:
        """Remember Discord message ids (not a game action: no version bump)."""
        kwargs: dict[str, Any] = {}
        if message_id is not None:
            table.message_id = message_id
            kwargs["public_message_id"] = message_id
        if prompt_id != -1:
            table.prompt_message_id = prompt_id
            kwargs["prompt_message_id"] = prompt_id
        if kwargs and table.id in self.by_id:
            with contextlib.suppress(StorageError):
                await self.storage.set_table_messages(table.id, **kwargs)

    async def shutdown(self) -> None:
        self._closing = True
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
