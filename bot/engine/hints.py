"""How much of the engine's evaluation a player is shown about their own hand.

A game played with the arrangement worked out for you is a different game from one played
without: the level is a rule of the table (fixed when it opens), stored with every result and
read by whatever answers a player about their cards (the hand view, `/rummy check`, a failed
declaration). What each level lets a player learn is the table in `docs/rules.md`.
"""

from __future__ import annotations

import enum


class HintLevel(enum.StrEnum):
    """``full``: the best arrangement, what each discard leaves and when the hand declares;
    ``groups``: the arrangement only; ``off``: the cards sorted by suit, nothing worked out.
    Stored as its text value."""

    FULL = "full"
    GROUPS = "groups"
    OFF = "off"

    @classmethod
    def parse(cls, value: object) -> HintLevel | None:
        """The level a typed value names, or None: the one check of a hints value from
        outside. The table layer's edges call it (`bot.table.options.parse_hints` for
        `/rummy new`, `bot.table.league.parse_default_hints` for `/rummy settings`), each
        refusing an unknown level in its own words; past them a level is a `HintLevel`.
        A stored value, written from one, is read back with `HintLevel(value)`."""
        try:
            return cls(str(value))
        except ValueError:
            return None
