"""Shard clusters end to end: `python -m bot` with `SHARD_COUNT=2 SHARD_IDS=0` identifies as
shard 0 of 2, receives only shard 0's guilds, restores only their tables, and plays there."""

from __future__ import annotations

from pathlib import Path

from bot.storage import Storage
from bot.table.options import build_options
from bot.table.service import TableService
from tests.e2e.harness import TOKEN
from tests.fakediscord import FakeDiscord
from tests.table.test_service import Recorder

# Guild ids whose shard (of 2) is 0 and 1: Discord's rule is (guild_id >> 22) % shard_count.
GUILD_0 = (1_000_000 << 22) + 1
GUILD_1 = (1_000_001 << 22) + 1


async def seed_lobbies(db: Path, channels: dict[int, int]) -> dict[int, str]:
    """A lobby per guild, left by a process that stopped cleanly: guild id -> table id."""
    storage = await Storage.open(db)
    service = TableService(storage, Recorder(), owner="an earlier process")
    opts = build_options("points", None, 60, None, {}, None, None, None)
    made = {}
    for guild, channel in channels.items():
        made[guild] = (await service.lobby.create(guild, channel, 7, "host", opts)).id
    await service.shutdown()
    await storage.close()
    return made


async def test_a_process_runs_only_its_shards(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(
        users=["alice", "bob"], channels=["general"], guild_id=GUILD_0, token=TOKEN
    ) as fake:
        fake.add_guild("Other Guild", GUILD_1)
        other = fake.add_channel("elsewhere", guild_id=GUILD_1)
        spare = fake.add_channel("spare")  # shard 0's guild, for a new table
        general = fake.channel("general")
        tables = await seed_lobbies(db, {GUILD_0: general.id, GUILD_1: other.id})
        env = {
            "DATABASE_PATH": str(db),
            "AI_DELAY": "0",
            "LOG_LEVEL": "INFO",
            "SHARD_COUNT": "2",
            "SHARD_IDS": "0",
        }
        proc = await fake.launch("bot", env=env)
        try:
            await fake.wait_for_commands("rummy")
            assert fake.server.identified_shards == [[0, 2]]
            # The restored lobby of shard 0 is shown again; shard 1's channel is never touched.
            await fake.wait_for(
                lambda: fake.public_messages("general"),
                message=lambda: "shard 0's lobby was not resumed\n" + proc.log(),
            )
            result = await fake.slash("alice", spare, "rummy new", profile="points")
            assert not result.text.startswith("Something went wrong"), result.text
            await fake.wait_for(lambda: fake.public_messages(spare))
            await fake.settle(0.3)
            assert fake.public_messages(other) == []
            assert not any(f"/channels/{other.id}/" in p for _, p, _ in fake.server.request_log)
            assert "running shards [0] of 2" in proc.log()
            async with await Storage.open(db) as storage:  # a second connection, as an admin
                mine = await storage.leases.table_owner(tables[GUILD_0])
                assert mine is not None and mine.owner.endswith(":shards 0 of 2")
                assert await storage.leases.table_owner(tables[GUILD_1]) is None
        finally:
            await proc.terminate()
        async with await Storage.open(db) as storage:
            # SIGTERM is a clean stop: the leases are handed back at once.
            assert await storage.leases.table_owner(tables[GUILD_0]) is None
            record = await storage.tables.load_table(tables[GUILD_1])
            assert record is not None and record.status == "lobby"
        assert fake.server.violations == [], fake.server.violations
