"""CPU time of what the Discord side builds per game action (figures, no assertions).

    python benchmarks/bench_views.py [--repeat N]

One mid-deal table of three seats: the public table's embed and controls, the player on
turn's private view (its evaluation, embed, controls and picture layout) and a waiting
player's, in English and in Hindi; and what an action costs below them (the observation).
Times are CPU ms per build, the median of `--repeat` rounds, measured in this one process;
the machine's load is printed with them (a shared machine: compare rows of one run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord_ui.screens.hand import hand_embed
from bot.discord_ui.screens.hand_controls import hand_view
from bot.discord_ui.screens.table import table_embed, table_view
from bot.engine.actions import Action, ActionKind
from bot.engine.match import Match, Player
from bot.engine.rules import get_profile
from bot.images import hand_picture, table_picture
from bot.table.advice import advise
from bot.words.pictures import captions


def cpu_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(20):
            fn()
        times.append((time.process_time() - start) / 20 * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    players = [Player(f"u{i}", name) for i, name in enumerate(("Asha", "Bob", "Chitra"))]
    m = Match.create(players, get_profile("pool101"), seed=11)
    for _ in range(9):  # a few turns in: a discard pile, a log
        deal = m.deal
        assert deal is not None
        seat = deal.turn
        m.apply(Action(ActionKind.DRAW_STOCK, seat, None))
        obs = m.observation(seat)
        m.apply(Action(ActionKind.DISCARD, seat, advise(obs).drawn.best_discard.id))  # type: ignore[union-attr]
    deal = m.deal
    assert deal is not None
    m.apply(Action(ActionKind.DRAW_STOCK, deal.turn, None))
    turn, waiting = deal.turn, (deal.turn + 1) % 3
    rules = m.rules
    rows: list[tuple[str, float]] = []
    rows.append(("observation (on turn)", cpu_ms(lambda: m.observation(turn), args.repeat)))
    on_turn, idle = m.observation(turn), m.observation(waiting)
    rows.append(("advice (14 cards)", cpu_ms(lambda: advise(on_turn), args.repeat)))
    advice, idle_advice = advise(on_turn), advise(idle)
    public = m.public_view()
    for lang in ("en", "hi"):
        words = captions(lang)
        rows += [
            (f"[{lang}] table embed + controls", cpu_ms(
                lambda lang=lang: (
                    table_embed(public, rules, ["Bob discarded 7♠"] * 5, None, None, lang),
                    table_view("tbl1", 3, locale=lang),
                ), args.repeat)),
            (f"[{lang}] table picture layout", cpu_ms(
                lambda words=words: table_picture(public, words=words), args.repeat)),
            (f"[{lang}] hand embed + controls, on turn", cpu_ms(
                lambda lang=lang: (
                    hand_embed(on_turn, advice, False, "Asha", locale=lang),
                    hand_view("tbl1", 3, on_turn, advice, False, locale=lang),
                ), args.repeat)),
            (f"[{lang}] hand picture layout, on turn", cpu_ms(
                lambda words=words: hand_picture(on_turn, False, advice.drawn, words=words),
                args.repeat)),
            (f"[{lang}] hand embed + controls, waiting", cpu_ms(
                lambda lang=lang: (
                    hand_embed(idle, idle_advice, False, "Bob", locale=lang),
                    hand_view("tbl1", 3, idle, idle_advice, False, locale=lang),
                ), args.repeat)),
        ]  # fmt: skip
    print(f"{'CPU ms per build':44} median")
    for name, ms in rows:
        print(f"{name:44} {ms:6.3f}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
