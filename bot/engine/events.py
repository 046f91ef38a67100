"""What happened at the table, one frozen dataclass per kind of event.

A deal keeps its events in order (`Deal.events`); the match adds the few that happen outside a
deal (a seat leaving between deals). Everything that wants to know what happened reads these
typed values: `history.py` turns them into the hand-history JSON, `public_log.py` into the
public log's records (facts, worded where they are shown), the AI's trackers and tests
match on the classes.

Cards are `Card` objects (face and physical id), so nothing has to look a card code up again.
`auto=True` marks a move the table made for a seat that ran out of time; the `TimedOut` event
right before those moves says so publicly (see `Match.apply_timeout`).

The live table state stores events compactly, as short JSON rows (`to_row` / `from_row`), with
cards as ids; this module is the only place that knows that encoding, so adding an event kind
touches this file, `history.py` and `public_log.py` (and the log's wording on the Discord
side, `render/log.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .states import EndReason, OutReason


@dataclass(frozen=True, slots=True)
class Dealt:
    """Deal `number` of the match was shuffled and dealt by `dealer`."""

    dealer: int
    number: int


@dataclass(frozen=True, slots=True)
class Drew:
    """`seat` drew the top card of the stock (private: only the seat may see `card`)."""

    seat: int
    card: Card
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Took:
    """`seat` took the top card of the discard pile (public)."""

    seat: int
    card: Card
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Discarded:
    """`seat` threw `card` face up; the turn passes on."""

    seat: int
    card: Card
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Dropped:
    """`seat` packed. Its `cards` (hidden) went to the bottom of the stock or were set aside."""

    seat: int
    reason: OutReason
    cards: tuple[Card, ...]
    to_stock_bottom: bool
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Left:
    """`seat` left the table. During a deal it counts as a drop (`reason`, `cards` as for
    `Dropped`); between deals `reason` is None and nothing is paid."""

    seat: int
    reason: OutReason | None = None
    cards: tuple[Card, ...] = ()
    to_stock_bottom: bool = False


@dataclass(frozen=True, slots=True)
class Declared:
    """`seat` made a valid declaration, throwing `card`; `card` is None for a hand rummy."""

    seat: int
    card: Card | None
    auto: bool = False

    @property
    def hand_rummy(self) -> bool:
        return self.card is None


@dataclass(frozen=True, slots=True)
class WrongShow:
    """`seat` declared an invalid hand (honor mode): its `cards` leave play, it pays `reason`.
    `card` is the card it meant to throw (None for a hand-rummy attempt)."""

    seat: int
    reason: OutReason
    cards: tuple[Card, ...]
    to_stock_bottom: bool
    card: Card | None

    @property
    def hand_rummy(self) -> bool:
        return self.card is None

    @property
    def shown(self) -> tuple[Card, ...]:
        """The 13 cards laid out: those held, but the card meant to be thrown."""
        card = self.card
        return tuple(c for c in self.cards if card is None or c.id != card.id)[:13]


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The stock ran out: the discard pile except its top card became the stock (`order`, top
    card first)."""

    order: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Voided:
    """The stock ran out and the deal is void (`nothing_to_reshuffle`: the rules allowed a
    reshuffle but the pile held too few cards)."""

    nothing_to_reshuffle: bool = False


@dataclass(frozen=True, slots=True)
class DealEnded:
    """The deal is over: why, and who won (None for a void deal)."""

    reason: EndReason
    winner: int | None


@dataclass(frozen=True, slots=True)
class TimedOut:
    """`seat` ran out of time for the `count`-th turn in a row; the moves that follow, marked
    `auto`, were made for it. `dropped`: the table dropped the seat instead of playing."""

    seat: int
    count: int
    dropped: bool


Event = (
    Dealt
    | Drew
    | Took
    | Discarded
    | Dropped
    | Left
    | Declared
    | WrongShow
    | Reshuffled
    | Voided
    | DealEnded
    | TimedOut
)


# ---- compact rows for the live state ----------------------------------------------------------
#
# A move with a card (draw, take, discard, declare with a discard) is a short string, since most
# events are those: tag, seat, ".", card id, and "a" when `auto` ("d2.45", "s0.7a"). Any other
# event is a JSON array: the tag, then the fields in declaration order; a card is its id (null
# for None), a card list a list of ids, an enum its value, a bool 0/1, a trailing 1 `auto`.
# Rows are only ever read back by `from_row`.

_TAGS: dict[type[Any], str] = {
    Dealt: "n",
    Drew: "s",
    Took: "t",
    Discarded: "d",
    Dropped: "p",
    Left: "l",
    Declared: "c",
    WrongShow: "w",
    Reshuffled: "r",
    Voided: "v",
    DealEnded: "e",
    TimedOut: "o",
}


def _id(card: Card | None) -> int | None:
    return None if card is None else card.id


def _ids(cards: Sequence[Card]) -> list[int]:
    return [c.id for c in cards]


def to_row(event: Event) -> list[Any] | str:
    """The compact form of `event` (see above)."""
    tag = _TAGS[type(event)]
    match event:
        case Dealt(dealer, number):
            return [tag, dealer, number]
        case (
            Drew(seat, card, auto)
            | Took(seat, card, auto)
            | Discarded(seat, card, auto)
            | Declared(seat, Card() as card, auto)
        ):
            return f"{tag}{seat}.{card.id}{'a' if auto else ''}"
        case Dropped(seat, reason, cards, bottom, auto):
            row = [tag, seat, reason.value, _ids(cards), int(bottom)]
            return [*row, 1] if auto else row
        case Left(seat, reason, cards, bottom):
            if reason is None:
                return [tag, seat]
            return [tag, seat, reason.value, _ids(cards), int(bottom)]
        case Declared(seat, card, auto):
            return [tag, seat, _id(card), 1] if auto else [tag, seat, _id(card)]
        case WrongShow(seat, reason, cards, bottom, card):
            return [tag, seat, reason.value, _ids(cards), int(bottom), _id(card)]
        case Reshuffled(order):
            return [tag, _ids(order)]
        case Voided(nothing):
            return [tag, int(nothing)]
        case DealEnded(reason, winner):
            return [tag, reason.value, winner]
        case TimedOut(seat, count, dropped):
            return [tag, seat, count, int(dropped)]
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


def _move_from_text(text: str, card: Callable[[int], Card]) -> Event:
    tag, rest = text[0], text[1:]
    auto = rest.endswith("a")
    seat, _, cid = rest.removesuffix("a").partition(".")
    if not cid:
        raise ValueError(f"unknown event row {text!r}")
    c = card(int(cid))
    if tag == "s":
        return Drew(int(seat), c, auto)
    if tag == "t":
        return Took(int(seat), c, auto)
    if tag == "d":
        return Discarded(int(seat), c, auto)
    if tag == "c":
        return Declared(int(seat), c, auto)
    raise ValueError(f"unknown event row {text!r}")


def from_row(row: Sequence[Any] | str, card: Callable[[int], Card]) -> Event:
    """Read a row written by `to_row`; `card` turns an id into the deal's physical card."""
    if isinstance(row, str):
        return _move_from_text(row, card)
    tag: str = row[0]
    f: list[Any] = list(row[1:])

    def opt(i: int | None) -> Card | None:
        return None if i is None else card(i)

    def cards(ids: Sequence[int]) -> tuple[Card, ...]:
        return tuple(card(i) for i in ids)

    def auto(i: int) -> bool:
        return len(f) > i and bool(f[i])

    if tag == "n":
        return Dealt(f[0], f[1])
    if tag == "s":
        return Drew(f[0], card(f[1]), auto(2))
    if tag == "t":
        return Took(f[0], card(f[1]), auto(2))
    if tag == "d":
        return Discarded(f[0], card(f[1]), auto(2))
    if tag == "p":
        return Dropped(f[0], OutReason(f[1]), cards(f[2]), bool(f[3]), auto(4))
    if tag == "l":
        if len(f) == 1:
            return Left(f[0])
        return Left(f[0], OutReason(f[1]), cards(f[2]), bool(f[3]))
    if tag == "c":
        return Declared(f[0], opt(f[1]), auto(2))
    if tag == "w":
        return WrongShow(f[0], OutReason(f[1]), cards(f[2]), bool(f[3]), opt(f[4]))
    if tag == "r":
        return Reshuffled(cards(f[0]))
    if tag == "v":
        return Voided(bool(f[0]))
    if tag == "e":
        return DealEnded(EndReason(f[0]), f[1])
    if tag == "o":
        return TimedOut(f[0], f[1], bool(f[2]))
    raise ValueError(f"unknown event row {row!r}")


def actor(event: Event) -> int | None:
    """The seat an event is about (the winner for `DealEnded`, the dealer for `Dealt`), or None
    for table events."""
    match event:
        case Dealt(dealer, _):
            return dealer
        case DealEnded(_, winner):
            return winner
        case Reshuffled() | Voided():
            return None
        case _:
            return event.seat
