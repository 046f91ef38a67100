"""The public table image, drawn from a `PublicView` only (so it cannot show a hidden card)."""

from __future__ import annotations

from bot.engine.observation import PublicView

from .captions import Captions
from .layout import table_scene
from .paint import Picture, RenderedImage, draw


def table_picture(view: PublicView, nothing_wild: bool = False, *, words: Captions) -> Picture:
    """The public table, laid out (see `render_table`), captioned in `words` (the language
    of the server's public messages)."""
    return Picture(table_scene(view, nothing_wild, words=words), f"table-{view.deal_number}")


def render_table(
    view: PublicView, nothing_wild: bool = False, fmt: str = "png", *, words: Captions
) -> RenderedImage:
    """The seats, their card counts, the dealer and the turn, the stock, discard and indicator.

    `nothing_wild` is `rules.nothing_wild` (a house rule, not a card): it only changes the
    caption under the indicator."""
    return draw(table_picture(view, nothing_wild, words=words), fmt)
