"""Transactions on both backends: ``tx=`` across repositories, cancellation, concurrency,
bad values, and the PostgreSQL placeholder translation (bot.storage.conn, .sqlite, .pg)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.storage import (
    Announcement,
    BadValue,
    NotFoundError,
    Storage,
    StorageError,
    StorageIntegrityError,
    StorageUnavailable,
    VersionConflictError,
)
from bot.storage.conn import finish
from bot.storage.pg import PgConn, to_postgres
from bot.storage.sqlite import SqliteConn
from tests.storage.helpers import NOW, G, dialect, match, raw, two_player_deal


async def _table(st: Storage, table_id: str = "t1", channel: int = 1) -> None:
    await st.tables.save_table(
        table_id, guild_id=G, channel_id=channel, host_id=1, status="playing",
        state_json='{"v": 1}', version=1, now=NOW,
    )  # fmt: skip


async def _deal_count(st: Storage) -> int:
    return int((await raw(st, "SELECT COUNT(*) FROM deals"))[0][0])  # type: ignore[arg-type]


# --------------------------------------------------------------- placeholders


def test_question_marks_become_numbered_parameters() -> None:
    assert to_postgres("SELECT ?, ?") == "SELECT $1, $2"
    assert to_postgres("WHERE a = ?1 OR b = ?2 AND c = ?1") == "WHERE a = $1 OR b = $2 AND c = $1"
    assert to_postgres("SELECT * FROM unnest(?::bigint[], ?::text[])") == (
        "SELECT * FROM unnest($1::bigint[], $2::text[])"
    )
    assert to_postgres("BEGIN IMMEDIATE") == "BEGIN"
    assert to_postgres("COMMIT") == "COMMIT"


def test_question_marks_inside_literals_identifiers_and_comments_stay() -> None:
    assert to_postgres("SELECT '?', ?") == "SELECT '?', $1"
    assert to_postgres("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1"
    assert to_postgres('SELECT "odd?col" FROM t WHERE x = ?') == (
        'SELECT "odd?col" FROM t WHERE x = $1'
    )
    assert to_postgres('SELECT "a""?" , ?') == 'SELECT "a""?" , $1'
    assert to_postgres("SELECT ? -- is it ?\n, ?") == "SELECT $1 -- is it ?\n, $2"
    assert to_postgres("SELECT ? -- trailing ?") == "SELECT $1 -- trailing ?"
    assert to_postgres("SELECT /* ? /* nested ? */ still ? */ ?") == (
        "SELECT /* ? /* nested ? */ still ? */ $1"
    )
    assert to_postgres("SELECT $$ ? $$, $tag$ '?' $tag$, ?") == (
        "SELECT $$ ? $$, $tag$ '?' $tag$, $1"
    )


def test_postgres_parameters_are_left_alone() -> None:
    assert to_postgres("SELECT $1, $2::int") == "SELECT $1, $2::int"
    assert to_postgres("SELECT '$1', ?") == "SELECT '$1', $1"


async def test_a_literal_question_mark_reaches_the_server_intact(st: Storage) -> None:
    async with st._db.reading() as conn:
        row = await conn.fetchone("SELECT '?' /* ? */, ? -- ?\n", ("x",))
    assert row == ("?", "x")


# --------------------------------------------------------------- bad values


async def test_integers_beyond_64_bits_are_bad_input_not_storage_errors(st: Storage) -> None:
    too_big = 9_999_999_999_999_999_999
    with pytest.raises(BadValue) as refused:
        await st.boards.hand_history(G, too_big)  # the history-download value of the issue
    assert isinstance(refused.value, ValueError)
    assert not isinstance(refused.value, StorageError)
    with pytest.raises(BadValue):
        await st.boards.played_deals(G, 1, [1, too_big])
    with pytest.raises(BadValue):
        await st.tables.save_table(
            "t1", guild_id=2**63, channel_id=1, host_id=1, status="lobby",
            state_json="{}", version=1,
        )  # fmt: skip
    with pytest.raises(BadValue):
        await st.results.record_deal_result(two_player_deal("m1", -(2**63) - 1, 2, 5))
    # nothing was written, and the largest and smallest 64-bit values are fine
    assert await st.tables.load_open_tables() == []
    assert await _deal_count(st) == 0
    await st.tables.save_table(
        "t2", guild_id=2**63 - 1, channel_id=-(2**63), host_id=1, status="lobby",
        state_json="{}", version=1,
    )  # fmt: skip
    t = await st.tables.load_table("t2")
    assert t is not None and (t.guild_id, t.channel_id) == (2**63 - 1, -(2**63))
    assert await st.boards.hand_history(G, 2**63 - 1) is None


# ------------------------------------------------------- one transaction, many repositories


async def test_writes_of_two_repositories_commit_together(st: Storage) -> None:
    await _table(st)
    async with st.transaction() as tx:
        await st.tables.commit_action(
            "t1", 2, '{"v": 2}', '{"e": 2}', announce=[Announcement("record_deal", 1)], tx=tx
        )
        assert await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5), tx=tx)
        assert await st.outbox.mark_announced("t1", "record_deal", 1, tx=tx)
    t = await st.tables.load_table("t1")
    assert t is not None and t.version == 2
    assert await _deal_count(st) == 1
    assert await st.outbox.pending_announcements() == []


async def test_a_failed_write_rolls_back_the_other_repositorys_write(st: Storage) -> None:
    await _table(st)
    # a rule refused by our code (a stale version) after another repository wrote
    with pytest.raises(VersionConflictError):
        async with st.transaction() as tx:
            assert await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5), tx=tx)
            await st.tables.commit_action("t1", 1, "{}", "{}", tx=tx)
    assert await _deal_count(st) == 0
    # a constraint refused by the database (a second open table in the channel)
    with pytest.raises(StorageIntegrityError):
        async with st.transaction() as tx:
            await st.tables.commit_action("t1", 2, '{"v": 2}', '{"e": 2}', tx=tx)
            await st.settings.update_settings(G, turn_timer=30, tx=tx)
            await st.tables.save_table(
                "t2", guild_id=G, channel_id=1, host_id=1, status="lobby",
                state_json="{}", version=1, tx=tx,
            )  # fmt: skip
    t = await st.tables.load_table("t1")
    assert t is not None and t.version == 1 and await st.tables.load_events("t1") == []
    assert (await st.settings.get_settings(G)).turn_timer == 60
    assert await st.tables.load_table("t2") is None
    # the connection is clean: the same writes now go through
    async with st.transaction() as tx:
        await st.tables.commit_action("t1", 2, '{"v": 2}', '{"e": 2}', tx=tx)
        await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5), tx=tx)
    assert await _deal_count(st) == 1


async def test_an_exception_of_the_caller_rolls_back_too(st: Storage) -> None:
    await _table(st)
    with pytest.raises(RuntimeError, match="the presenter broke"):
        async with st.transaction() as tx:
            await st.tables.commit_action("t1", 2, "{}", "{}", tx=tx)
            raise RuntimeError("the presenter broke")
    assert not tx.committed
    async with st.transaction() as ok:
        pass
    assert ok.committed
    t = await st.tables.load_table("t1")
    assert t is not None and t.version == 1


async def test_a_second_transaction_of_the_same_task(st: Storage) -> None:
    """Forgetting ``tx=`` inside a transaction: on SQLite it would wait on the task's own
    lock forever, so it is an error at once instead; PostgreSQL runs it on another pooled
    connection, as a transaction of its own that commits on its own."""
    await _table(st)
    if dialect(st) == "postgres":
        async with st.transaction() as tx:
            await st.tables.commit_action("t1", 2, "{}", "{}", tx=tx)
            assert await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5))
        t = await st.tables.load_table("t1")
        assert t is not None and t.version == 2
        return
    with pytest.raises(RuntimeError, match="tx="):
        async with st.transaction() as tx:
            await st.tables.commit_action("t1", 2, "{}", "{}", tx=tx)
            await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5))
    t = await st.tables.load_table("t1")
    assert t is not None and t.version == 1


async def test_reads_inside_the_task_that_holds_a_transaction_do_not_wait(st: Storage) -> None:
    await _table(st)
    async with st.transaction() as tx:
        await st.tables.commit_action("t1", 2, "{}", "{}", tx=tx)
        assert (await st.settings.get_settings(G)).turn_timer == 60
        assert await st.tables.load_table("t1") is not None


# --------------------------------------------------------------- cancellation


async def test_a_cancelled_transaction_body_is_rolled_back(st: Storage) -> None:
    await _table(st)
    inside = asyncio.Event()

    async def writer() -> None:
        async with st.transaction() as tx:
            await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5), tx=tx)
            await st.tables.commit_action("t1", 2, "{}", "{}", tx=tx)
            inside.set()
            await asyncio.Event().wait()  # cancelled here, before the commit

    task = asyncio.create_task(writer())
    async with asyncio.timeout(10):  # a body that fails early must not hang the test
        await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _deal_count(st) == 0
    t = await st.tables.load_table("t1")
    assert t is not None and t.version == 1
    # the write lock / the pool connection was handed back clean
    await st.tables.commit_action("t1", 2, "{}", "{}")
    assert [e.seq for e in await st.tables.load_events("t1")] == [2]


async def test_a_cancellation_during_commit_cannot_tear_it(
    st: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The task is cancelled while its COMMIT is on its way to the database: the commit
    still completes (shielded), so the deal and the action are either both stored or both
    absent (here: both stored), and the connection and the lock are usable afterwards."""
    await _table(st)
    conn_class: Any = SqliteConn if dialect(st) == "sqlite" else PgConn
    original = conn_class.execute
    committing = asyncio.Event()

    async def slow_commit(self: Any, sql: str, args: Any = ()) -> int:
        if sql == "COMMIT":
            committing.set()
            await asyncio.sleep(0.2)  # the cancellation arrives in here
        result: int = await original(self, sql, args)
        return result

    monkeypatch.setattr(conn_class, "execute", slow_commit)

    seen: list[Any] = []

    async def writer() -> None:
        async with st.transaction() as tx:
            seen.append(tx)
            assert not tx.committed
            await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5), tx=tx)
            await st.tables.commit_action("t1", 2, '{"v": 2}', '{"e": 2}', tx=tx)

    task = asyncio.create_task(writer())
    async with asyncio.timeout(10):
        await committing.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.setattr(conn_class, "execute", original)
    t = await st.tables.load_table("t1")
    stored = (await _deal_count(st), t.version if t else None)
    assert stored in ((0, 1), (1, 2))  # all or nothing...
    assert stored == (1, 2)  # ...and the shield let the commit finish
    assert seen[0].committed  # which the cancelled caller can tell
    assert [e.seq for e in await st.tables.load_events("t1")] == [2]
    # nothing is left holding the lock or an open transaction
    async with asyncio.timeout(10):
        await st.tables.commit_action("t1", 3, "{}", "{}")
        await st.settings.update_settings(G, turn_timer=45)
    assert (await st.settings.get_settings(G)).turn_timer == 45


async def test_cancelled_callers_never_leave_half_an_action(st: Storage) -> None:
    """Many actions on one table, every other caller cancelled at a random moment: the
    snapshot and the event of each action are stored together or not at all."""
    await _table(st)

    async def act(v: int) -> None:
        await st.tables.commit_action("t1", v, json.dumps({"v": v}), json.dumps({"e": v}))

    for v in range(2, 22):
        task = asyncio.create_task(act(v))
        for _ in range(v % 4):
            await asyncio.sleep(0)
        if v % 2:
            task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    t = await st.tables.load_table("t1")
    events = await st.tables.load_events("t1")
    assert t is not None and events and events[-1].seq == t.version
    assert json.loads(t.state_json) == {"v": t.version}
    assert all(json.loads(e.event_json) == {"e": e.seq} for e in events)


async def test_finish_runs_the_work_to_its_end_through_repeated_cancellations() -> None:
    done: list[str] = []

    async def commit() -> int:
        await asyncio.sleep(0.05)
        done.append("committed")
        return 7

    async def caller() -> int:
        return await finish(commit())

    task = asyncio.create_task(caller())
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.sleep(0.01)
    task.cancel()  # a second cancellation while the first is being sat out
    with pytest.raises(asyncio.CancelledError):
        await task
    assert done == ["committed"]  # finished before the cancellation went on
    assert await finish(commit()) == 7  # uncancelled: the work's result

    async def broken() -> None:
        raise StorageUnavailable("disk full")

    with pytest.raises(StorageUnavailable):
        await finish(broken())


# --------------------------------------------------------------- concurrency


async def test_many_tables_write_at_once_without_interleaving(st: Storage) -> None:
    tables = [f"t{i}" for i in range(12)]
    for i, table_id in enumerate(tables):
        await _table(st, table_id, channel=100 + i)

    async def play(table_id: str) -> None:
        for v in range(2, 8):
            async with st.transaction() as tx:
                await st.tables.commit_action(table_id, v, json.dumps({"v": v}), "{}", tx=tx)
                await asyncio.sleep(0)  # let the others run in the middle of this transaction
                await st.outbox.announce(table_id, [Announcement("deal_results", v)], tx=tx)

    await asyncio.gather(*(play(t) for t in tables))
    for table_id in tables:
        t = await st.tables.load_table(table_id)
        assert t is not None and t.version == 7
        assert [e.seq for e in await st.tables.load_events(table_id)] == list(range(2, 8))
        assert [a.deal_no for a in await st.outbox.pending_announcements(table_id)] == list(
            range(2, 8)
        )


async def test_result_jobs_are_outbox_rows_with_their_record(st: Storage) -> None:
    """Migration 0007: ``record_deal``/``record_match`` rows carry the record to store."""
    await _table(st)
    payload = json.dumps({"match_id": "m1", "deal_no": 1})
    await st.tables.commit_action(
        "t1", 2, "{}", "{}",
        announce=[Announcement("record_deal", 1, payload), Announcement("record_match", 0, "{}")],
    )  # fmt: skip
    jobs = await st.outbox.pending_announcements("t1")
    assert [(j.kind, j.deal_no, j.payload_json) for j in jobs] == [
        ("record_deal", 1, payload),
        ("record_match", 0, "{}"),
    ]
    with pytest.raises(ValueError):
        await st.outbox.announce("t1", [Announcement("no_such_job", 1)])  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        await st.tables.commit_action("nope", 2, "{}", "{}")


async def test_results_recorded_at_once_in_one_guild_all_count(st: Storage) -> None:
    """Tables of one guild finish at the same moment: on PostgreSQL their results are
    recorded on different pool connections at once. The exact net in the totals is read,
    added to and written back, so without a lock per guild one bump would overwrite the
    other; every result must count, exactly."""
    deals = [two_player_deal(f"m{i}", 1, 2 + i, i + 1) for i in range(16)]
    done = await asyncio.gather(*(st.results.record_deal_result(d) for d in deals))
    assert all(done)
    matches = [match(f"m{i}", [(1, 1), (2 + i, 2)]) for i in range(8)]
    assert all(await asyncio.gather(*(st.results.record_match_result(m) for m in matches)))
    (row,) = await st.boards.leaderboard(G, sort="net_chips", limit=1, min_games=0, now=NOW)
    assert (row.user_id, row.value, row.games) == (1, sum(range(1, 17)), 16)
    ranked = await st.boards.leaderboard(G, sort="matches_won", limit=1, now=NOW)
    assert (ranked[0].user_id, ranked[0].value) == (1, 8)
    stats = (await st.boards.player_stats(G, 1)).profiles["points"]
    assert (stats.deals_played, stats.net, stats.matches_won) == (16, sum(range(1, 17)), 8)
    assert stats.rating is not None and stats.rating.matches == 8
