"""Card art, drawn by the project itself: every face, the printed joker, the back, the marks.

Each sprite is drawn once per process (at 4x and scaled down, which gives smooth edges without
any anti-aliasing support in ImageDraw) and cached; images are then composed by pasting. The
font is Pillow's bundled scalable font (`ImageFont.load_default(size=...)`), so the art looks
the same on every machine. It has no suit symbols, so suits are drawn as shapes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.engine.cards import Face

from .layout import CARD_SIZES, rank_name

SS = 4  # supersampling factor for sprites

RED = (196, 28, 44)
BLACK = (22, 24, 30)
PAPER = (252, 251, 246)
EDGE = (150, 150, 140)
JOKER_INK = (108, 36, 150)
GOLD = (236, 176, 28)
BACK = (142, 26, 40)
BACK_LINE = (196, 82, 84)
TINT = {0: (226, 230, 240), 1: (250, 224, 222), 2: (250, 224, 222), 3: (226, 230, 240)}

Colour = tuple[int, int, int]


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at `size` px (cached: loading parses the font)."""
    return ImageFont.load_default(size=size)


def suit_colour(suit: int) -> Colour:
    return RED if suit in (1, 2) else BLACK


def draw_suit(
    d: ImageDraw.ImageDraw, suit: int, cx: float, cy: float, h: float, fill: Colour, flip: bool
) -> None:
    """A suit symbol `h` tall centred on (cx, cy); `flip` turns it upside down (lower pips)."""
    sy = -1.0 if flip else 1.0

    def p(u: float, v: float) -> tuple[float, float]:
        return (cx + u * h, cy + sy * v * h)

    def circle(u: float, v: float, r: float) -> None:
        x, y = p(u, v)
        d.ellipse((x - r * h, y - r * h, x + r * h, y + r * h), fill=fill)

    if suit == 2:  # diamond
        d.polygon([p(0, -0.5), p(0.38, 0), p(0, 0.5), p(-0.38, 0)], fill=fill)
    elif suit == 1:  # heart
        circle(-0.235, -0.2, 0.265)
        circle(0.235, -0.2, 0.265)
        d.polygon([p(-0.49, -0.12), p(0.49, -0.12), p(0, 0.5)], fill=fill)
    elif suit == 0:  # spade: an upside-down heart on a stem
        circle(-0.225, 0.1, 0.245)
        circle(0.225, 0.1, 0.245)
        d.polygon([p(-0.465, 0.03), p(0.465, 0.03), p(0, -0.5)], fill=fill)
        d.polygon([p(0, 0.12), p(-0.17, 0.5), p(0.17, 0.5)], fill=fill)
    else:  # club
        circle(0, -0.25, 0.215)
        circle(-0.24, 0.08, 0.215)
        circle(0.24, 0.08, 0.215)
        circle(0, 0.02, 0.12)
        d.polygon([p(0, 0.0), p(-0.16, 0.5), p(0.16, 0.5)], fill=fill)


def draw_star(
    d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour, outline: Colour | None
) -> None:
    """A five-pointed star (the wild mark and the joker's emblem)."""
    import math

    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=outline, width=max(1, round(r / 6)) if outline else 1)


# ---- card faces ---------------------------------------------------------------------------------

_PIP_COLS = {"L": 0.385, "M": 0.5, "R": 0.615}
_PIPS: dict[int, list[tuple[str, float]]] = {
    2: [("M", 0), ("M", 1)],
    3: [("M", 0), ("M", 0.5), ("M", 1)],
    4: [("L", 0), ("R", 0), ("L", 1), ("R", 1)],
    5: [("L", 0), ("R", 0), ("M", 0.5), ("L", 1), ("R", 1)],
    6: [(c, r) for r in (0, 0.5, 1) for c in "LR"],
    7: [*((c, r) for r in (0, 0.5, 1) for c in "LR"), ("M", 0.25)],
    8: [*((c, r) for r in (0, 0.5, 1) for c in "LR"), ("M", 0.25), ("M", 0.75)],
    9: [*((c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in "LR"), ("M", 0.5)],
    10: [*((c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in "LR"), ("M", 1 / 6), ("M", 5 / 6)],
}


def _blank(
    w: int, h: int, fill: Colour, outline: Colour
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1),
        radius=round(0.09 * w * SS),
        fill=fill,
        outline=outline,
        width=SS,
    )
    return im, d


def _index(face: Face, w: int) -> Image.Image:
    """The corner index (rank over suit) drawn once and pasted at both corners."""
    W = w * SS
    iw, ih = round(0.32 * W), round(0.62 * W)
    im = Image.new("RGBA", (iw, ih), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    cx = iw / 2
    if face.is_joker:
        size = round(0.125 * W)
        f = font(size)
        for i, ch in enumerate("JOKER"):
            d.text((cx, 0.03 * W + i * size * 0.92), ch, font=f, fill=JOKER_INK, anchor="ma",
                   stroke_width=round(0.006 * W), stroke_fill=JOKER_INK)  # fmt: skip
        return im
    colour = suit_colour(face.suit)
    text = rank_name(face.rank)
    size = round(0.30 * W) if len(text) == 1 else round(0.25 * W)
    d.text(
        (cx, 0.04 * W),
        text,
        font=font(size),
        fill=colour,
        anchor="ma",
        stroke_width=round(0.012 * W),
        stroke_fill=colour,
    )
    draw_suit(d, face.suit, cx, 0.47 * W, 0.2 * W, colour, False)
    return im


@lru_cache(maxsize=256)
def face_sprite(face: Face, size: str) -> Image.Image:
    """One card face at a named size (RGBA, rounded corners), drawn once per process."""
    w, h = CARD_SIZES[size]
    im, d = _blank(w, h, PAPER, EDGE)
    W, H = w * SS, h * SS
    index = _index(face, w)
    pad = round(0.03 * W)
    im.alpha_composite(index, (pad, round(0.03 * H)))
    im.alpha_composite(
        index.rotate(180), (W - index.width - pad, H - index.height - round(0.03 * H))
    )
    if face.is_joker:
        draw_star(d, W / 2, H * 0.42, 0.27 * W, GOLD, JOKER_INK)
        d.text(
            (W / 2, H * 0.64),
            "JOKER",
            font=font(round(0.15 * W)),
            fill=JOKER_INK,
            anchor="ma",
            stroke_width=round(0.008 * W),
            stroke_fill=JOKER_INK,
        )
    elif face.rank == 1:
        draw_suit(d, face.suit, W / 2, H / 2, 0.42 * W, suit_colour(face.suit), False)
    elif face.rank >= 11:
        colour = suit_colour(face.suit)
        fx0, fy0, fx1, fy1 = 0.3 * W, 0.13 * H, 0.7 * W, 0.87 * H
        d.rounded_rectangle(
            (fx0, fy0, fx1, fy1), radius=0.05 * W, fill=TINT[face.suit], outline=colour, width=SS
        )
        d.text(
            (W / 2, H / 2),
            rank_name(face.rank),
            font=font(round(0.36 * W)),
            fill=colour,
            anchor="mm",
            stroke_width=round(0.015 * W),
            stroke_fill=colour,
        )
        draw_suit(d, face.suit, W / 2, fy0 + 0.13 * W, 0.15 * W, colour, False)
        draw_suit(d, face.suit, W / 2, fy1 - 0.13 * W, 0.15 * W, colour, True)
    else:
        colour = suit_colour(face.suit)
        top, bottom = 0.23 * H, 0.77 * H
        for col, row in _PIPS[face.rank]:
            y = top + row * (bottom - top)
            draw_suit(d, face.suit, _PIP_COLS[col] * W, y, 0.15 * W, colour, row > 0.5)
    return im.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def back_sprite(size: str) -> Image.Image:
    """The card back: a maroon lattice inside a white border (no third-party art)."""
    w, h = CARD_SIZES[size]
    im, d = _blank(w, h, PAPER, EDGE)
    W, H = w * SS, h * SS
    m = round(0.08 * W)
    d.rounded_rectangle((m, m, W - m, H - m), radius=round(0.05 * W), fill=BACK)
    step = max(SS * 4, round(0.16 * W))
    lw = max(SS, round(0.015 * W))
    for k in range(-H, W + H, step):
        d.line((m + k, m, m + k + H, m + H), fill=BACK_LINE, width=lw)
        d.line((m + k, m, m + k - H, m + H), fill=BACK_LINE, width=lw)
    # Re-draw the border over the lattice ends so the pattern stays inside the frame.
    border = Image.new("L", (W, H), 0)
    bd = ImageDraw.Draw(border)
    bd.rounded_rectangle((m, m, W - m, H - m), radius=round(0.05 * W), fill=255)
    paper, _ = _blank(w, h, PAPER, EDGE)
    paper.paste(im, (0, 0), border)
    ImageDraw.Draw(paper).rounded_rectangle(
        (m, m, W - m, H - m), radius=round(0.05 * W), outline=(240, 200, 120), width=lw
    )
    return paper.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def shadow_mask(size: str) -> Image.Image:
    """A soft drop shadow (an L mask pasted in black under each card)."""
    w, h = CARD_SIZES[size]
    pad = 4
    m = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(m).rounded_rectangle(
        (pad, pad, pad + w - 1, pad + h - 1), radius=round(0.09 * w), fill=110
    )
    return m.filter(ImageFilter.GaussianBlur(2))


SHADOW_PAD = 4  # a card tile starts this far left/up of the card itself (room for the shadow)


@lru_cache(maxsize=256)
def card_tile(face: Face | None, size: str) -> Image.Image:
    """A face (or, for None, the back) on its drop shadow: one paste per card when composing."""
    w, h = CARD_SIZES[size]
    mask = shadow_mask(size)
    tile = Image.new("RGBA", (w + 2 * SHADOW_PAD, h + 2 * SHADOW_PAD), (0, 0, 0, 0))
    tile.putalpha(mask)  # black, soft: the shadow, shifted 2 px right and 4 down below
    card = back_sprite(size) if face is None else face_sprite(face, size)
    shifted = Image.new("RGBA", tile.size, (0, 0, 0, 0))
    shifted.paste(tile, (2, SHADOW_PAD))
    shifted.alpha_composite(card, (SHADOW_PAD, SHADOW_PAD))
    return shifted


@lru_cache(maxsize=32)
def fan_tile(count: int, size: str = "mini", step: int = 6) -> Image.Image:
    """`count` backs fanned left to right (a seat's hand on the table), composed once per count."""
    w, h = CARD_SIZES[size]
    back = card_tile(None, size)
    tile = Image.new("RGBA", (w + (count - 1) * step + 2 * SHADOW_PAD, h + 2 * SHADOW_PAD))
    for i in range(count):
        tile.alpha_composite(back, (i * step, 0))
    return tile


@lru_cache(maxsize=16)
def glow_sprite(size: str, colour: Colour) -> Image.Image:
    """A coloured halo behind a card: the just-drawn card (gold) or the taken card (red)."""
    w, h = CARD_SIZES[size]
    pad = 7
    im = Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (*colour, 0))
    mask = Image.new("L", im.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (2, 2, w + 2 * pad - 3, h + 2 * pad - 3), radius=round(0.12 * w) + 4, fill=255
    )
    im.putalpha(mask.filter(ImageFilter.GaussianBlur(1.5)))
    return im


@lru_cache(maxsize=16)
def badge(kind: str, px: int) -> Image.Image:
    """Small round marks pasted on a card's visible left strip: `wild` (gold star) and
    `blocked` (red no-entry sign: this card may not be discarded this turn)."""
    S = px * SS
    im = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    if kind == "wild":
        d.ellipse((0, 0, S - 1, S - 1), fill=(40, 30, 10))
        draw_star(d, S / 2, S / 2 + S * 0.03, S * 0.44, GOLD, None)
    else:
        d.ellipse((0, 0, S - 1, S - 1), fill=RED, outline=(255, 255, 255), width=SS * 2)
        d.rectangle((S * 0.22, S * 0.42, S * 0.78, S * 0.58), fill=(255, 255, 255))
    return im.resize((px, px), Image.Resampling.LANCZOS)


def all_sprites() -> list[Face]:
    """Every face the art covers (used by the gallery sheet and warm-up)."""
    return [*(Face(r, s) for s in (0, 1, 3, 2) for r in range(1, 14)), Face(0, -1)]


def warm_up() -> None:
    """Draw every sprite now (e.g. at bot start) so the first hand view is not the slow one."""
    for size in ("large", "small"):
        for f in all_sprites():
            face_sprite(f, size)
        back_sprite(size)
        shadow_mask(size)
    for f in all_sprites():
        card_tile(f, "large")
        card_tile(f, "small")
    for size in ("large", "small", "mini"):
        card_tile(None, size)
    for n in range(1, 15):
        fan_tile(n)
