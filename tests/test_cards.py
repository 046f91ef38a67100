from __future__ import annotations

import pytest

from bot.engine.cards import JOKER, CardParseError, Face, format_cards, parse_cards, parse_faces


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
