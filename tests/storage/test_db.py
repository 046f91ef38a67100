"""Connection, migrations, transactions and error translation (bot.storage.sqlite,
bot.storage.migrate)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    Migration,
    NotFoundError,
    Storage,
    StorageError,
    StorageIntegrityError,
    StorageUnavailable,
    load_migrations,
)
from bot.storage import migrate as dbmod
from bot.storage import sqlite as sqlitemod
from tests.conftest import PROJECT_ROOT
from tests.storage.helpers import NOW, F, G, dialect, raw, raw_exec, two_player_deal


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
    assert [m.version for m in migrations] == sorted({m.version for m in migrations})
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
        await st.tables.append_event("nope", 1, "{}")
    if dialect(st) == "sqlite":  # PostgreSQL always enforces foreign keys
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
            assert [t.table_id for t in await s.tables.load_open_tables()] == ["t-old"]
            await s.results.rebuild_summaries(G)
            rows = await s.boards.leaderboard(G, sort="net_chips", now=NOW)
            assert [(r.user_id, r.value) for r in rows] == [(1, F(15, 2)), (2, F(-15, 2))]
            assert (await s.boards.recent_deals(G, 2))[0].net == F(-15, 2)


async def test_failed_migration_rolls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = load_migrations()
    broken = Migration(
        real[-1].version + 1,
        "broken",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    monkeypatch.setattr(dbmod, "load_migrations", lambda *_: [*real, broken])
    path = tmp_path / "b.db"
    with pytest.raises(StorageError) as failed:
        await Storage.open(path)
    # surfaced as the package's error, the driver's one kept as the cause
    assert isinstance(failed.value.__cause__, sqlite3.OperationalError)
    conn = sqlite3.connect(path)
    try:
        top = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
        assert top == real[-1].version
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


def test_duplicate_migration_numbers_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    class Entry:
        def __init__(self, name: str) -> None:
            self.name = name

        def read_text(self, encoding: str) -> str:
            return "SELECT 1;"

    class Root:
        def joinpath(self, _: str) -> Root:
            return self

        def iterdir(self) -> list[Entry]:
            return [Entry("0001_a.sql"), Entry("0003_b.sql"), Entry("0003_c.sql")]

    monkeypatch.setattr(dbmod.importlib.resources, "files", lambda _: Root())
    with pytest.raises(StorageError, match="duplicate migration number 0003"):
        dbmod.load_migrations()


async def test_a_gap_is_allowed_and_a_late_lower_number_still_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Branches claim numbers side by side and merge in any order: a database that already
    ran 0001, 0002 and 00N (N > 3) gets 0003 once the code ships it, and only once."""
    real = load_migrations()
    top = real[-1].version
    late = Migration(top + 1, "late_lower", "CREATE TABLE late_lower (x INTEGER);\n")
    higher = Migration(top + 2, "higher", "CREATE TABLE higher (x INTEGER);\n")
    monkeypatch.setattr(dbmod, "load_migrations", lambda *_: [*real, higher])  # a gap at top + 1
    path = tmp_path / "g.db"
    async with await Storage.open(path) as s:
        assert await s.schema_version() == top + 2
    monkeypatch.setattr(dbmod, "load_migrations", lambda *_: [*real, late, higher])
    async with await Storage.open(path) as s:
        assert await s.schema_version() == top + 2
    async with await Storage.open(path) as s:  # and never twice
        rows = await raw(s, "SELECT version FROM schema_version ORDER BY version")
    assert [r[0] for r in rows] == [*(m.version for m in real), top + 1, top + 2]
    conn = sqlite3.connect(path)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert {"late_lower", "higher"} <= names


async def test_a_migration_this_code_lacks_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that ran a migration this code does not ship came from other code: even
    below the newest known number, it is refused rather than misread."""
    real = load_migrations()
    top = real[-1].version
    other = Migration(top + 1, "other", "CREATE TABLE other (x INTEGER);\n")
    mine = Migration(top + 2, "mine", "CREATE TABLE mine (x INTEGER);\n")
    monkeypatch.setattr(dbmod, "load_migrations", lambda *_: [*real, other])
    path = tmp_path / "o.db"
    async with await Storage.open(path):
        pass
    monkeypatch.setattr(dbmod, "load_migrations", lambda *_: [*real, mine])
    with pytest.raises(StorageError, match="newer"):
        await Storage.open(path)


def test_split_sql_handles_triggers_and_comments() -> None:
    script = (
        "-- comment; with semicolon\nCREATE TABLE a (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  UPDATE a SET x = 'y';\nEND;\n-- tail\n"
    )
    parts = dbmod.split_sql(script)
    assert len(parts) == 2
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")


async def test_closed_storage_raises(tmp_path: Path) -> None:
    s = await Storage.open(":memory:")
    await s.close()
    await s.close()  # idempotent
    with pytest.raises(StorageError):
        await s.schema_version()


# ------------------------------------------------------- failures become StorageError


# Make every write fail (SQLITE_READONLY / SQLSTATE 25006), then allow writes again.
_READ_ONLY = {
    "sqlite": ("PRAGMA query_only = ON", "PRAGMA query_only = OFF", sqlite3.OperationalError),
    "postgres": (
        "SET default_transaction_read_only = on",
        "SET default_transaction_read_only = off",
        asyncpg.ReadOnlySQLTransactionError,
    ),
}


async def test_read_only_database_surfaces_as_storage_unavailable(st: Storage) -> None:
    read_only, writable, driver_error = _READ_ONLY[dialect(st)]
    await _raw_exec(st, read_only)
    with pytest.raises(StorageUnavailable) as failed:
        await st.settings.update_settings(G, turn_timer=30)
    assert isinstance(failed.value.__cause__, driver_error)
    await _raw_exec(st, writable)
    # nothing was half-written and the connection is still usable
    assert (await st.settings.get_settings(G)).turn_timer == 60
    assert (await st.settings.update_settings(G, turn_timer=30)).turn_timer == 30


async def test_disk_full_rolls_back_and_surfaces_as_storage_unavailable(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "full.db") as s:
        (pages,) = (await raw(s, "PRAGMA page_count"))[0]
        await _raw_exec(s, f"PRAGMA max_page_count = {pages}")  # the "disk" is full now
        big = "x" * 200_000
        with pytest.raises(StorageUnavailable) as failed:
            await s.results.record_deal_result(two_player_deal("m1", 1, 2, 5, history=big))
        assert isinstance(failed.value.__cause__, sqlite3.OperationalError)
        assert await raw(s, "SELECT COUNT(*) FROM deals") == [(0,)]
        await _raw_exec(s, "PRAGMA max_page_count = 1073741823")
        # the failed job left no transaction open: the retry is recorded normally
        assert await s.results.record_deal_result(two_player_deal("m1", 1, 2, 5, history=big))
        assert (await s.boards.player_stats(G, 1)).profiles["points"].deals_won == 1


async def test_locked_database_surfaces_as_storage_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    async with await Storage.open(path) as s:
        await _raw_exec(s, "PRAGMA busy_timeout = 50")

        async def new_table() -> None:
            await s.tables.save_table(
                "t", guild_id=G, channel_id=1, host_id=1, status="lobby", state_json="{}", version=1
            )

        other = sqlite3.connect(path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            with pytest.raises(StorageUnavailable, match="SQLITE_BUSY"):
                await new_table()
            other.execute("ROLLBACK")
        finally:
            other.close()
        await new_table()  # the lock is gone: the same write now succeeds
        assert (await s.tables.load_table("t")) is not None


async def test_unopenable_path_surfaces_as_storage_unavailable(tmp_path: Path) -> None:
    (tmp_path / "a_directory").mkdir()
    with pytest.raises(StorageUnavailable):
        await Storage.open(tmp_path / "a_directory")
    (tmp_path / "a_file").write_text("not a directory")
    with pytest.raises(StorageUnavailable):  # the parent "directory" cannot be created
        await Storage.open(tmp_path / "a_file" / "bot.db")


async def test_a_failed_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    """aiosqlite's worker thread answers on the event loop after a failed connect; if it were
    still running when a failed start closes the loop, it would die with a traceback."""

    def workers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}

    before = workers()
    with pytest.raises(StorageUnavailable):
        await Storage.open(tmp_path)  # a directory: SQLite cannot open it
    assert {t for t in workers() - before if t.is_alive()} == set()


async def test_not_a_database_surfaces_as_storage_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not an sqlite file at all" * 100)
    with pytest.raises(StorageError) as failed:
        await Storage.open(path)
    assert isinstance(failed.value.__cause__, sqlite3.DatabaseError)


def test_translate_error_classifies_by_result_code() -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
        conn.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(sqlite3.IntegrityError) as dup:
            conn.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(sqlite3.OperationalError) as typo:
            conn.execute("SELEC 1")
    finally:
        conn.close()
    assert type(sqlitemod.translate_error(dup.value)) is StorageIntegrityError
    wrong = sqlitemod.translate_error(typo.value)
    assert type(wrong) is StorageError and "SQLITE_ERROR" in str(wrong)
    assert type(sqlitemod.translate_error(sqlite3.ProgrammingError("closed"))) is StorageError


async def test_cancelled_caller_never_leaves_half_a_transaction(st: Storage) -> None:
    """A job runs to its end even when its caller is cancelled, so the snapshot and
    the event of one action are either both stored or both absent."""
    await st.tables.save_table(
        "t1", guild_id=G, channel_id=1, host_id=1, status="lobby", state_json="{}", version=1
    )
    tasks = [
        asyncio.ensure_future(st.tables.commit_action("t1", v, f'{{"v": {v}}}', f'{{"e": {v}}}'))
        for v in range(2, 12)
    ]
    await asyncio.sleep(0)
    for task in tasks[::2]:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    table = await st.tables.load_table("t1")
    events = await st.tables.load_events("t1")
    assert table is not None
    assert [e.seq for e in events][-1] == table.version
    assert all(e.event_json == f'{{"e": {e.seq}}}' for e in events)


async def _raw_exec(s: Storage, sql: str) -> None:
    """Run one raw statement on the storage's write connection (tests only)."""
    await raw_exec(s, sql)


def test_an_unclosed_storage_does_not_keep_the_process_alive(tmp_path: Path) -> None:
    """aiosqlite's connection threads are not daemons; ours are made so, or a crash path
    that skips ``close()`` would leave the bot process hanging at exit."""
    code = (
        "import asyncio, sys\n"
        "from bot.storage import Storage\n"
        "async def main():\n"
        f"    s = await Storage.open({str(tmp_path / 'left-open.db')!r})\n"
        "    sys.modules['__main__'].kept = s  # referenced until the very end\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], timeout=60, capture_output=True, cwd=PROJECT_ROOT
    )
    assert done.returncode == 0, done.stderr
