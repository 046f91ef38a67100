"""A deal's hand history is one click away on its results, for its players only.

The results used to carry the hand-history file for the whole channel. It shows every hand,
dropped ones too, while `/rummy history` gives it to the deal's players and managers only;
so the results now carry a "Hand history" button that sends the file privately, under the
same rule."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.harness import (
    TableDriver,
    forge_interaction,
    game_env,
    results_deal,
    send_forged,
)

TWO = ["alice", "bob"]


async def test_the_results_give_the_hand_history_privately_to_the_deals_players(
    tmp_path: Path,
) -> None:
    async with game_env(tmp_path, [*TWO, "carol"], 4) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None and results_deal(final) == 1
        assert not any(n.endswith(".json") for n in final.attachment_names)  # not for all

        got = await fake.click("bob", final, label="Hand history")
        await got.wait()
        sent = [m for m in got.messages if m.attachments]
        assert len(sent) == 1 and sent[0].ephemeral and got.ephemeral
        (name,) = sent[0].attachment_names
        assert name.endswith("-deal1.json")
        history = json.loads(sent[0].attachment_data[name])
        table = env.last_table()
        stored = await env.bot.storage.boards.deal_id(fake.guild_id, table.id, 1)
        assert stored is not None
        text = await env.bot.storage.boards.hand_history(fake.guild_id, stored)
        assert text is not None and history == json.loads(text)

        # A bystander is told privately that it is for the deal's players; nothing is sent.
        nosy = await fake.click("carol", final, label="Hand history")
        await nosy.wait()
        assert nosy.ephemeral and "Only the players of a deal" in nosy.text
        assert not any(m.attachments for m in nosy.messages)

        # A tampered deal number is refused the same way, privately.
        button = next(
            c["custom_id"] for c in final.iter_components() if c.get("label") == "Hand history"
        )
        forged_id = button.rsplit(":", 1)[0] + ":7"
        assert forged_id != button
        forged = await send_forged(fake, forge_interaction(fake, "alice", final, forged_id))
        await forged.wait()
        assert forged.ephemeral and "no longer available" in forged.text
        assert not any(m.attachments for m in forged.messages)
        await env.finish()
