"""Fonts and text for the pictures: Latin in Pillow's bundled font, Devanagari in the bundled
Noto Sans Devanagari (`fonts/`), measured and drawn the same way.

Why two fonts: Pillow's bundled font (the one the card art and every English caption use)
has no Devanagari, and the Devanagari font has no Latin letters. A Hindi caption still holds
Latin text (a player's name, a rank such as `K`, the `·` separator), so a caption is cut into
runs by script and each run is drawn in the font that has its glyphs, on one baseline. Text
without Devanagari takes the old path unchanged (one font, Pillow's own anchoring), so the
English pictures are the same pixels as before.

Devanagari needs shaping (a vowel sign before its consonant, conjuncts, the headline joined
across letters): Pillow's Raqm layout does that when it is available (it needs FriBiDi at
run time). Without it the font is used with Pillow's basic layout, which draws every letter
(no tofu) but places some vowel signs as written rather than as read.

Everything here is cached: measuring is called for every label of every picture, and the
same few captions repeat.
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image
    from PIL.ImageFont import FreeTypeFont, ImageFont

DEVANAGARI_FILE = "NotoSansDevanagari-Regular.ttf"
DEVANAGARI_BOLD_FILE = "NotoSansDevanagari-Bold.ttf"
#: Unicode blocks drawn with the Devanagari font (Devanagari, its Extended blocks, Vedic
#: extensions); the zero-width (non-)joiners shape Devanagari clusters, so they go with it.
_DEVANAGARI_RANGES = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF), (0x11B00, 0x11B5F))
_JOINERS = frozenset("\u200c\u200d")
_VIRAMA = "\u094d"
_PROBE_SIZE = 24  # glyph coverage is checked once per character at this size


def is_devanagari(ch: str) -> bool:
    """Whether `ch` belongs to a Devanagari block (or is a joiner used inside a cluster)."""
    if ch in _JOINERS:
        return True
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _DEVANAGARI_RANGES)


def has_devanagari(text: str) -> bool:
    """Whether `text` needs the Devanagari font at all (ASCII never does: the fast path)."""
    return not text.isascii() and any(is_devanagari(ch) for ch in text)


def raqm() -> bool:
    """Whether Pillow can shape complex scripts here (Raqm with its FriBiDi)."""
    from PIL import features

    return bool(features.check("raqm"))


@lru_cache(maxsize=64)
def latin_font(size: int) -> FreeTypeFont | ImageFont:
    """Pillow's bundled scalable font at `size` px: the card art's and every Latin caption's."""
    from PIL import ImageFont as _ImageFont

    return _ImageFont.load_default(size=size)


def devanagari_path(bold: bool = False) -> str:
    """A bundled Devanagari font file (see `fonts/README.md`)."""
    name = DEVANAGARI_BOLD_FILE if bold else DEVANAGARI_FILE
    return str(resources.files(__package__).joinpath("fonts", name))


@lru_cache(maxsize=64)
def devanagari_font(size: int, bold: bool = False) -> FreeTypeFont:
    """Noto Sans Devanagari at `size` px, shaped by Raqm where Pillow has it.

    Bold captions take the bold face: the 1 px outline that makes Latin captions bold fills
    the small loops of Devanagari letters at caption sizes."""
    from PIL import ImageFont as _ImageFont

    engine = _ImageFont.Layout.RAQM if raqm() else _ImageFont.Layout.BASIC
    return _ImageFont.truetype(devanagari_path(bold), size, layout_engine=engine)


def glyph_mask(f: FreeTypeFont | ImageFont, text: str) -> tuple[tuple[int, int], bytes]:
    """`text` as `f` draws it, as comparable data (size and pixels): how a test (and the
    coverage check) tells a real glyph from the font's .notdef box."""
    from PIL import Image as _Image

    m = f.getmask(text)
    size = (int(m.size[0]), int(m.size[1]))
    if size[0] == 0 or size[1] == 0:
        return size, b""
    return size, _Image.frombytes("L", size, bytes(m)).tobytes()


@lru_cache(maxsize=8)
def _notdef(which: str) -> tuple[tuple[int, int], bytes]:
    """What the font draws for a character it lacks (U+FFFF is never in a font)."""
    return glyph_mask(_probe_font(which), "\uffff")


def _probe_font(which: str) -> FreeTypeFont | ImageFont:
    return devanagari_font(_PROBE_SIZE) if which == "deva" else latin_font(_PROBE_SIZE)


@lru_cache(maxsize=1024)
def covers(which: str, ch: str) -> bool:
    """Whether the font `which` ("deva" or "latin") has a glyph for `ch` (a space or a
    zero-width character draws nothing, which is not the .notdef box either)."""
    return glyph_mask(_probe_font(which), ch) != _notdef(which)


@lru_cache(maxsize=2048)
def runs(text: str) -> tuple[tuple[str, bool], ...]:
    """`text` cut into runs, each (piece, drawn in the Devanagari font?).

    Devanagari letters go to the Devanagari font, characters it lacks (Latin letters, `·`,
    symbols) to the Latin font, and characters both fonts have (spaces, digits, most
    punctuation) stay with the run they are in, so a run changes font only where it must."""
    if not has_devanagari(text):
        return ((text, False),)
    kinds: list[bool | None] = []
    for ch in text:
        if is_devanagari(ch):
            kinds.append(True)
        elif not covers("deva", ch):
            kinds.append(False)
        else:
            kinds.append(None)  # either font has it
    # A neutral character joins the run before it; at the start, the first run after it.
    first = next((k for k in kinds if k is not None), True)
    out: list[tuple[str, bool]] = []
    current = first
    piece = ""
    for ch, kind in zip(text, kinds, strict=True):
        if kind is not None and kind != current and piece:
            out.append((piece, current))
            piece = ""
        if kind is not None:
            current = kind
        piece += ch
    if piece:
        out.append((piece, current))
    return tuple(out)


def font_of(deva: bool, size: int, bold: bool = False) -> FreeTypeFont | ImageFont:
    """The font a run is drawn in (a bold Latin run is the regular font with an outline)."""
    return devanagari_font(size, bold) if deva else latin_font(size)


@lru_cache(maxsize=8192)
def length(text: str, size: int, bold: bool = False) -> float:
    """How far `text` advances at `size` px, each run in its own font (`bold`: Devanagari
    runs in the bold face, which advances further)."""
    if not has_devanagari(text):  # the common case, one font: no runs to build
        return float(latin_font(size).getlength(text))
    return sum(font_of(deva, size, bold).getlength(piece) for piece, deva in runs(text))


def _joined(ch: str) -> bool:
    """Whether `ch` belongs to the letter before it (a vowel sign, a nasal mark, a virama, a
    joiner)."""
    return ch == _VIRAMA or ch in _JOINERS or unicodedata.category(ch) in ("Mn", "Mc", "Me")


def drop_last_letter(text: str) -> str:
    """`text` without its last letter as a reader sees it: a Devanagari consonant goes with
    its vowel signs and with the consonants joined to it by a virama (त्ते is one letter),
    so a cut word never ends in a mark with nothing to sit on, nor changes its last vowel."""
    i = len(text) - 1
    while i > 0 and (_joined(text[i]) or text[i - 1] == _VIRAMA or text[i - 1] in _JOINERS):
        i -= 1
    return text[: max(i, 0)]


def shorten(text: str, size: int, room: float, extra: float = 0, bold: bool = False) -> str:
    """`text`, or it cut and ended with "..." so that its length plus `extra` fits `room`.
    Cuts fall between letters, never inside a Devanagari cluster's marks."""
    if length(text, size, bold) + extra <= room:
        return text
    while text and length(text + "...", size, bold) + extra > room:
        text = drop_last_letter(text)
    return text.rstrip() + "..."


@lru_cache(maxsize=64)
def _baseline_below(size: int, anchor: str, bold: bool) -> int:
    """How far the baseline lies below a point anchored with `anchor`'s vertical part, in
    the Devanagari font (the one mixed text is anchored by)."""
    f = devanagari_font(size, bold)
    vertical = anchor[1] if len(anchor) > 1 else "a"
    return int(f.getbbox("क", anchor="l" + vertical)[1] - f.getbbox("क", anchor="ls")[1])


def mask(
    text: str, size: int, stroke: int, anchor: str, bold: bool = False
) -> tuple[Image.Image, int, int]:
    """`text` drawn as an 8-bit mask, with the offset of its top-left from the anchor point.
    Bold: Latin runs get the `stroke` outline, Devanagari runs the bold face and none.

    One font: Pillow's own anchoring (the path every English caption takes). Several runs:
    each run drawn on one baseline in its font, the whole anchored by the Devanagari font's
    metrics and the summed advance."""
    from PIL import Image as _Image
    from PIL import ImageDraw

    parts = ((text, False),) if text.isascii() else runs(text)
    if len(parts) == 1:
        f = font_of(parts[0][1], size, bold)
        if parts[0][1] and bold:
            stroke = 0
        left, top, right, bottom = (
            int(v) for v in f.getbbox(text, stroke_width=stroke, anchor=anchor)
        )
        im = _Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(im).text(
            (-left, -top), text, font=f, fill=255, anchor=anchor, stroke_width=stroke,
            stroke_fill=255,
        )  # fmt: skip
        return im, left, top
    total = length(text, size, bold)
    x0 = {"l": 0.0, "m": -total / 2, "r": -total}.get(anchor[0], 0.0)
    base = _baseline_below(size, anchor, bold)
    placed = []
    x = x0
    for piece, deva in parts:
        f = font_of(deva, size, bold)
        width = 0 if deva and bold else stroke
        bl, bt, br, bb = f.getbbox(piece, stroke_width=width, anchor="ls")
        placed.append((piece, f, x, width, (x + bl, base + bt, x + br, base + bb)))
        x += f.getlength(piece)
    left = math.floor(min(p[4][0] for p in placed))
    top = math.floor(min(p[4][1] for p in placed))
    right = math.ceil(max(p[4][2] for p in placed))
    bottom = math.ceil(max(p[4][3] for p in placed))
    im = _Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    d = ImageDraw.Draw(im)
    for piece, f, px, width, _box in placed:
        d.text((px - left, base - top), piece, font=f, fill=255, anchor="ls",
               stroke_width=width, stroke_fill=255)  # fmt: skip
    return im, left, top
