"""Card images on Discord: who wants them, drawing them off the event loop, attaching them.

The pictures themselves come from `bot.images` (Discord-free); this module is the glue the
presenter uses:

* `ImagePreferences`: images or text only. A server chooses the default in `/rummy settings`
  (`GuildSettings.card_images`); a player may choose for their own hand view with the toggle in
  it (`Storage.set_card_images`), which wins over the server's default. Both are cached in
  memory: every refresh of every open hand asks, and storage is one worker thread shared with
  the game's writes.
* `ImageWorker`: one dedicated thread that draws. A hand takes ~7-15 ms and a table ~10-25 ms
  of CPU, long enough to stall every other table's clicks if drawn on the event loop. One
  thread, not `asyncio.to_thread`'s shared pool: drawing is CPU-bound under the GIL (a second
  drawing thread would not finish sooner), the sprite and font caches are then only ever used
  from one thread, and a burst of refreshes queues instead of taking both cores from the
  engine and storage.
* `as_file` / `show_in`: an image as an upload, and an embed showing it (`attachment://`), so
  the text facts of the embed and the picture travel as one message.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec

import discord

from bot.images import RenderedImage, warm_up
from bot.storage import Storage

log = logging.getLogger(__name__)

P = ParamSpec("P")


class ImageWorker:
    """Draws images on its own thread; `run` awaits one drawing without blocking the loop."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paplu-images")
        self._warm: asyncio.Future[None] | None = None
        self._queued = 0

    @property
    def busy(self) -> bool:
        """Whether a drawing would have to wait for others (or for the warm-up) first."""
        return self._queued > 0 or (self._warm is not None and not self._warm.done())

    def start_warm_up(self) -> None:
        """Draw every card sprite now (~0.5-1 s of CPU), off the loop, so the first hand view
        of the day is not the slow one. Drawings queued meanwhile simply wait for it."""
        if self._warm is None:
            self._warm = asyncio.get_running_loop().run_in_executor(self._pool, warm_up)
            self._warm.add_done_callback(_log_failure)

    async def run(
        self, draw: Callable[P, RenderedImage], *args: P.args, **kwargs: P.kwargs
    ) -> RenderedImage:
        loop = asyncio.get_running_loop()
        self._queued += 1
        try:
            return await loop.run_in_executor(self._pool, functools.partial(draw, *args, **kwargs))
        finally:
            self._queued -= 1

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("warming up the card images failed", exc_info=future.exception())


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
            on = (await self.storage.get_settings(guild_id)).card_images
            self._servers[guild_id] = on
        return on

    async def for_user(self, guild_id: int, user_id: int) -> bool:
        """Whether this player's own hand view carries an image: their choice, else the
        server's default."""
        if user_id in self._users:
            choice = self._users[user_id]
        else:
            choice = await self.storage.get_card_images(user_id)
            self._users[user_id] = choice
        return await self.server_default(guild_id) if choice is None else choice

    async def set_user(self, user_id: int, on: bool) -> None:
        """Remember a player's choice (in storage first: a failed write changes nothing)."""
        await self.storage.set_card_images(user_id, on)
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
