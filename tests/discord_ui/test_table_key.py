"""The table picture laid out last for a table is what a fresh layout would make.

The table message's picture is laid out again only when its key (`table_picture.table_key`:
what `bot.images.table_picture` reads of the `PublicView`, the rule and the language)
changed. A field the key missed would show players a stale picture; so whole deals are played
by policies at 2 to 6 seats, over several deals, with and without wild cards, in English and
Hindi, and at every step the kept picture equals one laid out from scratch; views with one key
are drawn alike; and every field of a view (of a seat, of a throw) swapped for another
state's either changes the key or changes nothing drawn."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.discord_ui.table_picture import TablePictures, table_key
from bot.engine.cards import Card, Face
from bot.engine.match import Match, Player
from bot.engine.observation import PublicView
from bot.engine.rules import PROFILES, get_profile
from bot.engine.states import MatchPhase, SeatState
from bot.images import Picture, table_picture
from bot.images.samples import _policies
from bot.images.typeset import ROBOT
from bot.table.model import Seat, Table, TableOptions
from bot.words import Locale
from bot.words.pictures import captions

#: A long name (cut on its plate), an AI seat's, a Devanagari one, and plain ones.
NAMES = [
    "Asha",
    "Bharat Ramachandran Subramanian Venkataraman",
    f"{ROBOT} Chitra",
    "देवेंद्र कुमार",
    "Esha",
    "Farhan",
]


def _played(seats: int, profile: str, nothing_wild: bool, seed: int, deals: int) -> list[Any]:
    """Every public view of up to `deals` deals of a match played by policies: the states
    before and after each move, and between deals."""
    players = [Player(f"u{i}", name) for i, name in enumerate(NAMES[:seats])]
    rules = get_profile(profile).with_options(nothing_wild=nothing_wild)
    m = Match.create(players, rules, seed=seed)
    policies = _policies(seats, seed)
    views = [m.public_view()]
    for _ in range(deals):
        while m.deal is not None and not m.deal.over and m.phase is MatchPhase.PLAYING:
            seat = m.deal.turn
            m.apply(policies[seat].act(m.observation(seat)))
            views.append(m.public_view())
        if m.phase is not MatchPhase.BETWEEN_DEALS:
            break
        m.start_next_deal()
        views.append(m.public_view())
    return [m, views]


def _table(m: Match, locale: Locale | None) -> Table:
    seats = len(m.players)
    table = Table("abcdefghij", 1, 2, 3, TableOptions(m.rules.name, seats, 60))
    table.options.language = locale or Locale("en")
    table.seats = [Seat(p.id, p.name, user_id=i + 1) for i, p in enumerate(m.players)]
    table.match = m
    return table


def _fresh(view: PublicView, nothing_wild: bool, locale: Locale | None) -> Picture:
    return table_picture(view, nothing_wild, words=captions(locale))


GAMES = [
    (2, "pool101", False, 1, 3),
    (3, "points", False, 2, 1),
    (4, "pool101", True, 3, 2),
    (5, "points", True, 4, 1),
    (6, "pool101", False, 5, 2),
]


@pytest.mark.parametrize(("seats", "profile", "nothing_wild", "seed", "deals"), GAMES)
@pytest.mark.parametrize("locale", [None, Locale("hi")])
def test_the_kept_table_picture_is_a_fresh_one(
    seats: int,
    profile: str,
    nothing_wild: bool,
    seed: int,
    deals: int,
    locale: Locale | None,
) -> None:
    m, views = _played(seats, profile, nothing_wild, seed, deals)
    table = _table(m, locale)
    assert table.rules.nothing_wild is nothing_wild
    pictures = TablePictures(None, None)  # type: ignore[arg-type]
    by_key: dict[Any, Picture] = {}
    kept = changed = 0
    last: Picture | None = None
    for view in views:
        picture, scene = pictures.laid_out(table, view)
        fresh = _fresh(view, nothing_wild, locale)
        assert picture == fresh
        assert scene == hash(fresh)
        # One key, one picture: a view whose key was seen before is drawn as that one was.
        key = table_key(view, nothing_wild, table.options.language)
        assert by_key.setdefault(key, fresh) == fresh
        kept += picture is last
        changed += last is not None and fresh != last
        last = picture
    # A draw from the stock changes nothing drawn (a quarter to a half of the moves).
    assert kept > len(views) // 6, (kept, len(views))
    assert changed > len(views) // 4, (changed, len(views))


def _other_face(card: Card) -> Card:
    """The same physical card (a `Card` compares by its id alone) with another face."""
    face = card.face
    return Card(card.id, Face(face.rank % 13 + 1, face.suit) if not face.is_joker else Face(5, 2))


def _swapped(view: PublicView, other: PublicView) -> list[PublicView]:
    """`view` with one thing changed: each of its fields taken from `other`; each field of
    one seat taken from the seat in the same place there or from its neighbour here; each
    field of one of the last throws taken from another throw, or flipped (shuffled back, taken
    back by someone, the same card with another face); the indicator's and the top card's
    faces; what one game does not change (the variant, the match's phase, a seat's status)
    set to every other value."""
    out = [dataclasses.replace(view, **{f.name: getattr(other, f.name)})
           for f in dataclasses.fields(PublicView)]  # fmt: skip
    out += [dataclasses.replace(view, variant=name) for name in PROFILES]
    out += [dataclasses.replace(view, match_phase=phase) for phase in MatchPhase]
    for name in ("indicator", "top_discard"):
        card = getattr(view, name)
        if card is not None:
            out.append(dataclasses.replace(view, **{name: _other_face(card)}))
    seats, theirs = view.seats, other.seats
    for i, seat in enumerate(seats):
        for f in dataclasses.fields(seat):
            for source in (theirs[i % len(theirs)], seats[(i + 1) % len(seats)]):
                changed = dataclasses.replace(seat, **{f.name: getattr(source, f.name)})
                out.append(dataclasses.replace(view, seats=(*seats[:i], changed, *seats[i + 1 :])))
        for status in SeatState:
            changed = dataclasses.replace(seat, status=status)
            out.append(dataclasses.replace(view, seats=(*seats[:i], changed, *seats[i + 1 :])))
    pile, sources = list(view.pile_history), [*other.pile_history[-2:], *view.pile_history[-3:]]
    for i in range(max(0, len(pile) - 7), len(pile)):
        e = pile[i]
        alternates = [
            dataclasses.replace(e, **{f.name: getattr(source, f.name)})
            for f in dataclasses.fields(e)
            for source in sources
        ]
        alternates += [
            dataclasses.replace(e, recycled=not e.recycled),
            dataclasses.replace(e, taken_by=(e.taken_by or 0) + 1),
            dataclasses.replace(e, discarded_by=(e.discarded_by or 0) + 1),
            dataclasses.replace(e, card=_other_face(e.card)),
        ]
        out += [dataclasses.replace(view, pile_history=(*pile[:i], changed, *pile[i + 1 :]))
                for changed in alternates]  # fmt: skip
    return out


@pytest.mark.parametrize(("seats", "profile", "nothing_wild", "seed", "deals"), GAMES[::2])
def test_every_field_the_picture_shows_is_in_the_key(
    seats: int, profile: str, nothing_wild: bool, seed: int, deals: int
) -> None:
    _m, views = _played(seats, profile, nothing_wild, seed, deals)
    samples = views[:: max(1, len(views) // 10)]
    checked = 0
    for locale in (None, Locale("hi")):
        for view, other in zip(samples, samples[1:] + samples[:1], strict=True):
            base = _fresh(view, nothing_wild, locale)
            key = table_key(view, nothing_wild, locale)
            for changed in _swapped(view, other):
                if _fresh(changed, nothing_wild, locale) != base:
                    assert table_key(changed, nothing_wild, locale) != key, changed
                    checked += 1
            for wild, loc in ((not nothing_wild, locale), (nothing_wild, Locale("hi"))):
                if _fresh(view, wild, loc) != base:
                    assert table_key(view, wild, loc) != key
    assert checked > 100
