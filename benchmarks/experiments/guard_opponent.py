"""A second independent opponent for measuring the tiers: a safety-first "guard" player.

`ReferencePolicy` (reference_opponent.py, beside this one) races on one-draw expectations of
the engine's deadwood. This one plays the other classic style of points rummy: keep the table from
collecting, and never get caught with a heavy hand. It shares no planning code with the tiers
(no distance, no structural score, no rollouts, no chip model):

* **throw**: for each legal card, the engine's deadwood of the 13 left (`evaluate_drawn`), plus
  a *danger* of the card for every opponent, computed here from the pile: a card of a rank an
  opponent took, or within two of a card of the suit they took, is dangerous; a card whose rank
  they threw or let pass is safe; dangers count more the longer the opponent has played. As the
  deal ages the guard weighs the card's own points more (`shed`), so late in the deal it throws
  its heaviest safe cards.
* **draw**: take the discard when it is wild, lets it declare, or lowers the deadwood by at least
  `take_gain` points (a take shows the table what it builds, so it must be worth it).
* **drop**: the cheap first drop when the hand has no two same-suit cards within two ranks, no
  wild card and a deadwood of at least `drop_deadwood`.
* **declare**: whenever a declaration is certainly valid.

Deterministic (no randomness) and reads only its `Observation`. Use it as a seat (from the
repository's root): `python -m bot.simulate --seats
expert,benchmarks.experiments.guard_opponent:GuardPolicy`, or as a `duplicate.py` variant. Not a
tier, so it lives with the benchmarks.
"""

from __future__ import annotations

import random

from bot.ai.common import (
    by_kind,
    discard_choices,
    distinct_faces,
    non_wild,
    pure_partials,
    safe_declaration,
)
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation


def _near(a: Face, b: Face) -> float:
    """How much a player collecting `a` would want `b`."""
    if a.is_joker or b.is_joker:
        return 0.0
    if a.rank == b.rank and a.suit != b.suit:
        return 1.0
    if a.suit == b.suit and a.rank != b.rank:
        pa = (1, 14) if a.rank == 1 else (a.rank,)
        pb = (1, 14) if b.rank == 1 else (b.rank,)
        d = min(abs(x - y) for x in pa for y in pb)
        return 1.0 if d == 1 else 0.5 if d == 2 else 0.0
    return 0.0


class GuardPolicy:
    """See the module docstring."""

    danger_points = 6.0  # deadwood points one unit of danger is worth, early ...
    danger_growth = 0.5  # ... times (1 + this * the opponent's turns / 10)
    shed = 0.25  # points of the thrown card's own value counted in its favour, per 10 turns
    take_gain = 6  # deadwood a take must save
    drop_deadwood = 60

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action:
        kinds = by_kind(obs)
        declare = safe_declaration(obs, kinds)
        if declare is not None:
            return declare
        if ActionKind.DISCARD in kinds:
            return Action.discard(obs.seat, self._throw(obs).id)
        if ActionKind.DROP in kinds and self._drop(obs):
            return kinds[ActionKind.DROP][0]
        take = kinds.get(ActionKind.TAKE_DISCARD)
        stock = kinds.get(ActionKind.DRAW_STOCK)
        top = obs.top_discard
        if take and top is not None and (not stock or self._take(obs, top)):
            return take[0]
        if stock:
            return stock[0]
        return obs.legal_actions[0]

    def _danger(self, obs: Observation, face: Face) -> float:
        """Summed over opponents: what they took near `face`, minus what they threw near it."""
        turns: dict[int, int] = {}
        took: dict[int, list[Face]] = {}
        threw: dict[int, list[Face]] = {}
        for e in obs.pile_history:
            if e.discarded_by is not None and e.discarded_by != obs.seat:
                turns[e.discarded_by] = turns.get(e.discarded_by, 0) + 1
                threw.setdefault(e.discarded_by, []).append(e.card.face)
            if e.taken_by is not None and e.taken_by != obs.seat:
                took.setdefault(e.taken_by, []).append(e.card.face)
        total = 0.0
        for s in obs.seats:
            if s.seat == obs.seat or s.status != "active":
                continue
            want = sum(_near(f, face) for f in took.get(s.seat, ()))
            safe = sum(0.5 * _near(f, face) for f in threw.get(s.seat, ()))
            if any(f == face for f in threw.get(s.seat, ())):
                safe += 1.0
            grow = 1.0 + self.danger_growth * turns.get(s.seat, 0) / 10
            total += max(0.0, want - safe) * grow
        return total

    def _throw(self, obs: Observation) -> Card:
        rules, wr = obs.rules, obs.wild_rank
        legal = discard_choices(obs)
        cands = distinct_faces(non_wild(legal, rules, wr) or legal)
        ev = evaluate_drawn(obs.hand, rules, wr, forbidden=obs.taken)
        dead = {c.face: e.deadwood for c, e in ev.by_discard}
        age = len(obs.pile_history) / 10
        best: tuple[float, int, Card] | None = None
        for c in cands:
            score = (
                dead.get(c.face, 200)
                + self.danger_points * self._danger(obs, c.face)
                - self.shed * age * c.face.value
            )
            key = (score, -c.face.value, c)
            if best is None or key[:2] < best[:2]:
                best = key
        assert best is not None
        return best[2]

    def _take(self, obs: Observation, top: Card) -> bool:
        rules, wr = obs.rules, obs.wild_rank
        if rules.is_wild(top.face, wr):
            return True
        drawn = evaluate_drawn([*obs.hand, top], rules, wr, forbidden=top)
        if drawn.declarable:
            return True
        now = evaluate_hand(obs.hand, rules, wr).deadwood
        return drawn.best.deadwood <= now - self.take_gain

    def _drop(self, obs: Observation) -> bool:
        cost = obs.drop_cost
        if cost is None or cost != obs.rules.first_drop:
            return False
        rules, wr = obs.rules, obs.wild_rank
        if pure_partials(obs.hand, rules, wr) or any(rules.is_wild(c.face, wr) for c in obs.hand):
            return False
        return evaluate_hand(obs.hand, rules, wr).deadwood >= self.drop_deadwood
