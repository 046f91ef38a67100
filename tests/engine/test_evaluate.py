"""Hand evaluation: the worked examples of docs/rules.md, the rule vectors, and properties."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import Card, Face, parse_cards
from bot.engine.evaluate import Evaluation, clear_cache, evaluate_drawn, evaluate_hand
from bot.engine.groups import GroupKind, check_arrangement, classify_group
from bot.engine.rules import PROFILES, Rules, get_profile
from tests.engine.helpers import hand, random_hand, wild
from tests.engine.reference import reference_evaluate

# ---- the rule vectors -----------------------------------------------------------------------


def test_every_rule_vector(vectors_path: Path) -> None:
    failures = []
    lines = vectors_path.read_text().splitlines()
    assert lines, "the vectors file is empty"
    for line in lines:
        v = json.loads(line)
        rules = get_profile(v["variant"])
        cards = parse_cards(v["hand"], max_copies=rules.max_copies)
        wild_rank = rules.wild_rank(Face.parse(v["indicator"]))
        if len(cards) == 13:
            ev = evaluate_hand(cards, rules, wild_rank)
            got = {"valid": ev.valid, "deadwood": ev.deadwood, "penalty": ev.penalty}
        else:
            drawn = evaluate_drawn(cards, rules, wild_rank)
            got = {
                "declarable": drawn.declarable,
                "winning_discards": sorted({c.code for c in drawn.winning_discards}),
            }
        expected = {k: v[k] for k in got}
        if "winning_discards" in expected:
            expected["winning_discards"] = sorted(expected["winning_discards"])
        if got != expected:
            failures.append(f"{line}\n  got {got}")
    assert not failures, "\n".join(failures)


# ---- worked examples of docs/rules.md ------------------------------------------------------


def test_paplu_example_declaration_is_valid() -> None:
    rules, wr = wild("paplu", "8D")
    ev = evaluate_hand(hand("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C"), rules, wr)
    assert ev.valid and ev.deadwood == 0 and ev.penalty == 0
    kinds = sorted(g.kind.value for g in ev.groups)
    assert kinds == ["impure", "pure", "pure", "set"]


def test_paplu_example_draw_4c_discard_kd() -> None:
    rules, wr = wild("paplu", "8D")
    drawn = evaluate_drawn(hand("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C KD 4C"), rules, wr)
    assert drawn.declarable
    assert {c.code for c in drawn.winning_discards} == {"KD"}
    assert drawn.best_discard.code == "KD"


def test_both_lives_leftovers_k_and_5_pay_15() -> None:
    rules, wr = wild("paplu", "8D")
    ev = evaluate_hand(hand("4H 5H 6H 7H 9S 10S JS JK 2C 3C 4C KC 5D"), rules, wr)
    assert not ev.valid
    assert ev.deadwood == 15
    assert sorted(c.code for c in ev.leftover) == ["5D", "KC"]


def test_pool101_example_is_valid() -> None:
    rules, wr = wild("pool101", "7D")
    ev = evaluate_hand(hand("3S 4S 5S 9H 10H JK QH KC KD KH 6D 6C 7S"), rules, wr)
    assert ev.valid


def test_wild_rank_card_as_itself_keeps_run_pure() -> None:
    rules, wr = wild("points", "7C")
    assert classify_group(hand("5H 6H 7H 8H"), rules, wr) is GroupKind.PURE
    assert classify_group(hand("5H 6H 7S 8H"), rules, wr) is GroupKind.IMPURE
    rules, wr = wild("paplu", "8D")
    assert classify_group(hand("7H 8H 9H"), rules, wr) is GroupKind.PURE
    assert classify_group(hand("7H 8S 9H"), rules, wr) is GroupKind.IMPURE
    assert classify_group(hand("9S 10S JK"), rules, wr) is GroupKind.IMPURE


def test_lone_pure_run_capped_versus_protected() -> None:
    # Only one pure run (2-3-4 of spades, worth 9) and no second run; the rest counts 89.
    cards = hand("2S 3S 4S KH KD QC JH 10C 8D 9H 7C 5C 10D")
    pool, wr = wild("pool101", "6H")
    ev = evaluate_hand(cards, pool, wr)
    assert ev.deadwood == 98 and ev.penalty == 80  # every card counts, capped
    assert ev.groups == ()
    points, wr = wild("points", "6H")
    ev = evaluate_hand(cards, points, wr)
    assert ev.deadwood == 89 and ev.penalty == 80  # best pure run protected, then capped
    assert [g.kind for g in ev.groups] == [GroupKind.PURE]
    paplu, wr = wild("paplu", "6H")
    ev = evaluate_hand(cards, paplu, wr)
    assert ev.deadwood == 89 and ev.penalty == 89  # no cap in paplu


def test_ace_low_or_high_never_wrapping() -> None:
    rules, wr = wild("pool101", "5D")
    assert classify_group(hand("AS 2S 3S"), rules, wr) is GroupKind.PURE
    assert classify_group(hand("QS KS AS"), rules, wr) is GroupKind.PURE
    assert classify_group(hand("KS AS 2S"), rules, wr) is None
    assert classify_group(hand("KS AS JK"), rules, wr) is GroupKind.IMPURE  # Q-K-A
    assert classify_group(hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"), rules, wr) is (
        GroupKind.PURE
    )


def test_sets_respect_suits_and_profile_sizes() -> None:
    rules, wr = wild("pool101", "2D")
    assert classify_group(hand("9S 9H 9C"), rules, wr) is GroupKind.SET
    assert classify_group(hand("9S 9S 9H"), rules, wr) is None  # identical copies never share
    assert classify_group(hand("9S 9H 9C 9D"), rules, wr) is GroupKind.SET
    assert classify_group(hand("9S 9H 9C 9D JK"), rules, wr) is None  # pool sets: 3-4
    points, wr = wild("points", "2D")
    assert classify_group(hand("9S 9H 9C 9D JK"), points, wr) is GroupKind.SET
    paplu, wr = wild("paplu", "2D")
    assert classify_group(hand("9S 9H 9C 9D"), paplu, wr) is None  # paplu: exactly three


def test_no_pure_run_means_everything_counts() -> None:
    rules, wr = wild("points", "3D")
    # Sets and an impure run, but no pure run: all 13 cards count.
    cards = hand("KS KH KC QS QH QC 5D 6D JK 9C 9H 9S 2C")
    ev = evaluate_hand(cards, rules, wr)
    assert ev.deadwood == 10 * 6 + 5 + 6 + 27 + 2
    assert ev.groups == ()


def test_only_sets_beside_pure_run_are_not_protected() -> None:
    # A pure run and sets but no second sequence: sets do not count as protected.
    rules, wr = wild("pool101", "3D")
    cards = hand("4S 5S 6S KS KH KC QS QH QC 9D 9H 9S 2C")
    assert evaluate_hand(cards, rules, wr).deadwood == 15 + 60 + 27 + 2


def test_fourteen_cards_forbidden_physical_card() -> None:
    rules, wr = wild("points", "9C")
    cards = hand("2S 3S 4S 5H 6H 7H 8D 9D 10D JC QC KC AC KC")
    taken = cards[-1]
    drawn = evaluate_drawn(cards, rules, wr, forbidden=taken)
    assert drawn.declarable
    assert all(c.id != taken.id for c in drawn.winning_discards)
    # The other physical KC may still go: the taken copy takes its place in the run.
    assert {c.code for c in drawn.winning_discards} == {"KC"}
    assert drawn.winning_discards[0].id != taken.id


def test_check_arrangement_for_honor_mode() -> None:
    rules, wr = wild("paplu", "8D")
    cards = hand("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C")
    groups = [cards[0:3], cards[3:6], cards[6:9], cards[9:13]]
    assert check_arrangement(groups, rules, wr)
    assert not check_arrangement([cards[0:3], cards[6:9], cards[3:6] + cards[9:13]], rules, wr)
    # Only one sequence (the rest sets) is not a declaration.
    sets = hand("4H 5H 6H 7C 7D 7S KS KH KC QS QH QC JK")
    assert not check_arrangement([sets[0:3], sets[3:6], sets[6:9], sets[9:13]], rules, wr)


# ---- properties ----------------------------------------------------------------------------

profile_names = st.sampled_from(sorted(PROFILES))


def _check_layout(cards: list[Card], rules: Rules, wild_rank: int | None) -> None:
    ev = evaluate_hand(cards, rules, wild_rank)
    shown = [c for g in ev.groups for c in g.cards] + list(ev.leftover)
    assert sorted(c.id for c in shown) == sorted(c.id for c in cards)
    for g in ev.groups:
        kind = classify_group(g.cards, rules, wild_rank)
        assert kind is not None, f"{g} is not a valid group"
        if g.kind is GroupKind.PURE:
            assert kind is GroupKind.PURE
    leftover_value = sum(
        0 if rules.is_wild(c.face, wild_rank) else c.face.value for c in ev.leftover
    )
    assert leftover_value == ev.deadwood
    total = sum(0 if rules.is_wild(c.face, wild_rank) else c.face.value for c in cards)
    assert ev.penalty <= ev.deadwood <= total
    if rules.deal_cap is not None:
        assert ev.penalty <= rules.deal_cap
    if ev.valid:
        assert ev.penalty == 0 and not ev.leftover
        assert check_arrangement([g.cards for g in ev.groups], rules, wild_rank)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile=profile_names, seed=st.integers(0, 2**32 - 1))
def test_layout_is_valid_and_leftovers_sum_to_deadwood(profile: str, seed: int) -> None:
    rules = get_profile(profile)
    cards, indicator = random_hand(random.Random(seed), rules)
    _check_layout(cards, rules, rules.wild_rank(indicator))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile=profile_names, seed=st.integers(0, 2**32 - 1))
def test_fourteen_held_cards_are_laid_out_whole(profile: str, seed: int) -> None:
    """The replay page rules on the 14 cards a seat holds after a draw as they are: every card
    in one valid group or left over, the leftovers worth the deadwood."""
    rules = get_profile(profile)
    cards, indicator = random_hand(random.Random(seed), rules, size=14)
    _check_layout(cards, rules, rules.wild_rank(indicator))


@settings(max_examples=200, deadline=None)
@given(profile=profile_names, seed=st.integers(0, 2**32 - 1), perm=st.randoms())
def test_card_order_never_changes_the_ruling(profile: str, seed: int, perm: random.Random) -> None:
    rules = get_profile(profile)
    cards, indicator = random_hand(random.Random(seed), rules)
    wr = rules.wild_rank(indicator)
    a = evaluate_hand(cards, rules, wr)
    shuffled = list(cards)
    perm.shuffle(shuffled)
    b = evaluate_hand(shuffled, rules, wr)
    assert (a.valid, a.deadwood, a.penalty) == (b.valid, b.deadwood, b.penalty)


@settings(max_examples=150, deadline=None)
@given(profile=profile_names, seed=st.integers(0, 2**32 - 1))
def test_fourteen_card_ruling_is_consistent(profile: str, seed: int) -> None:
    rules = get_profile(profile)
    cards, indicator = random_hand(random.Random(seed), rules, size=14)
    wr = rules.wild_rank(indicator)
    drawn = evaluate_drawn(cards, rules, wr)
    winning = {c.face for c in drawn.winning_discards}
    for discard, ev in drawn.by_discard:
        assert ev.valid == (discard.face in winning)
        assert drawn.best.deadwood <= ev.deadwood
    assert drawn.declarable == bool(winning)


def _dealt_fourteen(
    rng: random.Random, rules: Rules, players: int
) -> tuple[list[Card], int | None, Card | None]:
    """14 cards as a seat holds them after a draw: dealt from the table's decks in a random
    order, or (more duplicates and wild cards) from `random_hand`; sometimes one of them was
    just taken from the pile; the wild rank from an indicator of the same decks."""
    deck = rules.build_deck(players)
    if rng.random() < 0.5:
        cards = rng.sample(deck, 14)
    else:
        cards = random_hand(rng, rules, size=14)[0]
        rng.shuffle(cards)
    taken = rng.choice(cards) if rng.random() < 0.3 else None
    return cards, rules.wild_rank(rng.choice(deck).face), taken


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=profile_names,
    players=st.sampled_from([2, 3, 6, 10]),
    nothing_wild=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_each_discard_is_ruled_as_the_thirteen_cards_it_leaves(
    profile: str, players: int, nothing_wild: bool, seed: int
) -> None:
    """What `by_discard` says a discard leaves is exactly `evaluate_hand` on the 13 cards kept
    (the hand less that physical card, in its order): valid, deadwood, penalty, and the layout
    card for card. The hand advice takes it for the view after the discard
    (`bot.table.advice`), so the players see the same ruling either way. One, two and three
    decks (`classic` by seat count), printed jokers, wild ranks or nothing wild."""
    rules = get_profile(profile)
    if nothing_wild:
        rules = dataclasses.replace(rules, nothing_wild=True)
    players = min(players, rules.max_players)
    cards, wr, taken = _dealt_fourteen(random.Random(seed), rules, players)
    drawn = evaluate_drawn(cards, rules, wr, forbidden=taken)
    for discard, ev in drawn.by_discard:
        kept = [c for c in cards if c.id != discard.id]
        fresh = evaluate_hand(kept, rules, wr)
        assert ev == fresh, _describe(rules, wr, cards)
        # Equality compares cards by id; the faces and the order shown must match too.
        assert repr(ev) == repr(fresh)


def test_the_other_copy_of_a_discarded_face_keeps_other_cards() -> None:
    """With two decks `by_discard` rules on throwing one copy of a face; throwing the other
    keeps the first, so the layout (which shows physical cards) is not the one ruled on: the
    hand advice evaluates such a hand itself."""
    rules, wr = wild("points", "9C")
    cards = hand("2S 3S 4S 5H 6H 7H 8D 9D 10D JC QC KC KC 5S")
    drawn = evaluate_drawn(cards, rules, wr)
    first, second = cards[11], cards[12]
    ruled = dict((c.id, ev) for c, ev in drawn.by_discard)
    assert first.id in ruled and second.id not in ruled
    after_second = evaluate_hand([c for c in cards if c.id != second.id], rules, wr)
    assert ruled[first.id].deadwood == after_second.deadwood
    assert ruled[first.id] != after_second  # the run holds the other KC


# ---- differential: fast evaluator against the naive one ---------------------------------------


def _near_complete(rng: random.Random, rules: Rules, size: int) -> tuple[list[Card], int | None]:
    """Short runs and sets of a few suits, topped up with two to six wild cards: the hands
    where the search has the most ways to place substitutes (long suits, wild ranks that may
    play themselves)."""
    deck = rules.build_deck(4)
    wild_rank = rules.wild_rank(rng.choice(deck).face)
    rng.shuffle(deck)
    wilds = [c for c in deck if rules.is_wild(c.face, wild_rank)]
    cards = wilds[: rng.randint(2, 6)]
    used = {c.id for c in cards}
    suits = rng.sample(range(4), rng.randint(1, 3))
    while len(cards) < size:
        suit = rng.choice(suits)
        start = rng.randint(1, 11)
        for rank in range(start, min(14, start + rng.randint(2, 5))):
            match = next(
                (c for c in deck if c.suit == suit and c.rank == rank and c.id not in used), None
            )
            if match is not None and len(cards) < size:
                cards.append(match)
                used.add(match.id)
    return cards, wild_rank


def _differential_hand(
    rng: random.Random, rules: Rules, size: int
) -> tuple[list[Card], int | None]:
    if rng.random() < 0.4:
        return _near_complete(rng, rules, size)
    cards, indicator = random_hand(rng, rules, size=size)
    return cards, rules.wild_rank(indicator)


def _describe(rules: Rules, wild_rank: int | None, cards: list[Card]) -> str:
    return f"{rules.name} wild={wild_rank} {' '.join(c.code for c in cards)}"


def _check_shown_layout(ev: Evaluation, cards: list[Card], rules: Rules, wr: int | None) -> None:
    """The layout behind a ruling is real: valid groups, every card once, leftovers == deadwood."""
    shown = [c for g in ev.groups for c in g.cards] + list(ev.leftover)
    assert sorted(c.id for c in shown) == sorted(c.id for c in cards)
    for g in ev.groups:
        kind = classify_group(g.cards, rules, wr)
        assert kind is not None and (g.kind is not GroupKind.PURE or kind is GroupKind.PURE)
    assert sum(0 if rules.is_wild(c.face, wr) else c.face.value for c in ev.leftover) == (
        ev.deadwood
    )
    if ev.valid:
        assert not ev.leftover and check_arrangement([g.cards for g in ev.groups], rules, wr)


@pytest.mark.parametrize("chunk", range(6))
def test_agrees_with_naive_evaluator(chunk: int) -> None:
    """1,200 random 13-card hands, all profiles: 40% nearly complete with 2-6 wild cards, the
    rest dealt or skewed to one suit (many with 2-4 wild cards). Cold and warm alike: the suit
    cache is cleared every few hands. Every layout is checked too."""
    rng = random.Random(1000 + chunk)
    profiles = list(PROFILES.values())
    mismatches = []
    for i in range(200):
        if i % 7 == 0:
            clear_cache()
        rules = profiles[i % len(profiles)]
        cards, wr = _differential_hand(rng, rules, 13)
        fast = evaluate_hand(cards, rules, wr)
        ref = reference_evaluate(cards, rules, wr)
        if (fast.valid, fast.deadwood, fast.penalty) != (ref.valid, ref.deadwood, ref.penalty):
            mismatches.append(
                f"{_describe(rules, wr, cards)}: "
                f"fast {fast.valid, fast.deadwood} naive {ref.valid, ref.deadwood}"
            )
        _check_shown_layout(fast, cards, rules, wr)
    assert not mismatches, "\n".join(mismatches[:10])


@pytest.mark.parametrize("chunk", range(4))
def test_fourteen_card_rulings_agree_with_naive_evaluator(chunk: int) -> None:
    """320 random 14-card hands: every discard's ruling equals the 13-card ruling of the cards
    kept (and its layout is real), and the best discard plus one other discard agree with the
    naive evaluator, which is too slow to ask about all fourteen."""
    rng = random.Random(2000 + chunk)
    profiles = list(PROFILES.values())
    mismatches = []
    for i in range(80):
        if i % 5 == 0:
            clear_cache()
        rules = profiles[i % len(profiles)]
        cards, wr = _differential_hand(rng, rules, 14)
        forbidden = cards[-1] if i % 3 == 0 else None
        drawn = evaluate_drawn(cards, rules, wr, forbidden)
        assert all(forbidden is None or d.id != forbidden.id for d, _ in drawn.by_discard)
        for discard, ev in drawn.by_discard:
            kept = [c for c in cards if c.id != discard.id]
            alone = evaluate_hand(kept, rules, wr)
            assert (ev.valid, ev.deadwood, ev.penalty) == (
                alone.valid,
                alone.deadwood,
                alone.penalty,
            ), _describe(rules, wr, cards)
            _check_shown_layout(ev, kept, rules, wr)
        others = [d for d, _ in drawn.by_discard if d.id != drawn.best_discard.id]
        asked = {drawn.best_discard.id, *([rng.choice(others).id] if others else [])}
        for discard, ev in drawn.by_discard:
            if discard.id in asked:
                kept = [c for c in cards if c.id != discard.id]
                ref = reference_evaluate(kept, rules, wr)
                if (ev.valid, ev.deadwood, ev.penalty) != (ref.valid, ref.deadwood, ref.penalty):
                    mismatches.append(f"{_describe(rules, wr, cards)} less {discard.code}")
    assert not mismatches, "\n".join(mismatches[:10])


def test_fourteen_cards_agree_with_naive_evaluator() -> None:
    rng = random.Random(77)
    profiles = list(PROFILES.values())
    for i in range(40):
        rules = profiles[i % len(profiles)]
        cards, indicator = random_hand(rng, rules, size=14)
        wr = rules.wild_rank(indicator)
        drawn = evaluate_drawn(cards, rules, wr)
        expected = set()
        for c in cards:
            rest = [x for x in cards if x.id != c.id]
            if reference_evaluate(rest, rules, wr).valid:
                expected.add(c.code)
        assert {c.code for c in drawn.winning_discards} == expected


# ---- the precomputed suit tables ----------------------------------------------------------------


def test_precomputed_tables_equal_solving_each_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sample of `_STATIC` entries, every budget, against the solver run with no precomputed
    table and an empty cache: cutting the largest budget's table equals solving the smaller
    budget, and the normalised wild-rank arguments give the table of the raw ones."""
    from bot.engine import evaluate as ev

    ev.build_tables()
    rng = random.Random(5)
    keys = rng.sample(sorted(ev._STATIC), 400)
    expected = {k: ev._STATIC[k] for k in keys}
    monkeypatch.setattr(ev, "_STATIC", {})
    clear_cache()
    for k in keys:
        pattern, wr, wr_n = k & (1 << 28) - 1, k >> 28 & 15, k >> 32 & 15
        for budget in range(ev.STATIC_BUDGET + 1):
            assert ev._solve_suit(pattern, wr, wr_n, budget) == expected[k][budget], (k, budget)
            if wr:  # more wild-rank cards of the suit than can play themselves change nothing
                raw = ev._solve_suit(pattern, wr, 3, budget)
                assert raw == expected[k][budget] or wr_n == 3, (k, budget)
            else:  # a wild rank with no natural card beside it is as good as none
                far = [w for w in range(1, 14) if not pattern & ev._NEAR_WR[w]]
                if far:
                    raw = ev._solve_suit(pattern, rng.choice(far), 2, budget)
                    assert raw == expected[k][budget], (k, budget)
    clear_cache()
