"""The shipped PNG palette still fits the art: every sample scene, mapped onto it, keeps its
colours (what a player sees), and the palette file is what `learn_palette` writes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from bot.engine.match import Match
from bot.engine.observation import PublicView
from bot.images import samples
from bot.images.layout import hand_scene, results_scene, table_scene
from bot.images.paint import learn_palette, paint, palette, palette_text
from bot.words.pictures import captions

EN = captions("en")  # the pictures' English words, from the catalogue


def _ai_table() -> PublicView:
    """A table whose AI seats' names carry the robot mark the pictures draw."""
    m = Match.create(["\N{ROBOT FACE} Hard", "Asha", "\N{ROBOT FACE} Expert 2"], "paplu", 4)
    samples.play_until(m, lambda mm: mm.deal is not None and len(mm.deal.actions) >= 10, 4)
    return m.public_view()


@pytest.mark.parametrize("tag", ["en", "hi"])
@pytest.mark.parametrize("scene", ["hand", "hand by suit", "table", "table, AI seats", "results"])
def test_scenes_keep_their_colours_on_the_palette(scene: str, tag: str) -> None:
    words = captions(tag)  # Devanagari captions are drawn in the same colours
    make = {
        "hand": lambda: hand_scene(samples.hand_states()["drawn"], None, False, words=words),
        "hand by suit": lambda: hand_scene(samples.hand_states()["taken"], None, True, words=words),
        "table": lambda: table_scene(samples.table_view(4), words=words),
        "table, AI seats": lambda: table_scene(_ai_table(), words=words),
        "results": lambda: results_scene(samples.finished_history(seats=3, seed=5), words=words),
    }[scene]
    original = paint(make())
    mapped = original.quantize(palette=palette(), dither=Image.Dither.NONE).convert("RGB")
    diff = ImageChops.difference(original, mapped).convert("L")
    histogram = diff.histogram()
    pixels = original.width * original.height
    # Nearly every pixel is exact or within a shade; only anti-aliased edges move a little.
    close = sum(histogram[:12]) / pixels
    assert close > 0.99, f"{scene}: only {close:.3%} of pixels within 12 levels"
    assert max(i for i, n in enumerate(histogram) if n) < 48, scene


def test_the_palette_file_has_256_distinct_colours() -> None:
    flat = palette().getpalette() or []
    colours = {tuple(flat[i : i + 3]) for i in range(0, 768, 3)}
    assert len(colours) > 200
    assert palette_text(learn_palette(EN)).count("\n") == 256
