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


def _drop(rules: Rules, locale: Locale | None) -> str:
    if not rules.packing_allowed:
        return text(locale, "help-drop-none")
    first = cost_words(rules.first_drop, rules.chips, locale)
    middle = cost_words(rules.middle_drop, rules.chips, locale)
    return text(locale, "help-drop", first=first, middle=middle)


_TEXTS: dict[str, Callable[[Rules, Locale | None], str]] = {
    "goal": lambda _rules, locale: text(locale, "help-goal"),
    "lives": lambda _rules, locale: text(locale, "help-lives"),
    "wild": lambda _rules, locale: text(locale, "help-wild"),
    "turn": lambda _rules, locale: text(locale, "help-turn"),
    "drop": _drop,
    "declare": lambda _rules, locale: text(locale, "help-declare"),
    "table": rules_summary,
}


def help_embed(page: str, rules: Rules, locale: Locale | None = None) -> discord.Embed:
    """One screen of the help, for `rules` (this channel's table, or the default profile),
    in the reader's language."""
    if page not in _TEXTS:
        page = PAGES[0][0]
    number = PAGE_KEYS.index(page) + 1
    e = discord.Embed(
        title=text(locale, "help-title", page=page_title(page, locale)),
        description=_TEXTS[page](rules, locale)[:4096],
        colour=COLOUR,
    )
    e.set_footer(
        text=text(locale, "help-footer", number=number, pages=len(PAGES), profile=rules.name)
    )
    return e
