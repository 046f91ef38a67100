"""What a use case of the table service did, as data; the Discord side chooses the words.

Keeping these typed (not strings) is what lets the same service drive Discord, the terminal and
tests, and lets tests assert what happened ("the stock card was 7♥") rather than a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai import AiTier
from bot.ai.review import Review
from bot.engine.actions import ActionKind
from bot.engine.cards import Card


@dataclass(frozen=True, slots=True)
class Played:
    """A move a player made. `card` is the card it concerned, when the player may know it:
    the card drawn or taken, the card discarded; `cost` is a drop's cost."""

    kind: ActionKind
    card: Card | None = None
    cost: int | None = None
    declared: bool = False  # a declaration that won the deal
    wrong_show: bool = False  # a declaration that was not valid (honor mode)
    chips: bool = True  # costs are paid in chips (a chips game) rather than added as points


@dataclass(frozen=True, slots=True)
class Left:
    """A seat was given up: in the lobby (`in_match` False) or mid-match (counts as a drop)."""

    in_match: bool
    closed: bool = False  # the host left a lobby nobody else sat in: it is closed


@dataclass(frozen=True, slots=True)
class Voted:
    """A vote for the next deal; `started` when it was the last one needed."""

    started: bool
    already: bool = False


@dataclass(frozen=True, slots=True)
class AddedAI:
    tier: AiTier
    name: str


@dataclass(frozen=True, slots=True)
class DealReview:
    """A player's post-deal review: the moves where hard would have played differently
    (`review` is None when the player made no move of their own in that deal)."""

    deal_number: int
    seat: int
    review: Review | None


@dataclass(frozen=True, slots=True)
class SeatRemoved:
    name: str
    ai: bool


@dataclass(frozen=True, slots=True)
class Rematch:
    """ "Play again": `opened` when this press opened the new lobby (the presser is its host),
    else the presser took a seat at the lobby another player opened."""

    table_id: str
    opened: bool
