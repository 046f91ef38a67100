"""Drawing processes that misbehave on purpose, for `test_image_worker.py`.

They run in a spawned child, so they live in a module the child can import by name (a test
module would drag pytest and every fixture into it).
"""

from __future__ import annotations

import os
import socket
import time

from bot.images.worker import answer_requests, start_drawing_process

#: Piece sizes an answer is cut into, in turn: some cut the 8-byte length itself in two.
PIECES = (3, 5, 1, 700, 7, 2048)


class InPieces:
    """A socket whose writes go out a few bytes at a time, with a pause after each piece:
    the bot's end sees one answer arrive in many separate reads."""

    def __init__(self, sock: socket.socket, pause: float) -> None:
        self.sock = sock
        self.pause = pause

    def recv_into(self, buffer: memoryview, nbytes: int = 0, /) -> int:
        return self.sock.recv_into(buffer, nbytes)

    def sendall(self, data: bytes, /) -> None:
        at, turn = 0, 0
        while at < len(data):
            piece = PIECES[turn % len(PIECES)]
            self.sock.sendall(data[at : at + piece])
            at += piece
            turn += 1
            time.sleep(self.pause)


class DiesMidAnswer:
    """Answers the warm-up (a few bytes) whole; of a picture's answer it sends the first
    half, then the process exits."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def recv_into(self, buffer: memoryview, nbytes: int = 0, /) -> int:
        return self.sock.recv_into(buffer, nbytes)

    def sendall(self, data: bytes, /) -> None:
        if len(data) < 200:  # the warm-up's answer (no picture)
            self.sock.sendall(data)
            return
        self.sock.sendall(data[: len(data) // 2])
        os._exit(3)


def serve_in_pieces(sock: socket.socket, niceness: int) -> None:
    start_drawing_process(niceness)
    sock.setblocking(True)
    answer_requests(InPieces(sock, pause=0.001))


def serve_then_die(sock: socket.socket, niceness: int) -> None:
    start_drawing_process(niceness)
    sock.setblocking(True)
    answer_requests(DiesMidAnswer(sock))
