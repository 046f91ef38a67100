"""Classifying one group of cards: pure sequence, impure sequence or set.

The meaning (docs/rules.md, "Groups"): a group is valid if *some* assignment of its wild cards makes
it valid. A wild card may stand in for any card, or be itself. A wild-rank card used as itself
keeps a sequence pure (eights wild: 7♥ 8♥ 9♥ is pure); printed jokers are never natural. Aces
are low (A-2-3) or high (Q-K-A), never both, never wrapping. A set is one rank in different
suits; two natural cards of one suit never share a set.

This module answers the question for a group a player proposes (honor-mode declarations, the
reference evaluator, tests). The fast hand evaluator in `evaluate.py` never builds groups this
way: it reasons about counts per suit, and its answers are checked against this module.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import StrEnum

from .cards import ACE, Card
from .rules import Rules

MAX_SEQUENCE = 13


class GroupKind(StrEnum):
    PURE = "pure"
    IMPURE = "impure"
    SET = "set"

    @property
    def is_sequence(self) -> bool:
        return self is not GroupKind.SET


def _positions(rank: int, ace_high: bool) -> int:
    return 14 if (rank == ACE and ace_high) else rank


def can_be_pure(cards: Sequence[Card]) -> bool:
    """Every card at its own printed rank and suit, consecutive, one suit, 3..13 cards."""
    if not 3 <= len(cards) <= MAX_SEQUENCE:
        return False
    suit = cards[0].suit
    if any(c.face.is_joker or c.suit != suit for c in cards):
        return False
    for ace_high in (False, True):
        pos = sorted(_positions(c.rank, ace_high) for c in cards)
        if all(b - a == 1 for a, b in itertools.pairwise(pos)):
            return True
    return False


def can_be_sequence(cards: Sequence[Card], rules: Rules, wild_rank: int | None) -> bool:
    """Some assignment of the wild cards makes these cards a run of one suit."""
    n = len(cards)
    if not 3 <= n <= MAX_SEQUENCE:
        return False
    naturals = [c for c in cards if not rules.is_wild(c.face, wild_rank)]
    if not naturals:
        return True  # wild cards alone can stand for any run
    suit = naturals[0].suit
    if any(c.suit != suit for c in naturals):
        return False
    for ace_high in (False, True):
        pos = sorted(_positions(c.rank, ace_high) for c in naturals)
        if len(set(pos)) != len(pos):
            continue
        if pos[-1] - pos[0] + 1 <= n:
            return True
    return can_be_pure(cards)


def can_be_set(cards: Sequence[Card], rules: Rules, wild_rank: int | None) -> bool:
    """One rank, naturals in distinct suits, size within the profile's set limits."""
    n = len(cards)
    if n < rules.set_min or (rules.set_max is not None and n > rules.set_max):
        return False
    naturals = [c for c in cards if not rules.is_wild(c.face, wild_rank)]
    if len({c.rank for c in naturals}) > 1:
        return False
    # Wild cards substitute for missing suits; natural cards must all differ in suit. A set
    # grows past four only with wild cards, and only where the profile sets no limit.
    suits = [c.suit for c in naturals]
    return len(set(suits)) == len(suits)


def classify_group(cards: Sequence[Card], rules: Rules, wild_rank: int | None) -> GroupKind | None:
    """The most useful kind this group can count as, or None if it is not a valid group.

    Pure beats impure (a pure run is also a run), and a run beats a set (only runs are lives).
    """
    if can_be_pure(cards):
        return GroupKind.PURE
    if can_be_sequence(cards, rules, wild_rank):
        return GroupKind.IMPURE
    if can_be_set(cards, rules, wild_rank):
        return GroupKind.SET
    return None


def check_arrangement(
    groups: Sequence[Sequence[Card]], rules: Rules, wild_rank: int | None
) -> bool:
    """Is this grouping (every card of the hand in some group) a valid declaration?

    At least two sequences, at least one pure; groups never share a physical card.
    """
    seen: set[int] = set()
    sequences = pure = 0
    for group in groups:
        ids = {c.id for c in group}
        if len(ids) != len(group) or ids & seen:
            return False
        seen |= ids
        kind = classify_group(group, rules, wild_rank)
        if kind is None:
            return False
        if kind.is_sequence:
            sequences += 1
        if kind is GroupKind.PURE:
            pure += 1
    return sequences >= 2 and pure >= 1
