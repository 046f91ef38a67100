"""`python -m bot.images gallery --out DIR [--format png|webp]`: write the sample images.
`python -m bot.images palette`: learn the PNG palette from the art again and write it
(`bot/images/palette.hex`); run it after changing the art's colours."""

from __future__ import annotations

import argparse
from pathlib import Path

from .gallery import write_gallery
from .paint import PALETTE_FILE, learn_palette, palette_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.images")
    sub = parser.add_subparsers(dest="command", required=True)
    gal = sub.add_parser("gallery", help="write sample hand, table and results images")
    gal.add_argument("--out", type=Path, required=True, help="directory to write into")
    gal.add_argument("--format", choices=("png", "webp"), default="png")
    sub.add_parser("palette", help="learn the PNG palette from the art and write it")
    args = parser.parse_args(argv)
    if args.command == "palette":
        path = Path(__file__).with_name(PALETTE_FILE)
        path.write_text(palette_text(learn_palette()))
        print(path)
        return 0
    for path in write_gallery(args.out, args.format):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
