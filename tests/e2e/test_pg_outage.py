"""PostgreSQL stops mid-game (`pg_ctl stop -m immediate`) and starts again, under the running
bot, through the fake Discord.

While it is down, a move is refused with the truth ("could not save that move") and shown to
nobody; `/rummy stats` answers privately. Once it is back, the same bot (no restart) stores
moves again within 30 s, memory equals the database, and the match plays to its end with its
result stored. The server is a private cluster (`tests.postgres.Cluster`), so stopping it
disturbs no other test; in CI (PAPLU_REQUIRE_POSTGRES=1) this test may not skip.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from tests.e2e.harness import (
    TableDriver,
    answered,
    enabled,
    eventually,
    game_env,
    results_deal,
)
from tests.fakediscord.driver import DEADLINE
from tests.postgres import Cluster

TWO = ["alice", "bob"]
RECOVERY_SECONDS = DEADLINE  # a deadline for a hung recovery, not a measure of its speed


async def test_the_bot_rides_out_a_postgres_restart(tmp_path: Path, cluster: Cluster) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0, database_url=cluster.url) as env:
        fake, storage = env.fake, env.bot.storage
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await driver.play(stop_after=2)
        # What players see of the last move (its ping) follows its commit in the background.
        await env.bot.tables.effects.settled()
        await fake.settle(quiet=0.3)
        table = env.table()
        turn = table.current_turn()
        name = fake.user(int(table.match.players[turn].id[1:])).name
        view = await driver.view_of(name)
        assert enabled(view, "Draw from stock")
        version, before = table.version, table.to_json()

        await asyncio.to_thread(cluster.stop)
        draw = await fake.click(name, fake.message(view.id), label="Draw from stock")
        await draw.wait()
        await fake.wait_for(
            lambda: "Could not save" in fake.render(view.id) or "Could not save" in draw.text,
            message=lambda: f"{draw.text!r} {fake.render(view.id)}",
        )
        shown = fake.render(view.id)
        assert "you drew" not in shown.lower()
        assert table.version == version and table.to_json() == before
        stats = await fake.slash("bob", "general", "rummy stats")
        await stats.wait()
        assert stats.ephemeral, "an error of a public command was posted to the channel"

        await asyncio.to_thread(cluster.start)
        back = time.monotonic()
        while True:  # the player tries again, as a player would
            again = await fake.click(name, fake.message(view.id), label="Draw from stock")
            await answered(fake, again)
            if table.version > version:
                break
            assert time.monotonic() - back < RECOVERY_SECONDS, fake.render(view.id)
            await asyncio.sleep(1.0)
        assert table.version == version + 1
        record = await storage.tables.load_table(table.id)
        assert record is not None and record.version == table.version
        assert json.loads(record.state_json)["match"] == table.match.to_dict()

        final = await driver.play()
        assert final is not None and results_deal(final) == 1
        await eventually(lambda: storage.boards.recent_deals(fake.guild_id, fake.user("alice").id))
        assert len(await storage.boards.recent_deals(fake.guild_id, fake.user("alice").id)) == 1
        assert await storage.outbox.pending_announcements() == []
