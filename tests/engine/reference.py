"""A deliberately naive evaluator, kept only to check the fast one.

It tries every subset of the hand as a possible group (asking `groups.py`, which follows the
wording of docs/rules.md directly), then finds the best partition by dynamic programming over
bitmasks. It shares no search code with `evaluate.py`, so agreement between the two on
thousands of random hands is real evidence. It is hundreds of times slower; never use it in
play. It lives with the tests that check the evaluator against it (`tests/engine/`); the
engine benchmark (`benchmarks/bench_engine.py`) also times it beside the fast one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.engine.cards import Card
from bot.engine.groups import can_be_pure, can_be_sequence, can_be_set
from bot.engine.rules import LonePure, Rules


@dataclass(frozen=True, slots=True)
class ReferenceResult:
    valid: bool
    deadwood: int
    penalty: int


def reference_evaluate(
    cards: Sequence[Card], rules: Rules, wild_rank: int | None
) -> ReferenceResult:
    n = len(cards)
    values = [0 if rules.is_wild(c.face, wild_rank) else c.face.value for c in cards]
    total = sum(values)

    # Every subset that is a valid group: (mask, protected value, can be pure, is a run).
    by_lowest: list[list[tuple[int, int, bool, bool]]] = [[] for _ in range(n)]
    best_pure = -1
    for mask in range(1, 1 << n):
        if mask.bit_count() < 3:
            continue
        members = [cards[i] for i in range(n) if mask >> i & 1]
        pure = can_be_pure(members)
        run = pure or can_be_sequence(members, rules, wild_rank)
        if not run and not can_be_set(members, rules, wild_rank):
            continue
        value = sum(values[i] for i in range(n) if mask >> i & 1)
        low = (mask & -mask).bit_length() - 1
        by_lowest[low].append((mask, value, pure, run))
        if pure:
            best_pure = max(best_pure, value)

    @cache
    def best(mask: int) -> dict[tuple[int, int], int]:
        """For the cards in `mask`: (has pure, runs capped at 2) -> most value in groups."""
        if mask == 0:
            return {(0, 0): 0}
        low = (mask & -mask).bit_length() - 1
        out = dict(best(mask & ~(1 << low)))  # the lowest card stays out of every group
        for g, value, pure, run in by_lowest[low]:
            if g & mask != g:
                continue
            for (p, s), v in best(mask & ~g).items():
                key = (p | int(pure), min(2, s + int(run)))
                if out.get(key, -1) < v + value:
                    out[key] = v + value
        return out

    table = best((1 << n) - 1)
    both_lives = table.get((1, 2), -1)
    options = [total]
    if both_lives >= 0:
        options.append(total - both_lives)
    if rules.lone_pure is LonePure.PROTECTED and best_pure >= 0:
        options.append(total - best_pure)
    deadwood = min(options)
    # Valid: some partition of *all* cards with both lives (wild cards must be placed too).
    valid = _covers_all(by_lowest, n)
    return ReferenceResult(valid, deadwood, rules.cap(deadwood))


def _covers_all(by_lowest: list[list[tuple[int, int, bool, bool]]], n: int) -> bool:
    @cache
    def states(mask: int) -> frozenset[tuple[int, int]]:
        if mask == 0:
            return frozenset({(0, 0)})
        low = (mask & -mask).bit_length() - 1
        out: set[tuple[int, int]] = set()
        for g, _value, pure, run in by_lowest[low]:
            if g & mask == g:
                for p, s in states(mask & ~g):
                    out.add((p | int(pure), min(2, s + int(run))))
        return frozenset(out)

    return (1, 2) in states((1 << n) - 1)
