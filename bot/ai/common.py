"""Small helpers every tier shares: sorting legal actions, safe declarations, card links.

Declarations get one careful helper because the two declaration modes differ: in `assisted`
mode the engine lists Declare only for verified layouts, but in `honor` mode it lists Declare
beside *every* discard and judges the show afterwards. An AI must never make a wrong show by
accident, so it declares only what the evaluator confirms.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import ACE, Card, Face
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation
from bot.engine.quickcheck import may_declare
from bot.engine.rules import DeclarationMode, Rules


def by_kind(obs: Observation) -> dict[ActionKind, list[Action]]:
    """Legal actions grouped by kind (in the engine's order)."""
    out: dict[ActionKind, list[Action]] = {}
    for a in obs.legal_actions:
        out.setdefault(a.kind, []).append(a)
    return out


def safe_declaration(obs: Observation, kinds: dict[ActionKind, list[Action]]) -> Action | None:
    """A Declare that is certainly valid, or None. Prefers shedding the highest card."""
    declares = kinds.get(ActionKind.DECLARE, [])
    if not declares:
        return None
    assisted = obs.rules.declaration_mode is DeclarationMode.ASSISTED
    hand = obs.hand
    if len(hand) == 13:  # hand rummy: the dealt 13 shown without drawing
        rummy = next((a for a in declares if a.card is None), None)
        if rummy is None:
            return None
        if assisted or evaluate_hand(hand, obs.rules, obs.wild_rank).valid:
            return rummy
        return None
    offered = {a.card: a for a in declares if a.card is not None}
    if assisted:
        cards = [c for c in hand if c.id in offered]
        cards.sort(key=lambda c: (c.face.value, -c.id), reverse=True)
        return offered[cards[0].id] if cards else None
    if not may_declare(hand, obs.rules, obs.wild_rank, spare=1):
        return None
    ev = evaluate_drawn(hand, obs.rules, obs.wild_rank, forbidden=obs.taken)
    winning_faces = {c.face for c in ev.winning_discards}
    for c in sorted(hand, key=lambda c: (-c.face.value, c.id)):
        if c.face in winning_faces and c.id in offered:
            return offered[c.id]
    return None


def discard_choices(obs: Observation) -> list[Card]:
    """Cards that may be thrown now (never the card just taken from the pile)."""
    legal = {a.card for a in obs.legal_actions if a.kind is ActionKind.DISCARD}
    return [c for c in obs.hand if c.id in legal]


def distinct_faces(cards: Sequence[Card]) -> list[Card]:
    """One physical card per face, in hand order (copies are interchangeable as discards)."""
    seen: set[Face] = set()
    out = []
    for c in cards:
        if c.face not in seen:
            seen.add(c.face)
            out.append(c)
    return out


def non_wild(cards: Sequence[Card], rules: Rules, wild_rank: int | None) -> list[Card]:
    """Cards that are not wild; wild cards count 0 and fit anywhere, so AIs keep them."""
    return [c for c in cards if not rules.is_wild(c.face, wild_rank)]


def _pos(rank: int) -> tuple[int, ...]:
    return (1, 14) if rank == ACE else (rank,)


def linked(a: Face, b: Face) -> bool:
    """Could the two cards sit in one group: same rank (other suit), or same suit within two."""
    if a.is_joker or b.is_joker:
        return False
    if a.rank == b.rank:
        return a.suit != b.suit
    if a.suit != b.suit:
        return False
    return any(0 < abs(x - y) <= 2 for x in _pos(a.rank) for y in _pos(b.rank))


def completes_group(face: Face, hand: Sequence[Card], rules: Rules, wild_rank: int | None) -> bool:
    """Does `face` make a natural three-card group with two cards already in `hand`?"""
    if face.is_joker:
        return False
    naturals = [c.face for c in hand if not rules.is_wild(c.face, wild_rank)]
    other_suits = {f.suit for f in naturals if f.rank == face.rank and f.suit != face.suit}
    if len(other_suits) >= 2:
        return True
    have: set[int] = set()
    for f in naturals:
        if f.suit == face.suit:
            have.update(_pos(f.rank))
    for p in _pos(face.rank):
        for a, b in ((p - 2, p - 1), (p - 1, p + 1), (p + 1, p + 2)):
            if a in have and b in have:
                return True
    return False


def pure_partials(hand: Sequence[Card], rules: Rules, wild_rank: int | None) -> int:
    """How many same-suit pairs at most one rank apart (seeds of a pure sequence)."""
    by_suit: dict[int, set[int]] = {}
    for c in hand:
        if not rules.is_wild(c.face, wild_rank) and not c.face.is_joker:
            by_suit.setdefault(c.suit, set()).update(_pos(c.rank))
    n = 0
    for ranks in by_suit.values():
        for r in ranks:
            if r + 1 in ranks or r + 2 in ranks:
                n += 1
    return n
