"""One draw ahead on the engine's deadwood: the expert's rule for taking the open card.

For 13 kept cards, every unseen face the next stock draw could bring is tried (weighted by its
live copies, no sampling): after each, the best of throwing one of the few highest loose cards
back, by the engine's deadwood (a draw that completes a declaration counts `WIN_VALUE` below
zero). `take_by_expectation` takes the open card when the best 13 it leaves have less deadwood
than that mean, by a margin, or when it declares at once.

The rule comes from the reference opponent the tiers are measured against
(`benchmarks/experiments/reference_opponent.py`, which throws by the same expectation); the
expert adopted its draw rule (docs/ai.md, "Kept": take by expected deadwood), so it lives here.
Pure and deterministic: a function of the observation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.engine.cards import Card, Face
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation

_PROBE_ID = 3_000_000
WIN_VALUE = 15.0  # a declaration reached on the next draw beats any deadwood by this much
THROWS_TRIED = 3  # loose cards tried as the throw after each imagined draw
TAKE_MARGIN = 1.0  # a take shows the table a card; demand a small gain


def expected_after_draw(
    kept: Sequence[Card], unseen: Counter[Face], obs: Observation
) -> tuple[float, int]:
    """Mean best deadwood of `kept` (13 cards) after one more draw from `unseen`, and how
    many unseen copies would complete a declaration."""
    rules, wr = obs.rules, obs.wild_rank
    now = evaluate_hand(kept, rules, wr)
    if now.valid:
        return -WIN_VALUE, sum(unseen.values())
    loose = sorted(now.leftover, key=lambda c: (-c.face.value, c.id))[:THROWS_TRIED]
    total = 0.0
    copies = 0
    winners = 0
    for face, n in unseen.items():
        if n <= 0:
            continue
        probe = Card(_PROBE_ID, face)
        best = float(now.deadwood)
        for c in loose:
            ev = evaluate_hand([*(k for k in kept if k.id != c.id), probe], rules, wr)
            if ev.valid:
                best = -WIN_VALUE
                winners += n
                break
            best = min(best, float(ev.deadwood))
        total += n * best
        copies += n
    return (total / copies if copies else float(now.deadwood)), winners


def take_by_expectation(
    obs: Observation, top: Card, unseen: Counter[Face], margin: float = TAKE_MARGIN
) -> bool:
    """Take the open card when it completes a declaration, or when the best 13 it leaves
    have less deadwood than a stock draw leaves on average (by `margin`)."""
    rules, wr = obs.rules, obs.wild_rank
    drawn = evaluate_drawn([*obs.hand, top], rules, wr, forbidden=top)
    if drawn.declarable:
        return True
    after_take = float(drawn.best.deadwood)
    after_stock, _ = expected_after_draw(obs.hand, unseen, obs)
    return after_take < after_stock - margin
