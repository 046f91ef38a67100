"""A deal's replay page (and a match's) is one click away, privately, for those who may see
every hand: the results' "Replay" and "Match replay" buttons, and `/rummy history`'s menu,
which sends the page beside the hand-history file (issue 43)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.replay import deal_page, match_page
from tests.e2e.harness import (
    TableDriver,
    forge_interaction,
    game_env,
    results_deal,
    send_forged,
)

TWO = ["alice", "bob"]


async def test_replay_pages_go_privately_to_the_players(tmp_path: Path) -> None:
    async with game_env(tmp_path, [*TWO, "carol"], 4) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None and results_deal(final) == 1
        table = env.last_table()
        deal_id = await env.bot.storage.boards.deal_id(fake.guild_id, table.id, 1)
        assert deal_id is not None
        stored = await env.bot.storage.boards.hand_history(fake.guild_id, deal_id)
        assert stored is not None
        history = json.loads(stored)

        # A player: the deal's page, made by the engine from the stored history, privately.
        got = await fake.click("bob", final, label="Replay")
        await got.wait()
        sent = [m for m in got.messages if m.attachments]
        assert len(sent) == 1 and sent[0].ephemeral and got.ephemeral
        (name,) = sent[0].attachment_names
        assert name == f"replay-{table.id}-deal1.html"
        page = sent[0].attachment_data[name]
        assert page == deal_page(history, "en")
        assert len(page) <= 250_000
        assert "open the file in any browser" in sent[0].text()

        # The match's page: every deal of it (one here), for a player too.
        whole = await fake.click("alice", final, label="Match replay")
        await whole.wait()
        (match_msg,) = [m for m in whole.messages if m.attachments]
        assert match_msg.ephemeral
        assert match_msg.attachment_names == [f"replay-{table.id}.html"]
        assert match_msg.attachment_data[f"replay-{table.id}.html"] == match_page([history], "en")

        # A bystander is told privately that it is for the deal's players; nothing is sent.
        for label in ("Replay", "Match replay"):
            nosy = await fake.click("carol", final, label=label)
            await nosy.wait()
            assert nosy.ephemeral and "Only the players of a deal" in nosy.text
            assert not any(m.attachments for m in nosy.messages)

        # A tampered deal number changes nothing and says so, privately.
        button = next(c["custom_id"] for c in final.iter_components() if c.get("label") == "Replay")
        forged_id = button.rsplit(":", 1)[0] + ":7"
        forged = await send_forged(fake, forge_interaction(fake, "alice", final, forged_id))
        await forged.wait()
        assert forged.ephemeral and "no longer available" in forged.text
        assert not any(m.attachments for m in forged.messages)

        # /rummy history: the pick sends the page beside the hand-history file.
        listed = await fake.slash("alice", "general", "rummy history")
        assert listed.message is not None
        menu = next(c for c in listed.message.iter_components() if c.get("type") == 3)
        picked = await fake.select("alice", listed.message, [menu["options"][0]["value"]])
        await picked.wait()
        (files,) = [m for m in picked.messages if m.attachments]
        assert files.ephemeral
        assert files.attachment_names == [
            f"hand-history-{table.id}-deal1.json",
            f"replay-{table.id}-deal1.html",
        ]
        assert files.attachment_data[f"replay-{table.id}-deal1.html"] == deal_page(history, "en")
        assert await fake.wait_idle() == []
