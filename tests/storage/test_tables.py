"""Game tables and their action log (bot.storage.tables)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    NotFoundError,
    Storage,
    StorageIntegrityError,
    VersionConflictError,
)
from tests.storage.helpers import NOW, G, two_player_deal


async def _new_table(s: Storage, table_id: str = "t1", version: int = 1, channel: int = 55) -> None:
    await s.tables.save_table(
        table_id,
        guild_id=G,
        channel_id=channel,
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
    await st.tables.save_table(
        "t1", guild_id=G, channel_id=55, host_id=7, status="playing", state_json="{}", version=4
    )
    with pytest.raises(VersionConflictError):
        await st.tables.save_table(
            "t1", guild_id=G, channel_id=55, host_id=7, status="lobby", state_json="old", version=3
        )
    t = await st.tables.load_table("t1")
    assert t is not None and t.version == 4 and t.status == "playing" and t.state_json == "{}"


async def test_commit_action_writes_snapshot_and_event_together(st: Storage) -> None:
    await _new_table(st)
    await st.tables.commit_action(
        "t1",
        2,
        '{"v": 2}',
        '{"act": "draw"}',
        status="playing",
        turn_deadline=NOW + 60.5,
        prompt_message_id=901,
        now=NOW,
    )
    await st.tables.commit_action("t1", 3, '{"v": 3}', '{"act": "discard"}', now=NOW + 1)
    t = await st.tables.load_table("t1")
    assert t is not None
    assert (t.version, t.state_json, t.status) == (3, '{"v": 3}', "playing")
    assert (t.turn_deadline, t.prompt_message_id, t.public_message_id) == (NOW + 60.5, 901, 900)
    events = await st.tables.load_events("t1")
    assert [(e.seq, e.event_json) for e in events] == [
        (2, '{"act": "draw"}'),
        (3, '{"act": "discard"}'),
    ]
    assert [e.seq for e in await st.tables.load_events("t1", after_seq=2)] == [3]

    # a stale action changes nothing: no event, no snapshot
    with pytest.raises(VersionConflictError):
        await st.tables.commit_action("t1", 3, '{"v": "stale"}', '{"act": "stale"}')
    assert len(await st.tables.load_events("t1")) == 2
    assert (await st.tables.load_table("t1")).state_json == '{"v": 3}'  # type: ignore[union-attr]

    # atomicity: if the event cannot be written, the snapshot is rolled back as well
    await st.tables.append_event("t1", 4, '{"note": "squatter"}')
    with pytest.raises(StorageIntegrityError) as refused:
        await st.tables.commit_action("t1", 4, '{"v": 4}', '{"act": "x"}')
    assert isinstance(
        refused.value.__cause__, sqlite3.IntegrityError | asyncpg.UniqueViolationError
    )
    assert (await st.tables.load_table("t1")).version == 3  # type: ignore[union-attr]

    with pytest.raises(NotFoundError):
        await st.tables.commit_action("missing", 1, "{}", "{}")


async def test_turn_deadline_can_be_cleared_and_messages_set(st: Storage) -> None:
    await _new_table(st)
    await st.tables.commit_action("t1", 2, "{}", "{}", turn_deadline=NOW + 5.0)
    await st.tables.commit_action("t1", 3, "{}", "{}", turn_deadline=None)
    await st.tables.set_table_messages("t1", prompt_message_id=42)
    t = await st.tables.load_table("t1")
    assert t is not None and t.turn_deadline is None and t.prompt_message_id == 42
    assert t.version == 3  # message ids do not bump the game version
    with pytest.raises(NotFoundError):
        await st.tables.set_table_messages("zzz", public_message_id=1)


async def test_thread_and_lobby_message_are_kept_without_a_version_bump(st: Storage) -> None:
    """Migration 0009: where a table lives (its thread, its lobby message in the channel) is
    stored like the message ids, survives a reload, and a table never placed has neither."""
    await _new_table(st)
    fresh = await st.tables.load_table("t1")
    assert fresh is not None and (fresh.thread_id, fresh.lobby_message_id) == (None, None)
    big = 1_300_000_000_000_000_001  # a snowflake: 64 bits
    await st.tables.set_table_messages(
        "t1", thread_id=big, lobby_message_id=big, public_message_id=big + 5
    )
    t = await st.tables.load_table("t1")
    assert t is not None and (t.thread_id, t.lobby_message_id) == (big, big)
    assert t.public_message_id == big + 5 and t.version == fresh.version
    await st.tables.set_table_messages("t1", thread_id=None)  # moved back to the channel
    again = await st.tables.load_table("t1")
    assert again is not None and (again.thread_id, again.lobby_message_id) == (None, big)
    assert [r.thread_id for r in await st.tables.load_open_tables()] == [None]


async def test_close_table_and_open_tables(st: Storage) -> None:
    await _new_table(st, "a", channel=1)
    await _new_table(st, "b", channel=2)
    await _new_table(st, "c", channel=3)
    assert await st.tables.close_table("b", "finished")
    assert not await st.tables.close_table("b", "cancelled")  # already closed: no-op
    assert not await st.tables.close_table("nope", "cancelled")
    assert await st.tables.close_table("c", "cancelled")
    assert [t.table_id for t in await st.tables.load_open_tables()] == ["a"]
    assert [t.table_id for t in await st.tables.load_open_tables(guild_id=G + 1)] == []
    closed = await st.tables.load_table("b")
    assert closed is not None and closed.status == "finished"
    with pytest.raises(VersionConflictError):  # closed tables accept no more actions
        await st.tables.commit_action("b", 99, "{}", "{}")
    with pytest.raises(ValueError):
        await st.tables.close_table("a", "playing")  # type: ignore[arg-type]


async def test_restart_keeps_tables_events_and_results(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    s = await Storage.open(path)
    await _new_table(s)
    await s.tables.commit_action("t1", 2, '{"v": 2}', '{"act": 1}', status="playing")
    assert await s.results.record_deal_result(two_player_deal("m1", 1, 2, 10))
    await s.close()

    s = await Storage.open(path)
    try:
        tables = await s.tables.load_open_tables()
        assert [(t.table_id, t.version, t.state_json) for t in tables] == [("t1", 2, '{"v": 2}')]
        assert [e.event_json for e in await s.tables.load_events("t1")] == ['{"act": 1}']
        # the retry after restart is recognised and not counted again
        assert not await s.results.record_deal_result(two_player_deal("m1", 1, 2, 10))
        rank = await s.boards.player_rank(G, 1, sort="deals_won", now=NOW)
        assert rank is not None and rank.value == 1
    finally:
        await s.close()
