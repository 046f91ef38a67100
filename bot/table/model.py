"""A table as the bot keeps it: the lobby, its seats and options, then the match.

The whole `Table` is saved as one JSON state on every accepted change (with the event that
caused it), so a restart resumes exactly where the table was. Only what cannot be rebuilt goes
in: the engine's `Match` (which no longer carries finished deals' hand histories: those are in
the deals table), who sits where, the turn timer's deadline, the short public log.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bot import fastjson
from bot.ai import AiTier
from bot.engine.hints import HintLevel as HintLevel
from bot.engine.match import Match, MatchPhase, ScoreKind
from bot.engine.observation import Observation, PublicView
from bot.engine.public_log import LogEntry, is_entry
from bot.engine.rules import Rules, get_profile

from .errors import NotPlaying
from .hint_policy import declaration_mode
from .vocabulary import ENGLISH, Locale, TableStatus

STATE_FORMAT = 1
#: Public log records kept in the saved state: enough for every action since any player's
#: last turn at a full table (10 seats x draw + throw), which is what the table shows.
LOG_KEEP = 24


def new_table_id() -> str:
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    return "".join(secrets.choice(alphabet) for _ in range(10))


@dataclass(slots=True)
class Seat:
    """A chair at the table: a Discord user, or an AI of some tier."""

    key: str  # the engine's player id: "u<user id>" or "ai<n>"
    name: str
    user_id: int | None = None
    ai: AiTier | None = None

    def to_dict(self) -> dict[str, Any]:
        ai = None if self.ai is None else self.ai.value
        return {"key": self.key, "name": self.name, "user_id": self.user_id, "ai": ai}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        ai = d.get("ai")
        return cls(d["key"], d["name"], d.get("user_id"), None if ai is None else AiTier(ai))


@dataclass(slots=True)
class TableOptions:
    """What the host chose at `/rummy new` (validated by `bot.table.options`)."""

    profile: str
    max_seats: int
    turn_timer: int
    changes: dict[str, Any] = field(default_factory=dict)  # rule toggles and match length
    #: A private table: only these users (and the host) may sit down. None: anyone.
    invited: tuple[int, ...] | None = None
    #: How much each player's private hand view evaluates for them (see `bot.table.options`).
    hints: HintLevel = HintLevel.FULL
    #: False: the match moves no rating (the server rates hint-free games only and this
    #: table has hints on). Decided when the table opens, so the lobby can say so.
    rated: bool = True
    #: The language of the table's public messages (lobby, table, results, pings): a
    #: catalogue tag chosen when the table opens (the server's setting, else its Discord
    #: language), kept for the table's life so a match never changes language halfway.
    language: Locale = ENGLISH

    def rules(self) -> Rules:
        """The rules the table plays: the profile with the host's changes, declarations on
        honor below full hints (`hint_policy.declaration_mode`)."""
        rules = get_profile(self.profile).with_options(**self.changes)
        mode = declaration_mode(self.hints, rules.declaration_mode)
        if mode is not rules.declaration_mode:
            rules = rules.with_options(declaration_mode=mode)
        return rules

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "max_seats": self.max_seats,
            "turn_timer": self.turn_timer,
            "changes": {k: _plain(v) for k, v in self.changes.items()},
            "invited": None if self.invited is None else list(self.invited),
            "hints": self.hints.value,
            "rated": self.rated,
            "language": self.language,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableOptions:
        """A stored table's options; one saved before hint levels existed played with full
        hints, rated as every match then was, and spoke English."""
        invited = d.get("invited")
        return cls(
            d["profile"],
            d["max_seats"],
            d["turn_timer"],
            dict(d.get("changes", {})),
            None if invited is None else tuple(int(u) for u in invited),
            HintLevel(d.get("hints", HintLevel.FULL.value)),
            bool(d.get("rated", True)),
            Locale(str(d.get("language", "en"))),
        )

    def may_join(self, user_id: int) -> bool:
        return self.invited is None or user_id in self.invited


@dataclass(frozen=True, slots=True)
class TournamentSeat:
    """A tournament's table: which tournament, which round, which table of the round
    (`bot.table.tournament`). Fixed when the table is opened; stored with its row too."""

    tournament_id: str
    round: int
    number: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.tournament_id, "round": self.round, "number": self.number}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> TournamentSeat | None:
        if d is None:
            return None
        return cls(str(d["id"]), int(d["round"]), int(d["number"]))


def _plain(value: Any) -> Any:
    """Enum option values are saved by their value (StrEnum members are strs already)."""
    return value.value if hasattr(value, "value") else value


def json_default(value: Any) -> Any:
    """`json.dumps(default=...)` for everything the table layer writes: enums by their value,
    anything else is a bug and refused."""
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
    status: TableStatus = TableStatus.LOBBY
    match: Match | None = None
    version: int = 0
    message_id: int | None = None
    prompt_message_id: int | None = None
    #: Where the table lives: a thread under `channel_id` (None: the channel itself). The
    #: table message, turn pings and results go there.
    thread_id: int | None = None
    #: The channel's lobby message once the table is placed (None: not placed yet; equal to
    #: `message_id` when one message in the channel serves as lobby and table).
    lobby_message_id: int | None = None
    deadline: float | None = None
    turn_marker: list[int] | None = None  # [deal number, seat on turn, turns taken]
    timeouts: dict[str, int] = field(default_factory=dict)  # consecutive, by seat key
    #: The recent public actions as facts (`bot.engine.public_log` records, no words), worded
    #: when shown in the reader's language.
    log: list[LogEntry] = field(default_factory=list)
    next_votes: list[str] = field(default_factory=list)
    seed: int | None = None
    ai_counter: int = 0
    rematch_of: str | None = None  # the finished table whose "Play again" opened this lobby
    #: A tournament's table (None: an ordinary one).
    tournament: TournamentSeat | None = None
    #: Held by its tournament's organiser (a pause): no next deal starts until released.
    held: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    #: `observation_for`'s observations of the current state (by seat), and that state's key.
    _observed: dict[int, Observation] = field(default_factory=dict, repr=False, compare=False)
    _observed_of: Match | None = field(default=None, repr=False, compare=False)
    _observed_key: tuple[int, int] = field(default=(-1, -1), repr=False, compare=False)

    # ---- questions ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.match.rules if self.match is not None else self.options.rules()

    @property
    def host_name(self) -> str:
        host = self.seat_by_user(self.host_id)
        return host.name if host is not None else "?"

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
        if self.match is None:
            raise LookupError("no match yet")
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

    @property
    def between_deals(self) -> bool:
        return self.match is not None and self.match.phase is MatchPhase.BETWEEN_DEALS

    def observation_for(self, user_id: int) -> Observation:
        """What one player may see; refuses anyone who holds no seat in the match.

        Worked out once per state and seat: the hand view, its picture and the checks before
        a control is offered all ask for it (an observation builds the legal moves and the
        pile's history, ~0.1 ms). The key is the match object and its version, so a change
        (a new match adopted, or any move applied) is a new key; an `Observation` is frozen,
        so sharing it is safe."""
        seat = self.engine_seat(user_id)
        m = self.match
        if seat is None or m is None:
            raise NotPlaying()
        if self._observed_of is not m or self._observed_key != (m.version, self.version):
            self._observed_of, self._observed_key = m, (m.version, self.version)
            self._observed = {}
        obs = self._observed.get(seat)
        if obs is None:
            obs = self._observed[seat] = m.observation(seat)
        return obs

    @property
    def home_id(self) -> int:
        """The channel (or thread) the table's messages go to."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def in_place(self, channel_id: int | None) -> bool:
        """Is a click or command from `channel_id` at this table: its channel, its thread,
        or the thread it left (a thread started from a message has that message's id, so
        the lobby message's id names it; no channel has a message's id)?"""
        places = (self.channel_id, self.thread_id, self.lobby_message_id)
        return channel_id is not None and channel_id in places

    def public_view(self) -> PublicView:
        if self.match is None:
            raise LookupError("no match yet")
        return self.match.public_view()

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
            "status": self.status.value,
            "match": None if self.match is None else self.match.to_dict(),
            "version": self.version,
            "message_id": self.message_id,
            "prompt_message_id": self.prompt_message_id,
            "thread_id": self.thread_id,
            "lobby_message_id": self.lobby_message_id,
            "deadline": self.deadline,
            "turn_marker": None if self.turn_marker is None else list(self.turn_marker),
            "timeouts": dict(self.timeouts),
            "log": self.log[-LOG_KEEP:],
            "next_votes": list(self.next_votes),
            "seed": self.seed,
            "ai_counter": self.ai_counter,
            "rematch_of": self.rematch_of,
            "tournament": None if self.tournament is None else self.tournament.to_dict(),
            "held": self.held,
        }

    def to_json(self) -> str:
        return fastjson.dumps(self.to_state(), default=json_default)

    def copy(self) -> Table:
        """A working copy for one change (see `bot.table.unit`): the change is made on the
        copy and swapped in with `adopt` only once it is stored, so whoever reads this table
        meanwhile (the presenter, a hand view, a timer) sees committed state only.

        The same state as `load_state(to_state())` would give, copied directly (the round
        trip cost ~0.6 ms a change, most of it reading the match back: `Match.copy`): every
        mutable container is new, the log's records (never changed once written) shared."""
        work = Table(self.id, self.guild_id, self.channel_id, self.host_id, self.options)
        work.seats = [Seat(s.key, s.name, s.user_id, s.ai) for s in self.seats]
        work.status = self.status
        work.match = None if self.match is None else self.match.copy()
        work.version = self.version
        work.message_id = self.message_id
        work.prompt_message_id = self.prompt_message_id
        work.thread_id = self.thread_id
        work.lobby_message_id = self.lobby_message_id
        work.deadline = self.deadline
        work.turn_marker = None if self.turn_marker is None else list(self.turn_marker)
        work.timeouts = dict(self.timeouts)
        work.log = list(self.log)  # the copy keeps the whole log; only the saved one is cut
        work.next_votes = list(self.next_votes)
        work.seed = self.seed
        work.ai_counter = self.ai_counter
        work.rematch_of = self.rematch_of
        return work

    def adopt(self, work: Table) -> None:
        """Take over a stored working copy's state. The Discord message ids are not the
        change's: the presenter may have posted a message while the change was in flight,
        and the live ids win."""
        for name in _ADOPTED:
            setattr(self, name, getattr(work, name))

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
        """Replace the mutable state with a saved one (restore, or roll back a failed save)."""
        self.seats = [Seat.from_dict(s) for s in d["seats"]]
        self.status = TableStatus(d["status"])
        self.match = None if d["match"] is None else Match.from_dict(d["match"])
        self.version = d["version"]
        self.message_id = d.get("message_id")
        self.prompt_message_id = d.get("prompt_message_id")
        self.thread_id = d.get("thread_id")
        self.lobby_message_id = d.get("lobby_message_id")
        self.deadline = d.get("deadline")
        self.turn_marker = d.get("turn_marker")
        self.timeouts = dict(d.get("timeouts", {}))
        self.log = _load_log(d.get("log", []), self.match)
        self.next_votes = list(d.get("next_votes", []))
        self.seed = d.get("seed")
        self.ai_counter = d.get("ai_counter", 0)
        self.rematch_of = d.get("rematch_of")
        self.tournament = TournamentSeat.from_dict(d.get("tournament"))
        self.held = bool(d.get("held", False))


def _load_log(saved: list[Any], match: Match | None) -> list[LogEntry]:
    """The saved log's records. A table saved before the log held facts stored English
    sentences, which no other language can show: those are dropped and the log is rebuilt
    from the match's own record of the current deal (and what happened since), which is what
    the table showed; only the paplu seating lines of the first deal are not rebuilt."""
    if all(is_entry(item) for item in saved):
        return list(saved)
    if match is None:
        return [item for item in saved if is_entry(item)]
    return match.entries_since(match.event_base)[-LOG_KEEP:]


#: What a change may alter, taken over by `Table.adopt` (identity, options, the lock, the
#: message ids and the thread stay with the live table).
_ADOPTED: tuple[str, ...] = (
    "host_id",
    "seats",
    "status",
    "match",
    "version",
    "deadline",
    "turn_marker",
    "timeouts",
    "log",
    "next_votes",
    "seed",
    "ai_counter",
    "rematch_of",
    "held",
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: a player's score in the match's own terms."""

    name: str
    score: Fraction
    out: bool
    left: bool
    winner: bool


def standings(match: Match) -> list[Standing]:
    """Best first: highest net in chip games, lowest penalty total in point games."""
    net = match.score_kind is ScoreKind.NET
    order = sorted(
        range(len(match.players)), key=lambda s: -match.scores[s] if net else match.scores[s]
    )
    return [
        Standing(
            name=match.players[s].name,
            score=match.scores[s],
            out=s in match.eliminated,
            left=s in match.left and s not in match.eliminated,
            winner=s in match.winners,
        )
        for s in order
    ]
