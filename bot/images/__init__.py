"""Card-table images for the bot, drawn with Pillow and free of Discord.

Public API (each returns a `RenderedImage`: encoded bytes plus a filename to attach; `words`
is a `Captions`, every caption in the viewer's language, which the Discord side words from
its catalogue: this package holds no player-facing words):

* `render_hand(obs, sort_by_suit=False, evaluation=None, *, words)`: one seat's private hand.
* `render_table(view, nothing_wild=False, *, words)`: the public table, from a `PublicView`.
* `render_results(history, *, words)`: a finished deal's reveal, from its hand history.
* `hand_picture` / `table_picture` / `results_picture`: the same, laid out but not yet drawn
  (a `Picture`: plain data), and `draw(picture)` to paint and encode it, so the expensive half
  can run in another process.
* `final_hand_picture(obs, cards, evaluation, *, words)`: a seat's own cards once its deal is
  over, as its hand view lists them.
* `hand_order(obs, evaluation=None, sort_by_suit=False)`: the order cards are drawn in, for the
  discard menu to share; `evaluate_view(obs)` the one evaluation both can reuse.
"""

from __future__ import annotations

from .captions import Captions
from .hand import final_hand_picture, hand_picture, render_hand
from .layout import evaluate_view, hand_order, hand_sections
from .paint import Picture, RenderedImage, draw, palette
from .results import render_results, results_picture
from .sprites import warm_up as _warm_sprites
from .table import render_table, table_picture


def warm_up() -> None:
    """Draw every sprite and learn the palette now (e.g. at bot start), so the first image
    a player asks for is not the slow one."""
    _warm_sprites()
    palette()


__all__ = [
    "Captions",
    "Picture",
    "RenderedImage",
    "draw",
    "evaluate_view",
    "final_hand_picture",
    "hand_order",
    "hand_picture",
    "hand_sections",
    "render_hand",
    "render_results",
    "render_table",
    "results_picture",
    "table_picture",
    "warm_up",
]
