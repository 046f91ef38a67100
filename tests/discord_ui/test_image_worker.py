"""The drawing thread says when it is busy, so a hand view can acknowledge before it draws."""

from __future__ import annotations

import asyncio
import threading

from bot.discord_ui.card_images import ImageWorker
from bot.images import RenderedImage


async def test_busy_while_a_drawing_waits_or_runs() -> None:
    worker = ImageWorker()
    release = threading.Event()

    def slow() -> RenderedImage:
        release.wait(5)
        return RenderedImage(b"png", "x.png", 1, 1)

    assert not worker.busy
    task = asyncio.ensure_future(worker.run(slow))
    await asyncio.sleep(0.05)
    assert worker.busy
    release.set()
    image = await task
    assert image.filename == "x.png"
    assert not worker.busy
    worker.shutdown()
