"""The drawing process: pictures are drawn there, and a process that dies is replaced.

The round trips run on asyncio's own loop and on uvloop (where it is installed: the `test`
extra has it on Linux and macOS). uvloop puts the socket in non-blocking mode, so an answer
that arrives in pieces must be waited for, not taken for a dead process."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui.card_images import DrawingFailed, ImageWorker
from bot.images import hand_picture, render_hand, samples
from bot.words.pictures import captions
from tests.discord_ui import drawing_processes

EN = captions("en")  # the pictures' English words, from the catalogue

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def _uvloop() -> LoopFactory:
    uvloop = pytest.importorskip("uvloop")
    return uvloop.new_event_loop  # type: ignore[no-any-return]


@pytest.fixture(params=["asyncio", "uvloop"])
def on_loop(request: pytest.FixtureRequest) -> Callable[[Coroutine[Any, Any, Any]], Any]:
    """Runs a coroutine to its end on a fresh loop of the parameter's kind."""
    factory: LoopFactory = asyncio.new_event_loop if request.param == "asyncio" else _uvloop()

    def run(coro: Coroutine[Any, Any, Any]) -> Any:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(coro)

    return run


def test_the_round_trip_works_on_each_loop(on_loop: Callable[..., Any]) -> None:
    states = samples.hand_states()

    async def main() -> list[object]:
        worker = ImageWorker()
        try:
            await worker.warm_up()
            one = await worker.run(hand_picture(states["drawn"], words=EN))
            burst = await asyncio.gather(
                *(worker.run(hand_picture(obs, words=EN)) for obs in states.values())
            )
            return [one, *burst]
        finally:
            worker.shutdown()

    got = on_loop(main())
    assert got == [render_hand(obs, words=EN) for obs in [states["drawn"], *states.values()]]


def test_an_answer_arriving_in_pieces_is_waited_for(on_loop: Callable[..., Any]) -> None:
    """The drawing process writes each answer a few bytes at a time with pauses between
    (the frame's length itself split): every picture still arrives whole and right, and
    nothing is taken for a dead process (the same process answers throughout)."""
    states = samples.hand_states()

    async def main() -> tuple[list[object], bool]:
        worker = ImageWorker(serve=drawing_processes.serve_in_pieces)
        try:
            pid = worker.pid
            got = await asyncio.gather(
                *(worker.run(hand_picture(obs, words=EN)) for obs in states.values())
            )
            return got, worker.pid == pid
        finally:
            worker.shutdown()

    got, same_process = on_loop(main())
    assert got == [render_hand(obs, words=EN) for obs in states.values()]
    assert same_process


def test_a_process_dying_mid_answer_is_detected_and_replaced(on_loop: Callable[..., Any]) -> None:
    """Half an answer, then the process exits: the drawing fails (on the retry too: the
    replacement dies the same way), and each time a new process was started."""
    obs = samples.hand_states()["drawn"]

    async def main() -> tuple[int | None, set[int | None]]:
        worker = ImageWorker(serve=drawing_processes.serve_then_die)
        first = worker.pid
        seen: set[int | None] = set()
        try:
            with pytest.raises(DrawingFailed):
                await worker.run(hand_picture(obs, words=EN))
            await worker.warm_up()  # a new process, started by the next request
            seen.add(worker.pid)
            return first, seen
        finally:
            worker.shutdown()

    first, later = on_loop(main())
    assert first is not None and first not in later and None not in later


def test_a_killed_process_is_replaced_on_each_loop(on_loop: Callable[..., Any]) -> None:
    obs = samples.hand_states()["to_draw"]

    async def main() -> tuple[object, int | None, int | None]:
        worker = ImageWorker()
        try:
            await worker.run(hand_picture(obs, words=EN))
            first = worker.pid
            assert first is not None
            os.kill(first, signal.SIGKILL)
            image = await worker.run(hand_picture(obs, words=EN))
            return image, first, worker.pid
        finally:
            worker.shutdown()

    image, first, now = on_loop(main())
    assert now not in (None, first)
    assert image == render_hand(obs, words=EN)


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
