"""What an organiser may choose at `/rummy tournament create`, checked once, here.

Everything is checked even though the slash command declares ranges and choices: a client can
send anything, so the table layer never trusts what Discord says it enforced. A refusal is a
`TournamentRefused(BAD_OPTION, option=..., facts)`, worded by the Discord side.

The start is either "in N minutes" or a wall-clock time ("20:30", "2025-06-01 20:30") in the
server's time zone: the one its seasons use (`/rummy settings time_zone:`,
`GuildSettings.time_zone`; read defensively: a server without one, or a name `zoneinfo` does
not know, is on UTC), the next such time from now.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.ai import TIERS, AiTier
from bot.engine.hints import HintLevel

from .bracket import Advance, AdvanceKind
from .errors import TournamentProblem, TournamentRefused
from .options import TURN_TIMER_RANGE
from .tournament_model import (
    MAX_ENTRANTS,
    MIN_ENTRANTS,
    NAME_LENGTH,
    TournamentFormat,
    TournamentOptions,
)
from .vocabulary import Locale

#: Seats per table a tournament may choose (the profiles seat 2 to 6).
SEATS_RANGE = (2, 6)
#: Minutes ahead a start may be set.
START_RANGE = (1, 7 * 24 * 60)
#: A chip line's bounds (net chips of a round).
LINE_RANGE = (-1000, 1000)
DEFAULT_SEATS = 6
DEFAULT_DEALS = 2
DEFAULT_START_MINUTES = 15
DEFAULT_CAP = 60

_CLOCK = re.compile(r"^(?:(\d{4})-(\d{2})-(\d{2})[ T])?(\d{1,2}):(\d{2})$")


@dataclass(frozen=True, slots=True)
class TournamentRequest:
    """What the organiser typed (None: the default)."""

    name: str
    format: str = TournamentFormat.POINTS.value
    deals: int | None = None
    seats: int | None = None
    advance: int | None = None
    chip_line: int | None = None
    start_in: int | None = None  # minutes from now
    start_at: str | None = None  # "HH:MM" or "YYYY-MM-DD HH:MM", the server's time zone
    cap: int | None = None
    turn_timer: int | None = None
    ai_fill: bool = False
    hints: str | None = None
    ai_tier: str | None = None


def _bad(option: str, **facts: object) -> TournamentRefused:
    return TournamentRefused(TournamentProblem.BAD_OPTION, option=option, **facts)


def _within(option: str, value: int, bounds: tuple[int, int]) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(option, low=low, high=high, value=str(value))
    return value


def zone_of(name: str | None) -> ZoneInfo:
    """The server's time zone by its IANA name; UTC when there is none or it is unknown."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo("UTC")


def start_time(start_in: int | None, start_at: str | None, now: float, zone: ZoneInfo) -> float:
    """The start as epoch seconds: `start_in` minutes from `now`, or the next `start_at`
    ("HH:MM", or a date and time) in `zone`."""
    if start_in is not None and start_at is not None:
        raise _bad("start_both")
    if start_at is None:
        minutes = DEFAULT_START_MINUTES if start_in is None else start_in
        return now + 60 * _within("start_in", minutes, START_RANGE)
    found = _CLOCK.match(start_at.strip())
    if found is None:
        raise _bad("start_at", value=start_at[:20])
    year, month, day, hour, minute = found.groups()
    here = datetime.fromtimestamp(now, zone)
    try:
        if year is not None:
            when = datetime(int(year), int(month), int(day), int(hour), int(minute), tzinfo=zone)
        else:
            when = here.replace(hour=int(hour), minute=int(minute), second=0, microsecond=0)
            if when.timestamp() <= now:
                when += timedelta(days=1)
    except ValueError:
        raise _bad("start_at", value=start_at[:20]) from None
    ahead = (when.timestamp() - now) / 60
    if not START_RANGE[0] <= ahead <= START_RANGE[1]:
        raise _bad("start_at", value=start_at[:20])
    return when.timestamp()


def build(
    request: TournamentRequest,
    *,
    now: float,
    zone: ZoneInfo,
    default_timer: int,
    language: Locale,
) -> TournamentOptions:
    """Check a request and fill in the defaults; raises `TournamentRefused(BAD_OPTION)`."""
    name = " ".join(request.name.split())
    if not name or len(name) > NAME_LENGTH:
        raise _bad("name", high=NAME_LENGTH)
    try:
        fmt = TournamentFormat(request.format)
    except ValueError:
        raise _bad("format", choices=", ".join(f.value for f in TournamentFormat)) from None
    seats = _within("seats", DEFAULT_SEATS if request.seats is None else request.seats, SEATS_RANGE)
    deals = _deals(fmt, request.deals)
    advance = _advance(fmt, seats, request.advance, request.chip_line)
    cap = _within("cap", DEFAULT_CAP if request.cap is None else request.cap, (2, MAX_ENTRANTS))
    timer = request.turn_timer if request.turn_timer is not None else default_timer
    timer = _within("turn_timer", timer, TURN_TIMER_RANGE)
    hints = HintLevel.parse(request.hints or HintLevel.OFF.value)
    if hints is None:
        raise _bad("hints", choices=", ".join(h.value for h in HintLevel))
    try:
        tier = AiTier(request.ai_tier or AiTier.MEDIUM.value)
    except ValueError:
        raise _bad("ai_tier", choices=", ".join(TIERS)) from None
    return TournamentOptions(
        name=name,
        format=fmt,
        deals=deals,
        seats=seats,
        advance=advance,
        start_at=start_time(request.start_in, request.start_at, now, zone),
        cap=max(cap, MIN_ENTRANTS),
        turn_timer=timer,
        ai_fill=bool(request.ai_fill),
        hints=hints,
        # Rated tournaments are played with hints off; any other level plays unrated.
        rated=hints is HintLevel.OFF,
        language=language,
        ai_tier=tier,
    )


def _deals(fmt: TournamentFormat, deals: int | None) -> int:
    choices = fmt.deal_choices
    if not choices:
        if deals is not None:
            raise _bad("no_deals", format=fmt.value)
        return 0
    value = DEFAULT_DEALS if deals is None else deals
    if value not in choices:
        low, high = choices[0], choices[-1]
        raise _bad("deals", choices=", ".join(map(str, choices)), low=low, high=high)
    return value


def _advance(
    fmt: TournamentFormat, seats: int, advance: int | None, chip_line: int | None
) -> Advance:
    if advance is not None and chip_line is not None:
        raise _bad("advance_both")
    if chip_line is not None:
        if not fmt.chips:
            raise _bad("chip_line", format=fmt.value)
        return Advance(AdvanceKind.LINE, _within("chip_line", chip_line, LINE_RANGE))
    default = 1 if seats <= 3 else 2
    value = default if advance is None else advance
    return Advance(AdvanceKind.TOP, _within("advance", value, (1, seats - 1)))
