"""What runs first inside a drawing process (see `bot.discord_ui.card_images.ImageWorker`).

A drawing process must not outlive the bot: if the bot is killed (SIGKILL, out of memory) its
process pool cannot stop it, and a worker blocked on its job queue never notices (it holds
both ends of that pipe). So each worker watches its parent and exits when the parent is gone.
"""

from __future__ import annotations

import os
import pickle
from multiprocessing.connection import Connection

from bot.workers import start_worker


def start_drawing_process(niceness: int) -> None:
    """Lower this process's CPU priority (pictures may wait; the bot's clicks may not) and
    leave as soon as the parent process dies.

    Ctrl-C in a terminal interrupts the whole process group: the drawing process ignores it
    (it would die printing a traceback), and the bot stops it as it closes, or it leaves when
    the bot is gone."""
    start_worker()
    os.nice(niceness)


def serve(conn: Connection, niceness: int) -> None:
    """The drawing process's whole life: read a request, answer it, until the bot hangs up.

    A request is `(job, picture)` pickled, `picture` None for the warm-up; the answer is
    `(job, True, RenderedImage | None)` or `(job, False, error)`. One pipe and no threads in
    the bot: a `ProcessPoolExecutor` wakes a manager thread with a pipe write per job and
    hands each result through that thread, which cost the bot's loop 5-9x more CPU per
    picture than one pipe read (`benchmarks/bench_images.py --handoff`)."""
    start_drawing_process(niceness)
    from bot.images import draw, warm_up  # the package imports this module: not at the top

    while True:
        try:
            job, picture = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return  # the bot closed its end (or is gone)
        try:
            if picture is None:
                warm_up()
                answer: tuple[int, bool, object] = (job, True, None)
            else:
                answer = (job, True, draw(picture))
        except Exception as exc:  # a bad picture fails its own request, not the process
            answer = (job, False, exc)
        try:
            conn.send_bytes(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
        except (EOFError, OSError):
            return
