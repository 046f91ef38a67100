"""The encoded images: format, size limits, determinism, and the card art itself."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.engine.cards import Face
from bot.engine.observation import Observation, PublicView
from bot.images import render_hand, render_results, render_table, samples, sprites
from bot.images.gallery import write_gallery
from bot.images.layout import CARD_SIZES, MAX_WIDTH, hand_scene
from bot.words.pictures import captions
from tests.conftest import PROJECT_ROOT

EN = captions("en")  # the pictures' English words, from the catalogue

LIMIT = 150 * 1024


@dataclass(frozen=True)
class Samples:
    hands: dict[str, Observation]
    table2: PublicView
    table6: PublicView
    history: dict[str, Any]


@pytest.fixture(scope="module")
def images() -> Samples:
    return Samples(
        samples.hand_states(),
        samples.table_view(2),
        samples.table_view(6),
        samples.finished_history(),
    )


def opened(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("fmt", ["png", "webp"])
def test_formats_and_sizes(images: Samples, fmt: str) -> None:
    hands = images.hands
    rendered = [render_hand(obs, fmt=fmt, words=EN) for obs in hands.values()]
    rendered.append(render_hand(hands["drawn"], sort_by_suit=True, fmt=fmt, words=EN))
    rendered.append(render_table(images.table2, fmt=fmt, words=EN))
    rendered.append(render_table(images.table6, fmt=fmt, words=EN))
    rendered.append(render_results(images.history, fmt=fmt, words=EN))
    for img in rendered:
        im = opened(img.data)
        assert im.format == fmt.upper()
        assert img.filename.endswith(f".{fmt}")
        assert im.size == (img.width, img.height)
        assert img.width <= MAX_WIDTH
        assert len(img.data) <= LIMIT


def test_hand_image_matches_its_layout(images: Samples) -> None:
    hands = images.hands
    obs = hands["drawn"]
    scene = hand_scene(obs, words=EN)
    img = render_hand(obs, words=EN)
    assert (img.width, img.height) == (scene.width, scene.height)
    im = opened(img.data).convert("RGB")
    # The last card of each group is fully visible: its centre shows the card's paper or ink,
    # not felt (felt is green-dominant; a card is not).
    last = {pc.group: pc for pc in scene.cards}
    for pc in last.values():
        pixel = im.getpixel((pc.x + pc.width - 6, pc.y + pc.height // 2))
        assert isinstance(pixel, tuple)
        r, g, b = pixel[:3]
        assert not (g > r + 30 and g > b + 10), (pc, (r, g, b))


def test_same_state_same_bytes(images: Samples) -> None:
    hands = images.hands
    for obs in hands.values():
        assert render_hand(obs, words=EN).data == render_hand(obs, words=EN).data
    assert render_table(images.table6, words=EN).data == render_table(images.table6, words=EN).data
    history = images.history
    assert render_results(history, words=EN).data == render_results(history, words=EN).data


def test_bytes_do_not_depend_on_the_process() -> None:
    """A fresh process (cold sprite caches) draws the very same bytes."""
    code = (
        "import hashlib; from bot.images import render_hand, render_table, samples;"
        "from bot.words.pictures import captions; EN = captions('en');"
        "h = samples.hand_states()['taken'];"
        "print(hashlib.sha256(render_hand(h, words=EN).data"
        " + render_table(samples.table_view(6), words=EN).data).hexdigest())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    )
    here = hashlib.sha256(
        render_hand(samples.hand_states()["taken"], words=EN).data
        + render_table(samples.table_view(6), words=EN).data
    ).hexdigest()
    assert out.stdout.strip() == here


def test_every_face_has_its_own_art() -> None:
    faces = sprites.all_sprites()
    assert len(faces) == 53
    for size in ("large", "small"):
        digests = {hashlib.sha256(sprites.face_sprite(f, size).tobytes()).digest() for f in faces}
        digests.add(hashlib.sha256(sprites.back_sprite(size).tobytes()).digest())
        assert len(digests) == 54
        for f in faces:
            assert sprites.face_sprite(f, size).size == CARD_SIZES[size]


def _has_red(face: Face) -> bool:
    raw = sprites.face_sprite(face, "large").convert("RGB").tobytes()
    return any(raw[i] > 150 and raw[i + 1] < 90 and raw[i + 2] < 90 for i in range(0, len(raw), 3))


def test_red_and_black_suits_differ() -> None:
    for rank in (1, 7, 10, 12):
        assert _has_red(Face(rank, 1)) and _has_red(Face(rank, 2))  # hearts, diamonds
        assert not _has_red(Face(rank, 0)) and not _has_red(Face(rank, 3))  # spades, clubs


def test_sprites_are_cached() -> None:
    f = Face(5, 1)
    assert sprites.face_sprite(f, "large") is sprites.face_sprite(f, "large")
    assert sprites.card_tile(None, "mini") is sprites.card_tile(None, "mini")


def test_gallery_writes_every_sample(tmp_path: Path) -> None:
    paths = write_gallery(tmp_path, {"en": EN, "hi": captions("hi")})
    names = {p.name for p in paths}
    assert {"table-2-seats.png", "table-6-seats.png", "results.png", "deck.png"} <= names
    assert {"hand-drawn.png", "hand-taken.png", "hand-drawn-by-suit.png"} <= names
    assert {"hand-drawn-phone.png", "table-6-seats-phone.png"} <= names
    # The same set in Hindi, and the pictures are not the English ones.
    english = {n for n in names if not n.endswith("-hi.png") and n != "deck.png"}
    assert {n.replace(".png", "-hi.png") for n in english} <= names
    for name in ("hand-drawn", "table-6-seats", "results"):
        assert (tmp_path / f"{name}.png").read_bytes() != (tmp_path / f"{name}-hi.png").read_bytes()
    phone = opened((tmp_path / "hand-drawn-phone.png").read_bytes())
    assert phone.width == 360
    for p in paths:
        assert p.stat().st_size > 0
        opened(p.read_bytes())
