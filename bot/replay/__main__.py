"""Make a replay page from hand-history files: `python -m bot.replay HISTORY.json -o deal.html`.

One file makes the page of that deal. Several files, or one file holding a JSON list of
histories, make a match page with the deals in the order given (sorted by deal number when
they are files of one match). Histories come from the Discord table's **Hand history** button
and `/rummy history`, from `python -m bot.simulate --dump-dir DIR`, and from the terminal game
(`python -m bot.play --history DIR`). The page is one HTML file that opens offline in any
browser.

Exit status: 0 when the page was written; 1 when a history cannot be read or replayed (the
reason is printed); 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.clihelp import HelpFormatter
from bot.words import catalogue

from . import ReplayError, deal_page, match_page


def _histories(paths: Sequence[Path]) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else [data]
        for item in items:
            if not isinstance(item, dict):
                raise ReplayError(f"{path}: not a hand history")
            out.append(item)
    if len(paths) > 1:
        out.sort(key=lambda h: int(h.get("deal_number", 1)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.replay", description=__doc__, formatter_class=HelpFormatter
    )
    parser.add_argument("histories", nargs="+", type=Path, metavar="HISTORY.json",
                        help="hand-history files (several, or a list in one file, make a "
                        "match page)")  # fmt: skip
    parser.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                        help="the page to write (default: the first history's name with "
                        ".html)")  # fmt: skip
    parser.add_argument("--lang", default="en", metavar="TAG",
                        help="the page's language: "
                        f"{', '.join(catalogue().locales)} (default: en)")  # fmt: skip
    parser.add_argument("--seat", type=int, default=None, metavar="N",
                        help="open the page as seat N saw the deal (other hands hidden until "
                        "the end; default: every hand shown)")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        histories = _histories(args.histories)
        if len(histories) == 1:
            page = deal_page(histories[0], args.lang, seat=args.seat)
        else:
            page = match_page(histories, args.lang, seat=args.seat)
    except (OSError, ValueError) as exc:  # ReplayError and bad JSON are ValueErrors
        print(f"python -m bot.replay: {exc}", file=sys.stderr)
        return 1
    output = args.output or args.histories[0].with_suffix(".html")
    output.write_bytes(page)
    print(f"{output} ({len(page) // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
