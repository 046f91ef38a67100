"""The hint level as a table option: chosen and checked at `/rummy new`, decided with the
server's rated-games rule, saved with the table and loaded back (a table saved before hint
levels existed loads with full hints, rated), and carried by its result jobs."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.storage import DealRecord, DealSeatRecord, HintLevel, MatchRecord, MatchSeatRecord
from bot.table.errors import BadOption
from bot.table.jobs import deal_from_json, deal_to_json, match_from_json, match_to_json
from bot.table.model import Seat, Table, TableOptions
from bot.table.options import build_options, hint_rating


def lobby(**kw: object) -> TableOptions:
    return build_options("points", 2, 60, None, {}, None, None, None, **kw)  # type: ignore[arg-type]


def test_the_default_is_full_and_rated() -> None:
    options = lobby()
    assert (options.hints, options.rated) == (HintLevel.FULL, True)


@pytest.mark.parametrize(
    ("hints", "needs_off", "rated"),
    [
        ("full", False, True),
        ("groups", False, True),
        ("off", False, True),
        ("full", True, False),
        ("groups", True, False),
        ("off", True, True),
    ],
)
def test_a_server_that_rates_hints_off_only_plays_the_others_unrated(
    hints: str, needs_off: bool, rated: bool
) -> None:
    options = lobby(hints=hints, rated_needs_hints_off=needs_off)
    assert (options.hints, options.rated) == (HintLevel(hints), rated)
    assert hint_rating(hints, needs_off) == (HintLevel(hints), rated)


def test_a_forged_hint_level_is_refused() -> None:
    with pytest.raises(BadOption) as refused:
        lobby(hints="most")
    assert refused.value.problem == "hints"
    assert refused.value.params["choices"] == ("full", "groups", "off")


def test_options_round_trip_through_the_saved_table() -> None:
    options = lobby(hints="off", rated_needs_hints_off=True)
    table = Table("abcdefghij", 1, 2, 11, options, seats=[Seat("u11", "alice", 11)])
    again = Table.from_json(table.to_json())
    assert (again.options.hints, again.options.rated) == (HintLevel.OFF, True)
    unrated = TableOptions.from_dict(lobby(hints="groups", rated_needs_hints_off=True).to_dict())
    assert (unrated.hints, unrated.rated) == (HintLevel.GROUPS, False)
    # The working copy of a change keeps them too.
    assert table.copy().options.hints is HintLevel.OFF


def test_a_table_saved_before_hint_levels_loads_with_full_hints() -> None:
    state = json.loads(Table("abcdefghij", 1, 2, 11, lobby()).to_json())
    del state["options"]["hints"], state["options"]["rated"]
    old = Table.from_json(json.dumps(state))
    assert (old.options.hints, old.options.rated) == (HintLevel.FULL, True)


def test_result_jobs_carry_the_hint_level_and_old_jobs_read_as_full() -> None:
    seats = [DealSeatRecord(1, "a", False, "won", Fraction(0), Fraction(5))]
    deal = DealRecord(1, "m", 1, "points", 10, "{}", seats, hints=HintLevel.GROUPS)
    assert deal_from_json(deal_to_json(deal)) == deal
    match = MatchRecord(
        "m", 1, "points", 10, [MatchSeatRecord(1, "a", False, 1, True, Fraction(5))],
        hints=HintLevel.FULL, rated=False,
    )  # fmt: skip
    assert match_from_json(match_to_json(match)) == match
    old_deal = json.loads(deal_to_json(deal))
    del old_deal["hints"]
    assert deal_from_json(json.dumps(old_deal)).hints is HintLevel.FULL
    old_match = json.loads(match_to_json(match))
    del old_match["hints"], old_match["rated"]
    assert (match_from_json(json.dumps(old_match)).rated, match.hints) == (True, HintLevel.FULL)
