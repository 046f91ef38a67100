"""Hindi on the pictures: Devanagari drawn from the bundled font (not tofu boxes), Latin text
still in the old font, measured with the font it is drawn in, cut between letters.

The captions come from the catalogue (`bot.words.pictures`), as the bot passes them."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from importlib import resources

import pytest
from PIL import ImageFont

from bot.images import samples, typeset
from bot.images.captions import Captions, text_fields
from bot.images.layout import _fitted, hand_scene, results_scene, table_scene, text_width
from bot.images.paint import _text_mask
from bot.words.pictures import captions
from tests.conftest import PROJECT_ROOT

HI = captions("hi")
EN = captions("en")


def caption_texts(words: Captions) -> list[str]:
    """Every caption string, with the layout's slots (`{name}`) taken out."""
    texts = [getattr(words, f) for f in text_fields()]
    texts += [*words.status.values(), *words.basis.values(), *words.out.values()]
    return [re.sub(r"\{\w+\}", "", t) for t in texts]


def devanagari_chars() -> list[str]:
    return sorted({ch for t in caption_texts(HI) for ch in t if typeset.is_devanagari(ch)})


def test_the_font_and_its_license_ship_with_the_package() -> None:
    fonts = resources.files("bot.images").joinpath("fonts")
    for name in (typeset.DEVANAGARI_FILE, typeset.DEVANAGARI_BOLD_FILE, "OFL.txt", "README.md"):
        assert fonts.joinpath(name).is_file(), name
    assert "SIL OPEN FONT LICENSE Version 1.1" in fonts.joinpath("OFL.txt").read_text()
    assert "2.001" in fonts.joinpath("README.md").read_text()  # the version is written down
    data = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())
    shipped = data["tool"]["setuptools"]["package-data"]["bot.images"]
    assert {"fonts/*.ttf", "fonts/*.txt"} <= set(shipped)
    font = typeset.devanagari_font(20)
    assert font.getname()[0] == "Noto Sans Devanagari"
    assert typeset.devanagari_font(20, bold=True).getname() == ("Noto Sans Devanagari", "Bold")


@pytest.mark.parametrize("bold", [False, True])
def test_every_hindi_caption_letter_is_a_real_glyph_of_the_bundled_font(bold: bool) -> None:
    """Each Devanagari character of the Hindi captions: the bundled font draws a glyph that is
    not its .notdef box, and the old Latin font could only have drawn tofu for it."""
    chars = devanagari_chars()
    assert len(chars) > 30  # the captions really are Devanagari
    deva = typeset.devanagari_font(24, bold)
    latin = ImageFont.load_default(size=24)
    deva_notdef = typeset.glyph_mask(deva, "\uffff")
    latin_notdef = typeset.glyph_mask(latin, "\uffff")
    drawn_marks = 0
    for ch in chars:
        if unicodedata.category(ch) == "Cf":  # a joiner draws nothing on its own
            continue
        mine = typeset.glyph_mask(deva, ch)
        assert mine != deva_notdef, f"{ch!r} ({unicodedata.name(ch)}) is tofu"
        assert typeset.glyph_mask(latin, ch) == latin_notdef, f"{ch!r} was not tofu before?"
        drawn_marks += bool(mine[1].strip(b"\0"))
    assert drawn_marks == len([c for c in chars if unicodedata.category(c) != "Cf"])


def test_a_hindi_label_is_drawn_in_the_bundled_font() -> None:
    """A caption wholly in Devanagari: its mask is the bundled font's drawing of it, and
    differs from what the Latin font alone would draw (a row of boxes)."""
    text = HI.part_unmatched  # बेमेल पत्ते
    assert typeset.runs(text) == ((text, True),)
    mask, _dx, _dy = typeset.mask(text, 18, 0, "la")
    direct = typeset.devanagari_font(18).getmask(text)
    assert mask.getbbox() is not None
    assert mask.size[0] >= direct.size[0] - 1  # the same ink, anchored
    latin = ImageFont.load_default(size=18)
    tofu = typeset.glyph_mask(latin, text)
    own = typeset.glyph_mask(typeset.devanagari_font(18), text)
    assert own != tofu


def test_mixed_text_is_cut_into_runs_by_script() -> None:
    text = HI.fill(HI.turn, name="Asha")  # "Asha की बारी"
    parts = typeset.runs(text)
    assert parts[0] == ("Asha ", False)
    assert all(deva for _p, deva in parts[1:])
    assert "".join(p for p, _d in parts) == text
    # "·" is not in the Devanagari font: it goes to the Latin one.
    plate = HI.fill(HI.title_deal, variant="Points", deal=1)  # "Points · बाज़ी 1"
    assert ("· ", False) in typeset.runs(plate) or any(
        "·" in p and not d for p, d in typeset.runs(plate)
    )
    assert typeset.runs("Deadwood 12") == (("Deadwood 12", False),)  # English: one font


def test_measuring_uses_the_font_that_draws() -> None:
    text = HI.by_suit
    width = text_width(text, 15)
    latin_guess = ImageFont.load_default(size=15).getlength(text)
    assert width == int(-(-typeset.length(text, 15, bold=True) // 1)) + 2
    assert abs(width - latin_guess) > 5  # the tofu widths would have been wrong
    for style in ("ink", "muted"):  # a label never draws wider than the layout measured
        mask, _dx, _dy = _text_mask(text, 15, style, "la", None)
        assert mask.size[0] <= width
    # English is measured exactly as before (the Latin font, the outline's 2 px).
    assert text_width("Unmatched", 15) == int(
        -(-ImageFont.load_default(size=15).getlength("Unmatched") // 1) + 2
    )


def test_cutting_never_leaves_a_dangling_vowel_sign() -> None:
    text = HI.discards  # फेंके गए पत्ते, नया दाईं ओर
    full = text_width(text, 15)
    cuts = set()
    for room in range(20, full, 3):
        cut = _fitted(text, 15, room)
        assert cut.endswith("...") and text_width(cut, 15) <= room, (room, cut)
        body = cut[:-3].rstrip()
        assert text.startswith(body)
        if body:
            after = text[len(body)]  # the first letter cut off starts a new letter
            assert unicodedata.category(after) not in ("Mn", "Mc") and body[-1] != "\u094d", cut
        cuts.add(cut)
    assert len(cuts) > 3
    assert _fitted(text, 15, full) == text
    assert typeset.drop_last_letter("पत्ते") == "प"  # त्ते is one letter
    assert typeset.drop_last_letter("नया") == "न"
    assert typeset.drop_last_letter("Asha") == "Ash"


@pytest.mark.skipif(not typeset.raqm(), reason="Pillow without Raqm here")
def test_devanagari_is_shaped() -> None:
    """With Raqm, a vowel sign written after its consonant is drawn before it (ि), so the
    shaped word differs from the letters laid out one after another."""
    basic = ImageFont.truetype(typeset.devanagari_path(), 30, layout_engine=ImageFont.Layout.BASIC)
    word = "किसी"
    assert typeset.glyph_mask(typeset.devanagari_font(30), word) != typeset.glyph_mask(basic, word)


def test_hindi_pictures_draw_without_english_captions() -> None:
    obs = samples.hand_states()["drawn"]
    scenes = {
        "hand": lambda w: hand_scene(obs, words=w),
        "hand by suit": lambda w: hand_scene(obs, None, True, words=w),
        "table": lambda w: table_scene(samples.table_view(6), words=w),
        "results": lambda w: results_scene(samples.finished_history(), words=w),
    }
    english = {w.lower() for t in caption_texts(EN) for w in re.findall(r"[A-Za-z]{3,}", t)}
    for name, make in scenes.items():
        hi, en = make(HI), make(EN)
        assert hi != en and hash(hi) != hash(en), name  # a cache keyed by the scene keys on it
        for label in hi.labels:
            assert not {w.lower() for w in re.findall(r"[A-Za-z]{3,}", label.text)} & english, (
                name,
                label.text,
            )
        assert any(typeset.has_devanagari(lb.text) for lb in hi.labels), name
        assert not any(typeset.has_devanagari(lb.text) for lb in en.labels), name


def test_hindi_pictures_keep_every_layout_promise() -> None:
    """The English layout checks, on Hindi pictures: every card once in the menu's order,
    readable on a phone, every caption given the room its measured text needs (so nothing is
    cut), inside the picture."""
    from tests.images.test_layout import (
        PHONE_HANDS,
        assert_labels_fit,
        assert_phone_sized,
        check_hand_scene,
        discard_states,
        with_hand,
    )

    states = samples.hand_states()
    hands = [*states.values(), *discard_states(6)]
    for codes in PHONE_HANDS.values():
        base = states["drawn"] if len(codes.split()) == 14 else states["to_draw"]
        hands.append(with_hand(base, codes))
    for obs in hands:
        for sort_by_suit in (False, True):
            scene = hand_scene(obs, sort_by_suit=sort_by_suit, words=HI)
            check_hand_scene(obs, scene, sort_by_suit)
            assert_phone_sized(scene)
            assert_labels_fit(scene)
    for seats in range(2, 7):
        scene = table_scene(samples.table_view(seats, seed=seats), words=HI)
        assert_phone_sized(scene)
        assert_labels_fit(scene)
    for seats in (2, 4, 6):
        assert_labels_fit(results_scene(samples.finished_history(seats, 3), words=HI))


def test_without_raqm_hindi_still_draws_in_the_bundled_font(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Pillow without Raqm (no FriBiDi on the machine): the basic layout, still the bundled
    font's glyphs (unshaped), never tofu and never an error."""
    from bot.images.paint import draw
    from bot.images.table import table_picture

    caches = (typeset.devanagari_font, typeset.length, typeset.runs, typeset._notdef)
    for cache in (*caches, typeset.covers, typeset._baseline_below, _text_mask, text_width):
        cache.cache_clear()
    monkeypatch.setattr(typeset, "raqm", lambda: False)
    try:
        font = typeset.devanagari_font(24)
        assert font.layout_engine == ImageFont.Layout.BASIC
        notdef = typeset.glyph_mask(font, "\uffff")
        for ch in devanagari_chars():
            if unicodedata.category(ch) != "Cf":
                assert typeset.glyph_mask(font, ch) != notdef, ch
        image = draw(table_picture(samples.table_view(4), words=HI))
        assert image.width > 0 and image.data
    finally:
        monkeypatch.undo()
        for cache in (*caches, typeset.covers, typeset._baseline_below, _text_mask, text_width):
            cache.cache_clear()
