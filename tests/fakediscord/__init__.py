"""Fake Discord (REST + gateway on 127.0.0.1) and a driver for end-to-end bot tests.

In-process (same event loop; ``start()`` patches discord.py's ``Route.BASE`` and
``DiscordWebSocket.DEFAULT_GATEWAY`` and ``stop()`` restores them)::

    async with FakeDiscord(users=["alice", "bob"], channels=["general"]) as fake:
        async with fake.running(bot):                      # bot.start(fake.bot_token)
            await fake.wait_for_commands("rummy")
            result = await fake.slash("alice", "general", "rummy new", profile="points")
            assert result.ephemeral
            await fake.click("bob", fake.last_public("general"), label="Join")
        assert await fake.wait_idle() == []                # no Discord rule violations

As a subprocess (``python -m tests.fakediscord.launch <module>`` with ``FAKE_DISCORD_URL``,
``DISCORD_TOKEN`` etc. in the environment)::

    proc = await fake.launch("bot")        # waits for IDENTIFY; proc.log() has its output
    await proc.kill()                      # SIGKILL; a later launch() identifies afresh

Rule breaches are recorded in ``fake.violations`` (``Violation.kind`` / ``str(v)``); every file
the bot uploads, in ``fake.uploads`` (``Upload``: which message, who could see it, the bytes).
See ``tests/test_fakediscord_selfcheck.py`` for worked examples.

Every REST request is checked against Discord's own API document (``openapi.py``, a copy of
Discord's OpenAPI description in ``spec/``) and the documented limits it lacks
(``limits.py``); ``tests/test_fakediscord_spec.py`` plants each kind of breach.
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
    PERM_CREATE_PUBLIC_THREADS,
    PERM_MEMBER_DEFAULT,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_THREADS,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    StoredMessage,
    Upload,
    Violation,
    make_channel,
    make_user,
)
from .ratelimits import Limited, RateLimiter, RateLimits, RouteLimit
from .server import CLIENT_HEADER, FakeDiscordServer, RestCall, patch_discord, unpatch_discord

__all__ = [
    "CLIENT_HEADER",
    "FLAG_EPHEMERAL",
    "FLAG_LOADING",
    "PERM_CREATE_PUBLIC_THREADS",
    "PERM_MEMBER_DEFAULT",
    "PERM_SEND_MESSAGES_IN_THREADS",
    "PERM_THREADS",
    "BotProcess",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeDiscordServer",
    "FakeUser",
    "InteractionRecord",
    "InteractionRefused",
    "InteractionResult",
    "Limited",
    "NotConnected",
    "RateLimiter",
    "RateLimits",
    "RestCall",
    "RouteLimit",
    "StoredMessage",
    "Upload",
    "Violation",
    "make_channel",
    "make_user",
    "patch_discord",
    "unpatch_discord",
]
