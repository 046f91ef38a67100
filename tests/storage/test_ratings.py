"""The openskill maths of bot.storage.ratings, on its own: no database, no event loop."""

from __future__ import annotations

import ast
import inspect
import random

import pytest
from openskill.models import PlackettLuce

from bot.storage import ratings
from bot.storage.ratings import RatedMatch, Skill, default_skill, rate_places, replay, skill


def test_default_skill_is_openskills_and_ordinal_is_mu_minus_three_sigma() -> None:
    d = default_skill()
    assert (d.mu, d.sigma) == (25.0, pytest.approx(25 / 3))
    assert d.ordinal == pytest.approx(d.mu - 3 * d.sigma)
    assert skill(d.mu, d.sigma) == d  # rebuilt from stored floats: identical


def test_winner_gains_loser_loses_and_ties_stay_equal() -> None:
    a, b, c = rate_places([default_skill()] * 3, [1, 2, 2])
    assert a.mu > 25 > b.mu
    assert a.ordinal > b.ordinal
    assert (b.mu, b.sigma) == (pytest.approx(c.mu), pytest.approx(c.sigma))
    # every rated player becomes more certain
    assert all(s.sigma < default_skill().sigma for s in (a, b, c))
    # the order of the result follows the order of the input, not of the places
    late_winner, late_loser = rate_places([default_skill()] * 2, [2, 1])
    assert late_loser.mu > late_winner.mu


def test_same_numbers_as_openskill_directly() -> None:
    """The wrapper adds no maths of its own: ratings stored before the split stay valid."""
    model = PlackettLuce()
    rng = random.Random(5)
    before = [skill(rng.uniform(15, 35), rng.uniform(1, 8)) for _ in range(4)]
    places = [2, 1, 4, 2]
    expect = model.rate(
        [[model.rating(mu=s.mu, sigma=s.sigma)] for s in before], ranks=[float(p) for p in places]
    )
    got = rate_places(before, places)
    for (team,), s in zip(expect, got, strict=True):
        assert (s.mu, s.sigma, s.ordinal) == (team.mu, team.sigma, team.ordinal())


def test_rate_places_needs_two_players_and_one_place_each() -> None:
    assert not ratings.is_rated(1) and ratings.is_rated(ratings.MIN_RATED_HUMANS)
    with pytest.raises(ValueError):
        rate_places([default_skill()], [1])
    with pytest.raises(ValueError):
        rate_places([default_skill()] * 2, [1])


def _fold(matches: list[RatedMatch]) -> dict[tuple[str, int], tuple[Skill, int]]:
    """Reference: apply rate_places match by match, scope by scope."""
    state: dict[tuple[str, int], tuple[Skill, int]] = {}
    for m in matches:
        if len(m.humans) < 2:
            continue
        for scope in m.scopes:
            before = [state.get((scope, u), (default_skill(), 0)) for u, _ in m.humans]
            after = rate_places([b[0] for b in before], [p for _, p in m.humans])
            for (u, _), b, a in zip(m.humans, before, after, strict=True):
                state[(scope, u)] = (a, b[1] + 1)
    return state


def test_replay_equals_folding_match_by_match() -> None:
    rng = random.Random(11)
    matches = []
    for i in range(40):
        users = rng.sample(range(1, 9), rng.randint(1, 4))  # some with a single human
        places = [rng.randint(1, len(users)) for _ in users]
        profile = rng.choice(["points", "pool101"])
        matches.append(
            RatedMatch(f"m{i}", (profile, "*"), 1000 + i, list(zip(users, places, strict=True)))
        )
    state, history = replay(matches)
    expect = _fold(matches)
    assert set(state) == set(expect)
    for key, (sk, n) in expect.items():
        assert (state[key].skill, state[key].matches) == (sk, n)
    # history: one entry per rated human and scope, each starting where the last ended
    rated = [m for m in matches if len(m.humans) >= 2]
    assert len(history) == sum(2 * len(m.humans) for m in rated)
    last: dict[tuple[str, int], float] = {}
    for change in history:
        key = (change.scope, change.user_id)
        assert change.ordinal_before == last.get(key, default_skill().ordinal)
        last[key] = change.skill.ordinal
    for key, st in state.items():
        assert last[key] == st.skill.ordinal
        assert st.last_played_at == max(
            m.finished_at for m in rated if key[0] in m.scopes and key[1] in dict(m.humans)
        )


def test_a_match_with_one_human_changes_nothing() -> None:
    state, history = replay([RatedMatch("solo", ("points", "*"), 1, [(7, 1)])])
    assert state == {} and history == []


def test_ratings_module_is_pure() -> None:
    """No SQL, no I/O: the module imports only the standard library and openskill."""
    tree = ast.parse(inspect.getsource(ratings))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert imported <= {"__future__", "collections", "dataclasses", "typing", "openskill"}
