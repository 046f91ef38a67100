"""`python -m bot.images gallery --out DIR [--format png|webp]`: write the sample images."""

from __future__ import annotations

import argparse
from pathlib import Path

from .gallery import write_gallery


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.images")
    sub = parser.add_subparsers(dest="command", required=True)
    gal = sub.add_parser("gallery", help="write sample hand, table and results images")
    gal.add_argument("--out", type=Path, required=True, help="directory to write into")
    gal.add_argument("--format", choices=("png", "webp"), default="png")
    args = parser.parse_args(argv)
    for path in write_gallery(args.out, args.format):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
