"""The test-facing driver: tests act as Discord users through :class:`FakeDiscord`.

Each action (slash command, button click, select, modal submit, autocomplete) is checked the way
the Discord *client* would check it before anything reaches the bot: unknown commands or options,
wrong option types, values outside the choices, missing required options, and clicks on buttons
that are not (or no longer) on the message, are disabled, or are invisible to the clicking user
all raise :class:`InteractionRefused` in the test instead of being sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .models import (
    PERM_ADMINISTRATOR,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    StoredMessage,
    Upload,
    Violation,
    make_channel,
    make_user,
    snowflake,
)
from .ratelimits import RateLimits
from .server import (
    IT_AUTOCOMPLETE,
    IT_COMMAND,
    IT_COMPONENT,
    IT_MODAL,
    FakeDiscordServer,
    patch_discord,
    unpatch_discord,
)

T = TypeVar("T")

#: Seconds any one wait of a test may take before the test is called hung: start-up, an
#: answer, a message, the bot going quiet. A deadline is there to stop a hung test, not to
#: measure speed: on a loaded machine (other jobs, the suite's own workers) a bot that is
#: merely slow must not fail. A real failure ends the wait at once instead of at the deadline
#: (`FakeDiscord.wait_for`): the bot's task ending, its process exiting, and while it starts,
#: an ERROR or a traceback in its log.
DEADLINE = 90.0

UserLike = FakeUser | str | int
ChannelLike = FakeChannel | str | int
MessageLike = StoredMessage | int

REPO_ROOT = Path(__file__).resolve().parents[2]
SELECT_TYPES = (3, 5, 6, 7, 8)
OPTION_TYPE_NAMES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


class FakeDiscordError(Exception):
    """Base class for errors raised by the driver."""


class InteractionRefused(FakeDiscordError):
    """The Discord client would not let a user do this (invalid command, stale button, ...)."""


class NotConnected(FakeDiscordError):
    """No bot is connected to the gateway, so nothing can be dispatched."""


class InteractionResult:
    """Live view of one interaction a test triggered and of the bot's answer to it.

    Properties read the server's current state, so they reflect edits made after the call
    returned.  ``await result.wait()`` blocks until the response is *settled*: acknowledged and,
    if the bot deferred with "thinking", the placeholder replaced by real content.
    """

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} type={self.record.type} "
            f"response_type={self.response_type} text={self.text!r}>"
        )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def response_type(self) -> int | None:
        """Initial callback type the bot used (4, 5, 6, 7, 8, 9) or None if not yet answered."""
        return self.record.response_type

    @property
    def acknowledged(self) -> bool:
        return self.record.acknowledged

    @property
    def deferred(self) -> bool:
        return self.record.response_type in (5, 6)

    @property
    def message(self) -> StoredMessage | None:
        """The original response message (for type 6/7: the message the component is on)."""
        mid = self.record.original_message_id
        return None if mid is None else self.fake.server.messages.get(mid)

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return bool(msg and msg.ephemeral)

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.fake.server.messages[m] for m in self.record.followup_ids]

    @property
    def messages(self) -> list[StoredMessage]:
        """Original response (if it is a new message) plus followups, oldest first."""
        out = list(self.followups)
        msg = self.message
        if msg is not None and msg.interaction_id == self.id:
            out.insert(0, msg)
        return out

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9 ``data``), if any."""
        return self.record.modal

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices (callback type 8), if any."""
        return self.record.autocomplete_choices

    @property
    def text(self) -> str:
        """What the user sees of the original response."""
        msg = self.message
        return msg.text() if msg is not None else ""

    @property
    def settled(self) -> bool:
        if not self.acknowledged:
            return False
        msg = self.message
        return not (self.response_type == 5 and msg is not None and msg.loading)

    async def wait(self, timeout: float = DEADLINE) -> InteractionResult:
        """Wait until the response is settled (see class docstring)."""
        await self.fake.wait_for(
            lambda: self.settled,
            timeout,
            message=lambda: f"no settled response to interaction {self.id}: {self!r}",
        )
        return self

    async def reply(self, timeout: float = DEADLINE) -> StoredMessage:
        """The message the bot answered with, once it is there: the original response, or
        after a deferred update (type 6, which leaves the clicked message as it is) the first
        follow-up (a hand view opened from the table's public message comes so)."""
        await self.wait(timeout)
        if self.response_type == 6:
            return (await self.wait_followups(1, timeout))[0]
        msg = self.message
        if msg is None:
            raise AssertionError(f"no message answers interaction {self.id}: {self!r}")
        return msg

    async def wait_followups(
        self, count: int = 1, timeout: float = DEADLINE
    ) -> list[StoredMessage]:
        """Wait until at least ``count`` followup messages exist and return them."""
        await self.fake.wait_for(
            lambda: len(self.record.followup_ids) >= count,
            timeout,
            message=lambda: f"expected {count} followups for {self!r}",
        )
        return self.followups


@dataclass
class BotProcess:
    """A bot started in a subprocess via ``python -m tests.fakediscord.launch <module>``."""

    process: asyncio.subprocess.Process
    log_path: Path
    client: str = ""  # its name in the fake's records (``RestCall.client``, ``identified_by``)
    #: Set when the test stops it (kill, terminate): its exit is then no failure.
    stopped: bool = False

    def failure(self) -> str | None:
        """Why waiting on it is pointless: it exited without the test stopping it."""
        code = self.process.returncode
        if code is None or self.stopped:
            return None
        return f"bot process {self.client} exited with {code}; log:\n{self.log()[-4000:]}"

    def startup_failure(self) -> str | None:
        """While it starts: it exited, or its log shows an error or a traceback."""
        failed = self.failure()
        if failed is not None:
            return failed
        log = self.log()
        for mark in ("Traceback (most recent call last)", "[ERROR", "[CRITICAL"):
            if mark in log:
                return f"bot process {self.client} logged an error while starting:\n{log[-4000:]}"
        return None

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        """Everything the bot printed to stdout/stderr so far (useful in assertion messages)."""
        return self.log_path.read_text(errors="replace")

    async def kill(self) -> int:
        """SIGKILL the bot (an abrupt crash) and reap it."""
        self.stopped = True
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGKILL)
        return await self.process.wait()

    async def terminate(self, timeout: float = DEADLINE) -> int:
        """SIGTERM, then SIGKILL if the bot does not exit within ``timeout``."""
        self.stopped = True
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.terminate()
            try:
                return await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                return await self.kill()
        return self.process.returncode


class FakeDiscord:
    """One fake guild with users and text channels, plus the methods tests use to act.

    ``users`` and ``channels`` accept ready objects or plain names.  The first user is the guild
    owner.  Use as ``async with FakeDiscord(...) as fake:`` or call :meth:`start`/:meth:`stop`.
    """

    def __init__(
        self,
        *,
        users: Sequence[FakeUser | str] = ("alice", "bob", "carol"),
        channels: Sequence[FakeChannel | str] = ("general",),
        guild_id: int | None = None,
        guild_name: str = "Test Guild",
        bot_name: str = "TestBot",
        application_id: int | None = None,
        token: str | None = None,
        ack_deadline: float = 3.0,
        token_ttl: float = 15 * 60.0,
        port: int = 0,
        rate_limits: RateLimits | None = None,
        bot_permissions: int | None = None,
    ) -> None:
        user_objs = [make_user(u) if isinstance(u, str) else u for u in users]
        chan_objs = [
            make_channel(c, position=i) if isinstance(c, str) else c for i, c in enumerate(channels)
        ]
        self.server = FakeDiscordServer(
            users=user_objs,
            channels=chan_objs,
            guild_id=guild_id,
            guild_name=guild_name,
            bot_name=bot_name,
            application_id=application_id,
            token=token,
            ack_deadline=ack_deadline,
            token_ttl=token_ttl,
            port=port,
            rate_limits=rate_limits,
        )
        if bot_permissions is not None:
            self.server.bot_permissions = bot_permissions
        self._patched: tuple[Any, Any] | None = None
        self._launched = 0
        # The bots a test runs (in-process tasks, launched processes): a wait ends at once
        # when one of them fails (see `wait_for`).
        self._tasks: list[asyncio.Task[Any]] = []
        self._processes: list[BotProcess] = []

    # ------------------------------------------------------------------ lifecycle

    async def start(self, *, patch: bool = True) -> FakeDiscord:
        """Start the server; with ``patch`` also point this process's discord.py at it."""
        await self.server.start()
        if patch:
            self._patched = patch_discord(self.server.url)
        return self

    async def stop(self) -> None:
        await self.server.stop()
        if self._patched is not None:
            unpatch_discord(self._patched)
            self._patched = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def bot_token(self) -> str:
        """The token a bot should log in with (any non-empty token works unless one was set)."""
        return self.server.token or "fake-bot-token"

    @property
    def violations(self) -> list[Violation]:
        return self.server.violations

    @property
    def uploads(self) -> list[Upload]:
        """Every file the bot uploaded, in order (see `Upload`)."""
        return self.server.uploads

    @property
    def guild_id(self) -> int:
        return self.server.guild_id

    @property
    def application_id(self) -> int:
        return self.server.application_id

    @property
    def bot_user(self) -> FakeUser:
        return self.server.bot_user

    @property
    def users(self) -> list[FakeUser]:
        """Human users (the bot excluded)."""
        return [u for u in self.server.users.values() if not u.bot]

    @property
    def channels(self) -> list[FakeChannel]:
        return list(self.server.channels.values())

    @property
    def connected(self) -> bool:
        return self.server.connected

    def user(self, who: UserLike) -> FakeUser:
        """Look a user up by object, name or id."""
        if isinstance(who, FakeUser):
            return self.server.users[who.id]
        for u in self.server.users.values():
            if who in (u.id, u.name):
                return u
        raise KeyError(f"unknown user {who!r}")

    def channel(self, which: ChannelLike) -> FakeChannel:
        """Look a channel up by object, name or id."""
        if isinstance(which, FakeChannel):
            return self.server.channels[which.id]
        for c in self.server.channels.values():
            if which in (c.id, c.name):
                return c
        raise KeyError(f"unknown channel {which!r}")

    def thread_of(self, message: MessageLike) -> FakeChannel | None:
        """The thread started from this message (Discord gives it the message's id), if any."""
        mid = message.id if isinstance(message, StoredMessage) else int(message)
        chan = self.server.channels.get(mid)
        return chan if chan is not None and chan.is_thread else None

    def dm_channel(self, user: UserLike) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use, as on Discord)."""
        u = self.user(user)
        for chan in self.server.channels.values():
            if chan.type == 1 and chan.recipient_id == u.id:
                return chan
        chan = FakeChannel(id=snowflake(), name=f"dm-{u.name}", type=1, recipient_id=u.id)
        self.server.channels[chan.id] = chan
        return chan

    def add_guild(self, name: str, guild_id: int | None = None) -> int:
        """Another guild (same members); add channels to it with :meth:`add_channel`. Add
        guilds before the bot connects: they are announced at IDENTIFY."""
        return self.server.add_guild(name, guild_id)

    def add_channel(self, name: str, *, guild_id: int | None = None) -> FakeChannel:
        """Another text channel (in the first guild unless ``guild_id`` says otherwise)."""
        chan = make_channel(name, position=len(self.server.channels), guild_id=guild_id)
        self.server.channels[chan.id] = chan
        return chan

    def set_locale(self, who: UserLike, locale: str) -> None:
        """The language of a user's Discord client (`"hi"`, `"en-GB"`, ...): sent as
        `locale` with each of their interactions from now on."""
        self.user(who).locale = locale

    def set_guild_locale(self, locale: str, guild_id: int | None = None) -> None:
        """A guild's preferred locale, sent as `guild_locale` with interactions in it."""
        self.server.set_guild_locale(locale, guild_id)

    def add_user(self, name: str, *, admin: bool = False) -> FakeUser:
        """Add a guild member after start (no GUILD_MEMBER_ADD is sent; bots fetch lazily)."""
        user = make_user(name, admin=admin)
        self.server.users[user.id] = user
        return user

    def assert_no_violations(self) -> None:
        """Fail with a readable list if the bot broke any Discord rule."""
        assert not self.server.violations, "Discord rule violations:\n" + "\n".join(
            str(v) for v in self.server.violations
        )

    def env(self) -> dict[str, str]:
        """Environment variables for a subprocess bot (URL, token, ids)."""
        token = self.bot_token
        return {
            "FAKE_DISCORD_URL": self.server.url,
            "FAKE_DISCORD_TOKEN": token,
            "DISCORD_TOKEN": token,
            "DISCORD_BOT_TOKEN": token,
            "BOT_TOKEN": token,
            "FAKE_DISCORD_GUILD_ID": str(self.guild_id),
            "FAKE_DISCORD_APPLICATION_ID": str(self.application_id),
        }

    # ------------------------------------------------------------------ running bots

    @contextlib.asynccontextmanager
    async def running(self, client: Any, *, timeout: float = DEADLINE) -> AsyncIterator[Any]:
        """Run a discord.py ``Client``/``Bot`` in this event loop while the block executes.

        Waits until the bot has identified on the gateway (READY + GUILD_CREATE sent); closes
        it on exit.  ``client.start`` runs ``setup_hook`` first, so commands synced there are
        in place when the block starts.
        """
        before = self.server.identify_count
        task = asyncio.create_task(client.start(self.bot_token))
        errors = _ErrorLog()
        logging.getLogger().addHandler(errors)
        try:
            try:
                await self.wait_until_connected(timeout, after=before, task=task, errors=errors)
            finally:
                logging.getLogger().removeHandler(errors)
            if errors.records:  # connected, but something failed on the way
                raise FakeDiscordError("the bot logged an error while starting:\n" + errors.text())
            self._tasks.append(task)
            yield client
        finally:
            if task in self._tasks:
                self._tasks.remove(task)
            with contextlib.suppress(Exception):
                await client.close()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, DEADLINE)

    async def launch(
        self,
        module: str,
        *args: str,
        env: Mapping[str, str] | None = None,
        pythonpath: Sequence[str | os.PathLike[str]] = (),
        wait: bool = True,
        timeout: float = DEADLINE,
        client: str | None = None,
    ) -> BotProcess:
        """Start ``python -m tests.fakediscord.launch <module>`` and wait for it to identify.

        The repo root and ``pythonpath`` entries are put on ``PYTHONPATH``; stdout/stderr go to a
        log file (``BotProcess.log()``). Every request the process makes is marked with
        ``client`` (default: ``<module>#<n>``, one per launch), see ``server.CLIENT_HEADER``.
        """
        self._launched += 1
        client = client or f"{module}#{self._launched}"
        full_env = {**os.environ, **self.env(), **(env or {}), "FAKE_DISCORD_CLIENT": client}
        paths = [str(p) for p in pythonpath] + [str(REPO_ROOT)]
        if full_env.get("PYTHONPATH"):
            paths.append(full_env["PYTHONPATH"])
        full_env["PYTHONPATH"] = os.pathsep.join(paths)
        full_env.setdefault("PYTHONUNBUFFERED", "1")
        fd, log_name = tempfile.mkstemp(prefix=f"fakediscord-{module}-", suffix=".log")
        before = self.server.identify_count
        with os.fdopen(fd, "wb") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.fakediscord.launch",
                module,
                *args,
                env=full_env,
                cwd=str(REPO_ROOT),
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        bot = BotProcess(proc, Path(log_name), client)
        if wait:
            try:
                await self.wait_for(
                    lambda: self.server.identify_count > before and self.connected,
                    timeout,
                    message=lambda: f"bot {module} did not connect; log:\n{bot.log()}",
                    abort=bot.startup_failure,
                )
            except BaseException:
                await bot.kill()
                raise
        self._processes.append(bot)
        return bot

    async def wait_until_connected(
        self,
        timeout: float = DEADLINE,
        *,
        after: int | None = None,
        task: asyncio.Task[Any] | None = None,
        errors: _ErrorLog | None = None,
    ) -> None:
        """Wait for a live gateway session (newer than ``after`` identifies, if given). Ends
        at once if the bot's ``task`` ends or, while it starts, logs an error (``errors``)."""

        def ok() -> bool:
            fresh = after is None or self.server.identify_count > after
            return fresh and self.connected

        def aborted() -> str | None:
            if task is not None and task.done():
                exc = None if task.cancelled() else task.exception()
                return f"bot task ended before connecting: {exc!r}"
            if errors is not None and errors.records:
                return "the bot logged an error while starting:\n" + errors.text()
            return None

        await self.wait_for(
            ok, timeout, message="bot did not connect to the gateway", abort=aborted
        )

    async def wait_for_commands(self, *names: str, timeout: float = DEADLINE) -> None:
        """Wait until the named top-level commands have been synced."""
        await self.wait_for(
            lambda: all(self.server.find_command(n) for n in names),
            timeout,
            message=lambda: f"commands {names} not synced; have {self.command_names()}",
        )

    def command_names(self) -> list[str]:
        cmds = self.server.global_commands + self.server.guild_commands.get(self.guild_id, [])
        return sorted(c["name"] for c in cmds)

    # ------------------------------------------------------------------ waiting

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = DEADLINE,
        *,
        message: str | Callable[[], str] | None = None,
        abort: Callable[[], str | None] | None = None,
    ) -> T:
        """Poll ``predicate`` on every server state change until it returns something truthy.

        Raises ``TimeoutError`` (with ``message`` and the current violations) after ``timeout``;
        ``abort`` may return a reason to give up early (e.g. the bot process died).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            reason = (abort() if abort is not None else None) or self._bot_failure()
            if reason:
                raise FakeDiscordError(reason)
            remaining = deadline - loop.time()
            if remaining <= 0:
                text = message() if callable(message) else (message or "condition not met")
                if self.violations:
                    text += "\nviolations so far:\n" + "\n".join(map(str, self.violations))
                raise TimeoutError(f"{text} (after {timeout:g}s)")
            await self.server.changed(min(remaining, 0.05))

    def _bot_failure(self) -> str | None:
        """A bot of this test that failed: its task ended inside `running`, or its process
        exited without the test stopping it. Waiting for it any longer is pointless."""
        for task in self._tasks:
            if task.done():
                exc = None if task.cancelled() else task.exception()
                return f"the bot's task ended while the test waited for it: {exc!r}"
        for proc in self._processes:
            failed = proc.failure()
            if failed is not None:
                return failed
        return None

    async def wait_idle(self, quiet: float = 0.1, timeout: float = DEADLINE) -> list[Violation]:
        """Wait until every dispatched interaction is acknowledged or past its deadline (so a
        missing acknowledgement has been recorded) and the bot is quiet; return violations.

        Call this before asserting on ``violations`` at the end of a test.
        """
        server = self.server

        def done() -> bool:
            return all(
                rec.acknowledged or rec.dispatched_at is None or rec.deadline_checked
                for rec in server.interactions.values()
            )

        await self.wait_for(done, timeout, message="interactions still pending")
        await self.settle(quiet, timeout)
        return list(server.violations)

    async def settle(self, quiet: float = 0.2, timeout: float = DEADLINE) -> None:
        """Wait until the bot has made no REST call for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        count = len(self.server.request_log)
        last_change = loop.time()
        while loop.time() < deadline:
            await asyncio.sleep(quiet / 4)
            now_count = len(self.server.request_log)
            if now_count != count:
                count, last_change = now_count, loop.time()
            elif loop.time() - last_change >= quiet:
                return
        raise TimeoutError(f"bot still busy after {timeout:g}s")

    # ------------------------------------------------------------------ reading what users see

    def message(self, which: MessageLike) -> StoredMessage:
        """Current state of a stored message (pass an old object or an id)."""
        mid = which.id if isinstance(which, StoredMessage) else int(which)
        return self.server.messages[mid]

    def _can_see(self, user: FakeUser, msg: StoredMessage) -> bool:
        if msg.deleted:
            return False
        if msg.visible_to is not None and msg.visible_to != user.id:
            return False
        chan = self.server.channels[msg.channel_id]
        return not (chan.type == 1 and chan.recipient_id != user.id)

    def visible_messages(self, user: UserLike, channel: ChannelLike) -> list[StoredMessage]:
        """Messages ``user`` sees in ``channel`` (public ones plus their own ephemerals)."""
        u, chan = self.user(user), self.channel(channel)
        msgs = [m for m in self.server.messages.values() if m.channel_id == chan.id]
        return sorted((m for m in msgs if self._can_see(u, m)), key=lambda m: m.id)

    def public_messages(self, channel: ChannelLike) -> list[StoredMessage]:
        """Non-deleted, non-ephemeral messages in ``channel``, oldest first."""
        chan = self.channel(channel)
        return sorted(
            (
                m
                for m in self.server.messages.values()
                if m.channel_id == chan.id and not m.deleted and not m.ephemeral
            ),
            key=lambda m: m.id,
        )

    def last_public(self, channel: ChannelLike) -> StoredMessage | None:
        msgs = self.public_messages(channel)
        return msgs[-1] if msgs else None

    def ephemeral_messages(
        self, user: UserLike, channel: ChannelLike | None = None
    ) -> list[StoredMessage]:
        u = self.user(user)
        chan_id = None if channel is None else self.channel(channel).id
        return sorted(
            (
                m
                for m in self.server.messages.values()
                if m.visible_to == u.id
                and not m.deleted
                and (chan_id is None or m.channel_id == chan_id)
            ),
            key=lambda m: m.id,
        )

    def last_ephemeral(
        self, user: UserLike, channel: ChannelLike | None = None
    ) -> StoredMessage | None:
        msgs = self.ephemeral_messages(user, channel)
        return msgs[-1] if msgs else None

    def dm_messages(self, user: UserLike) -> list[StoredMessage]:
        """Messages in the DM channel between the bot and ``user`` (if the bot opened one)."""
        u = self.user(user)
        chans = [c for c in self.server.channels.values() if c.type == 1 and c.recipient_id == u.id]
        return self.visible_messages(u, chans[0]) if chans else []

    def render(self, message: MessageLike) -> str:
        """What a human sees of a message: content, embed text, component labels."""
        return self.message(message).text()

    def screen(self, user: UserLike, channel: ChannelLike) -> str:
        """Everything ``user`` sees in ``channel``, messages separated by ``---``."""
        return "\n---\n".join(m.text() for m in self.visible_messages(user, channel))

    # ------------------------------------------------------------------ acting as users

    async def _send(self, rec: InteractionRecord, wait: bool, timeout: float) -> InteractionResult:
        guild_id = self.server.guild_of(self.server.channels[rec.channel_id])
        if not self.server.connected_for(guild_id):
            await self.wait_for(
                lambda: self.server.connected_for(guild_id),
                timeout,
                message=f"no bot connected on the shard of guild {guild_id}",
            )
        await self.server.dispatch_interaction(rec)
        result = InteractionResult(self, rec)
        if wait:
            await result.wait(timeout)
        return result

    async def slash(
        self,
        user: UserLike,
        channel: ChannelLike,
        command: str,
        *,
        options: Mapping[str, Any] | None = None,
        wait: bool = True,
        timeout: float = DEADLINE,
        **kwargs: Any,
    ) -> InteractionResult:
        """Invoke ``/command [group] [subcommand]`` with options as keyword arguments.

        Options are validated against the schema the bot synced; names that are not Python
        identifiers go in ``options``.  USER options take a user (object/name/id), CHANNEL a
        channel, ROLE a role id, ATTACHMENT a ``(filename, bytes)`` tuple.
        """
        u, chan = self.user(user), self.channel(channel)
        values = {**(options or {}), **kwargs}
        data = await self._command_data(u, chan, command, values, focused=None)
        rec = self.server.create_interaction(IT_COMMAND, u, chan, data)
        return await self._send(rec, wait, timeout)

    async def autocomplete(
        self,
        user: UserLike,
        channel: ChannelLike,
        command: str,
        focused: str,
        *,
        options: Mapping[str, Any] | None = None,
        timeout: float = DEADLINE,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (its partial text given in the options) and return the
        choices the bot offers."""
        u, chan = self.user(user), self.channel(channel)
        values = {**(options or {}), **kwargs}
        values.setdefault(focused, "")
        data = await self._command_data(u, chan, command, values, focused=focused)
        rec = self.server.create_interaction(IT_AUTOCOMPLETE, u, chan, data)
        result = await self._send(rec, True, timeout)
        return list(result.choices or [])

    async def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        values: dict[str, Any],
        *,
        focused: str | None,
    ) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        if not words:
            raise InteractionRefused("empty command")
        if self.server.command_syncs == 0 and not self.server.global_commands:
            with contextlib.suppress(TimeoutError):
                await self.wait_for(lambda: self.server.command_syncs > 0, DEADLINE)
        cmd = self.server.find_command(words[0], in_guild=channel.type != 1)
        if cmd is None:
            raise InteractionRefused(
                f"unknown command /{words[0]}; synced commands: {self.command_names()}"
            )
        self._check_command_access(user, channel, cmd)
        schema: list[dict[str, Any]] = cmd.get("options") or []
        chain: list[dict[str, Any]] = []
        for word in words[1:]:
            sub = next((o for o in schema if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (1, 2)]
                path = " ".join([words[0], *(c["name"] for c in chain)])
                raise InteractionRefused(f"/{path} has no subcommand {word!r}; has {subs}")
            chain.append(sub)
            schema = sub.get("options") or []
        path = " ".join(words)
        if any(o["type"] in (1, 2) for o in schema):
            subs = [o["name"] for o in schema if o["type"] in (1, 2)]
            raise InteractionRefused(f"/{path} needs a subcommand: one of {subs}")
        resolved: dict[str, dict[str, Any]] = {}
        opts = self._build_options(schema, values, resolved, focused=focused, path=path)
        for sub in reversed(chain):
            opts = [{"type": sub["type"], "name": sub["name"], "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if opts:
            data["options"] = opts
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _check_command_access(
        self, user: FakeUser, channel: FakeChannel, cmd: dict[str, Any]
    ) -> None:
        """Discord hides commands a member lacks permissions for, or that are not usable here."""
        perms_raw = cmd.get("default_member_permissions")
        if perms_raw is not None:
            needed = int(perms_raw)
            have = self.server.permissions_for(user)
            admin = bool(have & (1 << 3))
            if not admin and (needed == 0 or have & needed != needed):
                raise InteractionRefused(f"{user.name} may not use /{cmd['name']} (permissions)")
        contexts = cmd.get("contexts")
        in_dm = channel.type == 1
        if in_dm and (cmd.get("dm_permission") is False or (contexts and 1 not in contexts)):
            raise InteractionRefused(f"/{cmd['name']} is not available in DMs")
        if not in_dm and contexts and 0 not in contexts:
            raise InteractionRefused(f"/{cmd['name']} is not available in guilds")

    def _build_options(
        self,
        schema: list[dict[str, Any]],
        values: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        *,
        focused: str | None,
        path: str,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        unknown = [n for n in values if n not in by_name]
        if unknown:
            raise InteractionRefused(
                f"/{path}: unknown option(s) {unknown}; options are {list(by_name)}"
            )
        out: list[dict[str, Any]] = []
        for opt in schema:
            name = opt["name"]
            value = values.get(name)
            if value is None:
                if opt.get("required") and focused is None:
                    raise InteractionRefused(f"/{path}: missing required option {name!r}")
                continue
            if name == focused:
                if not opt.get("autocomplete"):
                    raise InteractionRefused(f"/{path}: option {name!r} has no autocomplete")
                out.append(
                    {"type": opt["type"], "name": name, "value": str(value), "focused": True}
                )
                continue
            converted = self._convert(opt, value, resolved, path)
            out.append({"type": opt["type"], "name": name, "value": converted})
        return out

    def _convert(
        self, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], path: str
    ) -> Any:
        """Type-check one option value like the Discord client's input box would."""
        otype = opt["type"]
        name = opt["name"]
        where = f"/{path} option {name!r} ({OPTION_TYPE_NAMES.get(otype, otype)})"

        def refuse(why: str) -> InteractionRefused:
            return InteractionRefused(f"{where}: {why} (got {value!r})")

        if otype == 3:
            if not isinstance(value, str):
                raise refuse("expected a string")
            if len(value) < opt.get("min_length", 0):
                raise refuse(f"shorter than min_length {opt['min_length']}")
            if len(value) > opt.get("max_length", 6000):
                raise refuse(f"longer than max_length {opt.get('max_length', 6000)}")
        elif otype in (4, 10):
            numeric = (int,) if otype == 4 else (int, float)
            if isinstance(value, bool) or not isinstance(value, numeric):
                raise refuse("expected an integer" if otype == 4 else "expected a number")
            if "min_value" in opt and value < opt["min_value"]:
                raise refuse(f"below min_value {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise refuse(f"above max_value {opt['max_value']}")
            if otype == 4 and abs(value) > 2**53:
                raise refuse("out of range")
        elif otype == 5:
            if not isinstance(value, bool):
                raise refuse("expected a boolean")
        elif otype in (6, 9) and not (otype == 9 and _is_role_id(self.server, value)):
            try:
                u = self.user(value)
            except KeyError:
                raise refuse("unknown user") from None
            self._resolve_user(u, resolved)
            return str(u.id)
        elif otype in (8, 9):
            if not _is_role_id(self.server, value):
                raise refuse("unknown role id")
            role = next(r for r in self.server.roles_payload() if int(r["id"]) == int(value))
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        elif otype == 7:
            try:
                chan = self.channel(value)
            except KeyError:
                raise refuse("unknown channel") from None
            allowed = opt.get("channel_types")
            if allowed and chan.type not in allowed:
                raise refuse(f"channel type {chan.type} not in {allowed}")
            payload = chan.payload(self.server.guild_of(chan), self.server.users)
            payload["permissions"] = str(self.server.permissions_for(self.server.bot_user))
            resolved.setdefault("channels", {})[str(chan.id)] = payload
            return str(chan.id)
        elif otype == 11:
            if isinstance(value, str):
                filename, blob = value, b""
            elif isinstance(value, tuple) and len(value) == 2:
                filename, blob = value
            else:
                raise refuse("expected a filename or (filename, bytes)")
            aid = str(snowflake())
            url = f"{self.server.url}/attachments/{aid}/{filename}"
            resolved.setdefault("attachments", {})[aid] = {
                "id": aid,
                "filename": filename,
                "size": len(blob),
                "url": url,
                "proxy_url": url,
            }
            return aid
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise refuse(f"not one of the choices {[c['value'] for c in choices]}")
        return value

    def _resolve_user(self, u: FakeUser, resolved: dict[str, dict[str, Any]]) -> None:
        resolved.setdefault("users", {})[str(u.id)] = u.user_payload()
        member = self.server.member_payload(u, with_permissions=True)
        member.pop("user")
        resolved.setdefault("members", {})[str(u.id)] = member

    def _visible_message(self, user: FakeUser, message: MessageLike) -> StoredMessage:
        mid = message.id if isinstance(message, StoredMessage) else int(message)
        msg = self.server.messages.get(mid)
        if msg is None or msg.deleted:
            raise InteractionRefused(f"message {mid} does not exist (deleted?)")
        if not self._can_see(user, msg):
            raise InteractionRefused(f"{user.name} cannot see message {mid} (ephemeral/DM)")
        if msg.loading:
            raise InteractionRefused(f"message {mid} is still a 'thinking' placeholder")
        return msg

    async def click(
        self,
        user: UserLike,
        message: MessageLike,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        wait: bool = True,
        timeout: float = DEADLINE,
    ) -> InteractionResult:
        """Click a button on the *current* version of ``message`` (by label or custom_id)."""
        u = self.user(user)
        msg = self._visible_message(u, message)
        buttons = [c for c in msg.iter_components() if c.get("type") == 2]
        if custom_id is not None:
            found = [b for b in buttons if b.get("custom_id") == custom_id]
        elif label is not None:
            found = [b for b in buttons if b.get("label") == label]
        elif len(buttons) == 1:
            found = buttons
        else:
            raise InteractionRefused("click() needs label= or custom_id=")
        have = [(b.get("label"), b.get("custom_id")) for b in buttons]
        if not found:
            raise InteractionRefused(
                f"no button label={label!r} custom_id={custom_id!r} on message {msg.id}; "
                f"buttons: {have}"
            )
        if len(found) > 1:
            raise InteractionRefused(f"ambiguous button label {label!r}; buttons: {have}")
        button = found[0]
        if button.get("disabled"):
            raise InteractionRefused(f"button {button.get('label')!r} is disabled")
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise InteractionRefused("link/premium buttons do not create interactions")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        if button.get("id") is not None:
            data["id"] = button["id"]
        chan = self.server.channels[msg.channel_id]
        rec = self.server.create_interaction(IT_COMPONENT, u, chan, data, source_message=msg)
        return await self._send(rec, wait, timeout)

    async def select(
        self,
        user: UserLike,
        message: MessageLike,
        values: Sequence[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        wait: bool = True,
        timeout: float = DEADLINE,
    ) -> InteractionResult:
        """Choose ``values`` in a select menu on ``message``.

        For string selects the values are option values; for user/role/channel selects pass
        users, role ids or channels.
        """
        u = self.user(user)
        msg = self._visible_message(u, message)
        selects = [c for c in msg.iter_components() if c.get("type") in SELECT_TYPES]
        if custom_id is not None:
            found = [s for s in selects if s.get("custom_id") == custom_id]
        elif placeholder is not None:
            found = [s for s in selects if s.get("placeholder") == placeholder]
        else:
            found = selects
        have = [(s.get("placeholder"), s.get("custom_id")) for s in selects]
        if len(found) != 1:
            raise InteractionRefused(
                f"expected exactly one matching select on message {msg.id}, found {len(found)}; "
                f"selects: {have}"
            )
        menu = found[0]
        if menu.get("disabled"):
            raise InteractionRefused(f"select {menu.get('custom_id')!r} is disabled")
        lo, hi = menu.get("min_values", 1), menu.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise InteractionRefused(f"select needs {lo}..{hi} values, got {len(values)}")
        ctype = menu["type"]
        resolved: dict[str, dict[str, Any]] = {}
        out: list[str] = []
        if ctype == 3:
            allowed = [o["value"] for o in menu.get("options") or []]
            for v in values:
                if v not in allowed:
                    raise InteractionRefused(f"{v!r} is not an option of the select; {allowed}")
                out.append(str(v))
        else:
            for v in values:
                if ctype in (5, 7) and not (ctype == 7 and _is_role_id(self.server, v)):
                    try:
                        member = self.user(v)
                    except KeyError:
                        raise InteractionRefused(f"unknown user {v!r}") from None
                    self._resolve_user(member, resolved)
                    out.append(str(member.id))
                elif ctype in (6, 7):
                    if not _is_role_id(self.server, v):
                        raise InteractionRefused(f"unknown role {v!r}")
                    role = next(r for r in self.server.roles_payload() if int(r["id"]) == int(v))
                    resolved.setdefault("roles", {})[role["id"]] = role
                    out.append(role["id"])
                else:
                    try:
                        chan = self.channel(v)
                    except KeyError:
                        raise InteractionRefused(f"unknown channel {v!r}") from None
                    payload = chan.payload(self.server.guild_of(chan), self.server.users)
                    payload["permissions"] = str(self.server.permissions_for(u))
                    resolved.setdefault("channels", {})[str(chan.id)] = payload
                    out.append(str(chan.id))
        data: dict[str, Any] = {
            "custom_id": menu["custom_id"],
            "component_type": ctype,
            "values": out,
        }
        if resolved:
            data["resolved"] = resolved
        chan = self.server.channels[msg.channel_id]
        rec = self.server.create_interaction(IT_COMPONENT, u, chan, data, source_message=msg)
        return await self._send(rec, wait, timeout)

    async def submit_modal(
        self,
        opened_by: InteractionResult,
        values: Mapping[str, str | Sequence[str]],
        *,
        wait: bool = True,
        timeout: float = DEADLINE,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps text-input custom_ids to text (select custom_ids to a list of values);
        inputs left out keep their pre-filled value.
        """
        modal = opened_by.modal
        if modal is None:
            raise InteractionRefused(f"interaction {opened_by.id} did not open a modal")
        rec0 = opened_by.record
        user = self.server.users[rec0.user_id]
        chan = self.server.channels[rec0.channel_id]
        seen: set[str] = set()

        def fill(comp: dict[str, Any]) -> dict[str, Any] | None:
            ctype = comp.get("type")
            if ctype == 1:
                kids = [k for k in (fill(c) for c in comp.get("components") or []) if k]
                return {"type": 1, "components": kids}
            if ctype == 18 and isinstance(comp.get("component"), dict):
                inner = fill(comp["component"])
                return {"type": 18, "component": inner} if inner else None
            cid = comp.get("custom_id")
            if ctype == 4 and cid:
                seen.add(cid)
                text = str(values.get(cid, comp.get("value") or ""))
                if comp.get("required", True) and not text:
                    raise InteractionRefused(f"modal input {cid!r} is required")
                if len(text) < comp.get("min_length", 0) or len(text) > comp.get(
                    "max_length", 4000
                ):
                    raise InteractionRefused(f"modal input {cid!r}: length out of range")
                return {"type": 4, "custom_id": cid, "value": text}
            if ctype == 3 and cid:
                seen.add(cid)
                chosen: str | Sequence[str] = values.get(cid, [])
                picked = [chosen] if isinstance(chosen, str) else list(chosen)
                return {"type": 3, "custom_id": cid, "values": picked}
            return None

        comps = [c for c in (fill(c) for c in modal.get("components") or []) if c]
        unknown = set(values) - seen
        if unknown:
            raise InteractionRefused(
                f"modal has no inputs {sorted(unknown)}; inputs: {sorted(seen)}"
            )
        data = {"custom_id": modal["custom_id"], "components": comps}
        source = None
        if rec0.source_message_id is not None:
            source = self.server.messages.get(rec0.source_message_id)
        rec = self.server.create_interaction(IT_MODAL, user, chan, data, source_message=source)
        return await self._send(rec, wait, timeout)

    async def say(self, user: UserLike, channel: ChannelLike, content: str) -> StoredMessage:
        """Post a plain message as a user (MESSAGE_CREATE on the gateway)."""
        u, chan = self.user(user), self.channel(channel)
        if chan.is_thread:
            may_manage = bool(self.server.permissions_for(u) & PERM_ADMINISTRATOR)
            refused = await self.server.thread_message(chan, may_manage=may_manage)
            if refused is not None:
                raise InteractionRefused(f"{u.name} cannot post in #{chan.name}: {refused}")
        msg = self.server.create_message(chan.id, {"content": content}, [], author=u.user_payload())
        await self.server._announce("MESSAGE_CREATE", msg)
        return msg


def _is_role_id(server: FakeDiscordServer, value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return False
    try:
        rid = int(value)
    except ValueError:
        return False
    return any(int(r["id"]) == rid for r in server.roles_payload())


class _ErrorLog(logging.Handler):
    """Collects the ERROR (and worse) records logged while an in-process bot starts."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def text(self) -> str:
        formatter = logging.Formatter("%(levelname)s %(name)s: %(message)s")
        return "\n".join(formatter.format(r) for r in self.records[:5])
