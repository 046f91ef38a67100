"""Both backends: the same migrations, a restart that resumes every game, results
recorded once across restarts, and the PostgreSQL dialect seam (bot.storage.pg)."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage import Storage, StorageError, StorageIntegrityError, StorageUnavailable
from bot.storage import migrate as dbmod
from bot.storage.pg import _rowcount, is_postgres_url, to_postgres, translate_error
from bot.storage.startup import check_database, describe
from tests.postgres import postgres_schema, postgres_url_or_skip
from tests.storage.conftest import Reopen
from tests.storage.helpers import NOW, F, G, dialect, raw, two_player_deal


def test_every_migration_number_exists_in_both_dialects() -> None:
    """Same numbers, same names: a schema version means the same thing on both."""
    sqlite = [(m.version, m.name) for m in dbmod.load_migrations("sqlite")]
    postgres = [(m.version, m.name) for m in dbmod.load_migrations("postgres")]
    assert sqlite == postgres and sqlite


def test_placeholders_become_numbered_outside_literals() -> None:
    assert to_postgres("SELECT ? , '?' , ?") == "SELECT $1 , '?' , $2"
    assert to_postgres("WHERE a = ?1 OR b = ?2 AND c = ?1") == "WHERE a = $1 OR b = $2 AND c = $1"
    assert to_postgres("BEGIN IMMEDIATE") == "BEGIN"
    assert to_postgres("COMMIT") == "COMMIT"


def test_status_messages_become_row_counts() -> None:
    assert _rowcount("INSERT 0 1") == 1
    assert _rowcount("UPDATE 0") == 0
    assert _rowcount("DELETE 3") == 3
    assert _rowcount("SELECT 2") == -1
    assert _rowcount(None) == -1


def test_driver_errors_become_storage_errors() -> None:
    dup = translate_error(asyncpg.UniqueViolationError("dup"))
    assert isinstance(dup, StorageIntegrityError)
    assert dup.code == "23505"
    assert isinstance(translate_error(ConnectionRefusedError("refused")), StorageUnavailable)
    assert isinstance(
        translate_error(asyncpg.ReadOnlySQLTransactionError("ro")), StorageUnavailable
    )
    # a value the column cannot take is a bug to fix, not an outage to wait out
    assert type(translate_error(asyncpg.DataError("not an int"))) is StorageError
    plain = translate_error(asyncpg.PostgresSyntaxError("typo"))
    assert type(plain) is StorageError and plain.code == "42601"


def test_only_postgres_urls_select_postgres() -> None:
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://h/db")
    assert not is_postgres_url("data/paplu.sqlite3") and not is_postgres_url(":memory:")


async def test_fresh_database_records_every_migration(st: Storage) -> None:
    shipped = [m.version for m in dbmod.load_migrations(dialect(st))]  # type: ignore[arg-type]
    assert await st.schema_version() == shipped[-1]
    assert [r[0] for r in await raw(st, "SELECT version FROM schema_version ORDER BY 1")] == shipped


async def test_discord_ids_keep_all_64_bits(st: Storage) -> None:
    big = 1_234_567_890_123_456_789  # a snowflake: past 32 bits
    await st.tables.save_table(
        "t1", guild_id=big, channel_id=big + 1, host_id=big + 2, status="lobby",
        state_json="{}", version=1, now=NOW,
    )  # fmt: skip
    t = await st.tables.load_table("t1")
    assert t is not None and (t.guild_id, t.channel_id, t.host_id) == (big, big + 1, big + 2)


async def test_processes_starting_at_once_migrate_a_fresh_database_once(reopen: Reopen) -> None:
    """Shard processes start together (`docker compose up`): each opens the fresh database
    and migrates it at the same moment. Every one opens it; each migration is applied once."""
    opened = await asyncio.gather(*(reopen() for _ in range(4)), return_exceptions=True)
    try:
        failed = [o for o in opened if not isinstance(o, Storage)]
        assert failed == [], failed
        st = opened[0]
        assert isinstance(st, Storage)
        shipped = [m.version for m in dbmod.load_migrations(dialect(st))]  # type: ignore[arg-type]
        assert [r[0] for r in await raw(st, "SELECT version FROM schema_version ORDER BY 1")] == (
            shipped
        )
    finally:
        for o in opened:
            if isinstance(o, Storage):
                await o.close()


async def test_a_restart_resumes_every_game_and_counts_results_once(reopen: Reopen) -> None:
    first = await reopen()
    try:
        for n, table in enumerate(("t1", "t2")):
            await first.tables.save_table(
                table, guild_id=G, channel_id=50 + n, host_id=7, status="lobby",
                state_json="{}", version=1, now=NOW,
            )  # fmt: skip
            await first.tables.commit_action(
                table, 2, f'{{"v": "{table}"}}', '{"act": "draw"}', status="playing", now=NOW
            )
        assert await first.results.record_deal_result(two_player_deal("m1", 1, 2, F(10, 3)))
    finally:
        await first.close()

    second = await reopen()  # the restart
    try:
        open_tables = sorted(await second.tables.load_open_tables(), key=lambda t: t.table_id)
        assert [(t.table_id, t.version, t.status) for t in open_tables] == [
            ("t1", 2, "playing"),
            ("t2", 2, "playing"),
        ]
        assert [e.seq for e in await second.tables.load_events("t1")] == [2]
        # the retry after a crash between "recorded" and "shown" counts nothing twice
        assert not await second.results.record_deal_result(two_player_deal("m1", 1, 2, F(10, 3)))
        assert len(await raw(second, "SELECT deal_id FROM deals")) == 1
        (profile,) = (await second.boards.player_stats(G, 2)).profiles.values()
        assert profile.deals_played == 1  # counted once, the exact money intact
        assert profile.avg_penalty_when_losing == F(10, 3)
    finally:
        await second.close()


async def test_check_database_accepts_a_writable_postgres() -> None:
    async for url in postgres_schema(postgres_url_or_skip()):
        assert await check_database(url) is None


async def test_a_missing_postgres_database_is_one_line_for_the_admin() -> None:
    parts = urlsplit(postgres_url_or_skip())
    missing = urlunsplit(parts._replace(path="/paplu_no_such_database"))
    with pytest.raises(StorageError) as refused:
        await Storage.open_url(missing)
    assert describe(refused.value) == "has no such database: create it first (createdb)"


def test_without_a_server_postgres_tests_skip_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PAPLU_TEST_POSTGRES_URL", raising=False)
    monkeypatch.delenv("PAPLU_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PAPLU_TEST_POSTGRES_URL"):
        postgres_url_or_skip()


def test_when_postgres_is_required_a_missing_server_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PAPLU_TEST_POSTGRES_URL", raising=False)
    monkeypatch.setenv("PAPLU_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception, match="PAPLU_REQUIRE_POSTGRES=1"):
        postgres_url_or_skip()


_PG_COLUMNS = (
    "SELECT table_name, column_name, data_type FROM information_schema.columns"
    " WHERE table_schema = current_schema() ORDER BY 1, 2"
)


@pytest.mark.parametrize("start", range(len(dbmod.load_migrations("postgres"))))
async def test_postgres_upgrade_from_every_earlier_version(start: int) -> None:
    """Migrating 1..start, then opening normally, gives the schema a fresh database has."""
    url = postgres_url_or_skip()
    async for fresh_url in postgres_schema(url):
        async with await Storage.open_url(fresh_url) as fresh:
            expected = await raw(fresh, _PG_COLUMNS)
        async for old_url in postgres_schema(url):
            async with await Storage.open_url(old_url, migrate_to=start) as old:
                assert await old.schema_version() == start
            async with await Storage.open_url(old_url) as upgraded:
                assert await raw(upgraded, _PG_COLUMNS) == expected
                assert (
                    await upgraded.schema_version() == dbmod.load_migrations("postgres")[-1].version
                )
