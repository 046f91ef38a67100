"""The drawing process's CPU per picture on a realistic stream of pictures (figures only).

    python benchmarks/bench_drawing.py [--tables 300] [--actions 24] [--seed 1]

`bench_images.py` draws the same few sample scenes again and again, so every sprite, text
mask and tile it touches sits in the CPU's caches, and its texts never change; a bot with
hundreds of tables draws a different table's picture each time, with other names and
numbers (at 60 tables the load test's drawing process spent ~3.5 ms a picture where
`bench_images.py` said 2.2-2.5). This lays out the pictures a real run would ask for: `--tables`
heads-up points matches (players named apart, as real tables are), played by the medium AI,
each move giving the mover's hand picture and each throw the table picture too. Then it draws
them as the load test's tables interleave: the first action of every table, then the second,
and so on, timing each stage with `time.process_time` (the figure that holds on a shared
machine): painting, then encoding (mapping to the palette and writing the file). Every
table's first action is drawn untimed first, as a bot that has run a while has drawn every
sprite and most names already.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import make_policy
from bot.engine.actions import ActionKind
from bot.engine.match import Match
from bot.images import Picture, hand_picture, table_picture, warm_up
from bot.images.layout import evaluate_view
from bot.images.paint import encode, paint
from bot.words.pictures import captions

EN = captions("en")
FIRST = ["Aarav", "Diya", "Ishaan", "Kavya", "Rohan", "Saanvi", "Vihaan", "Anaya", "Arjun"]


def table_stream(table: int, actions: int, seed: int) -> list[list[Picture]]:
    """One table's pictures, action by action (a draw: the mover's hand; a throw: the
    mover's hand and the table)."""
    names = [f"{FIRST[table % len(FIRST)]} {table}", f"{FIRST[(table + 4) % len(FIRST)]}"]
    match = Match.create(names, "points", seed=seed + table)
    policies = [make_policy("medium", seed + 2 * table + i) for i in range(2)]
    out: list[list[Picture]] = []
    while len(out) < actions:
        deal = match.deal
        if deal is None or deal.over or match.phase.value != "playing":
            break
        seat = deal.turn
        action = policies[seat].act(match.observation(seat))
        match.apply(action)
        obs = match.observation(seat)
        pictures = [hand_picture(obs, False, evaluate_view(obs), words=EN)] if obs.hand else []
        if action.kind is ActionKind.DISCARD:
            pictures.append(table_picture(match.public_view(), words=EN))
        out.append(pictures)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--actions", type=int, default=24, help="actions laid out per table")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warm_up()
    streams = [table_stream(t, args.actions, args.seed) for t in range(args.tables)]
    for stream in streams:  # a running bot's steady state: every sprite and name drawn once
        for picture in stream[0]:
            encode(paint(picture.scene), picture.name)
    paint_s = encode_s = 0.0
    pictures = actions = size = 0
    for step in range(1, args.actions):
        for stream in streams:
            if step >= len(stream):
                continue
            actions += 1
            for picture in stream[step]:
                t0 = time.process_time()
                im = paint(picture.scene)
                t1 = time.process_time()
                size += len(encode(im, picture.name).data)
                t2 = time.process_time()
                paint_s += t1 - t0
                encode_s += t2 - t1
                pictures += 1
    load = os.getloadavg()[0]
    print(
        f"{args.tables} tables, {actions} actions, {pictures} pictures "
        f"({pictures / actions:.2f} an action), load {load:.1f} on {os.cpu_count()} cores"
    )
    per = 1000 / pictures
    print(
        f"CPU ms a picture: paint {paint_s * per:.2f}  encode {encode_s * per:.2f}  "
        f"total {(paint_s + encode_s) * per:.2f}; "
        f"an action {(paint_s + encode_s) * 1000 / actions:.2f}; mean file {size // pictures} B"
    )


if __name__ == "__main__":
    main()
