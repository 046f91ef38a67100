"""One open table per channel, kept by the database (migration 0003)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Storage, StorageIntegrityError
from tests.storage.helpers import G, raw


async def _table(s: Storage, table_id: str, channel: int, status: str = "lobby") -> None:
    await s.tables.save_table(
        table_id,
        guild_id=G,
        channel_id=channel,
        host_id=7,
        status=status,  # type: ignore[arg-type]
        state_json="{}",
        version=1,
    )


async def test_a_second_open_table_in_a_channel_is_refused(st: Storage) -> None:
    await _table(st, "a", 5)
    with pytest.raises(StorageIntegrityError):
        await _table(st, "b", 5)
    await _table(st, "c", 6)  # another channel is fine
    assert await st.tables.close_table("a", "finished")
    await _table(st, "b", 5)  # once closed, the channel is free again
    await _table(st, "d", 5, status="finished")  # closed rows do not count
    assert sorted(t.table_id for t in await st.tables.load_open_tables()) == ["b", "c"]


def _open_row(conn: sqlite3.Connection, table_id: str, channel: int, created: float) -> None:
    conn.execute(
        "INSERT INTO game_tables (table_id, guild_id, channel_id, host_id, status, state_json,"
        " version, turn_deadline, created_at, updated_at)"
        " VALUES (?, ?, ?, 1, 'playing', '{}', 3, 99.0, ?, ?)",
        (table_id, G, channel, created, created),
    )


async def test_schema_2_duplicates_are_resolved_keeping_the_newest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "old.db"
    async with await Storage.open(path, migrate_to=2):
        pass
    conn = sqlite3.connect(path)
    with conn:
        _open_row(conn, "old1", 5, 100.0)
        _open_row(conn, "new1", 5, 300.0)
        _open_row(conn, "mid1", 5, 200.0)
        _open_row(conn, "solo", 6, 100.0)
    conn.close()

    with caplog.at_level(logging.WARNING, logger="bot.storage.migrate"):
        s = await Storage.open(path)
    try:
        open_ids = sorted(t.table_id for t in await s.tables.load_open_tables())
        assert open_ids == ["new1", "solo"]
        closed = await raw(
            s,
            "SELECT table_id, status, turn_deadline, state_json FROM game_tables"
            " WHERE table_id IN ('old1', 'mid1') ORDER BY table_id",
        )
        assert closed == [("mid1", "cancelled", None, "{}"), ("old1", "cancelled", None, "{}")]
        with pytest.raises(StorageIntegrityError):  # and from now on the database keeps it
            await _table(s, "x", 6)
    finally:
        await s.close()
    notes = [r.getMessage() for r in caplog.records]
    assert len(notes) == 2
    assert all("0003_one_open_table_per_channel" in n and "new1" in n for n in notes)
    assert any("old1" in n for n in notes) and any("mid1" in n for n in notes)

    caplog.clear()
    async with await Storage.open(path):  # the notes are logged once, when it ran
        pass
    assert not caplog.records
