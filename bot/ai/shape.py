"""How close a hand is to a declaration: a fast structural score for AI players.

The engine's evaluator answers "what would this hand pay now?", which is exactly right at the
end of a deal but nearly blind early on: without a pure sequence every card counts, so the
penalty of two very different hands (one a card away from a pure run, one a heap of unrelated
kings) is the same. Players need a score that also sees *progress*: complete groups, two-card
partial groups that one more card would finish (worth more while the cards that finish them
are still live), wild cards in hand, and whether the two "lives" are in sight.

`shape_cost` is that score, in penalty-point units (lower is better):

* every card outside a group costs its value; a card in a partial group costs a fraction of
  its value that shrinks with the number of live cards that would complete it;
* a dynamic programme per suit finds the cheapest split of that suit into pure runs, partial
  runs (two cards at most one rank apart) and single cards; results are cached by the suit's
  rank counts and live counts, since the same patterns recur all game;
* sets are chosen per rank (complete with three suits, partial with two) and combined with the
  suit tables by a small knapsack over (pure runs, partial runs);
* wild cards upgrade partial groups (an impure run or a set) and missing lives cost a fixed
  amount, less when a pure partial is there to grow into the pure sequence.

It deliberately ignores exotic arrangements (overlapping duplicate runs, wild cards playing as
themselves in pure runs); it is a guide for choosing cards, not a ruling.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from bot.engine.cards import ACE, Card
from bot.engine.rules import Rules

# Value of a rank (index 1..14, 14 = ace played high).
_VAL = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10)

# Fraction of a partial group's value that still counts, by number of live completing cards.
_PARTIAL_FACTOR = (0.9, 0.6, 0.45, 0.38, 0.33, 0.3, 0.3)
# A single card's cost shrinks slightly with live neighbours (it may still grow into a group).
_SINGLE_OUT_DISCOUNT = 0.03

# Cost of missing lives, in penalty points.
NO_PURE_WITH_PARTIAL = 18.0
NO_PURE = 32.0
NO_SECOND_WITH_PARTIAL = 6.0
NO_SECOND = 12.0
WILD_UPGRADE_SAVING = 6.0

# Suit table: (pure runs capped at 2, partial runs capped at 3) -> least cost.
_SuitKey = tuple[int, int]
_SuitTable = dict[_SuitKey, float]

# Live copies per suit and rank: live[suit][rank], rank 1..13 (index 0 unused).
Live = tuple[tuple[int, ...], ...]


def _factor(outs: int) -> float:
    return _PARTIAL_FACTOR[min(outs, len(_PARTIAL_FACTOR) - 1)]


def _add(table: _SuitTable, key: _SuitKey, cost: float) -> None:
    old = table.get(key)
    if old is None or cost < old:
        table[key] = cost


def _shift(sub: _SuitTable, runs: int, partials: int, cost: float, out: _SuitTable) -> None:
    for (r, p), c in sub.items():
        _add(out, (min(2, r + runs), min(3, p + partials)), c + cost)


def _live_at(live: tuple[int, ...], pos: int) -> int:
    """Live copies at a run position (14 is the ace played high)."""
    if pos < 1 or pos > 14:
        return 0
    return live[ACE if pos == 14 else pos]


@lru_cache(maxsize=200_000)
def _suit(counts: tuple[int, ...], live: tuple[int, ...]) -> _SuitTable:
    """Cheapest split of one suit's natural cards (counts[rank], rank 1..13)."""
    r = 1
    while r <= 13 and counts[r] == 0:
        r += 1
    if r > 13:
        return {(0, 0): 0.0}
    rest = list(counts)
    rest[r] -= 1
    base = tuple(rest)
    out: _SuitTable = {}

    # The lowest card stays single.
    outs = sum(_live_at(live, p) for p in (r - 2, r - 1, r + 1, r + 2))
    if r == ACE:
        outs += _live_at(live, 12) + _live_at(live, 13)
    single = _VAL[r] * (1.0 - _SINGLE_OUT_DISCOUNT * min(outs, 6))
    _shift(_suit(base, live), 0, 0, single, out)

    # Pure runs and partial runs starting at this card (ace low), or ending at it (ace high).
    def has(pos: int, cnt: Sequence[int]) -> bool:
        return cnt[ACE if pos == 14 else pos] > 0

    hi = r
    taken = list(base)
    while hi + 1 <= 13 and has(hi + 1, taken):
        hi += 1
        taken[hi] -= 1
        if hi - r + 1 >= 3:
            _shift(_suit(tuple(taken), live), 1, 0, 0.0, out)
    for gap in (1, 2):
        nxt = r + gap
        if nxt <= 13 and base[nxt] > 0:
            rest2 = list(base)
            rest2[nxt] -= 1
            if gap == 1:
                n_outs = _live_at(live, r - 1) + _live_at(live, nxt + 1)
            else:
                n_outs = _live_at(live, r + 1)
            cost = (_VAL[r] + _VAL[nxt]) * _factor(n_outs)
            _shift(_suit(tuple(rest2), live), 0, 1, cost, out)
    if r == ACE:
        # Ace high: Q-K-A (and longer downwards), K-A and Q-A partials.
        taken = list(base)
        lo = 14
        while lo - 1 >= 2 and has(lo - 1, taken):
            lo -= 1
            taken[lo] -= 1
            if 14 - lo + 1 >= 3:
                _shift(_suit(tuple(taken), live), 1, 0, 0.0, out)
        for gap in (1, 2):
            prev = 14 - gap
            if base[prev] > 0:
                rest2 = list(base)
                rest2[prev] -= 1
                n_outs = _live_at(live, 12) if gap == 1 else _live_at(live, 13)
                cost = (10 + _VAL[prev]) * _factor(n_outs)
                _shift(_suit(tuple(rest2), live), 0, 1, cost, out)
    return _prune(out)


def _prune(table: _SuitTable) -> _SuitTable:
    """Keep only entries not beaten on every count by a cheaper one."""
    items = sorted(table.items(), key=lambda kv: kv[1])
    kept: _SuitTable = {}
    for (r, p), c in items:
        if any(r2 >= r and p2 >= p for (r2, p2) in kept):
            continue
        kept[(r, p)] = c
    return kept


def _combine(a: dict[_SuitKey, float], b: _SuitTable) -> dict[_SuitKey, float]:
    out: dict[_SuitKey, float] = {}
    for (r1, p1), c1 in a.items():
        for (r2, p2), c2 in b.items():
            key = (min(2, r1 + r2), min(3, p1 + p2))
            c = c1 + c2
            old = out.get(key)
            if old is None or c < old:
                out[key] = c
    return out


def full_live(rules: Rules, players: int) -> Live:
    """Live counts when nothing is known (every copy of every face unseen)."""
    decks = rules.deck_size(players).decks
    return tuple(tuple([0] + [decks] * 13) for _ in range(4))


# Hands already scored, by (suit patterns, wild cards, largest set, live counts). Rollouts
# score the same hands over and over (the hand before each draw, the same start hand in every
# sampled future), so this saves most of the work; it is a pure function's cache, so it never
# changes an answer. Cleared whole when full: entries are ~200 bytes, 50,000 are ~10 MB.
_SHAPE_CACHE: dict[tuple[int, int, int, int, int, int, Live], float] = {}
_SHAPE_CACHE_LIMIT = 50_000


def shape_cost(cards: Sequence[Card], rules: Rules, wild_rank: int | None, live: Live) -> float:
    """Structural cost of a hand (any size; lower is better). See the module docstring."""
    patterns = [0, 0, 0, 0]
    wilds = 0
    nothing_wild = rules.nothing_wild
    for c in cards:
        f = c.face
        rank = f.rank
        if not nothing_wild and (rank == 0 or rank == wild_rank):
            wilds += 1
        elif rank:  # nothing wild: a joker cannot be in the deck, but be safe
            patterns[f.suit] += 1 << 3 * rank
    set_max = 4 if rules.set_max is None else min(4, rules.set_max)
    key = (patterns[0], patterns[1], patterns[2], patterns[3], wilds, set_max, live)
    cost = _SHAPE_CACHE.get(key)
    if cost is None:
        counts = [[(p >> 3 * r) & 7 for r in range(14)] for p in patterns]
        cost = _shape_cost(counts, wilds, set_max, live)
        if len(_SHAPE_CACHE) >= _SHAPE_CACHE_LIMIT:
            _SHAPE_CACHE.clear()
        _SHAPE_CACHE[key] = cost
    return cost


def _shape_cost(counts: list[list[int]], wilds: int, set_max: int, live: Live) -> float:
    # Per rank with two or more suits: options (suits used, complete?, partial cost).
    rank_opts: list[list[tuple[int, tuple[int, ...], float]]] = []
    for rank in range(1, 14):
        suits = tuple(s for s in range(4) if counts[s][rank] > 0)
        if len(suits) < 2:
            continue
        opts: list[tuple[int, tuple[int, ...], float]] = [(rank, (), 0.0)]
        if len(suits) >= 3:
            opts.append((rank, suits[:set_max], -1.0))
        if len(suits) == 2 or (set_max == 3 and len(suits) == 4):
            missing = [s for s in range(4) if s not in suits[:2]]
            n_outs = sum(live[s][rank] for s in missing)
            opts.append((rank, suits[:2], 2 * _VAL[rank] * _factor(n_outs)))
        rank_opts.append(opts)

    best = float("inf")
    for combo in product(*rank_opts) if rank_opts else [()]:
        local = [list(row) for row in counts]
        set_cost = 0.0
        partial_sets = 0
        for rank, suits, cost in combo:
            if not suits:
                continue
            for s in suits:
                local[s][rank] -= 1
            if cost >= 0:
                set_cost += cost
                partial_sets += 1
        acc: dict[_SuitKey, float] = {(0, 0): 0.0}
        for s in range(4):
            acc = _combine(acc, _suit(tuple(local[s]), live[s]))
        for (pure, partial_runs), cost in acc.items():
            total = cost + set_cost + _finish(pure, partial_runs, partial_sets, wilds)
            if total < best:
                best = total
    return best


def _finish(pure: int, partial_runs: int, partial_sets: int, wilds: int) -> float:
    """Wild-card upgrades and the cost of missing lives."""
    extra = 0.0
    # A wild card turns a partial run into an impure run (a second life) or a partial set
    # into a set. Keep one pure partial unspent when no pure run exists yet.
    spendable_runs = partial_runs - (1 if pure == 0 and partial_runs > 0 else 0)
    used_runs = min(wilds, spendable_runs)
    left = wilds - used_runs
    used_sets = min(left, partial_sets)
    left -= used_sets
    extra -= WILD_UPGRADE_SAVING * (used_runs + used_sets)
    sequences = pure + used_runs + (1 if left >= 2 else 0)
    if pure == 0:
        extra += NO_PURE_WITH_PARTIAL if partial_runs > 0 else NO_PURE
    if sequences < 2:
        spare_partials = partial_runs - used_runs - (1 if pure == 0 else 0)
        extra += NO_SECOND_WITH_PARTIAL if spare_partials > 0 or left > 0 else NO_SECOND
    return extra
