"""The hand history: a finished deal as a self-contained, auditable JSON document.

A player who downloads it can re-check everything: the shuffled deck, the hands as dealt, every
draw and discard in order, how the deal ended, each final hand with the arrangement the engine
found, and every charge. The schema is documented in docs/hand-history.md; bump
`HISTORY_FORMAT_VERSION` when it changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .deal import Deal
from .evaluate import Evaluation
from .settlement import DealResult

if TYPE_CHECKING:
    from .match import Match

HISTORY_FORMAT_VERSION = 1
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _rank_name(rank: int | None) -> str | None:
    if rank is None:
        return None
    return _RANK_NAMES.get(rank, str(rank))


def _evaluation(ev: Evaluation) -> dict[str, Any]:
    return {
        "valid": ev.valid,
        "deadwood": ev.deadwood,
        "penalty": ev.penalty,
        "groups": [{"kind": g.kind.value, "cards": [c.code for c in g.cards]} for g in ev.groups],
        "leftover": [c.code for c in ev.leftover],
    }


def _event(deal: Deal, event: dict[str, Any]) -> dict[str, Any]:
    out = dict(event)
    if "order" in out:  # a reshuffle: the new stock, top first, as card codes
        out["order"] = [deal.card(i).code for i in out["order"]]
    return out


def build_hand_history(
    match: Match, deal: Deal, result: DealResult, evaluations: dict[int, Evaluation]
) -> dict[str, Any]:
    """The JSON-able record of a finished deal (string keys only, so it survives JSON)."""
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
    wrong = {str(e["seat"]): e.get("cards", []) for e in deal.events if e["action"] == "wrong_show"}
    return {
        "format_version": HISTORY_FORMAT_VERSION,
        "variant": match.rules.name,
        "rules": match.rules.to_dict(),
        "deal_number": result.number,
        "deal_seed": deal.seed,
        "seats": [
            {"seat": s, "player_id": match.players[s].id, "name": match.players[s].name}
            for s in deal.seats
        ],
        "dealer": deal.dealer,
        "indicator": None if deal.indicator is None else deal.indicator.code,
        "wild_rank": _rank_name(deal.wild_rank),
        "deck_order": [code[i] for i in deal.order],
        "deck_order_ids": list(deal.order),
        "hands_dealt": {str(s): [c.code for c in h] for s, h in deal.dealt.items()},
        "opening_discard": deal.pile_log[0].card.code,
        "events": [_event(deal, e) for e in deal.events],
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
