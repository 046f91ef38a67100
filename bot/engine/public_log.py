"""The public action log as facts: one small JSON-able record per line a table shows.

The table keeps its recent actions in its saved state (`Table.log`) and shows them to readers
of any language, so what is stored are facts, never sentences: a record names its kind (`k`),
the player by display name, a card by its code (`10H`, `JK`) and amounts as numbers. The
Discord side and the terminal (`bot/play.py`) word each record from the catalogue
(`bot/words/log.py`) in the reader's language.

This module decides what is public, once for every reader: a card drawn from the stock, the
cards of a dropped hand or of a wrong show are never in a record; moves the table made for a
seat that ran out of time (`auto`) make no record of their own except the throw or the
declaration, which say so once (`auto_threw`, `auto_declared`); events the table does not
announce (the reshuffle, a void deal, the end of a deal: the results cover those) make none.

Records (every value a string, an int or a bool, or a list of those):

    {"k": "deal", "n": 2, "by": "Asha"}              deal 2, Asha deals
    {"k": "drew", "who": "Asha"}                     from the stock (the card stays hidden)
    {"k": "took", "who": "Asha", "card": "10H"}      from the discard pile
    {"k": "threw", "who": "Asha", "card": "10H"}
    {"k": "auto_threw", "who": "Asha", "card": "10H"}  the bot threw it for a timed-out seat
    {"k": "auto_declared", "who": "Asha"}
    {"k": "dropped", "who": "Asha", "cost": 20, "chips": false}
    {"k": "left", "who": "Asha"}
    {"k": "declared", "who": "Asha"}
    {"k": "wrong_show", "who": "Asha"}
    {"k": "timeout_dropped", "who": "Asha", "count": 3}
    {"k": "seating_draw", "tie_break": false, "drawn": [["Asha", "KS"], ["Ravi", "4H"]]}
    {"k": "seats", "order": ["Asha", "Ravi"]}        highest card first; the last one deals
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

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

#: One stored line of the public log (see the module docstring for the kinds).
LogEntry = dict[str, Any]

#: Every kind of record, for readers that must know each one (the Discord side's wording).
KINDS = frozenset(
    {
        "deal",
        "drew",
        "took",
        "threw",
        "auto_threw",
        "auto_declared",
        "dropped",
        "left",
        "declared",
        "wrong_show",
        "timeout_dropped",
        "seating_draw",
        "seats",
    }
)


def entry(event: Event, names: Sequence[str], rules: Rules) -> LogEntry | None:
    """The public record for `event`, or None when the table shows nothing for it.

    `names[seat]` is each seat's display name (in table order); `rules` prices a drop."""
    match event:
        case Dealt(dealer, number):
            return {"k": "deal", "n": number, "by": names[dealer]}
        case Discarded(seat, card, auto=True):
            # The throw is the public evidence of a timeout: name it like any other throw.
            return {"k": "auto_threw", "who": names[seat], "card": card.face.code}
        case Declared(seat, auto=True):
            return {"k": "auto_declared", "who": names[seat]}
        case Drew(auto=True) | Took(auto=True) | Dropped(auto=True):
            return None
        case Drew(seat):
            return {"k": "drew", "who": names[seat]}
        case Took(seat, card):
            return {"k": "took", "who": names[seat], "card": card.face.code}
        case Discarded(seat, card):
            return {"k": "threw", "who": names[seat], "card": card.face.code}
        case Dropped(seat, reason):
            cost = fixed_cost(rules, reason)
            return {"k": "dropped", "who": names[seat], "cost": cost, "chips": rules.chips}
        case Left(seat):
            return {"k": "left", "who": names[seat]}
        case Declared(seat):
            return {"k": "declared", "who": names[seat]}
        case WrongShow(seat):
            return {"k": "wrong_show", "who": names[seat]}
        case TimedOut(seat, count, dropped):
            if dropped:
                return {"k": "timeout_dropped", "who": names[seat], "count": count}
            return None  # the bot's throw (or declaration) that follows says it
        case Reshuffled() | Voided() | DealEnded():
            return None
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


def entries(events: Iterable[Event], names: Sequence[str], rules: Rules) -> list[LogEntry]:
    """The public records of `events`, in order, skipping events the table does not show."""
    out = []
    for event in events:
        record = entry(event, names, rules)
        if record is not None:
            out.append(record)
    return out


def seating_entries(
    seating: Sequence[Mapping[str, str]], players: Sequence[tuple[str, str]]
) -> list[LogEntry]:
    """The card-drawing ceremony that seats a paplu table: who drew what in each round (later
    rounds break ties), then the seating it gave. `players` are (player id, name) in the
    table order the ceremony produced; the last one deals."""
    names = dict(players)
    out: list[LogEntry] = []
    for i, round_ in enumerate(seating):
        drawn = [[names.get(pid, pid), Face.parse(code).code] for pid, code in round_.items()]
        out.append({"k": "seating_draw", "tie_break": i > 0, "drawn": drawn})
    if players:
        out.append({"k": "seats", "order": [name for _, name in players]})
    return out


def is_entry(value: object) -> TypeGuard[LogEntry]:
    """Whether a stored log item is a record of this module (a table saved before the log
    held facts stored English sentences instead)."""
    return isinstance(value, dict) and value.get("k") in KINDS
