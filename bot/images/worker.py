"""What runs first inside a drawing process (see `bot.discord_ui.card_images.ImageWorker`).

A drawing process must not outlive the bot: if the bot is killed (SIGKILL, out of memory) its
process pool cannot stop it, and a worker blocked on its job queue never notices (it holds
both ends of that pipe). So each worker watches its parent and exits when the parent is gone.
"""

from __future__ import annotations

import os
import signal

from bot.workers import leave_with_parent


def start_drawing_process(niceness: int) -> None:
    """Lower this process's CPU priority (pictures may wait; the bot's clicks may not) and
    leave as soon as the parent process dies.

    Ctrl-C in a terminal interrupts the whole process group: the drawing process ignores it
    (it would die printing a traceback), and the bot stops it as it closes, or it leaves when
    the bot is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(niceness)
    leave_with_parent()
