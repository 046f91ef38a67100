"""The small vocabulary deals, matches, events and views share: phases, statuses, reasons.

These enums live in their own module, below `events`, `deal` and `match`, so every other engine
module can import them without an import cycle (`deal.py` and `match.py` re-export the ones they
used to define, so `from bot.engine.deal import Phase` keeps working). All are `StrEnum`s: a
value compares equal to its string (`Phase.DRAW == "draw"`), which keeps old literal
comparisons working while the fields that carry them are typed as enums.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    DRAW = "draw"  # the player on turn holds 13 and must draw, drop or (hand rummy) declare
    DISCARD = "discard"  # the player on turn holds 14 and must discard or declare
    OVER = "over"


class SeatStatus(StrEnum):
    ACTIVE = "active"
    DROPPED = "dropped"  # packed (or left the table, or a wrong show counted as a drop)
    OUT = "out"  # wrong show under PENALTY_OUT: pays the invalid penalty, out of this deal


class OutReason(StrEnum):
    """Why a seat stopped playing, which decides what it pays."""

    FIRST_DROP = "first_drop"  # packed before ever drawing
    MIDDLE_DROP = "middle_drop"  # packed later
    WRONG_SHOW = "wrong_show"  # invalid declaration, PENALTY_OUT: pays invalid_penalty
    WRONG_SHOW_DROP = "wrong_show_drop"  # invalid declaration, MIDDLE_DROP: pays middle_drop


class EndReason(StrEnum):
    DECLARED = "declared"  # a valid declaration after drawing
    HAND_RUMMY = "hand_rummy"  # the dealt 13 declared at the first turn without drawing
    LAST_STANDING = "last_standing"  # everyone else dropped or went out
    VOID = "void"  # stock exhausted and the rules void the deal (or nothing to reshuffle)


class MatchPhase(StrEnum):
    PLAYING = "playing"  # a deal is in progress
    BETWEEN_DEALS = "between_deals"  # the last deal is settled; waiting for start_next_deal()
    OVER = "over"


class ScoreKind(StrEnum):
    """How to read `Match.scores`."""

    NET = "net"  # chips won minus chips paid; transfers, sums to 0; higher is better
    PENALTY = "penalty"  # penalty points accumulated; lower is better


class SeatState(StrEnum):
    """A seat as the table shows it: its status in the deal, or why it is not in one."""

    ACTIVE = "active"
    DROPPED = "dropped"
    OUT = "out"
    ELIMINATED = "eliminated"  # pool: reached the limit
    LEFT = "left"  # left the table
    WAITING = "waiting"  # between deals


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits at a seat: a stable id (e.g. a Discord user id) and a display name."""

    id: str
    name: str
