"""Card images on Discord: who wants them, drawing them off the event loop, attaching them.

The pictures themselves come from `bot.images` (Discord-free); this module is the glue the
presenter uses:

* `ImagePreferences`: images or text only. A server chooses the default in `/rummy settings`
  (`GuildSettings.card_images`); a player may choose for their own hand view with the toggle in
  it (`storage.preferences.set_card_images`), which wins over the server's default. Both are
  cached in memory: every refresh of every open hand asks, and storage's connections are
  shared with the game's writes.
* `ImageWorker`: one dedicated process that draws, over one pipe the loop watches. A hand
  takes ~5-10 ms and a table ~10-20 ms of CPU. On the event loop that would stall every
  other table's clicks; on a thread of this process it still competes through the GIL: a
  busy drawing thread can make the loop wait for the lock each time it comes back from a
  socket call. Under load the drawing thread was busier than the loop (profiled,
  `docs/scaling.md`). A separate process draws on the other core with no lock in common,
  and at a lower priority. The presenter lays a picture out (cheap, needs the game's
  objects) and sends only the plain `Picture` there. One worker, not a pool: a burst queues
  instead of taking both cores from the engine and storage. If the process dies, the next
  drawing starts a new one.
* `as_file` / `show_in`: an image as an upload, and an embed showing it (`attachment://`), so
  the text facts of the embed and the picture travel as one message.

The pictures' words come from `bot.words.pictures.captions(locale)` (the catalogue),
laid out into the `Picture` before it is sent here: the drawing process gets finished text.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import multiprocessing
import pickle
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

import discord

from bot.images import Picture, RenderedImage, draw, warm_up
from bot.images.worker import serve
from bot.storage import Storage
from bot.workers import main_module_hidden

log = logging.getLogger(__name__)

DRAWING_NICENESS = 10  # added to the drawing process's nice value (lower CPU priority)


class DrawingFailed(Exception):
    """The drawing process died (killed, out of memory) before it answered."""


class ImageWorker:
    """Draws pictures in its own process; `run` awaits one drawing without blocking the loop.

    The process is spoken to over one pipe that the event loop watches (`add_reader`): a
    request is one small write, an answer one read in a reader callback, and no thread of
    this process takes part. At most `IN_FLIGHT` requests are in the pipe at once, so a
    burst waits here, in memory, instead of filling the pipe and blocking the loop on a
    write. `thread=True` draws on a thread of this process instead (tests that swap the
    drawing function for one that is not importable by a child)."""

    #: Requests written to the pipe and not yet answered, at most (each is a few KiB: the
    #: pipe's buffer holds many more, so a write never waits for the drawing process).
    IN_FLIGHT = 4

    def __init__(self, thread: bool = False) -> None:
        self._thread = thread
        self._pool: ThreadPoolExecutor | None = None
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._sent: dict[int, asyncio.Future[RenderedImage | None]] = {}
        self._waiting: deque[tuple[int, Picture | None]] = deque()
        self._urgent: deque[tuple[int, Picture | None]] = deque()  # served first
        self._jobs = itertools.count()
        #: The loop watching the pipe (None: not yet: the first request starts watching).
        self._watching: asyncio.AbstractEventLoop | None = None
        if thread:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paplu-images")
        else:
            self._start()

    def _start(self) -> None:
        # spawn, not fork: this process has threads (storage, the loop's executor), and a
        # forked child would inherit their locks in whatever state they were. The lower
        # priority: when both cores are busy, pictures come a little later rather than every
        # click's acknowledgement. The main module hidden: a spawned child otherwise imports
        # the program's main module again (all of discord.py and storage, ~60 MiB, and
        # whatever it runs at import). Drawing needs only `bot.images`.
        ctx = multiprocessing.get_context("spawn")
        mine, theirs = ctx.Pipe(duplex=True)
        process = ctx.Process(
            target=serve, args=(theirs, DRAWING_NICENESS), name="paplu-images", daemon=True
        )
        with main_module_hidden():
            process.start()
        theirs.close()
        self._process, self._conn = process, mine
        self._watching = None

    @property
    def pid(self) -> int | None:
        """The drawing process's id (None in thread mode)."""
        return None if self._process is None else self._process.pid

    async def warm_up(self) -> None:
        """Start the drawing process and draw every card sprite there (~0.5-1 s of CPU), so
        the first hand view of the day is not the slow one. The bot awaits this before it
        connects; a failure is logged and drawing is simply tried again when needed."""
        try:
            if self._pool is not None:
                await asyncio.get_running_loop().run_in_executor(self._pool, warm_up)
            else:
                await self._request(None)
        except Exception:
            log.exception("warming up the card images failed")

    async def run(self, picture: Picture, *, urgent: bool = False) -> RenderedImage:
        """Paint and encode `picture`. A drawing process that died (killed, out of memory) is
        replaced and the drawing tried once more there. `urgent`: served before every waiting
        non-urgent request (a table edit that holds a slot of the rate budget while its
        picture is drawn: behind a queue of hand pictures the slot would sit unused)."""
        if self._pool is not None:
            return await asyncio.get_running_loop().run_in_executor(self._pool, draw, picture)
        try:
            image = await self._request(picture, urgent)
        except DrawingFailed:
            log.warning("the image drawing process died; starting a new one")
            image = await self._request(picture, urgent)  # a request starts a process if none
        assert image is not None
        return image

    async def _request(self, picture: Picture | None, urgent: bool = False) -> RenderedImage | None:
        loop = asyncio.get_running_loop()
        if self._conn is None:
            self._start()
        if self._watching is None:
            assert self._conn is not None
            loop.add_reader(self._conn.fileno(), self._answered)
            self._watching = loop
        job = next(self._jobs)
        future: asyncio.Future[RenderedImage | None] = loop.create_future()
        self._sent[job] = future
        (self._urgent if urgent else self._waiting).append((job, picture))
        self._send_waiting()
        return await future

    def _send_waiting(self) -> None:
        """Write waiting requests, urgent ones first, while fewer than `IN_FLIGHT` are
        unanswered."""
        in_pipe = len(self._sent) - len(self._waiting) - len(self._urgent)
        while in_pipe < self.IN_FLIGHT and self._conn is not None:
            queue = self._urgent or self._waiting
            if not queue:
                return
            job, picture = queue.popleft()
            if self._sent[job].done():  # its caller gave up (cancelled)
                del self._sent[job]
                continue
            try:
                self._conn.send_bytes(pickle.dumps((job, picture), pickle.HIGHEST_PROTOCOL))
            except OSError:
                queue.appendleft((job, picture))
                self._died()
                return
            in_pipe += 1

    def _answered(self) -> None:
        """The pipe has an answer (or the process is gone): settle its request."""
        assert self._conn is not None
        try:
            job, ok, value = pickle.loads(self._conn.recv_bytes())
        except (EOFError, OSError):
            self._died()
            return
        future = self._sent.pop(job, None)
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._send_waiting()

    def _died(self) -> None:
        """The process is gone: every request it held or would have got fails, so that each
        caller starts a new process and tries once more."""
        self._close()
        sent, self._sent = self._sent, {}
        self._waiting.clear()
        self._urgent.clear()
        for future in sent.values():
            if not future.done():
                future.set_exception(DrawingFailed())

    def _close(self) -> None:
        if self._conn is not None:
            if self._watching is not None and not self._watching.is_closed():
                self._watching.remove_reader(self._conn.fileno())
            self._conn.close()
            self._conn = None
        self._watching = None
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join(timeout=0)  # reaped later if it is still stopping
            self._process = None

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._close()
        for future in self._sent.values():
            future.cancel()
        self._sent.clear()
        self._waiting.clear()
        self._urgent.clear()


class ImagePreferences:
    """Images or text only, per server (the default) and per player (their own choice)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._servers: dict[int, bool] = {}
        self._users: dict[int, bool | None] = {}

    async def server_default(self, guild_id: int) -> bool:
        """Whether this server's public game messages carry images."""
        on = self._servers.get(guild_id)
        if on is None:
            on = (await self.storage.settings.get_settings(guild_id)).card_images
            self._servers[guild_id] = on
        return on

    async def for_user(self, guild_id: int, user_id: int) -> bool:
        """Whether this player's own hand view carries an image: their choice, else the
        server's default."""
        if user_id in self._users:
            choice = self._users[user_id]
        else:
            choice = await self.storage.preferences.get_card_images(user_id)
            self._users[user_id] = choice
        return await self.server_default(guild_id) if choice is None else choice

    async def set_user(self, user_id: int, on: bool) -> None:
        """Remember a player's choice (in storage first: a failed write changes nothing)."""
        await self.storage.preferences.set_card_images(user_id, on)
        self._users[user_id] = on

    def server_changed(self, guild_id: int, on: bool) -> None:
        """`/rummy settings` changed the server's default (already stored)."""
        self._servers[guild_id] = on


def as_file(image: RenderedImage, description: str) -> discord.File:
    """A fresh upload of `image` (a `discord.File` is consumed by the request that sends it).
    `description` is the alt text screen readers announce."""
    return discord.File(io.BytesIO(image.data), filename=image.filename, description=description)


def show_in(embed: discord.Embed, filename: str) -> None:
    """Make `embed` show the attachment `filename` of its own message as its big image."""
    embed.set_image(url=f"attachment://{filename}")
