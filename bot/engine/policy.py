"""Players that are programs: the `Policy` protocol and a random player.

A policy sees exactly what a human at the seat would see, an `Observation`, and answers with
one of `obs.legal_actions`. That keeps AI players honest (they cannot peek at other hands) and
lets the simulator, the tests and the Discord bot drive any mix of humans and programs the same
way. Smarter policies (bot/ai/...) implement the same protocol and register a factory under a
name so `python -m bot.simulate --seats easy,random` can find them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from .actions import Action, ActionKind
from .evaluate import evaluate_drawn
from .observation import Observation
from .quickcheck import may_declare
from .rules import DeclarationMode


class Policy(Protocol):
    """Chooses a move for the seat of `obs`; must return one of `obs.legal_actions`."""

    def act(self, obs: Observation) -> Action: ...


PolicyFactory = Callable[[random.Random], Policy]
POLICIES: dict[str, PolicyFactory] = {}


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make a policy available by name (e.g. to the simulator's --seats option)."""
    POLICIES[name] = factory


class RandomPolicy:
    """Mostly random moves: draws from either pile, throws a random card, sometimes drops,
    and always declares when it can (in honor mode it checks first, and now and then makes a
    deliberate wrong show so that rule gets exercised)."""

    def __init__(
        self, rng: random.Random, drop_chance: float = 0.08, wrong_show_chance: float = 0.01
    ) -> None:
        self.rng = rng
        self.drop_chance = drop_chance
        self.wrong_show_chance = wrong_show_chance

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if not legal:
            raise ValueError("no legal action for this seat")
        by_kind: dict[ActionKind, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        declares = by_kind.get(ActionKind.DECLARE, [])
        if declares:
            if obs.rules.declaration_mode is DeclarationMode.ASSISTED:
                return declares[0]  # assisted mode lists only verified declarations
            honest = self._honest_declaration(obs)
            if honest is not None:
                return honest
            if self.rng.random() < self.wrong_show_chance:
                return self.rng.choice(declares)
        if ActionKind.DROP in by_kind and self.rng.random() < self.drop_chance:
            return by_kind[ActionKind.DROP][0]
        draws = by_kind.get(ActionKind.DRAW_STOCK, []) + by_kind.get(ActionKind.TAKE_DISCARD, [])
        if draws:
            return self.rng.choice(draws)
        return self.rng.choice(by_kind[ActionKind.DISCARD])

    def _honest_declaration(self, obs: Observation) -> Action | None:
        hand, rules = obs.hand, obs.rules
        if len(hand) != 14 or not may_declare(hand, rules, obs.wild_rank, spare=1):
            return None
        ev = evaluate_drawn(hand, rules, obs.wild_rank, forbidden=obs.taken)
        for c in ev.winning_discards:
            if obs.taken is None or c.id != obs.taken.id:
                return Action.declare(obs.seat, c.id)
        return None


register_policy("random", RandomPolicy)
