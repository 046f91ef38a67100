"""Thousands of deals with random players, checking the engine's invariants at every step.

Every step of every deal (see `bot.simulate`): each physical card in exactly one place, 13
cards in every active hand between turns, turn order, drop costs, version bumps, no hidden card
in an observation; at the end of every match, the format's ending and winners and, for
transfer formats, a ledger summing to exactly 0. Random players draw and throw at random,
drop now and then, and declare whenever they can, so all endings occur.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.deal import Deal
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import RandomPolicy
from bot.engine.quickcheck import may_declare
from bot.engine.rules import PROFILES, DeclarationMode, Rules
from bot.simulate import play

DROP = 0.25  # random players drop often enough that reshuffle formats end
# (variant, players, deals, house options): 10,000 deals in total.
PLAN: list[tuple[str, list[int], int, dict[str, object]]] = [
    ("points", [2, 3, 4, 5, 6], 300, {}),
    ("points", [3, 6], 100, {"joker_indicator_doubles": True, "declaration_mode": "honor"}),
    ("pool101", [2, 3, 4, 5, 6], 300, {}),
    ("pool101", [4], 100, {"no_packing": True, "no_reshuffle": True}),
    ("pool201", [2, 3, 4, 5, 6], 280, {}),
    ("pool201", [5], 100, {"declaration_mode": "honor", "nothing_wild": True}),
    ("deals", [2, 3, 4, 5, 6], 260, {}),
    ("deals", [3], 100, {"num_deals": 6, "one_joker_per_deck": True}),
    ("paplu", [2, 3, 4, 5, 6], 260, {}),
    ("paplu", [4, 6], 100, {"declaration_mode": "honor"}),
    ("classic", [2, 3, 4, 5, 6, 7, 8, 9, 10], 240, {}),
    ("classic", [3, 8], 100, {"declaration_mode": "honor", "aces_wild_on_joker": True}),
    ("classic", [5], 100, {"target_score": 60, "num_deals": None, "no_reshuffle": True}),
]
TOTAL = sum(len(p) * d for _, p, d, _ in PLAN)


def test_plan_covers_ten_thousand_deals() -> None:
    assert TOTAL >= 10_000


@pytest.mark.parametrize(
    ("variant", "players", "deals", "options"),
    PLAN,
    ids=[f"{v}-{'+'.join(o) or 'preset'}" for v, _, _, o in PLAN],
)
def test_random_play_keeps_invariants(
    variant: str, players: list[int], deals: int, options: dict[str, object]
) -> None:
    rules = PROFILES[variant].with_options(**options)
    ends: set[str] = set()
    for n in players:
        summary = play(rules, n, deals, seed=n * 1000 + deals, check=True, drop_chance=DROP)
        assert summary.errors == []
        assert summary.deals == deals
        ends |= set(summary.ends)
    assert ("declared" in ends) or rules.nothing_wild  # natural-only hands rarely complete
    assert ("last_standing" in ends) == rules.packing_allowed


def _random_deal(rules: Rules, players: int, seed: int, choices: random.Random) -> Deal:
    match = Match.create([str(i) for i in range(players)], rules, seed=seed)
    policy = RandomPolicy(choices, drop_chance=0.05)
    steps = 0
    while match.phase is MatchPhase.PLAYING and steps < 60:
        assert match.deal is not None
        match.apply(policy.act(match.observation(match.deal.turn)))
        steps += 1
    assert match.deal is not None
    return match.deal


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(sorted(PROFILES)),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    choice_seed=st.integers(0, 2**32),
    honor=st.booleans(),
)
def test_replaying_a_deal_from_its_seed_reproduces_it(
    variant: str, players: int, seed: int, choice_seed: int, honor: bool
) -> None:
    rules = PROFILES[variant]
    if honor:
        rules = rules.with_options(declaration_mode=DeclarationMode.HONOR)
    deal = _random_deal(rules, players, seed, random.Random(choice_seed))
    again = Deal.replay(rules, deal.seats, deal.dealer, deal.seed, deal.actions)
    assert again.to_dict() == deal.to_dict()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_match_json_roundtrip_mid_play(seed: int, players: int) -> None:
    rng = random.Random(seed)
    rules = PROFILES[rng.choice(sorted(PROFILES))]
    match = Match.create([f"p{i}" for i in range(players)], rules, seed=seed)
    policy = RandomPolicy(rng, drop_chance=0.1)
    for _ in range(rng.randrange(1, 120)):
        if match.phase is MatchPhase.OVER:
            break
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.start_next_deal()
            continue
        assert match.deal is not None
        match.apply(policy.act(match.observation(match.deal.turn)))
    text = match.to_json()
    again = Match.from_json(text)
    assert again == match and again.to_json() == text
    if again.phase is MatchPhase.PLAYING:  # the restored match plays on identically
        assert again.deal is not None and match.deal is not None
        action = RandomPolicy(random.Random(1)).act(again.observation(again.deal.turn))
        again.apply(action)
        match.apply(action)
        assert again.to_json() == match.to_json()


def _near_complete(rules: Rules, rng: random.Random) -> tuple[list, int | None]:  # type: ignore[type-arg]
    """A 14-card hand built from a valid 13 with a few cards swapped (often still declarable)."""
    deck = rules.build_deck(4)
    rng.shuffle(deck)
    base = ["4H", "5H", "6H", "9S", "10S", "JK", "7C", "7D", "7S", "AC", "2C", "3C", "4C"]
    hand = []
    pool = list(deck)
    for code in base:
        card = next((c for c in pool if c.code == code), None)
        if card is None:
            continue
        pool.remove(card)
        hand.append(card)
    for _ in range(rng.randrange(0, 3)):
        hand.pop(rng.randrange(len(hand)))
    while len(hand) < 14:
        hand.append(pool.pop())
    indicator = pool.pop()
    return hand, rules.wild_rank(indicator.face)


def test_quickcheck_never_rules_out_a_declarable_hand() -> None:
    rng = random.Random(5)
    declarable = 0
    for i in range(1500):
        rules = PROFILES[sorted(PROFILES)[i % 6]]
        if rules.deck_size(4).jokers == 0:
            continue
        hand, wild_rank = _near_complete(rules, rng)
        ev = evaluate_drawn(hand, rules, wild_rank)
        if ev.declarable:
            declarable += 1
            assert may_declare(hand, rules, wild_rank, spare=1), [c.code for c in hand]
        for d in ev.winning_discards:
            rest = [c for c in hand if c.id != d.id]
            assert evaluate_hand(rest, rules, wild_rank).valid
            assert may_declare(rest, rules, wild_rank, spare=0)
    assert declarable > 300
