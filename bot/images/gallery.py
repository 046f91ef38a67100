"""Sample images for reviewing the art without Discord, in every language it is given:
`python -m bot.words.pictures gallery --out DIR` (the words come from the catalogue,
which `bot.images` does not see).

Besides each picture as sent, the gallery holds the hand, the table and the results scaled to
a phone's width (`*-phone.png`), which is how most players see them. English keeps the plain names
(`hand-drawn.png`); another language's pictures carry its tag last (`hand-drawn-hi.png`,
`hand-drawn-phone-hi.png`)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

from PIL import Image

from . import samples, sprites
from .captions import Captions
from .hand import render_hand
from .layout import CARD_SIZES, PHONE_WIDTH
from .paint import FELT, RenderedImage
from .results import render_results
from .table import render_table


def deck_sheet() -> Image.Image:
    """Every face, the joker and the back on one sheet, at the hand size."""
    faces = sprites.all_sprites()
    w, h = CARD_SIZES["large"]
    cols = 13
    rows = (len(faces) + 1 + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (w + 8) + 8, rows * (h + 8) + 8), FELT)
    tiles = [sprites.face_sprite(f, "large") for f in faces] + [sprites.back_sprite("large")]
    for i, tile in enumerate(tiles):
        x, y = 8 + (i % cols) * (w + 8), 8 + (i // cols) * (h + 8)
        sheet.paste(tile, (x, y), tile)
    return sheet


def phone_view(img: RenderedImage) -> Image.Image:
    """The picture as a phone shows it: scaled to `PHONE_WIDTH` px wide."""
    im = Image.open(io.BytesIO(img.data)).convert("RGB")
    height = round(im.height * PHONE_WIDTH / im.width)
    return im.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)


def write_gallery(out: Path, languages: Mapping[str, Captions], fmt: str = "png") -> list[Path]:
    """Write the sample set to `out`, once per language (`languages`: tag -> its captions;
    `en` unsuffixed), and return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, img: RenderedImage) -> None:
        path = out / f"{name}.{img.format}"
        path.write_bytes(img.data)
        written.append(path)

    def save_phone(name: str, img: RenderedImage, sfx: str) -> None:
        path = out / f"{name}-phone{sfx}.png"
        phone_view(img).quantize(256, dither=Image.Dither.NONE).save(path, "PNG", optimize=True)
        written.append(path)

    for tag, words in languages.items():
        sfx = "" if tag == "en" else f"-{tag}"
        for state, obs in samples.hand_states().items():
            hand = render_hand(obs, fmt=fmt, words=words)
            save(f"hand-{state}{sfx}", hand)
            if state == "drawn":
                save_phone(f"hand-{state}", hand, sfx)
                by_suit = render_hand(obs, sort_by_suit=True, fmt=fmt, words=words)
                save(f"hand-{state}-by-suit{sfx}", by_suit)
        for seats in (2, 6):
            table = render_table(samples.table_view(seats), fmt=fmt, words=words)
            save(f"table-{seats}-seats{sfx}", table)
            if seats == 6:
                save_phone(f"table-{seats}-seats", table, sfx)
        results = render_results(samples.finished_history(), fmt=fmt, words=words)
        save(f"results{sfx}", results)
        save_phone("results", results, sfx)
    sheet = out / "deck.png"
    deck_sheet().save(sheet, "PNG", optimize=False)
    written.append(sheet)
    return written
