"""CPU time of the private hand views a game action makes the presenter build (figures only).

    python benchmarks/bench_hand_build.py [--rounds 7] [--deals 4]

A real three-seat `points` table played by policies, deal after deal; after every move each
seat's view is built as the presenter builds it (`HandViews.build`, then `visible()`, which a
refresh compares with what the message shows): the mover's, and the two waiting seats', whose
message shows their previous picture (`shown`), as an open view's does. Nothing is drawn (the
drawing process is a stub) and nothing is sent. Printed: CPU µs (this thread,
`time.thread_time_ns`) a game action for all three views, the mover's and a waiting seat's,
medians of the rounds, in English and in Hindi. What it leaves out: acknowledging, sending,
the table message; what it keeps: the observation, the advice (cached by hand, as in the
bot), the embed, the controls, the picture's layout, and the comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord_ui.hands import HandViews
from bot.engine.match import Match, MatchPhase
from bot.engine.states import Player
from bot.images import RenderedImage
from bot.images.samples import NAMES, _policies
from bot.table.advice import AdviceCache
from bot.table.model import Seat, Table, TableOptions
from bot.words import Locale


class _Images:
    async def run(self, picture: Any, *, urgent: bool = False) -> RenderedImage:
        return RenderedImage(b"", f"{picture.name}.png", 1, 1)


class _Prefs:
    async def for_user(self, guild_id: int, user_id: int) -> bool:
        return True


def _views() -> HandViews:
    table_message = SimpleNamespace(hooks=None)
    return HandViews(_Images(), _Prefs(), AdviceCache(), table_message)  # type: ignore[arg-type]


async def _deal_moves(deals: int, locale: Locale | None) -> tuple[list[int], list[int]]:
    """CPU ns of the mover's view and of each waiting seat's view, one entry a move: `deals`
    one-deal `points` matches (seeds 1, 2, ...) at the same table."""
    players = [Player(f"u{i + 1}", name) for i, name in enumerate(NAMES[:3])]
    table = Table("abcdefghij", 1, 2, 3, TableOptions("points", 3, 60))
    table.seats = [Seat(p.id, p.name, user_id=i + 1) for i, p in enumerate(players)]
    views = _views()
    shown: dict[int, Any] = {}
    mover_ns: list[int] = []
    waiting_ns: list[int] = []
    for number in range(1, deals + 1):
        m = Match.create(players, "points", seed=number)
        table.match = m
        policies = _policies(3, number)
        while m.deal is not None and not m.deal.over and m.phase is MatchPhase.PLAYING:
            seat = m.deal.turn
            m.apply(policies[seat].act(m.observation(seat)))
            table.version += 1
            for other in range(3):
                user = other + 1
                start = time.thread_time_ns()
                hand = await views.build(table, user, shown=shown.get(user), locale=locale)
                hand.visible()
                spent = time.thread_time_ns() - start
                (mover_ns if other == seat else waiting_ns).append(spent)
                if hand.picture is not None:
                    key, filename = hand.picture
                    shown[user] = SimpleNamespace(key=key, filename=filename)
    return mover_ns, waiting_ns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=4)
    args = parser.parse_args()
    for locale in (None, Locale("hi")):
        asyncio.run(_deal_moves(1, locale))  # the catalogue and the evaluator's tables, loaded
    for name, locale in (("en", None), ("hi", Locale("hi"))):
        per_action, movers, waiting = [], [], []
        for _ in range(args.rounds):
            mover, wait = asyncio.run(_deal_moves(args.deals, locale))
            per_action.append((sum(mover) + sum(wait)) / len(mover) / 1000)
            movers.append(statistics.mean(mover) / 1000)
            waiting.append(statistics.mean(wait) / 1000)
        print(
            f"[{name}] µs a game action (3 views): {statistics.median(per_action):7.1f}   "
            f"the mover's: {statistics.median(movers):6.1f}   "
            f"a waiting seat's: {statistics.median(waiting):6.1f}   ({len(mover)} moves)"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
