"""What runs first inside a drawing process (see `bot.discord_ui.card_images.ImageWorker`).

A drawing process must not outlive the bot: if the bot is killed (SIGKILL, out of memory) its
process pool cannot stop it, and a worker blocked on its job queue never notices (it holds
both ends of that pipe). So each worker watches its parent and exits when the parent is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import wait


def start_drawing_process(niceness: int) -> None:
    """Lower this process's CPU priority (pictures may wait; the bot's clicks may not) and
    leave as soon as the parent process dies.

    Ctrl-C in a terminal interrupts the whole process group: the drawing process ignores it
    (it would die printing a traceback), and the bot stops it as it closes, or it leaves when
    the bot is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(niceness)
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
