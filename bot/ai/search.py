"""Information-set search: deal the unseen cards, play a few turns, average the chips.

A seat cannot see the other hands or the stock, so it cannot search the real game tree. It can
search many *determinisations*: deals of the unseen cards that agree with what it knows (cards
an opponent took from the pile and kept are in that hand; the rest of each hidden hand is drawn
from the unseen cards, a card near what that opponent collects more likely, near what it threw
or let pass less likely, as `Tracker.interest` reads it), the remaining unseen cards shuffled
into the stock. In each, every seat plays `depth` rounds with a fast policy (take the discard
only when it is wild or completes a group, throw the least connected highest card, declare
when the hand is at distance 0) and the result is counted in chips: the real settlement when
somebody declared, otherwise the chip value of the position reached (`chips.race` with every
hand known).

The rollout policy is the fast one above or, with `rollout="greedy"`, one that reads the
distance: take the open card when it lowers the distance (or is wild), throw the highest of the
least connected cards that keeps the distance. Candidate throws are compared on the *same*
determinisations (common random numbers), which cancels most of the luck of the deal. The
budget is `SearchBudget`: determinisations x depth, fixed per decision; nothing reads a clock,
and the only randomness is the generator the caller passes (derived from the policy's seed and
the observation), so a seed gives the same move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.evaluate import evaluate_hand
from bot.engine.observation import Observation
from bot.engine.rules import Rules

from .chips import finish_chances, race, step_rate
from .common import completes_group, linked
from .distance import HandCode, distance, set_limit
from .tracking import Tracker

_DEAL_ID_BASE = 2_000_000  # ids no real deck uses
LEAF_GAIN = 40.0  # chips an opponent pays when this seat wins, at a leaf


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """Work per searched decision: `determinisations` deals, each played `depth` rounds."""

    determinisations: int
    depth: int

    @property
    def work(self) -> int:
        """Rounds simulated per candidate (the unit the budget is counted in)."""
        return self.determinisations * self.depth


@dataclass
class Work:
    """Work done by the last `search_values` (or `search_throws`) call (tests check it stays
    within the budget)."""

    rounds: int = 0  # rounds simulated, over every candidate and determinisation
    deals: int = 0  # determinisations dealt


LAST_WORK = Work()


@dataclass
class _World:
    hands: dict[int, list[Card]]
    stock: list[Card]
    top: Card | None
    order: list[int]  # seats in playing order, starting with the seat to move


def fitted_distance(turns: int) -> float:
    """The mean distance of a hard opponent's 13 cards after `turns` turns of its own
    (hard vs hard, heads-up points, 30 deals, deals still running): 2.70, 2.31, 1.85, 1.58,
    then about 1.45. A hand drawn at random from the unseen cards sits near 3.4 all deal."""
    return max(1.45, 2.7 - 0.38 * turns)


def determinise(
    obs: Observation, t: Tracker, rng: random.Random, fit: int = 0
) -> tuple[dict[int, list[Card]], list[Card]]:
    """One deal of the unseen cards consistent with the evidence: hidden hands and a stock.
    With `fit` > 0, each hidden hand is the one of `fit` draws whose distance is nearest a
    target drawn around `fitted_distance` of the turns that seat has played (a random hand is
    much further from a declaration than a played one)."""
    pool = list(t.unseen_faces())
    rng.shuffle(pool)
    hands: dict[int, list[Card]] = {}
    next_id = _DEAL_ID_BASE
    sizes = {s.seat: s.cards for s in obs.seats}
    turns: dict[int, int] = {}
    for e in obs.pile_history:
        if e.discarded_by is not None:
            turns[e.discarded_by] = turns.get(e.discarded_by, 0) + 1
    rules, wr = obs.rules, obs.wild_rank
    set_max = set_limit(rules)
    for s in obs.seats:
        if s.seat == obs.seat or s.status != "active":
            continue
        known = [f for f, n in t.holds.get(s.seat, {}).items() for _ in range(n)]
        need = max(0, sizes.get(s.seat, 13) - len(known))
        weights = [math.exp(max(-2.0, min(2.0, 0.5 * t.interest(s.seat, f)))) for f in pool]
        target = 0
        if fit > 0:
            target = math.floor(fitted_distance(turns.get(s.seat, 0)) + rng.random())
        best: tuple[int, list[int]] | None = None
        for _ in range(max(1, fit)):
            # weighted draw without replacement (Efraimidis-Spirakis keys)
            keyed = [(rng.random() ** (1.0 / w), i) for i, w in enumerate(weights)]
            keyed.sort(reverse=True)
            pick = sorted(i for _, i in keyed[:need])
            if fit <= 0:
                best = (0, pick)
                break
            code = HandCode.of(
                [Card(0, f) for f in known] + [Card(0, pool[i]) for i in pick], rules, wr
            )
            gap = abs(distance(code, set_max) - target)
            if best is None or gap < best[0]:
                best = (gap, pick)
            if gap == 0:
                break
        assert best is not None
        pick = best[1]
        faces = known + [pool[i] for i in pick]
        for i in reversed(pick):
            pool.pop(i)
        cards = []
        for f in faces:
            cards.append(Card(next_id, f))
            next_id += 1
        hands[s.seat] = cards
    stock = []
    for f in pool[: max(0, obs.stock_size)]:
        stock.append(Card(next_id, f))
        next_id += 1
    return hands, stock


def _throw(hand: Sequence[Card], rules: Rules, wr: int | None, forbidden: Card | None) -> Card:
    """The fast policy's throw: the least connected card, the highest of those, never wild."""
    best: tuple[int, int, int] | None = None
    pick = hand[0]
    for c in hand:
        if forbidden is not None and c.id == forbidden.id:
            continue
        if rules.is_wild(c.face, wr):
            continue
        links = sum(1 for o in hand if o.id != c.id and linked(c.face, o.face))
        key = (links, -c.face.value, c.id)
        if best is None or key < best:
            best, pick = key, c
    return pick


class _Known:
    """An opponent whose hand the determinisation knows: its hazard from its distance."""

    __slots__ = ("finish",)

    def __init__(self, finish: list[float]) -> None:
        self.finish = finish

    def hazard(self, ahead: int = 0) -> float:
        left = 1.0 - sum(self.finish[:ahead])
        return 0.0 if left <= 1e-9 else min(1.0, self.finish[ahead] / left)


def _leaf(me: int, w: _World, rules: Rules, wr: int | None, horizon: int = 12) -> float:
    set_max = set_limit(rules)
    mine = w.hands[me]
    d = distance(HandCode.of(mine, rules, wr), set_max)
    finish = finish_chances(d, step_rate(d), horizon)
    opps = []
    for s, h in w.hands.items():
        if s == me:
            continue
        od = distance(HandCode.of(h, rules, wr), set_max)
        opps.append(_Known(finish_chances(od, step_rate(od), horizon)))
    pay = float(evaluate_hand(mine, rules, wr).penalty)
    return race(finish, pay, opps, LEAF_GAIN, 0.92, me_first=w.order[0] == me).chips


def _greedy_take(
    hand: list[Card], top: Card | None, rules: Rules, wr: int | None, set_max: int
) -> bool:
    """The greedy rollout's draw: take the open card if it is wild or lowers the distance."""
    if top is None:
        return False
    if rules.is_wild(top.face, wr):
        return True
    code = HandCode.of(hand, rules, wr)
    return distance(code.plus(top.face, False), set_max) < distance(code, set_max)


def _greedy_throw(
    hand: Sequence[Card],
    rules: Rules,
    wr: int | None,
    set_max: int,
    forbidden: Card | None,
    target: int,
    tries: int = 4,
) -> Card:
    """The greedy rollout's throw: among the `tries` least connected non-wild cards (highest
    first), the first that keeps the 14 cards' distance `target`, else the least distance."""
    keyed = []
    for c in hand:
        if (forbidden is not None and c.id == forbidden.id) or rules.is_wild(c.face, wr):
            continue
        links = sum(1 for o in hand if o.id != c.id and linked(c.face, o.face))
        keyed.append((links, -c.face.value, c.id, c))
    if not keyed:
        return _throw(hand, rules, wr, forbidden)
    keyed.sort(key=lambda k: k[:3])
    code = HandCode.of(hand, rules, wr)
    best: tuple[int, int] | None = None
    pick = keyed[0][3]
    for i, (_, _, _, c) in enumerate(keyed[:tries]):
        d = distance(code.minus(c.face, False), set_max)
        if d <= target:
            return c
        if best is None or (d, i) < best:
            best, pick = (d, i), c
    return pick


def _play(
    me: int, w: _World, rules: Rules, wr: int | None, depth: int, rollout: str = "fast"
) -> float:
    """Play `depth` rounds of the rollout policy from `w`; chips for `me`. `rollout`: "fast"
    (take a wild or group-completing card, throw the least connected highest card) or
    "greedy" (take a card that lowers the distance, throw a loose card that keeps it)."""
    set_max = set_limit(rules)
    greedy = rollout == "greedy"
    for _ in range(depth):
        LAST_WORK.rounds += 1
        for seat in w.order:
            hand = w.hands[seat]
            top = w.top
            taken: Card | None = None
            if greedy:
                take = _greedy_take(hand, top, rules, wr, set_max)
            else:
                take = top is not None and (
                    rules.is_wild(top.face, wr) or completes_group(top.face, hand, rules, wr)
                )
            if take and top is not None:
                taken = top
                hand.append(top)
            elif w.stock:
                hand.append(w.stock.pop())
            else:
                return 0.0  # stock out: treat as a void deal
            # distance 0 after the draw: some throw leaves a valid declaration (the distance
            # ignores a few rare layouts; a rollout may miss those, never invent one)
            after = distance(HandCode.of(hand, rules, wr), set_max)
            if after == 0:
                if seat == me:
                    return sum(
                        float(evaluate_hand(h, rules, wr).penalty)
                        for s, h in w.hands.items()
                        if s != me
                    )
                return -float(evaluate_hand(w.hands[me], rules, wr).penalty)
            if greedy:
                out = _greedy_throw(hand, rules, wr, set_max, taken, after)
            else:
                out = _throw(hand, rules, wr, taken)
            hand.remove(out)
            w.top = out
    return _leaf(me, w, rules, wr)


def search_throws(
    obs: Observation,
    t: Tracker,
    throws: Sequence[Card],
    budget: SearchBudget,
    rng: random.Random,
    rollout: str = "fast",
) -> float:
    """Mean searched chips of throwing `throws[1]` minus throwing `throws[0]`, over the same
    `budget.determinisations` deals, each played `budget.depth` rounds after the throw."""
    values = search_values(obs, t, throws[:2], budget, rng, rollout)
    return values[1] - values[0]


def search_values(
    obs: Observation,
    t: Tracker,
    throws: Sequence[Card],
    budget: SearchBudget,
    rng: random.Random,
    rollout: str = "fast",
    fit: int = 0,
) -> list[float]:
    """Mean searched chips of each throw in `throws`, over the same
    `budget.determinisations` deals, each played `budget.depth` rounds after the throw."""
    rules, wr = obs.rules, obs.wild_rank
    active = [s.seat for s in obs.seats if s.status == "active"]
    i = active.index(obs.seat)
    order_after = active[i + 1 :] + active[:i] + [obs.seat]
    totals = [0.0] * len(throws)
    LAST_WORK.rounds = 0
    LAST_WORK.deals = 0
    for _ in range(budget.determinisations):
        hands, stock = determinise(obs, t, rng, fit)
        LAST_WORK.deals += 1
        for k, c in enumerate(throws):
            w = _World(
                {s: list(h) for s, h in hands.items()}
                | {obs.seat: [x for x in obs.hand if x.id != c.id]},
                list(stock),
                c,
                order_after,
            )
            totals[k] += _play(obs.seat, w, rules, wr, budget.depth, rollout)
    n = max(1, budget.determinisations)
    return [v / n for v in totals]
