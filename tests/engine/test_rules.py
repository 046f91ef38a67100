from __future__ import annotations

import pytest

from bot.engine.cards import ACE, Face
from bot.engine.rules import PROFILES, Rules, get_profile


def test_six_profiles() -> None:
    assert list(PROFILES) == ["points", "pool101", "pool201", "deals", "paplu", "classic"]


@pytest.mark.parametrize("name", ["points", "pool101", "pool201", "deals", "paplu"])
def test_two_deck_profiles_have_106_cards(name: str) -> None:
    rules = get_profile(name)
    for players in range(2, 7):
        deck = rules.build_deck(players)
        assert len(deck) == 106
        assert len({c.id for c in deck}) == 106
        assert sum(c.face.is_joker for c in deck) == 2


@pytest.mark.parametrize(
    ("players", "size", "jokers"),
    [(2, 54, 2), (3, 54, 2), (4, 108, 4), (6, 108, 4), (7, 162, 6), (10, 162, 6)],
)
def test_classic_deck_by_player_count(players: int, size: int, jokers: int) -> None:
    deck = get_profile("classic").build_deck(players)
    assert len(deck) == size
    assert sum(c.face.is_joker for c in deck) == jokers


def test_classic_one_joker_per_deck_and_nothing_wild() -> None:
    classic = get_profile("classic")
    assert len(classic.with_options(one_joker_per_deck=True).build_deck(4)) == 106
    assert sum(c.face.is_joker for c in classic.with_options(nothing_wild=True).build_deck(4)) == 0


def test_wild_rank_from_indicator() -> None:
    joker = Face.parse("JK")
    for name in ("points", "pool101", "pool201", "deals"):
        assert get_profile(name).wild_rank(joker) == ACE
    assert get_profile("paplu").wild_rank(joker) is None
    assert get_profile("classic").wild_rank(joker) is None
    assert get_profile("classic").with_options(aces_wild_on_joker=True).wild_rank(joker) == ACE
    assert get_profile("paplu").wild_rank(Face.parse("8D")) == 8
    assert get_profile("points").with_options(nothing_wild=True).wild_rank(Face.parse("8D")) is None


def test_printed_jokers_always_wild_unless_nothing_wild() -> None:
    rules = get_profile("paplu")
    assert rules.is_wild(Face.parse("JK"), None)
    assert rules.is_wild(Face.parse("8S"), 8)
    assert not rules.is_wild(Face.parse("7S"), 8)
    assert not rules.with_options(nothing_wild=True).is_wild(Face.parse("JK"), None)


def test_caps_and_drops_follow_the_table() -> None:
    table = {  # name: (cap, first drop, middle drop, set max)
        "points": (80, 20, 40, None), "pool101": (80, 20, 40, 4), "pool201": (80, 25, 50, 4),
        "deals": (80, 20, 40, 4), "paplu": (None, 10, 40, 3), "classic": (None, 10, 40, 4),
    }  # fmt: skip
    for name, (cap, first, middle, set_max) in table.items():
        r = get_profile(name)
        assert (r.deal_cap, r.first_drop, r.middle_drop, r.set_max) == (cap, first, middle, set_max)
    assert get_profile("points").cap(92) == 80
    assert get_profile("paplu").cap(92) == 92


def test_round_trip_and_options() -> None:
    for rules in PROFILES.values():
        assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(ValueError, match="unknown rule option"):
        get_profile("points").with_options(bogus=True)
    with pytest.raises(ValueError, match="number of deals"):
        get_profile("deals").with_options(num_deals=4)
    with pytest.raises(ValueError, match="unknown profile"):
        get_profile("gin")
