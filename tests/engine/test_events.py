"""Typed events, the one describer, the compact live state and its JSON round trip.

The describer's words are the Discord table's words (the e2e tests read them in the table log);
the hand history keeps its documented shape; the live state stays small and reads back equal.
"""

from __future__ import annotations

import ast
import json
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face, rank_name
from bot.engine.deal import Deal
from bot.engine.describe import amount, signed
from bot.engine.events import (
    DealEnded,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Dropped,
    Event,
    Left,
    Reshuffled,
    TimedOut,
    Took,
    Voided,
    WrongShow,
    from_row,
    to_row,
)
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import RandomPolicy
from bot.engine.rules import PROFILES, get_profile
from bot.engine.settlement import Basis, Charge, DealResult, Outcome
from bot.engine.states import EndReason, OutReason, Phase, ScoreKind, SeatState
from bot.words.log import log_lines
from tests.conftest import PROJECT_ROOT

ENGINE = PROJECT_ROOT / "bot" / "engine"
DATA = PROJECT_ROOT / "tests" / "data"
RULES = get_profile("pool101")
NAMES = ["Asha", "Bo", "🤖 Medium"]
K_H = Card(12, Face(13, 1))
SEVEN_S = Card(6, Face(7, 0))


def play(match: Match, seed: int, steps: int, drop_chance: float = 0.08) -> None:
    """Random moves (starting the next deal when one ends) for up to `steps` actions."""
    policies = [RandomPolicy(random.Random(seed * 7 + s), drop_chance, 0.05) for s in range(6)]
    for _ in range(steps):
        if match.phase is MatchPhase.OVER:
            return
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.start_next_deal()
            continue
        assert match.deal is not None
        seat = match.deal.turn
        match.apply(policies[seat].act(match.observation(seat)))


# ---- the public log: its facts and words are tested in tests/words/test_log.py --------------


def test_amounts_and_rank_names_have_one_form() -> None:
    assert [amount(Fraction(n, 2)) for n in (15, -15, 1, -1, 80)] == ["7½", "-7½", "½", "-½", "40"]
    assert amount(Fraction(10, 3)) == "10/3" and amount(7) == "7"
    assert (signed(Fraction(15, 2)), signed(-40), signed(0)) == ("+7½", "-40", "0")
    assert [rank_name(r) for r in (1, 2, 10, 11, 12, 13, 0)] == [
        "A", "2", "10", "J", "Q", "K", "JK",
    ]  # fmt: skip


# ---- rows of the live state ------------------------------------------------------------------

_cards = st.builds(lambda i: Card(i, Face(i % 13 + 1, i % 4)), st.integers(0, 105))
_seat = st.integers(0, 5)
_reason = st.sampled_from(list(OutReason))
_events = st.one_of(
    st.builds(Dealt, _seat, st.integers(1, 30)),
    st.builds(Drew, _seat, _cards, st.booleans()),
    st.builds(Took, _seat, _cards, st.booleans()),
    st.builds(Discarded, _seat, _cards, st.booleans()),
    st.builds(Dropped, _seat, _reason, st.tuples(_cards, _cards), st.booleans(), st.booleans()),
    st.builds(Left, _seat, st.none() | _reason, st.tuples(_cards), st.booleans()),
    st.builds(Declared, _seat, st.none() | _cards, st.booleans()),
    st.builds(WrongShow, _seat, _reason, st.tuples(_cards), st.booleans(), st.none() | _cards),
    st.builds(Reshuffled, st.tuples(_cards, _cards, _cards)),
    st.builds(Voided, st.booleans()),
    st.builds(DealEnded, st.sampled_from(list(EndReason)), st.none() | _seat),
    st.builds(TimedOut, _seat, st.integers(1, 9), st.booleans()),
)


@given(_events)
def test_event_rows_read_back_equal(event: Event) -> None:
    if isinstance(event, Left) and event.reason is None:
        event = Left(event.seat)  # between deals a leave carries nothing else
    row = json.loads(json.dumps(to_row(event)))
    assert from_row(row, lambda i: Card(i, Face(i % 13 + 1, i % 4))) == event


# ---- the match's live state ------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(sorted(PROFILES)),
    st.integers(2, 6),
    st.integers(0, 10_000),
    st.integers(0, 160),
)
def test_match_state_round_trips_at_any_point(
    profile: str, players: int, seed: int, steps: int
) -> None:
    m = Match.create([f"p{i}" for i in range(players)], profile, seed=seed)
    play(m, seed, steps)
    again = Match.from_json(m.to_json())
    assert again == m and again.to_json() == m.to_json()
    assert again.events() == m.events() and again.event_count == m.event_count
    if m.deal is not None:
        assert again.deal is not None
        assert again.deal.pile_log == m.deal.pile_log and again.deal.pile == m.deal.pile
        assert again.deal.dealt == m.deal.dealt and again.deal.actions == m.deal.actions
        again.deal.check_invariants()
    finished = m.finished_deal()
    if finished is not None:
        assert again.finished_deal() == finished  # the same hand history after a restart
    assert again.public_view() == m.public_view()
    for s in range(players):
        assert again.observation(s) == m.observation(s)


def test_actions_read_from_events_replay_the_deal() -> None:
    m = Match.create(["a", "b", "c", "d"], "pool101", seed=41)
    play(m, 41, 60)
    deal = m.deal
    assert deal is not None
    actions = deal.actions
    assert actions and all(isinstance(a, Action) for a in actions)
    again = Deal.replay(deal.rules, deal.seats, deal.dealer, deal.seed, actions, deal.number)
    assert again.to_dict() == deal.to_dict()


def test_live_state_stays_small_over_a_pool_match() -> None:
    """The state saved on every click has no old hand histories: a 6-deal pool101 match for
    four random players never writes more than a few kilobytes (it was 40-80 KB)."""
    m = Match.create(["a", "b", "c", "d"], "pool101", seed=9)
    sizes = []
    policies = [RandomPolicy(random.Random(s)) for s in range(4)]
    while m.phase is not MatchPhase.OVER and len(m.results) < 6:
        if m.phase is MatchPhase.BETWEEN_DEALS:
            m.start_next_deal()
        else:
            assert m.deal is not None
            m.apply(policies[m.deal.turn].act(m.observation(m.deal.turn)))
        sizes.append(len(m.to_json().encode()))
    assert len(m.results) >= 3 and max(sizes) < 6000, max(sizes)


def test_format_1_state_is_restored_by_replay() -> None:
    """A table saved by the previous version (every hand history inside) still loads."""
    data = json.loads((DATA / "match_v1_pool101.json").read_text())
    m = Match.from_dict(data)
    deal = m.deal
    assert deal is not None and m.phase is MatchPhase.PLAYING and m.deal_number == 2
    saved = data["deal"]
    assert {str(s): [c.id for c in h] for s, h in deal.hands.items()} == saved["hands"]
    assert [c.id for c in deal.stock] == saved["stock"] and deal.turn == saved["turn"]
    assert [e.card.id for e in deal.pile_log] == [e["card"] for e in saved["pile_log"]]
    assert m.results[0].to_dict() == data["results"][0]
    assert log_lines(m.entries_since(m.event_base), "en")[0].startswith("Deal 2: ")
    again = Match.from_json(m.to_json())
    assert again == m
    play(m, 3, 400)  # and the match plays on
    m.check_invariants()


# ---- timeouts, leaving, results --------------------------------------------------------------


def test_a_timeout_is_an_event_and_the_moves_are_marked_auto() -> None:
    m = Match.create(["a", "b", "c"], "points", seed=5)
    deal = m.deal
    assert deal is not None
    seat = deal.turn
    mark = m.event_count
    drawn = Action.draw_stock(seat)
    m.apply_timeout(seat, [drawn], 1)
    m.apply(Action.discard(seat, deal.hands[seat][-1].id))
    assert m.events_since(mark)[:2] == [
        TimedOut(seat, 1, False),
        Drew(
            seat,
            deal.card(
                deal.events[-2].card.id  # type: ignore[union-attr]
            ),
            auto=True,
        ),
    ]
    assert log_lines(m.entries_since(mark), "en") == [
        f"{m.players[seat].name} discarded {deal.events[-1].card.face.pretty}",  # type: ignore[union-attr]
    ]
    nxt = deal.turn
    m.apply_timeout(nxt, [Action.drop(nxt)], 3)
    assert log_lines(m.entries_since(m.event_count - 2), "en") == [
        f"⏰ {m.players[nxt].name} was dropped after 3 timeouts in a row"
    ]


def test_timeouts_and_auto_moves_are_in_the_hand_history() -> None:
    m = Match.create(["a", "b"], "points", seed=8)
    while m.phase is MatchPhase.PLAYING:
        deal = m.deal
        assert deal is not None
        seat = deal.turn
        m.apply_timeout(seat, [Action.draw_stock(seat)], 1)
        legal = [a for a in m.legal_actions(seat) if a.kind is ActionKind.DECLARE]
        legal = legal or [a for a in m.legal_actions(seat) if a.kind is ActionKind.DISCARD]
        m.apply(legal[-1], auto=True)
    finished = m.finished_deal()
    assert finished is not None
    h = json.loads(json.dumps(finished.history))
    assert h["format_version"] == 3 and h == m.hand_history(1)
    kinds = [e["action"] for e in h["events"]]
    assert kinds[0] == "timeout" and kinds[1] == "draw_stock"
    assert [e["n"] for e in h["events"]] == list(range(len(kinds)))
    assert h["events"][0] == {"n": 0, "seat": h["events"][1]["seat"], "action": "timeout",
                              "count": 1, "dropped": False}  # fmt: skip
    assert all(e.get("auto") is True for e in h["events"] if e["action"] != "timeout"
               and e["seat"] is not None and e["action"] != "deal_over")  # fmt: skip


def test_leaving_between_deals_is_a_table_event() -> None:
    m = Match.create(["a", "b", "c"], "pool101", seed=2)
    while m.phase is MatchPhase.PLAYING:
        assert m.deal is not None
        m.apply(Action.drop(m.deal.turn))
    assert m.phase is MatchPhase.BETWEEN_DEALS
    mark = m.event_count
    m.apply(Action.leave(0))
    assert m.events_since(mark) == [Left(0)] and log_lines(m.entries_since(mark), "en") == [
        "a left the table"
    ]
    assert Match.from_json(m.to_json()).events_since(mark) == [Left(0)]
    mark = m.event_count
    m.start_next_deal()
    assert log_lines(m.entries_since(mark), "en") == [f"Deal 2: {m.players[m.dealer].name} deals"]


def test_views_carry_enums() -> None:
    m = Match.create(["a", "b"], "points", seed=1)
    obs, view = m.observation(0), m.public_view()
    assert obs.match_phase is MatchPhase.PLAYING and obs.phase is Phase.DRAW
    assert obs.score_kind is ScoreKind.NET and view.phase is Phase.DRAW
    assert view.match_phase == "playing"  # StrEnums still equal their strings
    assert all(s.status is SeatState.ACTIVE for s in view.seats)


def test_outcome_of_each_basis() -> None:
    def charge(seat: int, basis: Basis) -> Charge:
        return Charge(seat, basis, 20, Fraction(1), 1, Fraction(20))

    bases = [Basis.DEADWOOD, Basis.FIRST_DROP, Basis.HAND_RUMMY_DROPPED, Basis.MIDDLE_DROP,
             Basis.WRONG_SHOW, Basis.WRONG_SHOW_DROP]  # fmt: skip
    charges = tuple(charge(i + 1, b) for i, b in enumerate(bases))
    deltas = {s: Fraction(0) for s in range(7)}
    r = DealResult(1, 0, EndReason.DECLARED, 0, charges, deltas)
    assert [r.outcome(s) for s in range(7)] == [
        Outcome.WON, Outcome.LOST, Outcome.DROPPED_FIRST, Outcome.DROPPED_FIRST,
        Outcome.DROPPED_MIDDLE, Outcome.INVALID_DECLARATION, Outcome.INVALID_DECLARATION,
    ]  # fmt: skip
    void = DealResult(1, 0, EndReason.VOID, None, (), deltas)
    assert void.outcome(3) is Outcome.VOID
    assert DealResult.from_row(json.loads(json.dumps(r.to_row()))) == r


def test_rules_carry_their_description_and_compact_state() -> None:
    assert get_profile("pool101").description == "out at 101"
    assert all(r.description for r in PROFILES.values())
    changed = get_profile("deals").with_options(num_deals=3, no_reshuffle=True)
    state = changed.to_state()
    assert state == {"profile": "deals", "num_deals": 3, "no_reshuffle": True}
    assert type(changed).from_state(state) == changed
    assert type(changed).from_state(changed.to_dict()) == changed


# ---- the engine's import graph -----------------------------------------------------------------


def test_engine_modules_import_each_other_without_cycles() -> None:
    """Every import inside the engine, at any depth of a module (functions too), forms a
    graph without cycles: no module needs another that needs it back."""
    graph: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                deps.add(node.module.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.engine."):
                deps.add((node.module or "").split(".")[2])
        graph[path.stem] = deps
    done: set[str] = set()

    def visit(name: str, stack: tuple[str, ...]) -> None:
        assert name not in stack, " -> ".join((*stack, name))
        if name in done:
            return
        for dep in graph.get(name, ()):
            visit(dep, (*stack, name))
        done.add(name)

    for name in graph:
        visit(name, ())
