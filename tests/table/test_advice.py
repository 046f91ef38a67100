"""The hand advice cache (`bot.table.advice.AdviceCache`) hands out what `advise` would work out
from scratch, and a discard costs no evaluation: the 13 cards kept take the ruling the 14-card
advice already made for that discard."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine.actions import Action, ActionKind
from bot.engine.match import Match, Player
from bot.engine.observation import Observation
from bot.engine.rules import Rules, get_profile
from bot.engine.states import MatchPhase
from bot.table import advice as advice_module
from bot.table.advice import AdviceCache, HandAdvice, advise


def _rules(profile: str, nothing_wild: bool = False) -> Rules:
    rules = get_profile(profile)
    return dataclasses.replace(rules, nothing_wild=True) if nothing_wild else rules


def _move(obs: Observation, rng: random.Random) -> Action:
    """A legal move, never a drop: the suggested discard half the time (the card the 14-card
    ruling tried), else any card (with two decks, sometimes the other copy of its face)."""
    moves = [a for a in obs.legal_actions if a.kind is not ActionKind.DROP]
    discards = [a for a in moves if a.kind is ActionKind.DISCARD]
    if discards and rng.random() < 0.5:
        best = advise(obs).drawn
        assert best is not None
        return Action(ActionKind.DISCARD, obs.seat, best.best_discard.id)
    return rng.choice(moves)


def _play(rules: Rules, players: int, seed: int, deals: int = 2, moves: int = 160):
    """Every observation of every seat, move after move, over the first `deals` deals."""
    seated = [Player(f"u{i}", f"p{i}") for i in range(players)]
    m = Match.create(seated, rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(deals):
        for _ in range(moves):
            if m.deal is None or m.deal.over or m.phase is not MatchPhase.PLAYING:
                break
            yield [m.observation(s) for s in range(players)]
            m.apply(_move(m.observation(m.deal.turn), rng))
        yield [m.observation(s) for s in range(players)]
        if m.phase is not MatchPhase.BETWEEN_DEALS:
            break
        m.start_next_deal()


def _same(a: HandAdvice, b: HandAdvice) -> None:
    assert a == b
    # Equality compares cards by id; the faces and the order shown must match too.
    assert repr(a.best) == repr(b.best)


@pytest.mark.parametrize(
    ("profile", "players", "nothing_wild"),
    [
        ("points", 3, False),  # two decks, printed jokers, wild rank
        ("pool101", 4, False),
        ("paplu", 3, False),  # no wild rank from a joker indicator
        ("classic", 3, False),  # one deck
        ("classic", 7, False),  # three decks
        ("points", 2, True),  # nothing wild
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_cached_advice_is_advice_from_scratch(
    profile: str, players: int, nothing_wild: bool, seed: int
) -> None:
    """Whole deals, every seat after every move: the cache's advice equals `advise(obs)`, and
    most discards were ruled on by the 14-card advice before them (not evaluated again)."""
    cache = AdviceCache()
    seeded = 0
    for observations in _play(_rules(profile, nothing_wild), players, seed):
        for obs in observations:
            if not obs.hand:
                continue
            before = cache._drawn.get(("t1", obs.seat))
            got = cache.get("t1", obs)
            _same(got, advise(obs))
            if before is not None and len(obs.hand) == 13:
                seeded += any(got.best is ev for _, ev in before[1].drawn.by_discard)  # type: ignore[union-attr]
    assert seeded > 10


def _drawn_state(profile: str, players: int, seed: int) -> tuple[Match, Observation]:
    """A match whose seat on turn holds 14 cards, two of them of one face when it can."""
    m = Match.create([Player(f"u{i}", f"p{i}") for i in range(players)], profile, seed=seed)
    rng = random.Random(seed)
    fallback = None
    for _ in range(400):
        assert m.deal is not None and not m.deal.over
        obs = m.observation(m.deal.turn)
        if len(obs.hand) == 14:
            faces = [c.face for c in obs.hand]
            twins = [c for c in obs.hand if faces.count(c.face) > 1 and c != obs.taken]
            if len(twins) >= 2:
                return m, obs
            fallback = fallback or (m.copy(), obs)
        m.apply(_move(obs, rng))
    assert fallback is not None
    return fallback


def test_a_discard_is_not_evaluated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The view after a discard takes the 14-card ruling of that discard: `evaluate_hand` is
    not called. Throwing the other copy of a face (two decks) keeps other cards than the ruling
    did, so that hand is evaluated, and either way the advice is the one from scratch."""
    calls: list[int] = []
    evaluate_hand = advice_module.evaluate_hand

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(len(args[0]))
        return evaluate_hand(*args, **kwargs)

    monkeypatch.setattr(advice_module, "evaluate_hand", counted)
    m, obs = _drawn_state("points", 3, 4)
    faces = [c.face for c in obs.hand]
    cache = AdviceCache()
    drawn = cache.get("t1", obs).drawn
    assert drawn is not None and not calls
    ruled = {c.id for c, _ in drawn.by_discard}
    twin = next(
        c for c in obs.hand if faces.count(c.face) > 1 and c.id not in ruled and c != obs.taken
    )
    for card, expect_evaluation in [(drawn.best_discard, False), (twin, True)]:
        after = m.copy()
        after.apply(Action(ActionKind.DISCARD, obs.seat, card.id))
        kept = after.observation(obs.seat)
        assert len(kept.hand) == 13 and kept.taken is None
        calls.clear()
        got = cache.get("t1", kept)
        assert calls == ([13] if expect_evaluation else [])
        _same(got, advise(kept))
        if not expect_evaluation:
            assert got.best is dict(drawn.by_discard)[card]


def test_no_ruling_is_taken_from_another_deal_or_table() -> None:
    """The 14-card advice kept for a seat serves only its own next hand: the same 13 cards
    under another deal number, wild rank or table are evaluated."""
    m, obs = _drawn_state("points", 3, 4)
    cache = AdviceCache()
    drawn = cache.get("t1", obs).drawn
    assert drawn is not None
    m.apply(Action(ActionKind.DISCARD, obs.seat, drawn.best_discard.id))
    kept = m.observation(obs.seat)
    ruled = dict(drawn.by_discard)[drawn.best_discard]
    for other, table in [
        (dataclasses.replace(kept, deal_number=kept.deal_number + 1), "t1"),
        (dataclasses.replace(kept, wild_rank=(kept.wild_rank or 0) % 13 + 1), "t1"),
        (kept, "t2"),
    ]:
        got = cache.get(table, other)
        assert got.best is not ruled
        _same(got, advise(other))
    cache.forget("t1")
    assert ("t1", obs.seat) not in cache._drawn
    assert cache.get("t1", kept).best is not ruled
