"""Events in words: the one public action log, and the one way to print an amount.

Discord's table message and the terminal game show the same lines, produced here from the typed
events (`events.py`). A line never names a hidden card: a card drawn from the stock, the cards of
a dropped hand or of a wrong show stay unnamed. Events the table does not announce (the
reshuffle, a void deal, the end of a deal: the result message covers those) describe to None,
and so do moves marked `auto`: the `TimedOut` event before them says, once, that the bot played
for the seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from .cards import Face
from .events import (
    DealEnded,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Dropped,
    Event,
    Left,
    Reshuffled,
    TimedOut,
    Took,
    Voided,
    WrongShow,
)
from .rules import Rules
from .settlement import fixed_cost


def describe(event: Event, names: Sequence[str], rules: Rules) -> str | None:
    """The public line for `event`, or None when the table shows nothing for it.

    `names[seat]` is the display name of each seat (in table order); `rules` prices a drop.
    """
    match event:
        case Dealt(dealer, number):
            return f"Deal {number}: {names[dealer]} deals"
        case Discarded(seat, card, auto=True):
            # The throw is the public evidence of a timeout: name it like any other throw.
            return f"⏰ {names[seat]} ran out of time; the bot threw {card.face.pretty} for them"
        case Declared(seat, auto=True):
            return f"⏰ {names[seat]} ran out of time; the bot declared for them! 🎉"
        case Drew(auto=True) | Took(auto=True) | Dropped(auto=True):
            return None
        case Drew(seat):
            return f"{names[seat]} drew from the stock"
        case Took(seat, card):
            return f"{names[seat]} took {card.face.pretty} from the pile"
        case Discarded(seat, card):
            return f"{names[seat]} discarded {card.face.pretty}"
        case Dropped(seat, reason):
            return f"{names[seat]} dropped ({fixed_cost(rules, reason)})"
        case Left(seat):
            return f"{names[seat]} left the table"
        case Declared(seat):
            return f"{names[seat]} declared! 🎉"
        case WrongShow(seat):
            return f"{names[seat]} made a wrong show"
        case TimedOut(seat, count, dropped):
            if dropped:
                return f"⏰ {names[seat]} was dropped after {count} timeouts in a row"
            return None  # the bot's throw (or declaration) that follows says it
        case Reshuffled() | Voided() | DealEnded():
            return None
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


def describe_seating(
    seating: Sequence[Mapping[str, str]], players: Sequence[tuple[str, str]]
) -> list[str]:
    """The card-drawing ceremony that seats a paplu table, as public lines: who drew what in
    each round (later rounds break ties), then the seating it gave. `players` are
    (player id, name) in the table order the ceremony produced; the last one deals."""
    names = dict(players)
    lines = []
    for i, round_ in enumerate(seating):
        drawn = ", ".join(
            f"{names.get(pid, pid)} {Face.parse(code).pretty}" for pid, code in round_.items()
        )
        lines.append(f"🎴 Seating draw{' (tie-break)' if i else ''}: {drawn}")
    if players:
        order = " → ".join(name for _, name in players)
        lines.append(f"🎴 Seats, highest card first: {order}; {players[-1][1]} deals (lowest)")
    return lines


def describe_all(events: Iterable[Event], names: Sequence[str], rules: Rules) -> list[str]:
    """The public lines of `events`, in order, skipping events the table does not announce."""
    out = []
    for e in events:
        text = describe(e, names, rules)
        if text is not None:
            out.append(text)
    return out


def amount(x: Fraction | int) -> str:
    """Exact amounts as people read them: 15/2 is 7½, never rounded; other fractions stay
    fractions (10/3)."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator == 2:
        whole = int(x)
        sign = "-" if x < 0 and whole == 0 else ""
        return f"{sign}{whole}½" if whole != 0 else f"{sign}½"
    return f"{x.numerator}/{x.denominator}"


def signed(x: Fraction | int) -> str:
    """An amount with its sign, for score changes: +7½, -40, 0."""
    x = Fraction(x)
    return f"+{amount(x)}" if x > 0 else amount(x)
