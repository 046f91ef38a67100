"""An independent strong opponent for measuring `hard`: one-draw expectimax on the engine's ruling.

Hard plans with a structural score (`shape.py`) and sampled multi-draw rollouts; measuring it
only against weaker tiers built from the same parts would flatter it. This policy shares none of
that: it asks the engine's evaluator directly, and for every choice it enumerates *every* unseen
face it might draw next (weighted by its live copies) instead of sampling:

* throw: for each of the few best throws by the engine's deadwood, the expected deadwood after
  the next draw (the best throw among the drawn card and the highest loose cards; a draw that
  completes a declaration counts `WIN_VALUE` below zero);
* draw: take the discard when the 13 it leaves are worth more than what a stock draw brings
  on average (the same expectation), or when it completes a declaration;
* drop: a first-turn drop only when the hand has no same-suit neighbours and no wild card, and
  its expected deadwood after a draw is still far above the drop's cost;
* declare: whenever a declaration is certainly valid.

It is deterministic (no sampling at all) and reads only its `Observation`. Use it as a seat
(from the repository's root): `python -m bot.simulate --seats
hard,benchmarks.experiments.reference_opponent:ReferencePolicy`, or as a `duplicate.py`
variant. It is not a tier offered to players (it is slow: tens of evaluations per unseen face),
so it lives with the benchmarks; its one-draw expectation and draw rule are in
`bot/ai/expectation.py`, since the expert takes from the pile by that rule.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from bot.ai.common import (
    by_kind,
    discard_choices,
    distinct_faces,
    non_wild,
    pure_partials,
    safe_declaration,
)
from bot.ai.expectation import expected_after_draw, take_by_expectation
from bot.ai.tracking import Tracker
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.evaluate import evaluate_drawn
from bot.engine.observation import Observation

CANDIDATES = 4  # throws examined by the expectation (the best by the engine's deadwood)


def deadwood_candidates(
    hand: Sequence[Card],
    cands: Sequence[Card],
    obs: Observation,
    forbidden: Card | None,
    k: int = CANDIDATES,
) -> list[Card]:
    """The `k` throws among `cands` that leave the least deadwood by the engine's ruling
    (ties: the higher card first, then by id): the throws the expectation examines."""
    ev = evaluate_drawn(hand, obs.rules, obs.wild_rank, forbidden=forbidden)
    dead = {c.face: e.deadwood for c, e in ev.by_discard}
    return sorted(cands, key=lambda c: (dead.get(c.face, 999), -c.face.value, c.id))[:k]


class ReferencePolicy:
    """See the module docstring. Its constructor takes the simulator's generator and ignores
    it: every decision is a pure function of the observation."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action:
        kinds = by_kind(obs)
        declare = safe_declaration(obs, kinds)
        if declare is not None:
            return declare
        unseen = Counter(Tracker.from_observation(obs).unseen_faces())
        if ActionKind.DISCARD in kinds:
            return Action.discard(obs.seat, self._throw(obs, unseen).id)
        top = obs.top_discard
        if ActionKind.DROP in kinds and self._drop(obs, unseen):
            return kinds[ActionKind.DROP][0]
        take = kinds.get(ActionKind.TAKE_DISCARD)
        stock = kinds.get(ActionKind.DRAW_STOCK)
        if take and (not stock or (top is not None and self._take(obs, top, unseen))):
            return take[0]
        if stock:
            return stock[0]
        return obs.legal_actions[0]

    def _throw(self, obs: Observation, unseen: Counter[Face]) -> Card:
        rules, wr = obs.rules, obs.wild_rank
        legal = discard_choices(obs)
        cands = distinct_faces(non_wild(legal, rules, wr) or legal)
        best: tuple[float, int, int, Card] | None = None
        for c in deadwood_candidates(obs.hand, cands, obs, obs.taken):
            kept = [x for x in obs.hand if x.id != c.id]
            value, _ = expected_after_draw(kept, unseen, obs)
            key = (value, -c.face.value, c.id, c)
            if best is None or key[:3] < best[:3]:
                best = key
        assert best is not None
        return best[3]

    def _take(self, obs: Observation, top: Card, unseen: Counter[Face]) -> bool:
        return take_by_expectation(obs, top, unseen)

    def _drop(self, obs: Observation, unseen: Counter[Face]) -> bool:
        """Only the cheap first drop, and only for a hand with nothing to build a pure
        sequence from and no wild card: early on almost every hand's expected deadwood is
        high (without a pure sequence every card counts), so that alone says little."""
        cost = obs.drop_cost
        if cost is None or cost != obs.rules.first_drop:
            return False
        rules, wr = obs.rules, obs.wild_rank
        if pure_partials(obs.hand, rules, wr) or any(rules.is_wild(c.face, wr) for c in obs.hand):
            return False
        expected, winners = expected_after_draw(obs.hand, unseen, obs)
        return winners == 0 and expected > 2.5 * cost
