"""Issue 39 item 17: every picture a player is sent is readable on a phone, and an AI seat keeps
its robot mark in it.

Discord shows a picture about `PHONE_WIDTH` (360) px wide on a phone, whatever its own width.
Scaled to that width, every face-up card's rank must stand at least `MIN_RANK_PX` (12) px tall
and every text (a label, the word on a disc) be drawn at least `MIN_LABEL_PX` (9) px: the hand
picture's bar (`test_layout.assert_phone_sized`), measured on the numbers the layout computes.
The results picture was 890-940 px wide (its names about 5 px on a phone).

Every kind of picture is measured: each public `*_picture` function of `bot.images` has its
cases here (a new kind fails `test_every_kind_of_picture_is_measured` until it has some), in
English and Hindi, two to six seats, long names and AI seats.
"""

from __future__ import annotations

import copy
import functools
import importlib
import pkgutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import bot.images
from bot.engine.evaluate import evaluate_hand
from bot.engine.match import Match
from bot.images import layout, samples, typeset
from bot.images.captions import Captions
from bot.images.hand import final_hand_picture, hand_picture
from bot.images.layout import MIN_LABEL_PX, MIN_RANK_PX, PHONE_WIDTH, Scene
from bot.images.results import results_picture
from bot.images.standings import StandingsRow, standings_picture
from bot.images.table import table_picture
from bot.words.pictures import captions
from tests.images.test_layout import discard_states

ROBOT = "\N{ROBOT FACE}"
LANGUAGES = ("en", "hi")
#: Seat names as the table layer gives them: AI seats are named "🤖 <tier>" (the lobby, a
#: tournament's fillers), people by their Discord names, long or in Devanagari.
NAMES = [
    f"{ROBOT} Hard",
    "Devendra Kumar Srivastava",
    "रोहन शर्मा",
    f"{ROBOT} Expert 12",
    "Asha",
    "x",
]


def _words() -> Iterator[Captions]:
    for tag in LANGUAGES:
        yield captions(tag)


def _match(seats: int, seed: int, profile: str = "paplu") -> Match:
    return Match.create(NAMES[:seats], profile, seed=seed)


def hands() -> Iterator[Scene]:
    states = [*samples.hand_states().values(), *discard_states(4)]
    for words in _words():
        for obs in states:
            for sort in (False, True):
                for hints in ("full", "groups", "off"):
                    yield hand_picture(obs, sort, None, hints, words=words).scene
        over = _match(2, 3)
        samples.play_until(over, lambda m: m.finished_deal() is not None, 3, max_steps=5000)
        yield hand_picture(over.observation(0), words=words).scene  # no cards to show


def final_hands() -> Iterator[Scene]:
    for words in _words():
        for seats in (2, 4):
            m = _match(seats, 20 + seats)
            samples.play_until(m, lambda mm: mm.finished_deal() is not None, 1, max_steps=5000)
            assert m.deal is not None
            for seat in m.deal.seats:
                obs = m.observation(seat)
                cards = m.deal.hands[seat]
                ev = evaluate_hand(cards, m.rules, m.deal.wild_rank)
                yield final_hand_picture(obs, cards, ev, words=words).scene
                yield final_hand_picture(obs, cards, None, words=words).scene


def tables() -> Iterator[Scene]:
    for words in _words():
        for seats in range(2, 7):
            for seed in (seats, 40 + seats):
                m = _match(seats, seed)
                samples.play_until(
                    m, lambda mm: mm.deal is not None and len(mm.deal.actions) >= 12, seed
                )
                yield table_picture(m.public_view(), words=words).scene
                yield table_picture(m.public_view(), True, words=words).scene
            yield table_picture(samples.table_view(seats, seed=seats), words=words).scene
        m = _match(3, 5)
        samples.play_until(m, lambda mm: mm.finished_deal() is not None, 5, max_steps=5000)
        yield table_picture(m.public_view(), words=words).scene  # between deals or over


@functools.cache
def _histories() -> tuple[dict[str, Any], ...]:
    out = []
    for seats in range(2, 7):
        history = copy.deepcopy(samples.finished_history(seats, 11 + seats))
        for s in history["seats"]:
            s["name"] = NAMES[int(s["seat"]) % len(NAMES)]
        out.append(history)
    return tuple(out)


def histories() -> Iterator[dict[str, Any]]:
    """Finished deals of two to six seats, their players named as `NAMES`."""
    return iter(_histories())


def results() -> Iterator[Scene]:
    for words in _words():
        for history in histories():
            yield results_picture(history, words=words).scene


def standings() -> Iterator[Scene]:
    rows = [StandingsRow("1", f"{ROBOT} Hard 3", "4", winner=True)]
    rows += [StandingsRow(str(i), NAMES[i % len(NAMES)], "2") for i in range(2, 30)]
    for title, heading in [
        ("Saturday night — final standings", ("Place", "Player", "Rounds")),
        ("शनिवार की रात — अंतिम स्थान", ("स्थान", "खिलाड़ी", "दौर")),
    ]:
        for n in (1, 3, len(rows)):
            yield standings_picture(title, heading, rows[:n], "standings-t").scene


#: Every public picture of `bot.images` (by its function's name) and the scenes it is
#: measured on.
CASES: dict[str, Callable[[], Iterator[Scene]]] = {
    "hand_picture": hands,
    "final_hand_picture": final_hands,
    "table_picture": tables,
    "results_picture": results,
    "standings_picture": standings,
}


def picture_kinds() -> set[str]:
    """The public functions of `bot.images` that lay out a picture a player is sent."""
    found = set()
    for info in pkgutil.iter_modules(bot.images.__path__):
        module = importlib.import_module(f"bot.images.{info.name}")
        for name, obj in vars(module).items():
            if (
                name.endswith("_picture")
                and not name.startswith("_")
                and callable(obj)
                and getattr(obj, "__module__", None) == module.__name__
            ):
                found.add(name)
    return found


def test_every_kind_of_picture_is_measured() -> None:
    assert picture_kinds() == set(CASES)


def phone_sizes(scene: Scene) -> Iterator[tuple[str, object, float, float]]:
    """(what, the element, its size on a phone, the least allowed) for every rank and every
    text of the picture."""
    scale = PHONE_WIDTH / scene.width
    for pc in scene.cards:
        if pc.face is not None:
            rank = 0 if pc.face.is_joker else pc.face.rank
            yield "rank", pc, layout.rank_glyph_height(rank, pc.size) * scale, MIN_RANK_PX
    for lb in scene.labels:
        yield "label", lb, lb.size * scale, MIN_LABEL_PX
    for disc in scene.discs:
        if disc.text:
            size = layout.disc_text_size(disc.text, disc.r)
            yield "disc", disc, size * scale, MIN_LABEL_PX


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_picture_is_readable_on_a_phone(kind: str) -> None:
    scenes = list(CASES[kind]())
    assert scenes
    for scene in scenes:
        small = [
            (what, el, round(px, 2)) for what, el, px, least in phone_sizes(scene) if px < least
        ]
        assert not small, (kind, scene.width, small[:5])
        for lb in scene.labels:  # each in its room, inside the picture (a long name cut)
            assert lb.max_width is not None, lb
            width = layout.text_width(lb.text, lb.size)
            assert width <= lb.max_width, (lb, width)
            left = {"l": lb.x, "m": lb.x - width / 2, "r": lb.x - width}[lb.anchor[0]]
            assert left >= 0 and left + width <= scene.width, (lb, width, scene.width)


def _name_labels(scene: Scene, name: str) -> list[str]:
    return [lb.text for lb in scene.labels if name.split(" ")[-1] in lb.text]


def test_an_ai_seat_keeps_its_robot_mark_in_every_picture() -> None:
    """The text marks an AI seat with 🤖 in its name; the pictures lost it (the fonts have no
    emoji, so the name was drawn without it). It is drawn now: the typesetter draws 🤖 as a
    robot of its own, in the label's colour, never the font's empty box."""
    for words in _words():
        m = _match(4, 9)
        samples.play_until(m, lambda mm: mm.deal is not None and len(mm.deal.actions) >= 12, 9)
        table = table_picture(m.public_view(), words=words).scene
        (history, *_more) = histories()
        shown = results_picture(history, words=words).scene
        for scene, seats in ((table, NAMES[:4]), (shown, [s["name"] for s in history["seats"]])):
            for name in seats:
                labels = _name_labels(scene, name)
                assert labels, (name, [lb.text for lb in scene.labels])
                marked = [t for t in labels if t.startswith(ROBOT)]
                assert bool(marked) == name.startswith(ROBOT), (name, labels)
    standing = standings_picture(
        "Final", ("#", "Player", "Rounds"), [StandingsRow("1", f"{ROBOT} Hard 3", "2")], "s"
    ).scene
    assert f"{ROBOT} Hard 3" in [lb.text for lb in standing.labels]  # an AI entrant
    # Drawn: a robot, not the box a font draws for a glyph it lacks, and as wide as measured.
    robot, _dx, _dy = typeset.mask(f"{ROBOT} Hard", 17, 1, "la", True)
    tofu, _dx, _dy = typeset.mask("\uffff Hard", 17, 1, "la", True)
    plain, _dx, _dy = typeset.mask("Hard", 17, 1, "la", True)
    assert robot.tobytes() != tofu.tobytes()
    assert robot.width > plain.width + 10
    assert abs(robot.width - layout.text_width(f"{ROBOT} Hard", 17)) <= 4
    assert robot.crop((0, 0, 14, robot.height)).getextrema()[1] > 0  # ink where the robot is
