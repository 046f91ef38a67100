from __future__ import annotations

import pytest

from bot.engine.cards import (
    JOKER,
    CardParseError,
    Face,
    TooManyCopiesError,
    format_cards,
    parse_cards,
    parse_faces,
)
from bot.engine.rules import get_profile


@pytest.mark.parametrize(
    ("token", "code"),
    [("AS", "AS"), ("10h", "10H"), ("TD", "10D"), ("qc", "QC"), ("JK", "JK"), ("jk", "JK"),
     ("A♠", "AS"), ("7♥️", "7H"), ("K♦", "KD"), ("2♣", "2C")],
)  # fmt: skip
def test_parse_notation(token: str, code: str) -> None:
    assert Face.parse(token).code == code


@pytest.mark.parametrize("token", ["1S", "11H", "ZZ", "10X", "", "  ", "A", "SS", "JKX"])
def test_bad_tokens_name_the_token(token: str) -> None:
    with pytest.raises(CardParseError) as err:
        Face.parse(token)
    if token.strip():
        assert token in str(err.value)
    else:
        assert "empty" in str(err.value)


def test_third_copy_refused_with_two_decks() -> None:
    parse_cards("7H 7H 2C")
    with pytest.raises(CardParseError, match="7h"):
        parse_cards("7H 7h 7h")


def test_physical_copies_are_distinct() -> None:
    a, b = parse_cards("7H 7H")
    assert a.face == b.face
    assert a != b
    assert len({a, b}) == 2


def test_values() -> None:
    faces = parse_faces("AS KS QS JS 10S 9S 2S JK")
    assert [f.value for f in faces] == [10, 10, 10, 10, 10, 9, 2, 0]


def test_format_round_trip() -> None:
    text = "AS 10H 10D QC JK"
    assert format_cards(parse_cards(text)) == text
    assert format_cards(parse_faces("AS JK"), pretty=True) == "A♠ 🃏"
    assert JOKER.is_joker


def test_empty_hand_refused() -> None:
    with pytest.raises(CardParseError):
        parse_faces("   ")


# ---- copies against the rules' deck (docs/rules.md, rulings: no more jokers than in play) ----


@pytest.mark.parametrize(
    ("profile", "options", "hand_jokers", "ok"),
    [
        ("points", {}, 2, True),
        ("points", {}, 3, False),
        ("classic", {}, 6, True),  # 3 decks + 6 jokers for 7-10 players
        ("classic", {}, 7, False),
        ("classic", {"one_joker_per_deck": True}, 3, True),
        ("classic", {"one_joker_per_deck": True}, 4, False),
        ("points", {"nothing_wild": True}, 1, False),
    ],
)
def test_printed_jokers_limited_by_the_rules_deck(
    profile: str, options: dict[str, bool], hand_jokers: int, ok: bool
) -> None:
    rules = get_profile(profile).with_options(**options)
    text = " ".join(["JK"] * hand_jokers + ["2S", "3S", "4S"])
    if ok:
        rules.check_copies(rules.parse_hand(text))
        return
    with pytest.raises(TooManyCopiesError, match="JK") as err:
        rules.parse_hand(text)
    assert err.value.face == JOKER and err.value.count == rules.max_jokers + 1
    with pytest.raises(TooManyCopiesError, match="JK"):
        rules.check_copies(parse_cards(text, max_copies=3, max_jokers=10))


def test_third_copy_of_a_face_refused_by_the_rules() -> None:
    rules = get_profile("pool101")
    with pytest.raises(TooManyCopiesError, match="AS"):
        rules.check_copies(parse_faces("AS AS AS 2C"))
    classic = get_profile("classic")
    classic.check_copies(parse_faces("AS AS AS 2C"))  # three decks at 7-10 players
    with pytest.raises(CardParseError, match="4 times"):
        classic.parse_hand("AS AS AS as 2C")


def test_ruling_text_refuses_a_third_joker() -> None:
    """`/rummy check` answers through `ruling_text`; it must not rule on 3 jokers."""
    from bot.words.rules import ruling_text

    rules = get_profile("points")
    cards = parse_cards("JK JK JK 2S 3S 4S 5H 6H 7H 8C 9C 10C KD", max_copies=2)
    with pytest.raises(TooManyCopiesError, match="JK"):
        ruling_text(cards, rules, Face.parse("8D"))


@pytest.mark.parametrize(
    ("profile", "text", "face", "count"),
    [
        ("points", " ".join(["AS"] * 13), "AS", 13),  # was reported as "appears 3 times"
        ("points", "JK JK JK JK 2S 3S 4S 5H 6H 7H 8C 9C 10C", "JK", 4),
        ("points", "7h 7H 2S 7h 3S 7H", "7H", 4),
        ("classic", " ".join(["KD"] * 5 + ["2C"]), "KD", 5),  # three decks: 3 allowed
    ],
)
def test_too_many_copies_reports_the_true_count(
    profile: str, text: str, face: str, count: int
) -> None:
    """`/rummy check` and the `check` CLI read hands with `Rules.parse_hand`: the refusal
    names how often the face really appears in the hand, not the copy that passed the limit."""
    rules = get_profile(profile)
    with pytest.raises(TooManyCopiesError) as err:
        rules.parse_hand(text)
    assert err.value.face == Face.parse(face)
    assert err.value.count == count
    assert f"appears {count} times" in str(err.value)
    # The same count when the hand was read leniently and checked against the rules later.
    with pytest.raises(TooManyCopiesError, match=f"appears {count} times"):
        rules.check_copies(parse_cards(text, max_copies=13, max_jokers=13))
