"""A tournament as the bot keeps it: its options, its entrants, its rounds and their tables.

Like a `Table`, the whole `Tournament` is saved as one JSON state on every accepted change
(with the event that caused it), so a restart resumes exactly where it was; its tables are
ordinary tables (`bot.table.model.Table`) that carry a `TournamentSeat` naming the tournament,
the round and the table's number, and are stored with those in their rows.

The pure rules (seating, byes, who goes through, places, the commitment) are in
`bot.table.bracket`; this module is only the data.
"""

from __future__ import annotations

import asyncio
import enum
import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bot.ai import AiTier
from bot.engine.hints import HintLevel
from bot.engine.rules import MatchFormat, get_profile
from bot.storage.tournaments import TournamentRecord

from .bracket import Advance, AdvanceKind, SeatResult
from .model import TableOptions, json_default
from .vocabulary import Locale

STATE_FORMAT = 1
#: Seconds before the start when check-in ("I'm here") opens.
CHECK_IN_SECONDS = 10 * 60.0
#: The fewest entrants a tournament starts with.
MIN_ENTRANTS = 2
#: The most entrants a tournament takes (the cap the organiser names is at most this).
MAX_ENTRANTS = 200
#: The longest a tournament's name may be.
NAME_LENGTH = 60


class TournamentStatus(enum.StrEnum):
    """Where a tournament is in its life; stored as its text value."""

    REGISTRATION = "registration"  # taking entries; check-in not open yet
    CHECK_IN = "check_in"  # taking entries and "I'm here" until the start
    RUNNING = "running"  # rounds are played
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def open(self) -> bool:
        return self not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)

    @property
    def entering(self) -> bool:
        """Registration is open (before the start)."""
        return self in (TournamentStatus.REGISTRATION, TournamentStatus.CHECK_IN)


class TournamentFormat(enum.StrEnum):
    """What each table plays in a round."""

    POINTS = "points"  # N deals of points rummy, chips
    DEALS = "deals"  # deals rummy (2, 3 or 6 deals), fewest points
    POOL101 = "pool101"  # pool to elimination at each table
    POOL201 = "pool201"

    @property
    def chips(self) -> bool:
        """Scores are net chips (a chip line can be drawn)."""
        return self is TournamentFormat.POINTS

    @property
    def pool(self) -> bool:
        return self in (TournamentFormat.POOL101, TournamentFormat.POOL201)

    @property
    def deal_choices(self) -> tuple[int, ...]:
        """How many deals a round may have: any for points (1 to 10), the profile's for
        deals, none for pool (played to elimination)."""
        if self is TournamentFormat.POINTS:
            return tuple(range(1, 11))
        if self is TournamentFormat.DEALS:
            return get_profile("deals").deals_choices
        return ()


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """What the organiser chose at `/rummy tournament create` (checked by
    `bot.table.tournament_options`)."""

    name: str
    format: TournamentFormat
    deals: int  # deals a round (points, deals); 0 for pool
    seats: int  # most players a table seats (2 to 6)
    advance: Advance
    start_at: float  # epoch seconds
    cap: int  # most entrants
    turn_timer: int
    ai_fill: bool  # AI players fill empty seats
    hints: HintLevel
    rated: bool  # hints off: the tables' matches move ratings
    language: Locale
    ai_tier: AiTier = AiTier.MEDIUM  # the tier of AI players filling seats

    def table_options(self, seats: int) -> TableOptions:
        """The options of one of its tables of `seats` players."""
        changes: dict[str, Any] = {}
        if self.format is TournamentFormat.POINTS:
            # Points rummy is one deal; a round of N deals keeps its chips deal after deal.
            changes = {"match_format": MatchFormat.TARGET.value, "num_deals": self.deals}
        elif self.format is TournamentFormat.DEALS:
            changes = {"num_deals": self.deals}
        return TableOptions(
            self.format.value,
            seats,
            self.turn_timer,
            changes,
            hints=self.hints,
            rated=self.rated,
            language=self.language,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "format": self.format.value,
            "deals": self.deals,
            "seats": self.seats,
            "advance": self.advance.to_dict(),
            "start_at": self.start_at,
            "cap": self.cap,
            "turn_timer": self.turn_timer,
            "ai_fill": self.ai_fill,
            "hints": self.hints.value,
            "rated": self.rated,
            "language": self.language,
            "ai_tier": self.ai_tier.value,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TournamentOptions:
        return cls(
            str(d["name"]),
            TournamentFormat(d["format"]),
            int(d["deals"]),
            int(d["seats"]),
            Advance.from_dict(d["advance"]),
            float(d["start_at"]),
            int(d["cap"]),
            int(d["turn_timer"]),
            bool(d["ai_fill"]),
            HintLevel(d["hints"]),
            bool(d["rated"]),
            Locale(str(d["language"])),
            AiTier(d.get("ai_tier", AiTier.MEDIUM.value)),
        )

    def with_start(self, start_at: float) -> TournamentOptions:
        d = self.to_dict()
        d["start_at"] = start_at
        return TournamentOptions.from_dict(d)


@dataclass(slots=True)
class Entrant:
    """A registered player: a person (`user_id`), or an AI entrant (`ai`, its tier)."""

    key: str  # "u<user id>" for a person, "e<n>" for an AI entrant
    name: str
    user_id: int | None = None
    ai: AiTier | None = None
    checked_in: bool = False
    removed: bool = False  # the organiser took them out

    @property
    def person(self) -> bool:
        return self.user_id is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "user_id": self.user_id,
            "ai": None if self.ai is None else self.ai.value,
            "checked_in": self.checked_in,
            "removed": self.removed,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Entrant:
        return cls(
            d["key"],
            d["name"],
            d.get("user_id"),
            None if d.get("ai") is None else AiTier(d["ai"]),
            bool(d.get("checked_in")),
            bool(d.get("removed")),
        )


@dataclass(slots=True)
class TableSlot:
    """One table of a round: who sits there (entrants, then AI players filling seats) and,
    once its match is over, each seat's result and who went through."""

    number: int  # 1, 2, ... within the round
    table_id: str
    seats: list[str]  # keys: entrants first, then fillers
    fillers: dict[str, str] = field(default_factory=dict)  # filler key -> its name
    results: list[SeatResult] | None = None  # None: still playing
    advanced: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.results is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "table_id": self.table_id,
            "seats": list(self.seats),
            "fillers": dict(self.fillers),
            "results": None if self.results is None else [_result(r) for r in self.results],
            "advanced": list(self.advanced),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableSlot:
        results = d.get("results")
        return cls(
            int(d["number"]),
            str(d["table_id"]),
            list(d["seats"]),
            dict(d.get("fillers", {})),
            None if results is None else [_seat_result(r) for r in results],
            list(d.get("advanced", [])),
        )


def _result(r: SeatResult) -> dict[str, Any]:
    return {
        "player": r.player,
        "score": f"{r.score.numerator}/{r.score.denominator}",
        "survival": r.survival,
        "deals_won": r.deals_won,
        "left": r.left,
        "person": r.person,
        "draw": r.draw,
        "filler": r.filler,
    }


def _seat_result(d: dict[str, Any]) -> SeatResult:
    return SeatResult(
        str(d["player"]),
        Fraction(d["score"]),
        int(d["survival"]),
        int(d["deals_won"]),
        bool(d["left"]),
        bool(d["person"]),
        int(d["draw"]),
        bool(d["filler"]),
    )


@dataclass(slots=True)
class Round:
    """One round: its committed draw, its tables and byes."""

    number: int
    draw: list[str]
    salt: str  # secret until the round is over
    commitment: str
    tables: list[TableSlot]
    byes: list[str]
    started_at: float
    #: Entrants of this round the organiser removed (before it was seated, or while it ran).
    removed: list[str] = field(default_factory=list)
    done: bool = False

    @property
    def final(self) -> bool:
        return len(self.tables) == 1 and not self.byes

    @property
    def players(self) -> list[str]:
        """Every entrant of the round: at a table, with a bye, or removed from it."""
        seated = [k for t in self.tables for k in t.seats if k not in t.fillers]
        return [*seated, *self.byes, *(k for k in self.removed if k not in seated)]

    def table_of(self, key: str) -> TableSlot | None:
        return next((t for t in self.tables if key in t.seats), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "draw": list(self.draw),
            "salt": self.salt,
            "commitment": self.commitment,
            "tables": [t.to_dict() for t in self.tables],
            "byes": list(self.byes),
            "started_at": self.started_at,
            "removed": list(self.removed),
            "done": self.done,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Round:
        return cls(
            int(d["number"]),
            list(d["draw"]),
            str(d["salt"]),
            str(d["commitment"]),
            [TableSlot.from_dict(t) for t in d["tables"]],
            list(d["byes"]),
            float(d["started_at"]),
            list(d.get("removed", [])),
            bool(d.get("done")),
        )


@dataclass
class Tournament:
    """One tournament in one channel. Serialised whole on every change."""

    id: str
    guild_id: int
    channel_id: int
    organiser_id: int
    options: TournamentOptions
    status: TournamentStatus = TournamentStatus.REGISTRATION
    entrants: list[Entrant] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    version: int = 0
    paused: bool = False
    #: Why it was cancelled (the organiser's words), or why it stalled at its start.
    reason: str | None = None
    #: At the start time too few had checked in: it waits for the organiser.
    stalled: bool = False
    places: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    seed: int | None = None
    ai_counter: int = 0
    created_at: float = 0.0
    #: Discord message ids ("register", "round-<n>", "final"): bookkeeping, not state.
    messages: dict[str, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    # ---- questions ---------------------------------------------------------------------

    def entrant(self, key: str) -> Entrant | None:
        return next((e for e in self.entrants if e.key == key), None)

    def entrant_of(self, user_id: int) -> Entrant | None:
        return self.entrant(f"u{user_id}")

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def registered(self) -> list[Entrant]:
        return [e for e in self.entrants if not e.removed]

    @property
    def checked_in(self) -> list[Entrant]:
        return [e for e in self.registered if e.checked_in]

    def name_of(self, key: str) -> str:
        """An entrant's or filler's name (a key nobody has: the key itself)."""
        found = self.entrant(key)
        if found is not None:
            return found.name
        for r in self.rounds:
            for t in r.tables:
                if key in t.fillers:
                    return t.fillers[key]
        return key

    def table_ids(self) -> list[str]:
        return [t.table_id for r in self.rounds for t in r.tables]

    # ---- persistence -------------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "organiser_id": self.organiser_id,
            "options": self.options.to_dict(),
            "status": self.status.value,
            "entrants": [e.to_dict() for e in self.entrants],
            "rounds": [r.to_dict() for r in self.rounds],
            "version": self.version,
            "paused": self.paused,
            "reason": self.reason,
            "stalled": self.stalled,
            "places": dict(self.places),
            "winner": self.winner,
            "seed": self.seed,
            "ai_counter": self.ai_counter,
            "created_at": self.created_at,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_state(), default=json_default, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Tournament:
        d = json.loads(text)
        if d.get("format") != STATE_FORMAT:
            raise ValueError(f"unknown tournament state format {d.get('format')}")
        t = cls(
            d["id"],
            d["guild_id"],
            d["channel_id"],
            d["organiser_id"],
            TournamentOptions.from_dict(d["options"]),
        )
        t.load_state(d)
        return t

    def load_state(self, d: dict[str, Any]) -> None:
        self.options = TournamentOptions.from_dict(d["options"])
        self.organiser_id = int(d["organiser_id"])
        self.status = TournamentStatus(d["status"])
        self.entrants = [Entrant.from_dict(e) for e in d["entrants"]]
        self.rounds = [Round.from_dict(r) for r in d["rounds"]]
        self.version = int(d["version"])
        self.paused = bool(d.get("paused"))
        self.reason = d.get("reason")
        self.stalled = bool(d.get("stalled"))
        self.places = {str(k): int(v) for k, v in d.get("places", {}).items()}
        self.winner = d.get("winner")
        self.seed = d.get("seed")
        self.ai_counter = int(d.get("ai_counter", 0))
        self.created_at = float(d.get("created_at", 0.0))

    def copy(self) -> Tournament:
        """A working copy for one change (see `bot.table.tournament_unit`)."""
        work = Tournament(self.id, self.guild_id, self.channel_id, self.organiser_id, self.options)
        work.load_state(self.to_state())
        work.messages = dict(self.messages)
        return work

    def adopt(self, work: Tournament) -> None:
        """Take over a stored working copy's state (the message ids stay the live ones)."""
        for name in _ADOPTED:
            setattr(self, name, getattr(work, name))


def rebuild(record: TournamentRecord) -> Tournament:
    """The one way a tournament is rebuilt from its stored record (raises ValueError,
    KeyError or TypeError for a state this code cannot read)."""
    t = Tournament.from_json(record.state_json)
    t.status = TournamentStatus(record.status)
    t.version = record.version
    t.messages = dict(record.messages)
    return t


_ADOPTED = (
    "options",
    "organiser_id",
    "status",
    "entrants",
    "rounds",
    "version",
    "paused",
    "reason",
    "stalled",
    "places",
    "winner",
    "seed",
    "ai_counter",
)


__all__ = [
    "CHECK_IN_SECONDS",
    "MAX_ENTRANTS",
    "MIN_ENTRANTS",
    "NAME_LENGTH",
    "Advance",
    "AdvanceKind",
    "Entrant",
    "Round",
    "TableSlot",
    "Tournament",
    "TournamentFormat",
    "TournamentOptions",
    "TournamentStatus",
]
