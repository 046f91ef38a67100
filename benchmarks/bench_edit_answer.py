"""What parsing Discord's answer to an edit costs the bot's loop, and what `edits` leaves of it.

    python benchmarks/bench_edit_answer.py [--repeat 7] [--number 2000]

The answers are real: a small discord.py client edits a message through the fake (rate limits
off) with the bot's own kinds of edit (`bot.discord_ui.edits.edit_original`), and keeps
Discord's JSON answers. Then, on those answers, in this process:

* `parsed`: what discord.py's `edit_original_response` / `PartialMessage.edit` did with the
  answer, an `InteractionMessage` or a `Message` (and what the bot then read of it: the id,
  and the picture's attachment when the edit shows one);
* `unparsed`: what the bot does now (`edits.Edited`: the id, and that attachment made into
  discord.py's `Attachment` alone).

Each figure is the best of `--repeat` runs of `--number` calls (µs of this process's CPU a
call, `time.process_time`: the time it waited for a core while the machine was busy is not
counted). The answers'
kinds: a table edit without a picture (the table's buttons), the same with its picture, and
a hand's edit with its five rows of controls and its picture.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import sys
import time
import timeit
from pathlib import Path
from typing import Any

import discord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord_ui import edits
from bot.discord_ui.card_images import attachment_named
from bot.discord_ui.screens.controls import Rows, button, menu, option
from bot.discord_ui.screens.table import table_view
from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import RateLimits

CLICK = "bench:click"


def _picture() -> bytes:
    """A real hand picture (the bot's own renderer), so the answer names a real file."""
    from bot.images import render_hand, samples
    from bot.images.layout import evaluate_view
    from bot.words.pictures import captions

    drawn = samples.hand_states()["drawn"]
    return render_hand(drawn, evaluation=evaluate_view(drawn), words=captions("en")).data


def _embed(title: str, fields: int) -> discord.Embed:
    embed = discord.Embed(title=title, colour=0x1F6F43)
    embed.description = (
        "Pure sequence: 5♥ 6♥ 7♥ · Sequence: 9♠ 10♠ J♠ · Set: Q♣ Q♦ Q♥\n"
        "Loose: 2♣ 8♦ K♠ · Deadwood 20 · Open card 4♥ · Stock 61"
    )
    for n in range(fields):
        embed.add_field(name=f"Field {n}", value="Asha 13 · Bob 13 · Chitra 14 (to throw)")
    return embed


def _hand_view() -> Rows:
    """A hand view's shape: a card menu of 14 lines and four rows of buttons."""
    cards = menu(
        "rm:tab1:7:0:throw", "Throw a card", [option(f"card {i}", str(i)) for i in range(14)]
    )
    rows = [[cards]]
    for r in range(4):
        rows.append([button(f"rm:tab1:7:0:b{r}{k}", f"Button {k}") for k in range(5)])
    return Rows(rows)


class _Bot(discord.Client):
    def __init__(self) -> None:
        super().__init__(
            intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none()
        )
        self.clicks: asyncio.Queue[discord.Interaction] = asyncio.Queue()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        self.clicks.put_nowait(interaction)


async def answers() -> tuple[discord.Interaction, dict[str, tuple[dict[str, Any], str | None]]]:
    """Discord's answers to the bot's kinds of edit (with the picture's file name, if any),
    and the interaction they came through."""
    png = _picture()
    fake = FakeDiscord(users=("asha",), channels=("bench",), rate_limits=RateLimits(enabled=False))
    await fake.start()
    try:
        client = _Bot()
        async with fake.running(client):
            channel = client.get_partial_messageable(fake.channel("bench").id)
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="Click", custom_id=CLICK))
            posted = await channel.send("bench", view=view)
            await fake.click("asha", posted.id, custom_id=CLICK)
            interaction = await asyncio.wait_for(client.clicks.get(), 10)
            out: dict[str, tuple[dict[str, Any], str | None]] = {}
            table = {"embed": _embed("Table", 2), "view": table_view("tab1", 7)}
            got = await edits.edit_original(interaction, **table)
            out["table"] = (dict(got.data), None)
            pic = discord.File(io.BytesIO(png), "table.png")
            got = await edits.edit_original(interaction, **table, attachments=[pic])
            out["table+picture"] = (dict(got.data), "table.png")
            pic = discord.File(io.BytesIO(png), "hand.png")
            hand = {"content": "note", "embed": _embed("Your hand", 3), "view": _hand_view()}
            got = await edits.edit_original(interaction, **hand, attachments=[pic])
            out["hand+picture"] = (dict(got.data), "hand.png")
            return interaction, out
    finally:
        await fake.stop()


def measure(repeat: int, number: int) -> None:
    interaction, found = asyncio.run(answers())
    from discord.interactions import InteractionMessage, _InteractionMessageState

    state = interaction._state
    channel = interaction.channel
    print(f"load average before: {os.getloadavg()[0]:.2f}; best of {repeat} x {number} calls")
    print(f"{'answer':<15} {'bytes':>6} {'parsed µs':>10} {'unparsed µs':>12} {'saved µs':>9}")
    for kind, (data, filename) in found.items():

        def parsed(data: dict[str, Any] = data, filename: str | None = filename) -> None:
            # What `edit_original_response` builds, then what the bot reads of it.
            message = InteractionMessage(
                state=_InteractionMessageState(interaction, state),  # type: ignore[arg-type]
                channel=channel,  # type: ignore[arg-type]
                data=data,  # type: ignore[arg-type]
            )
            _ = message.id
            if filename is not None:
                attachment_named(message, filename)

        def unparsed(data: dict[str, Any] = data, filename: str | None = filename) -> None:
            answer = edits.Edited(data, state)
            _ = answer.id
            if filename is not None:
                attachment_named(answer, filename)

        size = len(discord.utils._to_json(data))
        best = {}
        for name, fn in (("parsed", parsed), ("unparsed", unparsed)):
            runs = timeit.repeat(fn, timer=time.process_time, repeat=repeat, number=number)
            best[name] = min(runs) / number * 1e6
        saved = best["parsed"] - best["unparsed"]
        parsed_us, unparsed_us = best["parsed"], best["unparsed"]
        print(f"{kind:<15} {size:>6} {parsed_us:>10.1f} {unparsed_us:>12.1f} {saved:>9.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    measure(args.repeat, args.number)


if __name__ == "__main__":
    main()
