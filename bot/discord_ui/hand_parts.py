"""What a player's hand view is made of, worked out once and kept per table and player.

A view is built for every table version its player sees: their own moves, and every move of
the others (two of every three actions at a three-seat table). Most of it depends on the
player's hand alone, which the others' moves do not change: the embed's cards part (the
catalogue's words for each card and group: `screens.hand.cards_part`) and the picture's laid
out scene (`bot.images.hand_picture`). Each is kept with the key it was made from (what its
maker reads: `screens.hand.cards_key`, `picture_key` below) and the advice it was
made with, compared by identity (`bot.table.advice.AdviceCache` hands out one object per
hand), and made again only when one of them changed.

The whole view is kept too, for its table version (`HandContent`): the player's own click
answer and the table flush's push of the same version (a Refresh, a refusal shown in the
view) build it once. One entry each, the last; a closed table's go with it (`forget`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import discord

from bot.engine.evaluate import DrawnEvaluation, Evaluation
from bot.engine.observation import Observation
from bot.images import Picture, hand_picture
from bot.images.layout import just_drawn
from bot.table.advice import HandAdvice
from bot.words import Locale
from bot.words.pictures import captions

from .screens.hand import CardsPart, cards_key, cards_part

Key = tuple[str, int]  # (table id, user id)


def picture_key(
    obs: Observation, sort_by_suit: bool, hints: str, locale: Locale | None
) -> tuple[Hashable, ...]:
    """Everything `bot.images.hand_picture` reads of `obs` (`layout.hand_scene`: the cards,
    the wild card and the indicator, the marks of the card taken or just drawn, the rules),
    with the order, the hint level and the language asked for; the evaluation is compared by
    identity. Observations with the same key are drawn alike (the test of this module,
    `test_hand_parts.py`, plays whole deals to check it)."""
    return (
        obs.deal_number,
        obs.seat,
        obs.match_phase,
        obs.hand,
        obs.wild_rank,
        obs.indicator,
        obs.taken,
        just_drawn(obs),
        obs.rules,
        sort_by_suit,
        hints,
        locale,
    )


@dataclass(frozen=True, slots=True)
class HandContent:
    """A hand view as built for one table version, before its picture is drawn or named:
    the note above it, the embed, the controls, and the picture's scene with the key that
    tells it from another (None: no picture)."""

    note: str | None
    embed: discord.Embed
    view: discord.ui.View
    picture: Picture | None = None
    picture_key: Hashable = None


class HandParts:
    def __init__(self) -> None:
        self._cards: dict[Key, tuple[tuple[Hashable, ...], HandAdvice | None, CardsPart]] = {}
        self._pictures: dict[Key, tuple[tuple[Hashable, ...], object, Picture]] = {}
        self._built: dict[Key, tuple[tuple[Hashable, ...], HandContent]] = {}

    def cards(
        self,
        key: Key,
        obs: Observation,
        advice: HandAdvice | None,
        sort_by_suit: bool,
        hints: str,
        locale: Locale | None,
    ) -> CardsPart:
        """The embed's cards part of this player's view (`screens.hand.cards_part`)."""
        want = cards_key(obs, sort_by_suit, hints, locale)
        kept = self._cards.get(key)
        if kept is not None and kept[1] is advice and kept[0] == want:
            return kept[2]
        part = cards_part(obs, advice, sort_by_suit, hints, locale)
        self._cards[key] = (want, advice, part)
        return part

    def picture(
        self,
        key: Key,
        obs: Observation,
        sort_by_suit: bool,
        evaluation: Evaluation | DrawnEvaluation | None,
        hints: str,
        locale: Locale | None,
    ) -> Picture:
        """The live hand picture of this player's view, laid out (`bot.images.hand_picture`)."""
        want = picture_key(obs, sort_by_suit, hints, locale)
        kept = self._pictures.get(key)
        if kept is not None and kept[1] is evaluation and kept[0] == want:
            return kept[2]
        picture = hand_picture(obs, sort_by_suit, evaluation, hints, words=captions(locale))
        self._pictures[key] = (want, evaluation, picture)
        return picture

    def built(self, key: Key, inputs: tuple[Hashable, ...]) -> HandContent | None:
        """The view built last for this player, if it was built from the same `inputs` (the
        table version, the language, the player's choices, the note)."""
        kept = self._built.get(key)
        return kept[1] if kept is not None and kept[0] == inputs else None

    def keep(self, key: Key, inputs: tuple[Hashable, ...], content: HandContent) -> None:
        self._built[key] = (inputs, content)

    def forget(self, table_id: str) -> None:
        for kept in (self._cards, self._pictures, self._built):
            for key in [k for k in kept if k[0] == table_id]:
                del kept[key]
