"""The private hand image: one seat's cards, grouped, marked, in the discard menu's order."""

from __future__ import annotations

from bot.engine.evaluate import DrawnEvaluation, Evaluation
from bot.engine.observation import Observation

from .captions import Captions
from .layout import hand_scene
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
