"""The public action log's lines (never naming a hidden card)."""

from __future__ import annotations

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card


def _card(c: Card | None) -> str:
    return "—" if c is None else c.face.pretty


def describe_action(
    name: str,
    action: Action,
    top: Card | None,
    card: Card | None,
    cost: int | None,
    declared: bool,
) -> str:
    k = action.kind
    if k is ActionKind.DRAW_STOCK:
        return f"{name} drew from the stock"
    if k is ActionKind.TAKE_DISCARD:
        return f"{name} took {_card(top)} from the pile"
    if k is ActionKind.DISCARD:
        return f"{name} discarded {_card(card)}"
    if k is ActionKind.DROP:
        return f"{name} dropped ({cost})"
    if k is ActionKind.DECLARE:
        return f"{name} declared! 🎉" if declared else f"{name} made a wrong show"
    return f"{name} left"


def describe_timeout(name: str, count: int, dropped: bool) -> str:
    if dropped:
        return f"⏰ {name} was dropped after {count} timeouts in a row"
    return f"⏰ {name} ran out of time; the bot played for them"
