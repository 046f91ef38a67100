"""The hand picture at each hint level: the header and tags say only what the level allows,
the cards are the same, and with hints off nothing is evaluated at all."""

from __future__ import annotations

import pytest

from bot.engine.observation import Observation
from bot.images import hand_order, layout, samples
from bot.images.layout import hand_scene
from bot.words.pictures import captions

EN = captions("en")  # the pictures' English words, from the catalogue


@pytest.fixture(scope="module")
def drawn() -> Observation:
    return samples.hand_states()["drawn"]


def texts(scene: layout.Scene) -> list[str]:
    return [label.text for label in scene.labels]


def test_full_hints_head_with_the_deadwood_and_mark_the_suggested_discard(
    drawn: Observation,
) -> None:
    scene = hand_scene(drawn, None, False, "full", words=EN)
    assert texts(scene)[0].startswith("Best discard leaves deadwood")
    assert sum(1 for c in scene.cards if c.suggested) == 1


def test_groups_keep_the_arrangement_without_numbers_or_a_suggestion(drawn: Observation) -> None:
    full = hand_scene(drawn, None, False, "full", words=EN)
    scene = hand_scene(drawn, None, False, "groups", words=EN)
    assert texts(scene)[0] == "Your groups"
    assert not any("deadwood" in t.lower() or "discard?" in t for t in texts(scene))
    assert not any(c.suggested for c in scene.cards)
    # The same groups; the unmatched cards in suit order (the last place names no card).
    assert [s.label for s in scene.sections] == [s.label for s in full.sections]
    assert sorted(c.card_id for c in scene.cards) == sorted(c.card_id for c in full.cards)
    loose = next(s for s in scene.sections if s.kind == "unmatched")
    assert list(loose.cards) == sorted(loose.cards, key=layout._suit_key)


def test_off_sorts_by_suit_and_evaluates_nothing(
    drawn,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*_a: object, **_k: object) -> None:
        raise AssertionError("evaluated a hand with hints off")

    monkeypatch.setattr(layout, "evaluate_view", refuse)
    monkeypatch.setattr(layout, "evaluate_drawn", refuse)
    monkeypatch.setattr(layout, "evaluate_hand", refuse)
    scene = hand_scene(drawn, None, False, "off", words=EN)
    assert texts(scene)[0] == "Your cards by suit"
    assert {s.kind for s in scene.sections} == {"suit"}
    assert not any(c.suggested for c in scene.cards)
    assert any(c.drawn for c in scene.cards)  # a fact, not advice: the new card stays marked
    assert hand_order(drawn, None, False, "off") == [c for s in scene.sections for c in s.cards]
