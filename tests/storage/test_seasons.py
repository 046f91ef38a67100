"""Seasons in storage (bot.storage.seasons and the season scopes of the summaries), on both
backends: the plan in the settings, one open season per server, results counted in the season
open when they are recorded, a fresh season rating, and closed seasons that stay as they were
through late results, rebuilds and later changes."""

from __future__ import annotations

import pytest

from bot.storage import Storage, StorageError
from bot.storage.ratings import default_skill, rate_places
from tests.storage.helpers import DAY, NOW, G, match, raw, two_player_deal

WEEK = 7 * DAY
ALICE, BOB, CAROL = 1, 2, 3


async def open_one(st: Storage, start: int = NOW, guild: int = G) -> int:
    season = await st.seasons.open(
        guild, cadence="weekly", time_zone="Asia/Kolkata", starts_at=start, ends_at=start + WEEK
    )
    return season.number


async def close_one(st: Storage, number: int, at: int, guild: int = G) -> None:
    closed = await st.seasons.close(
        guild, number, closed_at=at, ended_by="boundary", ends_at=at, channel_id=77
    )
    assert closed is not None and closed.closed_at == at


async def deals_won(st: Storage, season: int | None) -> dict[int, int]:
    rows = await st.boards.leaderboard(G, sort="deals_won", season=season, now=NOW)
    return {r.user_id: int(r.value) for r in rows}


async def test_the_plan_defaults_to_off_and_is_stored(st: Storage) -> None:
    plain = await st.settings.get_settings(G)
    assert (plain.season, plain.time_zone, plain.season_channel_id) == ("off", None, None)
    chosen = await st.settings.update_settings(
        G, season="weekly", time_zone="Asia/Kolkata", season_channel_id=2**62
    )
    assert (chosen.season, chosen.time_zone, chosen.season_channel_id) == (
        "weekly",
        "Asia/Kolkata",
        2**62,
    )
    assert await st.settings.get_settings(G) == chosen
    # Other settings leave the plan alone; None puts a zone or a channel back.
    kept = await st.settings.update_settings(G, turn_timer=30)
    assert (kept.season, kept.time_zone) == ("weekly", "Asia/Kolkata")
    cleared = await st.settings.update_settings(G, time_zone=None, season_channel_id=None)
    assert (cleared.time_zone, cleared.season_channel_id) == (None, None)
    with pytest.raises(ValueError):
        await st.settings.update_settings(G, season="daily")
    assert (await st.settings.get_settings(G)).season == "weekly"


async def test_one_open_season_numbered_per_server(st: Storage) -> None:
    assert await st.seasons.current(G) is None
    first = await open_one(st)
    assert first == 1
    with pytest.raises(ValueError):  # close it first
        await open_one(st)
    assert await open_one(st, guild=G + 1) == 1  # another server counts its own
    await close_one(st, 1, NOW + WEEK)
    assert (
        await st.seasons.close(
            G, 1, closed_at=NOW + 2 * WEEK, ended_by="manager", ends_at=NOW, channel_id=None
        )
        is None
    ), "closing twice changes nothing"
    second = await open_one(st, NOW + WEEK)
    assert second == 2
    current = await st.seasons.current(G)
    assert current is not None and (current.number, current.starts_at) == (2, NOW + WEEK)
    assert [s.number for s in await st.seasons.recent(G)] == [2, 1]
    last = await st.seasons.last_closed(G)
    assert last is not None and last.number == 1 and not last.open
    assert (last.ended_by, last.channel_id, last.cadence) == ("boundary", 77, "weekly")
    # The soonest to end first (each arms a timer).
    assert [(s.guild_id, s.number) for s in await st.seasons.open_seasons()] == [
        (G + 1, 1),
        (G, 2),
    ]
    with pytest.raises(ValueError):
        await st.seasons.close(G, 2, closed_at=NOW, ended_by="bored", ends_at=NOW, channel_id=None)


async def test_a_closed_season_is_owed_its_post_until_marked(st: Storage) -> None:
    await open_one(st)
    assert await st.seasons.unannounced() == []
    assert not await st.seasons.mark_announced(G, 1), "an open season owes nothing"
    await close_one(st, 1, NOW + WEEK)
    assert [s.number for s in await st.seasons.unannounced()] == [1]
    assert await st.seasons.mark_announced(G, 1, now=NOW + WEEK + 5)
    assert not await st.seasons.mark_announced(G, 1), "a second mark is harmless"
    assert await st.seasons.unannounced() == []
    got = await st.seasons.get(G, 1)
    assert got is not None and got.announced_at == NOW + WEEK + 5


async def test_replanning_moves_only_the_open_seasons_end(st: Storage) -> None:
    await open_one(st)
    await close_one(st, 1, NOW + WEEK)
    await open_one(st, NOW + WEEK)
    replanned = await st.seasons.replan(
        G, cadence="monthly", time_zone="Europe/London", ends_at=NOW + 5 * WEEK
    )
    assert replanned is not None and replanned.number == 2
    assert (replanned.cadence, replanned.time_zone, replanned.ends_at) == (
        "monthly",
        "Europe/London",
        NOW + 5 * WEEK,
    )
    past = await st.seasons.get(G, 1)
    assert past is not None
    assert (past.cadence, past.time_zone, past.starts_at, past.ends_at) == (
        "weekly",
        "Asia/Kolkata",
        NOW,
        NOW + WEEK,
    ), "a season that ended keeps the dates and plan it had"
    with pytest.raises(ValueError):
        await st.seasons.replan(G, cadence="weekly", time_zone="UTC", ends_at=NOW)  # before start


async def test_results_count_in_the_season_open_when_recorded(st: Storage) -> None:
    # Before any season: all time only.
    await st.results.record_deal_result(two_player_deal("early", ALICE, BOB, 5, at=NOW - 10))
    await open_one(st)
    # Finished before the season began, recorded now: all time only.
    await st.results.record_deal_result(two_player_deal("late", ALICE, BOB, 5, at=NOW - 1))
    # Finished in the season: counted in it.
    await st.results.record_deal_result(two_player_deal("s1", BOB, ALICE, 7, at=NOW + 60))
    await st.results.record_deal_result(two_player_deal("s1b", CAROL, ALICE, 2, at=NOW + 90))
    assert await deals_won(st, 1) == {BOB: 1, CAROL: 1, ALICE: 0}
    assert await deals_won(st, None) == {ALICE: 2, BOB: 1, CAROL: 1}
    net = await st.boards.leaderboard(G, sort="net_chips", season=1, now=NOW)
    assert [(r.user_id, r.value) for r in net] == [(BOB, 7), (CAROL, 2), (ALICE, -9)]
    own = await st.boards.player_rank(G, ALICE, sort="net_chips", season=1, now=NOW)
    assert own is not None and (own.rank, own.value, own.games, own.total) == (3, -9, 2, 3)
    with pytest.raises(ValueError):
        await st.boards.leaderboard(G, sort="deals_won", period="7d", season=1, now=NOW)


async def test_a_season_rating_starts_afresh(st: Storage) -> None:
    # All time, alice beats bob twice before the season.
    for n in range(2):
        await st.results.record_match_result(
            match(f"pre{n}", [(ALICE, 1), (BOB, 2)], at=NOW - 100 + n)
        )
    await open_one(st)
    await st.results.record_match_result(match("in", [(BOB, 1), (ALICE, 2)], at=NOW + 5))
    season = await st.boards.leaderboard(G, season=1, now=NOW)
    fresh = rate_places([default_skill(), default_skill()], [1, 2])
    assert [(r.user_id, r.games) for r in season] == [(BOB, 1), (ALICE, 1)]
    assert season[0].value == pytest.approx(fresh[0].ordinal)
    assert season[1].value == pytest.approx(fresh[1].ordinal)
    all_time = await st.boards.leaderboard(G, now=NOW)
    assert [(r.user_id, r.games) for r in all_time] == [(ALICE, 3), (BOB, 3)]
    # A profile's season board too.
    points = await st.boards.leaderboard(G, "points", season=1, now=NOW)
    assert [r.user_id for r in points] == [BOB, ALICE]


async def test_a_closed_season_is_frozen(st: Storage) -> None:
    await open_one(st)
    await st.results.record_deal_result(two_player_deal("a", ALICE, BOB, 5, at=NOW + 10))
    await st.results.record_match_result(match("a", [(ALICE, 1), (BOB, 2)], at=NOW + 11))
    await close_one(st, 1, NOW + WEEK)
    await open_one(st, NOW + WEEK)
    before = await st.boards.leaderboard(G, season=1, now=NOW)
    won_before = await deals_won(st, 1)

    # A result of season 1 recorded after it closed counts all time only.
    await st.results.record_deal_result(two_player_deal("b", BOB, ALICE, 9, at=NOW + 20))
    await st.results.record_match_result(match("b", [(BOB, 1), (ALICE, 2)], at=NOW + 21))
    # One of season 2 counts there.
    await st.results.record_deal_result(two_player_deal("c", CAROL, BOB, 3, at=NOW + WEEK + 5))
    assert await deals_won(st, 1) == won_before
    assert await deals_won(st, 2) == {CAROL: 1, BOB: 0}
    assert await deals_won(st, None) == {ALICE: 1, BOB: 1, CAROL: 1}

    # A rebuild (an import, a repair) recomputes all time and the open season, never season 1.
    season_2 = await deals_won(st, 2)
    await st.results.rebuild_summaries(G)
    assert await st.boards.leaderboard(G, season=1, now=NOW) == before
    assert await deals_won(st, 1) == won_before
    assert await deals_won(st, 2) == season_2
    assert await deals_won(st, None) == {ALICE: 1, BOB: 1, CAROL: 1}
    all_time = await st.boards.leaderboard(G, now=NOW)
    assert {(r.user_id, r.games) for r in all_time} == {(ALICE, 2), (BOB, 2)}


async def test_a_rebuild_replays_the_open_season_as_recorded(st: Storage) -> None:
    await open_one(st)
    for n, (first, second) in enumerate([(ALICE, BOB), (BOB, CAROL), (ALICE, CAROL)]):
        await st.results.record_deal_result(two_player_deal(f"m{n}", first, second, 4, at=NOW + n))
        await st.results.record_match_result(match(f"m{n}", [(first, 1), (second, 2)], at=NOW + n))
    boards = {
        (sort, season): await st.boards.leaderboard(G, sort=sort, season=season, now=NOW)
        for sort in ("rating", "deals_won", "net_chips", "matches_won")
        for season in (None, 1)
    }
    await st.results.rebuild_summaries(G)
    for (sort, season), rows in boards.items():
        again = await st.boards.leaderboard(G, sort=sort, season=season, now=NOW)
        assert [(r.user_id, r.rank, r.games) for r in again] == [
            (r.user_id, r.rank, r.games) for r in rows
        ], (sort, season)
        for a, b in zip(again, rows, strict=True):
            assert a.value == pytest.approx(b.value)


async def test_forget_me_takes_a_player_off_every_season(st: Storage) -> None:
    await open_one(st)
    await st.results.record_match_result(match("a", [(ALICE, 1), (BOB, 2)], at=NOW + 1))
    await close_one(st, 1, NOW + WEEK)
    assert await st.privacy.forget_user(G, ALICE)
    assert [r.user_id for r in await st.boards.leaderboard(G, season=1, now=NOW)] == [BOB]
    assert await raw(st, "SELECT COUNT(*) FROM ratings WHERE user_id = ?", (ALICE,)) == [(0,)]


async def test_the_schema_keeps_one_open_season(st: Storage) -> None:
    """Under the API too: the partial unique index refuses a second open season."""
    await open_one(st)
    with pytest.raises(StorageError):
        async with st.transaction() as tx:
            await tx.execute(
                "INSERT INTO seasons (guild_id, number, cadence, time_zone, starts_at, ends_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (G, 2, "weekly", "UTC", NOW, NOW + WEEK),
            )
