"""The renderer's computed layout: what is drawn where, checked without looking at pixels."""

from __future__ import annotations

import copy
import dataclasses
import inspect
from fractions import Fraction
from typing import Any

import pytest

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.evaluate import DrawnEvaluation
from bot.engine.match import Match
from bot.engine.observation import Observation, PublicView
from bot.images import layout, samples
from bot.images.captions import Captions
from bot.images.layout import (
    CARD_SIZES,
    GROUP_GAP,
    MAX_WIDTH,
    MIN_LABEL_PX,
    MIN_RANK_PX,
    PHONE_WIDTH,
    Scene,
    evaluate_view,
    hand_order,
    hand_scene,
    results_scene,
    table_scene,
)
from bot.words.pictures import captions

EN = captions("en")  # the pictures' English words, from the catalogue

CARD_W = CARD_SIZES["large"][0]


@pytest.fixture(scope="module")
def states() -> dict[str, Observation]:
    return samples.hand_states()


def assert_phone_sized(scene: Scene) -> None:
    """Scaled to a phone's width, every face-up card's rank is at least 12 px tall and every
    label's font at least 9 px (the numbers the layout computes, not pixels)."""
    scale = PHONE_WIDTH / scene.width
    for pc in scene.cards:
        if pc.face is None:
            continue
        rank = 0 if pc.face.is_joker else pc.face.rank
        assert layout.rank_glyph_height(rank, pc.size) * scale >= MIN_RANK_PX, (pc, scene.width)
    assert scene.labels
    for lb in scene.labels:
        assert lb.size * scale >= MIN_LABEL_PX, (lb, scene.width)


def assert_labels_fit(scene: Scene) -> None:
    """Every label has its room, its measured text fits that room (so the painter never
    shortens it), and it lies inside the picture."""
    for lb in scene.labels:
        assert lb.max_width is not None, lb
        width = layout.text_width(lb.text, lb.size)
        assert width <= lb.max_width, (lb, width)
        assert not lb.text.endswith("..."), lb
        left = {"l": lb.x, "m": lb.x - width / 2, "r": lb.x - width}[lb.anchor[0]]
        assert left >= 0 and left + width <= scene.width, (lb, width, scene.width)


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
    # Read left to right, top to bottom; groups visibly apart, the index of every covered card
    # showing, cards inside the canvas.
    for a, b in zip(scene.cards, scene.cards[1:], strict=False):
        if b.row == a.row:
            assert b.x > a.x
            if a.group != b.group:
                assert b.x >= a.x + a.width + GROUP_GAP
            else:
                assert b.x - a.x >= layout.min_hand_step("large")
        else:
            assert b.row == a.row + 1
            assert b.y > a.y + a.height  # the next row starts below this one
    for pc in scene.cards:
        assert pc.x >= 0 and pc.x + pc.width <= scene.width
        assert pc.y >= 0 and pc.y + pc.height <= scene.height
    assert scene.width <= layout.HAND_MAX_WIDTH
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
        check_hand_scene(obs, hand_scene(obs, sort_by_suit=sort_by_suit, words=EN), sort_by_suit)


def test_hand_layout_after_many_draws() -> None:
    obs_list = discard_states()
    assert any(o.taken is not None for o in obs_list)
    assert any(o.taken is None for o in obs_list)
    for obs in obs_list:
        for sort_by_suit in (False, True):
            check_hand_scene(
                obs, hand_scene(obs, sort_by_suit=sort_by_suit, words=EN), sort_by_suit
            )


def test_arrangement_sections_follow_the_engine(states: dict[str, Observation]) -> None:
    obs = states["drawn"]
    ev = evaluate_view(obs)
    assert isinstance(ev, DrawnEvaluation)
    sections = layout.hand_sections(obs, ev, words=EN)
    groups = ev.best.groups
    assert [s.cards for s in sections[: len(groups)]] == [g.cards for g in groups]
    kind_words = {"pure": "Pure run", "impure": "Run", "set": "Set"}
    assert [s.label for s in sections[: len(groups)]] == [kind_words[g.kind.value] for g in groups]
    assert [s.key for s in sections[: len(groups)]] == [g.kind.value for g in groups]
    # Without captions the sections are only keyed (the text embed words them itself).
    assert [s.label for s in layout.hand_sections(obs, ev)] == [""] * len(sections)
    # The unmatched section ends with the suggested discard, as in the text embed.
    rest = sections[len(groups) :]
    assert len(rest) == 1 and rest[0].label == "Unmatched"
    assert rest[0].cards == (*ev.best.leftover, ev.best_discard)
    scene = hand_scene(obs, ev, words=EN)
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
        scene = hand_scene(states[name], words=EN)
        assert not any(pc.drawn or pc.taken for pc in scene.cards)
    drawn = hand_scene(states["drawn"], words=EN)
    new = [c.id for c in states["drawn"].hand if c.id not in before]
    assert [pc.card_id for pc in drawn.cards if pc.drawn] == new
    assert not any(pc.taken for pc in drawn.cards)
    raised = next(pc for pc in drawn.cards if pc.drawn)
    assert all(raised.y < pc.y for pc in drawn.cards if not pc.drawn and pc.row == raised.row)

    taken_obs = states["taken"]
    assert taken_obs.taken is not None
    taken = hand_scene(taken_obs, words=EN)
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
    scene = hand_scene(empty, words=EN)
    assert not scene.cards and scene.labels


# ---- table -----------------------------------------------------------------------------------


def test_table_takes_only_a_public_view() -> None:
    params = inspect.signature(table_scene).parameters
    assert list(params) == ["view", "nothing_wild", "words"]
    assert params["view"].annotation in ("PublicView", PublicView)
    assert params["words"].annotation in ("Captions", Captions)  # words, never game objects


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_table_layout(seats: int) -> None:
    view = samples.table_view(seats, seed=seats)
    scene = table_scene(view, words=EN)
    assert scene.width <= MAX_WIDTH
    # Face up: the indicator, then the last throws of the pile, oldest first (public cards
    # only: the PublicView holds no other).
    thrown = [e for e in view.pile_history if not e.recycled][-layout.PILE_SHOWN :]
    assert len(thrown) >= 2
    faces = [pc.face for pc in scene.cards if pc.face is not None]
    assert faces == [c.face for c in (view.indicator,) if c is not None] + [
        e.card.face for e in thrown
    ]
    assert view.top_discard is not None and view.top_discard.face in faces
    # The top of the pile is framed, a card taken back says by whom.
    framed = [b for b in scene.boxes if b.style == "pile_top"]
    assert len(framed) == 1
    top = next(pc for pc in scene.cards if pc.card_id == view.top_discard.id)
    assert framed[0].x0 < top.x < framed[0].x1
    texts = [lb.text for lb in scene.labels]
    for e in thrown:
        if e.taken_by is not None:
            taker = layout.plain_name(view.seats[e.taken_by].name, "").split(" ")[0]
            assert taker in texts and "taken by" in texts
    # Names, the dealer button, the turn plate and line, the wild rank; no stock count.
    for s in view.seats:
        assert layout.plain_name(s.name, "") in texts
    assert len([d for d in scene.discs if d.style == "dealer"]) == 1
    assert len([b for b in scene.boxes if b.style == "plate_turn"]) == (view.turn is not None)
    assert view.turn is not None
    assert any(t.startswith(f"{view.seats[view.turn].name}'s turn") for t in texts)
    assert not any(t.startswith("Stock") or " cards" in t for t in texts)
    note = layout.wild_note(view.wild_rank, view.indicator, False, EN)
    assert note in texts or note == " ".join(t for t in texts if t.startswith(("Wild", "+ ")))
    for pc in scene.cards:
        assert pc.x >= 0 and pc.x + pc.width <= scene.width
        assert pc.y >= 0 and pc.y + pc.height <= scene.height
    assert_phone_sized(scene)
    assert_labels_fit(scene)


def test_table_shows_taken_cards_and_the_opening_discard() -> None:
    """A match where someone took from the pile: that card is shown with its taker, and the
    live top of the pile is the last card nobody took."""
    for seed in range(40):
        view = samples.table_view(4, seed=seed, turns=4)
        thrown = [e for e in view.pile_history if not e.recycled][-layout.PILE_SHOWN :]
        if any(e.taken_by is not None for e in thrown):
            break
    else:
        pytest.fail("no sample table with a card taken from the pile")
    scene = table_scene(view, words=EN)
    taken = [e for e in thrown if e.taken_by is not None]
    assert len([b for b in scene.boxes if b.style == "pile_taken"]) == len(taken)
    assert view.top_discard is not None
    assert view.top_discard.id == [e for e in thrown if e.taken_by is None][-1].card.id


def test_a_draw_from_the_stock_leaves_the_table_picture_as_it_was() -> None:
    """What a draw from the stock changes (the stock's size, a hand of 14, the phase) is the
    embed's text; the picture changes when a card is thrown or taken and the turn passes."""
    m = samples.new_match(3, 21, profile="points")
    assert m.deal is not None
    seat = m.deal.turn
    assert seat is not None
    before = table_scene(m.public_view(), words=EN)
    m.apply(Action.draw_stock(seat))
    drawn = table_scene(m.public_view(), words=EN)
    assert drawn == before
    m.apply(Action.discard(seat, m.deal.hands[seat][0].id))
    assert table_scene(m.public_view(), words=EN) != drawn
    other = m.deal.turn
    assert other is not None and other != seat
    m.apply(Action.take_discard(other))
    assert table_scene(m.public_view(), words=EN) != drawn  # the pile shows who took it


def test_table_marks_dropped_seats_without_cards() -> None:
    m = Match.create(samples.NAMES[:3], "points", seed=1)
    assert m.deal is not None
    seat = m.deal.turn
    assert seat is not None
    m.apply(Action.drop(seat))
    view = m.public_view()
    scene = table_scene(view, words=EN)
    assert seat not in {f.seat for f in scene.fans}
    assert "dropped" in {lb.text for lb in scene.labels}


# ---- results -------------------------------------------------------------------------------


def test_results_layout() -> None:
    history = samples.finished_history()
    scene = results_scene(history, words=EN)
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
    assert layout.wild_note(None, None, False, EN) == "Nothing wild"
    assert layout.wild_note(8, Face(7, 1), False, EN) == "Wild: 8s + jokers"
    assert layout.plain_name("आशा 🎲", "x") == "आशा"  # the pictures draw Devanagari


# ---- phones ---------------------------------------------------------------------------------


def with_hand(base: Observation, codes: str, wild_rank: int | None = None) -> Observation:
    """`base` (a seat on turn) holding exactly these cards; with 14 the last one is the card
    just drawn, as the engine appends it."""
    cards = tuple(Card(900 + i, Face.parse(code)) for i, code in enumerate(codes.split()))
    drawn = cards[-1] if len(cards) == 14 else None
    return dataclasses.replace(
        base, hand=cards, wild_rank=wild_rank, taken=None, drawn=drawn, legal_actions=()
    )


# 13 and 14 cards: no meld at all, all in groups, and as many groups as a hand can hold.
PHONE_HANDS = {
    "13 no melds": "2S 5S 9S QS 3H 7H JH 4C 8C KC 6D 10D AD",
    "14 no melds": "2S 5S 9S QS 3H 7H JH 4C 8C KC 6D 10D AD 9D",
    "13 four melds": "3S 4S 5S 7H 8H 9H QC QD QH KS KH KD 2C",
    "14 four melds": "3S 4S 5S 7H 8H 9H QC QD QH KS KH KD 2C 6D",
    "14 long run": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 4H",
    "14 many suits": "AS 4S 8S 2H 6H 10H 3C 7C JC 5D 9D KD QH 10C",
}


@pytest.mark.parametrize("name", sorted(PHONE_HANDS))
@pytest.mark.parametrize("sort_by_suit", [False, True])
def test_hand_is_readable_on_a_phone(
    states: dict[str, Observation], name: str, sort_by_suit: bool
) -> None:
    codes = PHONE_HANDS[name]
    base = states["drawn"] if len(codes.split()) == 14 else states["to_draw"]
    obs = with_hand(base, codes)
    scene = hand_scene(obs, sort_by_suit=sort_by_suit, words=EN)
    assert len(scene.cards) == len(codes.split())
    check_hand_scene(obs, scene, sort_by_suit)
    assert_phone_sized(scene)
    assert_labels_fit(scene)
    assert scene.width <= layout.HAND_MAX_WIDTH
    rows = 1 + max(pc.row for pc in scene.cards)
    assert 2 <= rows <= 3  # 13 or 14 cards never fit one phone-sized row
    if not sort_by_suit and "melds" in name and "no" not in name:
        assert len(scene.sections) == 5  # four melds and the unmatched cards
    if len(codes.split()) == 14 and not sort_by_suit:
        marked = [lb.text for lb in scene.labels if lb.style.startswith("tag_")]
        assert any("new" in t for t in marked) and any("discard?" in t for t in marked)


def test_every_sample_hand_is_readable_on_a_phone(states: dict[str, Observation]) -> None:
    obs_list = [*states.values(), *discard_states(6)]
    for obs in obs_list:
        for sort_by_suit in (False, True):
            scene = hand_scene(obs, sort_by_suit=sort_by_suit, words=EN)
            assert_phone_sized(scene)
            assert_labels_fit(scene)


def test_wild_marks_and_the_wild_note_survive_the_rows(states: dict[str, Observation]) -> None:
    obs = with_hand(states["drawn"], "3S 4S 6S 7H 8H 9H QC QD QH KS KH KD 2C 6D", wild_rank=6)
    scene = hand_scene(obs, words=EN)
    wild = {pc.face.code for pc in scene.cards if pc.wild and pc.face is not None}
    assert wild == {"6S", "6D"}
    assert "Wild: 6s + jokers" in {lb.text for lb in scene.labels}


def test_tags_never_cover_each_other(states: dict[str, Observation]) -> None:
    for obs in [states["drawn"], states["taken"], *discard_states(8)]:
        scene = hand_scene(obs, words=EN)
        tags = [lb for lb in scene.labels if lb.style.startswith("tag_")]
        for a in tags:
            for b in tags:
                if a is b or a.y != b.y:
                    continue
                left, right = sorted((a, b), key=lambda lb: lb.x)
                assert left.x + layout.text_width(left.text, left.size) <= right.x


def test_the_row_plan_keeps_groups_whole_when_it_can() -> None:
    labels = (60,) * 5
    rows, step = layout.plan_rows((3, 3, 3, 4, 1), labels, 564, 84, 52)
    # Three groups of three do not fit one row at a step that shows the index: 2 + 3.
    assert [[p.section for p in r] for r in rows] == [[0, 1], [2, 3, 4]]
    assert all(p.start == 0 for r in rows for p in r)  # no group split across rows
    assert step == 52
    # One group longer than a row: it continues on the next, in order.
    rows, _ = layout.plan_rows((14,), (80,), 564, 84, 52)
    assert [(p.start, p.count) for r in rows for p in r] == [(0, 7), (7, 7)]


# ---- the card faces ---------------------------------------------------------------------------

MIN_PIP_GAP = 2.0  # px between a pip and an index (or another pip: 1 px), at every size


@pytest.mark.parametrize("size", ["large", "small"])
def test_pips_never_touch_the_index(size: str) -> None:
    w, h = CARD_SIZES[size]
    for rank in range(2, 11):
        index = layout.index_geometry(rank, size).box
        corners = (index, index.rotated(w, h))
        pips = [layout.pip_rect(cx, cy, ph) for cx, cy, ph, _ in layout.pip_boxes(rank, size)]
        assert len(pips) == rank
        for pip in pips:
            assert pip.x0 > 0 and pip.x1 < w and pip.y0 > 0 and pip.y1 < h
            for corner in corners:
                assert corner.gap(pip) >= MIN_PIP_GAP, (rank, size, corner, pip)
        for i, a in enumerate(pips):
            for b in pips[i + 1 :]:
                assert a.gap(b) >= 1.0, (rank, size, a, b)


@pytest.mark.parametrize("size", ["large", "small"])
def test_court_panel_and_marks_clear_the_index(size: str) -> None:
    w, h = CARD_SIZES[size]
    panel = layout.court_panel(size)
    for rank in (11, 12, 13):
        index = layout.index_geometry(rank, size).box
        assert index.gap(panel) >= MIN_PIP_GAP
        assert index.rotated(w, h).gap(panel) >= MIN_PIP_GAP
    # The marks sit under the index, inside the strip a covered card keeps.
    star, stop = layout.badge_box(size, 0), layout.badge_box(size, 1)
    assert star.gap(stop) > 0 and stop.y1 < h
    for rank in range(0, 14):
        assert layout.index_geometry(rank, size).box.gap(star) > 0
    assert star.x1 < layout.min_hand_step(size)


def test_the_index_is_phone_sized_and_the_ten_condensed() -> None:
    ten, seven = layout.index_geometry(10, "large"), layout.index_geometry(7, "large")
    assert ten.cap_height >= 20 and seven.cap_height >= 20
    assert ten.rank_width < layout.text_width("10", round(layout.RANK_EM * CARD_W)) - 2
    assert ten.box.x1 < layout.min_hand_step("large")


# ---- results: no label cut ------------------------------------------------------------------


def _one_card_unmatched(history: dict[str, Any]) -> dict[str, Any]:
    """The sample history with a hand whose unmatched group is a single card (the case that
    used to print "Unmatch...")."""
    out = copy.deepcopy(history)
    for fin in out["final"].values():
        arr = fin.get("arrangement")
        if fin.get("status") == "active" and arr and len(arr["leftover"]) > 1:
            arr["groups"] = [
                {"kind": "set", "cards": arr["leftover"][i : i + 3]}
                for i in range(0, len(arr["leftover"]) - 1, 3)
            ]
            arr["leftover"] = arr["leftover"][-1:]
            return out
    raise AssertionError("no hand with unmatched cards")


def test_results_labels_fit_their_boxes() -> None:
    history = samples.finished_history()
    for h in (history, _one_card_unmatched(history), samples.finished_history(6, 3)):
        scene = results_scene(h, words=EN)
        assert_labels_fit(scene)
        assert "Unmatched" in {lb.text for lb in scene.labels}
        for pc in scene.cards:
            assert pc.x + pc.width <= scene.width
    long = copy.deepcopy(history)
    long["seats"][0]["name"] = "Devendra Kumar Srivastava"
    scene = results_scene(long, words=EN)
    assert_labels_fit(scene)
    assert "Devendra Kumar Srivastava" in {lb.text for lb in scene.labels}
