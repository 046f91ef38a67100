"""A bot that does nothing but the REST calls a game action costs (run by `bench_rest_floor.py`).

No engine, no storage, no pictures drawn: on a click it makes exactly one kind of request the
real bot makes, through the same discord.py calls, with payloads of the real bot's size (an
embed, a hand view of five rows, a 25 KB PNG read once at start). What its process spends per
click is therefore discord.py's and aiohttp's own cost of that request, the floor under any
bot written on them. Run under the fake: `python -m tests.fakediscord.launch
benchmarks.rest_floor_bot`.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
from pathlib import Path

if os.environ.get("BENCH_NO_ORJSON") == "1":  # as the load probe does, for A/B runs
    sys.modules["orjson"] = None  # type: ignore[assignment]

import discord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord_ui import edits
from bot.discord_ui.card_images import attachment_named

MODES = ("ack", "hand", "table", "ping", "answer", "lean", "handlean")


def _picture() -> bytes:
    """A real hand picture (the bot's own renderer), so the upload has the real size."""
    from bot.images import render_hand, samples
    from bot.images.layout import evaluate_view
    from bot.words.pictures import captions

    drawn = samples.hand_states()["drawn"]
    return render_hand(drawn, evaluation=evaluate_view(drawn), words=captions("en")).data


def _embed(n: int) -> discord.Embed:
    """About the size of the bot's hand embed: a title, a few lines, three fields."""
    embed = discord.Embed(title=f"Your hand · turn {n}", colour=0x1F6F43)
    embed.description = (
        "Pure sequence: 5♥ 6♥ 7♥ · Sequence: 9♠ 10♠ J♠ · Set: Q♣ Q♦ Q♥\n"
        "Loose: 2♣ 8♦ K♠ · Deadwood 20 · Open card 4♥ · Stock 61"
    )
    embed.add_field(name="Seats", value="Asha 13 · Bob 13 · Chitra 14 (to throw)")
    embed.add_field(name="Last", value="Bob threw 8♣")
    embed.add_field(name="Timer", value="28 s")
    return embed


def _view(n: int) -> discord.ui.View:
    """A hand view's shape: a card menu of 14 options and four rows of buttons (the first
    ones the floor's own mode buttons, so the edited message can be clicked again)."""
    view = discord.ui.View(timeout=None)
    menu = discord.ui.Select(
        custom_id=f"floor:menu:{n}",
        options=[discord.SelectOption(label=f"card {i}", value=str(i)) for i in range(14)],
        row=0,
    )
    view.add_item(menu)
    for mode in MODES:
        view.add_item(discord.ui.Button(label=mode, custom_id=f"floor:{mode}"))
    for k in range(20 - len(MODES)):
        view.add_item(discord.ui.Button(label=f"b{k}", custom_id=f"floor:b:{k}"))
    return view


def _table_view() -> discord.ui.View:
    """A table message's shape: a few buttons (here the floor's mode buttons, in two rows;
    the bot's table has one or two)."""
    view = discord.ui.View(timeout=None)
    for mode in MODES:
        view.add_item(discord.ui.Button(label=mode, custom_id=f"floor:{mode}"))
    return view


class FloorBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.picture = _picture()
        self.count = 0

    async def on_ready(self) -> None:
        channel = next(
            c for g in self.guilds for c in g.text_channels if c.name == os.environ["FLOOR_CHANNEL"]
        )
        await channel.send("floor", embed=_embed(0), view=_view(0))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        custom_id = (interaction.data or {}).get("custom_id", "")
        mode = custom_id.removeprefix("floor:")
        self.count += 1
        n = self.count
        if mode == "answer":
            # One request: the answer is the edited message (UPDATE_MESSAGE, with a picture).
            await interaction.response.edit_message(
                embed=_embed(n),
                view=_view(n),
                attachments=[discord.File(io.BytesIO(self.picture), "hand.png")],
            )
            return
        await interaction.response.defer()
        if mode == "hand":
            await interaction.edit_original_response(
                embed=_embed(n),
                view=_view(n),
                attachments=[discord.File(io.BytesIO(self.picture), "hand.png")],
            )
        elif mode == "table":
            await interaction.edit_original_response(embed=_embed(n), view=_table_view())
        elif mode == "lean":
            # The table edit again, as the bot makes it: Discord's answer left unparsed.
            await edits.edit_original(interaction, embed=_embed(n), view=_table_view())
        elif mode == "handlean":
            # The hand edit, as the bot makes it: unparsed, only the picture's attachment read.
            answer = await edits.edit_original(
                interaction,
                embed=_embed(n),
                view=_view(n),
                attachments=[discord.File(io.BytesIO(self.picture), "hand.png")],
            )
            attachment_named(answer, "hand.png")
        elif mode == "ping":
            assert isinstance(interaction.channel, discord.TextChannel)
            ping = await interaction.channel.send(f"<@{interaction.user.id}>, your turn")
            await ping.delete()


async def _serve(token: str) -> None:
    async with FloorBot() as client:
        await client.start(token)


def main() -> None:
    """Run on the event loop the real bot would pick (`EVENT_LOOP`, `bot.loops`): the floor
    is the libraries' cost on the same loop."""
    from bot import loops

    name = loops.resolve(os.environ.get("EVENT_LOOP", "auto").strip().lower() or "auto")
    with asyncio.Runner(loop_factory=loops.factory(name)) as runner:
        runner.run(_serve(os.environ.get("DISCORD_TOKEN", "fake-bot-token")))


if __name__ == "__main__":
    main()
