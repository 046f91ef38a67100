"""What one player may know, and what the whole table may see.

`Observation` is the only thing hand views and AI policies read. It is built fresh from the
match for one seat and holds that seat's own cards and public facts only: the indicator, the
discard pile's history (every card thrown, by whom, and who took it back), how many cards each
seat holds, the stock size, scores, whose turn it is. Nothing in it reveals another seat's hand
or the stock order while the deal runs; after a deal ends, the hand history reveals everything.
Both carry the deal's shuffle commitment (`fairness.py`), a hash that is public from the deal's
start; the salt and the order behind it are revealed only by the hand history.

`PublicView` is the table message: no hidden card at all, plus recent actions as facts
(`public_log` records, worded by whoever shows them).

This module only defines the views; `Match.observation(seat)` and `Match.public_view()` build
them (so this module needs nothing from `match.py`, and the engine's imports stay acyclic).
Phases, statuses and score kinds are the engine's `StrEnum`s (`states.py`): they compare equal
to their strings, but callers should compare with the enum members.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from .actions import Action
from .cards import Card
from .rules import Rules
from .states import MatchPhase, Phase, ScoreKind, SeatState

if TYPE_CHECKING:
    from .public_log import LogEntry


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    status: SeatState
    cards: int  # how many cards the seat holds (public)
    score: Fraction
    is_dealer: bool


@dataclass(frozen=True, slots=True)
class PileCard:
    """One card that went onto the discard pile (public knowledge)."""

    card: Card
    discarded_by: int | None  # None: the opening discard
    taken_by: int | None  # who picked it up again, if anyone
    recycled: bool  # shuffled into a new stock


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything `seat` may know right now."""

    seat: int
    version: int
    rules: Rules
    match_phase: MatchPhase
    deal_number: int
    dealer: int | None
    hand: tuple[Card, ...]  # own physical cards (empty between deals or once out)
    indicator: Card | None
    wild_rank: int | None
    pile: tuple[Card, ...]  # cards in the discard pile now, top LAST
    pile_history: tuple[PileCard, ...]
    seats: tuple[SeatView, ...]
    stock_size: int
    turn: int | None  # seat on turn, None between deals
    phase: Phase | None  # of the current deal; OVER once it ended; None without a deal
    taken: Card | None  # card this seat just took from the pile (may not be discarded)
    drawn: Card | None  # the card this seat drew this turn (stock or pile), until it discards
    may_drop: bool
    drop_cost: int | None  # what dropping now would cost (before multipliers)
    score_kind: ScoreKind
    legal_actions: tuple[Action, ...]
    commitment: str | None  # of the current (or last) deal's shuffle; never its salt or order

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase is not Phase.OVER

    @property
    def top_discard(self) -> Card | None:
        return self.pile[-1] if self.pile else None


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table message: no hidden cards."""

    version: int
    variant: str
    match_phase: MatchPhase
    deal_number: int
    seats: tuple[SeatView, ...]
    dealer: int | None
    turn: int | None
    phase: Phase | None
    top_discard: Card | None
    indicator: Card | None
    wild_rank: int | None
    stock_size: int
    # The last public actions (`public_log` records, dicts), oldest first; left out of the
    # hash so a view stays hashable.
    recent: tuple[LogEntry, ...] = field(hash=False)
    winners: tuple[int, ...]
    commitment: str | None  # of the current (or last) deal's shuffle; never its salt or order
    # Every card thrown this deal, oldest first, and who took it back (each seat's
    # Observation has the same list: the discards are public evidence).
    pile_history: tuple[PileCard, ...] = ()
