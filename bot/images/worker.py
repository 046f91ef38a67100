"""What runs inside a drawing process (see `bot.discord_ui.card_images.ImageWorker`).

A drawing process must not outlive the bot: if the bot is killed (SIGKILL, out of memory) it
cannot stop it, and a worker blocked on its socket may never notice (a half-open socket
stays open while a spawned grandchild holds it). So each worker watches its parent and exits
when the parent is gone.

The wire (`FRAME_HEADER`): every request and every answer is one *frame*, an 8-byte
big-endian length and that many bytes of pickle. The bot reads its end through its event
loop's own transport, which hands over whatever bytes have arrived: a frame is settled only
once all of it is there, so a picture that arrives in pieces is simply waited for, on any
loop (uvloop makes the socket non-blocking; the loop never blocks on it). This side is a
plain blocking socket: the process does one thing at a time, and waiting is all it does
between pictures.
"""

from __future__ import annotations

import os
import pickle
import signal
import socket
import struct
from typing import Protocol

from bot.workers import leave_with_parent

#: A frame's length, before its bytes (unsigned, 8 bytes, network order).
FRAME_HEADER = struct.Struct("!Q")


class FrameSocket(Protocol):
    """What `serve` uses of its socket (a test may wrap one to write in pieces)."""

    def recv_into(self, buffer: memoryview, nbytes: int = ..., /) -> int: ...

    def sendall(self, data: bytes, /) -> None: ...


def frame(payload: bytes) -> bytes:
    """`payload` with its length in front, as one write."""
    return FRAME_HEADER.pack(len(payload)) + payload


def read_exactly(sock: FrameSocket, size: int) -> bytes | None:
    """`size` bytes from a blocking socket, or None once the other end has closed."""
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        n = sock.recv_into(view[got:], size - got)
        if n == 0:
            return None
        got += n
    return bytes(buffer)


def read_frame(sock: FrameSocket) -> bytes | None:
    """One whole frame's payload, or None once the other end has closed."""
    header = read_exactly(sock, FRAME_HEADER.size)
    if header is None:
        return None
    (size,) = FRAME_HEADER.unpack(header)
    return read_exactly(sock, size)


def start_drawing_process(niceness: int) -> None:
    """Lower this process's CPU priority (pictures may wait; the bot's clicks may not) and
    leave as soon as the parent process dies.

    Ctrl-C in a terminal interrupts the whole process group: the drawing process ignores it
    (it would die printing a traceback), and the bot stops it as it closes, or it leaves when
    the bot is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(niceness)
    leave_with_parent()


def serve(sock: socket.socket, niceness: int) -> None:
    """The drawing process's whole life (see `answer_requests`)."""
    start_drawing_process(niceness)
    sock.setblocking(True)
    answer_requests(sock)


def answer_requests(sock: FrameSocket) -> None:
    """Read a request, answer it, until the bot hangs up.

    A request is `(job, picture)` pickled, `picture` None for the warm-up; the answer is
    `(job, True, RenderedImage | None)` or `(job, False, error)`. One socket and no threads
    in the bot: a `ProcessPoolExecutor` wakes a manager thread with a pipe write per job and
    hands each result through that thread, which cost the bot's loop 5-9x more CPU per
    picture than one read (`benchmarks/bench_images.py --handoff`)."""
    from bot.images import draw, warm_up  # the package imports this module: not at the top

    while True:
        try:
            request = read_frame(sock)
        except OSError:
            return
        if request is None:
            return  # the bot closed its end (or is gone)
        job, picture = pickle.loads(request)
        try:
            if picture is None:
                warm_up()
                answer: tuple[int, bool, object] = (job, True, None)
            else:
                answer = (job, True, draw(picture))
        except Exception as exc:  # a bad picture fails its own request, not the process
            answer = (job, False, exc)
        try:
            payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an error that cannot be pickled: say what it was
            failed = RuntimeError(f"{type(answer[2]).__name__}: {answer[2]} ({exc})")
            payload = pickle.dumps((job, False, failed), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            sock.sendall(frame(payload))
        except OSError:
            return
