"""The tournament's own rules (`bot.table.bracket`): seating, byes, who goes through, places and
the seating commitment, as properties over many fields and results."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.table import bracket
from bot.table.bracket import Advance, AdvanceKind, SeatResult

TOP2 = Advance(AdvanceKind.TOP, 2)


def keys(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


advances = st.one_of(
    st.builds(lambda n: Advance(AdvanceKind.TOP, n), st.integers(1, 5)),
    st.builds(lambda x: Advance(AdvanceKind.LINE, x), st.integers(-50, 50)),
)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 250), seats=st.integers(2, 6), advance=advances)
def test_every_player_is_seated_once_or_has_a_bye(n: int, seats: int, advance: Advance) -> None:
    if advance.kind is AdvanceKind.TOP and advance.value >= seats:
        advance = Advance(AdvanceKind.TOP, seats - 1)
    players = keys(n)
    order = bracket.draw(players, random.Random(n))
    seating = bracket.seat(order, seats, advance)
    seated = [p for table in seating.tables for p in table]
    assert sorted(seated + list(seating.byes)) == sorted(players)  # nobody twice, nobody lost
    assert len(set(seated)) == len(seated)
    sizes = [len(t) for t in seating.tables]
    assert all(size <= seats for size in sizes)
    if sizes:
        assert max(sizes) - min(sizes) <= 1  # as even as possible
    if len(sizes) > 1:
        assert min(sizes) >= advance.min_table  # every table can send someone home
    if n >= 2:
        assert sizes, "two or more players always play"
    # The byes are the end of the draw, and only as many as the rule needs.
    assert list(seating.byes) == order[len(seated) :]
    if n > seats and n // -(-n // seats) >= max(2, advance.min_table):
        assert seating.byes == ()


def test_seven_thirteen_and_sixty_one_players() -> None:
    """With six seats and two going through, even tables seat everyone: no byes."""
    for n, sizes in ((7, [4, 3]), (13, [5, 4, 4]), (61, [6] * 6 + [5] * 5)):
        seating = bracket.seat(keys(n), 6, TOP2)
        assert [len(t) for t in seating.tables] == sizes and seating.byes == ()


def test_byes_when_tables_would_be_too_small() -> None:
    """Heads-up tables (two seats, one goes through): an odd field leaves one with a bye;
    tables of three with two going through need three at each table."""
    one = Advance(AdvanceKind.TOP, 1)
    for n, tables, byes in ((7, 3, 1), (13, 6, 1), (61, 30, 1)):
        seating = bracket.seat(keys(n), 2, one)
        assert (len(seating.tables), len(seating.byes)) == (tables, byes)
        assert seating.byes == (keys(n)[-1],)  # the last of the draw
    seating = bracket.seat(keys(7), 3, TOP2)
    assert [len(t) for t in seating.tables] == [3, 3] and seating.byes == (keys(7)[-1],)


def test_the_final_is_one_table() -> None:
    seating = bracket.seat(keys(5), 6, TOP2)
    assert seating.final and seating.tables == (tuple(keys(5)),)


results = st.builds(
    SeatResult,
    player=st.text("abcdef", min_size=1, max_size=4),
    score=st.fractions(min_value=-200, max_value=200, max_denominator=4),
    survival=st.integers(0, 6),
    deals_won=st.integers(0, 3),
    left=st.booleans(),
    person=st.booleans(),
    draw=st.integers(0, 100),
    filler=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(table=st.lists(results, min_size=2, max_size=6, unique_by=lambda r: r.player))
def test_qualifiers_are_the_best_by_the_stated_rule(table: list[SeatResult]) -> None:
    table = [
        SeatResult(r.player, r.score, r.survival, r.deals_won, r.left, r.person, i, r.filler)
        for i, r in enumerate(table)
    ]
    entrants = [r for r in table if not r.filler]
    for advance in (TOP2, Advance(AdvanceKind.LINE, 0)):
        chosen = bracket.qualifiers(table, advance)
        by_key = {r.player: r for r in table}
        if not entrants:
            assert chosen == []
            continue
        assert chosen, "every table sends someone"
        assert all(not by_key[p].filler for p in chosen)  # an AI filling a seat never goes
        ranked = [r.player for r in bracket.rank(entrants)]
        # Whoever goes through ranks above whoever does not, among those still in the match.
        worst = max(ranked.index(p) for p in chosen)
        passed = [p for p in ranked[:worst] if p not in chosen]
        assert all(by_key[p].left or advance.kind is AdvanceKind.LINE for p in passed)
        if len(chosen) > 1 or not by_key[chosen[0]].left:
            assert all(not by_key[p].left for p in chosen)
        if advance.kind is AdvanceKind.TOP:
            assert len(chosen) <= advance.value
        else:
            assert len(chosen) < len(entrants) or len(entrants) == 1
            assert all(by_key[p].score >= 0 for p in chosen) or len(chosen) == 1


def test_a_person_goes_through_before_an_ai_with_more_chips() -> None:
    table = [
        SeatResult("bot", Fraction(90), person=False, draw=0),
        SeatResult("ann", Fraction(-10), draw=1),
        SeatResult("ben", Fraction(-40), draw=2),
    ]
    assert bracket.qualifiers(table, TOP2) == ["ann", "ben"]


def test_ties_are_broken_by_deals_won_then_the_draw() -> None:
    table = [
        SeatResult("a", Fraction(10), deals_won=0, draw=0),
        SeatResult("b", Fraction(10), deals_won=1, draw=3),
        SeatResult("c", Fraction(10), deals_won=0, draw=1),
    ]
    assert [r.player for r in bracket.rank(table)] == ["b", "a", "c"]


def test_a_player_who_left_goes_through_only_if_nobody_stayed() -> None:
    table = [
        SeatResult("gone", Fraction(50), left=True, draw=0),
        SeatResult("here", Fraction(-50), draw=1),
        SeatResult("also", Fraction(-60), draw=2),
    ]
    assert bracket.qualifiers(table, TOP2) == ["here", "also"]
    everyone_left = [SeatResult("x", Fraction(5), left=True), SeatResult("y", left=True, draw=1)]
    assert bracket.qualifiers(everyone_left, TOP2) == ["x"]


def test_pool_survival_ranks_before_points() -> None:
    table = [
        SeatResult("out_first", Fraction(-101), survival=1, draw=0),
        SeatResult("winner", Fraction(-90), survival=5, draw=1),
        SeatResult("out_last", Fraction(-130), survival=2, draw=2),
    ]
    assert [r.player for r in bracket.rank(table)] == ["winner", "out_last", "out_first"]


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(2, 130), seats=st.integers(2, 6), advance_n=st.integers(1, 5), seed=st.integers()
)
def test_a_whole_bracket_gives_everyone_one_place_and_one_winner(
    n: int, seats: int, advance_n: int, seed: int
) -> None:
    advance = Advance(AdvanceKind.TOP, min(advance_n, seats - 1))
    rng = random.Random(seed)
    players = keys(n)
    field = list(players)
    outcomes: list[bracket.RoundOutcome] = []
    for _ in range(200):
        seating = bracket.seat(bracket.draw(field, rng), seats, advance)
        if seating.final:
            table = [
                SeatResult(p, Fraction(rng.randint(-50, 50)), draw=i)
                for i, p in enumerate(seating.tables[0])
            ]
            final = [r.player for r in bracket.rank(table)]
            break
        going: list[str] = []
        for t in seating.tables:
            table = [SeatResult(p, Fraction(rng.randint(-50, 50)), draw=i) for i, p in enumerate(t)]
            going += bracket.qualifiers(table, advance)
        going += list(seating.byes)
        assert len(going) < len(field), "every round sends someone home"
        outcomes.append(bracket.RoundOutcome(tuple(field), tuple(going)))
        field = going
    else:
        raise AssertionError("the bracket never reached a final")
    placed = bracket.places(outcomes, final)
    assert sorted(placed.places) == sorted(players)  # exactly one place each
    assert [p for p, place in placed.places.items() if place == 1] == [placed.winner]
    # Players out in the same round share a place; a later exit is always a better place.
    for outcome in outcomes:
        out = [p for p in outcome.players if p not in outcome.advanced]
        assert len({placed.places[p] for p in out}) <= 1
        assert all(placed.places[p] > placed.places[q] for p in out for q in outcome.advanced)


def test_the_commitment_verifies_only_the_draw_it_was_made_for() -> None:
    order = bracket.draw(keys(13), random.Random(3))
    salt = "0f" * 16
    seating = bracket.seat(order, 6, TOP2)
    commitment = bracket.commit(2, salt, order)
    tables = [list(t) for t in seating.tables]
    assert bracket.verify(commitment, 2, salt, order, 6, TOP2, tables, list(seating.byes))
    swapped = [order[1], order[0], *order[2:]]
    assert not bracket.verify(commitment, 2, salt, swapped, 6, TOP2, tables, [])
    assert not bracket.verify(commitment, 3, salt, order, 6, TOP2, tables, [])
    moved = [tables[0][:-1], [tables[0][-1], *tables[1]], tables[2]]
    assert not bracket.verify(commitment, 2, salt, order, 6, TOP2, moved, [])
    assert bracket.commitment_text(2, salt, order).startswith("paplu-seating-v1:2:")
