"""The bot process: a `commands.Bot` that builds its parts in order and syncs commands.

Start-up order matters, and it is written down once, in `setup_hook`: storage first (restored
tables need somewhere to write), then the presenter (it needs storage for message ids), then
the table service (it needs both), then the cogs, which register their persistent components as
they load (so old buttons work from the first event), then restore and command sync. Only once
the gateway is ready do restored tables touch Discord again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import gc_tuning, health, logs
from bot.ai import thinking
from bot.config import Settings
from bot.engine.evaluate import build_tables
from bot.storage import Storage
from bot.table.service import TableService

from . import logging_filters
from .budget import ARRIVAL_MARGIN, RestBudget, share_for
from .components import GameButton, GameSelect
from .dispatch import ClickRouter
from .errors import answer_error
from .languages import LanguagePreferences
from .presenter import DiscordPresenter
from .season_posts import SeasonPosts
from .slices import RummyGroup
from .translator import CatalogueTranslator

log = logging.getLogger(__name__)

#: The feature slices, each a cog in its own extension (see `slices.py`); their commands
#: are `/rummy`'s subcommands, in this order.
EXTENSIONS = (
    "cogs.lobby",
    "cogs.play",
    "cogs.info",
    "cogs.league",
    "cogs.replay",
    "cogs.server",
    "cogs.season",
    "cogs.tournament",
)


#: Only the guild events (servers joining and leaving, channels). Everything the bot acts on
#: arrives as an interaction, which needs no intent; with the default intents Discord would
#: send an event for every message posted or edited in every channel of every server, each
#: parsed and cached for nothing (under load: the bot's own table edits coming back).
INTENTS = discord.Intents.none()
INTENTS.guilds = True


class PapluBot(commands.Bot):
    """The parts exist from `setup_hook` on; nothing touches them before the bot connects."""

    storage: Storage
    presenter: DiscordPresenter
    tables: TableService
    languages: LanguagePreferences

    def __init__(self, settings: Settings) -> None:
        logging_filters.quiet_startup()  # before the constructor logs its voice warnings
        # Every REST request this process sends is counted (an aiohttp trace), so the
        # presenter can keep the public ones within this process's part of the token's
        # global rate limit (`budget.py`).
        budget = RestBudget(share_for(settings.shard_count, settings.shard_ids) * ARRIVAL_MARGIN)
        super().__init__(
            http_trace=budget.trace(),
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # the bot edits its messages by id; it never reads a cached one
        )
        self.settings = settings
        self.budget = budget
        self._resumed = False  # True from the first READY on (see `ever_ready`)
        self.heartbeat = health.heartbeat_path(settings.database_path)
        self._heartbeat_task: asyncio.Task[None] | None = None
        self._languages_task: asyncio.Task[None] | None = None
        #: `/rummy`, which every slice's commands join, and the one dispatch of the game's
        #: clicks, which every slice's handlers join (see `slices.py`).
        self.rummy = RummyGroup()
        self.clicks = ClickRouter()

    async def setup_hook(self) -> None:
        self._stop_on_sigterm()
        health.clear(self.heartbeat)  # a previous run's file must not vouch for this one
        self._heartbeat_task = asyncio.create_task(self._keep_heartbeat(), name="heartbeat")
        self.storage = await Storage.open_url(
            self.settings.database, pool_size=self.settings.database_pool_size
        )
        if self.settings.deck_seed is not None:
            log.warning(
                "DECK_SEED is set (%s): every shuffle is reproducible by anyone who knows it. "
                "Use it for tests only, never for real games.",
                self.settings.deck_seed,
            )
        self.languages = LanguagePreferences(self.storage)
        await self.languages.load()
        self._languages_task = asyncio.create_task(self.languages.keep_fresh(), name="languages")
        self.presenter = DiscordPresenter(
            self,
            self.storage,
            self.settings.next_deal_delay,
            self.settings.lobby_timeout,
            budget=self.budget,
        )
        # Ready before any table is served: the drawing process with its sprites, and the
        # evaluator's suit tables (~0.25 s of CPU; built by the first hand view instead,
        # they would stall every table's loop at once).
        await asyncio.gather(self.presenter.images.warm_up(), asyncio.to_thread(build_tables))
        self.tables = TableService(
            self.storage,
            self.presenter,
            ai_delay=self.settings.ai_delay,
            next_deal_delay=self.settings.next_deal_delay,
            lobby_timeout=self.settings.lobby_timeout,
            deck_seed=self.settings.deck_seed,
            owner=owner_name(self.settings),
            # None: this process drives every guild's tables (no shards given).
            owns_guild=self.settings.owns_guild if self.settings.shard_ids is not None else None,
            tournament_listener=self.presenter.tournaments,
            season_listener=SeasonPosts(self, self.budget),
        )
        self.tree.error(self.on_app_command_error)
        # Before the slices load and the tree syncs: commands carry their Hindi descriptions.
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.add_command(self.rummy)
        # The game's components, on any message old or new: every click reaches `clicks`.
        self.add_dynamic_items(GameButton, GameSelect)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        restored = await self.tables.recovery.restore()
        if restored:
            log.info("restored %d open table(s)", len(restored))
        if await self.tables.tournament_recovery.restore():
            log.info("restored open tournaments")
        await self.sync_commands()
        gc_tuning.freeze_startup()  # before any table is served: see `bot.gc_tuning`

    def _stop_on_sigterm(self) -> None:
        """`docker stop` and process managers send SIGTERM: close as on Ctrl-C, so timers stop
        and the table leases are handed back at once (a process of the same shards can take
        over without waiting for them to run out). Every game state is already saved."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(self.close()))

    async def _keep_heartbeat(self) -> None:
        """`bot.health`'s file: written from the event loop while connected, so a stuck loop
        or a lost login shows as a stale heartbeat."""
        while not self.is_closed():
            if self.is_ready():
                try:
                    await asyncio.to_thread(health.beat, self.heartbeat)
                except OSError:
                    log.warning("could not write the heartbeat %s", self.heartbeat, exc_info=True)
            await asyncio.sleep(health.INTERVAL)

    @property
    def ever_ready(self) -> bool:
        """Has this process been connected to Discord at least once? A failure before that is a
        start-up problem (bad token, no network); after it, a crash to be shown in full."""
        return self._resumed

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))
        with contextlib.suppress(OSError):  # at once, not INTERVAL seconds later
            health.beat(self.heartbeat)
        if not self._resumed:
            self._resumed = True
            try:  # results a crash kept from being posted (closed tables' outbox)
                await self.tables.recovery.deliver_pending()
            except Exception:
                log.exception("could not post pending announcements")
            for table in list(self.tables.registry.by_id.values()):
                try:
                    await self.tables.recovery.resume(table)
                except Exception:
                    log.exception("could not resume table %s", table.id)
            try:  # after the tables: a round whose last table finished may advance
                await self.tables.tournament_recovery.resume()
            except Exception:
                log.exception("could not resume tournaments")
            try:  # after the tables stored what they owed: those results count in their season
                await self.tables.seasons.start()
            except Exception:
                log.exception("could not start the seasons")

    async def sync_commands(self) -> None:
        """Sync to the dev guild on every start; globally only when the tree changed."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("synced commands to guild %s", guild.id)
            return
        # The payload as synced, localizations included: a changed translation is a change.
        translator = self.tree.translator
        payload = [
            await cmd.get_translated_payload(self.tree, translator)
            if translator is not None
            else cmd.to_dict(self.tree)
            for cmd in self.tree.get_commands()
        ]
        tree_digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        # The same data folder may serve another application (a test bot, a new token): a
        # marker written for one application says nothing about the other's commands.
        digest = f"{self.application_id}:{tree_digest}"
        marker = _sync_marker(self.settings.database_path)
        if marker.exists() and marker.read_text().strip() == digest:
            log.info("command tree unchanged since the last sync; not syncing")
            return
        await self.tree.sync()
        marker.write_text(digest)
        log.info("synced commands globally")

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A moderator closed a table's thread (archived and locked): the table moves on."""
        if after.archived and after.locked:
            await self._thread_closed(after.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._thread_closed(payload.thread_id)

    async def _thread_closed(self, thread_id: int) -> None:
        if not hasattr(self, "tables"):
            return  # still starting: restore finds out at its first request
        table = self.tables.registry.in_thread(thread_id)
        if table is not None:
            await self.presenter.thread_closed(table, thread_id)

    async def on_app_command_error(
        self, interaction: discord.Interaction[PapluBot], error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error, interaction.command)

    async def close(self) -> None:
        for task in (self._heartbeat_task, self._languages_task):
            if task is not None:
                task.cancel()
        with contextlib.suppress(OSError):
            health.clear(self.heartbeat)
        if hasattr(self, "tables"):
            await self.tables.shutdown()
        thinking.close()  # the AI's worker process, if one was started
        if hasattr(self, "presenter"):
            await self.presenter.shutdown()
        _stop_ready_wait(self._connection)
        await super().close()
        _stop_ready_wait(self._connection)  # a READY read while closing started another
        if hasattr(self, "storage"):
            await self.storage.close()


def _stop_ready_wait(state: Any) -> None:
    """Cancel discord.py's wait for the guilds after READY (about two seconds after connecting).
    Its `close()` leaves that task running, and it then dispatches `ready` on a client whose
    loop is gone: an AttributeError logged as "Task exception was never retrieved" and a
    "coroutine 'Client._run_event' was never awaited" warning, for a bot stopped within its
    first seconds (Ctrl-C at start, and many tests)."""
    tasks = [getattr(state, "_ready_task", None), *getattr(state, "_ready_tasks", {}).values()]
    for task in tasks:
        if task is not None:
            task.cancel()


class ShardedPapluBot(PapluBot, commands.AutoShardedBot):
    """The same bot over several gateway connections (`SHARD_COUNT`/`SHARD_IDS`): one
    process runs the shards it is given, and only their guilds' tables (see `owns_guild`)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        # AutoShardedClient reads these when it launches its shards; set here rather than
        # threaded through PapluBot's constructor so the unsharded bot stays exactly as it was.
        if settings.shard_count is None:
            raise ValueError("a sharded bot needs SHARD_COUNT")
        self.shard_count = settings.shard_count
        self.shard_ids = list(settings.shard_ids or ())


def owner_name(settings: Settings) -> str:
    """This process's name in the table leases: the host and its shards. Stable across
    restarts, so a restarted process (even after a crash) takes its own tables straight back;
    two processes with different shard sets never share it."""
    host = socket.gethostname()
    if settings.shard_count is None:
        return f"{host}:unsharded"
    ids = ",".join(str(i) for i in settings.shard_ids or ())
    return f"{host}:shards {ids} of {settings.shard_count}"


def make_bot(settings: Settings) -> PapluBot:
    """The plain bot, or the sharded one when `SHARD_COUNT` is set."""
    if settings.shard_count is None:
        return PapluBot(settings)
    return ShardedPapluBot(settings)


def _sync_marker(database_path: Path) -> Path:
    path = database_path.parent / ".command-sync"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


class StartupFailure(Exception):
    """The bot could not get connected to Discord; the message is one line for the operator."""


def run(
    settings: Settings, loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None
) -> int:
    """Run the bot until it is stopped; returns the process's exit code.

    0 after a clean stop (SIGTERM), 130 after Ctrl-C, 2 when it never got connected: a token
    Discord rejects, no network, Discord unreachable. Those print one line on stderr (what went
    wrong and what to check), not the library's traceback. A failure once the bot has been
    connected is a crash and propagates with its traceback. `loop_factory`: the event loop to
    run on (`bot.loops`, chosen by the entry point), None for asyncio's own."""
    logs.setup(settings.log_level, secrets=settings.log_secrets)  # plain text unless a terminal
    logging_filters.install()
    gc_tuning.tune()
    bot = make_bot(settings)
    if settings.shard_count is not None:
        log.info("running shards %s of %s", list(settings.shard_ids or ()), settings.shard_count)
    log.debug("event loop: %s", settings.event_loop)
    try:
        # asyncio.run with a chosen loop (Python 3.11's asyncio.run takes no loop_factory).
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(_run_until_closed(bot, settings.token))
    except KeyboardInterrupt:
        # asyncio.run cancelled the bot's task; `async with bot` closed it on the way out.
        print("stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except StartupFailure as exc:
        print(f"discord error: {exc}", file=sys.stderr)
        return 2
    return 0


#: What failing to reach Discord looks like: sockets (no network, refused, DNS), aiohttp,
#: time-outs, Discord's own server errors, no gateway.
_UNREACHABLE = (
    OSError,
    aiohttp.ClientError,
    asyncio.TimeoutError,
    discord.DiscordServerError,
    discord.GatewayNotFound,
)


async def _run_until_closed(bot: PapluBot, token: str) -> None:
    """`Client.start`, with the start-up failures turned into `StartupFailure`."""
    async with bot:
        try:
            await bot.login(token)
        except discord.LoginFailure:
            raise StartupFailure(
                "Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN in .env "
                "(Developer Portal > Bot > Reset Token)"
            ) from None
        except _UNREACHABLE as exc:
            if bot.user is not None:
                raise  # logged in: the failure is in our own set-up, shown in full
            raise StartupFailure(f"cannot reach Discord: {_reason(exc)}") from None
        try:
            await bot.connect(reconnect=True)
        except discord.PrivilegedIntentsRequired:
            raise StartupFailure("Discord refused the gateway intents this bot asks for") from None
        except (*_UNREACHABLE, discord.ConnectionClosed, AttributeError) as exc:
            # discord.py retries a lost connection by itself once it has one; a failure
            # before the first READY is a start-up problem. (Its retry of a first connection
            # that never opened fails on the missing websocket: hence AttributeError.)
            if bot.ever_ready:
                raise
            raise StartupFailure(f"cannot connect to the Discord gateway: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    """One line about a network failure (aiohttp's messages can run over several)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
