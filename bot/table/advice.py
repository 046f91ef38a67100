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

A discard needs no evaluation either: the 14-card ruling already ruled on what each discard
leaves, and `evaluate_drawn` rules on exactly the 13 cards `evaluate_hand` would be given (the
hand less that physical card, in its order; `tests/engine/test_evaluate.py` checks the two are
equal, layout and card identity included). So the cache keeps each seat's last 14-card advice,
and a 13-card hand that is it less the card that ruling threw takes that ruling (`_thrown`).
With two decks the ruling threw one copy of a face; a player who throws the other keeps other
cards, so that hand is evaluated as before.

Once a deal is over, the view shows the seat's own cards as the engine ruled on them
(`final_hand`): the picture and the text from the same facts.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot.engine.cards import Card, Face
from bot.engine.evaluate import DrawnEvaluation, Evaluation, evaluate_drawn, evaluate_hand
from bot.engine.events import Dropped, Left, WrongShow
from bot.engine.match import Match
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


@dataclass(frozen=True, slots=True)
class FinalHand:
    """One seat's own cards at the end of its deal, as its hand view shows them."""

    cards: tuple[Card, ...]
    # The engine's ruling on them: the hand held at the end (the one the results reveal), or
    # the 13 cards of a wrong show; None for cards a player dropped with (not ruled on).
    evaluation: Evaluation | None
    wrong_show: WrongShow | None = None


def final_hand(match: Match, seat: int) -> FinalHand | None:
    """`seat`'s own cards once the deal it played is over (None while a deal is played, or
    when it held none in that deal): from its own facts only, the hand it held at the end, or
    the cards it showed, dropped or left with."""
    finished = match.finished_deal()
    deal = match.deal
    if finished is None or deal is None:
        return None
    ev = finished.evaluations.get(seat)
    if ev is not None:
        return FinalHand(tuple(deal.hands[seat]), ev)
    for event in deal.events:
        if isinstance(event, WrongShow) and event.seat == seat:
            shown = event.shown
            return FinalHand(shown, evaluate_hand(list(shown), match.rules, deal.wild_rank), event)
        if isinstance(event, Dropped | Left) and event.seat == seat and event.cards:
            return FinalHand(tuple(event.cards), None)
    return None


AdviceKey = tuple[str, int, int, tuple[Card, ...], int | None, Card | None]


class AdviceCache:
    """Advice by table, seat and the hand it rules on; hands no longer held fall out by age.
    (A table's rules do not change while its match runs, so they are not part of the key.)"""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[AdviceKey, HandAdvice] = OrderedDict()
        # Each seat's last 14-card advice, by (table, seat), with its key: what its discard
        # leaves needs no evaluation (`_thrown`). Bounded like the cache.
        self._drawn: OrderedDict[tuple[str, int], tuple[AdviceKey, HandAdvice]] = OrderedDict()

    def get(self, table_id: str, obs: Observation) -> HandAdvice:
        key = (table_id, obs.seat, obs.deal_number, obs.hand, obs.wild_rank, obs.taken)
        hit = self._items.get(key)
        if hit is not None:
            self._items.move_to_end(key)
            return hit
        advice = self._thrown(key) if len(obs.hand) == 13 else None
        if advice is None:
            advice = advise(obs)
        self._items[key] = advice
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        if advice.drawn is not None:
            seat = (table_id, obs.seat)
            self._drawn[seat] = (key, advice)
            self._drawn.move_to_end(seat)
            if len(self._drawn) > self.size:
                self._drawn.popitem(last=False)
        return advice

    def _thrown(self, key: AdviceKey) -> HandAdvice | None:
        """The advice on a 13-card hand that the seat's last 14-card hand leaves after the
        discard its ruling tried with that very card (None when it is not one)."""
        kept = self._drawn.get((key[0], key[1]))
        if kept is None:
            return None
        before, advice = kept
        hand, held = key[3], before[3]
        if before[2] != key[2] or before[4] != key[4] or len(held) != len(hand) + 1:
            return None  # another deal or wild rank
        # The card thrown: where the two hands first differ (else the last card).
        at = 0
        while at < len(hand) and hand[at] == held[at]:
            at += 1
        thrown = held[at]
        if hand[at:] != held[at + 1 :] or advice.drawn is None:
            return None
        for card, evaluation in advice.drawn.by_discard:
            if card.id == thrown.id:
                return HandAdvice(evaluation, None, {})
        return None  # the other copy of that face: the kept cards differ from the ruling's

    def forget(self, table_id: str) -> None:
        for key in [k for k in self._items if k[0] == table_id]:
            del self._items[key]
        for seat in [s for s in self._drawn if s[0] == table_id]:
            del self._drawn[seat]

    def __len__(self) -> int:
        return len(self._items)
