"""The README's pictures of a replay page (a script, not a test).

    python benchmarks/replay_screenshots.py [--out docs/images] [--seed 11]

Plays a seeded points deal with four medium AI seats, makes its replay page
(`bot.replay.deal_page`), opens it in Debian's Chromium through Playwright (as the browser
tests do: `apt-get install chromium`, no browser download) at a move just after a draw, and
saves what a phone (360 px wide) and a desktop (1280 px) show: `replay-phone.png` and
`replay-desktop.png`. Run it again after changing the page's look.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import make_policy
from bot.engine.match import Match, MatchPhase
from bot.replay import deal_page
from bot.replay.states import deal_data

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
NAMES = ["Asha", "Ravi", "Meera", "Kabir"]


def history(seed: int) -> dict[str, object]:
    m = Match.create(NAMES, "points", seed=seed)
    policies = [make_policy("medium", seed * 31 + s) for s in range(len(NAMES))]
    while m.phase is MatchPhase.PLAYING:
        assert m.deal is not None
        seat = m.deal.turn
        m.apply(policies[seat].act(m.observation(seat)))
    return m.hand_history(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    h = history(args.seed)
    steps = deal_data(h)["deals"][0]["steps"]
    # A move about two thirds in where a seat has just picked a card up (it is outlined).
    move = next(i for i in range(len(steps) * 2 // 3, len(steps)) if steps[i]["new"] is not None)
    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "replay.html"
        page_file.write_bytes(deal_page(h))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for name, width, height, phone in (
                ("replay-phone.png", 360, 740, True),
                ("replay-desktop.png", 1280, 860, False),
            ):
                context = browser.new_context(
                    viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
                )
                page = context.new_page()
                page.goto(f"{page_file.as_uri()}#d1m{move}")
                page.wait_for_selector(".seat")
                page.screenshot(path=str(args.out / name))
                context.close()
                print(args.out / name)
            browser.close()


if __name__ == "__main__":
    main()
