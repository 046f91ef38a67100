"""The row plan of a hand (`layout.plan_rows`): kept by its arguments, and the same plan as
the one that built every candidate row's pieces (kept below as the oracle), so every picture
that uses it is drawn as before."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from bot.images import layout, samples
from bot.images.layout import HAND_STEP, _Piece, _pieces, _row_width, min_hand_step
from bot.words.pictures import captions

Plan = tuple[tuple[tuple[_Piece, ...], ...], int]


def oracle(
    sizes: tuple[int, ...],
    label_w: tuple[int, ...],
    row_width: int,
    card_w: int,
    min_step: int,
    preferred: int = HAND_STEP,
    max_rows: int = 4,
) -> Plan:
    """`plan_rows` as it was (c999db8): every candidate row built as pieces and measured at
    every step (with the layout's own `_pieces` and `_row_width`, which it used then and
    which did not change)."""
    total = sum(sizes)
    bounds = set(itertools.accumulate(sizes))
    steps = range(max(preferred, min_step), min_step - 1, -1)
    segments: dict[tuple[int, int], tuple[tuple[_Piece, ...], list[int]]] = {}

    def segment(lo: int, hi: int) -> tuple[tuple[_Piece, ...], list[int]]:
        if (lo, hi) not in segments:
            row = tuple(_pieces(sizes, lo, hi))
            segments[lo, hi] = (row, [_row_width(row, label_w, card_w, st) for st in steps])
        return segments[lo, hi]

    for rows in range(1, max_rows + 1):
        best: tuple[tuple[int, int, int], tuple[tuple[_Piece, ...], ...], int] | None = None
        for cuts in itertools.combinations(range(1, total), rows - 1):
            edges = (0, *cuts, total)
            parts = [segment(edges[i], edges[i + 1]) for i in range(rows)]
            inner = sum(1 for c in cuts if c not in bounds)
            for k, step in enumerate(steps):
                width = max(widths[k] for _row, widths in parts)
                if width <= row_width:
                    key = (inner, -step, width)
                    if best is None or key < best[0]:
                        best = (key, tuple(row for row, _w in parts), step)
                    break
        if best is not None:
            return best[1], best[2]
    starts = itertools.accumulate((0, *sizes))
    return tuple(tuple(_pieces(sizes, a, a + n)) for a, n in zip(starts, sizes, strict=False)), (
        min_step
    )


def _shapes(count: int, seed: int) -> list[tuple[int, ...]]:
    """Hands of 1 to 15 cards cut into 1 to 9 sections (now and then one of no cards)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        total = rng.randint(1, 15)
        k = rng.randint(1, min(total, 9))
        cuts = sorted(rng.sample(range(1, total), k - 1))
        sizes = [b - a for a, b in itertools.pairwise([0, *cuts, total])]
        if rng.random() < 0.1:
            sizes.insert(rng.randint(0, len(sizes)), 0)
        out.append(tuple(sizes))
    return out


def _arguments(count: int, seed: int) -> list[tuple[Any, ...]]:
    """Row plans as the hand (564 px, large cards) and the results (396 px, small cards) ask
    for them, and odd ones (any widths, steps and row counts)."""
    rng = random.Random(seed)
    large, small = min_hand_step("large"), min_hand_step("small")
    out: list[tuple[Any, ...]] = []
    for sizes in _shapes(count, seed):
        labels = tuple(rng.choice((rng.randint(20, 90), rng.randint(60, 300))) for _ in sizes)
        pick = rng.random()
        if pick < 0.6:
            out.append((sizes, labels, rng.choice((564, 564, 500, 300)), 84, large))
        elif pick < 0.9:
            out.append((sizes, labels, rng.choice((396, 300, 250)), 60, small, 40))
        else:
            odd = (rng.randint(100, 900), rng.randint(20, 100), rng.randint(10, 60))
            out.append((sizes, labels, *odd, rng.randint(10, 70), rng.randint(1, 5)))
    return out


def test_the_row_plan_is_the_one_every_candidate_was_measured_for() -> None:
    assert layout.plan_rows.__wrapped__((), (), 564, 84, 52) == oracle((), (), 564, 84, 52)
    for args in _arguments(3000, 5):
        assert layout.plan_rows.__wrapped__(*args) == oracle(*args), args


def test_a_kept_row_plan_is_a_fresh_one(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[Any, ...]] = []
    plan_rows = layout.plan_rows

    def spy(*args: Any) -> Plan:
        asked.append(args)
        return plan_rows(*args)

    monkeypatch.setattr(layout, "plan_rows", spy)
    words = captions(None)
    for obs in samples.hand_states().values():  # the hands' own plans
        layout.hand_scene(obs, words=words)
    monkeypatch.undo()
    assert asked
    calls = asked + _arguments(400, 9)
    for args in calls + calls[::3]:  # the second time, from the cache
        kept = layout.plan_rows(*args)
        assert kept == layout.plan_rows.__wrapped__(*args) == oracle(*args)
        assert layout.plan_rows(*args) is kept
