"""Behavioural tests for bot.storage (the only module that talks SQL)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest

from bot import storage as storage_mod
from bot.storage import (
    DELETED_NAME,
    DealResult,
    DealSeat,
    MatchResult,
    MatchSeat,
    Migration,
    NotFoundError,
    Storage,
    StorageError,
    VersionConflictError,
    load_migrations,
)

G = 1000  # guild id
NOW = 1_750_000_000  # a fixed "now" (unix seconds) so period tests are deterministic
DAY = 86_400
F = Fraction


@pytest.fixture
async def st() -> AsyncIterator[Storage]:
    s = await Storage.open(":memory:")
    try:
        yield s
    finally:
        await s.close()


async def raw(s: Storage, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Peek at the raw database (tests only) on the storage's worker thread."""
    assert s._db is not None
    return await storage_mod._run_on_worker(s._db, lambda c: c.execute(sql, args).fetchall())


def seat(
    user: int | None,
    outcome: str = "lost",
    net: Fraction | int = 0,
    penalty: Fraction | int = 0,
    name: str | None = None,
) -> DealSeat:
    return DealSeat(
        user_id=user,
        name=name or (f"p{user}" if user is not None else "AI"),
        is_ai=user is None,
        outcome=outcome,  # type: ignore[arg-type]
        penalty=F(penalty),
        net=F(net),
    )


def deal(
    match_id: str,
    deal_no: int,
    seats: list[DealSeat],
    *,
    guild: int = G,
    profile: str = "points",
    at: int = NOW,
    history: str = '{"moves": []}',
) -> DealResult:
    return DealResult(G if guild is None else guild, match_id, deal_no, profile, at, history, seats)


def match(
    match_id: str,
    places: list[tuple[int | None, int]],
    *,
    guild: int = G,
    profile: str = "points",
    at: int = NOW,
) -> MatchResult:
    seats = [
        MatchSeat(
            user_id=u,
            name=f"p{u}" if u is not None else "AI",
            is_ai=u is None,
            place=p,
            is_winner=p == 1,
            net=F(0),
        )
        for u, p in places
    ]
    return MatchResult(match_id, guild, profile, at, seats)


def two_player_deal(
    match_id: str, winner: int, loser: int, amount: Fraction | int, **kw
) -> DealResult:  # type: ignore[no-untyped-def]
    a = F(amount)
    return deal(
        match_id, kw.pop("deal_no", 1), [seat(winner, "won", a), seat(loser, "lost", -a, a)], **kw
    )


# ------------------------------------------------------------------ migrations


def _schema(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        ).fetchall()
    finally:
        conn.close()
    return [(t, n, " ".join(s.split())) for t, n, s in rows]


async def test_fresh_database_is_fully_migrated(tmp_path: Path) -> None:
    migrations = load_migrations()
    assert len(migrations) >= 2
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    path = tmp_path / "sub" / "dir" / "bot.db"  # parent dirs are created
    async with await Storage.open(path) as s:
        assert await s.schema_version() == migrations[-1].version
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY 1")]
        assert versions == [m.version for m in migrations]
    finally:
        conn.close()


async def test_foreign_keys_enforced(st: Storage) -> None:
    # an event for an unknown table is refused (FK), not silently orphaned
    with pytest.raises(NotFoundError):
        await st.append_event("nope", 1, "{}")
    assert await raw(st, "PRAGMA foreign_keys") == [(1,)]


def _seed_v1(path: Path) -> None:
    """Raw rows in the 0001 base tables, as an old bot version would have left them."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO deals (deal_id, guild_id, match_id, deal_no, profile, finished_at,"
            " hand_history) VALUES (1, ?, 'old', 1, 'points', ?, '{}')",
            (G, NOW),
        )
        conn.executemany(
            "INSERT INTO deal_seats (deal_id, seat, guild_id, profile, finished_at, user_id, name,"
            " is_ai, outcome, penalty_num, penalty_den, net_num, net_den)"
            " VALUES (1, ?, ?, 'points', ?, ?, ?, 0, ?, ?, 2, ?, 2)",
            [(0, G, NOW, 1, "one", "won", 0, 15), (1, G, NOW, 2, "two", "lost", 15, -15)],
        )
        conn.execute(
            "INSERT INTO player_names (guild_id, user_id, name)"
            " VALUES (?, 1, 'one'), (?, 2, 'two')",
            (G, G),
        )
        conn.execute(
            "INSERT INTO game_tables (table_id, guild_id, channel_id, host_id, status, state_json,"
            " version, created_at, updated_at) VALUES ('t-old', ?, 5, 1, 'playing', '{}', 3, 0, 0)",
            (G,),
        )
    conn.close()


@pytest.mark.parametrize("start", range(len(load_migrations())))
async def test_upgrade_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    """Apply migrations 1..start, then open normally: the result must be identical to
    a fresh database and keep the data. New migration files are covered automatically."""
    fresh = tmp_path / "fresh.db"
    async with await Storage.open(fresh):
        pass
    old = tmp_path / "old.db"
    async with await Storage.open(old, migrate_to=start) as s:
        assert await s.schema_version() == start
    if start >= 1:
        _seed_v1(old)
    async with await Storage.open(old) as s:
        latest = load_migrations()[-1].version
        assert await s.schema_version() == latest
        assert _schema(old) == _schema(fresh)
        if start >= 1:
            assert [t.table_id for t in await s.load_open_tables()] == ["t-old"]
            await s.rebuild_summaries(G)
            rows = await s.leaderboard(G, sort="net_chips", now=NOW)
            assert [(r.user_id, r.value) for r in rows] == [(1, F(15, 2)), (2, F(-15, 2))]
            assert (await s.recent_deals(G, 2))[0].net == F(-15, 2)


async def test_failed_migration_rolls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = load_migrations()
    broken = Migration(
        len(real) + 1,
        "broken",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    monkeypatch.setattr(storage_mod, "load_migrations", lambda: [*real, broken])
    path = tmp_path / "b.db"
    with pytest.raises(sqlite3.OperationalError):
        await Storage.open(path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == len(real)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "half_done" not in names
    finally:
        conn.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "n.db"
    async with await Storage.open(path):
        pass
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO schema_version VALUES (999, 'future', 0)")
    conn.close()
    with pytest.raises(StorageError, match="newer"):
        await Storage.open(path)


def test_split_sql_handles_triggers_and_comments() -> None:
    script = (
        "-- comment; with semicolon\nCREATE TABLE a (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  UPDATE a SET x = 'y';\nEND;\n-- tail\n"
    )
    parts = storage_mod._split_sql(script)
    assert len(parts) == 2
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")


# ----------------------------------------------------------------- game tables


async def _new_table(s: Storage, table_id: str = "t1", version: int = 1) -> None:
    await s.save_table(
        table_id,
        guild_id=G,
        channel_id=55,
        host_id=7,
        status="lobby",
        state_json='{"seats": [7]}',
        version=version,
        public_message_id=900,
        now=NOW,
    )


async def test_save_table_version_only_increases(st: Storage) -> None:
    await _new_table(st)
    with pytest.raises(VersionConflictError):
        await _new_table(st, version=1)  # same version: stale
    await st.save_table(
        "t1", guild_id=G, channel_id=55, host_id=7, status="playing", state_json="{}", version=4
    )
    with pytest.raises(VersionConflictError):
        await st.save_table(
            "t1", guild_id=G, channel_id=55, host_id=7, status="lobby", state_json="old", version=3
        )
    t = await st.load_table("t1")
    assert t is not None and t.version == 4 and t.status == "playing" and t.state_json == "{}"


async def test_commit_action_writes_snapshot_and_event_together(st: Storage) -> None:
    await _new_table(st)
    await st.commit_action(
        "t1",
        2,
        '{"v": 2}',
        '{"act": "draw"}',
        status="playing",
        turn_deadline=NOW + 60.5,
        prompt_message_id=901,
        now=NOW,
    )
    await st.commit_action("t1", 3, '{"v": 3}', '{"act": "discard"}', now=NOW + 1)
    t = await st.load_table("t1")
    assert t is not None
    assert (t.version, t.state_json, t.status) == (3, '{"v": 3}', "playing")
    assert (t.turn_deadline, t.prompt_message_id, t.public_message_id) == (NOW + 60.5, 901, 900)
    events = await st.load_events("t1")
    assert [(e.seq, e.event_json) for e in events] == [
        (2, '{"act": "draw"}'),
        (3, '{"act": "discard"}'),
    ]
    assert [e.seq for e in await st.load_events("t1", after_seq=2)] == [3]

    # a stale action changes nothing: no event, no snapshot
    with pytest.raises(VersionConflictError):
        await st.commit_action("t1", 3, '{"v": "stale"}', '{"act": "stale"}')
    assert len(await st.load_events("t1")) == 2
    assert (await st.load_table("t1")).state_json == '{"v": 3}'  # type: ignore[union-attr]

    # atomicity: if the event cannot be written, the snapshot is rolled back as well
    await st.append_event("t1", 4, '{"note": "squatter"}')
    with pytest.raises(sqlite3.IntegrityError):
        await st.commit_action("t1", 4, '{"v": 4}', '{"act": "x"}')
    assert (await st.load_table("t1")).version == 3  # type: ignore[union-attr]

    with pytest.raises(NotFoundError):
        await st.commit_action("missing", 1, "{}", "{}")


async def test_turn_deadline_can_be_cleared_and_messages_set(st: Storage) -> None:
    await _new_table(st)
    await st.commit_action("t1", 2, "{}", "{}", turn_deadline=NOW + 5.0)
    await st.commit_action("t1", 3, "{}", "{}", turn_deadline=None)
    await st.set_table_messages("t1", prompt_message_id=42)
    t = await st.load_table("t1")
    assert t is not None and t.turn_deadline is None and t.prompt_message_id == 42
    assert t.version == 3  # message ids do not bump the game version
    with pytest.raises(NotFoundError):
        await st.set_table_messages("zzz", public_message_id=1)


async def test_close_table_and_open_tables(st: Storage) -> None:
    await _new_table(st, "a")
    await _new_table(st, "b")
    await _new_table(st, "c")
    assert await st.close_table("b", "finished")
    assert not await st.close_table("b", "cancelled")  # already closed: no-op
    assert not await st.close_table("nope", "cancelled")
    assert await st.close_table("c", "cancelled")
    assert [t.table_id for t in await st.load_open_tables()] == ["a"]
    assert [t.table_id for t in await st.load_open_tables(guild_id=G + 1)] == []
    closed = await st.load_table("b")
    assert closed is not None and closed.status == "finished"
    with pytest.raises(VersionConflictError):  # closed tables accept no more actions
        await st.commit_action("b", 99, "{}", "{}")
    with pytest.raises(ValueError):
        await st.close_table("a", "playing")  # type: ignore[arg-type]


async def test_restart_keeps_tables_events_and_results(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    s = await Storage.open(path)
    await _new_table(s)
    await s.commit_action("t1", 2, '{"v": 2}', '{"act": 1}', status="playing")
    assert await s.record_deal_result(two_player_deal("m1", 1, 2, 10))
    await s.close()

    s = await Storage.open(path)
    try:
        tables = await s.load_open_tables()
        assert [(t.table_id, t.version, t.state_json) for t in tables] == [("t1", 2, '{"v": 2}')]
        assert [e.event_json for e in await s.load_events("t1")] == ['{"act": 1}']
        # the retry after restart is recognised and not counted again
        assert not await s.record_deal_result(two_player_deal("m1", 1, 2, 10))
        rank = await s.player_rank(G, 1, sort="deals_won", now=NOW)
        assert rank is not None and rank.value == 1
    finally:
        await s.close()


async def test_closed_storage_raises(tmp_path: Path) -> None:
    s = await Storage.open(":memory:")
    await s.close()
    await s.close()  # idempotent
    with pytest.raises(StorageError):
        await s.schema_version()


# ---------------------------------------------------------------- results


async def test_record_deal_twice_counts_once(st: Storage) -> None:
    d = two_player_deal("m1", 1, 2, F(15, 2))
    assert await st.record_deal_result(d) is True
    assert await st.record_deal_result(d) is False
    rows = await st.leaderboard(G, sort="deals_won", now=NOW)
    assert [(r.user_id, r.value, r.games) for r in rows] == [(1, 1, 1), (2, 0, 1)]
    assert len(await st.recent_deals(G, 1)) == 1


async def test_concurrent_duplicate_results_counted_once(st: Storage) -> None:
    d = two_player_deal("m1", 1, 2, 5)
    m = match("m1", [(1, 1), (2, 2)])
    deal_flags = await asyncio.gather(*(st.record_deal_result(d) for _ in range(20)))
    match_flags = await asyncio.gather(*(st.record_match_result(m) for _ in range(20)))
    assert sorted(deal_flags) == [False] * 19 + [True]
    assert sorted(match_flags) == [False] * 19 + [True]
    stats = (await st.player_stats(G, 1)).profiles["points"]
    assert (stats.deals_played, stats.matches_played, stats.net) == (1, 1, F(5))
    assert stats.rating is not None and stats.rating.matches == 1
    assert len(await st.rating_history(G, 1, "points")) == 1


async def test_same_deal_number_in_other_match_is_distinct(st: Storage) -> None:
    assert await st.record_deal_result(two_player_deal("m1", 1, 2, 5))
    assert await st.record_deal_result(two_player_deal("m2", 1, 2, 5))
    assert await st.record_deal_result(two_player_deal("m1", 1, 2, 5, deal_no=2))
    assert (await st.player_stats(G, 1)).profiles["points"].deals_won == 3


async def test_exact_fractions_round_trip(st: Storage) -> None:
    await st.record_deal_result(
        deal("m1", 1, [seat(1, "won", F(15, 2)), seat(2, "lost", -7.5, penalty=7.5)])  # type: ignore[arg-type]
    )
    for i in range(3):  # 1/3 three times must be exactly 1, not 0.999...
        await st.record_deal_result(
            deal("m2", i, [seat(1, "won", F(1, 3)), seat(2, "lost", F(-1, 3), F(1, 3))])
        )
    recent = await st.recent_deals(G, 2)
    assert recent[-1].net == F(-15, 2) and isinstance(recent[-1].net, Fraction)
    stats = (await st.player_stats(G, 2)).profiles["points"]
    assert stats.net == F(-17, 2)
    assert stats.avg_penalty_when_losing == (F(15, 2) + 1) / 4
    board = await st.leaderboard(G, sort="net_chips", now=NOW)
    assert [r.value for r in board] == [F(17, 2), F(-17, 2)]
    week = await st.leaderboard(G, sort="net_chips", period="7d", now=NOW)
    assert [r.value for r in week] == [F(17, 2), F(-17, 2)]
    assert str(week[0].value) == "17/2"


async def test_result_validation(st: Storage) -> None:
    with pytest.raises(ValueError):  # human without user id
        await st.record_deal_result(deal("m", 1, [DealSeat(None, "x", False, "won", F(0), F(0))]))
    with pytest.raises(ValueError):
        await st.record_deal_result(deal("m", 1, [seat(1, "bogus")]))
    with pytest.raises(ValueError):  # same human twice
        await st.record_deal_result(deal("m", 1, [seat(1, "won"), seat(1, "lost")]))
    with pytest.raises(ValueError):
        await st.record_match_result(match("m", [(1, 0), (2, 1)]))
    assert await st.recent_deals(G, 1) == []


async def test_hand_history_is_per_guild(st: Storage) -> None:
    await st.record_deal_result(two_player_deal("m1", 1, 2, 5, history='{"x": [1, 2]}'))
    (row,) = await st.recent_deals(G, 1)
    assert await st.hand_history(G, row.deal_id) == '{"x": [1, 2]}'
    assert await st.hand_history(G + 1, row.deal_id) is None
    assert await st.hand_history(G, row.deal_id + 100) is None


# ------------------------------------------------------------------ AI seats


async def test_ai_seats_kept_in_results_but_not_in_boards_or_ratings(st: Storage) -> None:
    ai_with_id = DealSeat(
        user_id=555, name="Bot", is_ai=True, outcome="won", penalty=F(0), net=F(40)
    )
    d = deal("m1", 1, [ai_with_id, seat(None, "lost", -20, 20), seat(1, "lost", -20, 20)])
    assert await st.record_deal_result(d)
    m = match("m1", [(None, 1), (1, 2)])
    assert await st.record_match_result(m)
    for sort in ("rating", "matches_won", "deals_won", "net_chips", "win_rate"):
        rows = await st.leaderboard(G, sort=sort, min_games=0, now=NOW)  # type: ignore[arg-type]
        assert all(r.user_id == 1 for r in rows), sort
    assert await st.player_rank(G, 555, sort="net_chips", now=NOW) is None
    assert (await st.player_stats(G, 555)).profiles == {}
    # one human vs AI: nothing to learn, so no rating at all
    assert (await st.player_stats(G, 1)).profiles["points"].rating is None
    # the hand history (the result itself) still has all three seats
    (row,) = await st.recent_deals(G, 1)
    assert row.net == -20


# --------------------------------------------------------------- leaderboards


async def _ladder(s: Storage, n: int) -> None:
    """Player u (1..n) wins u deals against player 1000+u (who never wins)."""
    results = []
    for u in range(1, n + 1):
        for k in range(u):
            results.append(two_player_deal(f"l{u}", u, 1000 + u, 1, deal_no=k))
    for r in results:
        assert await s.record_deal_result(r)


async def test_leaderboard_ordering_and_pagination(st: Storage) -> None:
    await _ladder(st, 25)
    page1 = await st.leaderboard(G, sort="deals_won", limit=10, now=NOW)
    page2 = await st.leaderboard(G, sort="deals_won", limit=10, offset=10, now=NOW)
    page3 = await st.leaderboard(G, sort="deals_won", limit=10, offset=20, now=NOW)
    assert [r.user_id for r in page1] == list(range(25, 15, -1))
    assert [r.rank for r in page1] == list(range(1, 11))
    assert [r.user_id for r in page2] == list(range(15, 5, -1))
    assert [r.rank for r in page2] == list(range(11, 21))
    assert [r.value for r in page3[:5]] == [5, 4, 3, 2, 1]
    # the 25 losers all have 0 wins: they share rank 26, ordered by user id
    assert [r.rank for r in page3[5:]] == [26] * 5
    assert [r.user_id for r in page3[5:]] == [1001, 1002, 1003, 1004, 1005]
    assert page1[0].name == "p25" and page1[0].games == 25
    assert await st.leaderboard(G, sort="deals_won", offset=100, now=NOW) == []
    assert await st.leaderboard(G + 1, sort="deals_won", now=NOW) == []

    own = await st.player_rank(G, 3, sort="deals_won", now=NOW)
    assert own is not None and (own.rank, own.value, own.games, own.total) == (23, 3, 3, 50)
    loser = await st.player_rank(G, 1017, sort="deals_won", now=NOW)
    assert loser is not None and loser.rank == 26
    assert await st.player_rank(G, 424242, sort="deals_won", now=NOW) is None


async def test_ties_share_rank_across_page_boundary(st: Storage) -> None:
    for u in (1, 2, 3, 4):
        await st.record_deal_result(two_player_deal(f"m{u}", u, 100 + u, 3))
    rows = await st.leaderboard(G, sort="net_chips", limit=2, offset=2, now=NOW)
    assert [(r.rank, r.user_id, r.value) for r in rows] == [(1, 3, 3), (1, 4, 3)]
    rows = await st.leaderboard(G, sort="net_chips", limit=3, offset=3, now=NOW)
    assert [r.rank for r in rows] == [1, 5, 5]


async def test_win_rate_min_games(st: Storage) -> None:
    # user 1: 1 of 1 (100%, too few games); user 2: 4 of 5; user 3: 3 of 6
    await st.record_deal_result(two_player_deal("a", 1, 9, 1))
    for k in range(5):
        await st.record_deal_result(
            two_player_deal("b", 2, 9, 1, deal_no=k)
            if k < 4
            else two_player_deal("b", 9, 2, 1, deal_no=k)
        )
    for k in range(6):
        await st.record_deal_result(
            two_player_deal("c", 3, 9, 1, deal_no=k)
            if k < 3
            else two_player_deal("c", 9, 3, 1, deal_no=k)
        )
    rows = await st.leaderboard(G, sort="win_rate", now=NOW)
    assert [(r.user_id, r.value, r.games) for r in rows] == [
        (2, 0.8, 5),
        (3, 0.5, 6),
        (9, 4 / 12, 12),
    ]
    assert await st.player_rank(G, 1, sort="win_rate", now=NOW) is None
    rows = await st.leaderboard(G, sort="win_rate", min_games=1, now=NOW)
    assert rows[0].user_id == 1 and rows[0].value == 1.0


async def test_leaderboard_periods(st: Storage) -> None:
    await st.record_deal_result(two_player_deal("old", 1, 2, 10, at=NOW - 40 * DAY))
    await st.record_deal_result(two_player_deal("mid", 2, 1, 4, at=NOW - 10 * DAY))
    await st.record_deal_result(two_player_deal("new", 3, 1, 1, at=NOW - 1 * DAY))

    def vals(rows):  # type: ignore[no-untyped-def]
        return {r.user_id: r.value for r in rows}

    assert vals(await st.leaderboard(G, sort="net_chips", now=NOW)) == {1: 5, 2: -6, 3: 1}
    assert vals(await st.leaderboard(G, sort="net_chips", period="30d", now=NOW)) == {
        1: -5,
        2: 4,
        3: 1,
    }
    assert vals(await st.leaderboard(G, sort="net_chips", period="7d", now=NOW)) == {1: -1, 3: 1}
    # recording into the materialised window updates it immediately
    await st.record_deal_result(two_player_deal("today", 1, 3, 7, at=NOW))
    assert vals(await st.leaderboard(G, sort="net_chips", period="7d", now=NOW)) == {1: 6, 3: -6}
    # rolling forward: 3 days later the "new" deal is still inside 7d, 7 days later not
    assert vals(await st.leaderboard(G, sort="deals_won", period="7d", now=NOW + 3 * DAY)) == {
        1: 1,
        3: 1,
    }
    assert vals(await st.leaderboard(G, sort="deals_won", period="7d", now=NOW + 6 * DAY)) == {
        1: 1,
        3: 0,
    }
    assert vals(await st.leaderboard(G, sort="deals_won", period="7d", now=NOW + 7 * DAY)) == {}
    rank = await st.player_rank(G, 2, sort="net_chips", period="30d", now=NOW)
    assert rank is not None and (rank.rank, rank.value, rank.total) == (1, 4, 3)


async def test_rating_board_and_period_filter(st: Storage) -> None:
    # 1 beats 2 twice (long ago); 3 beats 4 yesterday
    await st.record_match_result(match("a", [(1, 1), (2, 2)], at=NOW - 40 * DAY))
    await st.record_match_result(match("b", [(1, 1), (2, 2)], at=NOW - 39 * DAY))
    await st.record_match_result(match("c", [(3, 1), (4, 2)], at=NOW - DAY))
    rows = await st.leaderboard(G, sort="rating", now=NOW)
    assert [r.user_id for r in rows] == [1, 3, 4, 2]
    assert rows[0].games == 2
    assert all(isinstance(r.value, float) for r in rows)
    recent = await st.leaderboard(G, sort="rating", period="7d", now=NOW)
    assert [r.user_id for r in recent] == [3, 4]
    per_profile = await st.leaderboard(G, profile="points", sort="rating", now=NOW)
    assert [r.user_id for r in per_profile] == [1, 3, 4, 2]
    assert await st.leaderboard(G, profile="pool", sort="rating", now=NOW) == []


async def test_profile_filter_and_all_scope(st: Storage) -> None:
    await st.record_deal_result(two_player_deal("p1", 1, 2, 10, profile="points"))
    await st.record_deal_result(two_player_deal("q1", 2, 1, 3, profile="pool101"))
    pts = await st.leaderboard(G, profile="points", sort="net_chips", now=NOW)
    pool = await st.leaderboard(G, profile="pool101", sort="net_chips", now=NOW)
    both = await st.leaderboard(G, sort="net_chips", now=NOW)
    assert [(r.user_id, r.value) for r in pts] == [(1, 10), (2, -10)]
    assert [(r.user_id, r.value) for r in pool] == [(2, 3), (1, -3)]
    assert [(r.user_id, r.value, r.games) for r in both] == [(1, 7, 2), (2, -7, 2)]
    with pytest.raises(ValueError):
        await st.leaderboard(G, sort="elo")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await st.leaderboard(G, period="1y")  # type: ignore[arg-type]


def _brute_board(
    deals: list[DealResult], matches: list[MatchResult], profile: str | None, lo: int, hi: int
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
    deals: list[DealResult] = []
    matches: list[MatchResult] = []
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
                assert await s.record_deal_result(d)
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
                    assert await s.record_match_result(m)
            day0 = now // DAY
            for period, days in (("all", None), ("7d", 7), ("30d", 30)):
                lo, hi = (0, 2**62) if days is None else ((day0 - days + 1) * DAY, (day0 + 1) * DAY)
                for profile in (None, "points"):
                    expect = _brute_board(deals, matches, profile, lo, hi)
                    for sort, idx in (("deals_won", 1), ("matches_won", 3), ("net_chips", 4)):
                        rows = await s.leaderboard(
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
                    rows = await s.leaderboard(
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
            sort: await s.leaderboard(G, None, sort, "all", limit=100, min_games=0, now=NOW)  # type: ignore[arg-type]
            for sort in ("rating", "matches_won", "deals_won", "net_chips", "win_rate")
        }
        await s.rebuild_summaries(G)
        for sort, rows in before.items():
            again = await s.leaderboard(G, None, sort, "all", limit=100, min_games=0, now=NOW)  # type: ignore[arg-type]
            if sort == "rating":
                # replay order is by finished_at, recording order was not: same players
                assert {r.user_id for r in again} == {r.user_id for r in rows}
            else:
                assert again == rows, sort
    finally:
        await s.close()


# ------------------------------------------------------------------ ratings


async def test_ratings_move_with_results_and_keep_history(st: Storage) -> None:
    for i in range(5):
        await st.record_match_result(
            match(f"m{i}", [(1, 1), (2, 2), (3, 2), (None, 4)], at=NOW + i)
        )
    s1 = await st.player_stats(G, 1)
    s2 = await st.player_stats(G, 2)
    s3 = await st.player_stats(G, 3)
    r1, r2, r3 = (x.profiles["points"].rating for x in (s1, s2, s3))
    assert r1 is not None and r2 is not None and r3 is not None
    assert r1.mu > 25 > r2.mu and r1.ordinal > r2.ordinal
    assert r2.mu == pytest.approx(r3.mu)  # tied place, same history
    assert r1.matches == 5
    assert r1.ordinal == pytest.approx(r1.mu - 3 * r1.sigma)
    hist = await st.rating_history(G, 1, "points")
    assert [h.match_id for h in hist] == [f"m{i}" for i in range(5)]
    assert all(h.ordinal > h.ordinal_before for h in hist)
    # trend over the last 3 matches = current ordinal - ordinal before the 3rd-last
    s1_3 = (await st.player_stats(G, 1, trend_matches=3)).profiles["points"]
    assert s1_3.rating_trend == pytest.approx(r1.ordinal - hist[2].ordinal_before)
    assert s1.overall_rating is not None and s1.overall_rating.ordinal == pytest.approx(r1.ordinal)


# -------------------------------------------------------------------- stats


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
        await st.record_deal_result(
            deal("mx", i, [seat(u, outcome, net, pen), seat(2, "lost", -net)])
        )
    await st.record_deal_result(
        deal("pool", 1, [seat(u, "lost", -25, 25), seat(2, "won", 25)], profile="pool101")
    )
    await st.record_match_result(match("mx", [(u, 1), (2, 2)]))
    await st.record_match_result(match("pool", [(u, 2), (2, 1)], profile="pool101"))
    await st.record_match_result(match("my", [(u, 1), (2, 2)]))

    stats = await st.player_stats(G, u)
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
    none = await st.player_stats(G, 999)
    assert none.profiles == {} and none.overall_rating is None


async def test_recent_deals_newest_first_and_limited(st: Storage) -> None:
    for i in range(15):
        await st.record_deal_result(two_player_deal("m", 1, 2, i + 1, deal_no=i, at=NOW + i))
    rows = await st.recent_deals(G, 2, limit=10)
    assert [r.deal_no for r in rows] == list(range(14, 4, -1))
    assert rows[0].outcome == "lost" and rows[0].net == -15 and rows[0].match_id == "m"
    assert await st.recent_deals(G + 1, 2) == []


# ----------------------------------------------------------------- settings


async def test_settings_defaults_and_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    async with await Storage.open(path) as s:
        d = await s.get_settings(G)
        assert (d.default_profile, d.turn_timer, d.allowed_channel_ids) == ("points", 60, None)
        assert d.channel_allowed(123)
        await s.update_settings(G, default_profile="pool101", allowed_channel_ids=[7, 5, 7])
        upd = await s.update_settings(G, turn_timer=45)  # other fields untouched
        assert (upd.default_profile, upd.turn_timer, upd.allowed_channel_ids) == (
            "pool101",
            45,
            frozenset({5, 7}),
        )
        assert upd.channel_allowed(5) and not upd.channel_allowed(6)
        assert (await s.get_settings(G + 1)).default_profile == "points"  # per guild
        with pytest.raises(ValueError):
            await s.update_settings(G, turn_timer=0)
        with pytest.raises(ValueError):
            await s.update_settings(G, default_profile=" ")
    async with await Storage.open(path) as s:
        again = await s.get_settings(G)
        assert again == upd
        cleared = await s.update_settings(G, allowed_channel_ids=None)
        assert cleared.allowed_channel_ids is None and cleared.turn_timer == 45
        assert (await s.update_settings(G, allowed_channel_ids=[])).allowed_channel_ids is None


# -------------------------------------------------------------------- forget


async def test_forget_user(st: Storage) -> None:
    await st.record_deal_result(two_player_deal("m1", 1, 2, 10))
    await st.record_deal_result(two_player_deal("m2", 2, 1, 4))
    await st.record_deal_result(two_player_deal("x", 3, 1, 1, guild=G + 1))
    await st.record_match_result(match("m1", [(1, 1), (2, 2)]))
    await st.leaderboard(G, sort="net_chips", period="7d", now=NOW)  # materialise period board
    before_2 = await st.player_stats(G, 2)

    await st.forget_user(G, 1)

    assert (await st.player_stats(G, 1)).profiles == {}
    assert await st.recent_deals(G, 1) == []
    assert await st.rating_history(G, 1) == []
    for period in ("all", "7d"):
        for sort in ("rating", "net_chips", "deals_won"):
            rows = await st.leaderboard(G, sort=sort, period=period, now=NOW)  # type: ignore[arg-type]
            assert [r.user_id for r in rows] == [2], (sort, period)
    # the other player's results and stats are intact
    after_2 = await st.player_stats(G, 2)
    assert after_2 == before_2
    (latest, *_rest) = await st.recent_deals(G, 2)
    assert latest.net in (F(4), F(-10))
    # the forgotten seat is anonymised, not deleted
    names = {r[0] for r in await raw(st, "SELECT name FROM deal_seats WHERE guild_id = ?", (G,))}
    assert names == {"p2", DELETED_NAME}
    left = await raw(st, "SELECT COUNT(*) FROM deal_seats WHERE user_id = 1 AND guild_id = ?", (G,))
    assert left == [(0,)]
    # other guilds are untouched
    assert (await st.player_stats(G + 1, 1)).profiles["points"].deals_played == 1
    # a rebuild afterwards does not resurrect the user
    await st.rebuild_summaries(G)
    assert await st.player_rank(G, 1, sort="net_chips", now=NOW) is None


# ---------------------------------------------------------------- bulk import


async def test_import_results_is_idempotent_and_equals_recording(st: Storage) -> None:
    deals = [two_player_deal(f"m{i}", 1 + i % 3, 4, F(i, 2), at=NOW - i * DAY) for i in range(12)]
    matches = [match(f"m{i}", [(1 + i % 3, 1), (4, 2)], at=NOW - i * DAY) for i in range(12)]
    assert await st.import_results(deals, matches, batch_size=5) == (12, 12)
    assert await st.import_results(deals, matches) == (0, 0)  # nothing counted twice
    for d in deals[:3]:
        assert not await st.record_deal_result(d)
    imported = {
        (sort, period): await st.leaderboard(G, None, sort, period, min_games=1, now=NOW)
        for sort in ("rating", "matches_won", "deals_won", "net_chips", "win_rate")
        for period in ("all", "7d")
    }
    async with await Storage.open(":memory:") as other:
        for d in deals:
            await other.record_deal_result(d)
        for m in reversed(matches):  # recorded in finished_at order, like the replay
            await other.record_match_result(m)
        for (sort, period), rows in imported.items():
            again = await other.leaderboard(G, None, sort, period, min_games=1, now=NOW)  # type: ignore[arg-type]
            if sort == "rating":
                assert [r.user_id for r in again] == [r.user_id for r in rows]
                assert [r.value for r in again] == pytest.approx([r.value for r in rows])
            else:
                assert again == rows, (sort, period)
