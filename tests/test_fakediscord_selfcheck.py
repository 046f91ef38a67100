"""Self-check of the fake Discord server and driver, using a tiny real discord.py bot.

The bot below deliberately contains both correct handlers and classic seam bugs (double
acknowledgement, late acknowledgement, oversized payloads) so we can prove the fake notices them.
"""

from __future__ import annotations

import asyncio
import io
import logging
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord, InteractionRefused


class PressView(discord.ui.View):
    """A public message with one live button and one disabled button."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Press", custom_id="selfcheck:press")
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        button.disabled = True
        button.label = "Pressed"
        await interaction.response.edit_message(
            content=f"pressed by {interaction.user.name}", view=self
        )

    @discord.ui.button(label="Off", custom_id="selfcheck:off", disabled=True)
    async def off(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("unreachable")


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="selfcheck:pick",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=s, value=s.lower()) for s in ("Hearts", "Spades")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class SelfCheckBot(discord.Client):
    """Minimal bot: one ``/check`` group with well-behaved and buggy subcommands."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.errors: list[Exception] = []
        self.last_interaction: discord.Interaction | None = None
        self.late_delay = 0.0
        self.seen_messages: list[str] = []
        group = app_commands.Group(name="check", description="Self-check commands")

        @group.command(name="ephemeral", description="Reply only to the caller")
        async def ephemeral(interaction: discord.Interaction) -> None:
            self.last_interaction = interaction
            await interaction.response.send_message("secret", ephemeral=True)

        @group.command(name="defer", description="Defer then follow up")
        async def defer(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)
            await interaction.followup.send("done thinking")

        @group.command(name="button", description="Post a message with buttons")
        async def button(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("press it", view=PressView())
            original = await interaction.original_response()  # GET .../messages/@original
            assert original.content == "press it"

        @group.command(name="double", description="Acknowledge twice (bug)")
        async def double(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            # discord.py guards against this locally; real bugs bypass the guard with a second
            # Interaction object for the same id. Reset the guard to reach the server.
            interaction.response._response_type = None
            try:
                await interaction.response.send_message("second")
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @group.command(name="late", description="Respond after the deadline (bug)")
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.late_delay)
            try:
                await interaction.response.send_message("too late")
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @group.command(name="rows", description="Six action rows (bug)")
        async def rows(interaction: discord.Interaction) -> None:
            # discord.py caps views at 5 rows locally, so send a raw payload like a hand-built bug.
            rows_payload = [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "x", "custom_id": f"{i}"}],
                }
                for i in range(6)
            ]
            await interaction.response.defer()
            try:
                route = discord.http.Route(
                    "POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id
                )
                await interaction.client.http.request(
                    route, json={"content": "rows", "components": rows_payload}
                )
            except discord.HTTPException as exc:
                self.errors.append(exc)
            await interaction.followup.send("rows attempted")

        @group.command(name="file", description="Ephemeral followup with a file")
        async def file(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            upload = discord.File(io.BytesIO(b"A-hearts K-spades"), filename="hand.txt")
            await interaction.followup.send("your hand", file=upload, ephemeral=True)
            await interaction.followup.send("public note")

        @group.command(name="images", description="Images on every path: send, edit, keep")
        async def images(interaction: discord.Interaction) -> None:
            def png(name: str, data: bytes) -> discord.File:
                return discord.File(io.BytesIO(data), filename=name)

            def embed(name: str) -> discord.Embed:
                return discord.Embed(title=name).set_image(url=f"attachment://{name}")

            # ephemeral response carrying an image the embed shows
            await interaction.response.send_message(
                embed=embed("a.png"), file=png("a.png", b"AAA"), ephemeral=True
            )
            # replaced by an edit of the original response
            await interaction.edit_original_response(
                embed=embed("b.png"), attachments=[png("b.png", b"BBB")]
            )
            # an edit that leaves the attachment alone keeps it (no upload), but leaves Discord
            # to guess (counted); naming it, from the answer, keeps it explicitly
            kept = await interaction.edit_original_response(content="kept", embed=embed("b.png"))
            await interaction.edit_original_response(
                content="kept", embed=embed("b.png"), attachments=kept.attachments
            )
            # a followup with a file, and a public channel message edited with attachments
            await interaction.followup.send(
                embed=embed("c.png"), file=png("c.png", b"CCC"), ephemeral=True
            )
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            public = await channel.send(embed=embed("t.png"), file=png("t.png", b"T1"))
            await public.edit(embed=embed("t.png"), attachments=[png("t.png", b"T2")])
            await public.edit(content="text only", embed=None, attachments=[])
            # bug: naming an attachment of another message (refused: 400, nothing changes)
            try:
                await public.edit(embed=embed("b.png"), attachments=kept.attachments)
            except discord.HTTPException as exc:
                self.errors.append(exc)
            # bug: an embed showing an attachment the message does not have
            await interaction.followup.send(embed=embed("gone.png"), ephemeral=True)

        @group.command(name="long", description="A 2001 character message (bug)")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                self.errors.append(exc)
                await interaction.response.send_message("fallback", ephemeral=True)

        @group.command(name="new", description="Options with choices and ranges")
        @app_commands.describe(profile="Game profile", players="Seats", opponent="Who")
        async def new(
            interaction: discord.Interaction,
            profile: Literal["points", "pool", "deals"],
            players: app_commands.Range[int, 2, 6] = 2,
            opponent: discord.Member | None = None,
        ) -> None:
            who = opponent.name if opponent else "nobody"
            await interaction.response.send_message(
                f"new {profile} game, {players} players, vs {who}", ephemeral=True
            )

        @group.command(name="pick", description="Select menu")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=PickView())

        @group.command(name="modal", description="Open a modal")
        async def modal(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @group.command(name="suit", description="Autocomplete")
        async def suit(interaction: discord.Interaction, name: str) -> None:
            await interaction.response.send_message(name, ephemeral=True)

        @suit.autocomplete("name")
        async def suit_complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            suits = ["hearts", "spades", "clubs", "diamonds"]
            return [app_commands.Choice(name=s, value=s) for s in suits if s.startswith(current)]

        self.tree.add_command(group)

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(f"{message.author.name}: {message.content}")

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=["alice", "bob"], channels=["general"]) as server:
        yield server


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[SelfCheckBot]:
    client = SelfCheckBot(fake.guild_id)
    async with fake.running(client):
        await fake.wait_for_commands("check")
        yield client


async def test_ephemeral_visible_only_to_caller(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    result = await fake.slash("alice", "general", "check ephemeral")
    assert result.response_type == 4
    assert result.ephemeral and result.text == "secret"
    assert [m.content for m in fake.visible_messages("alice", "general")] == ["secret"]
    assert fake.visible_messages("bob", "general") == []
    assert fake.public_messages("general") == []
    assert fake.last_ephemeral("alice") is result.message
    fake.assert_no_violations()
    assert fake.server.unknown_routes == []


async def test_defer_then_followup(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    result = await fake.slash("bob", "general", "check defer")
    assert result.response_type == 5
    assert result.text == "done thinking" and not result.ephemeral
    assert result.message is not None and len(result.message.edits) == 1
    assert fake.last_public("general") is result.message
    fake.assert_no_violations()


async def test_ephemeral_file_followup_and_public_followup(
    fake: FakeDiscord, bot: SelfCheckBot
) -> None:
    result = await fake.slash("alice", "general", "check file")
    assert result.ephemeral and result.text == "your hand\n📎 hand.txt"
    assert result.message is not None
    assert result.message.attachment_data == {"hand.txt": b"A-hearts K-spades"}
    (note,) = await result.wait_followups(1)
    assert not note.ephemeral and note.content == "public note"
    assert fake.screen("bob", "general") == "public note"
    assert await fake.wait_idle() == []


async def test_attachments_on_responses_edits_and_followups(
    fake: FakeDiscord, bot: SelfCheckBot
) -> None:
    result = await fake.slash("alice", "general", "check images")
    await fake.wait_for(lambda: any(v.kind == "missing_attachment" for v in fake.violations))
    await fake.settle()
    alice = fake.user("alice").id
    original = fake.message(result.message.id)  # type: ignore[union-attr]
    assert original.ephemeral and original.content == "kept"
    assert original.attachment_names == ["b.png"]  # replaced, then kept by a plain edit
    assert original.attachment_data["b.png"] == b"BBB"
    assert original.embed_attachment_refs == ["b.png"]
    assert fake.server.implicit_keeps == [original.id]  # the explicit keep is not counted
    # every upload, where it landed and who could see it; the keeping edit uploaded nothing
    seen = [(u.filename, u.data, u.visible_to, u.edit) for u in fake.uploads]
    assert seen == [
        ("a.png", b"AAA", alice, False),
        ("b.png", b"BBB", alice, True),
        ("c.png", b"CCC", alice, False),
        ("t.png", b"T1", None, False),
        ("t.png", b"T2", None, True),
    ]
    public = fake.last_public("general")
    assert public is not None and public.attachment_names == [] and public.embeds == []
    assert [s["attachments"][0]["filename"] for s in public.edits] == ["t.png", "t.png"]
    assert [e.status for e in bot.errors] == [400]  # another message's attachment: refused
    # that, and the dangling attachment://, are the only violations
    assert [v.kind for v in fake.violations] == ["unknown_attachment", "missing_attachment"]
    assert "gone.png" in str(fake.violations[1])


def test_upload_limits() -> None:
    from tests.fakediscord import limits

    assert limits.validate_files([10] * 10) == []
    assert limits.validate_files([10] * 11) == ["files: 11 uploads (max 10)"]
    assert limits.validate_files([limits.MAX_UPLOAD_BYTES + 1]) == [
        f"files[0]: {limits.MAX_UPLOAD_BYTES + 1} bytes (max {limits.MAX_UPLOAD_BYTES})"
    ]


async def test_gateway_resume_and_message_events(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    await fake.say("bob", "general", "hello bot")
    await fake.wait_for(lambda: "bob: hello bot" in bot.seen_messages)
    await fake.server.disconnect_bot(code=4000)
    await fake.wait_for(lambda: fake.server.resume_count == 1 and fake.connected)
    assert fake.server.identify_count == 1
    result = await fake.slash("alice", "general", "check ephemeral")
    assert result.text == "secret"
    with pytest.raises(InteractionRefused, match="unknown command"):
        await fake.slash("bob", fake.dm_channel("bob"), "check ephemeral")  # guild-only command
    assert await fake.wait_idle() == []


async def test_button_click_edits_message_and_stale_clicks_refused(
    fake: FakeDiscord, bot: SelfCheckBot
) -> None:
    result = await fake.slash("alice", "general", "check button")
    msg = result.message
    assert msg is not None and "[Press]" in fake.render(msg)
    with pytest.raises(InteractionRefused, match="disabled"):
        await fake.click("bob", msg, label="Off")
    with pytest.raises(InteractionRefused, match="no button"):
        await fake.click("bob", msg, label="Nope")
    click = await fake.click("bob", msg, label="Press")
    assert click.response_type == 7
    assert fake.message(msg).content == "pressed by bob"
    with pytest.raises(InteractionRefused):
        await fake.click("alice", msg, label="Press")  # relabelled and disabled now
    with pytest.raises(InteractionRefused, match="disabled"):
        await fake.click("alice", msg, custom_id="selfcheck:press")
    fake.assert_no_violations()


async def test_select_modal_and_autocomplete(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    menu = await fake.slash("alice", "general", "check pick")
    assert menu.message is not None
    with pytest.raises(InteractionRefused, match="not an option"):
        await fake.select("alice", menu.message, ["clubs"], placeholder="Pick a suit")
    picked = await fake.select("bob", menu.message, ["spades"])
    assert picked.text == "picked spades" and picked.ephemeral

    opened = await fake.slash("alice", "general", "check modal")
    assert opened.response_type == 9 and opened.modal is not None
    submitted = await fake.submit_modal(opened, {"name": "Ravi"})
    assert submitted.text == "hello Ravi"

    assert [
        c["value"]
        for c in await fake.autocomplete("bob", "general", "check suit", "name", name="s")
    ] == ["spades"]
    fake.assert_no_violations()


async def test_slash_validation_refuses_bad_input(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    ok = await fake.slash(
        "alice", "general", "check new", profile="pool", players=3, opponent="bob"
    )
    assert ok.text == "new pool game, 3 players, vs bob"
    bad_calls: list[tuple[str, dict[str, Any]]] = [
        ("check new", {"profile": "blackjack"}),  # not a choice
        ("check new", {"profile": "pool", "players": 9}),  # above max_value
        ("check new", {"profile": "pool", "players": "3"}),  # wrong type
        ("check new", {}),  # missing required
        ("check new", {"profile": "pool", "colour": "red"}),  # unknown option
        ("check nope", {}),  # unknown subcommand
        ("check", {}),  # group needs a subcommand
        ("poker", {}),  # unknown command
        ("check new", {"profile": "pool", "opponent": "mallory"}),  # unknown user
    ]
    for command, options in bad_calls:
        with pytest.raises(InteractionRefused):
            await fake.slash("alice", "general", command, options=options)
    assert len(fake.server.interactions) == 1  # nothing invalid reached the bot
    fake.assert_no_violations()


async def test_double_ack_is_a_violation(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    await fake.slash("alice", "general", "check double")
    await fake.wait_for(lambda: bot.errors)
    assert isinstance(bot.errors[0], discord.HTTPException)
    assert bot.errors[0].code == 40060
    assert [v.kind for v in fake.violations] == ["double_ack"]


async def test_late_ack_is_a_violation(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    fake.server.ack_deadline = 0.2
    bot.late_delay = 0.4
    result = await fake.slash("alice", "general", "check late", wait=False)
    await fake.wait_for(lambda: bot.errors)
    assert isinstance(bot.errors[0], discord.NotFound)
    assert not result.acknowledged
    assert {v.kind for v in fake.violations} == {"no_ack", "late_ack"}


async def test_oversized_payloads_are_violations(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    long = await fake.slash("alice", "general", "check long")
    assert long.text == "fallback"
    rows = await fake.slash("alice", "general", "check rows")
    await rows.wait_followups(0)
    await fake.wait_for(lambda: len(bot.errors) == 2)
    kinds = [v.kind for v in fake.violations]
    # 2,001 characters break the API document's maxLength and the documented limit; six
    # rows only the limit (the document allows 40 components, for layouts).
    assert kinds == ["schema_violation", "invalid_payload", "invalid_payload"]
    assert "/data/content: 2001 characters" in str(fake.violations[0])
    assert "2001" in str(fake.violations[1]) and "6 action rows" in str(fake.violations[2])
    assert all(m.content != "rows" for m in fake.public_messages("general"))


async def test_expired_token_rejected(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    await fake.slash("alice", "general", "check ephemeral")
    interaction = bot.last_interaction
    assert interaction is not None
    await interaction.followup.send("still valid", ephemeral=True)
    fake.server.advance_time(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as info:
        await interaction.followup.send("too late", ephemeral=True)
    assert info.value.status == 401
    assert [v.kind for v in fake.violations] == ["expired_token"]
    assert [m.content for m in fake.visible_messages("alice", "general")] == [
        "secret",
        "still valid",
    ]


SUBPROCESS_BOT = textwrap.dedent(
    """
    import os

    import discord
    from discord import app_commands


    class Bot(discord.Client):
        def __init__(self) -> None:
            super().__init__(intents=discord.Intents.default())
            self.tree = app_commands.CommandTree(self)

            @self.tree.command(name="ping", description="Ping the bot")
            async def ping(interaction: discord.Interaction) -> None:
                await interaction.response.send_message(f"pong {os.getpid()}")

        async def setup_hook(self) -> None:
            await self.tree.sync()


    if __name__ == "__main__":
        Bot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
    """
)


async def test_subprocess_launch_kill_and_relaunch(fake: FakeDiscord, tmp_path: Path) -> None:
    (tmp_path / "selfcheck_bot.py").write_text(SUBPROCESS_BOT)
    first = await fake.launch("selfcheck_bot", pythonpath=[tmp_path])
    try:
        await fake.wait_for_commands("ping")
        reply = await fake.slash("alice", "general", "ping")
        assert reply.text == f"pong {first.pid}", first.log()
    finally:
        await first.kill()
    await fake.wait_for(lambda: not fake.connected)

    second = await fake.launch("selfcheck_bot", pythonpath=[tmp_path])
    try:
        assert fake.server.identify_count == 2
        reply = await fake.slash("bob", "general", "ping")
        assert reply.text == f"pong {second.pid}", second.log()
        in_dm = await fake.slash("bob", fake.dm_channel("bob"), "ping")  # global command
        assert fake.dm_messages("bob") == [in_dm.message] and fake.dm_messages("alice") == []
    finally:
        await second.kill()
    fake.assert_no_violations()
    assert fake.server.unknown_routes == []


async def test_mentions_follow_allowed_mentions_and_edits_notify_nobody(
    fake: FakeDiscord, bot: SelfCheckBot
) -> None:
    """Who a message mentions, as Discord decides it: the content's `<@id>` filtered by
    allowed_mentions; only a new message notifies, an edit never does."""
    alice, bob = fake.user("alice").id, fake.user("bob").id
    chan = bot.get_partial_messageable(fake.channel("general").id, guild_id=fake.guild_id)
    text = f"<@{alice}> and <@{bob}>"
    loud = await chan.send(text, allowed_mentions=discord.AllowedMentions(users=True))
    quiet = await chan.send(text, allowed_mentions=discord.AllowedMentions.none())
    only_bob = await chan.send(
        text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(bob)])
    )
    assert fake.message(loud.id).notified == [alice, bob]
    assert fake.message(quiet.id).notified == [] and fake.message(quiet.id).mentions == []
    assert fake.message(only_bob.id).notified == [bob]
    await quiet.edit(content=f"<@{bob}>", allowed_mentions=discord.AllowedMentions(users=True))
    assert fake.message(quiet.id).mentions == [bob]
    assert fake.message(quiet.id).notified == []  # added by an edit: nobody is notified
    fake.assert_no_violations()


# ---- deadlines are generous; a real failure ends a wait at once --------------------------------


async def test_a_bot_process_that_exits_ends_the_wait_at_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A launched bot that dies is not waited for until the deadline: the wait says why
    (FakeDiscordError naming the exit, not a TimeoutError after a minute and a half)."""
    from tests.fakediscord import FakeDiscordError

    (tmp_path / "selfcheck_bot.py").write_text(SUBPROCESS_BOT)
    proc = await fake.launch("selfcheck_bot", pythonpath=[tmp_path])
    await fake.wait_for_commands("ping")
    proc.process.kill()  # dies on its own, as far as the test knows (not proc.kill())
    with pytest.raises(FakeDiscordError, match="exited with -9"):
        await fake.wait_for(lambda: False, message="never")
    await proc.kill()  # reaped: stopped on purpose from now on
    await fake.wait_for(lambda: True)


async def test_a_bot_process_that_fails_to_start_ends_the_wait(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    from tests.fakediscord import FakeDiscordError

    (tmp_path / "broken_bot.py").write_text("raise SystemExit('no such setting')\n")
    with pytest.raises(FakeDiscordError, match="exited with 1"):
        await fake.launch("broken_bot", pythonpath=[tmp_path])


class FailingStartBot(SelfCheckBot):
    async def setup_hook(self) -> None:
        await super().setup_hook()
        logging.getLogger("selfcheck").error("the database is gone")


async def test_an_error_logged_while_an_in_process_bot_starts_ends_the_wait(
    fake: FakeDiscord,
) -> None:
    from tests.fakediscord import FakeDiscordError

    with pytest.raises(FakeDiscordError, match="logged an error while starting"):
        async with fake.running(FailingStartBot(fake.guild_id)):
            pass


async def test_a_bot_task_that_ends_ends_the_wait(fake: FakeDiscord) -> None:
    from tests.fakediscord import FakeDiscordError

    client = SelfCheckBot(fake.guild_id)
    async with fake.running(client):
        await fake.wait_for_commands("check")
        await client.close()  # the bot stops under the test (as a crash would end its task)
        with pytest.raises(FakeDiscordError, match="the bot's task ended"):
            await fake.wait_for(lambda: False, message="never")


async def test_a_nonce_with_enforce_nonce_posts_once(fake: FakeDiscord, bot: SelfCheckBot) -> None:
    """Discord's `enforce_nonce`: a create carrying a nonce this bot used in the channel within
    the last few minutes answers with that message and posts nothing (discord.py sends its
    nonce with enforce_nonce); another nonce, or the same one later, posts anew."""
    from tests.fakediscord.server import NONCE_WINDOW

    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("results", nonce=12345)
    again = await channel.send("results, retried", nonce=12345)
    assert again.id == first.id and again.content == "results"
    assert fake.server.nonce_hits == [first.id]
    other = await channel.send("something else", nonce=67890)
    assert other.id != first.id
    fake.server.advance_time(NONCE_WINDOW + 1)
    later = await channel.send("results, much later", nonce=12345)
    assert later.id not in (first.id, other.id)
    texts = [m.content for m in fake.public_messages("general")]
    assert texts.count("results") == 1 and "results, retried" not in texts
    with pytest.raises(discord.HTTPException):
        await channel.send("too long a nonce", nonce="x" * 26)
