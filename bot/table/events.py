"""What happened at a table, as its event log keeps it: one typed record per kind of change.

Every stored change (`unit.change`) writes one row to the table's event log beside its new
state: the use case names what happened with one of these records (`Change.event`), and
`TableEvent.to_dict` is the one place that turns it into the stored JSON (the unit adds the
table's `version`). The JSON is the format the log always had, ``{"type": "join", "user": 7}``,
so rows written before these types existed and rows written now read the same, and
`event_from_dict` reads one back.

Not to be confused with `bot.engine.events`, the engine's record of a deal (draws, discards,
shows); a move here (`Moved`, `AiMoved`, `TimedOut`) carries the `Action` that made them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.ai import AiTier
from bot.engine.actions import Action


class TableEvent:
    """Base of every table event; `kind` is what the stored JSON says under ``"type"``."""

    __slots__ = ()
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """The event as stored: ``{"type": kind, ...facts}``, in this key order (the unit
        appends ``"version"``). An `Action` is spread into the event (`Action.to_dict`)."""
        out: dict[str, Any] = {"type": self.kind}
        match self:
            case Moved(user=user, action=action):
                out["user"] = user
                out.update(action.to_dict())
            case AiMoved(action=action):
                out.update(action.to_dict())
            case TimedOut(seat=seat, actions=actions):
                out["seat"] = seat
                out["actions"] = [a.to_dict() for a in actions]
            case NextDeal(user=None):
                out["auto"] = True
            case Joined(user) | LeftSeat(user) | Cancelled(user) | NextDeal(user):
                out["user"] = user
            case AiAdded(tier=tier):
                out["tier"] = tier.value
            case Unseated(user=user, seat=seat):
                out["user"] = user
                out["seat"] = seat
            case HostHanded(user=user, to=to):
                out["user"] = user
                out["to"] = to
            case RematchOpened(of=of):
                out["of"] = of
            case Held(tournament) | Released(tournament) | TournamentCancelled(tournament):
                out["tournament"] = tournament
            case TakenOut(seat=seat, tournament=tournament):
                out["seat"] = seat
                out["tournament"] = tournament
            case Started() | Expired():
                pass
            case _:  # pragma: no cover - a kind added above without its facts
                raise TypeError(f"no stored form for {self!r}")
        return out


@dataclass(frozen=True, slots=True)
class Moved(TableEvent):
    """A player's move (a click or a command)."""

    kind: ClassVar[str] = "act"
    user: int
    action: Action


@dataclass(frozen=True, slots=True)
class AiMoved(TableEvent):
    """An AI seat's move."""

    kind: ClassVar[str] = "ai"
    action: Action


@dataclass(frozen=True, slots=True)
class TimedOut(TableEvent):
    """The player on turn ran out of time: the moves auto-play made for engine seat `seat`."""

    kind: ClassVar[str] = "timeout"
    seat: int
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class NextDeal(TableEvent):
    """A vote for the next deal by `user`; None: the pause ended and it started by itself."""

    kind: ClassVar[str] = "next"
    user: int | None = None


@dataclass(frozen=True, slots=True)
class Joined(TableEvent):
    kind: ClassVar[str] = "join"
    user: int


@dataclass(frozen=True, slots=True)
class AiAdded(TableEvent):
    kind: ClassVar[str] = "add_ai"
    tier: AiTier


@dataclass(frozen=True, slots=True)
class LeftSeat(TableEvent):
    """A lobby seat given up, or a player who left a running match (a drop)."""

    kind: ClassVar[str] = "leave"
    user: int


@dataclass(frozen=True, slots=True)
class Started(TableEvent):
    kind: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Unseated(TableEvent):
    """The host (`user`) took the seat `seat` (its key) away."""

    kind: ClassVar[str] = "remove"
    user: int
    seat: str


@dataclass(frozen=True, slots=True)
class HostHanded(TableEvent):
    """The host (`user`) handed hosting to the player `to`."""

    kind: ClassVar[str] = "host"
    user: int
    to: int


@dataclass(frozen=True, slots=True)
class RematchOpened(TableEvent):
    """This lobby is "Play again" after the finished table `of`: its AI seats came along."""

    kind: ClassVar[str] = "rematch"
    of: str


@dataclass(frozen=True, slots=True)
class Cancelled(TableEvent):
    """The host or a server manager (`user`) cancelled the table."""

    kind: ClassVar[str] = "cancel"
    user: int


@dataclass(frozen=True, slots=True)
class Expired(TableEvent):
    """An idle lobby closed by itself."""

    kind: ClassVar[str] = "expire"


# ---- a tournament's table: what its tournament did to it (`bot.table.tournament_effects`) ----


@dataclass(frozen=True, slots=True)
class Held(TableEvent):
    """The tournament was paused: the table waits between deals until it is released."""

    kind: ClassVar[str] = "hold"
    tournament: str


@dataclass(frozen=True, slots=True)
class Released(TableEvent):
    """The tournament was resumed: the table plays on."""

    kind: ClassVar[str] = "release"
    tournament: str


@dataclass(frozen=True, slots=True)
class TakenOut(TableEvent):
    """The organiser removed the entrant `seat` (its key): the seat is played out as a drop."""

    kind: ClassVar[str] = "removed"
    seat: str
    tournament: str


@dataclass(frozen=True, slots=True)
class TournamentCancelled(TableEvent):
    """The tournament was cancelled (or found over after a restart): the table closes unrated."""

    kind: ClassVar[str] = "tournament_cancelled"
    tournament: str


def event_from_dict(d: dict[str, Any]) -> TableEvent:
    """The event a stored row holds (`to_dict`'s JSON; ``"version"`` and any other key the
    row carries are ignored). Raises ValueError for an unknown ``"type"``, KeyError for a
    missing fact."""
    match d["type"]:
        case "act":
            return Moved(int(d["user"]), Action.from_dict(d))
        case "ai":
            return AiMoved(Action.from_dict(d))
        case "timeout":
            return TimedOut(int(d["seat"]), tuple(Action.from_dict(a) for a in d["actions"]))
        case "next":
            return NextDeal(None if d.get("auto") else int(d["user"]))
        case "join":
            return Joined(int(d["user"]))
        case "add_ai":
            return AiAdded(AiTier(d["tier"]))
        case "leave":
            return LeftSeat(int(d["user"]))
        case "start":
            return Started()
        case "remove":
            return Unseated(int(d["user"]), str(d["seat"]))
        case "host":
            return HostHanded(int(d["user"]), int(d["to"]))
        case "rematch":
            return RematchOpened(str(d["of"]))
        case "cancel":
            return Cancelled(int(d["user"]))
        case "expire":
            return Expired()
        case "hold":
            return Held(str(d["tournament"]))
        case "release":
            return Released(str(d["tournament"]))
        case "removed":
            return TakenOut(str(d["seat"]), str(d["tournament"]))
        case "tournament_cancelled":
            return TournamentCancelled(str(d["tournament"]))
    raise ValueError(f"unknown table event type {d['type']!r}")
