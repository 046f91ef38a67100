"""The hint level as a table option: chosen and checked at `/rummy new`, decided with the
server's rated-games rule, saved with the table and loaded back (a table saved before hint
levels existed loads with full hints, rated), and carried by its result jobs."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.storage import DealRecord, DealSeatRecord, HintLevel, MatchRecord, MatchSeatRecord
from bot.table.errors import BadOption, SettingsConflict, SettingsProblem, TableOptionProblem
from bot.table.jobs import deal_from_json, deal_to_json, match_from_json, match_to_json
from bot.table.league import parse_default_hints
from bot.table.model import Seat, Table, TableOptions
from bot.table.options import build_options, hint_rating, parse_hints


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
    options = lobby(hints=parse_hints(hints), rated_needs_hints_off=needs_off)
    assert (options.hints, options.rated) == (HintLevel(hints), rated)
    assert hint_rating(HintLevel(hints), needs_off) is rated


def test_a_hint_level_from_outside_is_parsed_once_at_the_edge() -> None:
    """`/rummy new` and `/rummy settings` parse what the client sent (one check,
    `HintLevel.parse`), each refusing an unknown level in its own words; what they hand the
    table layer is a `HintLevel`."""
    for level in HintLevel:
        assert parse_hints(level.value) is level
        assert parse_default_hints(level.value) is level
    with pytest.raises(BadOption) as refused:
        parse_hints("most")
    assert refused.value.problem is TableOptionProblem.HINTS
    assert refused.value.params["choices"] == ("full", "groups", "off")
    with pytest.raises(SettingsConflict) as conflict:
        parse_default_hints("most")
    assert conflict.value.problem is SettingsProblem.UNKNOWN_HINTS


def test_options_round_trip_through_the_saved_table() -> None:
    options = lobby(hints=HintLevel.OFF, rated_needs_hints_off=True)
    table = Table("abcdefghij", 1, 2, 11, options, seats=[Seat("u11", "alice", 11)])
    again = Table.from_json(table.to_json())
    assert (again.options.hints, again.options.rated) == (HintLevel.OFF, True)
    groups = lobby(hints=HintLevel.GROUPS, rated_needs_hints_off=True)
    unrated = TableOptions.from_dict(groups.to_dict())
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
