"""The expert tier: legal moves only, a function of (seed, observation), chip-minded choices where
the model is clear, and its async entry point thinks off the loop. (The benchmarks' own code is
tested in test_experiments.py.)"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
import time
from collections import Counter

import pytest

from bot.ai import TIERS, make_policy, thinking
from bot.ai.chips import finish_chances, race
from bot.ai.closeness import Closeness, opponents
from bot.ai.expectation import take_by_expectation
from bot.ai.expert import ExpertPolicy
from bot.ai.tracking import Tracker
from bot.engine.actions import ActionKind
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
