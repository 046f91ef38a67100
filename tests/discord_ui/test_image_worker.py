"""The drawing process: pictures are drawn there, and a process that dies is replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.discord_ui.card_images import ImageWorker
from bot.images import hand_picture, render_hand, samples
from bot.words.pictures import captions

EN = captions("en")  # the pictures' English words, from the catalogue


async def test_a_picture_drawn_in_the_worker_process_equals_one_drawn_here() -> None:
    obs = samples.hand_states()["drawn"]
    worker = ImageWorker()
    try:
        image = await worker.run(hand_picture(obs, words=EN))
    finally:
        worker.shutdown()
    assert image == render_hand(obs, words=EN)  # same scene, same bytes, wherever it was drawn


async def test_a_killed_drawing_process_is_replaced_and_the_drawing_done() -> None:
    obs = samples.hand_states()["to_draw"]
    worker = ImageWorker()
    try:
        await worker.run(hand_picture(obs, words=EN))
        first = worker.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        image = await worker.run(hand_picture(obs, words=EN))
        assert worker.pid not in (None, first)
    finally:
        worker.shutdown()
    assert image == render_hand(obs, words=EN)


async def test_thread_mode_draws_the_same() -> None:
    obs = samples.hand_states()["waiting"]
    worker = ImageWorker(thread=True)
    try:
        image = await worker.run(hand_picture(obs, words=EN))
    finally:
        worker.shutdown()
    assert image == render_hand(obs, words=EN)


def test_the_drawing_process_does_not_outlive_a_killed_bot(tmp_path: Path) -> None:
    """SIGKILL the process that owns the worker: its drawing process leaves on its own."""
    script = tmp_path / "owner.py"
    script.write_text(
        "import asyncio, time\n"
        "from bot.discord_ui.card_images import ImageWorker\n"
        "async def main():\n"
        "    worker = ImageWorker()\n"
        "    await worker.warm_up()\n"
        "    print(worker.pid, flush=True)\n"
        "    time.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    owner = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert owner.stdout is not None
        child = int(owner.stdout.readline().split()[0])
        assert _alive(child)
        owner.kill()
        owner.wait(10)
        deadline = time.monotonic() + 15
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(child), "the drawing process outlived its owner"
    finally:
        owner.kill()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; it only waits for its reaper


async def test_a_burst_is_answered_in_full_each_request_with_its_own_picture() -> None:
    """More requests at once than the pipe is given (`IN_FLIGHT`): the rest wait in memory,
    and every caller gets the picture it asked for, whatever order the answers come in."""
    states = samples.hand_states()
    asked = [hand_picture(obs, words=EN) for obs in states.values()] * 3
    worker = ImageWorker()
    try:
        got = await asyncio.gather(*(worker.run(p) for p in asked))
    finally:
        worker.shutdown()
    assert len(asked) > ImageWorker.IN_FLIGHT
    assert got == [render_hand(obs, words=EN) for obs in states.values()] * 3


async def test_a_bad_request_fails_alone_and_the_process_keeps_drawing() -> None:
    obs = samples.hand_states()["waiting"]
    worker = ImageWorker()
    try:
        first = await worker.run(hand_picture(obs, words=EN))
        pid = worker.pid
        with pytest.raises(AttributeError):
            await worker.run("not a picture")  # type: ignore[arg-type]
        assert await worker.run(hand_picture(obs, words=EN)) == first
        assert worker.pid == pid  # the same process: nothing was restarted
    finally:
        worker.shutdown()


async def test_a_cancelled_caller_does_not_disturb_the_others() -> None:
    states = list(samples.hand_states().values())
    worker = ImageWorker()
    try:
        tasks = [asyncio.create_task(worker.run(hand_picture(obs, words=EN))) for obs in states * 2]
        await asyncio.sleep(0)
        tasks[1].cancel()
        tasks[-1].cancel()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        again = await worker.run(hand_picture(states[0], words=EN))
    finally:
        worker.shutdown()
    expected = [render_hand(obs, words=EN) for obs in states * 2]
    for i, result in enumerate(done):
        if i in (1, len(tasks) - 1):
            assert isinstance(result, asyncio.CancelledError)
        else:
            assert result == expected[i]
    assert again == expected[0]


async def test_an_urgent_picture_is_drawn_before_the_waiting_ones() -> None:
    """A table edit holding a slot of the rate budget asks for its picture as urgent: it goes
    into the pipe before every request still waiting in memory, and each caller still gets
    its own picture."""
    states = list(samples.hand_states().values())
    worker = ImageWorker()
    finished: list[str] = []

    async def draw(name: str, obs: object, urgent: bool = False) -> None:
        image = await worker.run(hand_picture(obs, words=EN), urgent=urgent)  # type: ignore[arg-type]
        assert image == render_hand(obs, words=EN)  # type: ignore[arg-type]
        finished.append(name)

    try:
        await worker.run(hand_picture(states[0], words=EN))  # the process is up
        queued = [asyncio.create_task(draw(f"hand{i}", states[i % len(states)])) for i in range(12)]
        await asyncio.sleep(0)
        urgent = asyncio.create_task(draw("table", states[1], urgent=True))
        await asyncio.gather(urgent, *queued)
    finally:
        worker.shutdown()
    # At most IN_FLIGHT hand pictures were already in the pipe when it was asked for.
    assert finished.index("table") <= ImageWorker.IN_FLIGHT
    assert sorted(finished) == sorted(["table", *(f"hand{i}" for i in range(12))])
