"""Custom ids: within Discord's 100 characters, and recognised by the right component class."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.discord_ui.components import (
    CUSTOM_ID_TEMPLATE,
    SELECT_TEMPLATE,
    ComponentId,
    custom_id,
)


def test_custom_ids_fit_discord_and_templates() -> None:
    cid = custom_id("abcdefghij", 123456789, 5, "confirm_drop", "1234")
    assert len(cid) <= 100
    m = re.fullmatch(CUSTOM_ID_TEMPLATE, cid)
    assert m is not None and m["version"] == "123456789" and m["seat"] == "5"
    assert re.fullmatch(SELECT_TEMPLATE, "rs" + cid[2:]) is not None
    assert re.fullmatch(CUSTOM_ID_TEMPLATE, "rs" + cid[2:]) is None


@given(
    table=st.text("0123456789abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=16),
    version=st.integers(0, 999_999_999),
    seat=st.one_of(st.none(), st.integers(0, 99)),
    action=st.text("abcdefghijklmnopqrstuvwxyz_", min_size=2, max_size=16),
    arg=st.text("0123456789abcdefghijklmnopqrstuvwxyz_-", max_size=24),
)
def test_custom_id_round_trip(
    table: str, version: int, seat: int | None, action: str, arg: str
) -> None:
    cid = custom_id(table, version, seat, action, arg)
    assert len(cid) <= 100
    m = re.fullmatch(CUSTOM_ID_TEMPLATE, cid)
    assert m is not None
    assert ComponentId.from_match(m) == ComponentId(table, version, seat, action, arg)
