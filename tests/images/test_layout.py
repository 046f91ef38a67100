"""The renderer's computed layout: what is drawn where, checked without looking at pixels."""

from __future__ import annotations

import inspect
from fractions import Fraction

import pytest

from bot.engine.actions import Action, ActionKind
from bot.engine.evaluate import DrawnEvaluation
from bot.engine.match import Match
from bot.engine.observation import Observation, PublicView
from bot.images import layout, samples
from bot.images.layout import (
    CARD_SIZES,
    GROUP_GAP,
    MAX_WIDTH,
    Scene,
    evaluate_view,
    hand_order,
    hand_scene,
    results_scene,
    table_scene,
)

CARD_W = CARD_SIZES["large"][0]


@pytest.fixture(scope="module")
def states() -> dict[str, Observation]:
    return samples.hand_states()


def discard_states(count: int = 12) -> list[Observation]:
    """Seat 0 right after drawing, in several matches (stock draws and pile takes)."""
    out = []
    for seed in range(count):
        m = samples.new_match(2 + seed % 5, 100 + seed)
        samples.play_until(m, lambda mm: mm.deal is not None and mm.deal.turns_taken[0] >= 2)
        samples.play_until(m, lambda mm: mm.deal is not None and mm.deal.turn == 0)
        deal = m.deal
        if deal is None or deal.over:
            continue
        kinds = {a.kind for a in m.legal_actions(0)}
        take = seed % 2 == 1 and ActionKind.TAKE_DISCARD in kinds
        m.apply(Action.take_discard(0) if take else Action.draw_stock(0))
        out.append(m.observation(0))
    return out


def check_hand_scene(obs: Observation, scene: Scene, sort_by_suit: bool) -> None:
    ids = [pc.card_id for pc in scene.cards if pc.card_id is not None]
    assert len(ids) == len(scene.cards)
    # Every card of the hand exactly once, in the shared order.
    assert sorted(ids) == sorted(c.id for c in obs.hand)
    assert ids == [c.id for c in hand_order(obs, sort_by_suit=sort_by_suit)]
    assert [c.id for s in scene.sections for c in s.cards] == ids
    # Left to right; groups visibly apart, cards inside the canvas, canvas Discord-sized.
    for a, b in zip(scene.cards, scene.cards[1:], strict=False):
        assert b.x > a.x
        if a.group != b.group:
            assert b.x >= a.x + a.width + GROUP_GAP
        else:
            assert b.x - a.x >= 16  # the corner index of every covered card stays visible
    for pc in scene.cards:
        assert pc.x >= 0 and pc.x + pc.width <= scene.width
        assert pc.y >= 0 and pc.y + pc.height <= scene.height
    assert scene.width <= MAX_WIDTH
    # One label per section, above its first card.
    labels = {lb.text for lb in scene.labels}
    for sec in scene.sections:
        assert sec.label in labels
    # Marks exactly where they belong.
    for pc in scene.cards:
        assert pc.face is not None
        assert pc.wild == obs.rules.is_wild(pc.face, obs.wild_rank)
        assert pc.taken == (obs.taken is not None and pc.card_id == obs.taken.id)


@pytest.mark.parametrize("sort_by_suit", [False, True])
def test_hand_layout_in_every_state(states: dict[str, Observation], sort_by_suit: bool) -> None:
    assert {"waiting", "to_draw", "drawn", "taken"} <= set(states)
    for obs in states.values():
        check_hand_scene(obs, hand_scene(obs, sort_by_suit=sort_by_suit), sort_by_suit)


def test_hand_layout_after_many_draws() -> None:
    obs_list = discard_states()
    assert any(o.taken is not None for o in obs_list)
    assert any(o.taken is None for o in obs_list)
    for obs in obs_list:
        for sort_by_suit in (False, True):
            check_hand_scene(obs, hand_scene(obs, sort_by_suit=sort_by_suit), sort_by_suit)


def test_arrangement_sections_follow_the_engine(states: dict[str, Observation]) -> None:
    obs = states["drawn"]
    ev = evaluate_view(obs)
    assert isinstance(ev, DrawnEvaluation)
    sections = layout.hand_sections(obs, ev)
    groups = ev.best.groups
    assert [s.cards for s in sections[: len(groups)]] == [g.cards for g in groups]
    assert [s.label for s in sections[: len(groups)]] == [
        layout.KIND_LABEL[g.kind.value] for g in groups
    ]
    # The unmatched section ends with the suggested discard, as in the text embed.
    rest = sections[len(groups) :]
    assert len(rest) == 1 and rest[0].label == "Unmatched"
    assert rest[0].cards == (*ev.best.leftover, ev.best_discard)
    scene = hand_scene(obs, ev)
    suggested = [pc for pc in scene.cards if pc.suggested]
    assert [pc.card_id for pc in suggested] == [ev.best_discard.id]
    assert any(f"deadwood {ev.best.deadwood}" in lb.text for lb in scene.labels)


def test_suit_order_alternates_colours_jokers_last(states: dict[str, Observation]) -> None:
    order = hand_order(states["drawn"], sort_by_suit=True)
    keys = [(c.face.is_joker, layout.SUIT_ORDER.get(c.suit, 9), c.rank) for c in order]
    assert keys == sorted(keys)


def test_drawn_and_taken_marks(states: dict[str, Observation]) -> None:
    before = {c.id for c in states["to_draw"].hand}
    for name in ("waiting", "to_draw"):
        scene = hand_scene(states[name])
        assert not any(pc.drawn or pc.taken for pc in scene.cards)
    drawn = hand_scene(states["drawn"])
    new = [c.id for c in states["drawn"].hand if c.id not in before]
    assert [pc.card_id for pc in drawn.cards if pc.drawn] == new
    assert not any(pc.taken for pc in drawn.cards)
    raised = next(pc for pc in drawn.cards if pc.drawn)
    assert all(raised.y < pc.y for pc in drawn.cards if not pc.drawn)

    taken_obs = states["taken"]
    assert taken_obs.taken is not None
    taken = hand_scene(taken_obs)
    marked = [pc for pc in taken.cards if pc.taken]
    assert [pc.card_id for pc in marked] == [taken_obs.taken.id]
    assert marked[0].drawn  # also the card that arrived this turn
    assert "can't discard" in {lb.text for lb in taken.labels}


def test_menu_order_is_hand_order_without_the_taken_card(states: dict[str, Observation]) -> None:
    """The discard menu lists exactly the legal discards, in image order."""
    for name in ("drawn", "taken"):
        obs = states[name]
        for sort_by_suit in (False, True):
            order = hand_order(obs, sort_by_suit=sort_by_suit)
            legal = {a.card for a in obs.legal_actions if a.kind is ActionKind.DISCARD}
            menu = [c.id for c in order if c.id in legal]
            taken = set() if obs.taken is None else {obs.taken.id}
            assert menu == [c.id for c in order if c.id not in taken]


def test_empty_hand_scene() -> None:
    m = samples.new_match(2, 5)
    obs = m.observation(0)
    empty = Observation(**{f: getattr(obs, f) for f in obs.__slots__ if f != "hand"}, hand=())
    scene = hand_scene(empty)
    assert not scene.cards and scene.labels


# ---- table -----------------------------------------------------------------------------------


def test_table_takes_only_a_public_view() -> None:
    params = inspect.signature(table_scene).parameters
    assert list(params) == ["view", "nothing_wild"]
    assert params["view"].annotation in ("PublicView", PublicView)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_table_layout(seats: int) -> None:
    view = samples.table_view(seats, seed=seats)
    scene = table_scene(view)
    assert scene.width <= MAX_WIDTH
    # Only the top discard and the indicator are face up.
    faces = [pc.face for pc in scene.cards if pc.face is not None]
    expected = [c.face for c in (view.top_discard, view.indicator) if c is not None]
    assert faces == expected
    # A fan of backs per seat in play, as many as the seat holds.
    fans = {f.seat: f.count for f in scene.fans}
    assert fans == {s.seat: s.cards for s in view.seats if s.status == "active" and s.cards}
    # Names, the dealer button, the turn plate, the stock count, the wild rank.
    texts = {lb.text for lb in scene.labels}
    for s in view.seats:
        assert layout.plain_name(s.name, "") in texts
    assert len([d for d in scene.discs if d.style == "dealer"]) == 1
    assert len([b for b in scene.boxes if b.style == "plate_turn"]) == (view.turn is not None)
    assert f"Stock {view.stock_size}" in texts
    assert layout.wild_note(view.wild_rank, view.indicator, False) in texts
    for f in scene.fans:
        assert f.x >= 0 and f.x + f.width <= scene.width and f.y >= 0


def test_table_marks_dropped_seats_without_cards() -> None:
    m = Match.create(samples.NAMES[:3], "points", seed=1)
    assert m.deal is not None
    seat = m.deal.turn
    assert seat is not None
    m.apply(Action.drop(seat))
    view = m.public_view()
    scene = table_scene(view)
    assert seat not in {f.seat for f in scene.fans}
    assert "dropped" in {lb.text for lb in scene.labels}


# ---- results -------------------------------------------------------------------------------


def test_results_layout() -> None:
    history = samples.finished_history()
    scene = results_scene(history)
    assert scene.width <= MAX_WIDTH
    winner = history["end"]["winner"]
    rows = list(history["final"].items())
    for row, (seat, fin) in enumerate(rows):
        faces = [pc.face.code for pc in scene.cards if pc.group == row and pc.face is not None]
        if fin["status"] == "active" and fin.get("arrangement"):
            arr = fin["arrangement"]
            assert faces == [c for g in arr["groups"] for c in g["cards"]] + arr["leftover"]
        else:
            assert faces == []  # a dropped hand is never shown
            assert int(seat) in {f.seat for f in scene.fans}
    assert len([b for b in scene.boxes if b.style == "row_win"]) == 1
    assert len([d for d in scene.discs if d.style == "winner"]) == 1
    texts = {lb.text for lb in scene.labels}
    for charge in history["charges"]:
        assert f"pays {layout.amount_text(charge['amount'])}" in texts
    assert winner is not None


def test_text_helpers() -> None:
    assert layout.amount_text(Fraction(15, 2)) == "7.5"
    assert layout.amount_text("-1/3") == "-1/3"
    assert layout.signed_text(3) == "+3"
    assert layout.plain_name("Zoë 🎲 ", "x") == "Zoe"
    assert layout.plain_name("🎲", "Seat 2") == "Seat 2"
    assert layout.wild_note(None, None, False) == "Nothing wild"
