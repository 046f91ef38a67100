"""What each hint level lets a player learn, and the one place it is enforced.

A table's hint level (`HintLevel`) says what the bot works out for a seated player. Below
`full` the player judges their own hand, so no other door may work it out for them
(docs/rules.md, "Hint levels", has the whole table):

* Declaring: below `full` every declaration is on the player's honor (`declaration_mode`):
  the Declare menu lists every discard, and a declaration the rules refuse is a wrong show at
  its cost. Assisted declaring (refused for free, nothing changes) would tell a player, by
  trying each card in turn, whether and how their hand declares.
* `/rummy check`: refused to a player seated in a live match below `full`
  (`check_ruling`): pasting one's own 13 cards would give the arrangement and the deadwood
  the hand view hides. After the match, or at a `full` table, it answers as ever.

A host who asks for assisted declaring below `full` is refused when the table opens
(`bot.table.options.build_options`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from bot.engine.hints import HintLevel
from bot.engine.match import Match
from bot.engine.rules import DeclarationMode

from . import errors
from .vocabulary import TableStatus


class _HasHints(Protocol):
    @property
    def hints(self) -> HintLevel: ...


class SeatedTable(Protocol):
    """What `check_ruling` reads of a table (`bot.table.model.Table` is one): a protocol, so
    that the model, which asks `declaration_mode`, is not imported back from here."""

    @property
    def status(self) -> TableStatus: ...
    @property
    def options(self) -> _HasHints: ...
    @property
    def match(self) -> Match | None: ...
    def engine_seat(self, user_id: int) -> int | None: ...


def declaration_mode(hints: HintLevel, chosen: DeclarationMode) -> DeclarationMode:
    """How a table's declarations are judged: as chosen at `full`, else on honor."""
    return chosen if hints is HintLevel.FULL else DeclarationMode.HONOR


def check_ruling(tables: Iterable[SeatedTable], user_id: int) -> None:
    """Refuse `/rummy check` to a player still playing a match below full hints."""
    for table in tables:
        if table.status is not TableStatus.PLAYING or table.options.hints is HintLevel.FULL:
            continue
        m, seat = table.match, table.engine_seat(user_id)
        if m is not None and seat is not None and seat in m.in_play:
            raise errors.RulingHidden(table.options.hints)
