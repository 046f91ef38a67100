"""Replay pages in a real browser: headless Chromium (Debian's package) driven by Playwright.

Every move of real deals is stepped through and what the page shows (each hand's cards, the
pile's top card, the stock's count, whose turn, the scores) is compared with the engine's state
recorded while the deal was played (`deals.py`). The page must make no request and break no
rule of its Content-Security-Policy, answer the keyboard and swipes, open at a linked step,
and read on a 360 px wide phone.

Why Playwright (Python) and not Selenium: it drives Debian's Chromium directly over the
DevTools protocol (its wheel carries its own small driver, no chromedriver to match), it sees
every request a page makes and can refuse them, and it has touch input and a phone-sized
context built in. No browser is ever downloaded: `executable_path` is Debian's
/usr/bin/chromium (`.ci/run` installs it when it is missing).

The tests skip, saying why, only when there is no browser to be had (no Playwright, or no
Chromium); `PAPLU_REQUIRE_BROWSER=1` (set by `.ci/run`) turns that skip into a failure, so CI
always runs them. One browser serves the whole module.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.replay import deal_page, match_page
from tests.replay.deals import Played, Snapshot, scenarios

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
]

# What the page shows, read from its DOM the way a person reads it: the cards drawn in each
# seat's hand, the top card of the pile, the stock's count, whose turn, the scores.
SHOWN = """
function shown() {
  const seats = {};
  for (const s of document.querySelectorAll('.seat')) {
    seats[s.dataset.seat] = {
      cards: [...s.querySelectorAll('.hand .card[data-code]')].map(c => c.dataset.code).sort(),
      backs: s.querySelectorAll('.hand .card.back').length,
      turn: s.classList.contains('turn'),
      score: s.querySelector('.score').dataset.score,
    };
  }
  const top = document.querySelector('#pile .card.top');
  const turn = document.getElementById('turn').dataset.seat;
  return {
    deal: Number(document.body.dataset.deal), move: Number(document.body.dataset.move),
    seats, top: top ? top.dataset.code : null,
    stock: Number(document.getElementById('stock').dataset.count),
    turn: turn === undefined ? null : Number(turn), hash: location.hash,
    words: document.getElementById('words').innerText,
  };
}
"""
READ = "() => {" + SHOWN + "return shown(); }"
# Every step of the page from where it is: read it, press the page's Forward button, until the
# button changes nothing (the last move of the last deal).
WALK = (
    "() => {"
    + SHOWN
    + """
  const seen = [shown()];
  for (;;) {
    document.getElementById('forward').click();
    const now = shown();
    const last = seen[seen.length - 1];
    if (now.deal === last.deal && now.move === last.move) { return seen; }
    seen.push(now);
  }
}"""
)

# Content-Security-Policy violations, collected from the first moment of the page.
WATCH_CSP = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', e => {
  window.__violations.push(e.violatedDirective + ' ' + e.blockedURI);
});
"""


def _chromium() -> str | None:
    for candidate in (os.environ.get("PAPLU_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _no_browser(reason: str) -> None:
    if os.environ.get("PAPLU_REQUIRE_BROWSER") == "1":
        pytest.fail(f"PAPLU_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("Playwright for Python is not installed (pip install -e '.[test]')")
    path = _chromium()
    if path is None:
        _no_browser("no Chromium: install Debian's package (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every scenario's page on disk (the pool match as one match page)."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for name, played in scenarios().items():
        path = folder / f"{name}.html"
        if len(played.histories) > 1:
            path.write_bytes(match_page(played.histories))
        else:
            path.write_bytes(deal_page(played.histories[0]))
        out[name] = path
    return out


def open_page(
    browser: Any, path: Path, hash_: str = "", *, phone: bool = False
) -> tuple[Any, list[str]]:
    """A fresh context on the page: every request it makes is recorded, and refused unless it
    is the page's own file."""
    if phone:
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
        )
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    page = context.new_page()
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: requests.append(f"page error: {e}"))
    own = path.as_uri()
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(own)
                  else route.abort())  # fmt: skip
    page.add_init_script(WATCH_CSP)
    page.goto(own + hash_)
    page.wait_for_selector(".seat")
    return page, requests


def expect(shown: dict[str, Any], live: Snapshot, where: str) -> None:
    """What the page shows at a step is the engine's state there."""
    seats = shown["seats"]
    assert {int(s): v["cards"] for s, v in seats.items()} == live.hands, where
    assert shown["top"] == live.top, where
    assert shown["stock"] == live.stock, where
    assert shown["turn"] == live.turn, where
    assert [int(s) for s, v in seats.items() if v["turn"]] == (
        [] if live.turn is None else [live.turn]
    ), where
    for s, v in seats.items():
        assert Fraction(v["score"]) == live.scores[int(s)], where


@pytest.mark.parametrize("name", sorted(scenarios()))
def test_every_move_shows_the_engine_state(browser: Any, pages: dict[str, Path], name: str) -> None:
    played: Played = scenarios()[name]
    page, requests = open_page(browser, pages[name])
    try:
        walked = page.evaluate(WALK)
        expected = [(d, m, live) for d, states in enumerate(played.states)
                    for m, live in enumerate(states)]  # fmt: skip
        assert len(walked) == len(expected) > 10
        for shown, (d, m, live) in zip(walked, expected, strict=True):
            where = f"{name}: deal {d + 1}, move {m}"
            assert (shown["move"], shown["hash"]) == (m, f"#d{shown['deal']}m{m}"), where
            expect(shown, live, where)
            assert shown["words"].strip(), where
        assert page.evaluate("window.__violations") == []
        assert requests == [pages[name].as_uri()], "the page asked for nothing else"
    finally:
        page.context.close()


def test_no_request_and_no_policy_violation_even_when_something_tries(
    browser: Any, pages: dict[str, Path], tmp_path: Path
) -> None:
    page, requests = open_page(browser, pages["points"])
    try:
        page.click("#play")
        page.select_option("#speed", "4")
        page.wait_for_timeout(800)
        page.click("#play")
        page.select_option("#view", "1")
        page.keyboard.press("End")
        assert page.evaluate("window.__violations") == []
        assert requests == [pages["points"].as_uri()]
    finally:
        page.context.close()
    # The same checks catch a page that would load something or run an unhashed script.
    html = pages["points"].read_text(encoding="utf-8")
    tampered = tmp_path / "tampered.html"
    tampered.write_text(
        html.replace("<main", '<img src="https://example.invalid/x.png"><main', 1).replace(
            "(function () {", "(function () { var tampered = 1;", 1
        ),
        encoding="utf-8",
    )
    context = browser.new_context()
    try:
        bad = context.new_page()
        bad.add_init_script(WATCH_CSP)
        bad.goto(tampered.as_uri())
        bad.wait_for_timeout(300)
        violations = bad.evaluate("window.__violations")
        assert any(v.startswith("img-src") for v in violations), violations
        assert any(v.startswith("script-src") for v in violations), violations
        assert bad.query_selector(".seat") is None  # the changed script did not run
    finally:
        context.close()


def test_keys_step_jump_and_change_deal(browser: Any, pages: dict[str, Path]) -> None:
    played = scenarios()["pool101"]
    page, _ = open_page(browser, pages["pool101"])
    try:
        press = page.keyboard.press

        def at() -> tuple[int, int]:
            shown = page.evaluate(READ)
            return shown["deal"], shown["move"]

        press("ArrowRight")
        press("ArrowRight")
        assert at() == (1, 2)
        press("ArrowLeft")
        assert at() == (1, 1)
        press("End")
        assert at() == (1, len(played.states[0]) - 1)
        press("ArrowRight")  # past a deal's end: the next deal, as dealt
        assert at() == (2, 0)
        press("ArrowLeft")
        assert at() == (1, len(played.states[0]) - 1)
        press("PageDown")
        press("PageDown")
        assert at() == (3, 0)
        press("Home")
        press("PageUp")
        assert at() == (2, 0)
        page.select_option("#dealpick", "2")
        assert at() == (3, 0)
        expect(page.evaluate(READ), played.states[2][0], "deal 3 as dealt")
        page.locator("#slider").fill("9")  # the move slider jumps to a move
        assert at() == (3, 9)
        expect(page.evaluate(READ), played.states[2][9], "deal 3, move 9")
    finally:
        page.context.close()


def test_a_link_opens_at_its_step_and_follows_the_steps(
    browser: Any, pages: dict[str, Path]
) -> None:
    played = scenarios()["points"]
    page, _ = open_page(browser, pages["points"], "#d1m5")
    try:
        shown = page.evaluate(READ)
        assert (shown["deal"], shown["move"], shown["hash"]) == (1, 5, "#d1m5")
        expect(shown, played.states[0][5], "opened at #d1m5")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("location.hash") == "#d1m6"
        page.evaluate("location.hash = '#d1m2'")
        page.wait_for_function("document.body.dataset.move === '2'")
    finally:
        page.context.close()
    pool = scenarios()["pool101"]
    page, _ = open_page(browser, pages["pool101"], "#d2m7")
    try:
        shown = page.evaluate(READ)
        assert (shown["deal"], shown["move"]) == (2, 7)
        expect(shown, pool.states[1][7], "opened at #d2m7")
    finally:
        page.context.close()


def _swipe(page: Any, dx: int, dy: int) -> None:
    """A one-finger swipe across the table, as the touchscreen sends it."""
    cdp = page.context.new_cdp_session(page)
    x, y = 200, 420
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 6):
        point = {"x": x + dx * k // 5, "y": y + dy * k // 5}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_swipes_step_on_a_phone(browser: Any, pages: dict[str, Path]) -> None:
    page, _ = open_page(browser, pages["timeout"], "#d1m3", phone=True)
    try:

        def move() -> int:
            return int(page.evaluate("Number(document.body.dataset.move)"))

        _swipe(page, -120, 4)  # to the left: forward
        assert move() == 4
        _swipe(page, -120, 0)
        assert move() == 5
        _swipe(page, 130, 0)  # to the right: back
        assert move() == 4
        _swipe(page, 10, -200)  # scrolling up and down is no step
        assert move() == 4
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_it_reads_on_a_360_px_phone(
    browser: Any, pages: dict[str, Path], lang: str, tmp_path: Path
) -> None:
    path = pages["pool101"]
    if lang != "en":
        path = tmp_path / f"pool101-{lang}.html"
        path.write_bytes(match_page(scenarios()["pool101"].histories, lang))
    page, _ = open_page(browser, path, "#d1m40", phone=True)
    try:
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('.card b')].map(b => {
                 const box = b.getBoundingClientRect();
                 return [parseFloat(getComputedStyle(b).fontSize), box.height, box.width];
               })"""
        )
        assert len(sizes) > 30
        assert min(font for font, _, _ in sizes) >= 12
        assert min(height for _, height, _ in sizes) >= 12
        # Nothing wider than the phone, at any step of any deal (a long run, thirteen cards
        # that fit no group, the results' lines).
        widths = page.evaluate(
            """() => {
                 document.getElementById('dealpick').value = '0';
                 document.getElementById('dealpick').dispatchEvent(new Event('change'));
                 const widths = [document.documentElement.scrollWidth];
                 for (let i = 0; i < 2000; i++) {
                   const before = document.body.dataset.deal + '/' + document.body.dataset.move;
                   document.getElementById('forward').click();
                   if (document.body.dataset.deal + '/' + document.body.dataset.move === before) {
                     break;
                   }
                   widths.push(document.documentElement.scrollWidth);
                 }
                 return widths;
               }"""
        )
        assert len(widths) == sum(len(s) for s in scenarios()["pool101"].states)
        assert max(widths) <= 360, "nothing wider than the phone"
        for selector in ("#controls button", "#words"):
            box = page.locator(selector).first.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    finally:
        page.context.close()


def test_from_this_seat_hides_the_other_hands_until_the_end(
    browser: Any, pages: dict[str, Path]
) -> None:
    played = scenarios()["points"]
    states = played.states[0]
    page, _ = open_page(browser, pages["points"], "#d1m3")
    try:
        page.select_option("#view", "1")
        shown = page.evaluate(READ)
        live = states[3]
        for s, v in shown["seats"].items():
            if int(s) == 1:
                assert v["cards"] == live.hands[1] and v["backs"] == 0
            else:
                assert v["cards"] == [] and v["backs"] == len(live.hands[int(s)])
        # A stock draw by another seat names no card in that view.
        for _ in range(3, len(states) - 1):
            page.keyboard.press("ArrowRight")
            words = page.evaluate(READ)["words"]
            if "drew from the stock" in words:
                break
        else:  # pragma: no cover - every deal has stock draws
            pytest.fail("no stock draw by another seat")
        page.keyboard.press("End")
        expect(page.evaluate(READ), states[-1], "the end shows every hand")
        page.select_option("#view", "")
        page.keyboard.press("Home")
        assert all(v["backs"] == 0 for v in page.evaluate(READ)["seats"].values())
    finally:
        page.context.close()
