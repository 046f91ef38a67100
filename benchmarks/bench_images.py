"""Render time and file size of the hand, table and results images (figures, no assertions).

Run from the project root: `python benchmarks/bench_images.py [--repeat N]`. Targets from the
issue: hand median <= 15 ms, table <= 25 ms on a 2-core machine, every file <= 150 KB. Times
are warm (sprites already cached, as in a running bot); evaluation of the hand is done once
outside the timed loop, as the Discord side shares it with the text embed. `cpu ms` is this
process's CPU time per picture (what the figures mean on a shared machine); the Hindi rows
(`hi`) draw the same pictures with Devanagari captions (the bundled font, shaped by Raqm).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord_ui.pictures import captions
from bot.images import render_hand, render_results, render_table, samples, warm_up
from bot.images.layout import evaluate_view
from bot.images.paint import RenderedImage

EN = captions("en")  # the pictures' English words, from the catalogue
HI = captions("hi")


def measure(fn: Callable[[], RenderedImage], repeat: int) -> tuple[float, float, float, int]:
    """Median and worst wall ms, CPU ms per picture, and the file's size."""
    times = []
    out = fn()
    cpu = time.process_time()
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
    cpu_ms = (time.process_time() - cpu) * 1000 / repeat
    return statistics.median(times), max(times), cpu_ms, len(out.data)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    t0 = time.perf_counter()
    warm_up()
    print(f"sprite warm-up (once per process): {(time.perf_counter() - t0) * 1000:.0f} ms")

    hands = samples.hand_states()
    drawn = hands["drawn"]
    ev = evaluate_view(drawn)
    t0 = time.perf_counter()
    for _ in range(10):
        evaluate_view(drawn)
    print(
        f"evaluate_view (14 cards, shared with the embed): "
        f"{(time.perf_counter() - t0) * 100:.1f} ms"
    )
    table2, table6 = samples.table_view(2), samples.table_view(6)
    history = samples.finished_history()
    cases: list[tuple[str, Callable[[str], RenderedImage]]] = [
        ("hand 13 (to draw)", lambda f: render_hand(hands["to_draw"], fmt=f, words=EN)),
        ("hand 14 (drawn)", lambda f: render_hand(drawn, evaluation=ev, fmt=f, words=EN)),
        ("hand 14 by suit", lambda f: render_hand(drawn, True, evaluation=ev, fmt=f, words=EN)),
        ("table 2 seats", lambda f: render_table(table2, fmt=f, words=EN)),
        ("table 6 seats", lambda f: render_table(table6, fmt=f, words=EN)),
        ("results 4 seats", lambda f: render_results(history, fmt=f, words=EN)),
        ("hi hand 14 (drawn)", lambda f: render_hand(drawn, evaluation=ev, fmt=f, words=HI)),
        ("hi table 6 seats", lambda f: render_table(table6, fmt=f, words=HI)),
        ("hi results 4 seats", lambda f: render_results(history, fmt=f, words=HI)),
    ]
    print(
        f"{'image':20} {'fmt':5} {'median ms':>10} {'max ms':>8} {'cpu ms':>7} {'bytes':>8}  size"
    )
    for name, fn in cases:
        for fmt in ("png", "webp"):
            med, worst, cpu, size = measure(lambda fn=fn, fmt=fmt: fn(fmt), args.repeat)
            img = fn(fmt)
            print(
                f"{name:20} {fmt:5} {med:10.1f} {worst:8.1f} {cpu:7.2f} {size:8d}  "
                f"{img.width}x{img.height}"
            )


if __name__ == "__main__":
    main()
