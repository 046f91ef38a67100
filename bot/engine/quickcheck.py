"""A cheap necessary condition for "these cards could be a valid declaration".

The full evaluator answers exactly but runs a search per candidate discard. Most hands are far
from complete, and two facts rule them out in tens of microseconds:

* a valid declaration needs a pure sequence: three same-suit cards of consecutive rank;
* link two non-joker cards when they could sit side by side in a group: same suit and at most
  two ranks apart (ace both low and high), or same rank in different suits. A group holding
  cards of k different linked components is a run with at least k-1 gaps of two or more ranks,
  so it uses at least 2(k-1) >= k substitutes. A component that cannot be split exactly into
  natural groups (any one or two cards, 5-7-9 of a suit, ...) therefore needs at least one
  substitute it does not share: either in a group of its own, or as its share of a mixed group.
  A hand needs at least as many wild cards as it has such *deficient* components (components
  holding a wild-rank card are not counted, since that card may play itself).

`may_declare` returning False is a proof that no declaration exists; True only means "ask the
evaluator". The legal-action list uses it so that offering Declare costs almost nothing on most
turns. Tests check it never contradicts the evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from .cards import ACE, Card, Face
from .rules import Rules

_LARGE = 9  # components this big are assumed coverable (never happens in a real hand)


def _natural_group(faces: Sequence[Face], set_max: int) -> bool:
    """Can these non-wild cards form a group with no substitute?"""
    if len(faces) < 3:
        return False
    suits = {f.suit for f in faces}
    ranks = sorted(f.rank for f in faces)
    if len(set(ranks)) == 1:
        return len(suits) == len(faces) and len(faces) <= set_max
    if len(suits) != 1 or len(set(ranks)) != len(ranks):
        return False
    if ranks[-1] - ranks[0] == len(ranks) - 1:
        return True
    if ranks[0] == ACE:  # ace high: Q-K-A
        high = [*ranks[1:], 14]
        return high[-1] - high[0] == len(high) - 1
    return False


@lru_cache(maxsize=65536)
def _partitionable(faces: tuple[Face, ...], set_max: int) -> bool:
    """Can these (sorted) faces be split exactly into natural groups?"""
    if not faces:
        return True
    first, rest = faces[0], faces[1:]
    n = len(rest)
    for mask in range(1, 1 << n):
        if mask.bit_count() < 2:
            continue
        chosen = [first, *(rest[i] for i in range(n) if mask >> i & 1)]
        if _natural_group(chosen, set_max):
            remaining = tuple(rest[i] for i in range(n) if not mask >> i & 1)
            if _partitionable(remaining, set_max):
                return True
    return False


def has_pure_triple(cards: Sequence[Card]) -> bool:
    suits = [0, 0, 0, 0]
    for c in cards:
        if not c.face.is_joker:
            suits[c.suit] |= 1 << c.rank
            if c.rank == ACE:
                suits[c.suit] |= 1 << 14
    return any(m & (m >> 1) & (m >> 2) for m in suits)


def may_declare(cards: Sequence[Card], rules: Rules, wild_rank: int | None, spare: int) -> bool:
    """Could some `len(cards) - spare` of these cards form a valid declaration?

    `spare` is how many cards are left out (1 for a 14-card hand choosing its discard, 0 for a
    hand rummy); leaving a card out makes at most one deficient component whole (it may split
    one into several, which only adds). Sound, not complete.
    """
    if not has_pure_triple(cards):
        return False
    wilds = 0
    nodes: list[Card] = []
    for c in cards:
        if rules.is_wild(c.face, wild_rank):
            wilds += 1
        if not c.face.is_joker:
            nodes.append(c)
    parent = list(range(len(nodes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        parent[find(i)] = find(j)

    # Same suit, at most two ranks apart: linking neighbours in rank order is enough.
    by_suit: dict[int, list[tuple[int, int]]] = {}
    by_rank: dict[int, list[int]] = {}
    for i, c in enumerate(nodes):
        by_suit.setdefault(c.suit, []).append((c.rank, i))
        if c.rank == ACE:
            by_suit[c.suit].append((14, i))
        by_rank.setdefault(c.rank, []).append(i)
    for chain in by_suit.values():
        chain.sort()
        for (r1, i1), (r2, i2) in pairwise(chain):
            if r2 - r1 <= 2 and i1 != i2:
                union(i1, i2)
    # Same rank, different suits.
    for idx in by_rank.values():
        for i in idx[1:]:
            other = next((j for j in idx if nodes[j].suit != nodes[i].suit), None)
            if other is not None:
                union(i, other)
    members: dict[int, list[Face]] = {}
    tainted: set[int] = set()
    for i, c in enumerate(nodes):
        r = find(i)
        members.setdefault(r, []).append(c.face)
        if rules.is_wild(c.face, wild_rank):
            tainted.add(r)
    set_max = min(rules.set_max or 4, 4)
    deficient = 0
    for r, faces in members.items():
        if r in tainted or len(faces) >= _LARGE:
            continue
        if len(faces) <= 2 or not _partitionable(tuple(sorted(faces)), set_max):
            deficient += 1
            if deficient - spare > wilds:
                return False
    return True
