"""A throw's value in chips fitted from play (once the expert's `throw_model = "fitted"`).

The hand-weighted model (`bot/ai/expert.py`) prices a turn of progress and a point held by
argument; this one lets simulated deals say what they are worth. Each candidate throw is
described by a few cheap figures of the position after it, all read from the seat's
`Observation` (never a hidden hand or the stock): hard's expected turns to a declaration, the
distance, the share of unseen cards that help, the penalty points kept, the feed danger of the
card, the structural score and `chips.race`'s value, with the points and the turns also crossed
with how close the opponents seem (`closeness.py`) and how late the deal is. The prediction is
a weighted sum.

The weights were fitted by `benchmarks/fit_throw_value.py`: at throw decisions of the expert
(default settings) against hard, heads-up points, every candidate throw was played out on a
copy of the match (the same stock for every candidate, both seats then playing their own
policy to the deal's end), and least squares fitted the differences between candidates of one
decision (each decision's mean removed) in the seat's final chips. Only those differences
choose a throw, so the model has no intercept and no term that is the same for every
candidate of a decision. The figures are beside `WEIGHTS`.

It was measured and not kept (the expert's "turns" model stayed, and the switch and this
module left the bot in issue 38): the fitted ranking did worse than the hand-set prices,
two-fold on the fit data and in duplicate play (figures in docs/ai.md). The labels are the
reason found: the chips after one throw differ by about 20 from its decision's mean, mostly by
what the throw changes downstream (the opponent's take, hence who draws which stock card), so
1,814 decisions fix twelve weights poorly, and a linear sum does not keep the hand-set model's
near-lexicographic respect for a step of distance.

`candidate_features` computes the features of the candidates the expert weighs, from its own
observation, as the expert computed them beside its values while it had the switch. Pure
arithmetic on the features: no randomness, no search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from bot.ai.closeness import Closeness
from bot.ai.expert import ExpertPolicy, ThrowValue
from bot.ai.shape import shape_cost
from bot.ai.tracking import Tracker
from bot.engine.observation import Observation


class ThrowState(NamedTuple):
    """What a throw decision's candidates share (read from the observation)."""

    soon: float  # chance that some opponent declares within the expert's `soon_rounds`
    near: float  # ... within the coming round
    late: float  # how far the deal is: pile size / 30, at most 1


FEATURES = (
    "turns",  # hard's expected turns to a declaration, in tens (capped at 40 turns)
    "distance",  # draws the kept 13 still need
    "good_share",  # unseen cards that would bring them a step closer, per 10% of the unseen
    "points",  # penalty points kept (what an opponent's declaration would cost), in tens
    "points_soon",  # points x the chance of an opponent declaring soon
    "points_near",  # points x the chance of an opponent declaring in the coming round
    "points_late",  # points x lateness
    "turns_soon",  # turns x the chance of an opponent declaring soon
    "turns_late",  # turns x lateness
    "danger",  # feed danger of the thrown card, in turns (points / 8, as hard weighs it)
    "shape",  # the structural score of the kept 13, in tens
    "race",  # `chips.race`'s expected chips of the position, in tens
)


def throw_features(
    state: ThrowState,
    distance: int,
    good: int,
    unseen: int,
    turns: float,
    points: float,
    shape: float,
    danger: float,
    race_chips: float,
) -> tuple[float, ...]:
    """The features of the position after one candidate throw, in the order of `FEATURES`.
    Scaled to similar sizes so that the least squares fit is well conditioned."""
    t = min(turns, 40.0) / 10.0
    p = points / 10.0
    return (
        t,
        float(distance),
        10.0 * good / max(1, unseen),
        p,
        p * state.soon,
        p * state.near,
        p * state.late,
        t * state.soon,
        t * state.late,
        danger / 8.0,
        shape / 10.0,
        race_chips / 10.0,
    )


# Chips per unit of each feature, in the order of FEATURES. Fitted by
# `benchmarks/fit_throw_value.py fit --ridge 100` on 1,814 throw decisions (5,000-odd labelled
# candidates) of the default expert against hard: `collect --deals 200` at seeds 5100 and 5200.
WEIGHTS: tuple[float, ...] = (
    -0.3662, -2.564, 0.2656, -0.6435, -2.272, -1.249,
    -2.471, -0.1358, -0.1549, -0.8456, -2.368, 2.904,
)  # fmt: skip
# The same data fitted on three features only (turns, points, points_soon; `--ridge 10`): the
# structure of the expert's "turns" model, its prices read from play (about 0.5 chips a turn
# against its 3, 0.14 a point kept plus 0.8 a point times the chance of losing soon).
SMALL: tuple[float, ...] = (-5.362, 0.0, 0.0, -1.366, -8.066, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
FITS: dict[str, tuple[float, ...]] = {"full": WEIGHTS, "small": SMALL}


def predict(features: Sequence[float], weights: Sequence[float]) -> float:
    """Predicted chips of a candidate throw, relative to the other candidates of its decision
    (the fitted model has no intercept: only the differences choose)."""
    return sum(w * f for w, f in zip(weights, features, strict=True))


def candidate_features(
    expert: ExpertPolicy,
    obs: Observation,
    t: Tracker,
    opps: Sequence[Closeness],
    values: Sequence[ThrowValue],
) -> list[tuple[float, ...]]:
    """The features of each candidate in `values` (`expert.throw_values(obs, t, opps)`, from
    the hand held): what the expert reads of the position after each throw, never a hidden
    card. The same figures the expert's own value is made of (its turns, the points it would
    pay, the card's feed danger and the kept cards' structural score, the race's chips)."""
    rules, wr = obs.rules, obs.wild_rank
    live = t.live_table()
    total = sum(Counter(t.unseen_faces()).values()) or 1
    soon = expert.lose_soon(opps)
    state = ThrowState(soon, expert.lose_soon(opps, 1), min(1.0, len(obs.pile_history) / 30))
    void_race = expert._race(obs)
    out = []
    for v in values:
        rest = [x for x in obs.hand if x.id != v.card.id]
        shape = shape_cost(rest, rules, wr, live)
        danger = expert._danger(obs, t, v.card)
        turns = expert._turns(v.distance, v.good, total)
        pay = 0.0 if void_race else float(v.points)
        out.append(
            throw_features(
                state, v.distance, v.good, total, turns, pay, shape, danger, v.race.chips
            )
        )
    return out
