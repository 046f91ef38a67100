"""Card images on Discord: who wants them, drawing them off the event loop, attaching them.

The pictures themselves come from `bot.images` (Discord-free); this module is the glue the
presenter uses:

* `ImagePreferences`: images or text only. A server chooses the default in `/rummy settings`
  (`GuildSettings.card_images`); a player may choose for their own hand view with the toggle in
  it (`storage.preferences.set_card_images`), which wins over the server's default. Both are
  cached in memory: every refresh of every open hand asks, and storage's connections are
  shared with the game's writes.
* `ImageWorker`: one dedicated process that draws. A hand takes ~5-10 ms and a table ~10-20 ms
  of CPU. On the event loop that would stall every other table's clicks; on a thread of this
  process it still competes through the GIL: a busy drawing thread can make the loop wait
  for the lock each time it comes back from a socket call. Under load the drawing thread was
  busier than the loop (profiled, `docs/scaling.md`). A separate process draws on the other
  core with no lock in common, and at a lower priority. The presenter lays a picture out
  (cheap, needs the game's objects) and sends only the plain `Picture` there. One worker,
  not a pool: a burst queues instead of taking both cores from the engine and storage. If
  the process dies, the next drawing starts a new one.
* `as_file` / `show_in`: an image as an upload, and an embed showing it (`attachment://`), so
  the text facts of the embed and the picture travel as one message.

The pictures' words come from `bot.discord_ui.pictures.captions(locale)` (the catalogue),
laid out into the `Picture` before it is sent here: the drawing process gets finished text.
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import discord

from bot.images import Picture, RenderedImage, draw, warm_up
from bot.images.worker import start_drawing_process
from bot.storage import Storage
from bot.workers import main_module_hidden

log = logging.getLogger(__name__)

DRAWING_NICENESS = 10  # added to the drawing process's nice value (lower CPU priority)


class ImageWorker:
    """Draws pictures in its own process; `run` awaits one drawing without blocking the loop.

    `thread=True` draws on a thread of this process instead (tests that swap the drawing
    function for one that is not importable by a child)."""

    def __init__(self, thread: bool = False) -> None:
        self._thread = thread
        self._pool = self._new_pool()

    def _new_pool(self) -> Executor:
        if self._thread:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="paplu-images")
        # spawn, not fork: this process has threads (storage, the loop's executor), and a
        # forked child would inherit their locks in whatever state they were. The lower
        # priority: when both cores are busy, pictures come a little later rather than every
        # click's acknowledgement.
        pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_drawing_process,
            initargs=(DRAWING_NICENESS,),
        )
        # Start the process now, with the main module hidden: a spawned child otherwise
        # imports the program's main module again (all of discord.py and storage, ~60 MiB,
        # and whatever it runs at import). Drawing needs only `bot.images`.
        with main_module_hidden():
            pool.submit(os.getpid)
        return pool

    async def warm_up(self) -> None:
        """Start the drawing process and draw every card sprite there (~0.5-1 s of CPU), so
        the first hand view of the day is not the slow one. The bot awaits this before it
        connects; a failure is logged and drawing is simply tried again when needed."""
        try:
            await asyncio.get_running_loop().run_in_executor(self._pool, warm_up)
        except Exception:
            log.exception("warming up the card images failed")

    async def run(self, picture: Picture) -> RenderedImage:
        """Paint and encode `picture`. A drawing process that died (killed, out of memory) is
        replaced and the drawing tried once more there."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, draw, picture)
        except BrokenProcessPool:
            log.warning("the image drawing process died; starting a new one")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, draw, picture)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


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
