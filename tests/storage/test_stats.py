"""A player's stats, rating history, recent deals and hand histories (bot.storage.stats)."""

from __future__ import annotations

import pytest

from bot.storage import (
    Storage,
)
from tests.storage.helpers import NOW, F, G, deal, match, seat, two_player_deal


async def test_ratings_move_with_results_and_keep_history(st: Storage) -> None:
    for i in range(5):
        await st.results.record_match_result(
            match(f"m{i}", [(1, 1), (2, 2), (3, 2), (None, 4)], at=NOW + i)
        )
    s1 = await st.boards.player_stats(G, 1)
    s2 = await st.boards.player_stats(G, 2)
    s3 = await st.boards.player_stats(G, 3)
    r1, r2, r3 = (x.profiles["points"].rating for x in (s1, s2, s3))
    assert r1 is not None and r2 is not None and r3 is not None
    assert r1.mu > 25 > r2.mu and r1.ordinal > r2.ordinal
    assert r2.mu == pytest.approx(r3.mu)  # tied place, same history
    assert r1.matches == 5
    assert r1.ordinal == pytest.approx(r1.mu - 3 * r1.sigma)
    hist = await st.boards.rating_history(G, 1, "points")
    assert [h.match_id for h in hist] == [f"m{i}" for i in range(5)]
    assert all(h.ordinal > h.ordinal_before for h in hist)
    # trend over the last 3 matches = current ordinal - ordinal before the 3rd-last
    s1_3 = (await st.boards.player_stats(G, 1, trend_matches=3)).profiles["points"]
    assert s1_3.rating_trend == pytest.approx(r1.ordinal - hist[2].ordinal_before)
    assert s1.overall_rating is not None and s1.overall_rating.ordinal == pytest.approx(r1.ordinal)


async def test_player_stats_match_hand_computation(st: Storage) -> None:
    u = 1
    rows = [
        ("won", F(0), F(60)),
        ("lost", F(40), F(-40)),
        ("dropped_first", F(20), F(-20)),
        ("dropped_middle", F(40), F(-40)),
        ("invalid_declaration", F(80), F(-80)),
        ("won", F(0), F(15, 2)),
        ("void", F(0), F(0)),
    ]
    for i, (outcome, pen, net) in enumerate(rows):
        await st.results.record_deal_result(
            deal("mx", i, [seat(u, outcome, net, pen), seat(2, "lost", -net)])
        )
    await st.results.record_deal_result(
        deal("pool", 1, [seat(u, "lost", -25, 25), seat(2, "won", 25)], profile="pool101")
    )
    await st.results.record_match_result(match("mx", [(u, 1), (2, 2)]))
    await st.results.record_match_result(match("pool", [(u, 2), (2, 1)], profile="pool101"))
    await st.results.record_match_result(match("my", [(u, 1), (2, 2)]))

    stats = await st.boards.player_stats(G, u)
    assert set(stats.profiles) == {"points", "pool101"}
    p = stats.profiles["points"]
    assert (p.deals_played, p.deals_won) == (6, 2)  # void not counted
    assert (p.matches_played, p.matches_won) == (2, 2)
    assert (p.drops_first, p.drops_middle, p.invalid_declarations) == (1, 1, 1)
    assert p.avg_penalty_when_losing == F(40 + 20 + 40 + 80, 4) == 45
    assert (p.best_deal, p.worst_deal) == (F(60), F(-80))
    assert p.net == F(60 - 40 - 20 - 40 - 80) + F(15, 2)
    assert p.rating is not None and p.rating.matches == 2
    q = stats.profiles["pool101"]
    assert (q.deals_played, q.deals_won, q.matches_played, q.matches_won) == (1, 0, 1, 0)
    assert q.avg_penalty_when_losing == 25 and q.net == -25
    none = await st.boards.player_stats(G, 999)
    assert none.profiles == {} and none.overall_rating is None


async def test_recent_deals_newest_first_and_limited(st: Storage) -> None:
    for i in range(15):
        await st.results.record_deal_result(
            two_player_deal("m", 1, 2, i + 1, deal_no=i, at=NOW + i)
        )
    rows = await st.boards.recent_deals(G, 2, limit=10)
    assert [r.deal_no for r in rows] == list(range(14, 4, -1))
    assert rows[0].outcome == "lost" and rows[0].net == -15 and rows[0].match_id == "m"
    assert await st.boards.recent_deals(G + 1, 2) == []


async def test_hand_history_is_per_guild(st: Storage) -> None:
    await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5, history='{"x": [1, 2]}'))
    (row,) = await st.boards.recent_deals(G, 1)
    assert await st.boards.hand_history(G, row.deal_id) == '{"x": [1, 2]}'
    assert await st.boards.hand_history(G + 1, row.deal_id) is None
    assert await st.boards.hand_history(G, row.deal_id + 100) is None


async def test_played_deals_says_who_may_download_a_hand_history(st: Storage) -> None:
    await st.results.record_deal_result(two_player_deal("m1", 1, 2, 10))
    await st.results.record_deal_result(two_player_deal("m2", 2, 3, 10))
    await st.results.record_deal_result(two_player_deal("x", 1, 3, 1, guild=G + 1))
    ids = {r.match_id: r.deal_id for r in await st.boards.recent_deals(G, 2)}
    [other_guild] = [r.deal_id for r in await st.boards.recent_deals(G + 1, 1)]
    every = [ids["m1"], ids["m2"], other_guild, 999]
    assert await st.boards.played_deals(G, 1, every) == {ids["m1"]}
    assert await st.boards.played_deals(G, 2, every) == {ids["m1"], ids["m2"]}
    assert await st.boards.played_deals(G, 4, every) == frozenset()
    assert await st.boards.played_deals(G, 1, []) == frozenset()
    await st.privacy.forget_user(G, 1)
    assert await st.boards.played_deals(G, 1, every) == frozenset()  # a forgotten seat is nobody's
