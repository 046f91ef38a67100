"""Render time and file size of the hand, table and results images (figures, no assertions).

Run from the project root: `python benchmarks/bench_images.py [--repeat N]`. Targets from the
issue: hand median <= 15 ms, table <= 25 ms on a 2-core machine, every file <= 150 KB. Times
are warm (sprites already cached, as in a running bot); evaluation of the hand is done once
outside the timed loop, as the Discord side shares it with the text embed. `cpu ms` is this
process's CPU time per picture (what the figures mean on a shared machine); the Hindi rows
(`hi`) draw the same pictures with Devanagari captions (the bundled font, shaped by Raqm).

`--encode` splits a PNG picture's CPU into its stages instead: painting, mapping to the
palette, and writing the file, both as the bot does (`png.palette_png`, ISA-L) and as Pillow
would (`Image.save`, zlib at levels 1 and 3), with each file's size.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from bot.images import png, render_hand, render_results, render_table, samples, warm_up
from bot.images.layout import Scene, evaluate_view, hand_scene, table_scene
from bot.images.paint import RenderedImage, paint, palette
from bot.words.pictures import captions

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


def cpu_ms(fn: Callable[[], object], repeat: int) -> float:
    """CPU ms per call of `fn`, warm (one call first, untimed)."""
    fn()
    cpu = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - cpu) * 1000 / repeat


def encode_stages(repeat: int) -> None:
    """Where a PNG picture's CPU goes, stage by stage."""
    warm_up()
    scenes: list[tuple[str, Scene]] = [
        ("hand 14 (drawn)", hand_scene(samples.hand_states()["drawn"], None, True, words=EN)),
        ("table 6 seats", table_scene(samples.table_view(6), words=EN)),
    ]
    print(f"{'image':16} {'stage':28} {'cpu ms':>7} {'bytes':>7}")
    for name, scene in scenes:
        im = paint(scene)
        mapped = im.quantize(palette=palette(), dither=Image.Dither.NONE)

        def pillow(level: int, mapped: Image.Image = mapped) -> bytes:
            buf = io.BytesIO()
            mapped.save(buf, "PNG", optimize=False, compress_level=level)
            return buf.getvalue()

        stages: list[tuple[str, Callable[[], object]]] = [
            ("paint", lambda scene=scene: paint(scene)),
            ("map to the palette", lambda im=im: im.quantize(palette=palette(), dither=0)),
            ("png.palette_png (ISA-L 1)", lambda m=mapped: png.palette_png(m)),
            ("Image.save zlib 1", lambda: pillow(1)),
            ("Image.save zlib 3", lambda: pillow(3)),
        ]
        for stage, fn in stages:
            out = fn()
            shown = f"{len(out):7d}" if isinstance(out, bytes) else ""
            print(f"{name:16} {stage:28} {cpu_ms(fn, repeat):7.3f} {shown}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--encode", action="store_true", help="CPU by stage, PNG only")
    args = parser.parse_args()
    if args.encode:
        encode_stages(max(args.repeat, 200))
        return
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
