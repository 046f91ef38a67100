"""The expert tier: legal moves only, a function of (seed, observation), work within its budget,
chip-minded choices where the model is clear, and its async entry point thinks off the loop."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
import time
from collections import Counter

import pytest

from benchmarks import closeness_calibration, fit_throw_value
from benchmarks.closeness_oracle import ToldExpert, TrueHazard
from benchmarks.experiments.fitted_hazard import Evidence, evidence_of
from benchmarks.experiments.fitted_throw import FEATURES, FITS, candidate_features
from benchmarks.experiments.guard_opponent import GuardPolicy
from benchmarks.experiments.reference_opponent import ReferencePolicy
from bot.ai import TIERS, make_policy, thinking
from bot.ai.chips import finish_chances, race
from bot.ai.closeness import Closeness, opponents
from bot.ai.expectation import take_by_expectation
from bot.ai.expert import ExpertPolicy
from bot.ai.tracking import Tracker
from bot.engine.actions import ActionKind
from bot.engine.cards import Card, parse_faces
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation
from tests.ai.test_tiers import _obs_for


def _observations(seed: int, profile: str, players: int, limit: int) -> list[Observation]:
    """Observations met in real play (medium seats, so the deals run long)."""
    rng = random.Random(seed)
    out: list[Observation] = []
    while len(out) < limit:
        match = Match.create([f"P{i}" for i in range(players)], profile, seed=rng.getrandbits(32))
        policies = [make_policy("medium", rng.getrandbits(16)) for _ in range(players)]
        while match.phase is MatchPhase.PLAYING and len(out) < limit:
            deal = match.deal
            assert deal is not None
            obs = match.observation(deal.turn)
            if rng.random() < 0.35:
                out.append(obs)
            match.apply(policies[deal.turn].act(obs))
    return out


def test_expert_is_a_tier() -> None:
    assert TIERS[-1] == "expert"
    assert isinstance(make_policy("expert", 1), ExpertPolicy)


@pytest.mark.parametrize(("profile", "players"), [("points", 2), ("pool101", 3), ("paplu", 4)])
def test_expert_plays_only_legal_moves_and_is_deterministic(profile: str, players: int) -> None:
    for obs in _observations(7, profile, players, 40):
        a = make_policy("expert", 3).act(obs)
        assert a in obs.legal_actions
        assert make_policy("expert", 3).act(obs) == a  # same seed, same observation


def test_a_seed_and_an_observation_give_one_move_whatever_came_before() -> None:
    obs_list = _observations(11, "points", 2, 12)
    fresh = [make_policy("expert", 5).act(o) for o in obs_list]
    reused = make_policy("expert", 5)
    assert [reused.act(o) for o in obs_list] == fresh


def test_it_declares_whenever_it_can() -> None:
    obs = _obs_for("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 4C KD", "QD", draw="3C")
    assert make_policy("expert", 0).act(obs).kind is ActionKind.DECLARE


def test_an_opponent_closing_in_makes_it_shed_points() -> None:
    """The same hand: with nobody close it keeps the high pair for speed; with an opponent
    about to go out the model values the points kept more (the loss term grows)."""
    early = [Closeness(1, turns=0, takes=0, recent_low=False, cards=13)]
    late = [Closeness(1, turns=12, takes=3, recent_low=True, cards=13)]
    finish = finish_chances(2, 0.3, 16)
    for opps in (early, late):
        heavy = race(finish, 60, opps, 40, 0.92, me_first=False)
        light = race(finish, 20, opps, 40, 0.92, me_first=False)
        assert light.chips > heavy.chips
    gap_early = (
        race(finish, 20, early, 40, 0.92, False).chips
        - race(finish, 60, early, 40, 0.92, False).chips
    )
    gap_late = (
        race(finish, 20, late, 40, 0.92, False).chips
        - race(finish, 60, late, 40, 0.92, False).chips
    )
    assert gap_late > gap_early


def test_closeness_reads_takes_and_turns_from_the_pile() -> None:
    for obs in _observations(5, "points", 2, 30):
        for o in opponents(obs):
            assert 0.0 <= o.hazard(0) <= o.hazard(5) <= 0.45
            assert o.turns == sum(1 for e in obs.pile_history if e.discarded_by == o.seat)


def test_drops_compare_the_drop_cost_with_the_expected_payment_of_playing_on() -> None:
    bad = _obs_for("2H 9H KS 5D 7C QS JD 4C 8S 10D AC 6S QH", "KD")
    good = _obs_for("7H 8H 9H 4S 5S 6S 3C JK 2D 2C 2S 9C KC", "10D")
    expert = ExpertPolicy(random.Random(0))
    value = {
        name: expert.play_on_value(o, Tracker.from_observation(o), opponents(o)).chips
        for name, o in (("bad", bad), ("good", good))
    }
    assert value["good"] > 0 > value["bad"]
    assert bad.drop_cost == 20 and good.drop_cost == 20
    assert expert.act(good).kind is not ActionKind.DROP
    # the rule itself: drop exactly when -cost beats playing on by the margin
    expert.drop_margin = -(20 + value["bad"]) - 0.5
    assert expert.act(bad).kind is ActionKind.DROP
    expert.drop_margin = -(20 + value["bad"]) + 0.5
    assert expert.act(bad).kind is not ActionKind.DROP


def test_a_middle_drop_has_its_own_margin() -> None:
    """The estimate is calibrated separately for the first and the later drops (see
    `benchmarks/drop_calibration.py`): a later drop is judged with `middle_drop_margin` and
    its cost of 40, a first drop with `drop_margin` and 20."""
    first = _obs_for("2H 9H KS 5D 7C QS JD 4C 8S 10D AC 6S QH", "KD")
    middle = dataclasses.replace(first, drop_cost=40)
    expert = ExpertPolicy(random.Random(0))
    value = expert.play_on_value(first, Tracker.from_observation(first), opponents(first)).chips
    assert value < 0
    expert.drop_margin = -100.0  # a first drop always
    expert.middle_drop_margin = -(40 + value) + 0.5  # a middle drop just not
    assert expert.act(first).kind is ActionKind.DROP
    assert expert.act(middle).kind is not ActionKind.DROP
    expert.middle_drop_margin = -(40 + value) - 0.5
    assert expert.act(middle).kind is ActionKind.DROP
    expert.drop_margin = 100.0  # never a first drop; the middle one is unaffected
    assert expert.act(first).kind is not ActionKind.DROP
    assert expert.act(middle).kind is ActionKind.DROP


def test_the_drop_estimate_values_the_turn_as_it_would_be_played() -> None:
    """When the expert's own draw rule would take the open card, the value after taking it
    and making the best throw; otherwise the 13 cards' value."""
    obs = _obs_for("7H 8H KS KD 2C 5S 9D JC QD 4C AH 10S 6D", "9H")  # 9H joins 7H 8H
    t, opps = Tracker.from_observation(obs), opponents(obs)
    expert = ExpertPolicy(random.Random(0))
    assert expert._expert_take(obs, t)
    top = obs.top_discard
    assert top is not None
    taken = expert.throw_values(obs, t, opps, hand=[*obs.hand, top], forbidden=top)
    assert expert.drop_estimate(obs, t, opps) == taken[0].race
    useless = _obs_for("7H 8H KS KD 2C 5S 9D JC QD 4C AH 10S 6D", "5C")
    tu, ou = Tracker.from_observation(useless), opponents(useless)
    assert not expert._expert_take(useless, tu)
    assert expert.drop_estimate(useless, tu, ou) == expert.play_on_value(useless, tu, ou)


def test_the_yardstick_opponents_play_legally() -> None:
    """The benchmarks' two independent opponents (benchmarks/experiments/)."""
    for obs in _observations(13, "points", 2, 30):
        assert GuardPolicy().act(obs) in obs.legal_actions
        assert ReferencePolicy().act(obs) in obs.legal_actions


# ---- thinking off the event loop ----------------------------------------------------------


def test_decide_runs_expert_in_a_worker_process_and_cheap_tiers_on_a_thread() -> None:
    obs_list = _observations(17, "points", 2, 6)

    async def main() -> None:
        ticks = 0
        stop = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0.001)

        task = asyncio.create_task(ticker())
        try:
            for obs in obs_list:
                action = await thinking.decide("expert", obs, 42)
                assert action == make_policy("expert", 42).act(obs)
                cheap = await thinking.decide("medium", obs, 42)
                assert cheap == make_policy("medium", 42).act(obs)
        finally:
            stop.set()
            await task
        assert ticks > len(obs_list)  # the loop kept running while the moves were computed
        pid = thinking.worker_pid()
        assert pid is not None and pid != __import__("os").getpid()

    try:
        asyncio.run(main())
    finally:
        thinking.close()
    assert thinking.worker_pid() is None


def test_decide_does_not_block_the_loop_during_a_long_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loop answers while a decision is computed elsewhere (here a slow cheap tier on its
    thread: sleeping releases the GIL, so the loop must keep ticking)."""
    obs = _observations(19, "points", 2, 1)[0]
    original = thinking.think
    calls: list[str] = []

    def slow(tier: str, o: Observation, seed: int) -> object:
        calls.append(threading.current_thread().name)
        time.sleep(0.2)
        return original(tier, o, seed)

    monkeypatch.setattr(thinking, "think", slow)

    async def main() -> int:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            for _ in range(1000):
                ticks += 1
                await asyncio.sleep(0.005)

        task = asyncio.create_task(ticker())
        await thinking.decide("easy", obs, 1)
        task.cancel()
        return ticks

    ticks = asyncio.run(main())
    assert calls and calls[0] != "MainThread"
    assert ticks >= 10


def test_a_review_runs_in_the_worker_and_matches_the_direct_one() -> None:
    from bot.ai.review import review_seat

    match = Match.create(["Ann", "Bob"], "points", seed=8)
    policies = [make_policy("easy", 1), make_policy("medium", 2)]
    while match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        match.apply(policies[deal.turn].act(match.observation(deal.turn)))
    try:
        got = asyncio.run(thinking.review(match.to_dict(), 0, 3))
    finally:
        thinking.close()
    assert got == review_seat(match, 0, seed=3)


# ---- the fitted throw model (benchmarks/experiments/fitted_throw.py, fit_throw_value.py) ----


def _throw_observations(seed: int, limit: int) -> list[Observation]:
    """Throw decisions with a real choice, met in heads-up points play."""
    return [
        o
        for o in _observations(seed, "points", 2, 4 * limit)
        if any(a.kind is ActionKind.DISCARD for a in o.legal_actions) and len(o.pile_history) > 2
    ][:limit]


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


def test_the_expert_takes_by_the_expected_deadwood() -> None:
    """The expert takes the open card exactly when `take_by_expectation` says so (the
    reference opponent's rule, with the same margin)."""
    for obs in _observations(17, "points", 2, 60):
        if not any(a.kind is ActionKind.TAKE_DISCARD for a in obs.legal_actions):
            continue
        policy = ExpertPolicy(random.Random(0))
        top = obs.top_discard
        assert top is not None
        t = Tracker.from_observation(obs)
        want = take_by_expectation(obs, top, Counter(t.unseen_faces()))
        assert policy._expert_take(obs, t) is want


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
