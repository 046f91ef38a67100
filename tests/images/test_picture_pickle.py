"""A picture crosses to the drawing process pickled: it must arrive as the same drawing."""

from __future__ import annotations

import pickle
from dataclasses import replace

from bot.engine.cards import Card, Face
from bot.images import draw, hand_picture, results_picture, samples, table_picture
from bot.words.pictures import captions


def test_a_picture_arrives_whole_but_for_the_sections_the_painter_never_reads() -> None:
    words = captions("hi")
    pictures = [
        *(hand_picture(obs, words=words) for obs in samples.hand_states().values()),
        table_picture(samples.table_view(6), words=words),
        results_picture(samples.finished_history(), words=words),
    ]
    for picture in pictures:
        back = pickle.loads(pickle.dumps(picture, pickle.HIGHEST_PROTOCOL))
        assert back.name == picture.name
        assert back.scene == replace(picture.scene, sections=())
        assert draw(back) == draw(picture)
    assert any(p.scene.sections for p in pictures)  # the case where something is left


def test_cards_and_faces_pickle_as_their_values() -> None:
    card = Card(41, Face(12, 2))
    back = pickle.loads(pickle.dumps(card))
    assert back == card and back.face == Face(12, 2) and back.code == card.code
    assert pickle.loads(pickle.dumps(Face(0, 4))).is_joker == Face(0, 4).is_joker
