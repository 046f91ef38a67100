"""Card art, drawn by the project itself: every face, the printed joker, the back, the marks.

Each sprite is drawn once per process (at 4x and scaled down, which gives smooth edges without
any anti-aliasing support in ImageDraw) and cached; images are then composed by pasting. The
font is Pillow's bundled scalable font (`ImageFont.load_default(size=...)`), so the art looks
the same on every machine. It has no suit symbols, so suits are drawn as shapes. Where the
index, the pips and the court panel go is computed in `layout.py` (and tested there); this
module only draws at those places. The court figures (a king's crown, a queen's tiara, a
jack's feathered cap over a bust) are drawn here with Pillow's shapes, no outside art.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.engine.cards import Face

from .layout import (
    CARD_SIZES,
    FACE_SS,
    Rect,
    court_panel,
    font,
    index_geometry,
    pip_boxes,
)

SS = FACE_SS  # supersampling factor for sprites

RED = (196, 28, 44)
BLACK = (22, 24, 30)
PAPER = (252, 251, 246)
EDGE = (150, 150, 140)
JOKER_INK = (108, 36, 150)
GOLD = (236, 176, 28)
GOLD_DARK = (176, 120, 40)
BACK = (142, 26, 40)
BACK_LINE = (196, 82, 84)
TINT = {0: (226, 230, 240), 1: (250, 224, 222), 2: (250, 224, 222), 3: (226, 230, 240)}

Colour = tuple[int, int, int]


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
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=outline, width=max(1, round(r / 6)) if outline else 1)


# ---- card faces ---------------------------------------------------------------------------------


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


def _scaled(r: Rect) -> tuple[float, float, float, float]:
    return (r.x0 * SS, r.y0 * SS, r.x1 * SS, r.y1 * SS)


def _index_layer(face: Face, size: str) -> Image.Image:
    """The upper-left index on a transparent card-sized layer (turned half a circle, the
    same layer is the lower-right index). Rank and suit sit where `index_geometry` says."""
    w, h = CARD_SIZES[size]
    layer = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    g = index_geometry(face.rank if not face.is_joker else 0, size)
    if face.is_joker:
        r = g.rank
        draw_star(d, (r.x0 + r.x1) / 2 * SS, (r.y0 + r.y1) / 2 * SS, (r.x1 - r.x0) / 2 * SS,
                  JOKER_INK, None)  # fmt: skip
        return layer
    colour = suit_colour(face.suit)
    f = font(g.rank_size)
    stroke = round(0.012 * w * SS)
    left, top, right, bottom = (int(v) for v in f.getbbox(g.text, anchor="ls", stroke_width=stroke))
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), g.text, font=f, fill=255, anchor="ls",
                              stroke_width=stroke, stroke_fill=255)  # fmt: skip
    drawn = round((g.rank.x1 - g.rank.x0) * SS)
    if drawn < mask.width:  # "10": condensed, as printed cards do, to keep the index short
        mask = mask.resize((drawn, mask.height), Image.Resampling.LANCZOS)
    layer.paste(colour, (round(g.rank.x0 * SS), round(g.baseline * SS + top)), mask)
    sx0, sy0, sx1, sy1 = _scaled(g.suit)
    draw_suit(d, face.suit, (sx0 + sx1) / 2, (sy0 + sy1) / 2, sy1 - sy0, colour, False)
    return layer


def _court(d: ImageDraw.ImageDraw, face: Face, size: str) -> None:
    """A court card's figure in its panel: a bust in the suit's colour, the suit on its chest,
    and the headgear that names it (king: a crown; queen: a tiara and long hair; jack: a cap
    with a feather). Simple shapes, so it stays clean at every size."""
    colour = suit_colour(face.suit)
    x0, y0, x1, y1 = _scaled(court_panel(size))
    pw, ph = x1 - x0, y1 - y0
    lw = max(SS, round(0.012 * pw * 3))
    d.rounded_rectangle((x0, y0, x1, y1), radius=0.1 * pw, fill=TINT[face.suit], outline=colour,
                        width=lw)  # fmt: skip
    cx = (x0 + x1) / 2
    skin = (250, 236, 214)
    ink = (60, 40, 30)
    head_r = 0.16 * pw
    head_y = y0 + 0.45 * ph
    if face.rank == 12:  # the queen's hair, behind head and shoulders
        d.rounded_rectangle((cx - 1.45 * head_r, head_y - 1.05 * head_r, cx + 1.45 * head_r,
                             head_y + 1.9 * head_r), radius=head_r, fill=colour)  # fmt: skip
    # Shoulders and robe, cut off by the panel's lower edge.
    body_top = head_y + 0.9 * head_r
    d.rounded_rectangle((x0 + 0.14 * pw, body_top, x1 - 0.14 * pw, y1 - lw), radius=0.22 * pw,
                        fill=colour)  # fmt: skip
    d.rectangle((x0 + 0.14 * pw, (body_top + y1) / 2, x1 - 0.14 * pw, y1 - lw), fill=colour)
    d.polygon([(cx - 0.12 * pw, body_top), (cx + 0.12 * pw, body_top), (cx, body_top + 0.16 * ph)],
              fill=PAPER)  # fmt: skip
    draw_suit(d, face.suit, cx, body_top + 0.3 * ph, 0.16 * ph, PAPER, False)
    # The head.
    d.ellipse((cx - head_r, head_y - head_r, cx + head_r, head_y + head_r), fill=skin,
              outline=ink, width=max(1, lw // 2))  # fmt: skip
    eye = 0.38 * head_r
    for ex in (cx - eye, cx + eye):
        d.ellipse((ex - 0.1 * head_r, head_y - 0.15 * head_r, ex + 0.1 * head_r,
                   head_y + 0.05 * head_r), fill=ink)  # fmt: skip
    d.arc((cx - 0.4 * head_r, head_y, cx + 0.4 * head_r, head_y + 0.6 * head_r), 20, 160,
          fill=ink, width=max(1, lw // 2))  # fmt: skip
    crown_base = head_y - 0.8 * head_r
    if face.rank == 13:  # the king: a three-pointed crown with jewels, and a beard
        d.chord((cx - 0.8 * head_r, head_y + 0.1 * head_r, cx + 0.8 * head_r,
                 head_y + 1.25 * head_r), 0, 180, fill=GOLD_DARK)  # fmt: skip
        cw, ch = 1.25 * head_r, 1.25 * head_r
        pts = [(cx - cw, crown_base), (cx - cw, crown_base - ch),
               (cx - cw / 2, crown_base - ch / 2), (cx, crown_base - 1.25 * ch),
               (cx + cw / 2, crown_base - ch / 2), (cx + cw, crown_base - ch),
               (cx + cw, crown_base)]  # fmt: skip
        d.polygon(pts, fill=GOLD, outline=ink, width=max(1, lw // 2))
        jr = 0.16 * head_r
        for jx, jy in ((cx - cw, crown_base - ch), (cx, crown_base - 1.25 * ch),
                       (cx + cw, crown_base - ch)):  # fmt: skip
            d.ellipse((jx - jr, jy - jr, jx + jr, jy + jr), fill=colour)
    elif face.rank == 12:  # the queen: a low tiara of three pearls on a band
        band = 0.3 * head_r
        d.pieslice((cx - 0.95 * head_r, crown_base - 0.6 * head_r, cx + 0.95 * head_r,
                    crown_base + 0.6 * head_r), 180, 360, fill=GOLD, outline=ink,
                   width=max(1, lw // 2))  # fmt: skip
        d.rectangle((cx - 1.05 * head_r, crown_base - band / 2, cx + 1.05 * head_r,
                     crown_base + band / 2), fill=GOLD)  # fmt: skip
        pr = 0.2 * head_r
        for k in (-1, 0, 1):
            px = cx + k * 0.6 * head_r
            py = crown_base - (0.62 if k == 0 else 0.42) * head_r
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=PAPER, outline=ink)
    else:  # the jack: a soft cap, tilted, with a feather
        d.chord((cx - 1.25 * head_r, crown_base - 0.9 * head_r, cx + 1.15 * head_r,
                 crown_base + 0.7 * head_r), 170, 370, fill=colour)  # fmt: skip
        d.rectangle((cx - 1.2 * head_r, crown_base - 0.05 * head_r, cx + 1.1 * head_r,
                     crown_base + 0.2 * head_r), fill=GOLD)  # fmt: skip
        fx, fy = cx + 0.7 * head_r, crown_base - 0.6 * head_r
        feather = [(fx, fy), (fx + 0.5 * head_r, fy - 1.3 * head_r),
                   (fx + 0.95 * head_r, fy - 1.45 * head_r),
                   (fx + 0.35 * head_r, fy + 0.1 * head_r)]  # fmt: skip
        d.polygon(feather, fill=GOLD, outline=ink)


@lru_cache(maxsize=256)
def face_sprite(face: Face, size: str) -> Image.Image:
    """One card face at a named size (RGBA, rounded corners), drawn once per process."""
    w, h = CARD_SIZES[size]
    im, d = _blank(w, h, PAPER, EDGE)
    W, H = w * SS, h * SS
    index = _index_layer(face, size)
    im.alpha_composite(index)
    im.alpha_composite(index.rotate(180))
    if face.is_joker:
        draw_star(d, W / 2, H * 0.44, 0.27 * W, GOLD, JOKER_INK)
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
        _court(d, face, size)
    else:
        colour = suit_colour(face.suit)
        for cx, cy, ph, flip in pip_boxes(face.rank, size):
            draw_suit(d, face.suit, cx * SS, cy * SS, ph * SS, colour, flip)
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
