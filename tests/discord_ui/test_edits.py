"""The unparsed edits (`bot.discord_ui.edits`) send what discord.py's own methods send.

A small discord.py client runs against the fake. Each edit is made twice on the same message,
once through discord.py's method (`edit_original_response`, `followup.edit_message`,
`PartialMessage.edit`) and once through `edits`, with the same arguments: the fake records
both requests as they arrived (method, path and query, JSON or `payload_json`, the files), and
they must be equal. What the bot reads of the answer (the id, the attachment kept) must be
what discord.py's parsed message says. Errors too: an unknown message is the same `NotFound`,
and a 429 is waited out and the edit sent again by discord.py, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import discord
import pytest
from PIL import Image

from bot.discord_ui import edits
from bot.discord_ui.card_images import attachment_named
from bot.discord_ui.screens.controls import Rows, button
from bot.discord_ui.screens.table import table_view
from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import RouteLimit

CLICK = "edits:click"
CHANNEL_EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
WEBHOOK_EDIT = ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}")


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("P", (40, 20), 3).save(out, "PNG")
    return out.getvalue()


PNG = _png()


class EditBot(discord.Client):
    """Acknowledges every click as a deferred update (the message clicked becomes the
    interaction's original response, as a click on the table's message does) and hands the
    interaction to the test."""

    def __init__(self) -> None:
        # As the bot's client (`PapluBot`): an edit with content says so in its body.
        super().__init__(
            intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none()
        )
        self.clicks: asyncio.Queue[discord.Interaction] = asyncio.Queue()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        self.clicks.put_nowait(interaction)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=["asha"], channels=["tables"]) as server:
        yield server


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[EditBot]:
    client = EditBot()
    async with fake.running(client):
        yield client
    fake.assert_no_violations()


def channel_of(fake: FakeDiscord, bot: EditBot) -> discord.PartialMessageable:
    """The channel as the bot reaches its table's home (`Placement.channel`)."""
    return bot.get_partial_messageable(fake.channel("tables").id, guild_id=fake.guild_id)


async def clicked(fake: FakeDiscord, bot: EditBot) -> tuple[discord.Interaction, int]:
    """A message of the bot with one button, clicked: the interaction and the message."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Click", custom_id=CLICK))
    posted = await channel_of(fake, bot).send("table", view=view)
    await fake.click("asha", posted.id, custom_id=CLICK)
    interaction = await asyncio.wait_for(bot.clicks.get(), 10)
    return interaction, posted.id


@contextlib.contextmanager
def requests(fake: FakeDiscord) -> Iterator[list[tuple[Any, ...]]]:
    """Every request body the fake reads meanwhile, as it arrived: (method, path with its
    query, the JSON or `payload_json`, the files as (field index, name, type, bytes))."""
    server = fake.server
    read_body = server._read_body
    seen: list[tuple[Any, ...]] = []

    async def recording(request: Any) -> Any:
        payload, files, body = await read_body(request)
        uploaded = [(f.index, f.filename, f.content_type, f.data) for f in files]
        seen.append((request.method, request.path_qs, payload, uploaded))
        return payload, files, body

    server._read_body = recording  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        server._read_body = read_body  # type: ignore[method-assign]


Edit = Callable[..., Awaitable[Any]]


async def same_request(fake: FakeDiscord, old: Edit, new: Edit, **kwargs: Any) -> tuple[Any, Any]:
    """Send one edit through discord.py's method (`old`) and through `edits` (`new`), each
    with its own copy of `kwargs` (a file is read once); the two requests must be equal.
    Returns both answers."""

    def fresh() -> dict[str, Any]:
        out = dict(kwargs)
        if "attachments" in out:
            out["attachments"] = [
                discord.File(io.BytesIO(PNG), a) if isinstance(a, str) else a
                for a in out["attachments"]
            ]
        return out

    with requests(fake) as seen:
        before = await old(**fresh())
        after = await new(**fresh())
    assert len(seen) == 2, seen
    assert seen[0] == seen[1]
    assert isinstance(after, edits.Edited)
    assert after.id == before.id
    return before, after


def hand_kwargs(n: int) -> dict[str, Any]:
    embed = discord.Embed(title=f"Your hand · turn {n}", description="5♥ 6♥ 7♥ · Q♣ Q♦ Q♥")
    embed.set_image(url="attachment://hand.png")
    view = Rows([[button(f"edits:draw:{n}", "Draw"), button("edits:sort", "Sort")]])
    return {"content": f"note {n}", "embed": embed, "view": view}


def table_kwargs(n: int) -> dict[str, Any]:
    embed = discord.Embed(title="Table", description=f"turn {n}")
    return {"embed": embed, "view": table_view("tab1", n)}


async def test_an_edit_of_the_original_response_is_the_same_request(
    fake: FakeDiscord, bot: EditBot
) -> None:
    interaction, message_id = await clicked(fake, bot)
    old = interaction.edit_original_response

    def new(**kw: Any) -> Awaitable[edits.Edited]:
        return edits.edit_original(interaction, **kw)

    # The table's edit without a picture, then with one uploaded.
    _, answer = await same_request(fake, old, new, **table_kwargs(1))
    assert answer.id == message_id and answer.attachments == []
    await same_request(fake, old, new, **table_kwargs(2), attachments=["table.png"])
    # A hand's: uploaded, then kept by naming the attachment the answer reported.
    before, after = await same_request(fake, old, new, **hand_kwargs(3), attachments=["hand.png"])
    kept = attachment_named(after, "hand.png")
    assert kept is not None
    before, after = await same_request(fake, old, new, **hand_kwargs(4), attachments=[kept])
    parsed, unparsed = attachment_named(before, "hand.png"), attachment_named(after, "hand.png")
    assert parsed is not None and unparsed is not None
    assert unparsed.to_dict() == parsed.to_dict() == kept.to_dict()
    # Text only: everything else taken off.
    await same_request(fake, old, new, content="over", embed=None, view=None, attachments=[])
    assert fake.message(message_id).content == "over"


async def test_an_edit_of_a_follow_up_is_the_same_request(fake: FakeDiscord, bot: EditBot) -> None:
    interaction, _ = await clicked(fake, bot)
    hand = await interaction.followup.send(
        ephemeral=True, wait=True, file=discord.File(io.BytesIO(PNG), "hand.png"), **hand_kwargs(0)
    )

    def old(**kw: Any) -> Awaitable[discord.WebhookMessage]:
        return interaction.followup.edit_message(hand.id, **kw)

    def new(**kw: Any) -> Awaitable[edits.Edited]:
        return edits.edit_followup(interaction, hand.id, **kw)

    kept = attachment_named(hand, "hand.png")
    assert kept is not None
    await same_request(fake, old, new, **hand_kwargs(1), attachments=[kept])
    _, answer = await same_request(fake, old, new, **hand_kwargs(2), attachments=["hand.png"])
    assert attachment_named(answer, "hand.png") is not None
    await same_request(fake, old, new, content="replaced", embed=None, view=None, attachments=[])


async def test_an_edit_through_the_channel_is_the_same_request(
    fake: FakeDiscord, bot: EditBot
) -> None:
    channel = channel_of(fake, bot)
    posted = await channel.send("table")

    def old(**kw: Any) -> Awaitable[discord.Message]:
        return channel.get_partial_message(posted.id).edit(**kw)

    def new(**kw: Any) -> Awaitable[edits.Edited]:
        return edits.edit_message(channel, posted.id, **kw)

    await same_request(fake, old, new, **table_kwargs(1))
    _, answer = await same_request(fake, old, new, **table_kwargs(2), attachments=["table.png"])
    kept = attachment_named(answer, "table.png")
    assert kept is not None
    await same_request(fake, old, new, **table_kwargs(3), attachments=[kept])
    await same_request(fake, old, new, content="closed", view=discord.ui.View(timeout=None))


def _error(exc: discord.HTTPException) -> tuple[Any, ...]:
    return type(exc), exc.status, exc.code, exc.text


async def test_an_unknown_message_is_the_same_not_found(fake: FakeDiscord, bot: EditBot) -> None:
    channel = channel_of(fake, bot)
    interaction, _ = await clicked(fake, bot)
    gone = 1234567890123
    raised = []
    for edit in (
        channel.get_partial_message(gone).edit(**table_kwargs(1)),
        edits.edit_message(channel, gone, **table_kwargs(1)),
        interaction.followup.edit_message(gone, **hand_kwargs(1)),
        edits.edit_followup(interaction, gone, **hand_kwargs(1)),
    ):
        with pytest.raises(discord.NotFound) as caught:
            await edit
        raised.append(_error(caught.value))
    assert raised[0] == raised[1] and raised[2] == raised[3]
    assert raised[0][1:3] == (404, 10008)


def exhaust(fake: FakeDiscord, route: tuple[str, str], params: dict[str, str], token: Any) -> None:
    """Use up a bucket behind discord.py's back, so its next request there is refused."""
    limiter = fake.server.ratelimiter
    while limiter.admit(*route, params, token, fake.server.now())[0] is None:
        pass


def statuses(fake: FakeDiscord, path: str, since: int) -> list[int]:
    return [c.status for c in fake.server.calls[since:] if c.path == path]


async def test_a_rate_limited_edit_is_waited_out_and_sent_again(
    fake: FakeDiscord, bot: EditBot
) -> None:
    fake.server.rate_limits.routes[CHANNEL_EDIT] = RouteLimit(2, 0.3, "message-edit")
    fake.server.rate_limits.routes[WEBHOOK_EDIT] = RouteLimit(2, 0.3, "interaction-webhook")
    channel = channel_of(fake, bot)
    posted = await channel.send("table")
    interaction, _ = await clicked(fake, bot)
    channel_path = f"/channels/{channel.id}/messages/{posted.id}"
    hook = {"app_id": str(interaction.application_id), "token": interaction.token}
    original = {**hook, "message_id": "@original"}
    hook_path = f"/webhooks/{interaction.application_id}/{interaction.token}/messages/@original"
    channel_params = {"channel_id": str(channel.id), "message_id": str(posted.id)}
    for n, (edit, route, params, token, path) in enumerate(
        [
            (
                lambda **kw: channel.get_partial_message(posted.id).edit(**kw),
                CHANNEL_EDIT,
                channel_params,
                fake.bot_token,
                channel_path,
            ),
            (
                lambda **kw: edits.edit_message(channel, posted.id, **kw),
                CHANNEL_EDIT,
                channel_params,
                fake.bot_token,
                channel_path,
            ),
            (interaction.edit_original_response, WEBHOOK_EDIT, original, None, hook_path),
            (
                lambda **kw: edits.edit_original(interaction, **kw),
                WEBHOOK_EDIT,
                original,
                None,
                hook_path,
            ),
        ]
    ):
        await asyncio.sleep(0.35)  # a fresh window, whatever discord.py learnt of the last
        since = len(fake.server.calls)
        exhaust(fake, route, params, token)
        await edit(content=f"edit {n}")
        assert statuses(fake, path, since) == [429, 200], n
    assert fake.message(posted.id).content == "edit 1"
