"""Cards: faces, physical cards and the notation players type.

Indian Rummy is played with two (or three) decks shuffled together, so two cards can show the
same face and still be different objects: the rule "you may not discard the card you just took
from the pile" follows the physical card, not its face. That is why a `Card` carries an `id`
(unique within one deal's deck) beside its `Face`.

Notation (docs/rules.md): rank `A 2 .. 10 J Q K` (`T` accepted for 10) followed by a suit
`S H D C` (or the symbols), any case; `JK` is a printed joker. The canonical output form is
`10H`, `AS`, `JK`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

# Ranks are 1 (ace) .. 13 (king). A printed joker has rank 0 and no suit.
JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS = tuple(range(1, 14))

# Suits are small ints so the evaluator can index arrays with them.
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
NO_SUIT = -1

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_PARSE = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "10": 10}
for _r in range(2, 10):
    _RANK_PARSE[str(_r)] = _r
_SUIT_PARSE = {
    **{c: i for i, c in enumerate(SUIT_LETTERS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
}
# Variation selectors appear when people paste emoji suits (e.g. "♥️").
_STRIP = "\ufe0f\ufe0e"


def rank_name(rank: int) -> str:
    """The one name of a rank everywhere (card codes, wild-rank texts, hand histories):
    `A 2 .. 10 J Q K`, and `JK` for the printed joker's rank 0."""
    if rank == JOKER_RANK:
        return "JK"
    return _RANK_NAMES.get(rank, str(rank))


class CardProblem(StrEnum):
    """Why typed cards cannot be read (the code of a `CardParseError`)."""

    EMPTY = "empty"  # an empty token
    NOT_A_CARD = "not_a_card"  # token
    NO_CARDS = "no_cards"  # nothing typed at all
    TOO_MANY = "too_many"  # token, code, count, limit, joker (a `TooManyCopiesError`)


class CardParseError(ValueError):
    """A card token (or a hand) that cannot be read: `problem` and `params` are the facts
    (the offending token, the counts), for the Discord side to word in the reader's language;
    the message is English, for logs and the engine's command line."""

    def __init__(
        self, text: str, problem: CardProblem = CardProblem.NOT_A_CARD, **params: Any
    ) -> None:
        super().__init__(text)
        self.problem = problem
        self.params: dict[str, Any] = params


class TooManyCopiesError(CardParseError):
    """A hand holds more copies of one face than the decks in play (a third A♠, a third JK).

    A subclass of `CardParseError` so every caller that already turns unreadable input into a
    message for the user refuses an impossible hand the same way; `face`, `count` and `limit`
    are there for callers that want to word it themselves.
    """

    def __init__(self, face: Face, count: int, limit: int, token: str | None = None) -> None:
        self.face = face
        self.count = count
        self.limit = limit
        what = "printed jokers" if face.is_joker else f"copies of {face.code}"
        super().__init__(
            f"'{token or face.code}' appears {count} times, but the decks in play hold only "
            f"{limit} {what}",
            CardProblem.TOO_MANY,
            token=token or face.code,
            code=face.code,
            count=count,
            limit=limit,
            joker=face.is_joker,
        )


@dataclass(frozen=True, slots=True, order=True)
class Face:
    """What is printed on a card. Two physical cards may share a face."""

    rank: int  # 0 for a printed joker, 1..13 otherwise
    suit: int  # 0..3, or NO_SUIT for a printed joker

    def __reduce__(self) -> tuple[type[Face], tuple[int, int]]:
        # Faces cross to worker processes by the dozen (pictures, the AI's observations);
        # a slots dataclass otherwise pickles through a Python __getstate__ dict per face.
        return Face, (self.rank, self.suit)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def value(self) -> int:
        """Penalty value when the card is not wild: A K Q J 10 count 10, 2-9 face value."""
        if self.rank == JOKER_RANK:
            return 0
        return 10 if self.rank == ACE or self.rank >= 10 else self.rank

    @property
    def code(self) -> str:
        """Canonical notation: `10H`, `AS`, `JK`."""
        if self.is_joker:
            return "JK"
        return rank_name(self.rank) + SUIT_LETTERS[self.suit]

    @property
    def pretty(self) -> str:
        """Notation with suit symbols, for people: `10♥`, `A♠`, `🃏`."""
        if self.is_joker:
            return "🃏"
        return rank_name(self.rank) + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, token: str) -> Face:
        """Read one face from notation; raises `CardParseError` naming the token."""
        raw = token
        t = token.strip().upper()
        for ch in _STRIP:
            t = t.replace(ch, "")
        if not t:
            raise CardParseError("empty card token", CardProblem.EMPTY)
        if t in ("JK", "JOKER", "🃏"):
            return JOKER
        rank_part, suit_part = t[:-1], t[-1]
        rank = _RANK_PARSE.get(rank_part)
        suit = _SUIT_PARSE.get(suit_part)
        if rank is None or suit is None:
            raise CardParseError(
                f"'{raw}' is not a card (use rank A,2-10,J,Q,K then suit S,H,D,C, or JK)",
                CardProblem.NOT_A_CARD,
                token=raw,
            )
        return cls(rank, suit)


JOKER = Face(JOKER_RANK, NO_SUIT)


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card of a deal's deck: a face plus an id unique within that deck.

    Equality is by id, so two copies of the 7♥ are different cards.
    """

    id: int
    face: Face

    def __reduce__(self) -> tuple[type[Card], tuple[int, Face]]:
        return Card, (self.id, self.face)  # as Face's: plain values, no state dict

    @property
    def rank(self) -> int:
        return self.face.rank

    @property
    def suit(self) -> int:
        return self.face.suit

    @property
    def code(self) -> str:
        return self.face.code

    def __str__(self) -> str:
        return self.face.code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


def standard_faces() -> list[Face]:
    """The 52 faces of one standard deck, in a fixed order."""
    return [Face(rank, suit) for suit in SUITS for rank in RANKS]


def parse_faces(text: str | Iterable[str]) -> list[Face]:
    """Read a whitespace/comma separated list of faces (`"AS 10H td JK"`)."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if not tokens:
        raise CardParseError("no cards given", CardProblem.NO_CARDS)
    return [Face.parse(tok) for tok in tokens]


def parse_cards(
    text: str | Iterable[str], max_copies: int = 2, max_jokers: int | None = None
) -> list[Card]:
    """Read a hand into physical cards, refusing more copies of a face than the decks hold.

    `max_copies` is the number of standard decks; `max_jokers` defaults to two jokers per deck,
    a loose bound (the two-deck profiles hold only 2). Input from outside should be read with
    `Rules.parse_hand`, which knows the profile's real deck. Ids follow the order of appearance.
    """
    faces = parse_faces(text)
    if max_jokers is None:
        max_jokers = 2 * max_copies
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    check_copies(faces, max_copies, max_jokers, tokens)
    return [Card(i, face) for i, face in enumerate(faces)]


def check_copies(
    cards: Iterable[Card | Face],
    max_copies: int,
    max_jokers: int,
    tokens: Sequence[str] | None = None,
) -> None:
    """Raise `TooManyCopiesError` at the first face seen more often than the decks hold it.

    `tokens`, when given, are the cards as the user typed them (same order), so the message
    quotes their spelling (`7h`). The physical engine never needs this: a dealt deck is right
    by construction. It guards hands typed in (`check`, `/rummy check`), where a third joker
    would otherwise be ruled a valid declaration.
    """
    faces = [c.face if isinstance(c, Card) else c for c in cards]
    # Count the whole hand first: the message gives the true number of copies (13 x AS is
    # "13 times"), not the count at which the limit was first passed.
    total = Counter(faces)
    seen: Counter[Face] = Counter()
    for i, face in enumerate(faces):
        seen[face] += 1
        limit = max_jokers if face.is_joker else max_copies
        if seen[face] > limit:
            token = tokens[i] if tokens is not None and i < len(tokens) else None
            raise TooManyCopiesError(face, total[face], limit, token)


def format_cards(cards: Iterable[Card | Face], pretty: bool = False) -> str:
    """Space-separated notation for a list of cards."""
    out = []
    for c in cards:
        face = c.face if isinstance(c, Card) else c
        out.append(face.pretty if pretty else face.code)
    return " ".join(out)
