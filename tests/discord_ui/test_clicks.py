"""Clicks: every id a view draws parses back to the same typed click, within Discord's 100
characters, and nothing else parses (a tampered id or value is a `BadClick`)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ai import TIERS
from bot.discord_ui.clicks import (
    SELECT_TEMPLATE,
    TEMPLATE,
    Act,
    BadClick,
    Click,
    HostTool,
    HostToolKind,
    parse,
)

TABLE = st.text("0123456789abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=16)
VERSION = st.integers(0, 999_999_999)
SEAT = st.one_of(st.none(), st.integers(0, 99))


def _typed(act: Act) -> st.SearchStrategy[dict[str, object]]:
    """The typed fields an action's control carries (as the views draw them)."""
    cards = st.integers(0, 999)
    deals = st.integers(1, 9999)
    if act in (Act.DISCARD, Act.DECLARE):
        return st.fixed_dictionaries({"card": cards})
    if act in (Act.REVIEW, Act.HISTORY):
        return st.fixed_dictionaries({"deal": deals})
    if act is Act.NEXT:
        return st.fixed_dictionaries({"deal": st.one_of(st.none(), deals)})
    if act in (Act.SORT, Act.IMAGES):
        return st.fixed_dictionaries({"flag": st.booleans()})
    if act is Act.ADD_AI:
        return st.fixed_dictionaries({"tier": st.sampled_from(TIERS)})
    if act is Act.HOST:
        keys = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=24)
        host = st.builds(HostTool, st.sampled_from(HostToolKind), keys)
        return st.fixed_dictionaries({"host": host})
    return st.just({})


MENUS = {Act.ADD_AI, Act.HOST, Act.DISCARD}


@given(data=st.data(), act=st.sampled_from(Act), table=TABLE, version=VERSION, seat=SEAT)
def test_every_drawn_click_parses_back(
    data: st.DataObject, act: Act, table: str, version: int, seat: int | None
) -> None:
    click = Click(act, table, version, seat, **data.draw(_typed(act)))  # type: ignore[arg-type]
    menu = act in MENUS or (act is Act.DECLARE and data.draw(st.booleans()))
    if menu:
        values = [click.value()]
        cid = Click(act, table, version, seat).menu_id
        assert re.fullmatch(SELECT_TEMPLATE, cid) is not None
    else:
        values = []
        cid = click.id
        assert re.fullmatch(TEMPLATE, cid) is not None
    assert len(cid) <= 100
    assert parse(cid, values) == click


@pytest.mark.parametrize(
    ("custom_id", "values"),
    [
        ("rm:abcd:1:x:fly", []),  # no such action
        ("rm:abcd:1:x:join:extra", []),  # an argument where there is none
        ("rm:abcd:1:x:review", []),  # a review names its deal
        ("rm:abcd:1:x:review:two", []),
        ("rm:abcd:1:0:sort:sideways", []),
        ("rm:abcd:1:0:discard", []),  # a discard is a menu
        ("rs:abcd:1:0:discard", []),  # ... with one value
        ("rs:abcd:1:0:discard", ["3", "4"]),  # a discard carrying two values
        ("rs:abcd:1:0:discard", ["9999"]),
        ("rs:abcd:1:0:discard", ["-1"]),
        ("rs:abcd:1:0:discard", ["٣"]),  # a digit, but not an ASCII one
        ("rs:abcd:1:x:add_ai", ["grandmaster"]),
        ("rs:abcd:1:x:host", ["promote:u1"]),
        ("rs:abcd:1:x:host", ["remove:"]),
        ("rs:abcd:1:x:join", ["1"]),  # a button's action from a menu
        ("rm:abcd:1:0:draw", ["1"]),  # a button with a value
        ("rm:ABCD:1:0:draw", []),
        ("rm:abcd:1:0:draw:", []),
        ("xx:abcd:1:0:draw", []),
        ("", []),
    ],
)
def test_what_no_control_carries_is_refused(custom_id: str, values: list[str]) -> None:
    with pytest.raises(BadClick):
        parse(custom_id, values)


def test_old_ids_still_work() -> None:
    """Ids on messages posted before this version of the bot mean what they meant."""
    assert parse("rm:abcd1234:7:2:declare:45") == Click(Act.DECLARE, "abcd1234", 7, 2, card=45)
    assert parse("rm:abcd1234:7:x:next") == Click(Act.NEXT, "abcd1234", 7)
    assert parse("rm:abcd1234:7:x:hist:3") == Click(Act.HISTORY, "abcd1234", 7, deal=3)
    assert parse("rs:abcd1234:7:x:host", ["remove:ai2"]) == Click(
        Act.HOST, "abcd1234", 7, host=HostTool(HostToolKind.REMOVE, "ai2")
    )
    assert parse("rm:abcd1234:7:1:images:off") == Click(Act.IMAGES, "abcd1234", 7, 1, flag=False)
