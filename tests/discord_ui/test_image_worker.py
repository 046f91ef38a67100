"""The drawing process: pictures are drawn there, and a process that dies is replaced."""

from __future__ import annotations

import os
import signal

from bot.discord_ui.card_images import ImageWorker
from bot.images import hand_picture, render_hand, samples


async def test_a_picture_drawn_in_the_worker_process_equals_one_drawn_here() -> None:
    obs = samples.hand_states()["drawn"]
    worker = ImageWorker()
    try:
        image = await worker.run(hand_picture(obs))
    finally:
        worker.shutdown()
    assert image == render_hand(obs)  # same scene, same bytes, wherever it was drawn


async def test_a_killed_drawing_process_is_replaced_and_the_drawing_done() -> None:
    obs = samples.hand_states()["to_draw"]
    worker = ImageWorker()
    try:
        await worker.run(hand_picture(obs))
        pool = worker._pool
        for pid in list(getattr(pool, "_processes", {})):
            os.kill(pid, signal.SIGKILL)
        image = await worker.run(hand_picture(obs))
        assert worker._pool is not pool
    finally:
        worker.shutdown()
    assert image == render_hand(obs)


async def test_thread_mode_draws_the_same() -> None:
    obs = samples.hand_states()["waiting"]
    worker = ImageWorker(thread=True)
    try:
        image = await worker.run(hand_picture(obs))
    finally:
        worker.shutdown()
    assert image == render_hand(obs)
