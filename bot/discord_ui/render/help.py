"""`/rummy help`: how to play, in a few short screens, for someone who has never played here.

The screens that depend on the rules (lives, wild cards, drops, the profile) are written from
the `Rules` object, so they cannot disagree with the engine; the rest explains the buttons.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.engine.rules import Rules

from .rules import rules_summary
from .text import COLOUR, cost_text

#: The screens, in reading order: (key, title).
PAGES: tuple[tuple[str, str], ...] = (
    ("goal", "The goal"),
    ("lives", "Two lives"),
    ("wild", "Wild cards"),
    ("turn", "A turn"),
    ("drop", "Dropping"),
    ("declare", "Declaring"),
    ("table", "This table's rules"),
)
PAGE_KEYS = tuple(key for key, _ in PAGES)

#: The one-line pointer a first-time player gets with their first hand view.
FIRST_TIME = "New to rummy here? `/rummy help` explains the game and the buttons in a minute."


def _goal(rules: Rules) -> str:
    return (
        "You hold 13 cards. Arrange all of them into **runs** (three or more cards in a row of "
        "one suit, like 5♥ 6♥ 7♥) and **sets** (three or four cards of one rank in different "
        "suits, like 9♠ 9♦ 9♣), then **declare** to win the deal.\n\n"
        "Whoever is left with unarranged cards when someone declares pays for them: number "
        "cards count their value, J Q K and A count 10 each."
    )


def _lives(rules: Rules) -> str:
    return (
        "A declaration needs **two runs**, and at least one of them must be **pure**: no wild "
        "card in it. The pure run is your first life, the second run your second life; sets "
        "come after.\n\nWithout a pure run every card in your hand counts against you, so make "
        "one early."
    )


def _wild(rules: Rules) -> str:
    return (
        "At the start of the deal one card is turned face up: the **indicator**. Every card of "
        "its rank becomes wild, and so do the printed jokers (🃏): a wild card can stand in for "
        "any card in a run or a set (not in a pure run). Wild cards are marked * in your hand.\n\n"
        "The table shows the indicator and what is wild this deal."
    )


def _turn(rules: Rules) -> str:
    return (
        "When it is your turn the bot mentions you. Press **Your hand** (on the table or the "
        "ping): only you see it.\n"
        "1. **Draw from stock** (face down) or **Take** the top discard.\n"
        "2. Throw one card with **Discard a card…**: each choice says what it leaves you with.\n"
        "Your hand is grouped the way it best arranges; the picture follows the same order. "
        "**Sort by suit** switches the order, **Refresh** redraws the view, **Text only** turns "
        "the card pictures off for you."
    )


def _drop(rules: Rules) -> str:
    if not rules.packing_allowed:
        return "This table plays without dropping (a house rule): every deal is played out."
    first = cost_text(rules.first_drop, rules.chips)
    middle = cost_text(rules.middle_drop, rules.chips)
    return (
        "A bad hand? **Drop** (pack) at the start of your turn, before you draw, and you are "
        f"out of this deal for a fixed cost: {first} before your first draw, {middle} later. "
        "Drop asks you to confirm and shows the cost first.\n\n"
        "If you run out of time, the bot plays for you; after three timeouts in a row it drops "
        "you."
    )


def _declare(rules: Rules) -> str:
    return (
        "When the card you throw would leave everything arranged, the view offers **Declare — "
        "discard …**: press it to throw that card and show your hand. The bot checks the "
        "layout; the results message then reveals every hand, what each player pays, and the "
        "standings.\n\nIn an *honor* table you lay out a declaration yourself, and a wrong "
        "show costs a penalty."
    )


_TEXTS: dict[str, Callable[[Rules], str]] = {
    "goal": _goal,
    "lives": _lives,
    "wild": _wild,
    "turn": _turn,
    "drop": _drop,
    "declare": _declare,
    "table": rules_summary,
}


def help_embed(page: str, rules: Rules) -> discord.Embed:
    """One screen of the help, for `rules` (this channel's table, or the default profile)."""
    if page not in _TEXTS:
        page = PAGES[0][0]
    number = PAGE_KEYS.index(page) + 1
    title = dict(PAGES)[page]
    e = discord.Embed(
        title=f"How to play — {title}", description=_TEXTS[page](rules)[:4096], colour=COLOUR
    )
    e.set_footer(text=f"{number}/{len(PAGES)} · rules: {rules.name}")
    return e
