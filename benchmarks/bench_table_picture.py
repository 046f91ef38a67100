"""CPU time of the table message's picture step, and of the hand's row plan (figures only).

    python benchmarks/bench_table_picture.py [--rounds 5] [--deals 4] [--before REV]

The table edit: a real `points` table of three (and of six) seats played by policies, deal
after deal; after every move the table message's picture is asked for as an edit asks
(`TablePictures.shown`, the message showing the last picture), nothing drawn (the drawing
process is a stub, which returns empty bytes) and nothing sent. Two ways, interleaved round by
round: "kept" is the presenter's (the picture laid out again only when its key,
`table_picture.table_key`, changed) and "laid out" lays it out and hashes it on every edit, as
it was before. Printed: CPU µs (this thread, `time.thread_time_ns`) an edit, medians of the
rounds, in English and in Hindi; and, of the presenter's way, how many edits found the
picture kept (nothing laid out or hashed) and what those and the others cost.

The row plan (`layout.plan_rows`): the arguments of every plan the movers' new hand pictures
asked for in those deals, planned afresh (the cache bypassed) and through the cache (every
call a hit): CPU µs a call, medians of the rounds.

`--before REV` adds the same steps as git revision REV had them (its `table_picture.py` and
`layout.plan_rows`, read with `git show` and imported beside today's), interleaved round by
round with today's: a before and after in one run, under the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord_ui.table_picture import TablePictures
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import PublicView
from bot.engine.states import Player
from bot.images import Picture, RenderedImage, hand_picture, layout, table_picture
from bot.images.samples import NAMES, _policies
from bot.table.model import Seat, Table, TableOptions
from bot.words import Locale
from bot.words.pictures import captions


class _Images:
    async def run(self, picture: Any, *, urgent: bool = False) -> RenderedImage:
        return RenderedImage(b"", f"{picture.name}.png", 1, 1)


class _Prefs:
    async def server_default(self, guild_id: int) -> bool:
        return True


class _LaidOutEveryEdit(TablePictures):
    """The step as it was: the scene laid out and hashed on every edit."""

    def laid_out(self, table: Table, public: PublicView) -> tuple[Picture, int]:
        picture = table_picture(
            public, table.rules.nothing_wild, words=captions(table.options.language)
        )
        return picture, hash(picture)


def _from_git(rev: str, path: str, name: str) -> Any:
    """The module at `path` as revision `rev` had it, imported as `name` (in its package, so
    its relative imports find today's modules)."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = name.rpartition(".")[0]
    sys.modules[name] = module
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
    return module


def _games(seats: int, deals: int) -> list[tuple[Match, list[PublicView], list[tuple[Any, ...]]]]:
    """`deals` one-deal `points` matches (seeds 1, 2, ...): each match, the public view after
    every move, and the arguments of the row plan of each mover's new hand picture."""
    players = [Player(f"u{i + 1}", name) for i, name in enumerate(NAMES[:seats])]
    plans: list[tuple[Any, ...]] = []
    real = layout.plan_rows

    def spy(*args: Any) -> Any:
        plans.append(args)
        return real(*args)

    out = []
    words = captions(None)
    layout.plan_rows = spy  # type: ignore[assignment]
    try:
        for number in range(1, deals + 1):
            m = Match.create(players, "points", seed=number)
            policies = _policies(seats, number)
            views = [m.public_view()]
            plans = []
            while m.deal is not None and not m.deal.over and m.phase is MatchPhase.PLAYING:
                seat = m.deal.turn
                m.apply(policies[seat].act(m.observation(seat)))
                views.append(m.public_view())
                hand_picture(m.observation(seat), False, None, "full", words=words)
            out.append((m, views, plans))
    finally:
        layout.plan_rows = real  # type: ignore[assignment]
    return out


async def _edits(
    pictures: TablePictures, games: Any, locale: Locale | None
) -> tuple[list[int], list[int]]:
    """CPU ns of each edit's picture step over the games, the message showing the last
    picture: of the edits that laid the picture out, and of those that found it kept."""
    laid: list[int] = []
    kept: list[int] = []
    for m, views, _plans in games:
        table = Table("abcdefghij", 1, 2, 3, TableOptions("points", len(m.players), 60))
        table.options.language = locale or Locale("en")
        table.seats = [Seat(p.id, p.name, user_id=i + 1) for i, p in enumerate(m.players)]
        table.match = m
        on_message = None
        for view in views:
            before = getattr(pictures, "_laid", {}).get(table.id)
            start = time.thread_time_ns()
            shown = await pictures.shown(table, view, on_message)
            spent = time.thread_time_ns() - start
            after = getattr(pictures, "_laid", {}).get(table.id)
            (kept if after is not None and after is before else laid).append(spent)
            on_message = None if shown is None else shown[0]
    return laid, kept


def _plans(plan: Any, calls: list[tuple[Any, ...]]) -> list[int]:
    spent = []
    for args in calls:
        start = time.thread_time_ns()
        plan(*args)
        spent.append(time.thread_time_ns() - start)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--before", help="a git revision to compare with, in the same run")
    args = parser.parse_args()
    table_ways: dict[str, Any] = {"laid out": _LaidOutEveryEdit, "kept": TablePictures}
    plan_ways: dict[str, Any] = {
        "afresh": layout.plan_rows.__wrapped__,
        "cached": layout.plan_rows,
    }
    if args.before:
        old = _from_git(args.before, "bot/discord_ui/table_picture.py", "bot.discord_ui._before")
        table_ways = {f"{args.before}": old.TablePictures, **table_ways}
        old_layout = _from_git(args.before, "bot/images/layout.py", "bot.images._before")
        plan_ways = {
            f"{args.before} afresh": old_layout.plan_rows.__wrapped__,
            **plan_ways,
            f"{args.before} cached": old_layout.plan_rows,
        }
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for seats in (3, 6):
        games = _games(seats, args.deals)
        calls = [c for _m, _v, plans in games for c in plans]
        for name, locale in (("en", None), ("hi", Locale("hi"))):
            ways: dict[str, list[float]] = {way: [] for way in table_ways}
            split: dict[str, list[float]] = {"laid out": [], "kept": []}
            for _ in range(args.rounds):
                for way, cls in table_ways.items():
                    pictures = cls(_Images(), _Prefs())  # type: ignore[arg-type]
                    laid, kept = asyncio.run(_edits(pictures, games, locale))
                    ways[way].append(statistics.mean(laid + kept))
                    if cls is TablePictures:
                        split["laid out"].append(statistics.mean(laid))
                        split["kept"].append(statistics.mean(kept))
            print(
                f"[{seats} seats, {name}] µs a table edit's picture step: "
                + "   ".join(f"{w}: {statistics.median(t) / 1000:6.1f}" for w, t in ways.items())
                + f"   ({len(laid) + len(kept)} edits, {len(kept)} found it kept: "
                f"{statistics.median(split['kept']) / 1000:.1f} µs, the others "
                f"{statistics.median(split['laid out']) / 1000:.1f})"
            )
        plans: dict[str, list[float]] = {way: [] for way in plan_ways}
        for plan in plan_ways.values():
            _plans(plan, calls)  # the caches filled: a cached plan is a hit
        for _ in range(args.rounds):
            for way, plan in plan_ways.items():
                plans[way].append(statistics.mean(_plans(plan, calls)))
        print(
            f"[{seats} seats] µs a row plan: "
            + "   ".join(f"{w}: {statistics.median(t) / 1000:6.1f}" for w, t in plans.items())
            + f"   ({len(calls)} plans, {len(set(calls))} distinct)"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
