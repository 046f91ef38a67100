"""Finished deals and matches, written once (bot.storage.results)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest

from bot.storage import (
    DealSeatRecord,
    Storage,
)
from tests.storage.helpers import DAY, NOW, F, G, deal, match, seat, two_player_deal


async def test_record_deal_twice_counts_once(st: Storage) -> None:
    d = two_player_deal("m1", 1, 2, F(15, 2))
    assert await st.results.record_deal_result(d) is True
    assert await st.results.record_deal_result(d) is False
    rows = await st.boards.leaderboard(G, sort="deals_won", now=NOW)
    assert [(r.user_id, r.value, r.games) for r in rows] == [(1, 1, 1), (2, 0, 1)]
    assert len(await st.boards.recent_deals(G, 1)) == 1


async def test_concurrent_duplicate_results_counted_once(st: Storage) -> None:
    d = two_player_deal("m1", 1, 2, 5)
    m = match("m1", [(1, 1), (2, 2)])
    deal_flags = await asyncio.gather(*(st.results.record_deal_result(d) for _ in range(20)))
    match_flags = await asyncio.gather(*(st.results.record_match_result(m) for _ in range(20)))
    assert sorted(deal_flags) == [False] * 19 + [True]
    assert sorted(match_flags) == [False] * 19 + [True]
    stats = (await st.boards.player_stats(G, 1)).profiles["points"]
    assert (stats.deals_played, stats.matches_played, stats.net) == (1, 1, F(5))
    assert stats.rating is not None and stats.rating.matches == 1
    assert len(await st.boards.rating_history(G, 1, "points")) == 1


async def test_same_deal_number_in_other_match_is_distinct(st: Storage) -> None:
    assert await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5))
    assert await st.results.record_deal_result(two_player_deal("m2", 1, 2, 5))
    assert await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5, deal_no=2))
    assert (await st.boards.player_stats(G, 1)).profiles["points"].deals_won == 3


async def test_exact_fractions_round_trip(st: Storage) -> None:
    await st.results.record_deal_result(
        deal("m1", 1, [seat(1, "won", F(15, 2)), seat(2, "lost", -7.5, penalty=7.5)])  # type: ignore[arg-type]
    )
    for i in range(3):  # 1/3 three times must be exactly 1, not 0.999...
        await st.results.record_deal_result(
            deal("m2", i, [seat(1, "won", F(1, 3)), seat(2, "lost", F(-1, 3), F(1, 3))])
        )
    recent = await st.boards.recent_deals(G, 2)
    assert recent[-1].net == F(-15, 2) and isinstance(recent[-1].net, Fraction)
    stats = (await st.boards.player_stats(G, 2)).profiles["points"]
    assert stats.net == F(-17, 2)
    assert stats.avg_penalty_when_losing == (F(15, 2) + 1) / 4
    board = await st.boards.leaderboard(G, sort="net_chips", now=NOW)
    assert [r.value for r in board] == [F(17, 2), F(-17, 2)]
    week = await st.boards.leaderboard(G, sort="net_chips", period="7d", now=NOW)
    assert [r.value for r in week] == [F(17, 2), F(-17, 2)]
    assert str(week[0].value) == "17/2"


async def test_result_validation(st: Storage) -> None:
    with pytest.raises(ValueError):  # human without user id
        await st.results.record_deal_result(
            deal("m", 1, [DealSeatRecord(None, "x", False, "won", F(0), F(0))])
        )
    with pytest.raises(ValueError):
        await st.results.record_deal_result(deal("m", 1, [seat(1, "bogus")]))
    with pytest.raises(ValueError):  # same human twice
        await st.results.record_deal_result(deal("m", 1, [seat(1, "won"), seat(1, "lost")]))
    with pytest.raises(ValueError):
        await st.results.record_match_result(match("m", [(1, 0), (2, 1)]))
    assert await st.boards.recent_deals(G, 1) == []


async def test_ai_seats_kept_in_results_but_not_in_boards_or_ratings(st: Storage) -> None:
    ai_with_id = DealSeatRecord(
        user_id=555, name="Bot", is_ai=True, outcome="won", penalty=F(0), net=F(40)
    )
    d = deal("m1", 1, [ai_with_id, seat(None, "lost", -20, 20), seat(1, "lost", -20, 20)])
    assert await st.results.record_deal_result(d)
    m = match("m1", [(None, 1), (1, 2)])
    assert await st.results.record_match_result(m)
    for sort in ("rating", "matches_won", "deals_won", "net_chips", "win_rate"):
        rows = await st.boards.leaderboard(G, sort=sort, min_games=0, now=NOW)  # type: ignore[arg-type]
        assert all(r.user_id == 1 for r in rows), sort
    assert await st.boards.player_rank(G, 555, sort="net_chips", now=NOW) is None
    assert (await st.boards.player_stats(G, 555)).profiles == {}
    # one human vs AI: nothing to learn, so no rating at all
    assert (await st.boards.player_stats(G, 1)).profiles["points"].rating is None
    # the hand history (the result itself) still has all three seats
    (row,) = await st.boards.recent_deals(G, 1)
    assert row.net == -20


async def test_import_counts_a_result_repeated_in_its_batch_once(st: Storage) -> None:
    """One batch holding a result twice, next to one already recorded: each is stored
    once (the bulk insert learns which rows were new from RETURNING, per backend)."""
    first = two_player_deal("m0", 1, 4, F(3, 2))
    assert await st.results.record_deal_result(first)
    again = two_player_deal("m1", 1, 4, F(5, 2))
    deals = [first, again, again, two_player_deal("m2", 2, 4, F(1))]
    m = match("m1", [(1, 1), (4, 2)])
    assert await st.results.import_results(deals, [m, m]) == (2, 1)
    assert await st.results.import_results(deals, [m]) == (0, 0)
    assert len(await st.boards.recent_deals(G, 1)) == 2
    (line,) = [
        r
        for r in await st.boards.leaderboard(G, None, "deals_won", min_games=1, now=NOW)
        if r.user_id == 1
    ]
    assert line.games == 2


async def test_import_results_is_idempotent_and_equals_recording(st: Storage) -> None:
    deals = [two_player_deal(f"m{i}", 1 + i % 3, 4, F(i, 2), at=NOW - i * DAY) for i in range(12)]
    matches = [match(f"m{i}", [(1 + i % 3, 1), (4, 2)], at=NOW - i * DAY) for i in range(12)]
    assert await st.results.import_results(deals, matches, batch_size=5) == (12, 12)
    assert await st.results.import_results(deals, matches) == (0, 0)  # nothing counted twice
    for d in deals[:3]:
        assert not await st.results.record_deal_result(d)
    imported = {
        (sort, period): await st.boards.leaderboard(G, None, sort, period, min_games=1, now=NOW)
        for sort in ("rating", "matches_won", "deals_won", "net_chips", "win_rate")
        for period in ("all", "7d")
    }
    async with await Storage.open(":memory:") as other:
        for d in deals:
            await other.results.record_deal_result(d)
        for m in reversed(matches):  # recorded in finished_at order, like the replay
            await other.results.record_match_result(m)
        for (sort, period), rows in imported.items():
            again = await other.boards.leaderboard(G, None, sort, period, min_games=1, now=NOW)  # type: ignore[arg-type]
            if sort == "rating":
                assert [r.user_id for r in again] == [r.user_id for r in rows]
                assert [r.value for r in again] == pytest.approx([r.value for r in rows])
            else:
                assert again == rows, (sort, period)
