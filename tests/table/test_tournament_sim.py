"""`python -m bot.simulate tournament`: whole tournaments of AI players through the table
layer, checked against the stated rules (every player one place, one winner, the best go
through, nobody at two tables, byes as stated, every seating commitment verifiable)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from bot.simulate_tournament import play
from bot.table import bracket
from bot.table.bracket import Advance
from tests.conftest import PROJECT_ROOT


def check(out: dict[str, Any]) -> None:
    """The invariants every simulated tournament must meet."""
    players = out["players"]
    assert sorted(out["places"]) == sorted(players), "every player gets exactly one place"
    assert [p for p, place in out["places"].items() if place == 1] == [out["winner"]]
    advance = Advance.from_dict(out["advance"])
    field = sorted(players)
    for r, commitment in zip(out["rounds"], out["commitments"], strict=True):
        seated = [p for t in r["tables"] for p in t["seats"] if p not in t["fillers"]]
        assert len(seated) == len(set(seated)), "nobody sits at two tables at once"
        assert sorted(seated + r["byes"]) == field, "the round seats everyone still in"
        assert commitment["verified"] and commitment["draw"][len(seated) :] == r["byes"]
        sizes, byes = bracket.table_sizes(len(field), out["seats"], advance.min_table)
        assert [len(t["seats"]) - len(t["fillers"]) for t in r["tables"]] == sizes
        assert len(r["byes"]) == byes
        going: list[str] = []
        for t in r["tables"]:
            if r["final"]:
                assert t["advanced"] == []
                continue
            stayed = [p for p in t["seats"] if p not in t["left"] and p not in t["fillers"]]
            others = [p for p in stayed if p not in t["advanced"]]
            for p in t["advanced"]:
                # The best by the rule: more chips (or fewer points) than whoever stays behind.
                assert all(t["chips"][p] >= t["chips"][q] for q in others), (p, t)
            assert 1 <= len(t["advanced"]) < len(t["seats"]) - len(t["fillers"])
            going += t["advanced"]
        field = sorted(going + r["byes"])
    assert out["rounds"][-1]["final"]
    final = out["rounds"][-1]["tables"][0]
    assert out["winner"] in final["seats"]


@pytest.mark.parametrize(
    ("players", "seats", "advance"), [(7, 6, 2), (13, 6, 2), (13, 3, 2), (7, 2, 1)]
)
async def test_small_fields_seat_everyone(players: int, seats: int, advance: int) -> None:
    out = await play(players, seats, "points", 1, advance, None, seed=players * seats)
    check(out)
    if seats < 6:  # tables of three with two going through, or heads-up: byes
        assert any(r["byes"] for r in out["rounds"])


async def test_sixty_one_players_and_the_same_seed_plays_the_same_tournament() -> None:
    first = await play(61, 6, "points", 1, 2, None, seed=11)
    check(first)
    assert [len(t["seats"]) for t in first["rounds"][0]["tables"]] == [6] * 6 + [5] * 5
    again = await play(61, 6, "points", 1, 2, None, seed=11)
    assert again == first
    other = await play(61, 6, "points", 1, 2, None, seed=12)
    assert other["commitments"][0]["draw"] != first["commitments"][0]["draw"]


@pytest.mark.parametrize(("fmt", "deals"), [("deals", 2), ("pool101", None)])
async def test_points_formats_rank_by_fewest_points(fmt: str, deals: int | None) -> None:
    out = await play(9, 4, fmt, deals, 1, None, seed=5)
    check(out)
    table = out["rounds"][0]["tables"][0]
    assert table["points"] and all(v == -table["chips"][k] for k, v in table["points"].items())


async def test_a_chip_line_and_ai_filling_seats() -> None:
    out = await play(8, 4, "points", 1, None, 0, seed=3, ai_fill=True)
    check(out)
    fillers = {p for r in out["rounds"] for t in r["tables"] for p in t["fillers"]}
    assert fillers and not fillers & set(out["places"]), "AI filling seats get no place"
    for r in out["rounds"][:-1]:
        for t in r["tables"]:
            assert not set(t["advanced"]) & set(t["fillers"])


def test_the_command_prints_one_json_object_last() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.simulate", "tournament", "--players", "8", "--seats", "4",
         "--deals", "1", "--advance", "2", "--seed", "4", "--json"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    out = json.loads(done.stdout.strip().splitlines()[-1])
    check(out)
    assert out["winner"] in out["players"] and out["rounds"]
