"""The results image: every hand of a finished deal revealed, what each seat pays, the winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .layout import results_scene
from .paint import RenderedImage, encode, paint


def render_results(history: Mapping[str, Any], fmt: str = "png") -> RenderedImage:
    """From `Match.hand_history(n)` (public once the deal is over); dropped hands stay hidden."""
    return encode(paint(results_scene(history)), f"deal-{history['deal_number']}-result", fmt)
