"""`/rummy help`: how to play, in a few short screens, for someone who has never played here.

The screens that depend on the rules (drops, the profile) are filled from the `Rules` object,
so they cannot disagree with the engine; the rest explains the buttons. The words come from
the catalogue (`locales/*/help.ftl`) in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.engine.rules import Rules
from bot.words import Locale, text
from bot.words.cards import cost_words
from bot.words.rules import rules_summary

from .colour import COLOUR

#: The screens, in reading order: (key, the catalogue id of its title).
PAGES: tuple[tuple[str, str], ...] = (
    ("goal", "help-page-goal"),
    ("lives", "help-page-lives"),
    ("wild", "help-page-wild"),
    ("turn", "help-page-turn"),
    ("drop", "help-page-drop"),
    ("declare", "help-page-declare"),
    ("table", "help-page-table"),
)
PAGE_KEYS = tuple(key for key, _ in PAGES)


def first_time(locale: Locale | None) -> str:
    """The one-line pointer a first-time player gets with their first hand view."""
    return text(locale, "help-first-time")


def page_title(page: str, locale: Locale | None) -> str:
    return text(locale, dict(PAGES)[page])


def button_names(
    rules: Rules, locale: Locale | None, table_locale: Locale | None = None
) -> dict[str, str]:
    """The buttons the help names, each as the reader sees it, from the button's own catalogue
    message: the table's buttons in the table's language (`table_locale`, when there is a
    table here), the private hand view's in the reader's."""
    public = table_locale or locale
    return {
        "your_hand": text(public, "button-your-hand"),
        "draw": text(locale, "button-draw"),
        "take": text(locale, "button-take", card="…"),
        "discard": text(locale, "menu-discard"),
        "sort": text(locale, "button-sort"),
        "refresh": text(locale, "button-refresh"),
        "text_only": text(locale, "button-text-only"),
        "drop": text(locale, "button-drop", cost=cost_words(rules.first_drop, rules.chips, locale)),
        "declare": text(locale, "button-declare", card="…"),
    }


def _drop(rules: Rules, locale: Locale | None, buttons: dict[str, str]) -> str:
    if not rules.packing_allowed:
        return text(locale, "help-drop-none")
    first = cost_words(rules.first_drop, rules.chips, locale)
    middle = cost_words(rules.middle_drop, rules.chips, locale)
    return text(locale, "help-drop", first=first, middle=middle, **buttons)


_TEXTS: dict[str, Callable[[Rules, Locale | None, dict[str, str]], str]] = {
    "goal": lambda _rules, locale, _b: text(locale, "help-goal"),
    "lives": lambda _rules, locale, _b: text(locale, "help-lives"),
    "wild": lambda _rules, locale, _b: text(locale, "help-wild"),
    "turn": lambda _rules, locale, b: text(locale, "help-turn", **b),
    "drop": _drop,
    "declare": lambda _rules, locale, b: text(locale, "help-declare", **b),
    "table": lambda rules, locale, _b: rules_summary(rules, locale),
}


def help_embed(
    page: str, rules: Rules, locale: Locale | None = None, table_locale: Locale | None = None
) -> discord.Embed:
    """One screen of the help, for `rules` (this channel's table, or the default profile),
    in the reader's language; the table's own buttons named in `table_locale`, the
    language of the table here (None: no table)."""
    if page not in _TEXTS:
        page = PAGES[0][0]
    number = PAGE_KEYS.index(page) + 1
    buttons = button_names(rules, locale, table_locale)
    e = discord.Embed(
        title=text(locale, "help-title", page=page_title(page, locale)),
        description=_TEXTS[page](rules, locale, buttons)[:4096],
        colour=COLOUR,
    )
    e.set_footer(
        text=text(locale, "help-footer", number=number, pages=len(PAGES), profile=rules.name)
    )
    return e
