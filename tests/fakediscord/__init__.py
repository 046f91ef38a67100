"""Fake Discord (REST + gateway on 127.0.0.1) and a driver for end-to-end bot tests.

Typical in-process use::

    async with FakeDiscord(users=["alice", "bob"], channels=["general"]) as fake:
        async with fake.running(bot):
            result = await fake.slash("alice", "general", "rummy new", profile="points")
            assert result.ephemeral
        fake.assert_no_violations()

See ``tests/test_fakediscord_selfcheck.py`` for worked examples (including subprocess bots).
"""

from .driver import (
    BotProcess,
    FakeDiscord,
    FakeDiscordError,
    InteractionRefused,
    InteractionResult,
    NotConnected,
)
from .models import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    StoredMessage,
    Violation,
    make_channel,
    make_user,
)
from .server import FakeDiscordServer, patch_discord, unpatch_discord

__all__ = [
    "FLAG_EPHEMERAL",
    "FLAG_LOADING",
    "BotProcess",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeDiscordServer",
    "FakeUser",
    "InteractionRecord",
    "InteractionRefused",
    "InteractionResult",
    "NotConnected",
    "StoredMessage",
    "Violation",
    "make_channel",
    "make_user",
    "patch_discord",
    "unpatch_discord",
]
