"""Hand advice: the engine's ruling on one seat's hand, computed once per table version.

The private hand view shows the best arrangement, the deadwood, what each discard would leave
and whether Declare is possible; the embed, the discard menu and the picture all read it.
Evaluating a 14-card hand already yields every discard's outcome
(`DrawnEvaluation.by_discard`), so one evaluation serves the whole view, and a small cache
serves every refresh of a hand that did not change.

The cache is keyed by what the ruling depends on (the seat's cards in their order, the wild
rank, the card it may not throw), not by the table's version: a seat's hand changes only on
its own moves, so while the others play (two of every three actions at a three-seat table)
every new version of the table finds its advice already worked out.
"""

from __future__ import annotations

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


AdviceKey = tuple[str, int, int, tuple[Card, ...], int | None, Card | None]


class AdviceCache:
    """Advice by table, seat and the hand it rules on; hands no longer held fall out by age.
    (A table's rules do not change while its match runs, so they are not part of the key.)"""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[AdviceKey, HandAdvice] = OrderedDict()

    def get(self, table_id: str, obs: Observation) -> HandAdvice:
        key = (table_id, obs.seat, obs.deal_number, obs.hand, obs.wild_rank, obs.taken)
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
