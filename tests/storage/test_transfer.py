"""`bot.storage.transfer`: the SQLite-to-PostgreSQL copy refuses what it cannot copy safely,
and leaves the target's identity sequences past the copied ids. (A whole server moved after a
real game: `tests/e2e/test_operations.py`.)"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.migrate import load_migrations
from bot.storage.pg import PgDatabase
from bot.storage.sqlite import SqliteDatabase
from bot.storage.transfer import CopyRefused, copy_sqlite_to_postgres
from tests.postgres import postgres_schema, postgres_url_or_skip
from tests.storage.helpers import G, match, raw, two_player_deal


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[tuple[Storage, Storage]]:
    """(a SQLite file, an empty PostgreSQL schema), both at the latest schema."""
    async for url in postgres_schema(postgres_url_or_skip()):
        source = await Storage.open(tmp_path / "source.sqlite3")
        target = await Storage.open_url(url)
        try:
            yield source, target
        finally:
            await source.close()
            await target.close()


async def copy(source: Storage, target: Storage, **kw: object) -> object:
    src, dst = source.database, target.database
    assert isinstance(src, SqliteDatabase) and isinstance(dst, PgDatabase)
    return await copy_sqlite_to_postgres(src, dst, **kw)  # type: ignore[arg-type]


async def open_table(s: Storage, table_id: str, status: str = "playing") -> None:
    await s.tables.save_table(
        table_id,
        guild_id=G,
        channel_id=hash(table_id) % 1000 + 1,
        host_id=1,
        status=status,  # type: ignore[arg-type]
        state_json="{}",
        version=1,
    )


async def test_a_table_being_played_stops_the_copy(pair: tuple[Storage, Storage]) -> None:
    source, target = pair
    await open_table(source, "t1")
    now = time.time()
    assert await source.leases.claim_table("t1", "host:unsharded", 60, now=now)
    with pytest.raises(CopyRefused, match=r"being played.*stop the bot first"):
        await copy(source, target, now=now + 1)
    assert await raw(target, "SELECT COUNT(*) FROM game_tables") == [(0,)]
    # Once the lease has run out (a crashed bot, a minute later) the table is copied.
    report = await copy(source, target, now=now + 61)
    assert report.counts["game_tables"] == 1  # type: ignore[attr-defined]
    assert report.counts["table_owners"] == 1  # type: ignore[attr-defined]


async def test_a_target_holding_data_is_refused_unless_replaced(
    pair: tuple[Storage, Storage],
) -> None:
    source, target = pair
    await source.results.record_deal_result(two_player_deal("m1", 1, 2, 10))
    await target.settings.update_settings(G + 1, default_profile="pool101")
    with pytest.raises(CopyRefused, match=r"already holds data \(guild_settings 1\)"):
        await copy(source, target)
    assert await raw(target, "SELECT COUNT(*) FROM deals") == [(0,)]
    report = await copy(source, target, replace=True)
    assert report.replaced == {"guild_settings": 1}  # type: ignore[attr-defined]
    assert await raw(target, "SELECT guild_id FROM guild_settings") == []
    assert await raw(target, "SELECT COUNT(*) FROM deal_seats") == [(2,)]


async def test_sequences_continue_after_the_copied_ids(pair: tuple[Storage, Storage]) -> None:
    source, target = pair
    for n in range(3):
        await source.results.record_deal_result(two_player_deal(f"m{n}", 1, 2, 10))
        await source.results.record_match_result(match(f"m{n}", [(1, 1), (2, 2)]))
    report = await copy(source, target)
    assert report.sequences["deals.deal_id"] == 4  # type: ignore[attr-defined]
    assert report.sequences["matches.recorded"] == 4  # type: ignore[attr-defined]
    await target.results.record_deal_result(two_player_deal("m9", 1, 2, 10))
    await target.results.record_match_result(match("m9", [(1, 1), (2, 2)]))
    assert await raw(target, "SELECT MAX(deal_id) FROM deals") == [(4,)]
    recorded = await raw(target, "SELECT match_id, recorded FROM matches ORDER BY recorded")
    assert recorded == [("m0", 1), ("m1", 2), ("m2", 3), ("m9", 4)]
    stats = await target.boards.player_stats(G, 1)
    assert stats.profiles["points"].matches_played == 4


async def test_schemas_at_different_versions_are_refused(tmp_path: Path) -> None:
    async for url in postgres_schema(postgres_url_or_skip()):
        source = await Storage.open(tmp_path / "old.sqlite3", migrate_to=10)
        target = await Storage.open_url(url)
        try:
            latest = load_migrations("postgres")[-1].version
            with pytest.raises(CopyRefused, match=f"schema v10 and PostgreSQL at v{latest}"):
                await copy(source, target)
        finally:
            await source.close()
            await target.close()
