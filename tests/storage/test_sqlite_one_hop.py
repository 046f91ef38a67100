"""A game action's write on SQLite is one call to the connection's thread (one wake-up of the
event loop), with the same all-or-nothing as a transaction of separate statements."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Announcement, Storage, VersionConflictError
from bot.storage.sqlite import SqliteDatabase
from tests.storage.helpers import NOW, G


async def _open(path: Path) -> tuple[Storage, SqliteDatabase]:
    storage = await Storage.open(path)
    db = storage._db
    assert isinstance(db, SqliteDatabase)
    await storage.tables.save_table(
        "t1", guild_id=G, channel_id=5, host_id=7, status="playing", state_json="{}", version=1
    )
    return storage, db


def _count_hops(db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    calls: list[Any] = []
    writer = db._writer_raw
    original = writer._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        return await original(fn, *args, **kwargs)

    monkeypatch.setattr(writer, "_execute", counted)
    return calls


async def test_a_commit_is_one_hop_with_its_event_and_announcements(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage, db = await _open(tmp_path / "t.sqlite3")
    try:
        hops = _count_hops(db, monkeypatch)
        due = [Announcement("deal_results", 1)]
        await storage.tables.commit_action("t1", 2, '{"v":2}', '{"e":2}', announce=due, now=NOW)
        assert len(hops) == 1
        table = await storage.tables.load_table("t1")
        assert table is not None and table.state_json == '{"v":2}'
        assert [e.seq for e in await storage.tables.load_events("t1")] == [2]
        pending = await storage.outbox.pending_announcements("t1")
        assert [(a.kind, a.deal_no) for a in pending] == [("deal_results", 1)]
        hops.clear()
        with pytest.raises(VersionConflictError):  # explained inside the same hop
            await storage.tables.commit_action("t1", 2, '{"v":"stale"}', '{"e":"x"}')
        assert len(hops) == 1
        assert [e.seq for e in await storage.tables.load_events("t1")] == [2]
    finally:
        await storage.close()


async def test_a_cancelled_commit_ends_first_and_the_connection_stays_usable(
    tmp_path: Path,
) -> None:
    storage, _db = await _open(tmp_path / "t.sqlite3")
    try:
        task = asyncio.create_task(storage.tables.commit_action("t1", 2, "{}", "{}", now=NOW))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        table = await storage.tables.load_table("t1")
        assert table is not None and table.version == 2  # it ran to its end, then cancelled
        await storage.tables.commit_action("t1", 3, "{}", "{}", now=NOW)
        assert [e.seq for e in await storage.tables.load_events("t1")] == [2, 3]
    finally:
        await storage.close()
