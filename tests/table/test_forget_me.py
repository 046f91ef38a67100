"""Forget-me after real games at the table layer, on both backends: the player's id and name
are nowhere in the database afterwards, the outbox's result jobs included (each kept a whole
result record, with every seat's id and name), except where `privacy.KEPT` says why."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.privacy import COLUMNS, KEPT
from bot.table.options import build_options
from bot.table.service import TableService
from tests.postgres import postgres_schema, postgres_url_or_skip
from tests.table.test_after_commit import Listener, play_to_the_end, settled

GUILD, CHANNEL, OTHER = 1000, 2000, 2001
# Discord-sized ids and names no other text contains.
ASHA, RAVI = 731234567890123456, 745678901234567890
ASHA_NAME, RAVI_NAME = "Asha Quillfeather", "Ravi Thornbury"


Values = dict[tuple[str, str], list[object]]


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    if request.param == "sqlite":
        store = await Storage.open(tmp_path / "t.sqlite3")
        yield store
        await store.close()
        return
    async for url in postgres_schema(postgres_url_or_skip()):
        store = await Storage.open_url(url)
        yield store
        await store.close()


async def everything(storage: Storage) -> Values:
    """Every value of every column of every table the registry knows."""
    out: Values = {}
    async with storage.database.reading() as conn:
        for table, columns in COLUMNS.items():
            for column in columns:
                if storage.dialect == "sqlite" and (table, column) == ("matches", "recorded"):
                    continue
                rows = await conn.fetchall(f"SELECT {column} FROM {table}")
                out[(table, column)] = [r[0] for r in rows]
    return out


def found(
    values: dict[tuple[str, str], list[object]], user: int, name: str
) -> set[tuple[str, str]]:
    """The columns where the user's id (as a number, or as digits inside a text) or their
    name still appears."""
    digits = re.compile(rf"(?<!\d){user}(?!\d)")
    return {
        where
        for where, column in values.items()
        for v in column
        if v == user or (isinstance(v, str) and (digits.search(v) or name in v))
    }


async def play(tables: TableService, channel: int, host: int, host_name: str) -> None:
    opts = build_options("points", None, 60, None, {}, None, None, None)
    table = await tables.lobby.create(GUILD, channel, host, host_name, opts)
    other, other_name = (RAVI, RAVI_NAME) if host == ASHA else (ASHA, ASHA_NAME)
    await tables.lobby.join(table, other, other_name)
    await tables.lobby.start(table, host)
    await play_to_the_end(tables, table)


async def test_forget_me_leaves_nothing_of_the_player(storage: Storage) -> None:
    tables = TableService(
        storage, Listener(), ai_delay=0.0, next_deal_delay=60, deck_seed=5, retry_delays=(0.05,)
    )
    await play(tables, CHANNEL, ASHA, ASHA_NAME)
    await play(tables, OTHER, RAVI, RAVI_NAME)  # Ravi hosts this one
    await settled(tables, lambda: _all_done(storage))
    await storage.preferences.set_language(RAVI, "hi")
    await tables.shutdown()

    before = await everything(storage)
    assert ("announcements", "payload_json") in found(before, RAVI, RAVI_NAME)
    assert ("deal_seats", "name") in found(before, RAVI, RAVI_NAME)

    assert await storage.privacy.forget_user(GUILD, RAVI)

    after = await everything(storage)
    assert found(after, RAVI, RAVI_NAME) == set(KEPT), "only what the registry keeps, and why"
    # The other player's footprint is all there.
    assert found(after, ASHA, ASHA_NAME) == found(before, ASHA, ASHA_NAME) - {
        ("user_preferences", "user_id")
    }
    stats = await storage.boards.player_stats(GUILD, ASHA)
    assert stats.profiles["points"].matches_played == 2
    assert (await storage.boards.player_stats(GUILD, RAVI)).profiles == {}


async def _all_done(storage: Storage) -> bool:
    return await storage.outbox.pending_announcements() == []
