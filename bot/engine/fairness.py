"""A shuffle players can verify: where each deal's randomness comes from, the commitment the
table shows before the first card is played, and the check that a revealed deal matches it.

Paplu is often played for stakes, so "did the bot deal fairly?" needs an answer a player can
check without trusting the bot:

1. Each deal is shuffled from the operating system's cryptographic generator
   (`secrets.SystemRandom`), unless the table runs with a fixed seed (tests only).
2. At the start of the deal the table shows `commit(order, salt)`: the SHA-256 of the deck
   order and a secret 128-bit salt, in the exact format of `commitment_text`. The salt keeps the
   commitment from leaking the order: without it, anyone could try likely orders against the
   hash (there are few enough "this hand was dealt to me" completions to make that a risk).
3. When the deal ends, the hand history (format 3, docs/hand-history.md) reveals the salt and
   the order. `verify(history)` (`python -m bot.engine verify HISTORY.json`) recomputes the
   commitment, deals the order out again (`deal_cards`, the one definition of how an order is
   dealt, which the engine itself uses) and follows every card through the recorded events.

The bot cannot change the order after showing the commitment without finding a second SHA-256
preimage. Cards shuffled later in the deal (a reshuffled discard pile, a first drop's cards put
under the stock) come from the same generator; the history records a reshuffle's new order,
and cards put under the stock are checked as a set.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .cards import Card
from .rules import Rules

SCHEME = "paplu-deal-v1"
SHOWN_CHARS = 16  # how much of the commitment the table message shows (64 bits)
HAND_SIZE = 13

T = TypeVar("T")


def make_rng(seed: int | None, tag: str) -> random.Random:
    """Randomness for one purpose ("shuffle", "reshuffle 3", ...).

    Real tables use the OS generator (`secrets.SystemRandom`), which nobody can predict or
    replay. With a seed (tests, replays, simulations) each purpose gets its own `random.Random`
    seeded from the seed and the tag, so no generator state has to be saved: replaying the same
    actions redoes the same shuffles.
    """
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(f"{seed}:{tag}")


def new_salt(seed: int | None) -> str:
    """The secret salt of one deal's commitment, 32 hex digits.

    Unseeded it is fresh OS randomness. With a seed it follows from the seed, so a seeded deal
    (and its commitment) is the same on every replay; such a deal is predictable anyway."""
    if seed is None:
        return secrets.token_hex(16)
    return hashlib.sha256(f"paplu-salt:{seed}".encode()).hexdigest()[:32]


def commitment_text(salt: str, codes: Sequence[str]) -> str:
    """The exact text that is hashed: `paplu-deal-v1:<salt>:<card codes, top first, spaced>`."""
    return f"{SCHEME}:{salt}:{' '.join(codes)}"


def commit(order: Sequence[Card] | Sequence[str], salt: str) -> str:
    """SHA-256 (hex) of the deck order (cards or card codes, top first) and the salt."""
    codes = [c if isinstance(c, str) else c.code for c in order]
    return hashlib.sha256(commitment_text(salt, codes).encode()).hexdigest()


def shown(commitment: str) -> str:
    """The part of a commitment the table message shows."""
    return commitment[:SHOWN_CHARS]


# ---- dealing an order out ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealing(Generic[T]):
    """What the dealer hands out from a shuffled order: 13 cards a seat (in dealing order), the
    indicator (None when nothing is wild), the opening discard and the rest (the stock, top
    first)."""

    hands: dict[int, list[T]]
    indicator: T | None
    opening: T
    rest: list[T]


def deal_cards(
    order: Sequence[T], seats: Sequence[int], dealer: int, with_indicator: bool
) -> Dealing[T]:
    """Deal `order` (top first) as the dealer does: one card at a time to each seat, starting
    with the seat to the dealer's right (the next in table order), 13 rounds; then the indicator,
    then the opening discard. Used by the engine and by `verify`, so both deal alike."""
    i = list(seats).index(dealer)
    round_order = [seats[(i + 1 + k) % len(seats)] for k in range(len(seats))]
    top = iter(order)
    hands: dict[int, list[T]] = {s: [] for s in seats}
    for _ in range(HAND_SIZE):
        for s in round_order:
            hands[s].append(next(top))
    indicator = next(top) if with_indicator else None
    opening = next(top)
    return Dealing(hands, indicator, opening, list(top))


# ---- verifying a hand history -----------------------------------------------------------------


@dataclass(slots=True)
class VerifyResult:
    """The outcome of `verify`: `ok` when there is nothing in `problems`."""

    deal_number: int | None = None
    commitment: str | None = None
    draws_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(history: Mapping[str, Any]) -> VerifyResult:
    """Recheck a hand history against its shuffle commitment.

    Checks that the revealed salt and deck order hash to the commitment; that the order is a
    complete deck for the rules and player count (and, for a seeded deal, the seed's shuffle);
    that dealing it out gives the recorded hands, indicator and opening discard; and that every
    card drawn, taken, thrown, dropped or reshuffled in the events is the card that was there,
    ending with the recorded final hands. Never raises for a malformed history: it says so."""
    result = VerifyResult()
    try:
        _verify(history, result)
    except (KeyError, TypeError, ValueError, IndexError, StopIteration, AttributeError) as exc:
        result.problems.append(f"the history is malformed ({type(exc).__name__}: {exc})")
    return result


def _verify(h: Mapping[str, Any], result: VerifyResult) -> None:
    problems = result.problems
    result.deal_number = h.get("deal_number")
    shuffle = h.get("shuffle")
    if not isinstance(shuffle, Mapping):
        version = h.get("format_version")
        problems.append(
            f"no shuffle commitment in this history (format_version {version}; commitments "
            "start with format 3 and with deals started after the update)"
        )
        return
    if shuffle.get("scheme") != SCHEME:
        problems.append(f"unknown commitment scheme {shuffle.get('scheme')!r}")
        return
    salt, committed = str(shuffle["salt"]), str(shuffle["commitment"])
    result.commitment = committed
    order = [str(c) for c in h["deck_order"]]
    if commit(order, salt) != committed:
        problems.append(
            "the revealed deck order and salt do not hash to the commitment "
            f"{shown(committed)}… shown at the table (they hash to {shown(commit(order, salt))}…)"
        )
    rules = Rules.from_dict(dict(h["rules"]))
    seats = [int(s["seat"]) for s in h["seats"]]
    deck = rules.build_deck(len(seats))
    if Counter(order) != Counter(c.code for c in deck):
        problems.append("the revealed deck order is not one complete deck for this table")
        return
    ids = [int(i) for i in h.get("deck_order_ids", [])]
    if sorted(ids) != list(range(len(deck))) or [deck[i].code for i in ids] != order:
        problems.append("deck_order_ids do not name the cards of deck_order")
    seed = h.get("deal_seed")
    if seed is not None:
        cards = list(deck)
        make_rng(int(seed), "shuffle").shuffle(cards)
        if [c.code for c in cards] != order:
            problems.append(f"the deck order is not the shuffle of the deal seed {seed}")
        if new_salt(int(seed)) != salt:
            problems.append(f"the salt is not the one the deal seed {seed} gives")
    dealing = deal_cards(order, seats, int(h["dealer"]), h.get("indicator") is not None)
    for s in seats:
        if list(h["hands_dealt"][str(s)]) != dealing.hands[s]:
            problems.append(f"seat {s}'s dealt hand is not what the deck order deals")
    if h.get("indicator") != dealing.indicator:
        problems.append(
            f"the indicator {h.get('indicator')} is not the card the order puts there "
            f"({dealing.indicator})"
        )
    if h["opening_discard"] != dealing.opening:
        problems.append(
            f"the opening discard {h['opening_discard']} is not the card the order puts there "
            f"({dealing.opening})"
        )
    if problems:
        return
    _follow_cards(h, dealing, result)


class _Stock:
    """The stock as a verifier knows it: runs of cards in known order (the deal, a reshuffle)
    and, under them, sets whose order was shuffled unrecorded (a first drop's cards)."""

    def __init__(self, top_first: list[str]) -> None:
        self.runs: list[tuple[bool, list[str]]] = [(True, top_first)]

    def __len__(self) -> int:
        return sum(len(cards) for _, cards in self.runs)

    def draw(self, card: str) -> str | None:
        """Take `card` off the top; an explanation when it cannot be the top card."""
        while self.runs and not self.runs[0][1]:
            self.runs.pop(0)
        if not self.runs:
            return "the stock was empty"
        ordered, cards = self.runs[0]
        if ordered:
            if cards[0] != card:
                return f"the top of the stock was {cards[0]}"
            cards.pop(0)
        elif card in cards:
            cards.remove(card)
        else:
            return f"the top of the stock was one of {' '.join(sorted(cards))}"
        return None

    def put_under(self, cards: list[str]) -> None:
        self.runs.append((False, list(cards)))

    def replace(self, top_first: list[str]) -> None:
        self.runs = [(True, list(top_first))]


def _follow_cards(h: Mapping[str, Any], dealing: Dealing[str], result: VerifyResult) -> None:
    """Replay the card flow of the events from the dealt cards; report the first mismatch."""
    stock = _Stock(list(dealing.rest))
    pile = [dealing.opening]
    hands = {s: Counter(cards) for s, cards in dealing.hands.items()}

    def mismatch(event: Mapping[str, Any], why: str) -> None:
        who = "" if event.get("seat") is None else f" by seat {event['seat']}"
        result.problems.append(f"event {event.get('n')} ({event['action']}{who}): {why}")

    def release(seat: int, cards: list[str]) -> bool:
        if Counter(cards) != hands[seat]:
            return False
        hands[seat] = Counter()
        return True

    for e in h["events"]:
        action, seat, card = e["action"], e.get("seat"), e.get("card")
        if action == "draw_stock":
            why = stock.draw(card)
            if why is not None:
                mismatch(e, f"drew {card}, but {why}")
                return
            hands[seat][card] += 1
            result.draws_checked += 1
        elif action == "take_discard":
            if not pile or pile[-1] != card:
                top = pile[-1] if pile else "nothing"
                mismatch(e, f"took {card}, but the top discard was {top}")
                return
            hands[seat][pile.pop()] += 1
        elif action in ("discard", "declare"):
            if card is None:
                continue  # hand rummy: nothing thrown
            if hands[seat][card] < 1:
                mismatch(e, f"threw {card}, which the seat did not hold")
                return
            hands[seat][card] -= 1
            pile.append(card)
        elif action in ("drop", "leave", "wrong_show"):
            cards = list(e["cards"])
            if not release(seat, cards):
                mismatch(e, "the cards listed are not the cards the seat held")
                return
            if e["cards_to"] == "stock_bottom":
                stock.put_under(cards)
        elif action == "reshuffle":
            new = list(e["order"])
            if len(stock) or Counter(new) != Counter(pile[:-1]):
                mismatch(e, "the new stock is not the discard pile under its top card")
                return
            pile = pile[-1:]
            stock.replace(new)
    for s, fin in h["final"].items():
        if Counter(fin["cards"]) != +hands[int(s)]:
            result.problems.append(f"seat {s}'s final cards are not what the events leave it")
