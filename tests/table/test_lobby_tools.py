"""The host's tools in the lobby, private tables and "Play again", without Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ai import TIERS, AiTier
from bot.engine.actions import ActionKind
from bot.storage import Storage
from bot.table import errors
from bot.table.lobby import parse_tier
from bot.table.model import Table, TableOptions
from bot.table.options import build_options
from bot.table.recovery import rebuild
from bot.table.service import TableService
from bot.table.vocabulary import TableStatus
from tests.table.test_service import Recorder

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL = 11, 22, 33


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "t.sqlite3")
    yield store
    await store.close()


@pytest.fixture
async def tables(storage: Storage) -> AsyncIterator[TableService]:
    t = TableService(storage, Recorder(), ai_delay=0.0, next_deal_delay=60, deck_seed=5)
    yield t
    await t.shutdown()


def options(invited: tuple[int, ...] | None = None, **kw: Any) -> TableOptions:
    opts = build_options("points", None, 60, None, {}, None, None, None)
    opts.invited = invited
    return opts


async def stored(storage: Storage, table: Table) -> Table:
    record = await storage.tables.load_table(table.id)
    assert record is not None
    return rebuild(record)


async def test_the_host_removes_seats(tables: TableService, storage: Storage) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options())
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.add_ai(table, ALICE, AiTier.HARD)
    ai = next(s for s in table.seats if s.ai)
    with pytest.raises(errors.HostOnly):
        await tables.lobby.remove_seat(table, BOB, ai.key)
    removed = await tables.lobby.remove_seat(table, ALICE, ai.key)
    assert removed.ai and removed.name == ai.name
    removed = await tables.lobby.remove_seat(table, ALICE, f"u{BOB}")
    assert not removed.ai and removed.name == "bob"
    assert [s.name for s in table.seats] == ["alice"]
    with pytest.raises(errors.NoSuchSeat):  # gone already (a second click on an old menu)
        await tables.lobby.remove_seat(table, ALICE, f"u{BOB}")
    with pytest.raises(errors.NoSuchSeat):  # the host is not removed, they leave or cancel
        await tables.lobby.remove_seat(table, ALICE, f"u{ALICE}")
    assert [s.name for s in (await stored(storage, table)).seats] == ["alice"]


async def test_the_host_hands_over_and_a_leaving_host_is_succeeded(
    tables: TableService, storage: Storage
) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options())
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.join(table, CAROL, "carol")
    assert await tables.lobby.hand_host(table, ALICE, f"u{BOB}") == "bob"
    assert table.host_id == BOB and table.host_name == "bob"
    with pytest.raises(errors.HostOnly):
        await tables.lobby.start(table, ALICE)
    await tables.lobby.leave(table, BOB)  # the host leaves: the next human who sat down hosts
    assert table.host_id == ALICE
    assert (await stored(storage, table)).host_id == ALICE
    await tables.lobby.add_ai(table, ALICE, AiTier.EASY)
    await tables.lobby.leave(table, CAROL)
    await tables.lobby.leave(table, ALICE)  # only an AI left: the lobby closes
    assert table.status is TableStatus.CANCELLED
    assert CHANNEL not in tables.registry.by_channel


async def test_a_private_table_seats_only_the_invited(
    tables: TableService, storage: Storage
) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options(invited=(BOB,)))
    with pytest.raises(errors.NotInvited):
        await tables.lobby.join(table, CAROL, "carol")
    await tables.lobby.join(table, BOB, "bob")
    assert (await stored(storage, table)).options.invited == (BOB,)


async def finished_match(tables: TableService) -> Table:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options())
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.add_ai(table, ALICE, AiTier.EASY)
    await tables.lobby.start(table, ALICE)
    while table.status is TableStatus.PLAYING:  # everyone drops in turn: the match ends
        turn = table.current_turn()
        assert turn is not None and table.match is not None
        player = table.match.players[turn].id
        if player.startswith("ai"):
            await tables.turns._ai_turn(table, table.version, delay=0)
            continue
        await tables.game.act(table, int(player[1:]), table.version, ActionKind.DROP)
    assert table.status is TableStatus.FINISHED
    return table


async def test_play_again_opens_the_same_lobby_for_the_same_players(
    tables: TableService,
) -> None:
    last = await finished_match(tables)
    with pytest.raises(errors.NotAtLastTable):
        await tables.lobby.rematch(last.id, GUILD, CHANNEL, CAROL, "carol")
    table, first = await tables.lobby.rematch(last.id, GUILD, CHANNEL, BOB, "bob")
    assert first.opened and table.host_id == BOB and table.rematch_of == last.id
    assert table.options == last.options
    assert [(s.name, s.ai) for s in table.seats] == [("bob", None), ("🤖 Easy", "easy")]
    again, second = await tables.lobby.rematch(last.id, GUILD, CHANNEL, ALICE, "alice")
    assert again is table and not second.opened
    assert [s.name for s in table.seats] == ["bob", "🤖 Easy", "alice"]
    same, _third = await tables.lobby.rematch(last.id, GUILD, CHANNEL, ALICE, "alice")
    assert same is table and [s.name for s in table.seats].count("alice") == 1


def test_a_tier_from_outside_is_parsed_once_at_the_edge() -> None:
    """A click can carry any value: `parse_tier` is where an unknown tier is refused, so the
    use cases take an `AiTier` and never check it again."""
    assert [parse_tier(t) for t in ("easy", "medium", "hard", "expert")] == list(TIERS)
    with pytest.raises(errors.UnknownTier) as refused:
        parse_tier("grandmaster")
    assert refused.value.tiers == TIERS
    with pytest.raises(errors.UnknownTier):
        parse_tier("")


async def test_an_ai_seat_keeps_its_tier_as_text(tables: TableService, storage: Storage) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options())
    added = await tables.lobby.add_ai(table, ALICE, AiTier.EXPERT)
    assert added.tier is AiTier.EXPERT and added.name == "🤖 Expert"
    seat = table.seats[-1]
    assert seat.to_dict() == {"key": "ai1", "name": "🤖 Expert", "user_id": None, "ai": "expert"}
    assert type(seat.to_dict()["ai"]) is str
    again = await stored(storage, table)
    assert again.seats[-1].ai is AiTier.EXPERT
