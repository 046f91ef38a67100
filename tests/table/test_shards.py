"""Shard clusters: each process drives only its shards' tables, and the database's leases keep
two misconfigured processes (overlapping shards) from both driving one table."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.config import shard_of
from bot.engine.actions import ActionKind
from bot.storage import Storage
from bot.table.model import Table
from bot.table.options import build_options
from bot.table.scheduler import ManualClock
from bot.table.service import TableService
from bot.table.vocabulary import TableStatus
from tests.table.test_service import Recorder
from tests.table.test_storage_faults import Crash, Listener

ALICE, BOB = 11, 22
SHARDS = 2
# Guild ids on shard 0 and shard 1 (Discord: (guild_id >> 22) % shard_count).
GUILD_0, GUILD_1 = (10 << 22) + 5, (11 << 22) + 5
LEASE = 60.0


def shards(*ids: int) -> Callable[[int], bool]:
    return lambda guild_id: shard_of(guild_id, SHARDS) in ids


@pytest.fixture
async def db_path(tmp_path: Path) -> AsyncIterator[Path]:
    """One database file; every service below opens its own connection, like a process."""
    path = tmp_path / "shared.sqlite3"
    async with await Storage.open(path):
        pass
    yield path


async def service(
    path: Path, owner: str, *ids: int, clock: ManualClock | None = None
) -> TableService:
    storage = await Storage.open(path)
    return TableService(
        storage,
        Recorder(),
        ai_delay=0,
        clock=clock or ManualClock(),
        owner=owner,
        owns_guild=shards(*ids) if ids else None,
        lease_seconds=LEASE,
    )


async def stop(svc: TableService, *, crash: bool = False) -> None:
    """A clean stop releases the tables; a crash just stops (the leases stay until expiry)."""
    if crash:
        if svc.leases._task is not None:
            svc.leases._task.cancel()
        await svc.effects.shutdown()
        await svc.scheduler.shutdown()
    else:
        await svc.shutdown()
    await svc.storage.close()


async def open_tables(path: Path) -> dict[int, Table]:
    """A lobby in each shard's guild (opened by a process that then crashes)."""
    opener = await service(path, "opener")
    opts = build_options("points", None, 60, None, {}, None, None, None)
    made = {
        0: await opener.lobby.create(GUILD_0, 100, ALICE, "alice", opts),
        1: await opener.lobby.create(GUILD_1, 101, ALICE, "alice", opts),
    }
    await stop(opener)  # released: the tables are unowned, as after a clean stop
    return made


def test_the_example_guilds_are_on_the_shards_they_claim_to_be() -> None:
    assert (shard_of(GUILD_0, SHARDS), shard_of(GUILD_1, SHARDS)) == (0, 1)


async def test_restore_takes_only_the_tables_of_its_shards(db_path: Path) -> None:
    made = await open_tables(db_path)
    zero, one = await service(db_path, "p0", 0), await service(db_path, "p1", 1)
    try:
        assert [t.id for t in await zero.recovery.restore()] == [made[0].id]
        assert [t.id for t in await one.recovery.restore()] == [made[1].id]
        assert set(zero.registry.by_id) == {made[0].id} and set(one.registry.by_id) == {made[1].id}
        owner = await zero.storage.leases.table_owner(made[0].id)
        assert owner is not None and owner.owner == "p0"
    finally:
        await stop(zero)
        await stop(one)


async def test_unsharded_restores_everything(db_path: Path) -> None:
    made = await open_tables(db_path)
    solo = await service(db_path, "solo")
    try:
        assert {t.id for t in await solo.recovery.restore()} == {made[0].id, made[1].id}
    finally:
        await stop(solo)


async def test_overlapping_shards_only_one_process_drives_a_table(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Misconfigured: process A runs shards 0-1, process B runs shard 1 too. The table of
    guild 1 is driven by whichever claimed it first; the other says so and leaves it alone."""
    made = await open_tables(db_path)
    a, b = await service(db_path, "A", 0, 1), await service(db_path, "B", 1)
    try:
        assert len(await a.recovery.restore()) == 2
        with caplog.at_level(logging.WARNING, logger="bot.table.service"):
            assert await b.recovery.restore() == []
        assert b.registry.by_id == {} and b.registry.by_channel == {}
        warning = [r.getMessage() for r in caplog.records if made[1].id in r.getMessage()]
        assert len(warning) == 1
        assert "driven by another process (A" in warning[0] and "SHARD_IDS" in warning[0]
        # B's periodic renewal does not sneak it back while A's lease is alive.
        await b.leases.renew()
        assert b.registry.by_id == {}
        owner = await b.storage.leases.table_owner(made[1].id)
        assert owner is not None and owner.owner == "A"
        # A keeps driving it: a move by A is saved.
        table = a.registry.by_id[made[1].id]
        await a.lobby.join(table, BOB, "bob")
        record = await a.storage.tables.load_table(table.id)
        assert record is not None and record.version == table.version == 2
    finally:
        await stop(a)
        await stop(b)


async def test_a_crashed_owners_tables_are_taken_over_when_the_lease_runs_out(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    made = await open_tables(db_path)
    clock_a, clock_b = ManualClock(), ManualClock()
    a = await service(db_path, "A", 0, 1, clock=clock_a)
    b = await service(db_path, "B", 1, clock=clock_b)
    try:
        await a.recovery.restore()
        assert await b.recovery.restore() == []
        await stop(a, crash=True)  # no release: the leases stay until they run out
        await clock_b.advance(LEASE / 2)
        await b.leases.renew()
        assert b.registry.by_id == {}, "taken over before the lease ran out"
        with caplog.at_level(logging.WARNING, logger="bot.table.service"):
            await clock_b.advance(LEASE)  # the renewal task itself runs on B's clock
            for _ in range(500):
                if b.registry.by_id:
                    break
                # Renewals write through storage's thread in real time; a renewal busy there
                # while the clock jumps sleeps again from the new time, so keep time moving.
                await asyncio.sleep(0.01)
                await clock_b.advance(LEASE / 6)
        assert set(b.registry.by_id) == {made[1].id}, "shard 0's table is not B's to adopt"
        assert any("took over table" in r.getMessage() for r in caplog.records)
        owner = await b.storage.leases.table_owner(made[1].id)
        assert owner is not None and owner.owner == "B"
    finally:
        await stop(b)


async def test_an_owner_that_stalled_past_its_lease_lets_go(db_path: Path) -> None:
    """A froze for longer than its lease and B took its table over; when A wakes, its next
    renewal finds out and A stops driving the table (no timers, no memory of it)."""
    made = await open_tables(db_path)
    clock_a, clock_b = ManualClock(), ManualClock()
    a = await service(db_path, "A", 1, clock=clock_a)
    b = await service(db_path, "B", 1, clock=clock_b)
    try:
        await a.recovery.restore()
        await clock_b.advance(LEASE + 1)
        await b.leases.renew()
        assert set(b.registry.by_id) == {made[1].id}
        await a.leases.renew()
        assert (
            a.registry.by_id == {} and a.registry.by_channel == {} and a.scheduler.pending() == []
        )
        table = b.registry.by_id[made[1].id]
        assert table.status is TableStatus.LOBBY
    finally:
        await stop(a)
        await stop(b)


async def test_a_new_table_is_claimed_and_released_when_closed(db_path: Path) -> None:
    svc = await service(db_path, "A")
    try:
        opts = build_options("points", None, 60, None, {}, None, None, None)
        table = await svc.lobby.create(GUILD_0, 100, ALICE, "alice", opts)
        owner = await svc.storage.leases.table_owner(table.id)
        assert owner is not None and owner.owner == "A"
        await svc.lobby.cancel(table, ALICE, is_manager=False)
        assert await svc.storage.leases.table_owner(table.id) is None
    finally:
        await stop(svc)


async def test_results_an_open_table_owes_are_left_to_its_holder(db_path: Path) -> None:
    """A process of the same shards (overlapping SHARD_IDS, or a new process started before
    the old one stopped) restores while the holder of a table owes its players the results
    of a deal. Those are the holder's to post: the other process posts nothing and leaves
    them owed. Once the holder is gone and its lease has run out, whoever takes the table
    over posts them, once."""
    holder = TableService(
        await Storage.open(db_path),
        Listener(crash_on_results=True),
        ai_delay=0,
        clock=ManualClock(),
        owner="A",
        owns_guild=shards(0),
        lease_seconds=LEASE,
        deck_seed=5,
    )
    opts = build_options("deals", None, 60, None, {}, 2, None, None)
    table = await holder.lobby.create(GUILD_0, 100, ALICE, "alice", opts)
    await holder.lobby.join(table, BOB, "bob")
    await holder.lobby.start(table, ALICE)
    turn = table.current_turn()
    assert turn is not None and table.match is not None
    # Deal 1 ends; the holder stalls before posting its results.
    await holder.game.act(
        table, int(table.match.players[turn].id[1:]), table.version, ActionKind.DROP
    )
    assert any(isinstance(f, Crash) for f in await holder.effects.settled())
    assert [n.deal_no for n in await holder.storage.outbox.pending_announcements()] == [1]

    clock = ManualClock()
    listener = Listener()
    other = TableService(
        await Storage.open(db_path),
        listener,
        ai_delay=0,
        clock=clock,
        owner="B",
        owns_guild=shards(0, 1),
        lease_seconds=LEASE,
        deck_seed=5,
    )
    try:
        assert await other.recovery.restore() == []
        assert await other.recovery.deliver_pending() == 0
        assert listener.posted == [], "posted the results of a table another process holds"
        assert [n.deal_no for n in await other.storage.outbox.pending_announcements()] == [1]

        await stop(holder, crash=True)
        await clock.advance(LEASE + 1)  # the renewal task adopts it, on B's clock
        for _ in range(500):
            owed = await other.storage.outbox.pending_announcements()
            if other.registry.by_id and listener.posted and not owed:
                break  # adopted, posted, and marked posted
            await asyncio.sleep(0.01)
            await clock.advance(LEASE / 6)
        assert set(other.registry.by_id) == {table.id}
        assert listener.posted == ["deal 1"]
        assert await other.storage.outbox.pending_announcements() == []
    finally:
        await stop(other)
