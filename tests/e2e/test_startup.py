"""Start-up: commands are synced globally only when the tree changed; a dev guild always."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.discord_ui.client import PapluBot
from tests.e2e.harness import TOKEN, settings
from tests.fakediscord import FakeDiscord


async def test_global_sync_only_when_the_tree_changed(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        async with fake.running(PapluBot(settings(db))):
            await fake.wait_for_commands("rummy")
        assert fake.server.command_syncs == 1
        async with fake.running(PapluBot(settings(db))):
            result = await fake.slash("alice", "general", "rummy rules")
            assert result.ephemeral
        assert fake.server.command_syncs == 1, "an unchanged tree must not be synced again"
        (tmp_path / ".command-sync").write_text("stale")
        async with fake.running(PapluBot(settings(db))):
            await fake.settle()
        assert fake.server.command_syncs == 2
        assert await fake.wait_idle() == []


async def test_dev_guild_is_synced_on_every_start(tmp_path: Path) -> None:
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        for _ in range(2):
            bot = PapluBot(settings(tmp_path / "bot.sqlite3", dev_guild_id=fake.guild_id))
            async with fake.running(bot):
                await fake.wait_for_commands("rummy")
        assert fake.server.command_syncs == 2
        assert not fake.server.global_commands
        assert [c["name"] for c in fake.server.guild_commands[fake.guild_id]] == ["rummy"]
        assert await fake.wait_idle() == []


async def test_a_marker_of_another_application_does_not_stop_the_sync(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        async with fake.running(PapluBot(settings(db))):
            await fake.wait_for_commands("rummy")
        marker = tmp_path / ".command-sync"
        app_id, digest = marker.read_text().strip().split(":")
        # The same folder, the same command tree, but written by another application.
        marker.write_text(f"{int(app_id) + 1}:{digest}")
        async with fake.running(PapluBot(settings(db))):
            await fake.settle()
        assert fake.server.command_syncs == 2
        assert await fake.wait_idle() == []


async def test_a_fixed_deck_seed_is_announced_loudly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        with caplog.at_level(logging.WARNING, logger="bot.discord_ui.client"):
            async with fake.running(PapluBot(settings(tmp_path / "a.sqlite3", seed=123))):
                await fake.wait_for_commands("rummy")
        assert any("DECK_SEED is set" in r.getMessage() for r in caplog.records)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="bot.discord_ui.client"):
            async with fake.running(PapluBot(settings(tmp_path / "b.sqlite3", seed=None))):
                await fake.settle()
        assert not any("DECK_SEED" in r.getMessage() for r in caplog.records)
        assert await fake.wait_idle() == []


async def test_the_bot_asks_only_for_guild_events(tmp_path: Path) -> None:
    """Everything the bot acts on comes as an interaction: it does not ask Discord for an event
    per message posted anywhere (it would parse and cache every one), and still plays."""
    from tests.fakediscord.server import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES

    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        async with fake.running(PapluBot(settings(db))) as bot:
            await fake.wait_for_commands("rummy")
            (intents,) = fake.server.identified_intents
            assert not intents & (INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES)
            result = await fake.slash("alice", "general", "rummy new", profile="points")
            assert not result.ephemeral and "alice" in result.text
            assert len(bot.cached_messages) == 0
        assert await fake.wait_idle() == []
