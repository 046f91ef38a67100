"""Leaderboards and rolling periods (bot.storage.leaderboards, bot.storage.summaries)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.storage import (
    DealRecord,
    MatchRecord,
    Storage,
)
from tests.storage.helpers import DAY, NOW, F, G, deal, match, seat, two_player_deal


async def _ladder(s: Storage, n: int) -> None:
    """Player u (1..n) wins u deals against player 1000+u (who never wins)."""
    results = []
    for u in range(1, n + 1):
        for k in range(u):
            results.append(two_player_deal(f"l{u}", u, 1000 + u, 1, deal_no=k))
    for r in results:
        assert await s.results.record_deal_result(r)


async def test_leaderboard_ordering_and_pagination(st: Storage) -> None:
    await _ladder(st, 25)
    page1 = await st.boards.leaderboard(G, sort="deals_won", limit=10, now=NOW)
    page2 = await st.boards.leaderboard(G, sort="deals_won", limit=10, offset=10, now=NOW)
    page3 = await st.boards.leaderboard(G, sort="deals_won", limit=10, offset=20, now=NOW)
    assert [r.user_id for r in page1] == list(range(25, 15, -1))
    assert [r.rank for r in page1] == list(range(1, 11))
    assert [r.user_id for r in page2] == list(range(15, 5, -1))
    assert [r.rank for r in page2] == list(range(11, 21))
    assert [r.value for r in page3[:5]] == [5, 4, 3, 2, 1]
    # the 25 losers all have 0 wins: they share rank 26, ordered by user id
    assert [r.rank for r in page3[5:]] == [26] * 5
    assert [r.user_id for r in page3[5:]] == [1001, 1002, 1003, 1004, 1005]
    assert page1[0].name == "p25" and page1[0].games == 25
    assert await st.boards.leaderboard(G, sort="deals_won", offset=100, now=NOW) == []
    assert await st.boards.leaderboard(G + 1, sort="deals_won", now=NOW) == []

    own = await st.boards.player_rank(G, 3, sort="deals_won", now=NOW)
    assert own is not None and (own.rank, own.value, own.games, own.total) == (23, 3, 3, 50)
    loser = await st.boards.player_rank(G, 1017, sort="deals_won", now=NOW)
    assert loser is not None and loser.rank == 26
    assert await st.boards.player_rank(G, 424242, sort="deals_won", now=NOW) is None


async def test_ties_share_rank_across_page_boundary(st: Storage) -> None:
    for u in (1, 2, 3, 4):
        await st.results.record_deal_result(two_player_deal(f"m{u}", u, 100 + u, 3))
    rows = await st.boards.leaderboard(G, sort="net_chips", limit=2, offset=2, now=NOW)
    assert [(r.rank, r.user_id, r.value) for r in rows] == [(1, 3, 3), (1, 4, 3)]
    rows = await st.boards.leaderboard(G, sort="net_chips", limit=3, offset=3, now=NOW)
    assert [r.rank for r in rows] == [1, 5, 5]


async def test_win_rate_min_games(st: Storage) -> None:
    # user 1: 1 of 1 (100%, too few games); user 2: 4 of 5; user 3: 3 of 6
    await st.results.record_deal_result(two_player_deal("a", 1, 9, 1))
    for k in range(5):
        await st.results.record_deal_result(
            two_player_deal("b", 2, 9, 1, deal_no=k)
            if k < 4
            else two_player_deal("b", 9, 2, 1, deal_no=k)
        )
    for k in range(6):
        await st.results.record_deal_result(
            two_player_deal("c", 3, 9, 1, deal_no=k)
            if k < 3
            else two_player_deal("c", 9, 3, 1, deal_no=k)
        )
    rows = await st.boards.leaderboard(G, sort="win_rate", now=NOW)
    assert [(r.user_id, r.value, r.games) for r in rows] == [
        (2, 0.8, 5),
        (3, 0.5, 6),
        (9, 4 / 12, 12),
    ]
    assert await st.boards.player_rank(G, 1, sort="win_rate", now=NOW) is None
    rows = await st.boards.leaderboard(G, sort="win_rate", min_games=1, now=NOW)
    assert rows[0].user_id == 1 and rows[0].value == 1.0


async def test_leaderboard_periods(st: Storage) -> None:
    await st.results.record_deal_result(two_player_deal("old", 1, 2, 10, at=NOW - 40 * DAY))
    await st.results.record_deal_result(two_player_deal("mid", 2, 1, 4, at=NOW - 10 * DAY))
    await st.results.record_deal_result(two_player_deal("new", 3, 1, 1, at=NOW - 1 * DAY))

    def vals(rows):  # type: ignore[no-untyped-def]
        return {r.user_id: r.value for r in rows}

    assert vals(await st.boards.leaderboard(G, sort="net_chips", now=NOW)) == {1: 5, 2: -6, 3: 1}
    assert vals(await st.boards.leaderboard(G, sort="net_chips", period="30d", now=NOW)) == {
        1: -5,
        2: 4,
        3: 1,
    }
    assert vals(await st.boards.leaderboard(G, sort="net_chips", period="7d", now=NOW)) == {
        1: -1,
        3: 1,
    }
    # recording into the materialised window updates it immediately
    await st.results.record_deal_result(two_player_deal("today", 1, 3, 7, at=NOW))
    assert vals(await st.boards.leaderboard(G, sort="net_chips", period="7d", now=NOW)) == {
        1: 6,
        3: -6,
    }
    # rolling forward: 3 days later the "new" deal is still inside 7d, 7 days later not
    assert vals(
        await st.boards.leaderboard(G, sort="deals_won", period="7d", now=NOW + 3 * DAY)
    ) == {
        1: 1,
        3: 1,
    }
    assert vals(
        await st.boards.leaderboard(G, sort="deals_won", period="7d", now=NOW + 6 * DAY)
    ) == {
        1: 1,
        3: 0,
    }
    assert (
        vals(await st.boards.leaderboard(G, sort="deals_won", period="7d", now=NOW + 7 * DAY)) == {}
    )
    rank = await st.boards.player_rank(G, 2, sort="net_chips", period="30d", now=NOW)
    assert rank is not None and (rank.rank, rank.value, rank.total) == (1, 4, 3)


async def test_rating_board_and_period_filter(st: Storage) -> None:
    # 1 beats 2 twice (long ago); 3 beats 4 yesterday
    await st.results.record_match_result(match("a", [(1, 1), (2, 2)], at=NOW - 40 * DAY))
    await st.results.record_match_result(match("b", [(1, 1), (2, 2)], at=NOW - 39 * DAY))
    await st.results.record_match_result(match("c", [(3, 1), (4, 2)], at=NOW - DAY))
    rows = await st.boards.leaderboard(G, sort="rating", now=NOW)
    assert [r.user_id for r in rows] == [1, 3, 4, 2]
    assert rows[0].games == 2
    assert all(isinstance(r.value, float) for r in rows)
    recent = await st.boards.leaderboard(G, sort="rating", period="7d", now=NOW)
    assert [r.user_id for r in recent] == [3, 4]
    per_profile = await st.boards.leaderboard(G, profile="points", sort="rating", now=NOW)
    assert [r.user_id for r in per_profile] == [1, 3, 4, 2]
    assert await st.boards.leaderboard(G, profile="pool", sort="rating", now=NOW) == []


async def test_profile_filter_and_all_scope(st: Storage) -> None:
    await st.results.record_deal_result(two_player_deal("p1", 1, 2, 10, profile="points"))
    await st.results.record_deal_result(two_player_deal("q1", 2, 1, 3, profile="pool101"))
    pts = await st.boards.leaderboard(G, profile="points", sort="net_chips", now=NOW)
    pool = await st.boards.leaderboard(G, profile="pool101", sort="net_chips", now=NOW)
    both = await st.boards.leaderboard(G, sort="net_chips", now=NOW)
    assert [(r.user_id, r.value) for r in pts] == [(1, 10), (2, -10)]
    assert [(r.user_id, r.value) for r in pool] == [(2, 3), (1, -3)]
    assert [(r.user_id, r.value, r.games) for r in both] == [(1, 7, 2), (2, -7, 2)]
    with pytest.raises(ValueError):
        await st.boards.leaderboard(G, sort="elo")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await st.boards.leaderboard(G, period="1y")  # type: ignore[arg-type]


def _brute_board(
    deals: list[DealRecord], matches: list[MatchRecord], profile: str | None, lo: int, hi: int
) -> dict[int, tuple[int, int, int, int, Fraction]]:
    out: dict[int, list] = {}  # type: ignore[type-arg]
    for d in deals:
        if (profile and d.profile != profile) or not lo <= d.finished_at < hi:
            continue
        for s in d.seats:
            if s.is_ai or s.user_id is None or s.outcome == "void":
                continue  # void deals are stored but count for nothing
            row = out.setdefault(s.user_id, [0, 0, 0, 0, F(0)])
            row[0] += 1
            row[1] += s.outcome == "won"
            row[4] += s.net
    for m in matches:
        if (profile and m.profile != profile) or not lo <= m.finished_at < hi:
            continue
        for ms in m.seats:
            if ms.user_id is None:
                continue
            row = out.setdefault(ms.user_id, [0, 0, 0, 0, F(0)])
            row[2] += 1
            row[3] += ms.is_winner
    return {u: tuple(v) for u, v in out.items()}  # type: ignore[misc]


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_boards_match_brute_force_while_time_rolls(seed: int) -> None:
    """Random results over 60 days; for a sequence of 'now' values (forward by one
    day, by several, a jump, and backwards) every board equals a brute-force count."""
    rng = random.Random(seed)
    outcomes = ["won", "lost", "dropped_first", "dropped_middle", "invalid_declaration", "void"]
    deals: list[DealRecord] = []
    matches: list[MatchRecord] = []
    s = await Storage.open(":memory:")
    try:
        nows = [NOW, NOW + DAY, NOW + 4 * DAY, NOW + 40 * DAY, NOW - 3 * DAY, NOW + 5 * DAY]
        for step, now in enumerate(nows):
            for i in range(40):
                users = rng.sample(range(1, 12), rng.randint(2, 4))
                profile = rng.choice(["points", "pool101"])
                at = now - rng.randint(0, 45 * DAY)
                seats = [
                    seat(u, rng.choice(outcomes), F(rng.randint(-80, 80), rng.choice([1, 2, 4])))
                    for u in users
                ] + [seat(None, "lost", -3)]
                d = deal(f"r{step}-{i}", 1, seats, profile=profile, at=at)
                deals.append(d)
                assert await s.results.record_deal_result(d)
                if i % 4 == 0:
                    places = list(range(1, len(users) + 1))
                    rng.shuffle(places)
                    m = match(
                        f"r{step}-{i}",
                        list(zip(users, places, strict=True)),
                        profile=profile,
                        at=at,
                    )
                    matches.append(m)
                    assert await s.results.record_match_result(m)
            day0 = now // DAY
            for period, days in (("all", None), ("7d", 7), ("30d", 30)):
                lo, hi = (0, 2**62) if days is None else ((day0 - days + 1) * DAY, (day0 + 1) * DAY)
                for profile in (None, "points"):
                    expect = _brute_board(deals, matches, profile, lo, hi)
                    for sort, idx in (("deals_won", 1), ("matches_won", 3), ("net_chips", 4)):
                        rows = await s.boards.leaderboard(
                            G,
                            profile,
                            sort,
                            period,
                            limit=100,
                            now=now,  # type: ignore[arg-type]
                        )
                        got = {r.user_id: r.value for r in rows}
                        want = {u: v[idx] for u, v in expect.items() if v[0] or v[2]}
                        assert got == want, (period, profile, sort, now)
                        values = [r.value for r in rows]
                        assert values == sorted(values, reverse=True)
                    rows = await s.boards.leaderboard(
                        G,
                        profile,
                        "win_rate",
                        period,
                        limit=100,
                        min_games=3,
                        now=now,  # type: ignore[arg-type]
                    )
                    want_wr = {u: v[1] / v[0] for u, v in expect.items() if v[0] >= 3}
                    assert {r.user_id: r.value for r in rows} == pytest.approx(want_wr)
        # the incrementally maintained summaries equal a from-scratch rebuild
        before = {
            sort: await s.boards.leaderboard(G, None, sort, "all", limit=100, min_games=0, now=NOW)  # type: ignore[arg-type]
            for sort in ("rating", "matches_won", "deals_won", "net_chips", "win_rate")
        }
        await s.results.rebuild_summaries(G)
        for sort, rows in before.items():
            again = await s.boards.leaderboard(
                G, None, sort, "all", limit=100, min_games=0, now=NOW
            )  # type: ignore[arg-type]
            if sort == "rating":
                # replay order is by finished_at, recording order was not: same players
                assert {r.user_id for r in again} == {r.user_id for r in rows}
            else:
                assert again == rows, sort
    finally:
        await s.close()
