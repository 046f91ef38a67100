"""The replay page as a file: its data equals the engine's states of the deals played, it is
self-contained under its Content-Security-Policy, small, and made from any history file by
`python -m bot.replay`. (What a browser shows of it: test_browser.py.)"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.engine.arrange import arrangement
from bot.engine.evaluate import evaluate_hand
from bot.engine.replay import DealReplay
from bot.replay import ReplayError, deal_page, match_page, replay_filename
from bot.replay.__main__ import main
from bot.replay.states import deal_data, match_data
from tests.conftest import PROJECT_ROOT
from tests.replay.deals import Played, scenarios

MAX_DEAL_PAGE = 250 * 1024


def embedded(page: bytes) -> dict[str, Any]:
    """The data a page carries, read back as its script reads it."""
    html = page.decode("utf-8")
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def codes_of(deal: dict[str, Any], index: int) -> list[str]:
    """Every card of an arrangement (`A` entry), sorted."""
    if index < 0:
        return []
    return sorted(c for part in deal["A"][index]["p"] for cl in part[1] for c in cl)


@pytest.mark.parametrize("name", sorted(scenarios()))
def test_every_step_is_the_engine_state_that_was_played(name: str) -> None:
    played = scenarios()[name]
    data = match_data(played.histories)
    assert len(data["deals"]) == len(played.states)
    for deal, states in zip(data["deals"], played.states, strict=True):
        steps = deal["steps"]
        assert len(steps) == len(states)
        last = len(steps) - 1
        for i, (step, live) in enumerate(zip(steps, states, strict=True)):
            shown = {s: codes_of(deal, step["h"][k]) for k, s in enumerate(deal["seats"])}
            assert shown == live.hands, f"{name} deal {deal['n']} step {i}"
            assert (step["pile"][-1][0] if step["pile"] else None) == live.top
            assert step["stock"] == live.stock
            assert step["turn"] == live.turn
            scores = deal["after"] if i == last else deal["before"]
            assert {int(s): Fraction(v) for s, v in scores.items()} == live.scores
            assert step["w"], "every step says what happened"


@pytest.mark.parametrize("name", ["points", "pool101", "reshuffle"])
def test_hands_are_grouped_as_the_hand_view_groups_them(name: str) -> None:
    """At every step each hand is the engine's ruling on the cards held at that moment (13,
    or 14 after a draw), laid out as the hand views lay it out, every card in one part."""
    played = scenarios()[name]
    data = match_data(played.histories)
    checked = 0
    for history, deal in zip(played.histories, data["deals"], strict=True):
        r = DealReplay(history)
        moves = r.steps()
        for i, step in enumerate(deal["steps"]):
            if i > 0:
                next(moves)
            if i == len(deal["steps"]) - 1:
                break  # the last step shows the results' arrangement (tested below)
            d = r.deal
            for k, seat in enumerate(deal["seats"]):
                hand = d.hands[seat]
                if not hand:
                    assert step["h"][k] == -1
                    continue
                parts = arrangement(evaluate_hand(hand, d.rules, d.wild_rank), d.wild_rank)
                assert sorted(c.id for p in parts for c in p.cards) == sorted(c.id for c in hand)
                expected = [[p.kind, [[c.code for c in cl] for cl in p.clusters]] for p in parts]
                shown = [p[:2] for p in deal["A"][step["h"][k]]["p"]]
                assert shown == expected, f"{name} deal {deal['n']} step {i} seat {seat}"
                checked += 1
    assert checked


def test_the_match_page_has_the_scores_and_the_eliminations() -> None:
    played = scenarios()["pool101"]
    data = match_data(played.histories)
    last = data["deals"][-1]
    assert {int(s): Fraction(v) for s, v in last["after"].items()} == played.scores
    out = [line for d in data["deals"] for line in d["end"]["out"]]
    assert len(out) == len(played.eliminated) == 2
    for seat, line in zip(played.eliminated, out, strict=True):
        assert data["players"][seat] in line
    assert any("(out)" in line for line in last["end"]["standings"])


def test_the_end_shows_the_final_arrangements_as_recorded() -> None:
    for played in scenarios().values():
        for history, deal in zip(played.histories, match_data(played.histories)["deals"],
                                 strict=True):  # fmt: skip
            final = deal["steps"][-1]
            for k, seat in enumerate(deal["seats"]):
                recorded = history["final"][str(seat)]
                index = final["h"][k]
                if "arrangement" not in recorded or recorded["out_reason"] is not None:
                    assert index == -1
                    continue
                parts = deal["A"][index]["p"]
                groups = [[p[0], p[1][0]] for p in parts if p[0] != "unmatched"]
                arrangement = recorded["arrangement"]
                assert groups == [[g["kind"], g["cards"]] for g in arrangement["groups"]]
                left = [p[1][0] for p in parts if p[0] == "unmatched"]
                assert left == ([arrangement["leftover"]] if arrangement["leftover"] else [])


def test_a_stock_draw_is_named_except_in_a_seats_own_view() -> None:
    data = deal_data(scenarios()["points"].histories[0])
    step = next(s for d in data["deals"] for s in d["steps"] if "wp" in s)
    assert step["w"] != step["wp"]
    assert "from the stock" in step["w"][0] and "from the stock" in step["wp"][0]
    assert len(step["w"][0]) > len(step["wp"][0])  # the card is named in the full line only


def test_timeouts_drops_wrong_shows_and_void_deals_are_worded() -> None:
    def lines(name: str) -> list[str]:
        data = match_data(scenarios()[name].histories)
        return [line for d in data["deals"] for s in d["steps"] for line in s["w"]]

    assert any("ran out of time" in line for line in lines("timeout"))
    assert any("was dropped after 3 timeouts" in line for line in lines("timeout"))
    assert any("dropped (20 chips)" in line for line in lines("drop"))
    assert any("wrong show" in line for line in lines("wrong_show"))
    assert any(line.startswith("Why: ") for line in lines("wrong_show"))
    assert any("the deal is void" in line for line in lines("void"))
    assert any("shuffled into a new stock" in line for line in lines("reshuffle"))


def test_the_page_is_self_contained_under_its_policy() -> None:
    page = deal_page(scenarios()["points"].histories[0])
    html = page.decode("utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert policy is not None
    csp = policy.group(1).replace("&#x27;", "'")
    assert csp.startswith("default-src 'none';") and "img-src data:" in csp
    for tag, directive in (("style", "style-src"), ("script", "script-src")):
        bodies = re.findall(rf"<{tag}>(.*?)</{tag}>", html, re.S)
        assert len(bodies) == 1, f"one inline {tag}"
        digest = base64.b64encode(hashlib.sha256(bodies[0].encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    # Nothing that would load: no src, no link, no CSS url() or @import, no http(s) address
    # but the SVG namespace (a name, never fetched).
    assert not re.search(r"\ssrc=|<link|url\(|@import", html)
    addresses = set(re.findall(r"https?://[^\s\"')]+", html))
    assert addresses == {"http://www.w3.org/2000/svg"}


def test_a_name_cannot_become_markup() -> None:
    history = copy.deepcopy(scenarios()["drop"].histories[0])
    history["seats"][0]["name"] = "</script><script>alert(1)</script><!--"
    page = deal_page(history).decode("utf-8")
    assert page.count("</script>") == 2  # the data block's and the script's own
    assert "<!--" not in page
    assert embedded(page.encode())["players"][0] == history["seats"][0]["name"]


@pytest.mark.parametrize("name", sorted(scenarios()))
def test_a_deal_page_is_small(name: str) -> None:
    for history in scenarios()[name].histories:
        assert len(deal_page(history)) <= MAX_DEAL_PAGE


def test_the_page_speaks_the_readers_language() -> None:
    history = scenarios()["points"].histories[0]
    page = deal_page(history, "hi").decode("utf-8")
    assert '<html lang="hi">' in page
    data = embedded(page.encode())
    assert re.search("[\u0900-\u097f]", data["title"]) and re.search(
        "[\u0900-\u097f]", data["t"]["made"]
    )
    assert deal_page(history, "en-GB").decode().count('<html lang="en">') == 1


def test_a_seat_view_is_chosen_and_checked() -> None:
    history = scenarios()["points"].histories[0]
    assert embedded(deal_page(history, seat=2))["view"] == 2
    assert embedded(deal_page(history, seat=9))["view"] is None


def test_histories_of_different_matches_or_out_of_order_are_refused() -> None:
    pool = scenarios()["pool101"].histories
    with pytest.raises(ReplayError, match="order"):
        match_page(list(reversed(pool)))
    with pytest.raises(ReplayError, match="one match"):
        match_page([pool[0], {**scenarios()["paplu"].histories[0], "deal_number": 9}])
    with pytest.raises(ReplayError):
        match_page([])
    broken = copy.deepcopy(pool[0])
    broken["deltas"]["0"] = "999"
    with pytest.raises(ReplayError, match="deltas"):
        deal_page(broken)


def test_filenames_are_safe() -> None:
    assert replay_filename("tbl-42", 3) == "replay-tbl-42-deal3.html"
    assert replay_filename("../../etc passwd") == "replay-etc_passwd.html"
    assert replay_filename("///") == "replay-table.html"
    assert len(replay_filename("x" * 300, 1)) < 70


def test_the_cli_makes_deal_and_match_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played: Played = scenarios()["pool101"]
    files = []
    for h in played.histories:
        path = tmp_path / f"deal{h['deal_number']}.json"
        path.write_text(json.dumps(h))
        files.append(path)
    assert main([str(files[0])]) == 0
    assert files[0].with_suffix(".html").is_file()
    out = tmp_path / "match.html"
    assert main([*map(str, reversed(files)), "-o", str(out), "--lang", "hi", "--seat", "1"]) == 0
    data = embedded(out.read_bytes())
    assert [d["n"] for d in data["deals"]] == [1, 2, 3] and data["lang"] == "hi"
    assert data["view"] == 1
    listed = tmp_path / "all.json"
    listed.write_text(json.dumps(played.histories))
    assert main([str(listed), "-o", str(tmp_path / "all.html")]) == 0
    assert len(embedded((tmp_path / "all.html").read_bytes())["deals"]) == 3
    bad = tmp_path / "bad.json"
    bad.write_text('{"format_version": 3}')
    assert main([str(bad)]) == 1
    assert "not a hand history" in capsys.readouterr().err


def test_the_page_files_ship_with_the_package() -> None:
    """An installed bot (`pip install .`, the Docker image) must carry the page's template,
    styles and script: they are package data."""
    pyproject = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["bot.replay"]
    folder = PROJECT_ROOT / "bot" / "replay"
    assets = sorted(p.name for p in folder.iterdir() if p.suffix in (".html", ".css", ".js"))
    assert sorted(shipped) == assets == ["page.css", "page.html", "page.js"]
