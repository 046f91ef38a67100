"""Finished deals and matches, as the records storage keeps for leaderboards and history.

The table layer knows who sat where (Discord user or AI); the engine knows scores and charges.
This module is the one place that joins the two into `DealRecord` / `MatchRecord`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from bot.engine.match import ScoreKind
from bot.engine.rules import MatchFormat
from bot.engine.settlement import DealResult
from bot.storage import DealRecord, DealSeatRecord, MatchRecord, MatchSeatRecord, Outcome

from .model import Table, json_default


def deal_record(
    table: Table, result: DealResult, history: dict[str, Any], finished_at: int
) -> DealRecord:
    m = table.match
    if m is None:
        raise LookupError("no match")
    charges = {c.seat: c for c in result.charges}
    seats: list[DealSeatRecord] = []
    for s, player in enumerate(m.players):
        if s not in result.deltas:
            continue
        info = table.seat_info(s)
        charge = charges.get(s)
        outcome: Outcome = result.outcome(s)
        delta = result.deltas.get(s, Fraction(0))
        seats.append(
            DealSeatRecord(
                user_id=info.user_id,
                name=player.name,
                is_ai=info.ai is not None,
                outcome=outcome,
                penalty=Fraction(0) if charge is None else charge.amount,
                net=delta if m.score_kind is ScoreKind.NET else -delta,
            )
        )
    return DealRecord(
        guild_id=table.guild_id,
        match_id=table.id,
        deal_no=result.number,
        profile=m.rules.name,
        finished_at=finished_at,
        hand_history_json=json.dumps(history, default=json_default),
        seats=seats,
        hints=table.options.hints,
    )


def match_record(table: Table, finished_at: int) -> MatchRecord:
    m = table.match
    if m is None:
        raise LookupError("no match")
    net = m.score_kind is ScoreKind.NET

    def key(s: int) -> tuple[int, Fraction]:
        if m.rules.match_format is MatchFormat.POOL:
            # Winner first, then the later a player went out, the better.
            if s in m.winners:
                return (0, Fraction(0))
            order = m.eliminated.index(s) if s in m.eliminated else -1
            return (1, Fraction(-order))
        return (0, -m.scores[s] if net else m.scores[s])

    order = sorted(range(len(m.players)), key=key)
    seats: list[MatchSeatRecord] = []
    place = 0
    previous: tuple[int, Fraction] | None = None
    for i, s in enumerate(order):
        k = key(s)
        if k != previous:
            place = i + 1
            previous = k
        info = table.seat_info(s)
        seats.append(
            MatchSeatRecord(
                user_id=info.user_id,
                name=m.players[s].name,
                is_ai=info.ai is not None,
                place=place,
                is_winner=s in m.winners,
                net=m.scores[s] if net else -m.scores[s],
            )
        )
    return MatchRecord(
        match_id=table.id,
        guild_id=table.guild_id,
        profile=m.rules.name,
        finished_at=finished_at,
        seats=seats,
        hints=table.options.hints,
        rated=table.options.rated,
    )
