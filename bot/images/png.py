"""A palette image written as PNG, compressed by ISA-L instead of zlib.

Why not `Image.save(..., "PNG")`: Pillow compresses with zlib, and at every zlib setting that
cost ~1 ms a picture (levels 1 to 9, every strategy), a third of what the drawing process
spends on a picture. ISA-L's deflate (`isal`, Intel's library with wheels for every common
platform) writes an ordinary zlib stream that any PNG reader decodes, at level 1 in about an
eighth of the time and at the size zlib level 3 gave (`benchmarks/bench_images.py --encode`).

The file is the minimum a browser and Discord need: signature, `IHDR` (8-bit indexed
colour), `PLTE`, one `IDAT`, `IEND`. No filter (every row filter type 0): on flat palette art
the adaptive filters only cost time. Nothing in it depends on the clock or the machine, so
equal pictures give equal bytes.
"""

from __future__ import annotations

import struct
import zlib

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # ISA-L levels 1 and 2 measured alike; 3 is four times slower and no smaller


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def rows(im: Image.Image) -> bytes:
    """The image's scanlines as PNG wants them: each row led by its filter byte (0).

    Pasted one pixel in on a canvas whose first column is index 0, which reads out as those
    bytes: a third of the time of joining the rows in Python. (Palette to palette, a paste
    copies the indices as they are.)"""
    led = Image.new("P", (im.width + 1, im.height), 0)
    led.paste(im, (1, 0))
    return led.tobytes()


def palette_png(im: Image.Image) -> bytes:
    """`im` (mode "P", 8 bits a pixel) as PNG file bytes, its palette written in full."""
    if im.mode != "P":
        raise ValueError(f"palette_png needs a mode P image, not {im.mode}")
    colours = bytes(im.getpalette() or [])
    if not colours:
        raise ValueError("palette_png needs an image with a palette")
    header = struct.pack(">IIBBBBB", im.width, im.height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", isal_zlib.compress(rows(im), LEVEL)),
            _chunk(b"IEND", b""),
        )
    )
