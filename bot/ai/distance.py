"""Distance to a declaration and effective draws: rummy's "shanten" and "ukeire".

Mahjong programs judge a hand by how many tiles it still needs (shanten) and by how many unseen
tiles would bring it one step closer (ukeire). The same two numbers fit 13-card rummy, and they
measure what actually wins a heads-up deal: finishing first.

*Distance.* A declaration is 13 cards split into groups of three or more, with two sequences,
one of them pure. Pick a target declaration that reuses as many of our cards as possible; every
other card must be thrown and replaced by a draw, so the distance is `13 - used`. We look for
the target as a set of *group seeds*: a run window in one suit (the cards we hold in it, the gaps
still to fill, at least three slots), a set of one rank (two or more suits). A seed occupies
`max(3, span)` of the 13 slots; slots left over are filled by later draws (a new group or an
extension). Wild cards in hand fill any slot except a gap of the pure sequence. So

    distance = 13 - max(naturals used + min(wilds, 13 - naturals used - pure gaps))

over every choice of disjoint seeds whose slots fit in 13 and that hold (or leave room for) a
pure sequence and a second one. It ignores whether the missing cards are still live (effective
draws count that) and rare layouts (a wild-rank card playing itself in the pure sequence).

*Effective draws.* For a 13-card hand, the unseen copies (weighted by how many remain unseen) of
every face whose arrival lowers the distance, measured exactly over every face: no sampling.

Speed: each suit is solved once per rank pattern (cached) into a small table keyed by
(sequences, fewest gaps of one sequence, slots) -> most cards used; sets are enumerated per
rank. Whole-hand answers are cached too, since the same hands recur across candidate throws.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product

from bot.engine.cards import Card, Face
from bot.engine.rules import Rules

SLOTS = 13
_NONE = 3  # "no sequence yet" in the fewest-gaps field (a fresh sequence needs 3 cards)

# (sequences capped at 2, fewest gaps of one sequence, slots) -> most natural cards used
_Table = dict[tuple[int, int, int], int]


def _put(table: _Table, key: tuple[int, int, int], used: int) -> None:
    if table.get(key, -1) < used:
        table[key] = used


@lru_cache(maxsize=50_000)
def _suit(counts: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """Seeds of one suit: every useful way to split its natural cards into run windows.

    `counts[rank]` for rank 1..13 (index 0 unused). Returns (sequences, fewest gaps, slots,
    used) tuples; a card outside every window is simply thrown."""
    low = next((r for r in range(1, 14) if counts[r]), 0)
    if not low:
        return ((0, _NONE, 0, 0),)
    table: _Table = {}
    rest = list(counts)
    rest[low] -= 1
    for runs, gaps, slots, used in _suit(tuple(rest)):  # the lowest card is thrown
        _put(table, (runs, gaps, slots), used)

    def windows(positions: list[int]) -> None:
        """Seed windows over consecutive `positions` (a rank list, ace high as 14)."""
        left = list(counts)
        used = 0
        for i, pos in enumerate(positions):
            rank = 1 if pos == 14 else pos
            if left[rank] <= 0:
                continue
            left[rank] -= 1
            used += 1
            span = i + 1
            size = max(3, span)
            gaps = size - used
            if gaps > 2:
                break
            for runs, g, slots, u in _suit(tuple(left)):
                if slots + size <= SLOTS:
                    _put(table, (min(2, runs + 1), min(g, gaps), slots + size), u + used)

    windows(list(range(low, min(13, low + 12) + 1)))
    if low == 1:  # the ace played high: windows from a held card up to the ace (Q-K-A, ...)
        for start in range(13, 1, -1):
            left = list(counts)
            left[1] -= 1
            used = 1
            for rank in range(start, 14):
                if left[rank] > 0:
                    left[rank] -= 1
                    used += 1
            size = max(3, 15 - start)
            gaps = size - used
            if gaps > 2:
                break
            if not counts[start]:
                continue
            for runs, g, slots, u in _suit(tuple(left)):
                if slots + size <= SLOTS:
                    _put(table, (min(2, runs + 1), min(g, gaps), slots + size), u + used)
    return _prune(table)


def _prune(table: _Table) -> tuple[tuple[int, int, int, int], ...]:
    """Drop entries another entry beats on every count (more sequences, fewer gaps, fewer
    slots, more cards used)."""
    items = sorted(table.items(), key=lambda kv: (-kv[1], kv[0][2]))
    kept: list[tuple[int, int, int, int]] = []
    for (runs, gaps, slots), used in items:
        if any(r >= runs and g <= gaps and s <= slots and u >= used for r, g, s, u in kept):
            continue
        kept.append((runs, gaps, slots, used))
    return tuple(kept)


def _merge(a: dict[int, int], b: Sequence[tuple[int, int, int, int]]) -> dict[int, int]:
    """Every pairing of two partial answers that fits the 13 slots, keyed
    `sequences << 6 | gaps << 4 | slots`, keeping the most cards used per key and dropping a
    key when one of the same sequences and gaps uses as many cards in fewer slots."""
    out: dict[int, int] = {}
    get = out.get
    for k1, u1 in a.items():
        r1 = k1 >> 6
        g1 = (k1 >> 4) & 3
        s1 = k1 & 15
        for r2, g2, s2, u2 in b:
            s = s1 + s2
            if s > SLOTS:
                continue
            r = r1 + r2
            if r > 2:
                r = 2
            k = (r << 6) | ((g1 if g1 < g2 else g2) << 4) | s
            u = u1 + u2
            if get(k, -1) < u:
                out[k] = u
    kept: dict[int, int] = {}
    best = -1
    group = -1
    for k in sorted(out):
        if k >> 4 != group:
            group, best = k >> 4, -1
        u = out[k]
        if u > best:
            kept[k] = u
            best = u
    return kept


def _best(states: dict[int, int], wilds: int) -> int:
    """Most cards (natural and wild) a target declaration can reuse."""
    best = 0
    for k, used in states.items():
        runs = k >> 6
        gaps = (k >> 4) & 3
        slots = k & 15
        if runs == 0:  # two fresh sequences: one pure (three gaps), one that wilds may fill
            slots += 6
            gaps = _NONE
        elif runs == 1:
            slots += 3
        if slots > SLOTS:
            continue
        f = used + min(wilds, SLOTS - used - gaps)
        if f > best:
            best = f
    return best


_EMPTY = ((0, _NONE, 0, 0),)


@lru_cache(maxsize=50_000)
def _suit_of(pattern: int) -> tuple[tuple[int, int, int, int], ...]:
    """`_suit` for a packed pattern (3 bits per rank)."""
    return _suit(tuple((pattern >> 3 * r) & 7 for r in range(14)))


@lru_cache(maxsize=50_000)
def _most(pattern: int) -> int:
    """The suit's best `3 * used - slots` (its share of the bound in `reused`)."""
    return max(3 * u - s for _, _, s, u in _suit_of(pattern))


_HAND_CACHE: dict[tuple[tuple[int, ...], int, int], int] = {}  # (patterns, wilds, set_max)
_HAND_CACHE_LIMIT = 200_000


@lru_cache(maxsize=4096)
def _set_options(
    have: tuple[int, int, int, int], set_max: int, rank: int
) -> list[tuple[tuple[int, int, int, int], int, int]]:
    """Set seeds of this rank given the copies held per suit: none, one set of two up to
    `set_max` suits, or (with duplicates) two such sets, each option as (pattern to subtract
    per suit, cards used, slots). Ordered by size, the largest last."""
    suits = [s for s in range(4) if have[s]]
    singles: list[tuple[int, ...]] = []
    for mask in range(1, 1 << len(suits)):
        if 2 <= mask.bit_count() <= set_max:
            singles.append(tuple(suits[i] for i in range(len(suits)) if mask >> i & 1))
    picks: list[list[tuple[int, ...]]] = [[], *([x] for x in singles)]
    if any(n >= 2 for n in have):
        for i, x in enumerate(singles):
            for y in singles[i:]:
                if all(have[s] >= (s in x) + (s in y) for s in range(4)):
                    picks.append([x, y])
    out: list[tuple[tuple[int, int, int, int], int, int]] = []
    for pick in picks:
        delta = [0, 0, 0, 0]
        for group in pick:
            for s in group:
                delta[s] += 1 << 3 * rank
        used = sum(len(g) for g in pick)
        slots = sum(max(3, len(g)) for g in pick)
        out.append(((delta[0], delta[1], delta[2], delta[3]), used, slots))
    out.sort(key=lambda o: (o[1], o[0]))
    return out


def _isolated(row: Sequence[int], rank: int) -> bool:
    """No other card of the suit within two ranks (the ace counts both low and high)."""
    positions = (1, 14) if rank == 1 else (rank,)
    for p in positions:
        for q in (p - 2, p - 1, p + 1, p + 2):
            if 1 <= q <= 14 and row[1 if q == 14 else q]:
                return False
    return True


def reused(patterns: tuple[int, ...], wilds: int, set_max: int) -> int:
    """Most cards of the hand a target declaration keeps (see the module docstring).

    `patterns[suit]` packs the natural cards of a suit, 3 bits per rank (rank r at bits 3r)."""
    key = (patterns, wilds, set_max)
    hit = _HAND_CACHE.get(key)
    if hit is not None:
        return hit
    counts = [[(p >> 3 * r) & 7 for r in range(14)] for p in patterns]
    full: list[list[tuple[tuple[int, int, int, int], int, int]]] = []
    narrow: list[list[tuple[tuple[int, int, int, int], int, int]]] = []
    forced_slots = 0
    for rank in range(1, 14):
        suits = tuple(s for s in range(4) if counts[s][rank])
        if len(suits) < 2:
            continue
        have = (counts[0][rank], counts[1][rank], counts[2][rank], counts[3][rank])
        opts = _set_options(have, set_max, rank)
        full.append(opts)
        if all(_isolated(counts[s], rank) for s in suits):
            # Cards with no neighbour in their suit are never better off outside the set.
            forced = opts[-1]  # the largest set allowed
            forced_slots += forced[2]
            narrow.append([forced])
        else:
            narrow.append(opts)
    rank_opts = narrow if forced_slots <= SLOTS - 6 else full  # two sequences need 6
    # Bound every set choice first, then solve them best bound first until no bound can beat
    # the best answer found. The bound is a Lagrangian relaxation of the 13 slots: with
    # lambda = 1/3, used <= sum(used - slots / 3) + 13 / 3, and that sum splits by suit.
    plans: list[tuple[int, int, int, tuple[int, int, int, int]]] = []
    p0, p1, p2, p3 = patterns
    for combo in product(*rank_opts) if rank_opts else [()]:
        q0, q1, q2, q3 = p0, p1, p2, p3
        set_used = 0
        set_slots = 0
        for (d0, d1, d2, d3), used, slots in combo:
            q0 -= d0
            q1 -= d1
            q2 -= d2
            q3 -= d3
            set_used += used
            set_slots += slots
        if set_slots > SLOTS:
            continue
        bound3 = (
            3 * set_used - set_slots + SLOTS
            + _most(q0) + _most(q1) + _most(q2) + _most(q3)
        )  # fmt: skip
        plans.append((bound3, set_used, set_slots, (q0, q1, q2, q3)))
    plans.sort(key=lambda p: -p[0])
    best = 0
    for bound3, set_used, set_slots, local in plans:
        if min(SLOTS, bound3 // 3 + wilds) <= best:
            break
        states = {_NONE << 4 | set_slots: set_used}
        for table in sorted((_suit_of(q) for q in local), key=len):
            if table != _EMPTY:
                states = _merge(states, table)
        f = _best(states, wilds)
        if f > best:
            best = f
            if best >= SLOTS:
                break
    if len(_HAND_CACHE) >= _HAND_CACHE_LIMIT:
        _HAND_CACHE.clear()
    _HAND_CACHE[key] = best
    return best


class HandCode:
    """A hand packed for `reused`: natural patterns per suit, the number of printed jokers,
    and the wild-rank cards (kept apart: each may play as a wild card or as itself)."""

    __slots__ = ("jokers", "patterns", "wild_rank", "wild_suits")

    def __init__(
        self, patterns: list[int], jokers: int, wild_suits: tuple[int, ...], wild_rank: int
    ) -> None:
        self.patterns = patterns
        self.jokers = jokers
        self.wild_suits = wild_suits
        self.wild_rank = wild_rank

    @classmethod
    def of(cls, cards: Iterable[Card], rules: Rules, wild_rank: int | None) -> HandCode:
        code = cls([0, 0, 0, 0], 0, (), wild_rank or 0)
        for c in cards:
            code = code.plus(c.face, rules.is_wild(c.face, wild_rank))
        return code

    def plus(self, face: Face, wild: bool) -> HandCode:
        if face.is_joker:
            return HandCode(self.patterns, self.jokers + 1, self.wild_suits, self.wild_rank)
        if wild and face.rank == self.wild_rank:
            suits = tuple(sorted((*self.wild_suits, face.suit)))
            return HandCode(self.patterns, self.jokers, suits, self.wild_rank)
        if wild:  # wild without being of the wild rank: counts as a joker
            return HandCode(self.patterns, self.jokers + 1, self.wild_suits, self.wild_rank)
        p = list(self.patterns)
        p[face.suit] += 1 << 3 * face.rank
        return HandCode(p, self.jokers, self.wild_suits, self.wild_rank)

    def minus(self, face: Face, wild: bool) -> HandCode:
        if face.is_joker or (wild and face.rank != self.wild_rank):
            return HandCode(self.patterns, self.jokers - 1, self.wild_suits, self.wild_rank)
        if wild:
            suits = list(self.wild_suits)
            suits.remove(face.suit)
            return HandCode(self.patterns, self.jokers, tuple(suits), self.wild_rank)
        p = list(self.patterns)
        p[face.suit] -= 1 << 3 * face.rank
        return HandCode(p, self.jokers, self.wild_suits, self.wild_rank)


def set_limit(rules: Rules) -> int:
    return 4 if rules.set_max is None else min(4, rules.set_max)


def distance(code: HandCode, set_max: int) -> int:
    """Draws still needed to declare (for 14 cards: after the best throw).

    A wild-rank card may play as itself, in a pure sequence: every wild-rank card with a
    same-suit neighbour is tried both ways."""
    wilds = code.jokers + len(code.wild_suits)
    best = reused(tuple(code.patterns), wilds, set_max)
    if best >= SLOTS or not code.wild_suits:
        return SLOTS - best
    wr = code.wild_rank
    natural = [s for s in code.wild_suits if not _lone(code.patterns[s], wr)]
    for mask in range(1, 1 << len(natural)):
        p = list(code.patterns)
        n = 0
        for i, s in enumerate(natural):
            if mask >> i & 1:
                p[s] += 1 << 3 * wr
                n += 1
        best = max(best, reused(tuple(p), wilds - n, set_max))
    return SLOTS - best


def effective_draws(
    code: HandCode,
    unseen: Counter[Face],
    rules: Rules,
    wild_rank: int | None,
    set_max: int,
    now: int | None = None,
) -> tuple[int, int]:
    """(distance of the 13-card `code`, unseen copies whose draw lowers it)."""
    d = distance(code, set_max) if now is None else now
    good = 0
    joker_helps: bool | None = None
    lone_helps: bool | None = None
    patterns = code.patterns
    held_ranks = 0
    for p in patterns:
        for r in range(1, 14):
            if (p >> 3 * r) & 7:
                held_ranks |= 1 << r
    for r in (code.wild_rank,) if code.wild_suits else ():
        held_ranks |= 1 << r
    for face, n in unseen.items():
        if n <= 0:
            continue
        if face.is_joker:  # every printed joker is the same draw
            if joker_helps is None:
                joker_helps = distance(code.plus(face, True), set_max) < d
            if joker_helps:
                good += n
            continue
        wild = rules.is_wild(face, wild_rank)
        if not wild and not held_ranks >> face.rank & 1 and _lone(patterns[face.suit], face.rank):
            # A card with no held neighbour and no held card of its rank can only start a new
            # group; every such card changes the distance the same way.
            if lone_helps is None:
                lone_helps = distance(code.plus(face, False), set_max) < d
            if lone_helps:
                good += n
            continue
        if distance(code.plus(face, wild), set_max) < d:
            good += n
    return d, good


def _lone(pattern: int, rank: int) -> bool:
    """No card of the suit within two ranks (ace both low and high) in `pattern`."""
    for p in (1, 14) if rank == 1 else (rank,):
        for q in (p - 2, p - 1, p + 1, p + 2):
            if 1 <= q <= 14 and (pattern >> 3 * (1 if q == 14 else q)) & 7:
                return False
    return True
