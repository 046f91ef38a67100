"""Distance to a declaration and effective draws (`bot.ai.distance`), checked against the
engine's evaluator: distance 0 exactly when the evaluator rules a hand valid (or, for 14 cards,
declarable), and a hand one card short counts exactly the unseen copies that finish it."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from bot.ai.distance import HandCode, distance, effective_draws, set_limit
from bot.engine.cards import JOKER, Card, parse_cards, standard_faces
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.rules import get_profile


def _d(text: str, wild_rank: int | None, profile: str = "points") -> int:
    rules = get_profile(profile)
    return distance(HandCode.of(parse_cards(text), rules, wild_rank), set_limit(rules))


def test_valid_hands_are_at_distance_zero() -> None:
    assert _d("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C", 8) == 0
    assert _d("3S 4S 5S 9H 10H JK QH KC KD KH 6D 6C 7S", 7, "pool101") == 0


def test_distance_counts_the_missing_cards() -> None:
    assert _d("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C KD", 8) == 1  # KD must go
    assert _d("4H 5H 9H 9S 10S JK 7C 7D 7S AC 2C 3C KD", 8) == 2  # and the 6H comes
    # Every sequence leans on a wild card: one natural card must come for the pure one.
    assert _d("4H 5H JK 9S 10S JK 7C 7D 7S AC 2C 8D 4C", 8) == 1


def test_a_wild_rank_card_may_play_as_itself_in_the_pure_sequence() -> None:
    # Fives wild: 4D 5D 6D is pure with the 5D as itself.
    assert _d("4D 5D 6D 7D 8D JS JH JC JK 9C 10C QC 2S", 5) == 1
    assert _d("4D 5D 6D 7D 8D JS JH JC JK 9C 10C JC 2S", 5) == 1


def test_effective_draws_count_every_unseen_copy_that_finishes_the_hand() -> None:
    rules = get_profile("points")
    hand = parse_cards("4H 5H 6H 9S 10S 7C 7D 7S AC 2C 3C 4C KD")  # 13: needs a JS, 8S or wild
    unseen = Counter([*standard_faces(), *standard_faces(), JOKER, JOKER])
    for c in hand:
        unseen[c.face] -= 1
    d, good = effective_draws(HandCode.of(hand, rules, 8), unseen, rules, 8, set_limit(rules))
    # Exactly the faces whose draw lets the engine declare (a 14-card declarable hand).
    finishing = 0
    for face, n in unseen.items():
        if n > 0:
            drawn = [*hand, Card(999, face)]
            if evaluate_drawn(drawn, rules, 8).declarable:
                finishing += n
    assert d == 1
    assert good == finishing > 0


def test_distance_zero_matches_the_evaluator_on_the_rule_vectors(vectors_path: Path) -> None:
    checked = 0
    for line in vectors_path.read_text().splitlines():
        v = json.loads(line)
        rules = get_profile(v["variant"])
        hand = parse_cards(v["hand"], max_copies=3, max_jokers=6)
        indicator = parse_cards(v["indicator"], max_copies=3, max_jokers=6)[0].face
        wr = rules.wild_rank(indicator)
        d = distance(HandCode.of(hand, rules, wr), set_limit(rules))
        truth = v["declarable"] if "declarable" in v else v["valid"]
        checked += 1
        assert (d == 0) == truth, v
    assert checked > 100


@pytest.mark.parametrize("seed", range(3))
def test_distance_zero_never_contradicts_the_evaluator_on_random_hands(seed: int) -> None:
    rules = get_profile("points")
    deck = [Card(i, f) for i, f in enumerate([*standard_faces(), *standard_faces(), JOKER])]
    rng = random.Random(seed)
    for _ in range(300):
        hand = rng.sample(deck, 13)
        wr = rng.randint(1, 13)
        d = distance(HandCode.of(hand, rules, wr), set_limit(rules))
        assert (d == 0) == evaluate_hand(hand, rules, wr).valid
        assert 0 <= d <= 13
