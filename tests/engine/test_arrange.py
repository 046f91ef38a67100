"""The one grouping of a hand every view shares (`bot.engine.arrange`)."""

from __future__ import annotations

import random

from bot.engine.arrange import NEAR_RUNS, NOTHING, PAIRS, UNMATCHED, WILD, arrangement, loose_parts
from bot.engine.cards import parse_cards
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.rules import get_profile


def faces(cluster: tuple[object, ...]) -> str:
    return " ".join(c.face.pretty for c in cluster)  # type: ignore[attr-defined]


def test_pairs_come_pair_by_pair_and_near_runs_run_by_run() -> None:
    hand = list(parse_cards("5S 8S 5D 8D 2C 4C JK QH KH AH 9S 7H 3D"))
    parts = {p.kind: [faces(c) for c in p.clusters] for p in loose_parts(hand, wild_rank=None)}
    assert parts[WILD] == ["🃏"]
    assert parts[PAIRS] == ["5♠ 5♦", "8♠ 8♦"]  # by rank, not "5♠ 8♠ 5♦ 8♦"
    assert parts[NEAR_RUNS] == ["Q♥ K♥ A♥", "2♣ 4♣"]  # suit by suit: ♠ ♥ ♣ ♦
    assert parts[NOTHING] == ["9♠ 7♥ 3♦"]


def test_every_card_is_in_exactly_one_cluster() -> None:
    rng = random.Random(5)
    one = " ".join(f"{r}{s}" for s in "SHDC" for r in "A23456789TJQK")
    deck = list(parse_cards(f"{one} {one} JK JK"))
    for _ in range(300):
        hand = rng.sample(deck, 13)
        wild = rng.choice([None, *range(1, 14)])
        got = [c.id for p in loose_parts(hand, wild) for c in p.cards]
        assert sorted(got) == sorted(c.id for c in hand)
        for p in loose_parts(hand, wild):
            if p.kind == PAIRS:
                assert all(len({c.rank for c in cl}) == 1 for cl in p.clusters)


def test_beside_groups_the_rest_is_one_part_with_the_suggested_discard_last() -> None:
    rules = get_profile("points")
    hand = list(parse_cards("3S 4S 5S 7H 8H 9H KD KC KS 2C 6D JH 9C QD"))
    drawn = evaluate_drawn(hand, rules, None)
    parts = arrangement(drawn, None)
    assert parts[-1].kind == UNMATCHED and parts[-1].cards[-1] == drawn.best_discard
    assert [p.kind for p in parts[:-1]] == [g.kind.value for g in drawn.best.groups]
    loose = list(parse_cards("2S 9S 5D 8D 2C 6C QH 4H JD KC 7S 10H 3C"))
    assert arrangement(evaluate_hand(loose, rules, None), None) == loose_parts(loose, None)
