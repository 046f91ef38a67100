"""Realistic, reproducible game states for the gallery, the tests and the benchmark.

States come from real matches played by the engine's own policies with fixed seeds, so the
images show hands that actually occur (groups, wild cards, a taken card) rather than invented
ones, and the same seed always gives the same state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.engine.actions import Action, ActionKind
from bot.engine.match import Match
from bot.engine.observation import Observation, PublicView
from bot.engine.policy import Policy, RandomPolicy

NAMES = ["Asha", "Bharat", "Chitra", "Devendra Kumar", "Esha", "Farhan"]


def _policies(n: int, seed: int) -> list[Policy]:
    try:
        from bot.ai import AiTier, make_policy

        return [make_policy(AiTier.MEDIUM, seed + i) for i in range(n)]
    except Exception:  # pragma: no cover - the AI package is optional for pictures
        return [RandomPolicy(random.Random(seed + i), drop_chance=0.0) for i in range(n)]


def play_until(
    match: Match, stop: Callable[[Match], bool], seed: int = 0, max_steps: int = 2000
) -> bool:
    """Let policies play until `stop(match)` holds (True) or the deal ends (False)."""
    policies = _policies(len(match.players), seed)
    for _ in range(max_steps):
        if stop(match):
            return True
        deal = match.deal
        if deal is None or deal.over or match.phase.value != "playing":
            return False
        seat = deal.turn
        match.apply(policies[seat].act(match.observation(seat)))
    return stop(match)


def new_match(seats: int, seed: int, profile: str = "paplu") -> Match:
    return Match.create(NAMES[:seats], profile, seed=seed)


def hand_states(seed: int = 7) -> dict[str, Observation]:
    """Named hand states of one seat: waiting, to draw, after a stock draw, after a take."""
    out: dict[str, Observation] = {}
    m = new_match(4, seed)
    play_until(m, lambda mm: mm.deal is not None and mm.deal.turns_taken[0] >= 3, seed)
    play_until(m, lambda mm: mm.deal is not None and mm.deal.turn == 1, seed)
    out["waiting"] = m.observation(0)
    play_until(m, lambda mm: mm.deal is not None and mm.deal.turn == 0, seed)
    out["to_draw"] = m.observation(0)
    drawn = Match.from_json(m.to_json())
    drawn.apply(Action.draw_stock(0))
    out["drawn"] = drawn.observation(0)
    taken = Match.from_json(m.to_json())
    if any(a.kind is ActionKind.TAKE_DISCARD for a in taken.legal_actions(0)):
        taken.apply(Action.take_discard(0))
        out["taken"] = taken.observation(0)
    return out


def table_view(seats: int, seed: int = 3, turns: int = 5) -> PublicView:
    """A table a few turns into the first deal."""
    m = new_match(seats, seed)
    play_until(m, lambda mm: mm.deal is not None and len(mm.deal.actions) >= turns * 2, seed)
    return m.public_view()


def finished_history(seats: int = 4, seed: int = 11) -> dict[str, Any]:
    """The hand history of a deal played to its end."""
    for attempt in range(20):
        m = new_match(seats, seed + attempt)
        play_until(m, lambda mm: mm.finished_deal() is not None, seed, max_steps=5000)
        finished = m.finished_deal()
        if finished is not None and not finished.result.void:
            return finished.history
    raise RuntimeError("no deal finished")
