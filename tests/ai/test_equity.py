"""Match equity in pool (`bot.ai.equity`) and the expert's pool drops that read it."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks import pool_losses
from bot.ai.closeness import opponents
from bot.ai.equity import LOSS_POINTS, after_loss, after_win, equity
from bot.ai.expert import ExpertPolicy
from bot.ai.tracking import Tracker
from bot.engine.actions import ActionKind
from bot.engine.observation import Observation
from bot.engine.rules import get_profile
from tests.ai.test_tiers import _obs_for

totals = st.integers(min_value=0, max_value=100)


@given(totals, totals)
def test_the_two_players_equities_add_up_to_one(a: int, b: int) -> None:
    assert equity(a, b, 101) + equity(b, a, 101) == pytest.approx(1.0)


@given(totals, totals)
def test_a_higher_own_total_never_helps(a: int, b: int) -> None:
    if a < 100:
        assert equity(a + 1, b, 101) <= equity(a, b, 101) + 1e-12
    if b < 100:
        assert equity(a, b + 1, 101) >= equity(a, b, 101) - 1e-12


def test_the_limit_is_out_and_a_deal_is_half_of_the_next_two() -> None:
    assert equity(101, 0, 101) == 0.0 and equity(0, 101, 101) == 1.0
    assert equity(0, 0, 101) == pytest.approx(0.5)
    # the table is the mean of winning and losing the next deal, at every pair of totals
    for a, b in ((0, 0), (40, 75), (90, 10), (100, 100)):
        assert equity(a, b, 101) == pytest.approx(
            0.5 * after_win(a, b, 101) + 0.5 * after_loss(a, b, 101)
        )
    assert all(pts > 0 for pts, _ in LOSS_POINTS)  # every loss adds something: no cycle


def _pool(obs: Observation, mine: int, theirs: int) -> Observation:
    """The same cards and pile, in a pool101 match at these totals."""
    seats = tuple(
        dataclasses.replace(s, score=Fraction(mine if s.seat == obs.seat else theirs))
        for s in obs.seats
    )
    return dataclasses.replace(obs, rules=get_profile("pool101"), seats=seats)


HOPELESS = "2H 9H KS 5D 7C QS JD 4C 8S 10D AC 6S QH"


def test_a_pool_drop_that_reaches_the_limit_is_never_made() -> None:
    """At 85 a first drop (20) puts the seat out of the match; playing the hand out keeps a
    chance, however bad the hand. At 30 the same hand is dropped."""
    base = _obs_for(HOPELESS, "KD")
    expert = ExpertPolicy(random.Random(0))
    assert base.drop_cost == 20
    assert expert.act(_pool(base, 30, 30)).kind is ActionKind.DROP
    expert.drop_margin = -100.0  # the chips rule: drop whatever the hand
    assert expert.act(_pool(base, 85, 30)).kind is not ActionKind.DROP
    expert.pool_equity = False
    assert expert.act(_pool(base, 85, 30)).kind is ActionKind.DROP


def test_a_pool_drop_compares_the_chances_of_winning_the_match() -> None:
    """Heads-up, the drop is taken exactly when the equity it leaves beats playing on by
    `pool_drop_margin`: the same hand is dropped or played depending on the totals."""
    obs = _pool(_obs_for(HOPELESS, "KD"), 30, 30)
    expert = ExpertPolicy(random.Random(0))
    t = Tracker.from_observation(obs)
    opps = opponents(obs)
    race = expert.drop_estimate(obs, t, opps)
    paid = race.win * expert.gain_each - race.chips
    pay = paid / race.lose
    rest = 1.0 - race.win - race.lose
    play = (
        race.win * after_win(30, 30, 101)
        + race.lose * equity(30 + pay, 30, 101)
        + rest * 0.5 * (after_win(30, 30, 101) + after_loss(30, 30, 101))
    )
    drop = equity(50, 30, 101)
    assert drop > play  # this hand is worth dropping at 30-30
    expert.pool_drop_margin = drop - play + 0.001
    assert expert.act(obs).kind is not ActionKind.DROP
    expert.pool_drop_margin = drop - play - 0.001
    assert expert.act(obs).kind is ActionKind.DROP


def test_the_loss_table_is_what_its_script_counts() -> None:
    """`benchmarks/pool_losses.py` steps losses as `LOSS_POINTS` does (1-2 points is the
    step 2, the cap 80) and counts real pool deals: a short run gives a spread over those
    steps that sums to one."""
    assert [pool_losses.step(p) for p in (1, 2, 3, 20, 22, 23, 79, 80, 160)] == [
        2, 2, 5, 20, 20, 25, 80, 80, 80,
    ]  # fmt: skip
    added = pool_losses.losses("pool101", 7, ["medium", "medium"])
    assert added and all(p > 0 for p in added)
    assert {pool_losses.step(p) for p in added} <= {pts for pts, _ in LOSS_POINTS}
