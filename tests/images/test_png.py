"""The PNG writer: any reader gets back exactly the mapped picture, the bytes are the same
every time, and it refuses what it cannot write rather than writing something wrong."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from bot.images import png, samples
from bot.images.layout import hand_scene, table_scene
from bot.images.paint import encode, paint, palette
from bot.words.pictures import captions

EN = captions("en")


def _mapped(scene: str) -> Image.Image:
    made = {
        "hand": lambda: hand_scene(samples.hand_states()["drawn"], None, False, words=EN),
        "table": lambda: table_scene(samples.table_view(6), words=EN),
    }[scene]()
    return paint(made).quantize(palette=palette(), dither=Image.Dither.NONE)


@pytest.mark.parametrize("scene", ["hand", "table"])
def test_pillow_reads_back_the_same_pixels_and_palette(scene: str) -> None:
    mapped = _mapped(scene)
    decoded = Image.open(io.BytesIO(png.palette_png(mapped)))
    decoded.load()
    assert decoded.format == "PNG"
    assert (decoded.mode, decoded.size) == ("P", mapped.size)
    assert decoded.tobytes() == mapped.tobytes()
    assert decoded.convert("RGB").tobytes() == mapped.convert("RGB").tobytes()


def test_the_chunks_are_well_formed_and_the_stream_is_plain_zlib() -> None:
    """Checked by hand, not through Pillow (which forgives some mistakes): every chunk's CRC,
    the chunk order, and the image data inflating with the standard library to one filter
    byte (0) and one row of indices per line."""
    mapped = _mapped("table")
    data = png.palette_png(mapped)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, kinds, idat = 8, [], b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        kinds.append(kind)
        if kind == b"IHDR":
            assert struct.unpack(">IIBBBBB", body) == (*mapped.size, 8, 3, 0, 0, 0)
        if kind == b"IDAT":
            idat += body
        at += 12 + length
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    raw = zlib.decompress(idat)
    width, height = mapped.size
    assert len(raw) == (width + 1) * height
    assert all(raw[y * (width + 1)] == 0 for y in range(height))


def test_equal_pictures_give_equal_bytes() -> None:
    assert png.palette_png(_mapped("hand")) == png.palette_png(_mapped("hand"))
    a = encode(paint(hand_scene(samples.hand_states()["drawn"], None, False, words=EN)), "h")
    b = encode(paint(hand_scene(samples.hand_states()["drawn"], None, False, words=EN)), "h")
    assert a == b


def test_it_refuses_an_image_without_a_palette() -> None:
    with pytest.raises(ValueError, match="mode P"):
        png.palette_png(Image.new("RGB", (4, 4)))
    with pytest.raises(ValueError, match="mode P"):
        png.palette_png(Image.new("L", (4, 4)))


def test_every_row_is_its_filter_byte_then_its_indices() -> None:
    im = Image.new("P", (3, 2))
    im.putdata([5, 6, 7, 255, 0, 9])
    assert png.rows(im) == bytes([0, 5, 6, 7, 0, 255, 0, 9])
