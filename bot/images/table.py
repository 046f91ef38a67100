"""The public table image, drawn from a `PublicView` only (so it cannot show a hidden card)."""

from __future__ import annotations

from bot.engine.observation import PublicView

from .layout import table_scene
from .paint import RenderedImage, encode, paint


def render_table(view: PublicView, nothing_wild: bool = False, fmt: str = "png") -> RenderedImage:
    """The seats, their card counts, the dealer and the turn, the stock, discard and indicator.

    `nothing_wild` is `rules.nothing_wild` (a house rule, not a card): it only changes the
    caption under the indicator."""
    return encode(paint(table_scene(view, nothing_wild)), f"table-{view.deal_number}", fmt)
