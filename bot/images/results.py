"""The results image: every hand of a finished deal revealed, what each seat pays, the winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .captions import Captions
from .layout import results_scene
from .paint import Picture, RenderedImage, draw


def results_picture(history: Mapping[str, Any], *, words: Captions) -> Picture:
    """A finished deal's reveal, laid out (see `render_results`), captioned in `words`."""
    return Picture(results_scene(history, words=words), f"deal-{history['deal_number']}-result")


def render_results(
    history: Mapping[str, Any], fmt: str = "png", *, words: Captions
) -> RenderedImage:
    """From `Match.hand_history(n)` (public once the deal is over); dropped hands stay hidden."""
    return draw(results_picture(history, words=words), fmt)
