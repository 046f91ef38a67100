"""Lookahead by sampling the unseen cards (determinised Monte Carlo rollouts).

The question a discard or a draw really asks is "which choice gets me to a declaration
soonest?". Our next stock cards are among the unseen cards (neither in our hand nor known to be
anywhere else: see `tracking.py`), so we sample a few sequences of them and play each one out
greedily with the structural score, noting whether and when the engine rules the hand valid.
Averaging over the futures rewards hands with many live ways forward, and finishing first is
what wins a deal.

Every candidate is measured against the *same* futures (common random numbers), so the
comparison between candidates is far less noisy than the futures' own spread. The number of
futures is fixed and nothing here reads a clock: the work a decision does is counted in
rollouts, never in seconds, so a seed gives the same decision on an idle or an overloaded
machine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card, Face
from bot.engine.evaluate import Evaluation, evaluate_hand
from bot.engine.quickcheck import may_declare
from bot.engine.rules import Rules

from .shape import Live, shape_cost

# A sampled card gets an id no real deck uses, so it never collides with a physical card.
_SAMPLE_ID_BASE = 1_000_000


def weakest(
    hand: Sequence[Card], rules: Rules, wild_rank: int | None, live: Live, k: int
) -> list[Card]:
    """The `k` non-wild cards whose removal leaves the lowest structural cost."""
    scored: list[tuple[float, int, Card]] = []
    seen: set[Face] = set()
    for c in hand:
        if c.face in seen or rules.is_wild(c.face, wild_rank):
            continue
        seen.add(c.face)
        rest = [x for x in hand if x.id != c.id]
        scored.append((shape_cost(rest, rules, wild_rank, live), -c.face.value, c))
    scored.sort(key=lambda t: (t[0], t[1], t[2].id))
    return [c for _, _, c in scored[:k]]


# ---- rollouts: several draws ahead ------------------------------------------------------------

DECLARE_BONUS = 25.0  # a declaration reached in a rollout beats any undeclared hand
DECLARE_STEP = 8.0  # ... and an earlier one beats a later one by this much per draw
VALID_SHAPE_MAX = 30.0  # valid hands measured at most ~29 by the structural score


def sample_sequences(
    unseen: Sequence[Face], n: int, length: int, rng: random.Random
) -> list[list[Card]]:
    """`n` sequences of `length` future stock cards (no repeats within a sequence)."""
    if len(unseen) < length or length <= 0:
        return []
    out = []
    for i in range(n):
        faces = rng.sample(list(unseen), length)
        out.append([Card(_SAMPLE_ID_BASE + i * 16 + j, f) for j, f in enumerate(faces)])
    return out


def rollout_value(
    hand13: Sequence[Card],
    sequences: Sequence[Sequence[Card]],
    rules: Rules,
    wild_rank: int | None,
    live: Live,
    throw_pool: Sequence[Card],
    offset: int = 0,
) -> float:
    """Mean speed score of `hand13` over sampled futures (lower is better).

    Each future is a sequence of our next stock draws. The hand plays them greedily: keep the
    best 13 by the structural score (throwing the drawn card or one of the weak cards of
    `throw_pool`) and stop as soon as the engine rules those 13 a valid declaration (asked only
    when the structural cost is already low: the evaluator is the expensive part). A declaration
    at draw t scores `-DECLARE_BONUS - DECLARE_STEP * (horizon - t)`; a future that never
    declares scores the structural cost it ends with. `offset` shifts the draw count, so a hand
    that has already used a draw (a take from the pile) is compared fairly with one that has not.

    This is the part that rewards *speed*: two hands with the same structural cost can differ a
    lot in how often they finish within a few draws, and finishing first is what wins a deal.
    """
    if not sequences:
        return shape_cost(hand13, rules, wild_rank, live)
    horizon = offset + max(len(s) for s in sequences)
    total = 0.0
    for seq in sequences:
        hand = list(hand13)
        pool = [c for c in throw_pool if any(c.id == h.id for h in hand)]
        value: float | None = None
        cost = 0.0
        for t, x in enumerate(seq):
            step = offset + t
            best_cost = shape_cost(hand, rules, wild_rank, live)  # throw the drawn card
            best_throw: Card | None = None
            for c in pool:
                rest = [h for h in hand if h.id != c.id]
                rest.append(x)
                v = shape_cost(rest, rules, wild_rank, live)
                if v < best_cost:
                    best_cost, best_throw = v, c
            if best_throw is not None:
                hand = [h for h in hand if h.id != best_throw.id]
                hand.append(x)
                pool = [c for c in pool if c.id != best_throw.id]
            cost = best_cost
            # Only a hand that already looks finished is worth asking the evaluator about.
            if (
                best_cost <= VALID_SHAPE_MAX
                and may_declare(hand, rules, wild_rank, spare=0)
                and evaluate_hand(hand, rules, wild_rank).valid
            ):
                value = -DECLARE_BONUS - DECLARE_STEP * (horizon - step)
                break
        total += cost if value is None else value
    return total / len(sequences)


# ---- one draw ahead, every unseen face --------------------------------------------------------

NEXT_WIN = 20.0  # a declaration on the very next draw, in deadwood points below zero
_PROBE_ID = 1_500_000


@dataclass(frozen=True, slots=True)
class NextDraw:
    """What the next draw does for 13 kept cards, over every unseen face by its live copies."""

    expected: float  # mean deadwood after the draw and the best throw (a declaring draw: `win`)
    winners: int  # unseen copies that would let the hand declare
    useful: int  # unseen copies that would lower its deadwood


def next_draw(
    kept: Sequence[Card],
    now: Evaluation,
    unseen: Counter[Face],
    rules: Rules,
    wild_rank: int | None,
    throws: int,
    win: float = 0.0,
) -> NextDraw:
    """`kept` (ruled `now`) after the next draw, for every unseen face: no sampling noise at
    depth one. After each imagined draw the best of the `throws` highest loose cards (or the
    drawn card) goes; a draw that completes a declaration scores `win`. A full 14-card ruling
    per face would cost ~10x more; the few highest loose cards are enough. Costs at most
    `throws` evaluations per distinct unseen face."""
    loose = sorted(now.leftover, key=lambda c: (-c.face.value, c.id))[:throws]
    total = 0.0
    copies = winners = useful = 0
    for face, n in unseen.items():
        if n <= 0:
            continue
        probe = Card(_PROBE_ID, face)
        best = float(now.deadwood)
        declares = False
        for c in loose:
            ev = evaluate_hand([*(k for k in kept if k.id != c.id), probe], rules, wild_rank)
            if ev.valid:
                declares, best = True, win
                break
            best = min(best, float(ev.deadwood))
        total += n * best
        copies += n
        if declares:
            winners += n
        if best < now.deadwood:
            useful += n
    return NextDraw(total / copies if copies else float(now.deadwood), winners, useful)


def next_draw_value(
    kept: Sequence[Card], unseen: Counter[Face], rules: Rules, wild_rank: int | None, throws: int
) -> float:
    """The engine's deadwood of `kept` (13 cards) after the next draw, averaged over *every*
    unseen face weighted by its live copies (`next_draw`), where rollouts are noisiest; a
    declaration, now or on the next draw, scores `-NEXT_WIN`."""
    now = evaluate_hand(kept, rules, wild_rank)
    if now.valid:
        return -NEXT_WIN
    return next_draw(kept, now, unseen, rules, wild_rank, throws, win=-NEXT_WIN).expected
