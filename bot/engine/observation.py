"""What one player may know, and what the whole table may see.

`Observation` is the only thing hand views and AI policies read. It is built fresh from the
match for one seat and holds that seat's own cards and public facts only: the indicator, the
discard pile's history (every card thrown, by whom, and who took it back), how many cards each
seat holds, the stock size, scores, whose turn it is. Nothing in it reveals another seat's hand
or the stock order while the deal runs; after a deal ends, the hand history reveals everything.

`PublicView` is the table message: no hidden card at all, plus recent actions in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import Card
from .deal import Deal, OutReason, Phase, SeatStatus
from .rules import Rules
from .settlement import fixed_cost

if TYPE_CHECKING:
    from .match import Match


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    status: str  # active, dropped, out, eliminated, left, waiting (between deals)
    cards: int  # how many cards the seat holds (public)
    score: Fraction
    is_dealer: bool


@dataclass(frozen=True, slots=True)
class PileCard:
    """One card that went onto the discard pile (public knowledge)."""

    card: Card
    discarded_by: int | None  # None: the opening discard
    taken_by: int | None  # who picked it up again, if anyone
    recycled: bool  # shuffled into a new stock


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything `seat` may know right now."""

    seat: int
    version: int
    rules: Rules
    match_phase: str
    deal_number: int
    dealer: int | None
    hand: tuple[Card, ...]  # own physical cards (empty between deals or once out)
    indicator: Card | None
    wild_rank: int | None
    pile: tuple[Card, ...]  # cards in the discard pile now, top LAST
    pile_history: tuple[PileCard, ...]
    seats: tuple[SeatView, ...]
    stock_size: int
    turn: int | None  # seat on turn, None between deals
    phase: str | None  # draw / discard / over
    taken: Card | None  # card this seat just took from the pile (may not be discarded)
    may_drop: bool
    drop_cost: int | None  # what dropping now would cost (before multipliers)
    score_kind: str
    legal_actions: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase != Phase.OVER.value

    @property
    def top_discard(self) -> Card | None:
        return self.pile[-1] if self.pile else None


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table message: no hidden cards."""

    version: int
    variant: str
    match_phase: str
    deal_number: int
    seats: tuple[SeatView, ...]
    dealer: int | None
    turn: int | None
    phase: str | None
    top_discard: Card | None
    indicator: Card | None
    wild_rank: int | None
    stock_size: int
    recent: tuple[str, ...]  # last public actions in words, oldest first
    winners: tuple[int, ...]


def _seat_views(match: Match) -> tuple[SeatView, ...]:
    deal = match.deal
    views = []
    for s, p in enumerate(match.players):
        if s in match.left:
            status = "left"
        elif s in match.eliminated:
            status = "eliminated"
        elif deal is None or s not in deal.status:
            status = "waiting"
        else:
            status = deal.status[s].value
        count = len(deal.hands[s]) if deal is not None and s in deal.hands else 0
        dealer = deal is not None and deal.dealer == s
        views.append(SeatView(s, p.name, status, count, match.scores[s], dealer))
    return tuple(views)


def build_observation(match: Match, seat: int) -> Observation:
    deal = match.deal
    if not 0 <= seat < len(match.players):
        raise ValueError("no such seat")
    live = deal is not None and not deal.over
    hand: tuple[Card, ...] = ()
    may_drop, drop_cost = False, None
    taken = None
    if deal is not None and seat in deal.hands:
        hand = tuple(deal.hands[seat])
        if live and deal.status[seat] is SeatStatus.ACTIVE:
            drop_cost = fixed_cost(match.rules, deal.drop_reason(seat))
            may_drop = (
                match.rules.packing_allowed and deal.turn == seat and deal.phase is Phase.DRAW
            )
            if deal.turn == seat:
                taken = deal.taken
    return Observation(
        seat=seat,
        version=match.version,
        rules=match.rules,
        match_phase=match.phase.value,
        deal_number=match.deal_number,
        dealer=None if deal is None else deal.dealer,
        hand=hand,
        indicator=None if deal is None else deal.indicator,
        wild_rank=None if deal is None else deal.wild_rank,
        pile=() if deal is None else tuple(deal.pile),
        pile_history=() if deal is None else _pile_history(deal),
        seats=_seat_views(match),
        stock_size=0 if deal is None else len(deal.stock),
        turn=deal.turn if live and deal is not None else None,
        phase=None if deal is None else deal.phase.value,
        taken=taken,
        may_drop=may_drop,
        drop_cost=drop_cost,
        score_kind=match.score_kind.value,
        legal_actions=tuple(match.legal_actions(seat)),
    )


def _pile_history(deal: Deal) -> tuple[PileCard, ...]:
    return tuple(PileCard(e.card, e.by, e.taken_by, e.recycled) for e in deal.pile_log)


def build_public_view(match: Match, recent: int = 5) -> PublicView:
    deal = match.deal
    live = deal is not None and not deal.over
    return PublicView(
        version=match.version,
        variant=match.rules.name,
        match_phase=match.phase.value,
        deal_number=match.deal_number,
        seats=_seat_views(match),
        dealer=None if deal is None else deal.dealer,
        turn=deal.turn if live and deal is not None else None,
        phase=None if deal is None else deal.phase.value,
        top_discard=deal.pile[-1] if deal is not None and deal.pile else None,
        indicator=None if deal is None else deal.indicator,
        wild_rank=None if deal is None else deal.wild_rank,
        stock_size=0 if deal is None else len(deal.stock),
        recent=() if deal is None else tuple(describe_events(match, deal)[-recent:]),
        winners=match.winners,
    )


def describe_event(match: Match, deal: Deal, event: dict[str, Any]) -> str | None:
    """One public sentence for an event, or None when nothing public happened. Never names a
    card drawn from the stock or a card in a dropped hand."""
    seat = event.get("seat")
    who = match.players[seat].name if isinstance(seat, int) else "The table"
    kind = event["action"]
    rules = match.rules
    if kind == "draw_stock":
        return f"{who} drew from the stock"
    if kind in ("take_discard", "discard"):
        card = deal.card(event["card_id"]).face.pretty
        return f"{who} took {card}" if kind == "take_discard" else f"{who} discarded {card}"
    if kind in ("drop", "leave"):
        cost = fixed_cost(rules, OutReason(event["reason"]))
        verb = "dropped" if kind == "drop" else "left the table"
        return f"{who} {verb} ({cost})"
    if kind == "wrong_show":
        cost = fixed_cost(rules, OutReason(event["reason"]))
        return f"{who} made a wrong show ({cost})"
    if kind == "declare":
        return f"{who} declared hand rummy!" if event.get("hand_rummy") else f"{who} declared!"
    if kind == "reshuffle":
        return "The discard pile was shuffled into a new stock"
    if kind == "stock_exhausted":
        return "The stock ran out: the deal is void"
    if kind == "deal_over" and event.get("reason") == "last_standing":
        return f"{who} wins the deal: everyone else dropped"
    return None


def describe_events(match: Match, deal: Deal) -> list[str]:
    out = []
    for e in deal.events:
        text = describe_event(match, deal, e)
        if text is not None:
            out.append(text)
    return out
