"""Card images on Discord: who wants them, drawing them off the event loop, attaching them.

The pictures themselves come from `bot.images` (Discord-free); this module is the glue the
presenter uses:

* `ImagePreferences`: images or text only. A server chooses the default in `/rummy settings`
  (`GuildSettings.card_images`); a player may choose for their own hand view with the toggle in
  it (`storage.preferences.set_card_images`), which wins over the server's default. Both are
  cached in memory: every refresh of every open hand asks, and storage's connections are
  shared with the game's writes.
* `ImageWorker`: one dedicated process that draws, over one socket the event loop reads
  and writes through its own transport. A hand takes ~2 ms and a table ~2 ms of CPU. On
  the event loop that would stall every other table's clicks; on a thread of this process
  it still competes through the GIL: a busy drawing thread can make the loop wait for the
  lock each time it comes back from a socket call. Under load the drawing thread was busier
  than the loop (profiled, `docs/scaling.md`). A separate process draws on the other core
  with no lock in common, and at a lower priority. The presenter lays a picture out (cheap,
  needs the game's objects) and sends only the plain `Picture` there. One worker, not a
  pool: a burst queues instead of taking both cores from the engine and storage. If the
  process dies, the next drawing starts a new one.
* `as_file` / `show_in`: an image as an upload, and an embed showing it (`attachment://`), so
  the text facts of the embed and the picture travel as one message.

The pictures' words come from `bot.words.pictures.captions(locale)` (the catalogue),
laid out into the `Picture` before it is sent here: the drawing process gets finished text.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import logging
import multiprocessing
import pickle
import socket
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.process import BaseProcess
from typing import cast

import discord

from bot.images import Picture, RenderedImage, draw, warm_up
from bot.images.worker import FRAME_HEADER, frame, serve
from bot.storage import Storage
from bot.workers import main_module_hidden

from .edits import Answer

log = logging.getLogger(__name__)

DRAWING_NICENESS = 10  # added to the drawing process's nice value (lower CPU priority)


class DrawingFailed(Exception):
    """The drawing process died (killed, out of memory) before it answered."""


class _Pipe(asyncio.Protocol):
    """The bot's end of the socket to one drawing process, as the event loop serves it.

    The loop's transport reads whatever bytes have arrived (the socket is non-blocking on
    every loop: asyncio's and uvloop's both make it so) and hands them here; an answer is
    settled only once its whole frame is in (`bot.images.worker.FRAME_HEADER`), so a large
    picture arriving in pieces costs a few small callbacks and never a wait. Writes go into
    the transport, which buffers what the socket does not take at once: nothing here ever
    blocks the loop. End of file or an error means the process is gone."""

    def __init__(self, worker: ImageWorker) -> None:
        self.worker = worker
        self.transport: asyncio.Transport | None = None
        self.lost = False
        self._buffer = bytearray()  # the part of a frame that has arrived
        self._need = FRAME_HEADER.size  # bytes the buffered frame needs before it is whole

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not subclasses of asyncio's, only alike: no isinstance.
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        if buffer:
            buffer += data
            if len(buffer) < self._need:
                return  # a frame still arriving: nothing to do until all of it is in
            data = bytes(buffer)
            buffer.clear()
        view = memoryview(data)
        header = FRAME_HEADER.size
        at = 0
        while len(data) - at >= header:
            (size,) = FRAME_HEADER.unpack_from(data, at)
            end = at + header + size
            if end > len(data):
                self._need = end - at
                break
            self.worker._answered(self, view[at + header : end])
            at = end
        else:
            self._need = header
        if at < len(data):
            buffer += view[at:]  # the start of a frame still arriving

    def eof_received(self) -> bool:
        return False  # close the transport: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.worker._died(self)

    def send(self, payload: bytes) -> bool:
        """Queue one frame for the process; False if the pipe is already closing."""
        if self.transport is None or self.transport.is_closing():
            return False
        self.transport.write(frame(payload))
        return True

    def close(self) -> None:
        if self.transport is not None:
            with contextlib.suppress(RuntimeError):  # its loop already closed
                self.transport.abort()


class ImageWorker:
    """Draws pictures in its own process; `run` awaits one drawing without blocking the loop.

    The process is spoken to over one socket, through the running loop's own transport
    (`_Pipe`): a request is one frame written, an answer one frame read, on asyncio's loop
    or uvloop alike, and no thread of this process takes part. At most `IN_FLIGHT` requests
    are in the pipe at once, so urgent requests can overtake a burst that waits here, in
    memory. `thread=True` draws on a thread of this process instead (tests that swap the
    drawing function for one that is not importable by a child). `serve` is what the
    process runs (tests give one that answers in pieces, or dies)."""

    #: Requests written to the pipe and not yet answered, at most.
    IN_FLIGHT = 4

    def __init__(
        self, thread: bool = False, *, serve: Callable[[socket.socket, int], None] = serve
    ) -> None:
        self._thread = thread
        self._serve = serve
        self._pool: ThreadPoolExecutor | None = None
        self._process: BaseProcess | None = None
        #: Our end of the socket, until a loop's transport takes it over (`_connect`).
        self._sock: socket.socket | None = None
        self._pipe: _Pipe | None = None
        self._connecting: asyncio.Task[None] | None = None
        #: The loop whose transport holds the socket (a transport cannot change loops).
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sent: dict[int, asyncio.Future[RenderedImage | None]] = {}
        self._waiting: deque[tuple[int, Picture | None]] = deque()
        self._urgent: deque[tuple[int, Picture | None]] = deque()  # served first
        self._jobs = itertools.count()
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
        mine, theirs = socket.socketpair()
        process = ctx.Process(
            target=self._serve, args=(theirs, DRAWING_NICENESS), name="paplu-images", daemon=True
        )
        try:
            with main_module_hidden():
                process.start()
        finally:
            theirs.close()  # the child has its own copy: its exit is our end of file
        self._process, self._sock = process, mine

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
        job = next(self._jobs)
        future: asyncio.Future[RenderedImage | None] = loop.create_future()
        self._sent[job] = future
        (self._urgent if urgent else self._waiting).append((job, picture))
        try:
            await self._connected(loop)
            self._send_waiting()
            return await future
        finally:
            if not future.done():  # cancelled while connecting: the request is dropped
                future.cancel()

    async def _connected(self, loop: asyncio.AbstractEventLoop) -> None:
        """Until this loop's transport holds the socket to a live process (started here if
        there is none). Callers arriving while one connects wait for that one."""
        while self._pipe is None or self._loop is not loop:
            if self._connecting is not None and self._loop is loop:
                await asyncio.shield(self._connecting)
                continue
            if self._loop is not None and self._loop is not loop:
                self._close()  # another loop's transport: its socket cannot move here
            if self._sock is None:
                self._start()
            self._loop = loop
            self._connecting = loop.create_task(self._connect(loop))

    async def _connect(self, loop: asyncio.AbstractEventLoop) -> None:
        sock, self._sock = self._sock, None
        assert sock is not None
        try:
            _, pipe = await loop.create_unix_connection(lambda: _Pipe(self), sock=sock)
        except OSError as exc:
            sock.close()
            self._close()
            self._fail_all()
            raise DrawingFailed() from exc
        finally:
            self._connecting = None
        self._pipe = pipe
        if pipe.lost:  # the process was gone before the transport was ours
            self._died(pipe)

    def _send_waiting(self) -> None:
        """Write waiting requests, urgent ones first, while fewer than `IN_FLIGHT` are
        unanswered."""
        pipe = self._pipe
        in_pipe = len(self._sent) - len(self._waiting) - len(self._urgent)
        while in_pipe < self.IN_FLIGHT and pipe is not None:
            queue = self._urgent or self._waiting
            if not queue:
                return
            job, picture = queue.popleft()
            if self._sent[job].done():  # its caller gave up (cancelled)
                del self._sent[job]
                continue
            if not pipe.send(pickle.dumps((job, picture), pickle.HIGHEST_PROTOCOL)):
                queue.appendleft((job, picture))
                self._died(pipe)
                return
            in_pipe += 1

    def _answered(self, pipe: _Pipe, payload: memoryview) -> None:
        """One whole answer arrived: settle its request, and send the next one."""
        if pipe is not self._pipe:
            return  # a replaced process's last words
        try:
            job, ok, value = pickle.loads(payload)
        except Exception:  # a garbled frame: nothing more from this process can be trusted
            log.exception("the image drawing process sent an unreadable answer")
            self._died(pipe)
            return
        future = self._sent.pop(job, None)
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._send_waiting()

    def _died(self, pipe: _Pipe) -> None:
        """The process is gone: every request it held or would have got fails, so that each
        caller starts a new process and tries once more."""
        if pipe is not self._pipe:
            return  # already replaced (or closed on purpose)
        self._close()
        self._fail_all()

    def _fail_all(self) -> None:
        sent, self._sent = self._sent, {}
        self._waiting.clear()
        self._urgent.clear()
        for future in sent.values():
            if not future.done():
                future.set_exception(DrawingFailed())

    def _close(self) -> None:
        pipe, self._pipe = self._pipe, None  # first: its connection_lost is then stale
        if pipe is not None:
            pipe.close()
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._loop = None
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join(timeout=0)  # reaped later if it is still stopping
            self._process = None

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self._connecting is not None:
            self._connecting.cancel()
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


def attachment_named(message: Answer | None, filename: str) -> discord.Attachment | None:
    """The attachment of `message` (Discord's answer to the post or edit that put it there; an
    edit's is left unparsed, `edits.Edited`) that carries the file `filename`: what a later
    edit of that same message names in its `attachments` to keep the picture (an edit that
    names none leaves Discord to guess from an embed that still says attachment://, which may
    show the picture a second time)."""
    if message is None:
        return None
    return next((a for a in message.attachments if a.filename == filename), None)
