"""Card tracking from an `Observation`: what is seen, what is still live, who wants what.

Everything here is a pure function of the observation, on purpose: the Discord adapter builds
a fresh policy for every decision, so nothing may depend on memory of earlier turns, and a
tracker rebuilt from the same observation must give the same answer (the tests check that
policies are functions of the observation alone). The pile history is enough to reconstruct
what a human could remember: every card thrown and by whom, every card taken back and by whom,
and which thrown cards the next player let pass.

Counting rule: the decks hold `decks` copies of each standard face (and `jokers` printed
jokers). A face is *live* for us when a copy may still reach our hand from the stock: copies
in our hand, the indicator, the discard pile (buried or on top) and cards known to sit in an
opponent's hand (taken from the pile and not thrown again) are not live. Cards shuffled back
into the stock (`recycled`) become live again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.engine.cards import JOKER, Card, Face, standard_faces
from bot.engine.observation import Observation

from .shape import Live

_IN_DEAL = ("active", "dropped", "out")
_STANDARD = standard_faces()


@dataclass(slots=True)
class Tracker:
    """What one seat knows about the cards of the current deal."""

    seat: int
    decks: int
    jokers: int
    players: int
    next_seat: int | None
    # copies of a face we cannot draw: our hand, indicator, pile, known opponent cards
    dead: Counter[Face] = field(default_factory=Counter)
    # faces each opponent is known to hold (taken from the pile, not thrown again)
    holds: dict[int, Counter[Face]] = field(default_factory=dict)
    # faces each opponent took from the pile (all time) and faces they threw or let pass
    took: dict[int, list[Face]] = field(default_factory=dict)
    shunned: dict[int, list[Face]] = field(default_factory=dict)

    @classmethod
    def from_observation(cls, obs: Observation) -> Tracker:
        in_deal = [s.seat for s in obs.seats if s.status in _IN_DEAL]
        players = max(2, len(in_deal))
        try:
            size = obs.rules.deck_size(players)
            decks, jokers = size.decks, size.jokers
        except ValueError:
            decks, jokers = obs.rules.max_copies, 2 * obs.rules.max_copies
        active = [s.seat for s in obs.seats if s.status == "active"]
        nxt = _next_in(active, obs.seat)
        t = cls(obs.seat, decks, jokers, players, nxt)
        for c in obs.hand:
            t.dead[c.face] += 1
        if obs.indicator is not None:
            t.dead[obs.indicator.face] += 1
        for c in obs.pile:
            t.dead[c.face] += 1
        # Replay the pile log: the same physical card may be thrown, taken, thrown again.
        holder: dict[int, int] = {}  # card id -> opponent seat known to hold it
        for i, e in enumerate(obs.pile_history):
            cid = e.card.id
            if e.discarded_by is not None:
                holder.pop(cid, None)
                t.shunned.setdefault(e.discarded_by, []).append(e.card.face)
            if e.taken_by is not None:
                t.took.setdefault(e.taken_by, []).append(e.card.face)
                if e.taken_by != obs.seat:
                    holder[cid] = e.taken_by
            elif e.discarded_by is not None and i + 1 < len(obs.pile_history):
                # Left on the pile: the seat after the thrower saw it and drew from the stock.
                passer = _next_in(in_deal, e.discarded_by)
                if passer is not None and passer != obs.seat:
                    t.shunned.setdefault(passer, []).append(e.card.face)
        cards_by_id: dict[int, Card] = {e.card.id: e.card for e in obs.pile_history}
        for cid, seat in holder.items():
            face = cards_by_id[cid].face
            t.holds.setdefault(seat, Counter())[face] += 1
            t.dead[face] += 1
        return t

    def copies(self, face: Face) -> int:
        return self.jokers if face.is_joker else self.decks

    def live_count(self, face: Face) -> int:
        return max(0, self.copies(face) - self.dead[face])

    def live_standard(self) -> list[tuple[Face, int]]:
        """Every standard face with its live copies."""
        return [(f, self.live_count(f)) for f in _STANDARD]

    def live_table(self) -> Live:
        """Live copies per suit and rank, in the form `shape_cost` reads."""
        rows = []
        for suit in range(4):
            rows.append(tuple([0] + [self.live_count(Face(r, suit)) for r in range(1, 14)]))
        return tuple(rows)

    def unseen_faces(self) -> list[Face]:
        """Every copy of a face whose position we do not know (stock or a hidden hand)."""
        out: list[Face] = []
        for f in [*standard_faces(), JOKER]:
            out.extend([f] * self.live_count(f))
        return out

    def feed_risk(self, face: Face, hand_size: int, wild_rank: int | None) -> float:
        """Chance-like measure that an opponent holding `hand_size` unknown cards could use
        `face` at once: the expected number of pairs it may hold that `face` completes into a
        group of three (two other suits of the rank; the two neighbours, or one on each side,
        in the suit; less, one of those beside a wild card).

        Each unseen copy sits in that hand with probability about `hand_size / unseen`, so a
        pair is held with about that squared. Neighbours we can see (in our hand, on the pile)
        make a card safe: that is the classic "dead card" reading of a discard.
        """
        if face.is_joker or hand_size <= 0:
            return 0.0
        unseen = sum(n for _, n in self.live_standard()) + self.live_count(JOKER)
        if unseen <= 0:
            return 0.0
        p = min(1.0, hand_size / unseen)
        wilds = self.live_count(JOKER)
        if wild_rank is not None:
            wilds += sum(self.live_count(Face(wild_rank, s)) for s in range(4))
        rank, suit = face.rank, face.suit
        pairs = 0.0
        others = [self.live_count(Face(rank, s)) for s in range(4) if s != suit]
        for i in range(len(others)):
            for j in range(i + 1, len(others)):
                pairs += others[i] * others[j]
        singles = sum(others)

        def at(pos: int) -> int:
            if pos < 1 or pos > 14:
                return 0
            return self.live_count(Face(1 if pos == 14 else pos, suit))

        for r in {rank, 14} if rank == 1 else {rank}:
            pairs += at(r - 2) * at(r - 1) + at(r - 1) * at(r + 1) + at(r + 1) * at(r + 2)
            singles += at(r - 2) + at(r - 1) + at(r + 1) + at(r + 2)
        # A wild card beside one neighbour also makes a group, but a player rarely spends a
        # wild card on a taken discard: count those pairs at a quarter.
        pairs += 0.25 * wilds * singles
        return pairs * p * p

    def interest(self, seat: int, face: Face) -> float:
        """How much `seat` seems to collect around `face` (positive: wants it).

        A card taken from the pile says the taker builds with it: same rank (a set) or the same
        suit within two ranks (a run). A card thrown or let pass says the opposite.
        """
        if face.is_joker:
            return 0.0
        score = 0.0
        for f in self.took.get(seat, ()):
            score += _closeness(f, face)
        for f in self.shunned.get(seat, ()):
            score -= 0.5 * _closeness(f, face)
        return score


def _closeness(known: Face, face: Face) -> float:
    if known.is_joker:
        return 0.0
    if known.rank == face.rank:
        return 1.0 if known.suit != face.suit else 0.6
    if known.suit == face.suit:
        d = abs(known.rank - face.rank)
        high = abs((14 if known.rank == 1 else known.rank) - (14 if face.rank == 1 else face.rank))
        d = min(d, high)
        if d == 1:
            return 1.0
        if d == 2:
            return 0.6
    return 0.0


def _next_in(order: list[int], seat: int) -> int | None:
    """The seat after `seat` in table order among `order` (None if nobody else)."""
    others = [s for s in order if s != seat]
    if not others:
        return None
    later = [s for s in others if s > seat]
    return later[0] if later else others[0]
