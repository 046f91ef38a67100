"""The languages the bot speaks: the catalogue's folders, each named in its own words.

Adding a language is a folder of `.ftl` files (`locales/<tag>/`, see README.md): it is offered
in `/rummy language` and `/rummy settings language:` from then on, with no code change. A
language is named the way language pickers name them, in its own words with its English name
beside it ("हिन्दी (Hindi)"), so the name needs no translation into every other language: each
folder says only what it calls itself (`language-self`, and `.english` for its English name,
in `language.ftl`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.table.vocabulary import Locale

from .catalogue import PSEUDO, Catalogue, catalogue


@dataclass(frozen=True, slots=True)
class Language:
    tag: Locale
    #: What the language calls itself ("हिन्दी").
    own: str
    #: Its name in English ("Hindi").
    english: str

    @property
    def label(self) -> str:
        """Its name for a menu: in its own words, with the English name when that differs."""
        return self.own if self.own == self.english else f"{self.own} ({self.english})"


def languages(source: Catalogue | None = None) -> tuple[Language, ...]:
    """Every language of the catalogue, English first (the pseudo-locale is not one)."""
    cat = source or catalogue()
    return tuple(
        Language(
            tag,
            cat.text(tag, "language-self"),
            cat.text(tag, "language-self", attribute="english"),
        )
        for tag in cat.locales
        if tag != PSEUDO
    )


def language_label(tag: str, source: Catalogue | None = None) -> str:
    """The menu name of the language `tag` ("हिन्दी (Hindi)"); the tag itself if the catalogue
    has no such folder (a stored choice whose folder was removed)."""
    for language in languages(source):
        if language.tag == tag:
            return language.label
    return tag
