"""Hint levels in storage (migration 0008): every result keeps the level it was played at,
an unrated match moves no rating (also when ratings are replayed from the rows), and the
server's default level and its rated-games rule round-trip. On SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses

import pytest

from bot.storage import HintLevel, Storage
from tests.storage.helpers import G, deal, match, raw, seat


async def test_a_deal_keeps_its_hint_level_and_history_shows_it(st: Storage) -> None:
    off = dataclasses.replace(deal("m1", 1, [seat(1, "won", 10), seat(2)]), hints=HintLevel.OFF)
    assert await st.results.record_deal_result(off)
    assert await st.results.record_deal_result(deal("m2", 1, [seat(1, "won", 5), seat(2)]))
    rows = await raw(st, "SELECT match_id, hints FROM deals ORDER BY match_id")
    assert rows == [("m1", "off"), ("m2", "full")]
    recent = {r.match_id: r.hints for r in await st.boards.recent_deals(G, 1)}
    assert recent == {"m1": HintLevel.OFF, "m2": HintLevel.FULL}


async def test_a_bad_hint_level_writes_nothing(st: Storage) -> None:
    bad = dataclasses.replace(deal("m1", 1, [seat(1, "won"), seat(2)]), hints="some")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await st.results.record_deal_result(bad)
    assert await raw(st, "SELECT COUNT(*) FROM deals") == [(0,)]


async def test_an_unrated_match_counts_but_moves_no_rating(st: Storage) -> None:
    unrated = dataclasses.replace(
        match("m1", [(1, 1), (2, 2)]), hints=HintLevel.GROUPS, rated=False
    )
    assert await st.results.record_match_result(unrated)
    stats = await st.boards.player_stats(G, 1)
    assert stats.profiles["points"].matches_won == 1  # the totals count it
    assert stats.overall_rating is None  # nobody was rated
    assert await raw(st, "SELECT hints, rated FROM matches") == [("groups", 0)]

    rated = dataclasses.replace(match("m2", [(1, 1), (2, 2)]), hints=HintLevel.OFF)
    assert await st.results.record_match_result(rated)
    after = await st.boards.player_stats(G, 1)
    assert after.overall_rating is not None and after.overall_rating.matches == 1
    # A replay from the rows agrees: the unrated match stays unrated.
    await st.results.rebuild_summaries(G)
    replayed = await st.boards.player_stats(G, 1)
    assert replayed.overall_rating == after.overall_rating
    assert replayed.profiles["points"].matches_played == 2


async def test_bulk_import_keeps_hint_levels_and_rated(st: Storage) -> None:
    d = dataclasses.replace(deal("m1", 1, [seat(1, "won"), seat(2)]), hints=HintLevel.OFF)
    m = dataclasses.replace(match("m1", [(1, 1), (2, 2)]), hints=HintLevel.FULL, rated=False)
    assert await st.results.import_results([d], [m]) == (1, 1)
    assert await raw(st, "SELECT hints FROM deals") == [("off",)]
    assert await raw(st, "SELECT hints, rated FROM matches") == [("full", 0)]
    assert (await st.boards.player_stats(G, 1)).overall_rating is None


async def test_server_hint_settings_round_trip(st: Storage) -> None:
    d = await st.settings.get_settings(G)
    assert (d.hints, d.rated_hints_off) == (HintLevel.FULL, False)
    upd = await st.settings.update_settings(G, hints="off", rated_hints_off=True)
    assert (upd.hints, upd.rated_hints_off) == (HintLevel.OFF, True)
    kept = await st.settings.update_settings(G, turn_timer=30)  # other fields untouched
    assert (kept.hints, kept.rated_hints_off, kept.turn_timer) == (HintLevel.OFF, True, 30)
    assert await st.settings.get_settings(G) == kept
    with pytest.raises(ValueError):
        await st.settings.update_settings(G, hints="most")
    with pytest.raises(ValueError):
        await st.settings.update_settings(G, rated_hints_off=1)  # type: ignore[arg-type]
    assert (await st.settings.get_settings(G + 1)).hints is HintLevel.FULL
