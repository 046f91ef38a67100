"""The values that cross the storage boundary, named for what they are.

Why a module of its own: callers (adapter, cogs, renderers, benchmarks) import these
without pulling in SQL, and the aggregate modules share one definition. Written
records are ``*Record`` (``DealRecord`` is what storage keeps of a deal; the engine's
own ``bot.engine.settlement.DealResult`` is a different thing and is no longer
shadowed). Read models (``LeaderboardRow``, ``PlayerStats``, ...) are shaped for
display. All are frozen: a record handed out can never drift from what was stored.

Money fields are exact :class:`fractions.Fraction`; ``user_id is None`` marks an AI
seat or a forgotten user. The Literal vocabularies below are the only values the
schema's CHECK constraints accept.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal, get_args

from bot.engine.hints import HintLevel
from bot.engine.settlement import Outcome

__all__ = [
    "ANNOUNCEMENT_KINDS",
    "HINT_LEVELS",
    "LOSING_OUTCOMES",
    "OPEN_STATUSES",
    "OUTCOMES",
    "PERIOD_DAYS",
    "SORT_KEYS",
    "TABLE_STATUSES",
    "UNSET",
    "Announcement",
    "AnnouncementKind",
    "AnnouncementRecord",
    "DealHistoryRow",
    "DealRecord",
    "DealSeatRecord",
    "EventRecord",
    "HintLevel",
    "LeaderboardRow",
    "MatchRecord",
    "MatchSeatRecord",
    "Outcome",
    "Period",
    "PlayerRank",
    "PlayerStats",
    "ProfileStats",
    "RatingInfo",
    "RatingPoint",
    "SortKey",
    "TableRecord",
    "TableStatusName",
    "Unset",
]


#: The status values as text, for callers that pass them as string literals.
TableStatusName = Literal["lobby", "playing", "finished", "cancelled"]
SortKey = Literal["rating", "matches_won", "deals_won", "net_chips", "win_rate"]
Period = Literal["all", "30d", "7d"]

#: ``record_deal`` / ``record_match``: recording a result is itself an outbox job, written in
#: the transaction of the move that finished the deal/match (its ``payload_json`` carries
#: the record) and delivered after the commit, again at start-up until done.
AnnouncementKind = Literal["deal_results", "match_over", "record_deal", "record_match"]

ANNOUNCEMENT_KINDS: Final[frozenset[str]] = frozenset(get_args(AnnouncementKind))
TABLE_STATUSES: Final[frozenset[str]] = frozenset(get_args(TableStatusName))
#: Statuses of a table that is still restored on start-up and accepts actions.
OPEN_STATUSES: Final[tuple[TableStatusName, ...]] = ("lobby", "playing")
OUTCOMES: Final[frozenset[str]] = frozenset(o.value for o in Outcome)
HINT_LEVELS: Final[frozenset[str]] = frozenset(h.value for h in HintLevel)
SORT_KEYS: Final[frozenset[str]] = frozenset(get_args(SortKey))
#: Length in UTC days of each rolling period (``"all"`` has no window).
PERIOD_DAYS: Final[dict[str, int]] = {"7d": 7, "30d": 30}
#: Outcomes that cost the player a penalty ("losing" for the average-penalty stat).
LOSING_OUTCOMES: Final[frozenset[str]] = frozenset(
    {"lost", "dropped_first", "dropped_middle", "invalid_declaration"}
)


class Unset(enum.Enum):
    """Type of :data:`UNSET`."""

    UNSET = 0


UNSET: Final = Unset.UNSET
"""Sentinel for "leave this column unchanged" (``None`` is a meaningful value)."""


# ------------------------------------------------------------ tables and events


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A durable game table (lobby or match in progress, or a closed one)."""

    table_id: str
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatusName
    state_json: str
    version: int
    public_message_id: int | None
    prompt_message_id: int | None
    turn_deadline: float | None
    created_at: float
    updated_at: float
    #: The thread the table lives in (None: the channel itself), and the channel's lobby
    #: message once the table is placed (equal to ``public_message_id`` in the channel).
    thread_id: int | None = None
    lobby_message_id: int | None = None
    #: A tournament's table: the tournament and the round (None: an ordinary table).
    tournament_id: str | None = None
    tournament_round: int | None = None


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One accepted action of a table's log; ``seq`` equals the table version it produced."""

    table_id: str
    seq: int
    event_json: str
    created_at: float


@dataclass(frozen=True, slots=True)
class Announcement:
    """Something that must be posted because of a state change, written to the outbox in
    the same transaction as that change (see :mod:`bot.storage.outbox`). ``deal_no`` is
    0 for announcements that are not about one deal; ``(table, kind, deal_no)`` is its
    identity, so writing it again is a no-op. ``payload_json`` carries whatever the
    poster needs beyond the table's stored state (for ``record_deal``/``record_match``:
    the record to store)."""

    kind: AnnouncementKind
    deal_no: int = 0
    payload_json: str = "{}"


@dataclass(frozen=True, slots=True)
class AnnouncementRecord:
    """An outbox row: an :class:`Announcement` of one table, and whether it was posted."""

    announcement_id: int
    table_id: str
    kind: AnnouncementKind
    deal_no: int
    payload_json: str
    created_at: float
    delivered_at: float | None


# --------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class DealSeatRecord:
    """One seat of a finished deal. ``user_id`` is ``None`` for AI seats."""

    user_id: int | None
    name: str
    is_ai: bool
    outcome: Outcome
    penalty: Fraction
    net: Fraction


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal as reported by the engine; written once per (match_id, deal_no)."""

    guild_id: int
    match_id: str
    deal_no: int
    profile: str
    finished_at: int
    hand_history_json: str
    seats: Sequence[DealSeatRecord]
    #: The hint level the deal was played at (results stored before it existed: full).
    hints: HintLevel = HintLevel.FULL


@dataclass(frozen=True, slots=True)
class MatchSeatRecord:
    """One seat of a finished match; ``place`` 1 is the winner, ties share a place."""

    user_id: int | None
    name: str
    is_ai: bool
    place: int
    is_winner: bool
    net: Fraction


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished match; written once per match_id. ``rated`` False: the match counts in
    every stat but moves no rating (the server rates only games played without hints, and
    this one had them); decided when the table opened and stored, so a later change of the
    setting never rewrites past ratings."""

    match_id: str
    guild_id: int
    profile: str
    finished_at: int
    seats: Sequence[MatchSeatRecord]
    hints: HintLevel = HintLevel.FULL
    rated: bool = True


# ----------------------------------------------------------------- read models


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One leaderboard line. ``value`` is: rating -> float ordinal, matches_won /
    deals_won -> int, net_chips -> exact Fraction, win_rate -> float in [0, 1].
    ``games`` is rated matches (rating), matches played (matches_won) or deals played
    (deals_won, net_chips, win_rate) within the period."""

    rank: int
    user_id: int
    name: str
    value: float | int | Fraction
    games: int


@dataclass(frozen=True, slots=True)
class PlayerRank:
    """A player's own position on a board (same meaning of fields as LeaderboardRow)
    plus the number of ranked players."""

    rank: int
    user_id: int
    name: str
    value: float | int | Fraction
    games: int
    total: int


@dataclass(frozen=True, slots=True)
class RatingInfo:
    """openskill PlackettLuce rating; ``ordinal`` (mu - 3*sigma) is what is displayed."""

    mu: float
    sigma: float
    ordinal: float
    matches: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """Rating after one rated match (for trend charts)."""

    match_id: str
    rated_at: int
    mu: float
    sigma: float
    ordinal: float
    ordinal_before: float


@dataclass(frozen=True, slots=True)
class ProfileStats:
    """A player's numbers for one profile. Void deals are not counted at all.
    ``avg_penalty_when_losing`` averages over lost/dropped/invalid deals.
    ``rating_trend`` is the ordinal change over the last ``trend_matches`` rated
    matches (None without rating history)."""

    profile: str
    matches_played: int
    matches_won: int
    deals_played: int
    deals_won: int
    avg_penalty_when_losing: Fraction | None
    drops_first: int
    drops_middle: int
    invalid_declarations: int
    best_deal: Fraction | None
    worst_deal: Fraction | None
    net: Fraction
    rating: RatingInfo | None
    rating_trend: float | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """All of a player's per-profile stats in one guild plus the overall rating."""

    guild_id: int
    user_id: int
    profiles: dict[str, ProfileStats]
    overall_rating: RatingInfo | None


@dataclass(frozen=True, slots=True)
class DealHistoryRow:
    """One line of a player's recent deals; ``deal_id`` opens the hand history."""

    deal_id: int
    match_id: str
    deal_no: int
    profile: str
    finished_at: int
    outcome: Outcome
    net: Fraction
    hints: HintLevel = HintLevel.FULL
