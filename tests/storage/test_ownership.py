"""Table ownership leases (bot.storage.ownership): one process drives a table at a time."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import Storage

T0 = 1_700_000_000.0


async def _open_table(st: Storage, table_id: str, guild_id: int = 1) -> None:
    await st.tables.save_table(
        table_id,
        guild_id=guild_id,
        channel_id=10_000 + sum(map(ord, table_id)),  # one open table per channel
        host_id=100,
        status="lobby",
        state_json="{}",
        version=1,
        now=T0,
    )


async def test_claim_is_exclusive_until_the_lease_runs_out(st: Storage) -> None:
    assert await st.leases.claim_table("t1", "a", 30, now=T0)
    assert not await st.leases.claim_table("t1", "b", 30, now=T0 + 10)
    owner = await st.leases.table_owner("t1")
    assert owner is not None and owner.owner == "a" and owner.lease_until == T0 + 30
    # Expired: the next claimant takes it over.
    assert await st.leases.claim_table("t1", "b", 30, now=T0 + 30)
    owner = await st.leases.table_owner("t1")
    assert owner is not None and (owner.owner, owner.claimed_at) == ("b", T0 + 30)


async def test_claiming_again_keeps_an_own_table(st: Storage) -> None:
    assert await st.leases.claim_table("t1", "a", 30, now=T0)
    assert await st.leases.claim_table("t1", "a", 30, now=T0 + 5)
    owner = await st.leases.table_owner("t1")
    assert owner is not None and owner.lease_until == T0 + 35 and owner.claimed_at == T0


async def test_renew_reports_tables_lost_to_another_owner(st: Storage) -> None:
    for t in ("t1", "t2", "t3"):
        assert await st.leases.claim_table(t, "a", 30, now=T0)
    assert await st.leases.claim_table("t2", "b", 30, now=T0 + 31)  # a stalled past its lease
    lost = await st.leases.renew_tables(["t1", "t2", "t3"], "a", 30, now=T0 + 32)
    assert lost == {"t2"}
    t1, t2 = await st.leases.table_owner("t1"), await st.leases.table_owner("t2")
    assert t1 is not None and t1.lease_until == T0 + 62
    assert t2 is not None and t2.owner == "b" and t2.lease_until == T0 + 61
    assert await st.leases.renew_tables([], "a", 30, now=T0) == set()


async def test_only_the_owner_releases(st: Storage) -> None:
    assert await st.leases.claim_table("t1", "a", 30, now=T0)
    assert not await st.leases.release_table("t1", "b")
    assert await st.leases.release_table("t1", "a")
    assert await st.leases.table_owner("t1") is None
    assert await st.leases.claim_table("t1", "b", 30, now=T0 + 1)  # no waiting after a release


async def test_orphans_are_open_tables_without_a_live_lease(st: Storage) -> None:
    for i, t in enumerate(("held", "expired", "never", "closed")):
        await _open_table(st, t, guild_id=i)
    await st.tables.close_table("closed", "cancelled", now=T0)
    await st.leases.claim_table("held", "a", 60, now=T0)
    await st.leases.claim_table("expired", "a", 10, now=T0)
    assert sorted(await st.leases.orphan_tables(now=T0 + 20)) == [("expired", 1), ("never", 2)]


async def test_two_connections_racing_for_one_table_have_one_winner(tmp_path: Path) -> None:
    """Two processes' connections on one file claim the same tables at once: each table
    ends with exactly one owner, and each claimant's answers agree with the database."""
    path = tmp_path / "shared.sqlite3"
    a, b = await Storage.open(path), await Storage.open(path)
    try:
        ids = [f"t{i}" for i in range(40)]
        won_a, won_b = await asyncio.gather(
            asyncio.gather(*(a.leases.claim_table(t, "a", 30, now=T0) for t in ids)),
            asyncio.gather(*(b.leases.claim_table(t, "b", 30, now=T0) for t in ids)),
        )
        for t, wa, wb in zip(ids, won_a, won_b, strict=True):
            assert wa != wb, t
            owner = await a.leases.table_owner(t)
            assert owner is not None and owner.owner == ("a" if wa else "b")
    finally:
        await a.close()
        await b.close()
