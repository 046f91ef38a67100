"""The table layer's own words for what a table is: its status and its language.

Storage keeps these as their text values (a `StrEnum` is its value), so the layers below name
no type of this one; what reads a stored table turns the text back into these types once.
"""

from __future__ import annotations

import enum
from typing import NewType

#: A catalogue language: the tag of one of the catalogue's folders (`en`, `hi`). A table keeps
#: the language its public messages opened in; the Discord side and the terminal make one
#: with `bot.words.catalogue().resolve`, which only answers with a language it has words for.
Locale = NewType("Locale", str)
#: The catalogue's source language, the one every other falls back to.
ENGLISH = Locale("en")


class TableStatus(enum.StrEnum):
    """Where a table is in its life; stored and compared as its text value."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def open(self) -> bool:
        """Still restored on start-up and accepting actions (lobby or playing)."""
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)
