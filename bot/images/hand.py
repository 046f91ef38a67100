"""The private hand image: one seat's cards, grouped, marked, in the discard menu's order."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card
from bot.engine.evaluate import DrawnEvaluation, Evaluation
from bot.engine.observation import Observation

from .captions import Captions
from .layout import final_hand_scene, hand_scene
from .paint import Picture, RenderedImage, draw


def hand_picture(
    obs: Observation,
    sort_by_suit: bool = False,
    evaluation: Evaluation | DrawnEvaluation | None = None,
    hints: str = "full",
    *,
    words: Captions,
) -> Picture:
    """The hand of `obs.seat`, laid out (see `render_hand`; `hints`: `layout.hand_scene`),
    captioned in `words` (the owner's language)."""
    return Picture(
        hand_scene(obs, evaluation, sort_by_suit, hints, words=words),
        f"hand-{obs.deal_number}-{obs.seat}",
    )


def final_hand_picture(
    obs: Observation,
    cards: Sequence[Card],
    evaluation: Evaluation | None,
    *,
    words: Captions,
) -> Picture:
    """The seat's own cards once its deal is over (`layout.final_hand_scene`): the hand view
    between deals shows them as its text lists them. Same name as the live hand's picture:
    a view shows one hand picture at a time."""
    return Picture(
        final_hand_scene(obs, cards, evaluation, words=words),
        f"hand-{obs.deal_number}-{obs.seat}",
    )


def render_hand(
    obs: Observation,
    sort_by_suit: bool = False,
    evaluation: Evaluation | DrawnEvaluation | None = None,
    fmt: str = "png",
    *,
    words: Captions,
) -> RenderedImage:
    """The hand of `obs.seat` as an image (send it ephemerally: it shows the whole hand).

    Pass `evaluation` (from `layout.evaluate_view(obs)`) when the text embed already has one:
    evaluating 14 cards costs more than drawing them."""
    return draw(hand_picture(obs, sort_by_suit, evaluation, words=words), fmt)
