"""Where a table's messages live: its own thread, or the channel; and the lobby message.

A table opens in its channel (the lobby message is the `/rummy new` answer). When its match
starts, it is placed once (`home`): unless the server chose the channel, the channel cannot
hold threads, or the bot lacks Create Public Threads or Send Messages in Threads (then one line
in the channel says why), a public thread is started from the lobby message. The choice is
stored at once (`bot.table.messages.remember_messages`), so a restart goes on in the same
thread and never opens a second one. A thread archived mid-match is reopened (`failed`: an
edit there is refused until it is); one that cannot be had any more (locked, deleted) leaves
the table to its channel, with a line saying so.

The lobby message stays in the channel while the table plays elsewhere, showing who plays,
where, and the standings (`show_lobby`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol

import discord

from bot.storage import Storage, StorageError
from bot.table.listener import CloseReason
from bot.table.messages import remember_messages
from bot.table.model import Table, standings

from .budget import HEADROOM, RestBudget
from .screens.controls import empty_view
from .screens.place import PERMISSION_NAMES, fallback_line, placed_embed, thread_name
from .screens.results import standings_lines

if TYPE_CHECKING:
    from .client import PapluBot

log = logging.getLogger(__name__)

URGENT = 0.85  # the part of the share pings, deletions and results may use (edits: less)
#: A table's thread archives after this many minutes without a message (Discord's choices:
#: 60, 1440, 4320, 10080); a turn ping is a message, so only a table left alone that long.
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
ARCHIVED = 50083  # Discord: the operation cannot be performed on an archived thread
ALREADY_THREADED = 160004  # Discord: a thread has already been created for this message
#: Discord's codes for "this thread is no more for you": unknown channel, missing access,
#: missing permissions (a locked thread, a moderator's change).
THREAD_GONE = (10003, 50001, 50013)


class TournamentStarters(Protocol):
    """A tournament's tables have no lobby message: the tournament side posts the message
    each one's thread opens from, and the thread's first message (`tournament_board`)."""

    async def starter(self, table: Table) -> tuple[int, str] | None: ...
    async def welcome(self, table: Table, thread: discord.PartialMessageable) -> None: ...


class Placement:
    def __init__(self, client: PapluBot | discord.Client, storage: Storage, budget: RestBudget):
        self.client = client
        self.storage = storage
        self.budget = budget
        self._placing: dict[str, asyncio.Lock] = {}  # a table being given its thread
        #: One thread start in flight per channel (`_open_thread`).
        self._starting: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        #: Set by the presenter: the tournament side's messages for its tables.
        self.tournaments: TournamentStarters | None = None

    async def home(self, table: Table) -> discord.PartialMessageable:
        """Where the table's messages go. A table that has just started is placed first (once:
        its own thread, or the channel, with a line saying why)."""
        if table.lobby_message_id is None and table.match is not None:
            async with self._placing.setdefault(table.id, asyncio.Lock()):
                if table.lobby_message_id is None:
                    await self._place(table)
        return self.channel(table)

    def channel(self, table: Table) -> discord.PartialMessageable:
        """Where the table's messages are: its thread, or its channel."""
        if table.thread_id is not None:
            return self.client.get_partial_messageable(
                table.thread_id, guild_id=table.guild_id, type=discord.ChannelType.public_thread
            )
        return self.lobby_channel(table)

    def lobby_channel(self, table: Table) -> discord.PartialMessageable:
        """The channel the table was opened in (its lobby message is there)."""
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def send(
        self, table: Table, *, still: Callable[[], bool] = lambda: True, **kwargs: Any
    ) -> discord.Message | None:
        """A message without files to the table's home (again once if its thread refused).
        `still` is asked once the request may go (the channel's share of the budget can keep
        it waiting): a message that no longer says anything true (a ping for a turn that has
        passed) is not sent then, and None is returned."""
        await self.home(table)
        await self.budget.slot(URGENT, "POST", table.home_id)
        if not still():
            self.budget.give_back("POST", table.home_id)
            return None
        try:
            return await self.channel(table).send(**kwargs)
        except discord.HTTPException as exc:
            if not await self.failed(table, exc):
                raise
        await self.budget.slot(URGENT, "POST", table.home_id)
        return await self.channel(table).send(**kwargs)

    async def say(self, table: Table, line: str) -> None:
        """One line in the table's channel (why it plays there)."""
        await self.budget.slot(URGENT, "POST", table.channel_id)
        try:
            await self.lobby_channel(table).send(line)
        except discord.HTTPException:
            log.warning("could not say where table %s plays", table.id)

    async def failed(self, table: Table, exc: discord.HTTPException) -> bool:
        """The table's thread refused a request: unarchive it (Discord refuses edits in an
        archived thread), or, if it cannot be had any more (locked, deleted, no access), move
        the table to its channel with a line saying why. True: send again (now it may)."""
        if table.thread_id is None:
            return False
        if exc.code == ARCHIVED and await self._unarchive(table, table.thread_id):
            return True
        if exc.code != ARCHIVED and exc.code not in THREAD_GONE:
            return False
        log.warning("table %s leaves its thread %s: %s", table.id, table.thread_id, exc)
        await self._to_channel(table)
        return True

    async def left_thread(self, table: Table, thread_id: int) -> bool:
        """Discord says a table's thread was locked and archived by a moderator, or deleted:
        the table moves to its channel now (True), instead of at its next refused request,
        which might be a whole turn timer away while the player waits in a thread nobody can
        write in. False: not this table's thread, or the table is closed."""
        if table.thread_id != thread_id or not table.status.open:
            return False
        log.warning("table %s leaves its thread %s: closed by a moderator", table.id, thread_id)
        await self._to_channel(table)
        return True

    async def show_lobby(self, table: Table, final: CloseReason | None = None) -> None:
        """The lobby message in the channel, when the table plays elsewhere (its thread, or a
        newer message below): who plays, where, the standings (at the end, the final ones)."""
        lobby = table.lobby_message_id
        if not lobby or lobby == table.message_id or table.tournament is not None:
            return  # (a tournament's round message shows its tables' standings)
        m = table.match
        language = table.options.language
        lines = (
            standings_lines(standings(m), m.score_kind, language)
            if m is not None and m.results
            else []
        )
        state = (
            "playing"
            if final is None
            else final.value
            if final is CloseReason.FINISHED
            else "cancelled"
        )
        embed = placed_embed(table.names, table.thread_id, lines, state, table.id, language)
        await self.budget.slot(HEADROOM, "PATCH", table.channel_id)
        try:
            await (
                self.lobby_channel(table)
                .get_partial_message(lobby)
                .edit(embed=embed, view=empty_view())
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of table %s", table.id)

    def forget(self, table_id: str) -> None:
        self._placing.pop(table_id, None)

    # ---- the thread ----------------------------------------------------------------------

    async def _place(self, table: Table) -> None:
        """Open the table's thread from its lobby message, or keep it in the channel: the
        server chose so, the bot lacks a thread permission, or Discord refused. Stored at
        once (with the thread), so a restart never opens a second thread."""
        lobby, name = table.message_id, None
        if lobby is None and table.tournament is not None and self.tournaments is not None:
            started = await self.tournaments.starter(table)
            if started is not None:
                lobby, name = started
                await remember_messages(self.storage, table, message_id=lobby)
        reason, missing = await self._thread_refusal(table)
        if reason is None and lobby is not None:
            thread_id = await self._open_thread(table, lobby, name)
            if thread_id is not None:
                # The lobby message stays in the channel; the table is posted in the thread.
                await remember_messages(self.storage, table, thread_id=thread_id, lobby_id=lobby)
                await self.show_lobby(table)
                if self.tournaments is not None and table.tournament is not None:
                    await self.tournaments.welcome(table, self.channel(table))
                return
            reason = "refused"
        # One message in the channel serves as lobby and table (0: there is none).
        await remember_messages(self.storage, table, lobby_id=lobby or 0)
        if reason not in (None, "off"):
            await self.say(table, fallback_line(reason, missing, table.options.language))

    async def _thread_refusal(self, table: Table) -> tuple[str | None, list[str]]:
        """Why this table cannot have a thread: ("off", []) the server chose the channel (or
        the channel cannot hold threads), ("permissions", names) the bot lacks them; (None,
        []) it can."""
        try:
            threads = (await self.storage.settings.get_settings(table.guild_id)).table_threads
        except StorageError:
            threads = True  # the default
        guild = self.client.get_guild(table.guild_id)
        channel = guild.get_channel(table.channel_id) if guild is not None else None
        if not threads or guild is None or not isinstance(channel, discord.TextChannel):
            return "off", []
        perms = channel.permissions_for(guild.me)
        missing = [name for flag, name in PERMISSION_NAMES.items() if not getattr(perms, flag)]
        return ("permissions", missing) if missing else (None, [])

    async def _open_thread(self, table: Table, lobby: int, name: str | None = None) -> int | None:
        """Start the public thread from the lobby message; its id (None: refused)."""
        name = name or thread_name(table.host_name, table.rules.name, table.options.language)
        # Starting threads has its own small bucket per channel (a tournament's round starts
        # ten at once). discord.py waits out a bucket it knows is empty, but learns that only
        # from an answer: two starts in flight together could both be sent into the last
        # place. One at a time per channel, each sent knowing what the last answer said.
        lock = self._starting.get(table.channel_id)
        if lock is None:
            lock = self._starting[table.channel_id] = asyncio.Lock()
        try:
            async with lock:
                await self.budget.slot(URGENT, "POST", table.channel_id)
                message = self.lobby_channel(table).get_partial_message(lobby)
                thread = await message.create_thread(
                    name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
        except discord.HTTPException as exc:
            if exc.code == ALREADY_THREADED:
                return lobby  # a run that stopped opened it: a thread has its message's id
            log.warning("could not open a thread for table %s: %s", table.id, exc)
            return None
        return thread.id

    async def _to_channel(self, table: Table) -> None:
        """The table leaves its thread for its channel (its message is posted again there)."""
        await remember_messages(self.storage, table, thread_id=None)
        await self.say(table, fallback_line("closed", locale=table.options.language))

    async def _unarchive(self, table: Table, thread_id: int) -> bool:
        guild = self.client.get_guild(table.guild_id)
        try:
            thread = guild.get_thread(thread_id) if guild is not None else None
            if thread is None:
                await self.budget.slot(URGENT, "GET", thread_id)
                fetched = await self.client.fetch_channel(thread_id)
                if not isinstance(fetched, discord.Thread):
                    return False
                thread = fetched
            if thread.locked:
                return False  # only a moderator may reopen it
            await self.budget.slot(URGENT, "PATCH", thread_id)
            await thread.edit(archived=False)
        except discord.HTTPException as exc:
            log.warning("could not unarchive the thread of table %s: %s", table.id, exc)
            return False
        return True
