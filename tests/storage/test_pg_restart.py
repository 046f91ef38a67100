"""PostgreSQL stops (``pg_ctl stop -m immediate``) and starts again under a running Storage.

The server is a PRIVATE cluster this module starts itself (like ``.ci/with-postgres``: as
user nobody when run as root, a unix socket in a temp dir, fsync off), so stopping it
disturbs no other test. Without the PostgreSQL binaries the test skips, unless
``PAPLU_REQUIRE_POSTGRES=1`` (CI): then it fails.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from bot.storage import Storage, StorageUnavailable
from bot.storage.pg import CONNECT_TIMEOUT
from tests.postgres import Cluster
from tests.storage.helpers import NOW, G, two_player_deal

#: The recovery the issue asks for: calls succeed again within 30 s of the server's return.
RECOVERY_SECONDS = 30.0


async def _fails_fast(call: object) -> None:
    """The call fails with StorageUnavailable, and quickly: nothing waits forever."""
    started = time.monotonic()
    with pytest.raises(StorageUnavailable):
        await call  # type: ignore[misc]
    assert time.monotonic() - started < CONNECT_TIMEOUT + 5


async def test_storage_survives_a_postgres_restart(cluster: Cluster) -> None:
    async with await Storage.open_url(cluster.url, pool_size=4) as st:
        await st.tables.save_table(
            "t1", guild_id=G, channel_id=1, host_id=1, status="playing",
            state_json=json.dumps({"v": 1}), version=1, now=NOW,
        )  # fmt: skip
        # a writer runs while the server goes down: it stops at its first failure
        done: list[int] = []
        failed: list[int] = []

        async def writer() -> None:
            v = 2
            while True:
                try:
                    await st.tables.commit_action(
                        "t1", v, json.dumps({"v": v}), json.dumps({"e": v})
                    )
                except StorageUnavailable:
                    failed.append(v)
                    return
                done.append(v)
                v += 1

        task = asyncio.create_task(writer())
        async with asyncio.timeout(30):
            while len(done) < 20:
                assert not task.done(), failed
                await asyncio.sleep(0.01)
        await asyncio.to_thread(cluster.stop, "immediate")
        async with asyncio.timeout(CONNECT_TIMEOUT + 10):
            await task
        assert failed, "the writer must have seen the outage"

        # while it is down every kind of call fails fast with StorageUnavailable
        await _fails_fast(st.tables.commit_action("t1", 999, "{}", "{}"))
        await _fails_fast(st.tables.load_table("t1"))
        await _fails_fast(st.boards.leaderboard(G))
        await _fails_fast(st.results.record_deal_result(two_player_deal("m1", 1, 2, 5)))
        await _fails_fast(st.leases.claim_table("t1", "me", 30, now=NOW))

        await asyncio.to_thread(cluster.start)
        back = time.monotonic()
        while True:  # the pool's next acquire reconnects: no reopening of Storage
            try:
                table = await st.tables.load_table("t1")
                break
            except StorageUnavailable:
                assert time.monotonic() - back < RECOVERY_SECONDS, "did not recover in 30 s"
                await asyncio.sleep(0.25)
        assert time.monotonic() - back < RECOVERY_SECONDS

        # no write is half-applied: snapshot and log agree, every acknowledged action is
        # there, and the one cut off by the crash is there entirely or not at all
        assert table is not None
        events = await st.tables.load_events("t1")
        assert [e.seq for e in events] == list(range(2, table.version + 1))
        assert json.loads(table.state_json) == {"v": table.version}
        assert table.version in (done[-1], failed[0])
        assert all(json.loads(e.event_json) == {"e": e.seq} for e in events)
        # and writing goes on from there
        await st.tables.commit_action("t1", table.version + 1, "{}", "{}")
        assert await st.results.record_deal_result(two_player_deal("m1", 1, 2, 5))
        assert await st.leases.claim_table("t1", "me", 30, now=NOW)
