"""The table's recent actions in the reader's language.

The table stores its log as facts (`bot/engine/public_log.py` records: a kind, display names,
card codes, numbers); this module words each record from the catalogue (`log.ftl`) when the
table is shown, so one stored table reads in any language. What is public was decided when the
record was made (no hidden card is in one), so nothing here can reveal a card. Card codes are
shown as everywhere else (`10♥`); numbers and plurals are the language's (Fluent).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.engine.cards import Face
from bot.engine.public_log import is_entry
from bot.table.vocabulary import Locale

from .cards import card
from .catalogue import text


def _card(code: object) -> str:
    return card(Face.parse(str(code)))


def _drawn(pairs: Iterable[Any]) -> str:
    return ", ".join(f"{name} {_card(code)}" for name, code in pairs)


def entry_text(record: Mapping[str, Any], locale: Locale | None) -> str | None:
    """One stored record as its line, or None for an item this side does not know (a newer
    kind written by another version of the bot: left out rather than shown wrongly)."""
    k = record.get("k")
    who = str(record.get("who", ""))
    if k == "deal":
        return text(locale, "log-deal", n=record["n"], by=str(record["by"]))
    if k == "drew":
        return text(locale, "log-drew", who=who)
    if k == "took":
        return text(locale, "log-took", who=who, card=_card(record["card"]))
    if k == "threw":
        return text(locale, "log-threw", who=who, card=_card(record["card"]))
    if k == "auto_threw":
        return text(locale, "log-auto-threw", who=who, card=_card(record["card"]))
    if k == "auto_declared":
        return text(locale, "log-auto-declared", who=who)
    if k == "dropped":
        unit = "chips" if record.get("chips") else "points"
        return text(locale, "log-dropped", who=who, cost=record["cost"], unit=unit)
    if k == "left":
        return text(locale, "log-left", who=who)
    if k == "declared":
        return text(locale, "log-declared", who=who)
    if k == "wrong_show":
        return text(locale, "log-wrong-show", who=who)
    if k == "timeout_dropped":
        return text(locale, "log-timeout-dropped", who=who, count=record["count"])
    if k == "seating_draw":
        msg_id = "log-seating-tie-break" if record.get("tie_break") else "log-seating-draw"
        return text(locale, msg_id, drawn=_drawn(record["drawn"]))
    if k == "seats":
        order = [str(name) for name in record["order"]]
        return text(locale, "log-seats", order=" → ".join(order), dealer=order[-1])
    return None


def log_lines(log: Iterable[object], locale: Locale | None) -> list[str]:
    """The stored log (`Table.log`) as lines in the reader's language, oldest first."""
    out = []
    for item in log:
        if is_entry(item):
            line = entry_text(item, locale)
            if line is not None:
                out.append(line)
    return out
