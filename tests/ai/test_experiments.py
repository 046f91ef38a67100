"""The benchmarks' own code (`benchmarks/`, `benchmarks/experiments/`): the yardstick opponents
play legally, the fitted throw value and the fitted closeness hazard read only the public record
and their fits recover known weights, and the closeness oracle reads the real hand.

No tier runs any of this; the tests keep the measuring tools honest (docs/ai.md).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from benchmarks import closeness_calibration, fit_throw_value
from benchmarks.closeness_oracle import ToldExpert, TrueHazard
from benchmarks.experiments.fitted_hazard import Evidence, evidence_of
from benchmarks.experiments.fitted_throw import FEATURES, FITS, candidate_features
from benchmarks.experiments.guard_opponent import GuardPolicy
from benchmarks.experiments.reference_opponent import ReferencePolicy
from bot.ai import make_policy
from bot.ai.closeness import Closeness, opponents
from bot.ai.expert import ExpertPolicy
from bot.ai.tracking import Tracker
from bot.engine.actions import ActionKind
from bot.engine.cards import Card, parse_faces
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation
from tests.ai.test_expert import _observations
from tests.ai.test_tiers import _obs_for

# ---- the yardstick opponents (benchmarks/experiments/) ---------------------------------------


def test_the_yardstick_opponents_play_legally() -> None:
    """The benchmarks' two independent opponents (benchmarks/experiments/)."""
    for obs in _observations(13, "points", 2, 30):
        assert GuardPolicy().act(obs) in obs.legal_actions
        assert ReferencePolicy().act(obs) in obs.legal_actions


# ---- the fitted throw value (experiments/fitted_throw.py, fit_throw_value.py) ---------------


def _features(obs: Observation) -> list[tuple[float, ...]]:
    """The fitted model's features of the candidates the default expert weighs."""
    expert = ExpertPolicy(random.Random(0))
    t, opps = Tracker.from_observation(obs), opponents(obs)
    return candidate_features(expert, obs, t, opps, expert.throw_values(obs, t, opps))


def test_throw_features_read_only_the_observation() -> None:
    """The same observation over different hidden cards (the opponent's hand and the stock
    dealt otherwise) gives the same features: nothing hidden enters them."""
    obs_list = []
    rng = random.Random(3)
    match = Match.create(["A", "B"], "points", seed=8)
    policies = [make_policy("hard", 1), make_policy("hard", 2)]
    while len(obs_list) < 3 and match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        obs = match.observation(deal.turn)
        if any(a.kind is ActionKind.DISCARD for a in obs.legal_actions):
            other = Match.from_dict(match.to_dict())
            od = other.deal
            assert od is not None
            opp = od.next_seat(deal.turn)
            hidden = od.hands[opp] + od.stock
            rng.shuffle(hidden)
            od.hands[opp], od.stock = hidden[: len(od.hands[opp])], hidden[len(od.hands[opp]) :]
            assert od.hands[opp] != deal.hands[opp]
            twin = other.observation(deal.turn)
            assert twin == obs
            feats = _features(obs)
            assert feats and all(len(f) == len(FEATURES) for f in feats)
            assert _features(twin) == feats
            obs_list.append(obs)
        match.apply(policies[deal.turn].act(obs))
    assert len(obs_list) == 3


def test_the_fit_recovers_weights_from_differences_within_decisions() -> None:
    """Labels made of known weights plus a constant per decision (what the candidates of one
    decision share): the within-decision least squares gives the weights back."""
    rng = random.Random(1)
    k = len(FEATURES)
    truth = [rng.uniform(-5, 5) for _ in range(k)]
    rows = []
    for i in range(300):
        xs = [[rng.uniform(0, 4) for _ in range(k)] for _ in range(4)]
        shared = rng.uniform(-80, 80)
        ys = [shared + sum(w * x for w, x in zip(truth, f, strict=True)) for f in xs]
        rows.append({"deal": i, "picked": 0, "labels": ys, "features": xs})
    got = fit_throw_value.fit(rows, ridge=1e-9)
    assert got == pytest.approx(truth, abs=1e-6)
    model, oracle = fit_throw_value.gains(rows, got)
    assert sum(model.values()) == pytest.approx(sum(oracle.values()))  # it picks the best


def test_the_data_generator_is_deterministic_and_labels_the_played_throw() -> None:
    """Two runs with one seed give the same rows; the label of the throw the policy made is
    the chips its seat ended the deal with (its copy replays the real deal)."""
    rows = fit_throw_value.collect("expert", "hard", 2, 5)
    assert rows and rows == fit_throw_value.collect("expert", "hard", 2, 5)
    for r in rows:
        assert len(r["labels"]) == len(r["features"]) >= 2
        assert r["labels"][r["picked"]] == r["chips"]


def test_the_fitted_weight_sets_are_named_and_complete() -> None:
    """Every weight set in `fitted_throw.FITS` has one weight a feature."""
    assert all(len(w) == len(FEATURES) for w in FITS.values())


# ---- the fitted closeness hazard (experiments/fitted_hazard.py, closeness_calibration.py) ----


def test_the_fitted_closeness_is_a_chance_that_rises_with_evidence_of_closeness() -> None:
    """The fitted hazard (benchmarks/experiments/fitted_hazard.py) stays in [0, 1] and grows
    as the opponent plays more turns and keeps more of the cards it took; its evidence is the
    bot's own reading of each opponent plus the rest of the public record."""
    for obs in _observations(5, "points", 2, 30):
        found = evidence_of(obs)
        assert [Closeness(o.seat, o.turns, o.takes, o.recent_low, o.cards) for o in found] == (
            opponents(obs)
        )
        for o in found:
            for k in range(4):
                assert 0.0 <= o.fitted_hazard(k) <= 1.0
                assert o.hazard(k) == Closeness.hazard(o, k)  # the hand-set one
            assert o.stock == obs.stock_size
            assert len(o.take_turns) >= o.takes
            assert Evidence.from_evidence(o.evidence()) == o
    early = Evidence(1, turns=1, takes=0, recent_low=False, cards=13, throws=(10,), stock=50)
    later = dataclasses.replace(early, turns=8, throws=(10,) * 8, stock=36)
    taking = dataclasses.replace(later, takes=2, take_turns=(3, 5))
    assert early.fitted_hazard(0) < later.fitted_hazard(0) < taking.fitted_hazard(0)
    assert early.fitted_hazard(0) < early.fitted_hazard(3)  # turns ahead count as turns


def test_the_calibration_labels_censor_windows_the_deal_ended_inside() -> None:
    """A row's label for a window of n turns: declared within it (1), played all n without
    declaring (0), or the deal ended before (None)."""
    label = closeness_calibration.label
    declared_second = {"declared": True, "after": 2}
    assert [label(declared_second, n) for n in (1, 2, 3)] == [0, 1, 1]
    ended_after_two = {"declared": False, "after": 2}
    assert [label(ended_after_two, n) for n in (1, 2, 3)] == [0, 0, None]
    assert label({"declared": False, "after": 0}, 1) is None


def test_the_calibration_fit_recovers_a_logistic_hazard() -> None:
    """Rows drawn from a known fitted hazard (one coming turn each): the Newton fit gives the
    weights back closely, and the rows' collector is deterministic for a seed."""
    rng = random.Random(4)
    truth = [-2.2, 0.3, 0.15, 0.05, 0.4, 0.0, 0.3, -0.5, 0.2, 0.3, -0.4]
    rows = []
    for _ in range(6000):
        turns = rng.randrange(0, 16)
        takes = rng.randrange(0, 4)
        throws = tuple(rng.randrange(1, 11) for _ in range(turns))
        c = Evidence(
            1, turns, takes, rng.random() < 0.3, 13, throws,
            tuple(sorted(rng.randrange(0, max(1, turns)) for _ in range(takes))),
            rng.randrange(0, 60),
        )  # fmt: skip
        y = rng.random() < c.fitted_hazard(0, truth)
        rows.append({"evidence": c.evidence(), "declared": y, "after": 1})
    got = closeness_calibration.fit(rows, ridge=1e-6)
    assert got == pytest.approx(truth, abs=0.35)
    few = closeness_calibration.collect("expert", "hard", 2, 5)
    assert few and few == closeness_calibration.collect("expert", "hard", 2, 5)


# ---- the closeness oracle (closeness_oracle.py) ---------------------------------------------


def test_the_told_hazard_reads_the_real_hand() -> None:
    """`benchmarks/closeness_oracle.py` gives the expert the opponent's true closeness: a hand
    one card from going out declares far sooner than a hopeless one, and the told expert still
    plays only legal moves."""
    obs = _obs_for("2H 9H KS 5D 7C QS JD 4C 8S 10D AC 6S QH", "KD")
    near = [
        Card(900 + i, f)
        for i, f in enumerate(parse_faces("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 5C"))
    ]
    far = [
        Card(950 + i, f)
        for i, f in enumerate(parse_faces("2S 9D KH 5C 7H QD JC 4D 8H 10C AD 6H QC"))
    ]
    soon, late = TrueHazard(1, near, obs), TrueHazard(1, far, obs)
    assert soon.hazard(0) > 0.1 > late.hazard(0)
    assert all(0.0 <= soon.hazard(k) <= 0.95 for k in range(30))
    told = ToldExpert(random.Random(0))
    told.hands = {1 - obs.seat: near}
    assert told.act(obs) in obs.legal_actions
