"""The table service against storage faults and crashes: the outbox of announcements, one open
table per channel on restore, and a database that stops accepting writes."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine.actions import ActionKind
from bot.engine.match import MatchPhase
from bot.storage import Storage
from bot.table import errors
from bot.table.model import Table
from bot.table.options import build_options
from bot.table.service import TableService as Tables
from bot.table.vocabulary import TableStatus
from tests.storage.helpers import raw_exec

GUILD, CHANNEL = 1000, 2000
ALICE, BOB = 11, 22


class Crash(BaseException):
    """The process dies here (a BaseException, so nothing on the way catches it)."""


class Listener:
    """Records what it posts; can die before posting a deal's results. Like the Discord
    presenter, it builds a deal's results from the table it is given, so a rebuilt table
    that lacked the deal would fail here."""

    def __init__(self, crash_on_results: bool = False) -> None:
        self.crash_on_results = crash_on_results
        self.posted: list[str] = []

    async def table_changed(self, table: Table) -> None:
        pass

    async def turn_started(self, table: Table) -> None:
        pass

    async def turn_warning(self, table: Table) -> None:
        pass

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        if self.crash_on_results:
            raise Crash()
        assert table.match is not None
        history = table.match.hand_history(number)
        assert history["deal_number"] == number
        self.posted.append(f"deal {number}")

    async def table_closed(self, table: Table, reason: str, *, again: bool = False) -> None:
        self.posted.append(reason)


@pytest.fixture
async def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path)
    yield store
    await store.close()


async def _game(tables: Tables, deals: int | None = None) -> Table:
    opts = build_options("deals" if deals else "points", None, 60, None, {}, deals, None, None)
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.start(table, ALICE)
    return table


def _on_turn(table: Table) -> int:
    turn = table.current_turn()
    assert turn is not None and table.match is not None
    return int(table.match.players[turn].id[1:])


async def _restart(storage: Storage) -> tuple[Tables, Listener, list[Table]]:
    """A new process on the same database: restore, post what is owed, resume."""
    listener = Listener()
    tables = Tables(storage, listener, ai_delay=0.0, next_deal_delay=60, deck_seed=5)
    restored = await tables.recovery.restore()
    await tables.recovery.deliver_pending()
    for table in restored:
        await tables.recovery.resume(table)
    return tables, listener, restored


async def test_results_of_a_closed_match_survive_a_crash_before_posting(storage: Storage) -> None:
    tables = Tables(storage, Listener(crash_on_results=True), ai_delay=0.0, deck_seed=5)
    table = await _game(tables)
    # The drop ends the one-deal match: stored and closed; then, posting it, the crash.
    await tables.game.act(table, _on_turn(table), table.version, ActionKind.DROP)
    assert any(isinstance(f, Crash) for f in await tables.effects.settled())
    record = await storage.tables.load_table(table.id)
    assert record is not None and record.status == "finished"
    await tables.shutdown()

    again, listener, restored = await _restart(storage)
    assert restored == []  # a finished table is not restored...
    assert listener.posted == ["deal 1", "finished"]  # ...but what it owed is posted
    await again.shutdown()

    third, listener, _ = await _restart(storage)
    assert listener.posted == []  # once
    await third.shutdown()


async def test_results_between_deals_survive_a_crash_and_are_posted_once(
    storage: Storage,
) -> None:
    tables = Tables(storage, Listener(crash_on_results=True), ai_delay=0.0, deck_seed=5)
    table = await _game(tables, deals=2)
    await tables.game.act(table, _on_turn(table), table.version, ActionKind.DROP)
    assert any(isinstance(f, Crash) for f in await tables.effects.settled())
    assert table.match is not None and table.match.phase is MatchPhase.BETWEEN_DEALS
    await tables.shutdown()

    again, listener, restored = await _restart(storage)
    assert [t.id for t in restored] == [table.id]
    assert listener.posted == ["deal 1"]
    await again.shutdown()

    third, listener, _ = await _restart(storage)  # delivered: not announced again
    assert listener.posted == []
    await third.shutdown()


async def test_normal_play_posts_each_announcement_once_and_owes_nothing(
    storage: Storage,
) -> None:
    listener = Listener()
    tables = Tables(storage, listener, ai_delay=0.0, deck_seed=5)
    table = await _game(tables)
    await tables.game.act(table, _on_turn(table), table.version, ActionKind.DROP)
    assert await tables.effects.settled() == []
    assert listener.posted == ["deal 1", "finished"]
    assert await storage.outbox.pending_announcements() == []
    await tables.shutdown()


def _open_row(path: Path, table_id: str, state: str, created: float) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP INDEX game_tables_one_open_per_channel")  # as a copied-in database
        conn.execute(
            "INSERT INTO game_tables (table_id, guild_id, channel_id, host_id, status,"
            " state_json, version, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, 'lobby', ?, 1, ?, ?)",
            (table_id, GUILD, CHANNEL, ALICE, state, created, created),
        )
    conn.close()


async def test_restore_never_loads_two_tables_for_one_channel(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    tables = Tables(storage, Listener(), ai_delay=0.0, deck_seed=5)
    newer = await _game(tables)
    await tables.shutdown()
    await storage.close()
    older = Table.from_json(newer.to_json())
    older.id = "olderclone"
    _open_row(db_path, older.id, older.to_json(), created=1.0)  # created long before

    storage = await Storage.open(db_path)
    try:
        again, _, restored = await _restart(storage)
        assert [t.id for t in restored] == [newer.id]
        assert again.registry.in_channel(CHANNEL).id == newer.id
        record = await storage.tables.load_table(older.id)
        assert record is not None and record.status == "cancelled"
        await again.shutdown()
    finally:
        await storage.close()


async def test_an_unreadable_table_is_closed_and_frees_its_channel(storage: Storage) -> None:
    await storage.tables.save_table(
        "broken", guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, status="playing",
        state_json='{"format": 99}', version=1,
    )  # fmt: skip
    tables, _, restored = await _restart(storage)
    assert restored == []
    table = await _game(tables)  # the channel is free again
    assert table.status is TableStatus.PLAYING
    await tables.shutdown()


async def test_a_database_that_turns_read_only_refuses_moves_and_keeps_going(
    storage: Storage,
) -> None:
    tables = Tables(storage, Listener(), ai_delay=0.0, deck_seed=5)
    table = await _game(tables)
    before = table.to_json()
    await raw_exec(storage, "PRAGMA query_only = ON")
    with pytest.raises(errors.SaveFailed):
        await tables.game.act(table, _on_turn(table), table.version, ActionKind.DRAW_STOCK)
    assert table.to_json() == before  # nothing happened, in memory either
    await raw_exec(storage, "PRAGMA query_only = OFF")
    await tables.game.act(
        table, _on_turn(table), table.version, ActionKind.DRAW_STOCK
    )  # and it carries on
    assert table.version > 0
    await tables.shutdown()
