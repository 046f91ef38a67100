"""A cheap necessary condition for "these cards could be a valid declaration".

The full evaluator answers exactly but costs a search per candidate discard. Most hands are
nowhere near complete, and two facts rule them out in microseconds:

* a valid declaration needs a pure sequence: three same-suit cards of consecutive rank;
* a natural card with no possible partner (no card of its suit within two ranks, no card of
  its rank in another suit) can only be grouped next to a wild card, and each wild card can be
  the neighbour of at most one such card (two isolated cards are at least three ranks apart).
  So a hand needs at least as many wild cards as it has isolated cards.

`may_declare` returning False is a proof that no declaration exists; True only means "ask the
evaluator". The legal-action list uses it so that the Declare button costs nothing on the
overwhelming majority of turns. Tests check it never contradicts the evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ACE, Card
from .rules import Rules


def _masks(cards: Sequence[Card]) -> tuple[list[int], dict[int, int]]:
    """Per-suit rank bitmasks (bit 14 doubles the ace) and, per rank, a bitmask of suits."""
    suits = [0, 0, 0, 0]
    ranks: dict[int, int] = {}
    for c in cards:
        if c.face.is_joker:
            continue
        suits[c.suit] |= 1 << c.rank
        if c.rank == ACE:
            suits[c.suit] |= 1 << 14
        ranks[c.rank] = ranks.get(c.rank, 0) | (1 << c.suit)
    return suits, ranks


def may_declare(cards: Sequence[Card], rules: Rules, wild_rank: int | None, spare: int) -> bool:
    """Could some `len(cards) - spare` of these cards form a valid declaration?

    `spare` is how many cards are left out (1 for a 14-card hand choosing its discard, 0 for a
    hand rummy). Sound but not complete: False is certain, True is a maybe.
    """
    suits, ranks = _masks(cards)
    if not any(m & (m >> 1) & (m >> 2) for m in suits):
        return False
    wilds = 0
    isolated = 0
    for c in cards:
        if rules.is_wild(c.face, wild_rank):
            wilds += 1
            continue
        m = suits[c.suit]
        near = 0
        positions = (1, 14) if c.rank == ACE else (c.rank,)
        for p in positions:
            window = 0
            for d in (-2, -1, 1, 2):
                q = p + d
                if 1 <= q <= 14:
                    window |= 1 << q
            near |= m & window
        if near == 0 and ranks[c.rank] == 1 << c.suit:
            isolated += 1
    return isolated - spare <= wilds
