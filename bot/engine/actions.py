"""The moves a player can make, as plain data.

An `Action` is what a button press, a slash command or an AI policy produces; the match
validates it and, if accepted, records it as an event. Keeping actions as small frozen values
(seat + kind + physical card id) makes them easy to serialise, compare and replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ActionKind(StrEnum):
    DRAW_STOCK = "draw_stock"  # take the top card of the face-down stock
    TAKE_DISCARD = "take_discard"  # take the top card of the face-up discard pile
    DISCARD = "discard"  # end the turn by throwing one card face up
    DECLARE = "declare"  # show 13 valid cards; with `card` = the 14th card thrown away
    DROP = "drop"  # pack at the start of a turn, before drawing
    LEAVE = "leave"  # leave the table: a drop that may happen at any time


Groups = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Action:
    """One move by one seat. `card` is a physical card id (see `cards.Card.id`).

    DECLARE with `card=None` at the start of a first turn is a *hand rummy* (the dealt 13
    declared without drawing). `groups` optionally carries the player's own arrangement, as
    tuples of card ids; without it the engine finds the best arrangement itself.
    """

    kind: ActionKind
    seat: int
    card: int | None = None
    groups: Groups | None = None

    # Readable constructors: `Action.discard(2, card_id)`.
    @classmethod
    def draw_stock(cls, seat: int) -> Action:
        return cls(ActionKind.DRAW_STOCK, seat)

    @classmethod
    def take_discard(cls, seat: int) -> Action:
        return cls(ActionKind.TAKE_DISCARD, seat)

    @classmethod
    def discard(cls, seat: int, card: int) -> Action:
        return cls(ActionKind.DISCARD, seat, card)

    @classmethod
    def declare(cls, seat: int, card: int | None, groups: Groups | None = None) -> Action:
        return cls(ActionKind.DECLARE, seat, card, groups)

    @classmethod
    def drop(cls, seat: int) -> Action:
        return cls(ActionKind.DROP, seat)

    @classmethod
    def leave(cls, seat: int) -> Action:
        return cls(ActionKind.LEAVE, seat)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.card is not None:
            out["card"] = self.card
        if self.groups is not None:
            out["groups"] = [list(g) for g in self.groups]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        groups = data.get("groups")
        return cls(
            ActionKind(data["kind"]),
            int(data["seat"]),
            data.get("card"),
            None if groups is None else tuple(tuple(int(c) for c in g) for g in groups),
        )
