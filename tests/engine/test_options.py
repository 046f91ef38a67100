"""Option values entering `Rules` from outside: typed, ranged, or refused with a clear reason.

The command lines (`bot.simulate`, `bot.play`) hand over strings; the Discord lobby hands over
ints it did not range-check; stored lobbies come back from JSON. All of them must arrive at the
same typed rules object, or e.g. honor mode silently stays off (`"honor" is not HONOR`).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import play, simulate
from bot.engine.actions import Action, ActionKind
from bot.engine.errors import OptionProblem
from bot.engine.rules import (
    LIMITS,
    DeclarationMode,
    StockExhausted,
    check_table_options,
    get_profile,
    parse_options,
)
from bot.table.errors import BadOption
from bot.table.options import build_options

# ---- conversion ------------------------------------------------------------------------------


def test_strings_become_the_declared_types() -> None:
    rules = get_profile("classic").with_options(
        declaration_mode="honor", no_reshuffle="true", num_deals="3", target_score="none"
    )
    assert rules.declaration_mode is DeclarationMode.HONOR
    assert rules.no_reshuffle is True and rules.num_deals == 3 and rules.target_score is None
    rules = get_profile("pool101").with_options(stock_exhausted="VOID", pool_limit=" 150 ")
    assert rules.stock_exhausted is StockExhausted.VOID and rules.pool_limit == 150
    assert get_profile("points").with_options(no_packing="off").no_packing is False


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"declaration_mode": "honour"}, ["declaration_mode", "assisted", "honor"]),
        ({"no_reshuffle": "maybe"}, ["no_reshuffle", "true", "false"]),
        ({"no_reshuffle": 2}, ["no_reshuffle", "true", "false"]),
        ({"num_deals": "three"}, ["num_deals", "whole number"]),
        ({"num_deals": True}, ["num_deals", "whole number"]),
        ({"num_deals": 2.5}, ["num_deals", "whole number"]),
        ({"num_deals": "9" * 5000}, ["num_deals", "whole number"]),
        ({"deck_sizes": ()}, ["deck_sizes", "not an option"]),
        ({"name": "gin"}, ["name", "not an option"]),
    ],
)
def test_wrong_values_are_refused_by_name(changes: dict[str, Any], words: list[str]) -> None:
    profile = "deals" if "num_deals" in changes else "points"
    with pytest.raises(ValueError) as err:
        get_profile(profile).with_options(**changes)
    for word in words:
        assert word in str(err.value), err.value


def test_parse_options_reads_command_line_items() -> None:
    assert parse_options(["honor", "no-reshuffle", "num_deals=3", "nothing_wild=false"]) == {
        "declaration_mode": "honor",
        "no_reshuffle": True,
        "num_deals": "3",
        "nothing_wild": "false",
    }
    with pytest.raises(ValueError, match="honor"):
        parse_options(["honor=yes"])
    with pytest.raises(ValueError, match="option"):
        parse_options(["=3"])


# ---- ranges the rules define -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "changes", "word"),
    [
        ("pool101", {"pool_limit": 1}, "pool_limit"),
        ("pool101", {"pool_limit": 5000}, "pool_limit"),
        ("pool101", {"pool_limit": None}, "pool_limit"),
        ("points", {"pool_limit": 150}, "pool"),
        ("deals", {"num_deals": 4}, "number of deals"),
        ("classic", {"num_deals": 0}, "num_deals"),
        ("classic", {"num_deals": 51}, "num_deals"),
        ("points", {"num_deals": 3}, "num_deals"),
        ("classic", {"target_score": -5}, "target_score"),
        ("classic", {"num_deals": None, "target_score": None}, "target score"),
        ("paplu", {"target_score": 100}, "target_score"),
        ("points", {"first_drop": -20}, "first_drop"),
        ("points", {"set_min": 1}, "set_min"),
        ("points", {"max_players": 11}, "max_players"),
        ("points", {"min_players": 1}, "min_players"),
    ],
)
def test_out_of_range_options_are_refused(profile: str, changes: dict[str, Any], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        get_profile(profile).with_options(**changes)


def test_every_preset_is_within_its_own_limits() -> None:
    for name in ("points", "pool101", "pool201", "deals", "paplu", "classic"):
        get_profile(name).validate()


def test_table_limits_are_data_and_checked() -> None:
    assert LIMITS["turn_timer"] == (15, 600)  # the numbers `/rummy new` declares
    points = get_profile("points")
    check_table_options(points, seats=4, turn_timer=60)
    for seats, timer, word in [(4, -5, "turn_timer"), (4, 601, "turn_timer"), (7, 60, "seats"),
                               (1, 60, "seats")]:  # fmt: skip
        with pytest.raises(ValueError, match=word):
            check_table_options(points, seats=seats, turn_timer=timer)
    check_table_options(get_profile("classic"), seats=10, turn_timer=15)


def test_lobby_refuses_forged_timer_and_pool_limit() -> None:
    """A forged interaction skips Discord's own min/max; the engine limits still hold."""
    with pytest.raises(BadOption, match="turn_timer") as timer:
        build_options("points", None, -5, None, {}, None, None, None)
    assert timer.value.params["low"] == 15
    with pytest.raises(BadOption, match="rules") as pool:
        build_options("pool101", None, 60, None, {}, None, 1, None)
    assert pool.value.params["code"] is OptionProblem.OUT_OF_RANGE
    assert pool.value.params["name"] == "pool_limit" and pool.value.params["value"] == 1
    assert build_options("pool101", None, 60, None, {}, None, 60, None).rules().pool_limit == 60


# ---- through the command lines -----------------------------------------------------------------


def test_simulate_option_honor_really_turns_honor_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def fake_play(rules: Any, players: int, *args: Any, **kwargs: Any) -> simulate.Summary:
        seen.append(rules)
        return simulate.Summary(rules.name, players)

    monkeypatch.setattr(simulate, "play", fake_play)
    assert simulate.main(["--variant", "points", "--option", "honor", "--json"]) == 0
    assert seen[0].declaration_mode is DeclarationMode.HONOR


def test_simulate_refuses_a_bad_option_value(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        simulate.main(["--variant", "deals", "--option", "num_deals=many"])
    assert "num_deals" in capsys.readouterr().err


def test_play_option_honor_allows_a_wrong_show() -> None:
    match, _ = play.build("points", ["easy"], 7, "You", ["honor"])
    assert match.rules.declaration_mode is DeclarationMode.HONOR
    assert match.deal is not None
    seat = match.deal.turn
    match.apply(Action.draw_stock(seat))
    kinds = {a.kind for a in match.observation(seat).legal_actions}
    assert ActionKind.DECLARE in kinds  # honor: any layout may be declared (and checked)
