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

An AI seat's name carries its mark, 🤖 (the table layer names AI seats "🤖 Hard"), and neither
font has it: dropped, the pictures lost the mark the text keeps. So the typesetter draws it
itself (`ROBOT`, `robot_glyph`): a robot's head as tall as a capital, in the label's colour,
measured like any other character.

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
#: An AI seat's mark, drawn by `robot_glyph` (no font here has it).
ROBOT = "\N{ROBOT FACE}"
_ROBOT_W, _ROBOT_H, _ROBOT_SIDE = 0.8, 0.74, 0.06  # the glyph and its bearings, in ems


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


@lru_cache(maxsize=2048)
def pieces(text: str) -> tuple[tuple[str, str], ...]:
    """`text` as it is drawn: each (piece, how): "latin" or "deva" (a run of `runs`, drawn in
    that font) or "robot" (one `ROBOT`, drawn by `robot_glyph`)."""
    if ROBOT not in text:
        return tuple((p, "deva" if d else "latin") for p, d in runs(text))
    out: list[tuple[str, str]] = []
    for i, part in enumerate(text.split(ROBOT)):
        if i:
            out.append((ROBOT, "robot"))
        if part:
            out.extend((p, "deva" if d else "latin") for p, d in runs(part))
    return tuple(out)


def robot_advance(size: int) -> float:
    """How far the robot mark advances at `size` px."""
    return (_ROBOT_W + 2 * _ROBOT_SIDE) * size


@lru_cache(maxsize=64)
def robot_glyph(size: int) -> Image.Image:
    """The robot mark at `size` px, as an 8-bit mask: a head with an antenna, two eyes and a
    mouth, ears at its sides, standing on the baseline as tall as a capital letter. Drawn at
    four times the size and scaled down (smooth edges), once per size."""
    from PIL import Image as _Image
    from PIL import ImageDraw

    ss = 4
    w, h = max(4, round(_ROBOT_W * size)), max(4, round(_ROBOT_H * size))
    W, H = w * ss, h * ss
    im = _Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(im)
    r = 0.1 * W
    d.ellipse((W / 2 - r, 0, W / 2 + r, 2 * r), fill=255)  # the antenna's ball
    d.rectangle((W / 2 - 0.035 * W, r, W / 2 + 0.035 * W, 0.34 * H), fill=255)
    d.rectangle((0, 0.52 * H, 0.12 * W, 0.8 * H), fill=255)  # ears
    d.rectangle((0.88 * W, 0.52 * H, W, 0.8 * H), fill=255)
    d.rounded_rectangle((0.08 * W, 0.3 * H, 0.92 * W, H - 1), radius=0.16 * W, fill=255)
    e = 0.1 * W
    for cx in (0.33 * W, 0.67 * W):  # the eyes and the mouth are cut out
        d.ellipse((cx - e, 0.56 * H - e, cx + e, 0.56 * H + e), fill=0)
    d.rectangle((0.3 * W, 0.8 * H, 0.7 * W, 0.88 * H), fill=0)
    return im.resize((w, h), _Image.Resampling.LANCZOS)


def font_of(deva: bool, size: int, bold: bool = False) -> FreeTypeFont | ImageFont:
    """The font a run is drawn in (a bold Latin run is the regular font with an outline)."""
    return devanagari_font(size, bold) if deva else latin_font(size)


@lru_cache(maxsize=8192)
def length(text: str, size: int, bold: bool = False) -> float:
    """How far `text` advances at `size` px, each run in its own font (`bold`: Devanagari
    runs in the bold face, which advances further)."""
    if text.isascii() or not (ROBOT in text or has_devanagari(text)):
        return float(latin_font(size).getlength(text))  # the common case, one font
    return sum(
        robot_advance(size)
        if how == "robot"
        else font_of(how == "deva", size, bold).getlength(piece)
        for piece, how in pieces(text)
    )


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
def _baseline_below(size: int, anchor: str, bold: bool, deva: bool = True) -> int:
    """How far the baseline lies below a point anchored with `anchor`'s vertical part, in
    the Devanagari font (the one mixed text is anchored by), or in the Latin font for Latin
    text with a robot mark (anchored as the same text without it)."""
    f = devanagari_font(size, bold) if deva else latin_font(size)
    probe = "क" if deva else "H"
    vertical = anchor[1] if len(anchor) > 1 else "a"
    return int(f.getbbox(probe, anchor="l" + vertical)[1] - f.getbbox(probe, anchor="ls")[1])


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

    parts = ((text, "latin"),) if text.isascii() else pieces(text)
    if len(parts) == 1 and parts[0][1] != "robot":
        deva = parts[0][1] == "deva"
        f = font_of(deva, size, bold)
        if deva and bold:
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
    base = _baseline_below(size, anchor, bold, any(how == "deva" for _p, how in parts))
    placed: list[tuple[str, FreeTypeFont | ImageFont | None, float, int, tuple[float, ...]]] = []
    x = x0
    for piece, how in parts:
        if how == "robot":
            glyph = robot_glyph(size)
            gx = x + _ROBOT_SIDE * size
            placed.append((piece, None, gx, 0, (gx, base - glyph.height, gx + glyph.width, base)))
            x += robot_advance(size)
            continue
        f = font_of(how == "deva", size, bold)
        width = 0 if how == "deva" and bold else stroke
        bl, bt, br, bb = f.getbbox(piece, stroke_width=width, anchor="ls")
        placed.append((piece, f, x, width, (x + bl, base + bt, x + br, base + bb)))
        x += f.getlength(piece)
    left = math.floor(min(p[4][0] for p in placed))
    top = math.floor(min(p[4][1] for p in placed))
    right = math.ceil(max(p[4][2] for p in placed))
    bottom = math.ceil(max(p[4][3] for p in placed))
    im = _Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    d = ImageDraw.Draw(im)
    for piece, drawn_in, px, width, box in placed:
        if drawn_in is None:  # the robot mark
            im.paste(255, (round(px - left), round(box[1] - top)), robot_glyph(size))
            continue
        d.text((px - left, base - top), piece, font=drawn_in, fill=255, anchor="ls",
               stroke_width=width, stroke_fill=255)  # fmt: skip
    return im, left, top
