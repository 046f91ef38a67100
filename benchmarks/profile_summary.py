"""Read a py-spy profile of the bot and say where its CPU goes (figures only).

    py-spy record --pid PID --duration 45 --rate 250 --format raw --nonblocking -o prof.txt
    python benchmarks/profile_summary.py prof.txt [--top 30] [--under FUNCTION]

Run the first line while `benchmarks/bench_load.py` plays (PID: the bot's process, the
`tests.fakediscord.launch benchmarks.load_probe` one; the drawing process is its
`spawn_main` child). py-spy's raw format is one sampled stack a line with its count; this
prints three tables over all threads: *inclusive* (a function anywhere on the stack), *self*
(the function running), and *by layer* (each sample charged to one place: the SQLite thread,
the HTTP client, discord.py's objects, the drawing hand-off, or the deepest frame of the
bot's own code, by module). The layers are what a change can move: a per-function table of
an asyncio program is mostly the event loop's own frames. `--under F` shows what the
functions called directly by F cost, to follow one branch down.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_LINE_NO = re.compile(r":\d+\)$")
_MODULE = re.compile(r"\(((?:bot|cogs)/.*?\.py)(?::\d+)?\)")


@dataclass(frozen=True, slots=True)
class Sample:
    """One sampled stack, outermost frame first, each `function (file)` without its line."""

    frames: tuple[str, ...]
    count: int


def read_raw(lines: Iterable[str]) -> Iterator[Sample]:
    """Samples from py-spy's raw output; thread and process labels are not frames."""
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = tuple(
            _LINE_NO.sub(")", frame)
            for frame in stack.split(";")
            if "(" in frame and not frame.startswith(("thread ", "process "))
        )
        yield Sample(frames, int(count))


def layer(frames: tuple[str, ...]) -> str:
    """The one place a sample is charged to (see the module's docstring)."""
    joined = ";".join(frames)
    leaf = frames[-1] if frames else ""
    if "aiosqlite" in joined:
        return "SQLite thread (aiosqlite)"
    if leaf.startswith("EpollSelector.select"):
        return "waiting in epoll (the loop's syscall)"
    if "card_images.py" in joined or "multiprocessing" in joined:
        return "drawing hand-off (pipe to the drawing process)"
    if "aiohttp" in joined or "discord/http.py" in joined or "discord/webhook" in joined:
        return "HTTP client (discord.py + aiohttp)"
    if any("discord/" in frame for frame in frames[-3:]):
        return "discord.py objects (models, views, embeds)"
    ours = [m.group(1) for frame in frames if (m := _MODULE.search(frame))]
    if ours:
        return "bot: " + ours[-1].removeprefix("bot/")
    return "other: " + leaf


def inclusive(samples: list[Sample]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for s in samples:
        for frame in set(s.frames):
            counts[frame] += s.count
    return counts


def self_time(samples: list[Sample]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for s in samples:
        if s.frames:
            counts[s.frames[-1]] += s.count
    return counts


def layers(samples: list[Sample]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for s in samples:
        counts[layer(s.frames)] += s.count
    return counts


def under(samples: list[Sample], function: str) -> Counter[str]:
    """What the functions called directly by `function` (its outermost call) cost."""
    counts: Counter[str] = Counter()
    for s in samples:
        at = next((i for i, f in enumerate(s.frames) if f.startswith(function)), None)
        if at is not None:
            callee = s.frames[at + 1] if at + 1 < len(s.frames) else "<itself>"
            counts[callee] += s.count
    return counts


def _table(title: str, counts: Counter[str], total: int, top: int) -> str:
    rows = [f"--- {title}"]
    rows += [f"{100 * n / total:5.1f}%  {name}" for name, n in counts.most_common(top)]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path, help="py-spy --format raw output")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--under", help="break down what this function calls")
    args = parser.parse_args()
    with args.profile.open(encoding="utf-8", errors="replace") as f:
        samples = list(read_raw(f))
    total = sum(s.count for s in samples)
    if total == 0:
        raise SystemExit("no samples in that file")
    print(f"{total} samples")
    if args.under:
        part = under(samples, args.under)
        print(_table(f"under {args.under} ({sum(part.values())} samples)", part, total, args.top))
        return
    print(_table("by layer", layers(samples), total, args.top))
    print(_table("inclusive", inclusive(samples), total, args.top))
    print(_table("self", self_time(samples), total, args.top))


if __name__ == "__main__":
    main()
