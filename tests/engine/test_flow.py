"""Deal and match flow: one test per rule of docs/rules.md that the state machine decides.

Deals are *rigged*: `rig()` puts chosen faces in chosen hands, the indicator, the opening
discard and the top of the stock, so each test reads like a hand played at a table.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.deal import Deal, EndReason, OutReason, PileEntry, SeatStatus
from bot.engine.errors import (
    BadArrangement,
    CannotDiscardTakenCard,
    CardNotInHand,
    HandRummyNotAllowed,
    InvalidDeclarationError,
    MatchOver,
    NotYourTurn,
    PackingNotAllowed,
    RummyError,
    SeatNotActive,
    WrongPhase,
)
from bot.engine.evaluate import evaluate_hand
from bot.engine.events import Dealt, Reshuffled
from bot.engine.match import Match, MatchPhase
from bot.engine.rules import PROFILES, DeclarationMode, Rules, get_profile
from bot.engine.settlement import Basis
from bot.words.log import log_lines

# docs/rules.md worked example (eights wild there; valid with any wild rank that is not in it).
VALID_13 = "4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C"
NEEDS_4C = "4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C KD"  # draw 4C, discard KD
# Both lives; leftovers K♣ 5♦ pay 15.
PAYS_15 = "2H 3H 4H 5H 6S 7S 8S 9S JD QD KD KC 5D"
JUNK_A = "2S 5S 9C JC 3D 6D 8D QH KH 4S 7H 10H 9H"
JUNK_B = "3S 6C 10C QC 4D 8C JH 2D KS AH 9D 6H QS"
JUNK_C = "AS 8S JS 3H 8H 5D 7D 10D QD KD 2C 5C KC"  # disjoint from A, B: one deck is enough


def rig(
    rules: Rules,
    hands: list[str],
    indicator: str | None = "JK",
    pile: str = "JD",
    stock_top: str = "",
    dealer: int | None = None,
) -> Deal:
    """A deal with these faces in these hands; seat 0 plays first unless `dealer` says so."""
    n = len(hands)
    seats = list(range(n))
    dealer = n - 1 if dealer is None else dealer
    deal = Deal(rules, seats, dealer, seed=7)
    pool = list(deal.deck)

    def take(code: str) -> Card:
        face = Face.parse(code)
        card = next(c for c in pool if c.face == face)
        pool.remove(card)
        return card

    for s, codes in enumerate(hands):
        deal.hands[s] = [take(c) for c in codes.split()]
    deal.dealt = {s: list(h) for s, h in deal.hands.items()}
    if not rules.nothing_wild and indicator is not None:
        deal.indicator = take(indicator)
    opening = take(pile)
    deal.pile = [opening]
    deal.pile_log = [PileEntry(opening, None)]
    tops = [take(c) for c in stock_top.split()]
    deal.stock = pool + list(reversed(tops))
    # The shuffled deck these hands were dealt from (round by round from the dealer's right,
    # then the indicator, the opening discard and the stock top first), so that everything
    # the saved state derives from the order agrees with the rigged hands.
    dealing = deal.play_order_from(deal.next_seat(dealer, active_only=False))
    order = [deal.hands[s][i] for i in range(13) for s in dealing]
    order += [] if deal.indicator is None else [deal.indicator]
    deal.order = [c.id for c in [*order, opening, *reversed(deal.stock)]]
    deal.turn = deal.next_seat(dealer, active_only=False)
    deal.events.append(Dealt(dealer, 1))
    deal.check_invariants()
    return deal


def rigged_match(rules: Rules | str, hands: list[str], **kw: object) -> Match:
    rules = get_profile(rules) if isinstance(rules, str) else rules
    m = Match.create([f"P{i}" for i in range(len(hands))], rules, seed=3)
    deal = rig(rules, hands, **kw)  # type: ignore[arg-type]
    m.deal = deal
    m.dealer = deal.dealer
    return m


def cid(m: Match, seat: int, code: str) -> int:
    assert m.deal is not None
    face = Face.parse(code)
    return next(c.id for c in m.deal.hands[seat] if c.face == face)


def draw_and_throw(m: Match, seat: int) -> None:
    """Draw from the stock and throw the card just drawn."""
    m.apply(Action.draw_stock(seat))
    assert m.deal is not None
    m.apply(Action.discard(seat, m.deal.hands[seat][-1].id))


def charges(m: Match) -> dict[int, tuple[Basis, int, Fraction, Fraction]]:
    return {c.seat: (c.basis, c.base, c.rate, c.amount) for c in m.results[-1].charges}


# ---- setup ----


@pytest.mark.parametrize("name", list(PROFILES))
def test_setup_deals_13_from_dealers_right(name: str) -> None:
    rules = PROFILES[name]
    m = Match.create(["a", "b", "c", "d"], rules, seed=11)
    deal = m.deal
    assert deal is not None
    assert all(len(h) == 13 for h in deal.hands.values())
    first = (deal.dealer + 1) % 4
    assert deal.turn == first
    # Round-robin from the dealer's right: the first card of the deck goes to `first`.
    assert deal.hands[first][0].id == deal.order[0]
    assert deal.hands[deal.dealer][0].id == deal.order[3]
    assert deal.indicator is not None and deal.indicator.id == deal.order[52]
    assert deal.pile[0].id == deal.order[53]
    assert len(deal.stock) == len(deal.deck) - 52 - 2
    deal.check_invariants()


def test_nothing_wild_has_no_indicator() -> None:
    rules = get_profile("pool101").with_options(nothing_wild=True)
    m = Match.create(["a", "b"], rules, seed=1)
    assert m.deal is not None and m.deal.indicator is None and m.deal.wild_rank is None
    assert len(m.deal.deck) == 104
    m.check_invariants()


def test_classic_deck_sizes() -> None:
    for n, size in ((2, 54), (4, 108), (7, 162), (10, 162)):
        m = Match.create([str(i) for i in range(n)], "classic", seed=n)
        assert m.deal is not None and len(m.deal.deck) == size
        m.check_invariants()


def test_paplu_seating_ceremony_lowest_deals() -> None:
    m = Match.create(["a", "b", "c", "d"], "paplu", seed=5)
    last = m.seating[-1]
    assert m.dealer == 3  # table order is highest .. lowest; the lowest deals
    first_round = m.seating[0]
    ranks = {pid: Face.parse(code).rank for pid, code in first_round.items()}
    ordered = [p.id for p in m.players]
    assert [ranks[p] for p in ordered] == sorted(ranks.values(), reverse=True)
    assert last  # the ceremony is recorded


def test_seeded_matches_are_reproducible_and_unseeded_work() -> None:
    a = Match.create(["a", "b", "c"], "points", seed=42)
    b = Match.create(["a", "b", "c"], "points", seed=42)
    assert a == b and a.to_json() == b.to_json()
    c = Match.create(["a", "b", "c"], "points")  # OS randomness
    c.check_invariants()


def test_deal_passes_to_the_right() -> None:
    m = Match.create(["a", "b", "c"], "deals", seed=2)
    assert m.deal is not None
    first_dealer = m.dealer
    m.apply(Action.drop(m.deal.turn))
    assert m.deal is not None
    m.apply(Action.drop(m.deal.turn))
    assert m.phase is MatchPhase.BETWEEN_DEALS
    m.start_next_deal()
    assert m.dealer == (first_dealer + 1) % 3


# ---- drops ----


@pytest.mark.parametrize("name", list(PROFILES))
def test_drop_costs_per_profile(name: str) -> None:
    rules = PROFILES[name]
    m = rigged_match(rules, [JUNK_A, JUNK_B, JUNK_C])
    obs = m.observation(0)
    assert obs.may_drop and obs.drop_cost == rules.first_drop
    m.apply(Action.drop(0))  # first drop
    draw_and_throw(m, 1)
    draw_and_throw(m, 2)
    assert m.observation(1).drop_cost == rules.middle_drop
    m.apply(Action.drop(1))  # middle drop: seat 2 is the survivor
    r = m.results[-1]
    assert r.end is EndReason.LAST_STANDING and r.winner == 2
    got = charges(m)
    assert got[0][:2] == (Basis.FIRST_DROP, rules.first_drop)
    assert got[1][:2] == (Basis.MIDDLE_DROP, rules.middle_drop)
    total = rules.first_drop + rules.middle_drop
    if m.score_kind.value == "net":
        assert r.deltas == {0: -rules.first_drop, 1: -rules.middle_drop, 2: total}
    else:
        assert r.deltas == {0: rules.first_drop, 1: rules.middle_drop, 2: 0}
    m.check_invariants()


@pytest.mark.parametrize("name", ["paplu", "classic"])
def test_first_pack_goes_to_stock_bottom_later_packs_aside(name: str) -> None:
    m = rigged_match(name, [JUNK_A, JUNK_B, JUNK_C, VALID_13])
    deal = m.deal
    assert deal is not None
    hand = {c.id for c in deal.hands[0]}
    before = len(deal.stock)
    m.apply(Action.drop(0))
    assert {c.id for c in deal.stock[:13]} == hand and len(deal.stock) == before + 13
    assert deal.set_aside == []
    draw_and_throw(m, 1)
    m.apply(Action.drop(2))  # seat 2 has not had a turn: still a first drop
    assert deal.out_reason[2] is OutReason.FIRST_DROP and deal.set_aside == []
    draw_and_throw(m, 3)
    hand1 = {c.id for c in deal.hands[1]}
    m.apply(Action.drop(1))  # middle drop
    assert {c.id for c in deal.set_aside} == hand1
    m.check_invariants()


def test_first_pack_set_aside_where_rules_say_so() -> None:
    m = rigged_match("pool101", [JUNK_A, JUNK_B, JUNK_C])
    deal = m.deal
    assert deal is not None
    hand = {c.id for c in deal.hands[0]}
    m.apply(Action.drop(0))
    assert {c.id for c in deal.set_aside} == hand


def test_two_players_one_drops_other_wins() -> None:
    m = rigged_match("points", [JUNK_A, JUNK_B])
    m.apply(Action.drop(0))
    assert m.results[-1].winner == 1 and m.phase is MatchPhase.OVER
    assert m.winners == (1,) and m.scores == {0: -20, 1: 20}


def test_leaving_is_a_drop_even_off_turn() -> None:
    m = rigged_match("paplu", [JUNK_A, JUNK_B, JUNK_C])
    m.apply(Action.leave(2))  # not on turn, never played: first drop
    assert m.deal is not None and m.deal.out_reason[2] is OutReason.FIRST_DROP
    assert m.deal.turn == 0
    m.apply(Action.draw_stock(0))
    m.apply(Action.leave(0))  # mid-turn, holding 14: middle drop; seat 1 survives
    r = m.results[-1]
    assert r.winner == 1 and charges(m)[0][:2] == (Basis.MIDDLE_DROP, 40)
    assert 0 in m.left and 2 in m.left


# ---- declarations ----


def test_valid_declaration_settles_penalties() -> None:
    m = rigged_match("pool101", [NEEDS_4C, PAYS_15, JUNK_A], stock_top="4C")
    m.apply(Action.draw_stock(0))
    m.apply(Action.declare(0, cid(m, 0, "KD")))
    r = m.results[-1]
    assert r.end is EndReason.DECLARED and r.winner == 0
    got = charges(m)
    assert got[1] == (Basis.DEADWOOD, 15, 1, 15)
    assert m.scores[1] == 15 and m.scores[0] == 0
    hist = m.hand_history(1)
    assert hist["final"]["1"]["arrangement"]["leftover"] == ["5D", "KC"] or sorted(
        hist["final"]["1"]["arrangement"]["leftover"]
    ) == ["5D", "KC"]


def test_half_rate_for_players_without_a_turn_paplu() -> None:
    m = rigged_match("paplu", [NEEDS_4C, PAYS_15, JUNK_A], stock_top="4C")
    m.apply(Action.draw_stock(0))
    m.apply(Action.declare(0, cid(m, 0, "KD")))
    got = charges(m)
    assert got[1] == (Basis.DEADWOOD, 15, Fraction(1, 2), Fraction(15, 2))
    assert m.scores[1] == Fraction(-15, 2)
    assert got[2][2] == Fraction(1, 2)
    assert sum(m.scores.values()) == 0
    assert json.loads(m.to_json())["scores"]["1"] == "-15/2"


def test_half_rate_only_for_those_who_had_no_turn() -> None:
    m = rigged_match("paplu", [JUNK_A, NEEDS_4C, PAYS_15], stock_top="QS 4C")
    draw_and_throw(m, 0)  # seat 0 plays: draws QS and throws it
    m.apply(Action.draw_stock(1))  # 4C
    m.apply(Action.declare(1, cid(m, 1, "KD")))
    got = charges(m)
    assert got[0][2] == 1  # had a turn: full rate
    assert got[2] == (Basis.DEADWOOD, 15, Fraction(1, 2), Fraction(15, 2))


def test_no_half_rate_where_rules_do_not_say_so() -> None:
    m = rigged_match("pool101", [NEEDS_4C, PAYS_15, JUNK_A], stock_top="4C")
    m.apply(Action.draw_stock(0))
    m.apply(Action.declare(0, cid(m, 0, "KD")))
    assert charges(m)[1][2] == 1


def test_assisted_mode_refuses_invalid_declaration_untouched() -> None:
    m = rigged_match("pool101", [NEEDS_4C, PAYS_15, JUNK_A], stock_top="5C", indicator="QS")
    m.apply(Action.draw_stock(0))
    before = m.to_json()
    with pytest.raises(InvalidDeclarationError):
        m.apply(Action.declare(0, cid(m, 0, "KD")))
    assert m.to_json() == before
    assert not any(a.kind is ActionKind.DECLARE for a in m.legal_actions(0))


@pytest.mark.parametrize("name", list(PROFILES))
def test_wrong_show_in_honor_mode(name: str) -> None:
    rules = PROFILES[name].with_options(declaration_mode=DeclarationMode.HONOR)
    m = rigged_match(rules, [NEEDS_4C, PAYS_15, JUNK_A, JUNK_B], stock_top="5C", indicator="QS")
    m.apply(Action.draw_stock(0))
    assert sum(a.kind is ActionKind.DECLARE for a in m.legal_actions(0)) == 14
    m.apply(Action.declare(0, cid(m, 0, "KD")))
    deal = m.deal
    assert deal is not None and m.phase is MatchPhase.PLAYING  # others play on
    assert len(deal.set_aside) == 14 and deal.turn == 1
    if rules.invalid_declaration.value == "penalty_out":
        assert deal.status[0] is SeatStatus.OUT
        expected = (Basis.WRONG_SHOW, rules.invalid_penalty)
    else:
        assert deal.status[0] is SeatStatus.DROPPED
        expected = (Basis.WRONG_SHOW_DROP, rules.middle_drop)
    m.apply(Action.drop(1))
    m.apply(Action.drop(2))  # seat 3 is the last one standing
    assert m.results[-1].winner == 3
    assert charges(m)[0][:2] == expected
    m.check_invariants()


def test_honor_mode_judges_the_grouping_as_laid() -> None:
    rules = get_profile("pool101").with_options(declaration_mode=DeclarationMode.HONOR)
    m = rigged_match(rules, [NEEDS_4C, PAYS_15, JUNK_A], stock_top="4C")
    m.apply(Action.draw_stock(0))
    deal = m.deal
    assert deal is not None
    ids = {c.code + str(i): c.id for i, c in enumerate(deal.hands[0])}
    by_code: dict[str, int] = {}
    for c in deal.hands[0]:
        by_code.setdefault(c.code, c.id)
    good = [
        ["4H", "5H", "6H"], ["9S", "10S", "JK"], ["7C", "7D", "7S"], ["AC", "2C", "3C", "4C"]
    ]  # fmt: skip
    bad = [["4H", "5H", "6H", "9S"], ["10S", "JK", "7C"], ["7D", "7S", "AC"], ["2C", "3C", "4C"]]
    as_ids = lambda groups: tuple(tuple(by_code[c] for c in g) for g in groups)  # noqa: E731
    with pytest.raises(BadArrangement):
        m.apply(Action.declare(0, by_code["KD"], as_ids(good[:3])))
    assert ids
    snapshot = m.to_json()
    m2 = Match.from_json(snapshot)
    m2.apply(Action.declare(0, by_code["KD"], as_ids(bad)))
    assert m2.deal is not None and m2.deal.status[0] is SeatStatus.OUT
    m.apply(Action.declare(0, by_code["KD"], as_ids(good)))
    assert m.results[-1].winner == 0
    assert m.hand_history(1)["final"]["0"]["shown_groups"][0] == ["4H", "5H", "6H"]


# ---- hand rummy ----


def _hand_rummy_match(name: str) -> Match:
    m = rigged_match(name, [PAYS_15, JUNK_A, VALID_13, JUNK_B])
    draw_and_throw(m, 0)  # seat 0 has played
    m.apply(Action.drop(1))  # seat 1 packs (first drop)
    assert any(a.kind is ActionKind.DECLARE and a.card is None for a in m.legal_actions(2))
    m.apply(Action.declare(2, None))
    assert m.results[-1].end is EndReason.HAND_RUMMY
    return m


def test_hand_rummy_double_for_played_single_for_waiting_10_for_dropped() -> None:
    m = _hand_rummy_match("classic")
    got = charges(m)
    assert m.deal is not None
    assert got[0][0] is Basis.DEADWOOD and got[0][2] == 2
    assert got[0][3] == 2 * evaluate_hand(m.deal.hands[0], m.rules, m.deal.wild_rank).penalty
    assert got[1] == (Basis.HAND_RUMMY_DROPPED, 10, 1, 10)
    assert got[3][2] == 1
    assert sum(m.scores.values()) == 0


def test_hand_rummy_normal_rates_in_paplu() -> None:
    m = _hand_rummy_match("paplu")
    got = charges(m)
    assert got[0][2] == 1 and got[3][2] == 1  # no double, no half
    assert got[1] == (Basis.FIRST_DROP, 10, 1, 10)


@pytest.mark.parametrize("name", ["points", "pool101", "pool201", "deals"])
def test_hand_rummy_not_allowed(name: str) -> None:
    m = rigged_match(name, [VALID_13, JUNK_A])
    assert not any(a.kind is ActionKind.DECLARE for a in m.legal_actions(0))
    before = m.to_json()
    with pytest.raises(HandRummyNotAllowed):
        m.apply(Action.declare(0, None))
    assert m.to_json() == before


def test_hand_rummy_only_at_first_turn() -> None:
    m = rigged_match("paplu", [JUNK_A, VALID_13, JUNK_B])
    m.apply(Action.draw_stock(0))
    m.apply(Action.discard(0, cid(m, 0, "KH")))
    m.apply(Action.draw_stock(1))
    assert m.deal is not None
    m.apply(Action.discard(1, m.deal.hands[1][-1].id))
    draw_and_throw(m, 2)
    draw_and_throw(m, 0)
    with pytest.raises(HandRummyNotAllowed):
        m.apply(Action.declare(1, None))


# ---- multipliers, void, reshuffle ----


def test_joker_indicator_doubles_payments() -> None:
    rules = get_profile("points").with_options(joker_indicator_doubles=True)
    m = rigged_match(rules, [JUNK_A, JUNK_B], indicator="JK")
    m.apply(Action.drop(0))
    assert charges(m)[0] == (Basis.FIRST_DROP, 20, 1, 40)
    m = rigged_match(rules, [JUNK_A, JUNK_B], indicator="9D")
    m.apply(Action.drop(0))
    assert charges(m)[0] == (Basis.FIRST_DROP, 20, 1, 20)


def _play_out_stock(m: Match) -> None:
    while m.phase is MatchPhase.PLAYING:
        assert m.deal is not None
        draw_and_throw(m, m.deal.turn)
        m.check_invariants()


def test_void_deal_cancels_drop_penalties_paplu() -> None:
    m = rigged_match("paplu", [JUNK_A, JUNK_B, JUNK_C])
    m.apply(Action.drop(0))
    _play_out_stock(m)
    r = m.results[-1]
    assert r.end is EndReason.VOID and r.charges == () and set(r.deltas.values()) == {0}
    assert m.phase is MatchPhase.BETWEEN_DEALS  # counts as played, dealer rotates
    assert m.dealer != r.dealer
    assert m.hand_history(1)["end"]["reason"] == "void"


def test_void_single_deal_has_no_winner() -> None:
    m = rigged_match("points", [JUNK_A, JUNK_B])
    _play_out_stock(m)
    assert m.phase is MatchPhase.OVER and m.winners == ()


def test_no_reshuffle_toggle_voids() -> None:
    rules = get_profile("pool101").with_options(no_reshuffle=True)
    m = rigged_match(rules, [JUNK_A, JUNK_B])
    _play_out_stock(m)
    assert m.results[-1].void


def test_reshuffle_keeps_top_discard() -> None:
    m = rigged_match("pool101", [JUNK_A, JUNK_B])
    deal = m.deal
    assert deal is not None
    while len(deal.stock) > 1:
        draw_and_throw(m, deal.turn)
    seat = deal.turn
    m.apply(Action.draw_stock(seat))
    pile_before = list(deal.pile)
    last = deal.hands[seat][-1]
    m.apply(Action.discard(seat, last.id))
    assert deal.pile == [last]
    assert {c.id for c in deal.stock} == {c.id for c in pile_before}
    assert any(isinstance(e, Reshuffled) for e in deal.events)
    assert all(e.recycled for e in deal.pile_log if e.card.id in {c.id for c in deal.stock})
    m.check_invariants()
    draw_and_throw(m, deal.turn)  # play continues from the new stock
    m.check_invariants()


# ---- match formats ----


def test_pool_elimination_at_exactly_101() -> None:
    m = rigged_match("pool101", [JUNK_A, JUNK_B, JUNK_C])
    m.scores = {0: Fraction(81), 1: Fraction(60), 2: Fraction(0)}
    m.apply(Action.drop(0))  # 81 + 20 = 101: out
    draw_and_throw(m, 1)
    draw_and_throw(m, 2)
    m.apply(Action.drop(1))  # 60 + 40 = 100: still in
    assert m.scores == {0: 101, 1: 100, 2: 0}
    assert m.eliminated == [0] and m.phase is MatchPhase.BETWEEN_DEALS
    m.start_next_deal()
    assert m.deal is not None and m.deal.seats == (1, 2)
    assert m.observation(0).seats[0].status == "eliminated"
    m.apply(Action.drop(m.deal.turn))
    loser = 1 if m.scores[1] >= 101 else 2
    if loser == 1:
        assert m.phase is MatchPhase.OVER and m.winners == (2,)
    m.check_invariants()


def test_deals_format_equal_totals_share() -> None:
    rules = get_profile("deals").with_options(num_deals=2)
    m = Match.create(["a", "b"], rules, seed=9)
    assert m.deal is not None
    m.apply(Action.drop(m.deal.turn))
    m.start_next_deal()
    m.apply(Action.drop(m.deal.turn))
    assert m.phase is MatchPhase.OVER
    assert m.scores == {0: 20, 1: 20} and m.winners == (0, 1)


def test_rotation_every_player_deals_once_ledger_zero() -> None:
    m = Match.create(["a", "b", "c"], "paplu", seed=4)
    dealers = []
    while m.phase is not MatchPhase.OVER:
        if m.phase is MatchPhase.BETWEEN_DEALS:
            m.start_next_deal()
        assert m.deal is not None
        dealers.append(m.deal.dealer)
        m.apply(Action.drop(m.deal.turn))
        m.apply(Action.drop(m.deal.turn))
        assert sum(m.scores.values()) == 0
    assert sorted(dealers) == [0, 1, 2]
    best = max(m.scores.values())
    assert m.winners == tuple(s for s in range(3) if m.scores[s] == best)


def test_target_format_stops_at_target_score() -> None:
    rules = get_profile("classic").with_options(num_deals=None, target_score=25)
    m = Match.create(["a", "b"], rules, seed=4)
    assert m.deal is not None
    first = m.deal.turn
    draw_and_throw(m, first)
    draw_and_throw(m, m.deal.turn)
    m.apply(Action.drop(first))  # middle drop: 40 to the other, past the target
    assert m.phase is MatchPhase.OVER and m.winners == (1 - first,)
    assert m.scores[1 - first] == 40


# ---- errors leave the state untouched ----


def test_errors_leave_state_untouched() -> None:
    rules = get_profile("pool101").with_options(no_packing=True)
    m = rigged_match(rules, [NEEDS_4C, PAYS_15, JUNK_A], pile="4C")
    attempts: list[tuple[Action, type[RummyError]]] = [
        (Action.draw_stock(1), NotYourTurn),
        (Action.discard(0, cid(m, 0, "KD")), WrongPhase),
        (Action.drop(0), PackingNotAllowed),
        (Action.declare(0, cid(m, 0, "KD")), WrongPhase),
    ]
    for action, error in attempts:
        before = m.to_json()
        with pytest.raises(error) as info:
            m.apply(action)
        assert info.value.message and m.to_json() == before
    m.apply(Action.take_discard(0))
    assert m.deal is not None and m.deal.taken is not None
    taken = m.deal.taken.id
    attempts = [
        (Action.discard(0, taken), CannotDiscardTakenCard),
        (Action.discard(0, cid(m, 1, "KC")), CardNotInHand),
        (Action.draw_stock(0), WrongPhase),
        (Action.declare(0, None), WrongPhase),
    ]
    for action, error in attempts:
        before = m.to_json()
        with pytest.raises(error):
            m.apply(action)
        assert m.to_json() == before
    assert m.observation(0).taken is not None
    assert all(a.card != taken for a in m.legal_actions(0) if a.kind is ActionKind.DISCARD)


def test_second_copy_of_taken_face_may_be_discarded() -> None:
    m = rigged_match("pool101", [JUNK_A + "", JUNK_B], pile="9H")
    m.apply(Action.take_discard(0))
    assert m.deal is not None and m.deal.taken is not None
    twin = next(c for c in m.deal.hands[0] if c.code == "9H" and c.id != m.deal.taken.id)
    m.apply(Action.discard(0, twin.id))
    assert m.deal.pile[-1].id == twin.id


def test_dropped_seat_and_finished_match_refuse() -> None:
    m = rigged_match("pool101", [JUNK_A, JUNK_B, JUNK_C])
    m.apply(Action.drop(0))
    before = m.to_json()
    with pytest.raises(SeatNotActive):
        m.apply(Action.draw_stock(0))
    assert m.to_json() == before
    m2 = rigged_match("points", [JUNK_A, JUNK_B])
    m2.apply(Action.drop(0))
    with pytest.raises(MatchOver):
        m2.apply(Action.draw_stock(1))


# ---- state, version, observation, public view ----


def test_version_json_roundtrip_and_views() -> None:
    m = rigged_match("paplu", [JUNK_A, JUNK_B, JUNK_C])
    v = m.version
    m.apply(Action.draw_stock(0))
    assert m.version == v + 1
    again = Match.from_json(m.to_json())
    assert again == m and again.to_json() == m.to_json()
    m.apply(Action.discard(0, cid(m, 0, "KH")))
    m.apply(Action.take_discard(1))
    obs = m.observation(1)
    assert obs.taken is not None and obs.taken.code == "KH"
    assert [p.discarded_by for p in obs.pile_history] == [None, 0]
    assert obs.pile_history[1].taken_by == 1
    assert obs.seats[1].cards == 14 and obs.seats[0].cards == 13
    assert {c.id for c in obs.hand} == {c.id for c in m.deal.hands[1]}  # type: ignore[union-attr]
    view = m.public_view()
    p0, p1, p2 = (p.name for p in m.players)
    assert view.recent[1] == {"k": "drew", "who": p0}  # a fact: no card, no words
    assert tuple(log_lines(view.recent, "en")) == (
        f"Deal 1: {p2} deals",
        f"{p0} drew from the stock",
        f"{p0} discarded K♥",
        f"{p1} took K♥ from the pile",
    )
    m.apply(Action.discard(1, cid(m, 1, "3S")))
    m.apply(Action.drop(2))
    recent = m.public_view().recent[-2:]
    assert tuple(log_lines(recent, "en")) == (f"{p1} discarded 3♠", f"{p2} dropped (10 chips)")


def test_hand_history_contents() -> None:
    m = rigged_match("pool101", [NEEDS_4C, PAYS_15, JUNK_A], stock_top="4C")
    m.apply(Action.draw_stock(0))
    m.apply(Action.declare(0, cid(m, 0, "KD")))
    h = json.loads(json.dumps(m.hand_history(1)))
    for key in (
        "format_version", "variant", "rules", "seats", "dealer", "indicator", "wild_rank",
        "deck_order", "hands_dealt", "opening_discard", "events", "end", "final", "charges",
    ):  # fmt: skip
        assert key in h
    assert h["hands_dealt"]["0"] == NEEDS_4C.split()
    assert h["events"][0]["action"] == "draw_stock" and h["events"][0]["card"] == "4C"
    assert h["end"]["winner"] == 0 and h["final"]["0"]["arrangement"]["valid"]
    assert len(h["deck_order"]) == 106
