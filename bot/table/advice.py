"""Hand advice: the engine's ruling on one seat's hand, computed once per table version.

The private hand view shows the best arrangement, the deadwood, what each discard would leave
and whether Declare is possible; the embed and the discard menu both read it. Evaluating a
14-card hand already yields every discard's outcome (`DrawnEvaluation.by_discard`), so one
evaluation serves the whole view, and a small cache keyed by (table, version, seat) serves
every refresh of an unchanged table.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass

from bot.engine.cards import Card, Face
from bot.engine.evaluate import DrawnEvaluation, Evaluation, evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation

CACHE_SIZE = 512


@dataclass(frozen=True, slots=True)
class HandAdvice:
    best: Evaluation  # the 13 cards kept (after the best discard, when holding 14)
    drawn: DrawnEvaluation | None  # the 14-card ruling, when the seat holds 14 cards
    by_face: dict[Face, Evaluation]  # what discarding a card of this face leaves

    @property
    def declarable(self) -> bool:
        return self.drawn is not None and self.drawn.declarable

    def after_discard(self, card: Card) -> Evaluation | None:
        return self.by_face.get(card.face)


def advise(obs: Observation) -> HandAdvice:
    hand = list(obs.hand)
    if len(hand) == 14:
        drawn = evaluate_drawn(hand, obs.rules, obs.wild_rank, forbidden=obs.taken)
        return HandAdvice(drawn.best, drawn, {c.face: ev for c, ev in drawn.by_discard})
    return HandAdvice(evaluate_hand(hand, obs.rules, obs.wild_rank), None, {})


def structure(hand: list[Card], wild_rank: int | None) -> list[tuple[str, list[Card]]]:
    """Cards that form no group yet, sorted into what a player looks for: `wild` cards,
    `pairs` of one rank (half a set), `near_runs` of one suit (7♦ 8♦, or 7♦ _ 9♦ with one
    gap), and cards that fit `nothing` yet. Each part keeps suit order, so the hand still reads
    by suit; empty parts are left out. The Discord hand view and the terminal game both show
    a hand without groups this way (each names the parts in its own words)."""
    wild = [c for c in hand if c.face.is_joker or c.rank == wild_rank]
    rest = sorted((c for c in hand if c not in wild), key=lambda c: (c.suit, c.rank))
    by_rank: dict[int, list[Card]] = {}
    for c in rest:
        by_rank.setdefault(c.rank, []).append(c)
    in_pair = {c.id for cs in by_rank.values() if len({x.suit for x in cs}) >= 2 for c in cs}
    near: set[int] = set()
    by_suit: dict[int, list[Card]] = {}
    for c in rest:
        if c.id not in in_pair:
            by_suit.setdefault(c.suit, []).append(c)
    for cs in by_suit.values():
        for a, b in itertools.pairwise(cs):
            if 1 <= b.rank - a.rank <= 2:
                near.update((a.id, b.id))
        ace, king = cs[0], cs[-1]
        if ace.rank == 1 and king.rank >= 12 and len(cs) > 1:  # Q-K-A wraps to the ace
            near.update((ace.id, king.id))
    parts = [
        ("wild", wild),
        ("pairs", [c for c in rest if c.id in in_pair]),
        ("near_runs", [c for c in rest if c.id in near]),
        ("nothing", [c for c in rest if c.id not in in_pair and c.id not in near]),
    ]
    return [(name, cs) for name, cs in parts if cs]


class AdviceCache:
    """Advice by (table id, version, seat); old versions fall out by age."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int, int], HandAdvice] = OrderedDict()

    def get(self, table_id: str, obs: Observation) -> HandAdvice:
        key = (table_id, obs.version, obs.seat)
        hit = self._items.get(key)
        if hit is not None:
            self._items.move_to_end(key)
            return hit
        advice = advise(obs)
        self._items[key] = advice
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return advice

    def forget(self, table_id: str) -> None:
        for key in [k for k in self._items if k[0] == table_id]:
            del self._items[key]

    def __len__(self) -> int:
        return len(self._items)
