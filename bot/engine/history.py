"""The hand history: a finished deal as a self-contained, auditable JSON document.

A player who downloads it can re-check everything: the shuffled deck, the hands as dealt, every
draw and discard in order, how the deal ended, each final hand with the arrangement the engine
found, and every charge. The schema is documented in docs/hand-history.md; bump
`HISTORY_FORMAT_VERSION` when it changes. This module is the only place that turns events into
that JSON (`event_json`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import rank_name
from .deal import Deal
from .evaluate import Evaluation
from .events import (
    DealEnded,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Dropped,
    Event,
    Left,
    Reshuffled,
    TimedOut,
    Took,
    Voided,
    WrongShow,
)
from .fairness import SCHEME
from .rules import Rules
from .settlement import DealResult
from .states import Player

HISTORY_FORMAT_VERSION = 3


def _evaluation(ev: Evaluation) -> dict[str, Any]:
    return {
        "valid": ev.valid,
        "deadwood": ev.deadwood,
        "penalty": ev.penalty,
        "groups": [{"kind": g.kind.value, "cards": [c.code for c in g.cards]} for g in ev.groups],
        "leftover": [c.code for c in ev.leftover],
    }


def _shuffle(deal: Deal) -> dict[str, Any] | None:
    """The revealed commitment (fairness.py): the salt is shown here, after the deal, and
    nowhere before. None for a deal started before commitments existed."""
    if deal.salt is None:
        return None
    return {
        "scheme": SCHEME,
        "source": "os" if deal.seed is None else "seed",
        "commitment": deal.commitment,
        "salt": deal.salt,
    }


def event_json(event: Event, n: int) -> dict[str, Any] | None:
    """The hand-history form of one event (`n` is its position in the history), or None for
    events the history records elsewhere (`Dealt` is the header) or not at all (a seat leaving
    between deals belongs to no deal)."""

    def head(seat: int | None, action: str) -> dict[str, Any]:
        return {"n": n, "seat": seat, "action": action}

    out: dict[str, Any]
    match event:
        case Dealt():
            return None
        case Drew(seat, card):
            out = {**head(seat, "draw_stock"), "card": card.code, "card_id": card.id,
                   "source": "stock"}  # fmt: skip
        case Took(seat, card):
            out = {**head(seat, "take_discard"), "card": card.code, "card_id": card.id,
                   "source": "discard"}  # fmt: skip
        case Discarded(seat, card):
            out = {**head(seat, "discard"), "card": card.code, "card_id": card.id}
        case Dropped(seat, reason, cards, bottom) | Left(seat, reason, cards, bottom) if (
            reason is not None
        ):
            action = "drop" if isinstance(event, Dropped) else "leave"
            out = {**head(seat, action), "reason": reason.value,
                   "cards_to": "stock_bottom" if bottom else "set_aside",
                   "cards": [c.code for c in cards]}  # fmt: skip
        case Left():
            return None
        case Declared(seat, card):
            out = {**head(seat, "declare"), "valid": True, "hand_rummy": card is None,
                   "card": None if card is None else card.code,
                   "card_id": None if card is None else card.id}  # fmt: skip
        case WrongShow(seat, reason, cards, bottom, card):
            out = {**head(seat, "wrong_show"), "reason": reason.value,
                   "cards_to": "stock_bottom" if bottom else "set_aside",
                   "cards": [c.code for c in cards], "hand_rummy": card is None,
                   "card": None if card is None else card.code}  # fmt: skip
        case Reshuffled(order):
            out = {**head(None, "reshuffle"), "stock_size": len(order),
                   "order": [c.code for c in order]}  # fmt: skip
        case Voided(nothing):
            outcome = "void_nothing_to_reshuffle" if nothing else "void"
            out = {**head(None, "stock_exhausted"), "outcome": outcome}
        case DealEnded(reason, winner):
            out = {**head(winner, "deal_over"), "reason": reason.value}
        case TimedOut(seat, count, dropped):
            out = {**head(seat, "timeout"), "count": count, "dropped": dropped}
        case _:  # pragma: no cover
            raise TypeError(f"not an event: {event!r}")
    if getattr(event, "auto", False):
        out["auto"] = True
    return out


def events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in events:
        j = event_json(e, len(out))
        if j is not None:
            out.append(j)
    return out


def build_hand_history(
    rules: Rules,
    players: Sequence[Player],
    deal: Deal,
    result: DealResult,
    evaluations: dict[int, Evaluation],
) -> dict[str, Any]:
    """The JSON-able record of a finished deal (string keys only, so it survives JSON).

    `players` are the match's players in seat order; `evaluations` is
    `deal.final_evaluations()` (already computed for the settlement)."""
    code = [c.code for c in deal.deck]
    final: dict[str, Any] = {}
    for s in deal.seats:
        entry: dict[str, Any] = {
            "status": deal.status[s].value,
            "out_reason": deal.out_reason[s].value if s in deal.out_reason else None,
            "cards": [c.code for c in deal.hands[s]],
            "turns_taken": deal.turns_taken[s],
        }
        if s in evaluations:
            entry["arrangement"] = _evaluation(evaluations[s])
        if s in deal.shown:
            entry["shown_groups"] = [[code[i] for i in g] for g in deal.shown[s]]
        final[str(s)] = entry
    wrong = {
        str(e.seat): [c.code for c in e.cards] for e in deal.events if isinstance(e, WrongShow)
    }
    return {
        "format_version": HISTORY_FORMAT_VERSION,
        "variant": rules.name,
        "rules": rules.to_dict(),
        "deal_number": result.number,
        "deal_seed": deal.seed,
        "seats": [
            {"seat": s, "player_id": players[s].id, "name": players[s].name} for s in deal.seats
        ],
        "dealer": deal.dealer,
        "indicator": None if deal.indicator is None else deal.indicator.code,
        "wild_rank": None if deal.wild_rank is None else rank_name(deal.wild_rank),
        "shuffle": _shuffle(deal),
        "deck_order": [code[i] for i in deal.order],
        "deck_order_ids": list(deal.order),
        "hands_dealt": {str(s): [c.code for c in h] for s, h in deal.dealt.items()},
        "opening_discard": deal.pile_log[0].card.code,
        "events": events_json(deal.events),
        "end": {
            "reason": result.end.value,
            "winner": result.winner,
            "winner_first_turn": deal.winner_first_turn,
        },
        "wrong_shows": wrong,
        "final": final,
        "charges": [c.to_dict() for c in result.charges],
        "deltas": {str(s): str(v) for s, v in result.deltas.items()},
    }
