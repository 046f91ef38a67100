"""What handing a picture to the drawing process costs the bot's own process (figures only).

    python benchmarks/bench_handoff.py [--pictures N]

The drawing itself happens in the other process; what the bot pays is writing the request,
waking up, reading the answer and settling the future. This measures the CPU time of this
process (all its threads) per picture for `ImageWorker` (one pipe the event loop watches)
and, in the same run for the ratio, for a `ProcessPoolExecutor` of one spawned process (what
the bot used before), both drawing the same hand pictures one after another.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord_ui.card_images import ImageWorker
from bot.images import Picture, draw, hand_picture, samples, warm_up
from bot.words.pictures import captions


async def with_worker(pictures: list[Picture]) -> float:
    worker = ImageWorker()
    try:
        await worker.warm_up()
        await worker.run(pictures[0])
        start = time.process_time()
        for picture in pictures:
            await worker.run(picture)
        return (time.process_time() - start) / len(pictures)
    finally:
        worker.shutdown()


async def with_pool(pictures: list[Picture]) -> float:
    loop = asyncio.get_running_loop()
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    try:
        await loop.run_in_executor(pool, warm_up)
        await loop.run_in_executor(pool, draw, pictures[0])
        start = time.process_time()
        for picture in pictures:
            await loop.run_in_executor(pool, draw, picture)
        return (time.process_time() - start) / len(pictures)
    finally:
        pool.shutdown()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pictures", type=int, default=300)
    args = parser.parse_args()
    states = list(samples.hand_states().values())
    words = captions("en")
    pictures = [hand_picture(states[i % len(states)], words=words) for i in range(args.pictures)]
    pipe = await with_worker(pictures)
    pool = await with_pool(pictures)
    print(f"{args.pictures} hand pictures, CPU of the bot's process per picture:")
    print(f"  ImageWorker (one pipe):        {pipe * 1000:.3f} ms")
    print(f"  ProcessPoolExecutor (before):  {pool * 1000:.3f} ms  ({pool / pipe:.1f}x)")
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    asyncio.run(main())
