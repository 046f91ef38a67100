"""The announcement outbox (bot.storage.outbox): written with its cause, pending until marked."""

from __future__ import annotations

import pytest

from bot.storage import Announcement, Storage, StorageIntegrityError
from tests.storage.helpers import NOW, G


async def _table(s: Storage, table_id: str = "t1", channel: int = 5) -> None:
    await s.tables.save_table(
        table_id, guild_id=G, channel_id=channel, host_id=7, status="playing",
        state_json="{}", version=1,
    )  # fmt: skip


async def test_an_action_and_its_announcement_are_one_transaction(st: Storage) -> None:
    await _table(st)
    await st.tables.commit_action(
        "t1", 2, "{}", "{}", announce=[Announcement("deal_results", 1)], now=NOW
    )
    [note] = await st.outbox.pending_announcements()
    assert (note.table_id, note.kind, note.deal_no, note.delivered_at) == (
        "t1", "deal_results", 1, None,
    )  # fmt: skip
    # The action fails (its event seq is taken): its announcement is not written either.
    await st.tables.append_event("t1", 3, "{}")
    with pytest.raises(StorageIntegrityError):
        await st.tables.commit_action(
            "t1", 3, "{}", "{}", announce=[Announcement("deal_results", 2)]
        )
    assert [n.deal_no for n in await st.outbox.pending_announcements()] == [1]


async def test_marked_announcements_are_not_revived_by_a_repeat(st: Storage) -> None:
    await _table(st)
    due = [Announcement("deal_results", 1)]
    await st.tables.commit_action("t1", 2, "{}", "{}", announce=due)
    await st.tables.commit_action("t1", 3, "{}", "{}", announce=due)  # a vote between deals
    assert len(await st.outbox.pending_announcements("t1")) == 1
    assert await st.outbox.mark_announced("t1", "deal_results", 1)
    assert not await st.outbox.mark_announced("t1", "deal_results", 1)  # a repeat is harmless
    await st.tables.commit_action("t1", 4, "{}", "{}", announce=due)
    assert await st.outbox.pending_announcements() == []


async def test_closing_writes_its_announcement_only_when_it_closes(st: Storage) -> None:
    await _table(st, "t1", 5)
    await _table(st, "t2", 6)
    over = [Announcement("match_over")]
    assert await st.tables.close_table("t1", "finished", announce=over)
    with pytest.raises(ValueError):  # a caller bug, refused before anything is written
        await st.tables.close_table("t2", "finished", announce=[Announcement("bogus")])  # type: ignore[arg-type]
    assert await st.tables.close_table("t2", "cancelled")
    assert not await st.tables.close_table("t2", "finished", announce=over)  # already closed
    assert [(n.table_id, n.kind) for n in await st.outbox.pending_announcements()] == [
        ("t1", "match_over")
    ]
