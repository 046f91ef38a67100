"""The small words every renderer shares: cards, amounts, wild cards, hint levels.

Renderers take views the engine or the table service already built and return text or embeds;
nothing here decides anything or changes state.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.cards import Card, Face
from bot.engine.cards import rank_name as engine_rank_name
from bot.engine.describe import amount as amount
from bot.engine.describe import signed as signed
from bot.engine.rules import Rules
from bot.table.vocabulary import Locale

from .catalogue import text


def card(c: Card | Face | None) -> str:
    if c is None:
        return "—"
    face = c.face if isinstance(c, Card) else c
    return face.pretty


def cards(cs: Iterable[Card | Face], wild_rank: int | None = None, new: Card | None = None) -> str:
    """Cards in a row; cards of the wild rank are marked with * (printed jokers show as 🃏),
    and the card just drawn (`new`) with 🆕."""
    out = []
    for c in cs:
        face = c.face if isinstance(c, Card) else c
        mark = "*" if wild_rank is not None and face.rank == wild_rank else ""
        if new is not None and isinstance(c, Card) and c.id == new.id:
            mark += "🆕"
        out.append(face.pretty + mark)
    return " ".join(out)


def code_to_pretty(code: str) -> str:
    return Face.parse(code).pretty


def rank_name(rank: int | None) -> str:
    return "none" if rank is None else engine_rank_name(rank)


def cost_words(value: object, chips: bool, locale: Locale | None = None) -> str:
    """A penalty in the match's own unit, in the reader's language: paid in chips in a chips
    game (points rummy, paplu), added to a points total in pool and deals games."""
    return text(locale, "cost-chips" if chips else "cost-points", value=str(value))


def wild_words(
    rules: Rules, wild_rank: int | None, indicator: Card | Face | None, locale: Locale | None = None
) -> str:
    """Which cards are wild, in the reader's language."""
    if rules.nothing_wild or indicator is None:
        return text(locale, "wild-nothing")
    if wild_rank is None:
        return text(locale, "wild-jokers")
    return text(locale, "wild-rank", rank=rank_name(wild_rank))


#: What each hint level shows a player about their own hand (lobby, settings, `/rummy new`).
HINT_WORDS = {
    "full": "arrangement, deadwood and when you can declare",
    "groups": "the arrangement only",
    "off": "no help: cards sorted by suit",
}


#: The catalogue ids of each hint level's name and of what it shows.
HINT_LEVEL_IDS = {
    "full": ("hint-level-full", "hint-meaning-full"),
    "groups": ("hint-level-groups", "hint-meaning-groups"),
    "off": ("hint-level-off", "hint-meaning-off"),
}


def hint_level_words(hints: str, locale: Locale | None = None) -> tuple[str, str]:
    """A hint level's name and what it shows, in the reader's language."""
    ids = HINT_LEVEL_IDS.get(hints)
    if ids is None:
        return hints, hints
    return text(locale, ids[0]), text(locale, ids[1])


#: The catalogue id of each seat status the table marks after a name (active: no mark).
STATUS_IDS = {
    "dropped": "status-dropped",
    "out": "status-out",
    "eliminated": "status-eliminated",
    "left": "status-left",
}


def status_words(status: str, locale: Locale | None = None) -> str:
    """ " (dropped)" after a seat's name, in the reader's language; "" for a seat in play."""
    msg = STATUS_IDS.get(status)
    return "" if msg is None else " " + text(locale, msg)
