"""Turning a `Scene` into an image file: paste cached sprites, write text, encode.

Only geometry-free decisions live here (colours, fonts, the felt), so whatever the layout
tests check is what gets drawn. Encoding is fixed (no timestamps, no metadata, fixed
quantisation and compression), so the same scene always gives the same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw

from . import png, sprites, typeset
from .captions import Captions
from .layout import Box, Disc, Fan, Label, PlacedCard, Scene, badge_box, disc_text_size

FELT = (24, 96, 60)
FELT_DARK = (18, 76, 47)

STYLES: dict[str, tuple[tuple[int, int, int], bool]] = {
    # name: (colour, bold)
    "ink": ((240, 244, 238), True),
    "muted": ((190, 212, 196), False),
    "gold": ((250, 204, 80), True),
    "red": ((255, 150, 140), True),
    "name": ((255, 255, 255), True),
    "kind_pure": ((250, 214, 110), True),
    "kind_impure": ((170, 236, 180), True),
    "kind_set": ((160, 206, 255), True),
    "kind_unmatched": ((236, 186, 176), True),
    "kind_wild": ((250, 214, 110), True),
    "kind_pairs": ((160, 206, 255), True),
    "kind_near_runs": ((170, 236, 180), True),
    "kind_nothing": ((236, 186, 176), True),
    "kind_suit": ((240, 244, 238), True),
    "tag_drawn": ((250, 204, 80), True),
    "tag_taken": ((255, 140, 130), True),
    "tag_suggested": ((220, 226, 220), False),
}
BOX_FILL: dict[str, tuple[tuple[int, int, int], tuple[int, int, int] | None]] = {
    "group": (FELT_DARK, None),
    "plate": ((20, 40, 32), (70, 120, 90)),
    "plate_turn": ((40, 46, 24), sprites.GOLD),
    "plate_out": ((44, 48, 46), (80, 84, 82)),
    "slot": (FELT_DARK, (60, 130, 90)),
    "pile_top": (FELT_DARK, sprites.GOLD),
    "pile_taken": (FELT_DARK, (255, 140, 130)),
    "row": (FELT_DARK, None),
    "row_win": ((34, 70, 40), sprites.GOLD),
}
DISC_FILL = {"dealer": (245, 245, 240), "turn": sprites.GOLD, "winner": sprites.GOLD}


@dataclass(frozen=True, slots=True)
class RenderedImage:
    """An encoded image ready to attach: bytes, a filename whose extension matches, size."""

    data: bytes
    filename: str
    width: int
    height: int

    @property
    def format(self) -> str:
        return self.filename.rsplit(".", 1)[-1]


@lru_cache(maxsize=16)
def _background(kind: str, width: int, height: int) -> Image.Image:
    """The felt (cached per size; copied, never drawn on)."""
    im = Image.new("RGB", (width, height), FELT)
    ImageDraw.Draw(im).rectangle((0, 0, width - 1, height - 1), outline=FELT_DARK, width=3)
    return im


def _fit(text: str, size: int, bold: bool, max_width: int | None) -> str:
    """`text`, cut with "..." where it is wider than `max_width` (measured in the fonts it is
    drawn with, outline included)."""
    if max_width is None:
        return text
    stroke = 1 if bold and size >= 14 else 0
    return typeset.shorten(text, size, max_width, extra=2 * stroke, bold=bold)


def _box(d: ImageDraw.ImageDraw, b: Box) -> None:
    fill, outline = BOX_FILL[b.style]
    d.rounded_rectangle(
        (b.x0, b.y0, b.x1, b.y1), radius=b.radius, fill=fill, outline=outline, width=2
    )


def _disc(d: ImageDraw.ImageDraw, c: Disc) -> None:
    fill = DISC_FILL[c.style]
    d.ellipse((c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r), fill=fill, outline=(20, 20, 20))
    if c.text and not typeset.has_devanagari(c.text):
        f = typeset.latin_font(disc_text_size(c.text, c.r))
        d.text((c.x, c.y + 1), c.text, font=f, fill=(20, 20, 20), anchor="mm", stroke_width=1,
               stroke_fill=(20, 20, 20))  # fmt: skip
    elif c.text:
        mask, dx, dy = _disc_mask(c.text, c.r)
        d.bitmap((c.x + dx, c.y + 1 + dy), mask, fill=(20, 20, 20))


@lru_cache(maxsize=64)
def _disc_mask(text: str, r: int) -> tuple[Image.Image, int, int]:
    """A disc's Devanagari word, in the bold face as large as fits the disc (cached: every
    table has a dealer's button, every result a winner's)."""
    return typeset.mask(text, disc_text_size(text, r), 0, "mm", bold=True)


def _card(im: Image.Image, pc: PlacedCard) -> None:
    if pc.drawn or pc.taken:
        glow = sprites.glow_sprite(pc.size, sprites.RED if pc.taken else sprites.GOLD)
        im.paste(glow, (pc.x - 7, pc.y - 7), glow)
    tile = sprites.card_tile(pc.face, pc.size)
    pad = sprites.SHADOW_PAD
    im.paste(tile, (pc.x - pad, pc.y - pad), tile)
    # Marks go on the left strip, under the index, which stays visible when the next card
    # overlaps this one (`layout.badge_box`).
    if pc.wild:
        r = badge_box(pc.size, 0)
        star = sprites.badge("wild", round(r.x1 - r.x0))
        im.paste(star, (pc.x + round(r.x0), pc.y + round(r.y0)), star)
    if pc.taken:
        r = badge_box(pc.size, 1)
        stop = sprites.badge("blocked", round(r.x1 - r.x0))
        im.paste(stop, (pc.x + round(r.x0), pc.y + round(r.y0)), stop)


def _fan(im: Image.Image, fan: Fan) -> None:
    tile = sprites.fan_tile(fan.count, fan.size, fan.step)
    pad = sprites.SHADOW_PAD
    im.paste(tile, (fan.x - pad, fan.y - pad), tile)


@lru_cache(maxsize=2048)
def _text_mask(
    text: str, size: int, style: str, anchor: str, max_width: int | None
) -> tuple[Image.Image, int, int]:
    """A label rendered once as a mask (plus its offset from the anchor point): tables and
    hands repeat the same few texts, and FreeType with a stroke costs more than a paste."""
    _colour, bold = STYLES[style]
    stroke = 1 if bold and size >= 14 else 0
    return typeset.mask(_fit(text, size, bold, max_width), size, stroke, anchor, bold)


def _label(im: Image.Image, lb: Label) -> None:
    mask, dx, dy = _text_mask(lb.text, lb.size, lb.style, lb.anchor, lb.max_width)
    im.paste(STYLES[lb.style][0], (lb.x + dx, lb.y + dy), mask)


def paint(scene: Scene) -> Image.Image:
    """Compose a scene onto its background: boxes, discs, cards (in order), then labels."""
    im = _background(scene.background, scene.width, scene.height).copy()
    d = ImageDraw.Draw(im)
    for b in scene.boxes:
        _box(d, b)
    for c in scene.discs:
        _disc(d, c)
    for fan in scene.fans:
        _fan(im, fan)
    for pc in scene.cards:
        _card(im, pc)
    for lb in scene.labels:
        _label(im, lb)
    return im


PALETTE_FILE = "palette.hex"


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The one 256-colour palette every PNG is mapped to (`palette.hex`, made by
    `learn_palette` and written by `python -m bot.words.pictures palette`).

    Why fixed rather than per image: finding a palette for each image (octree) cost more than
    drawing it, and under load drawing is the bot's biggest CPU cost. Why shipped rather than
    learnt at start: learning it draws every sample scene (~1 s), which every start of the
    drawing process would pay. The art is a closed set (felt, card faces, badges, a few text
    colours), so nearest-colour mapping onto it loses nothing a player can see; a test checks
    that it still fits the art as drawn now."""
    text = resources.files(__package__).joinpath(PALETTE_FILE).read_text()
    colours = [bytes.fromhex(line.strip()) for line in text.splitlines() if line.strip()]
    im = Image.new("P", (1, 1))
    im.putpalette(b"".join(colours) + bytes(3 * (256 - len(colours))))
    return im


def learn_palette(words: Captions) -> list[tuple[int, int, int]]:
    """Learn the palette from the art itself: every card tile on the felt plus one sample of
    each scene (for text edges, boxes and discs; captioned in `words`), reduced to 256
    colours."""
    from . import samples
    from .layout import hand_scene, results_scene, table_scene

    scenes = [
        paint(hand_scene(samples.hand_states()["to_draw"], None, False, words=words)),
        paint(hand_scene(samples.hand_states()["drawn"], None, True, words=words)),
        paint(table_scene(samples.table_view(6), words=words)),
        paint(results_scene(samples.finished_history(), words=words)),
    ]
    faces = sprites.all_sprites()
    tiles = [sprites.card_tile(f, size) for size in ("large", "small") for f in faces]
    tiles += [sprites.card_tile(None, size) for size in ("large", "small", "mini")]
    tiles += [sprites.fan_tile(n) for n in range(1, 15)]
    per_row = 14
    tile_w = max(t.width for t in tiles)
    tile_h = max(t.height for t in tiles)
    rows = -(-len(tiles) // per_row)
    width = max(per_row * tile_w, *(im.width for im in scenes))
    height = rows * tile_h + sum(im.height for im in scenes)
    sheet = Image.new("RGB", (width, height), FELT)
    for i, tile in enumerate(tiles):
        at = ((i % per_row) * tile_w, (i // per_row) * tile_h)
        sheet.paste(tile, at, tile if tile.mode == "RGBA" else None)
    y = rows * tile_h
    for im in scenes:
        sheet.paste(im, (0, y))
        y += im.height
    learnt = sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = learnt.getpalette() or []
    return [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]


def palette_text(colours: list[tuple[int, int, int]]) -> str:
    """The palette file's contents: one `rrggbb` a line."""
    return "".join(f"{r:02x}{g:02x}{b:02x}\n" for r, g, b in colours)


@dataclass(frozen=True, slots=True)
class Picture:
    """What to draw and what to call its file. Laying a scene out is cheap and needs the game's
    objects; painting and encoding it is the expensive part and needs only this plain data, so
    it can happen elsewhere (the bot draws in a separate process: `draw` is all it runs)."""

    scene: Scene
    name: str

    def __reduce__(self) -> tuple[type[Picture], tuple[Scene, str]]:
        """Crossing to the drawing process, a picture leaves its scene's `sections` behind:
        they name the engine's cards for tests and alt text, and the painter never reads
        them (pickling the engine's cards was half the cost of sending a hand)."""
        return Picture, (replace(self.scene, sections=()), self.name)


def draw(picture: Picture, fmt: str = "png") -> RenderedImage:
    """Paint and encode a laid-out picture."""
    return encode(paint(picture.scene), picture.name, fmt)


def encode(im: Image.Image, name: str, fmt: str = "png") -> RenderedImage:
    """Fixed encoder settings, so equal scenes give equal bytes.

    PNG: mapped to the fixed art palette (`palette`; flat colour, so nothing a player can
    see is lost, and size and encode time fall several-fold), written by `png.palette_png`
    (ISA-L's deflate: a fifth to an eighth of zlib's time, at zlib level 3's size). WebP:
    lossless, fastest method; on this flat art it is larger and slower than the palette PNG,
    so PNG is the default."""
    if fmt == "png":
        data = png.palette_png(im.quantize(palette=palette(), dither=Image.Dither.NONE))
    elif fmt == "webp":
        buf = io.BytesIO()
        im.save(buf, "WEBP", lossless=True, quality=50, method=0, exact=False)
        data = buf.getvalue()
    else:
        raise ValueError(f"unknown image format {fmt!r}")
    return RenderedImage(data, f"{name}.{fmt}", im.width, im.height)
