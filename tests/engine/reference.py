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
    # A group's natural (not wild) cards share a suit (a run) or a rank (a set): a subset whose
    # naturals do neither is no group, and groups.py need not be asked. This only skips work;
    # what is a group is still decided by groups.py alone.
    wild = sum(1 << i for i in range(n) if rules.is_wild(cards[i].face, wild_rank))
    same_suit = [sum(1 << j for j in range(n) if cards[j].suit == c.suit) for c in cards]
    same_rank = [sum(1 << j for j in range(n) if cards[j].rank == c.rank) for c in cards]
    for mask in range(1, 1 << n):
        if mask.bit_count() < 3:
            continue
        naturals = mask & ~wild
        if naturals:
            first = (naturals & -naturals).bit_length() - 1
            if naturals & ~same_suit[first] and naturals & ~same_rank[first]:
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

    # One search answers both questions: each card counts `n + 1` times its value, plus one
    # for being placed at all. The most weight in groups is then the most value first (what
    # the deadwood needs), and among those the most cards placed; every card (wild cards
    # too) is placed, with both lives, exactly when the weight reaches the whole hand's.
    scale = n + 1

    @cache
    def best(mask: int) -> dict[tuple[int, int], int]:
        """For the cards in `mask`: (has pure, runs capped at 2) -> most weight in groups."""
        if mask == 0:
            return {(0, 0): 0}
        low = (mask & -mask).bit_length() - 1
        out = dict(best(mask & ~(1 << low)))  # the lowest card stays out of every group
        for g, value, pure, run in by_lowest[low]:
            if g & mask != g:
                continue
            weight = value * scale + g.bit_count()
            for (p, s), v in best(mask & ~g).items():
                key = (p | int(pure), min(2, s + int(run)))
                if out.get(key, -1) < v + weight:
                    out[key] = v + weight
        return out

    both_lives = best((1 << n) - 1).get((1, 2), -1)
    options = [total]
    if both_lives >= 0:
        options.append(total - both_lives // scale)
    if rules.lone_pure is LonePure.PROTECTED and best_pure >= 0:
        options.append(total - best_pure)
    deadwood = min(options)
    # Valid: some partition of *all* cards with both lives (wild cards must be placed too).
    valid = both_lives == total * scale + n
    return ReferenceResult(valid, deadwood, rules.cap(deadwood))
