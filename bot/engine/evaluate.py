"""Hand evaluation: is a hand a valid declaration, and what is the least it can be made to pay?

How it works, and why it is fast enough to run on every click:

* Wild cards (printed jokers and every card of the wild rank) count 0 whether matched or not,
  so they never add deadwood. They are a *budget* of substitutes. The only place a wild-rank
  card is worth more as itself is inside a pure sequence, where it keeps the run pure.
* A group is either a set (one rank, across suits) or a sequence (one suit, across ranks). So
  the search splits in two: first choose which natural cards form sets (few choices: a set
  needs two natural cards of one rank, since one natural card plus two wild cards is just as
  good as a sequence), then solve each suit on its own for sequences.
* A suit's answer depends only on which ranks it holds (and its wild-rank cards and the
  substitute budget), not on the suit itself or the other suits. Most suits hold few cards,
  so the answers for every pattern of up to five cards are computed once per process (about
  0.1-0.3 s of CPU, ~4 MB) and a hand never seen before still finds most of its suit tables
  ready: it solves about two bigger patterns, each over precomputed sub-patterns. Bigger
  answers are cached within a memory bound. A wild-rank card that has no natural card of its
  suit beside its position can only ever be a substitute, so it is dropped from the key, and
  hands that differ only in such a card share answers.
* A 14-card evaluation rules on each distinct discard; one discard changes one suit (or, for a
  wild card, only the budget), so the other suits' tables and pure runs are remembered for
  the length of the ruling.
* A suit's answer is a small table: for each (substitutes used, has a pure run, runs 0/1/2+)
  the most card value its runs can protect, with a witness. Four tables are combined with a
  tiny knapsack over the substitute budget, and the rules of docs/rules.md decide what counts:
  no pure run, every card counts; a lone pure run is protected or not per profile; with both
  lives every group is protected and only leftovers count. Set choices that cannot beat the
  best so far are ruled out by a value bound, then by a combine that keeps no witnesses.
* The layout (which cards form which group) is rebuilt from the winning table entries only
  when someone looks at it. Validity does not need it: with both lives and no deadwood,
  spare wild cards always have a group to join (see `_rule`).

The reference evaluator in `reference.py` answers the same questions by brute force over every
subset; the tests compare the two on thousands of hands.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, islice, product
from typing import NamedTuple

from .cards import ACE, Card, Face
from .groups import GroupKind
from .rules import LonePure, Rules

# ---- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Group:
    """A group as the engine shows it: cards in display order (runs low to high)."""

    kind: GroupKind
    cards: tuple[Card, ...]

    def codes(self) -> list[str]:
        return [c.code for c in self.cards]


class Evaluation:
    """The ruling on 13 cards: validity, least deadwood, capped penalty, and a best layout.

    `sum(value of leftover) == deadwood` always holds (wild cards count 0), and every group is
    valid on its own, so the layout can be shown to players as the engine's justification.

    The layout (`groups`, `leftover`) is built on first access: a 14-card ruling makes one
    Evaluation per candidate discard, and callers look at the layout of one of them at most.
    Treat instances as immutable (equality and hashing follow all five fields).
    """

    __slots__ = ("_build", "_groups", "_leftover", "deadwood", "penalty", "valid")

    def __init__(
        self,
        valid: bool,
        deadwood: int,
        penalty: int,
        groups: tuple[Group, ...] = (),
        leftover: tuple[Card, ...] = (),
        build: Callable[[], tuple[tuple[Group, ...], tuple[Card, ...]]] | None = None,
    ) -> None:
        self.valid = valid
        self.deadwood = deadwood
        self.penalty = penalty
        self._groups = groups
        self._leftover = leftover
        self._build = build

    def _materialise(self) -> None:
        if self._build is not None:
            self._groups, self._leftover = self._build()
            self._build = None

    @property
    def groups(self) -> tuple[Group, ...]:
        self._materialise()
        return self._groups

    @property
    def leftover(self) -> tuple[Card, ...]:
        self._materialise()
        return self._leftover

    def _fields(self) -> tuple[object, ...]:
        return (self.valid, self.deadwood, self.penalty, self.groups, self.leftover)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Evaluation) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Evaluation(valid={self.valid!r}, deadwood={self.deadwood!r}, "
            f"penalty={self.penalty!r}, groups={self.groups!r}, leftover={self.leftover!r})"
        )


@dataclass(frozen=True, slots=True)
class DrawnEvaluation:
    """The ruling on 14 cards (after a draw): which discards win, which discard is best."""

    declarable: bool
    winning_discards: tuple[Card, ...]  # one physical card per distinct winning face
    best_discard: Card
    best: Evaluation  # the 13 cards left after `best_discard`
    by_discard: tuple[tuple[Card, Evaluation], ...]  # one entry per distinct discardable face


# ---- per-suit sequence tables ------------------------------------------------------------------
#
# Everything in the search is a small integer, so that a cold hand (no table cached yet) builds
# no objects beyond the tables themselves:
#
# * a suit's natural cards are a *pattern*: two bits per rank, `count << 2 * rank` (a suit holds
#   at most three copies of a face: three decks). Taking a card away is a subtraction.
# * a table key packs (substitutes used w, has a pure run p, runs capped at 2 s) as
#   `w << 3 | p << 2 | s`; a table is a tuple of `(key, value)` pairs, the entries nothing
#   else dominates, in a fixed order. Keys and values are below 256 and every pair is interned
#   (`_PAIRS`), so a cached table costs one small tuple of shared pointers.
# * tables hold values only. The runs behind the winning entries are recovered afterwards by
#   walking the same choices again (`_suit_runs`), once per evaluation instead of once per
#   table entry.

# A sequence found by a suit solver, independent of the suit: the positions of the natural
# cards it uses (1..14; 14 is a high ace), how many substitutes it needs, whether it is pure.
_Seq = tuple[tuple[int, ...], int, bool]
_Table = tuple[tuple[int, int], ...]  # ((key, value), ...)
# A way to place the lowest card of a pattern in a run:
# (rest pattern, wild-rank cards used as themselves, substitutes spent, pure bit, value,
#  bitmask of the run's positions: natural cards, and wild-rank cards playing themselves)
_Option = tuple[int, int, int, int, int, int]

_VALUES = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10)  # index: position 0..14
_RANK_AT: tuple[int, ...] = (0, *range(1, 14), ACE)  # position 1..14 -> rank (14: high ace)
_SHIFT: tuple[int, ...] = tuple(2 * _RANK_AT[p] for p in range(15))  # position -> pattern shift
_ONE: tuple[int, ...] = tuple(1 << s for s in _SHIFT)  # position -> one card in a pattern
_PURE = 4  # the p bit of a table key
_EMPTY_TABLE: _Table = ((0, 0),)
# The order of table entries, by key: fewest substitutes first, then pure before not, then
# more runs before fewer (a budget never exceeds the 13 cards of a hand, so w < 16).
_KEY_ORDER: tuple[int, ...] = tuple((k >> 3) * 8 - (k & 7) for k in range(16 << 3))
# Every (key, value) pair in use, shared by all tables (at most 112 keys x 256 values).
_PAIRS: dict[tuple[int, int], tuple[int, int]] = {}

# The suit-table cache is bounded by memory, not by entry count: every entry is charged the
# size of its table tuple plus its key and its share of the dict (see `_ENTRY_OVERHEAD`), and
# the oldest half is dropped when the total passes `CACHE_BYTES`. The benchmark measures the
# real footprint with tracemalloc and prints it beside this estimate.
CACHE_BYTES = 24 * 1024 * 1024
# A key int (32 bytes) plus a dict slot: 24-byte entry + 8-byte index at a load of 1/2 to 2/3.
_ENTRY_OVERHEAD = 32 + 64
_CACHE: dict[int, _Table] = {}
_cache_bytes = 0
_stats = [0, 0, 0]  # lookups that hit the cache, that missed it, answered by `_STATIC`
_LOW_BITS = int("01" * 15, 2)  # the low bit of every rank's count in a pattern
# For each wild rank, the pattern bits of the ranks that sit beside its position(s) in a run
# (an ace is beside both the 2 and the king). Index 0 (nothing wild) has no neighbours.
_NEAR_WR: tuple[int, ...] = (
    0,
    *(
        sum(
            3 << _SHIFT[q]
            for p in ((1, 14) if wr == ACE else (wr,))
            for q in (p - 1, p + 1)
            if 1 <= q <= 14
        )
        for wr in range(1, 14)
    ),
)


def _rank_of(pos: int) -> int:
    return _RANK_AT[pos]


def _suit_table(pattern: int, wr: int, wr_n: int, budget: int) -> _Table:
    """Best runs within one suit, for every (substitutes used, pure?, runs) the suit can reach.

    `pattern` holds the suit's non-wild cards; `wr` is the wild rank (0 if none) and `wr_n`
    how many wild-rank cards of this suit may be used as themselves (each one taken from the
    substitute budget when used so).

    Small patterns are answered from the precomputed `_STATIC` table; the rest are solved and
    kept in the bounded cache. Both are keyed on the *normalised* wild-rank arguments
    (`_normal_wr`), so hands that differ only in a wild-rank card nothing can use share a table.
    """
    if wr_n:
        wr, wr_n = _normal_wr(pattern, wr, wr_n)
    else:
        wr = 0
    base = pattern | wr << 28 | wr_n << 32
    if budget <= STATIC_BUDGET:
        tables = _STATIC.get(base)
        if tables is not None:
            _stats[2] += 1
            return tables[budget]
    key = base | budget << 36
    table = _CACHE.get(key)
    if table is not None:
        _stats[0] += 1
        return table
    _stats[1] += 1
    table = _solve_suit(pattern, wr, wr_n, budget)
    _remember(key, table)
    return table


def _normal_wr(pattern: int, wr: int, wr_n: int) -> tuple[int, int]:
    """The wild-rank arguments that give the same table, in their smallest form.

    A wild-rank card playing itself only ever sits in a pure run, and a pure run through the
    wild rank's position holds a natural card right beside it. With no natural card beside
    that position (`_NEAR_WR`) the card can only be a substitute, which the budget already
    counts: the table is the one without it. And each such run holds at most one wild-rank
    card and at least two natural cards, so more than half the pattern's card count of them
    can never all play themselves.
    """
    if not pattern & _NEAR_WR[wr]:
        return 0, 0
    most = _count(pattern) >> 1
    if wr_n > most:
        wr_n = most
    return (wr, wr_n) if wr_n else (0, 0)


def _count(pattern: int) -> int:
    """How many cards a pattern holds (each rank's two bits are a count 0..3)."""
    return (pattern & _LOW_BITS).bit_count() + 2 * ((pattern >> 1) & _LOW_BITS).bit_count()


# ---- the precomputed table of small suit patterns ---------------------------------------------
#
# A suit rarely holds more than five natural cards once sets are taken out, and the solver's
# recursion only ever asks about smaller patterns than the one it solves. So every pattern of
# up to `STATIC_CARDS` cards is solved once, for the largest budget a hand usually has
# (`STATIC_BUDGET`); up to `STATIC_WR_CARDS` cards also with every wild rank that can matter
# to it (the variants multiply the count, so the larger patterns go without). A cold hand then
# finds most of its suit tables here and solves only its few bigger suits, each mostly in one
# step over precomputed sub-tables. The table is built on the first evaluation
# (`build_tables`, about 0.1-0.3 s) rather than at import, so that processes which only import
# the engine do not pay for it; it is never cleared.
#
# One solve serves every smaller budget too: a table's entries are sorted by substitutes used
# and a budget only cuts entries off the end (substitutes only add up, so no entry within a
# smaller budget is ever built from one beyond it, and dominance only looks at entries that use
# fewer). `_STATIC[base]` therefore holds one table per budget 0..STATIC_BUDGET, and a budget
# whose cut changes nothing shares the tuple of the one below.

STATIC_CARDS = 5  # patterns this small are precomputed without a usable wild-rank card
STATIC_WR_CARDS = 3  # and this small with one
STATIC_BUDGET = 6
_STATIC: dict[int, tuple[_Table, ...]] = {}
_static_build = [0.0, 0.0]  # seconds the build took: wall clock, CPU of this process


def _small_patterns(max_cards: int) -> list[int]:
    """Every suit pattern with at most `max_cards` cards (at most three of a rank), smallest
    first, so that a pattern's sub-patterns are always done before it."""
    out: list[int] = [0]
    frontier = [(0, 1)]  # (pattern, lowest rank still allowed to be added)
    for _ in range(max_cards):
        grown: list[tuple[int, int]] = []
        for pattern, low in frontier:
            for rank in range(low, 14):
                if (pattern >> 2 * rank) & 3 < 3:
                    bigger = pattern + (1 << 2 * rank)
                    grown.append((bigger, rank))
                    out.append(bigger)
        frontier = grown
    return out


def build_tables() -> None:
    """Build the precomputed suit tables if not done yet (the first evaluation does it)."""
    if not _STATIC:
        _build_static()


def _build_static() -> None:
    start, start_cpu = time.perf_counter(), time.process_time()
    for pattern in _small_patterns(STATIC_CARDS):
        variants = [(0, 0)]
        most = _count(pattern) >> 1
        for wr in range(1, 14 if _count(pattern) <= STATIC_WR_CARDS else 1):
            if pattern & _NEAR_WR[wr]:
                variants += [(wr, n) for n in range(1, most + 1)]
        for wr, wr_n in variants:
            full = _solve_suit(pattern, wr, wr_n, STATIC_BUDGET)
            # ends[b]: how many entries use at most b substitutes (entries are in that order)
            ends = [0] * (STATIC_BUDGET + 1)
            for k, _ in full:
                ends[k >> 3] += 1
            by_budget: list[_Table] = []
            n = 0
            for budget in range(STATIC_BUDGET + 1):
                if by_budget and not ends[budget]:
                    by_budget.append(by_budget[-1])  # nothing new within this budget
                else:
                    n += ends[budget]
                    by_budget.append(full if n == len(full) else full[:n])
            _STATIC[pattern | wr << 28 | wr_n << 32] = tuple(by_budget)
    _static_build[:] = [time.perf_counter() - start, time.process_time() - start_cpu]


def _remember(key: int, table: _Table) -> None:
    global _cache_bytes
    size = 40 + 8 * len(table) + _ENTRY_OVERHEAD  # == sys.getsizeof(table) + overhead
    if _cache_bytes + size > CACHE_BYTES:
        # Drop the oldest half (dicts keep insertion order): recent patterns recur most.
        drop = list(islice(_CACHE, len(_CACHE) // 2 + 1))
        for k in drop:
            _cache_bytes -= 40 + 8 * len(_CACHE.pop(k)) + _ENTRY_OVERHEAD
    _CACHE[key] = table
    _cache_bytes += size


def _lowest(pattern: int) -> int:
    """The lowest rank present in a non-empty pattern."""
    return ((pattern & -pattern).bit_length() - 1) >> 1


def _options(pattern: int, wr: int, wr_n: int, budget: int) -> list[_Option]:
    """Every run through the lowest card of `pattern`, in a fixed order.

    The solver and the witness walk both read this list, so they cannot disagree.
    """
    r = _lowest(pattern)
    base = pattern - (1 << 2 * r)
    out: list[_Option] = []

    # Pure runs through this card. It is the lowest natural card left, so the run starts
    # here, or one lower when that position is a wild-rank card used as itself.
    if r == ACE:
        _pure_up(out, base, wr, wr_n, budget, 1, 1)
        # Q-K-A style: the run ends at this ace and extends downwards.
        rest, used, value, mask, lo = base, 0, 10, 1 << 14, 14
        while lo > 2:
            pos = lo - 1
            rank = _RANK_AT[pos]
            if rank == wr:
                if wr_n <= used:
                    break
                used += 1
            elif (rest >> _SHIFT[pos]) & 3:
                rest -= _ONE[pos]
                value += _VALUES[pos]
            else:
                break
            mask |= 1 << pos
            lo = pos
            if lo <= 12 and used <= budget:
                out.append((rest, used, used, _PURE, value, mask))
    else:
        _pure_up(out, base, wr, wr_n, budget, r, r)
        if r >= 2 and r - 1 == wr and wr_n > 0:
            _pure_up(out, base, wr, wr_n, budget, r - 1, r)

    # Impure runs whose lowest natural card is this one (or, for an ace, whose highest is this
    # ace played high). Natural cards in between may be taken or skipped; each skipped or
    # missing position costs one substitute.
    if budget >= 1:
        if r == ACE:
            _impure(out, base, budget, 1, 1, 13)
            _impure(out, base, budget, 14, -1, 2)
        else:
            _impure(out, base, budget, r, 1, min(14, r + 12))
    return out


def _pure_up(
    out: list[_Option], base: int, wr: int, wr_n: int, budget: int, lo: int, anchor: int
) -> None:
    """Pure runs from `lo` upwards through `anchor` (already out of `base`)."""
    rest, used, value, mask = base, 0, 0, 0
    for pos in range(lo, anchor + 1):  # lo is the anchor or a wild-rank card below it
        if _RANK_AT[pos] == wr:
            used += 1
        else:
            value += _VALUES[pos]
        mask |= 1 << pos
    hi = anchor
    while hi < 14 and hi - lo < 12:
        pos = hi + 1
        rank = _RANK_AT[pos]
        if rank == wr:
            if wr_n <= used:
                break
            used += 1
        elif (rest >> _SHIFT[pos]) & 3:
            rest -= _ONE[pos]
            value += _VALUES[pos]
        else:
            break
        mask |= 1 << pos
        hi = pos
        if hi - lo >= 2 and used <= budget:
            out.append((rest, used, used, _PURE, value, mask))


def _impure(out: list[_Option], base: int, budget: int, anchor: int, step: int, limit: int) -> None:
    """Impure runs from `anchor` going in direction `step` (the anchor is in the run)."""
    cands = [p for p in range(anchor + step, limit + step, step) if (base >> _SHIFT[p]) & 3]
    n = len(cands)

    def walk(i: int, last: int, value: int, gaps: int, n_nat: int, rest: int, mask: int) -> None:
        span = last - anchor + 1 if step > 0 else anchor - last + 1
        need = (span if span > 3 else 3) - n_nat
        # Record the run ending at the last taken card, unless it is really a pure run.
        if need <= budget and (gaps or n_nat < 3):
            out.append((rest, 0, need, 0, value, mask))
        for j in range(i, n):
            p = cands[j]
            g = gaps + (p - last if step > 0 else last - p) - 1
            if g > budget:
                break
            walk(j + 1, p, value + _VALUES[p], g, n_nat + 1, rest - _ONE[p], mask | 1 << p)

    walk(0, anchor, _VALUES[anchor], 0, 1, base, 1 << anchor)


def _solve_suit(pattern: int, wr: int, wr_n: int, budget: int) -> _Table:
    if pattern == 0:
        return _EMPTY_TABLE
    r = _lowest(pattern)
    # Option 1: the lowest card stays out of any run (it may still be deadwood or in a set).
    sub = _suit_table(pattern - (1 << 2 * r), wr, wr_n, budget)
    table: dict[int, int] = dict(sub)
    get = table.get
    for rest, used, extra, pure, value, _mask in _options(pattern, wr, wr_n, budget):
        room = budget - extra
        for k, v in _suit_table(rest, wr, wr_n - used, budget):
            if k >> 3 > room:
                break  # entries come in order of substitutes used
            nk = k + (extra << 3) & ~3 | pure | (2 if k & 3 else 1)
            nv = v + value
            if nv > get(nk, -1):
                table[nk] = nv
    return _prune(table)


def _prune(table: dict[int, int]) -> _Table:
    """Drop entries that use more substitutes for no more value and no better lives."""
    pairs = _PAIRS
    if len(table) == 1:
        kv = next(iter(table.items()))
        return (pairs.setdefault(kv, kv),)
    # Fewest substitutes first, then pure before not, more runs before fewer.
    out: list[tuple[int, int]] = []
    for k in sorted(table, key=_KEY_ORDER.__getitem__):
        v = table[k]
        kv = (k, v)
        p, s = k & 4, k & 3
        for k2, v2 in out:
            if v2 >= v and (k2 & 4) >= p and (k2 & 3) >= s:  # w2 <= w by the order
                break
        else:
            out.append(pairs.setdefault(kv, kv))
    return tuple(out)


def _suit_runs(pattern: int, wr: int, wr_n: int, budget: int, key: int, value: int) -> list[_Seq]:
    """The runs behind entry (`key`, `value`) of this suit's table: the solver's choices again.

    Options are tried in the solver's order and the first that reaches the entry is taken,
    which is the choice the solver kept (it replaces an entry only by a strictly better one).
    """
    if wr_n == 0:
        wr = 0
    runs: list[_Seq] = []
    while pattern:
        r = _lowest(pattern)
        base = pattern - (1 << 2 * r)
        if _has_entry(_suit_table(base, wr, wr_n, budget), key, value):
            pattern = base
            continue
        for rest, used, extra, pure, run_value, mask in _options(pattern, wr, wr_n, budget):
            sub = _suit_table(rest, wr, wr_n - used, budget)
            found = _source_entry(sub, key, value - run_value, extra, pure, budget)
            if found is not None:
                key, value = found
                positions = [p for p in range(15) if mask >> p & 1]
                runs.append((tuple(positions), 0 if pure else extra, bool(pure)))
                pattern, wr_n = rest, wr_n - used
                break
        else:  # pragma: no cover - a solver bug
            raise RuntimeError("suit table entry has no witness")
    runs.reverse()  # the order the cached witnesses used to have (innermost run first)
    return runs


def _has_entry(table: _Table, key: int, value: int) -> bool:
    return (key, value) in table


def _source_entry(
    sub: _Table, key: int, value: int, extra: int, pure: int, budget: int
) -> tuple[int, int] | None:
    for k, v in sub:
        w = (k >> 3) + extra
        if w > budget or v != value:
            continue
        if w << 3 | (k & 4) | pure | (2 if k & 3 else 1) == key:
            return k, v
    return None


# ---- combining suits, sets and the rules -------------------------------------------------------


class _Prepared(NamedTuple):
    """One hand split for the search (a named tuple: a 14-card ruling makes one per discard)."""

    naturals: tuple[Card, ...]
    wilds: tuple[Card, ...]
    patterns: tuple[int, ...]  # per suit
    wr_by_suit: tuple[int, ...]
    total: int


def _prepare(cards: Sequence[Card], rules: Rules, wild_rank: int | None) -> _Prepared:
    naturals: list[Card] = []
    wilds: list[Card] = []
    patterns = [0, 0, 0, 0]
    wr_by_suit = [0, 0, 0, 0]
    total = 0
    nothing_wild = rules.nothing_wild
    for c in cards:
        f = c.face
        rank = f.rank
        if not nothing_wild and (rank == 0 or rank == wild_rank):
            wilds.append(c)
            if rank:
                wr_by_suit[f.suit] += 1
        else:
            naturals.append(c)
            if rank:  # a printed joker when nothing is wild fits no group and counts 0
                patterns[f.suit] += 1 << 2 * rank
                total += _VALUES[rank]
    return _Prepared(tuple(naturals), tuple(wilds), tuple(patterns), tuple(wr_by_suit), total)


# A set choice: (rank, suits) with the substitutes it needs.
_SetChoice = tuple[int, tuple[int, ...], int]


@lru_cache(maxsize=4096)
def _rank_set_options(
    rank: int, suit_counts: tuple[int, ...], max_nat: int
) -> tuple[tuple[_SetChoice, ...], ...]:
    """Every way to take disjoint sets (two or more natural cards each) from one rank."""
    results: set[tuple[tuple[int, ...], ...]] = set()

    def rec(counts: list[int], chosen: list[tuple[int, ...]]) -> None:
        results.add(tuple(sorted(chosen)))
        avail = [s for s in range(4) if counts[s] > 0]
        for size in range(2, min(max_nat, len(avail)) + 1):
            for combo in combinations(avail, size):
                if chosen and combo < chosen[-1]:
                    continue
                for s in combo:
                    counts[s] -= 1
                chosen.append(combo)
                rec(counts, chosen)
                chosen.pop()
                for s in combo:
                    counts[s] += 1

    rec(list(suit_counts), [])
    return tuple(tuple((rank, combo, max(0, 3 - len(combo))) for combo in sets) for sets in results)


@lru_cache(maxsize=8192)
def _rank_sets(
    rank: int, suit_counts: tuple[int, int, int, int], max_nat: int, budget: int
) -> tuple[tuple[_SetChoice, ...], ...]:
    """The choices for one rank within a substitute budget: no set first, then
    `_rank_set_options` in its order; empty when no set fits the budget."""
    opts = tuple(
        o
        for o in _rank_set_options(rank, suit_counts, max_nat)
        if o and sum(c[2] for c in o) <= budget
    )
    return ((), *opts) if opts else ()


# A combined witness: (suit, key, value) of every suit table entry that holds runs.
_Witness = tuple[tuple[int, int, int], ...]


def _combine(tables: list[_Table], budget: int) -> dict[int, tuple[int, _Witness]]:
    """Knapsack over suits: best value per combined key, with the entry each suit gave."""
    acc: dict[int, tuple[int, _Witness]] = {0: (0, ())}
    for suit, t in enumerate(tables):
        if t is _EMPTY_TABLE or t == _EMPTY_TABLE:
            continue  # only "no runs here": nothing to add
        nxt: dict[int, tuple[int, _Witness]] = {}
        get = nxt.get
        for k1, (v1, wit1) in acc.items():
            w1 = k1 >> 3
            for k2, v2 in t:
                w = w1 + (k2 >> 3)
                if w > budget:
                    continue
                s = (k1 & 3) + (k2 & 3)
                k = w << 3 | ((k1 | k2) & 4) | (2 if s > 2 else s)
                v = v1 + v2
                old = get(k)
                if old is None or v > old[0]:
                    nxt[k] = (v, (*wit1, (suit, k2, v2)) if k2 & 3 else wit1)
        acc = nxt
    return acc


@dataclass(slots=True)
class _Best:
    covered: int = -1
    sets: tuple[_SetChoice, ...] = ()
    suits: _Witness = ()  # (suit, key, value) for suits with runs
    patterns: tuple[int, ...] = ()  # each suit's pattern after the sets
    all_wild_run: bool = False


def _best_both_lives(prep: _Prepared, rules: Rules, wild_rank: int | None, memo: _Memo) -> _Best:
    """The most natural-card value protectable while holding both lives (covered -1: none)."""
    budget = len(prep.wilds)
    wr = wild_rank or 0
    max_nat = min(4, rules.set_max if rules.set_max is not None else 4)
    patterns = prep.patterns
    wr_by_suit = prep.wr_by_suit

    # Only ranks held in two or more suits can make a set: find them with one bit per rank.
    a, b, c, d = ((p | p >> 1) & _LOW_BITS for p in patterns)
    multi = (a & (b | c | d)) | (b & (c | d)) | (c & d)
    per_rank: list[tuple[tuple[_SetChoice, ...], ...]] = []
    while multi:
        low = multi & -multi
        multi ^= low
        shift = low.bit_length() - 1
        opts = _rank_sets(
            shift >> 1,
            (
                (patterns[0] >> shift) & 3,
                (patterns[1] >> shift) & 3,
                (patterns[2] >> shift) & 3,
                (patterns[3] >> shift) & 3,
            ),
            max_nat,
            budget,
        )
        if opts:
            per_rank.append(opts)

    best = _Best()
    known = memo.tables

    def table(suit: int, pattern: int) -> tuple[_Table, int]:
        """The suit's table for the whole budget (set choices filter it by what they leave)
        and the most it can protect, the latter for bounding."""
        key = pattern | wr_by_suit[suit] << 28 | budget << 32
        found = known.get(key)
        if found is None:
            t = _suit_table(pattern, wr, wr_by_suit[suit], budget)
            found = known[key] = (t, max(v for _, v in t))
        return found

    untouched = [table(s, patterns[s]) for s in range(4)]
    for combo in product(*per_rank):
        set_w = 0
        set_value = 0
        local = list(patterns)
        for group in combo:
            for rank, suits, need in group:
                set_w += need
                one = 1 << 2 * rank
                for s in suits:
                    local[s] -= one
                    set_value += _VALUES[rank]
        if set_w > budget:
            continue
        left = budget - set_w
        found = [untouched[s] if local[s] == patterns[s] else table(s, local[s]) for s in range(4)]
        if set_value + sum(m for _, m in found) <= best.covered:
            continue  # even a perfect combination cannot beat what we have
        tables = [t for t, _ in found]
        if best.covered >= 0 and set_value + _lives_value(tables, left) <= best.covered:
            continue  # (until some choice holds both lives, any that does wins: no need to ask)
        # This choice of sets wins: combine again, keeping which entry each suit gave.
        for k, (v, wit) in _combine(tables, left).items():
            if not k & 4:
                continue
            all_wild = False
            if (k & 3) < 2:
                if left - (k >> 3) < 3:
                    continue
                all_wild = True
            covered = v + set_value
            if covered > best.covered:
                sets = tuple(c for group in combo for c in group)
                best = _Best(covered, sets, wit, tuple(local), all_wild)
        if best.covered == prep.total:
            break  # everything protected: nothing can do better
    return best


def _lives_value(tables: list[_Table], left: int) -> int:
    """The most the suits' runs can protect with both lives within `left` substitutes (-1 if
    they cannot hold both): `_combine` without the witnesses, which only the winner needs.

    Both lives: a pure run and a second run; the second may be made of three wild cards alone
    when three substitutes are left over.
    """
    acc = {0: 0}
    for t in tables:
        if len(t) == 1 and not t[0][0]:
            continue  # only "no runs here": nothing to add
        nxt: dict[int, int] = {}
        get = nxt.get
        for k1, v1 in acc.items():
            room = left - (k1 >> 3)
            for k2, v2 in t:
                if k2 >> 3 > room:
                    break  # entries come in order of substitutes used
                s = (k1 & 3) + (k2 & 3)
                k = (k1 & ~7) + (k2 & ~7) | ((k1 | k2) & 4) | (2 if s > 2 else s)
                v = v1 + v2
                if v > get(k, -1):
                    nxt[k] = v
        acc = nxt
    best = -1
    for k, v in acc.items():
        if k & 4 and v > best and ((k & 3) == 2 or left - (k >> 3) >= 3):
            best = v
    return best


_PureRun = tuple[int, int, tuple[int, ...]]  # (value, suit, positions)
_NO_PURE: _PureRun = (-1, -1, ())


class _Memo:
    """What one ruling learns about single suits, reused while it lasts.

    A 14-card ruling rules on up to fourteen 13-card hands that differ in one card, so three
    suits (or, for a wild discard, all four patterns) are the same as in the previous one:
    their best pure run, and their table with its best value, are looked up here instead of
    being worked out again. Dropped with the ruling, so it never grows.
    """

    __slots__ = ("pure", "tables")

    def __init__(self) -> None:
        self.pure: dict[int, _PureRun] = {}
        self.tables: dict[int, tuple[_Table, int]] = {}


def _best_pure_run(prep: _Prepared, wild_rank: int | None, memo: _Memo) -> _PureRun:
    """(value, suit, positions) of the most valuable pure run, or (-1, -1, ()) if none.

    Ties go to the lowest suit, then the lowest start, then the shortest run. `memo` holds each
    suit's answer by pattern for the duration of one ruling: the 14-card ruling asks again for
    every discard, and only the discarded card's suit has changed.
    """
    wr = wild_rank or 0
    best = _NO_PURE
    for suit in range(4):
        pattern = prep.patterns[suit]
        key = pattern | (wr << 28 if prep.wr_by_suit[suit] else 0)
        found = memo.pure.get(key)
        if found is None:
            found = memo.pure[key] = _suit_pure_run(pattern, wr if prep.wr_by_suit[suit] else 0)
        if found[0] > best[0]:
            best = (found[0], suit, found[2])
    return best


def _suit_pure_run(pattern: int, wr: int) -> _PureRun:
    """The most valuable pure run of one suit (suit field -1), `wr` its usable wild rank or 0."""
    # One bit per position 1..14 held by a natural card, or by a wild-rank card as itself.
    occupied = (pattern | pattern >> 1) & _LOW_BITS
    has = 0
    while occupied:
        low = occupied & -occupied
        has |= 1 << ((low.bit_length() - 1) >> 1)
        occupied ^= low
    if wr:
        has |= 1 << wr
    if has & 2:  # an ace (or a wild ace) is also position 14
        has |= 1 << 14
    if not has & (has >> 1) & (has >> 2):
        return _NO_PURE  # no three positions in a row
    best = _NO_PURE
    for lo in range(1, 13):
        if not has >> lo & 1:
            continue
        value = 0
        for hi in range(lo, min(14, lo + 12) + 1):
            if not has >> hi & 1:
                break
            value += 0 if _RANK_AT[hi] == wr else _VALUES[hi]
            if hi - lo >= 2 and value > best[0]:
                best = (value, -1, tuple(range(lo, hi + 1)))
    return best


# ---- building the layout players see -------------------------------------------------------------


class _Pool:
    """Physical cards still unassigned, looked up by face."""

    def __init__(self, prep: _Prepared, wild_rank: int | None) -> None:
        self.by_face: dict[tuple[int, int], list[Card]] = {}
        for c in prep.naturals:
            self.by_face.setdefault((c.suit, c.rank), []).append(c)
        self.wr_cards: dict[int, list[Card]] = {}
        self.jokers: list[Card] = []
        for c in prep.wilds:
            if c.face.is_joker:
                self.jokers.append(c)
            else:
                self.wr_cards.setdefault(c.suit, []).append(c)
        self.wild_rank = wild_rank

    def natural(self, suit: int, rank: int) -> Card:
        return self.by_face[(suit, rank)].pop()

    def wr_natural(self, suit: int) -> Card:
        return self.wr_cards[suit].pop()

    def substitute(self) -> Card:
        if self.jokers:
            return self.jokers.pop()
        for suit in sorted(self.wr_cards):
            if self.wr_cards[suit]:
                return self.wr_cards[suit].pop()
        raise RuntimeError("substitute budget exceeded")  # pragma: no cover - solver bug

    def remaining_wilds(self) -> list[Card]:
        return [c for cards in self.wr_cards.values() for c in cards] + self.jokers

    def remaining_naturals(self) -> list[Card]:
        return [c for cards in self.by_face.values() for c in cards]


def _take_run_naturals(pool: _Pool, suit: int, seq: _Seq, wr: int) -> dict[int, Card]:
    """The run's own cards by position (wild-rank cards used as themselves included)."""
    slots: dict[int, Card] = {}
    for pos in seq[0]:
        rank = _rank_of(pos)
        slots[pos] = pool.wr_natural(suit) if rank == wr else pool.natural(suit, rank)
    return slots


def _finish_run(pool: _Pool, slots: dict[int, Card], seq: _Seq) -> Group:
    """Fill the run's gaps with substitutes, then extend it with any it still needs."""
    positions, need, pure = seq
    lo, hi = min(positions), max(positions)
    subs = [pool.substitute() for _ in range(need)]
    for p in range(lo, hi + 1):
        if p not in slots:
            slots[p] = subs.pop()
    # Remaining substitutes extend the run: upwards while possible, else downwards.
    while subs:
        if hi < 14 and not (lo == 1 and hi + 1 == 14):
            hi += 1
            slots[hi] = subs.pop()
        else:
            lo -= 1
            slots[lo] = subs.pop()
    cards = tuple(slots[p] for p in sorted(slots))
    return Group(GroupKind.PURE if pure else GroupKind.IMPURE, cards)


def _build_run(pool: _Pool, suit: int, seq: _Seq, wr: int) -> Group:
    return _finish_run(pool, _take_run_naturals(pool, suit, seq, wr), seq)


def _place_spare_wilds(groups: list[Group], spare: list[Card], rules: Rules) -> list[Card]:
    """Put leftover wild cards into groups that can take them (they count 0 either way)."""
    if not spare:
        return spare
    pure_count = sum(1 for g in groups if g.kind is GroupKind.PURE)
    for i, g in enumerate(groups):
        if not spare:
            break
        if g.kind is GroupKind.IMPURE and len(g.cards) < 13:
            room = 13 - len(g.cards)
            take, spare = spare[:room], spare[room:]
            groups[i] = Group(g.kind, g.cards + tuple(take))
    for i, g in enumerate(groups):
        if not spare:
            break
        if g.kind is GroupKind.SET:
            room = 99 if rules.set_max is None else rules.set_max - len(g.cards)
            if room > 0:
                take, spare = spare[:room], spare[room:]
                groups[i] = Group(g.kind, g.cards + tuple(take))
    if spare and pure_count >= 2:
        # Extending a pure run with a substitute makes it impure; another pure run remains.
        for i in range(len(groups) - 1, -1, -1):
            g = groups[i]
            if g.kind is GroupKind.PURE:
                groups[i] = Group(GroupKind.IMPURE, g.cards + tuple(spare))
                spare = []
                break
    return spare


def _layout(
    prep: _Prepared, best: _Best, rules: Rules, wild_rank: int | None
) -> tuple[list[Group], list[Card]]:
    wr = wild_rank or 0
    pool = _Pool(prep, wild_rank)
    groups: list[Group] = []
    # Every group takes its own cards before any substitute is handed out, so a wild-rank
    # card needed as itself in a pure run is never spent as a substitute elsewhere.
    budget = len(prep.wilds)
    runs = [
        (seq, _take_run_naturals(pool, suit, seq, wr))
        for suit, key, value in best.suits
        for seq in _suit_runs(best.patterns[suit], wr, prep.wr_by_suit[suit], budget, key, value)
    ]
    sets = [([pool.natural(s, rank) for s in suits], need) for rank, suits, need in best.sets]
    for seq, slots in runs:
        groups.append(_finish_run(pool, slots, seq))
    for cards, need in sets:
        cards += [pool.substitute() for _ in range(need)]
        groups.append(Group(GroupKind.SET, tuple(cards)))
    if best.all_wild_run:
        groups.append(Group(GroupKind.IMPURE, tuple(pool.substitute() for _ in range(3))))
    spare = _place_spare_wilds(groups, pool.remaining_wilds(), rules)
    groups.sort(key=_group_order)
    return groups, _sorted_cards(pool.remaining_naturals() + spare)


def _group_order(g: Group) -> tuple[int, int]:
    kind_rank = {GroupKind.PURE: 0, GroupKind.IMPURE: 1, GroupKind.SET: 2}[g.kind]
    first = next((c for c in g.cards if not c.face.is_joker), g.cards[0])
    return kind_rank, first.suit * 20 + first.rank


def _sorted_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (c.face.is_joker, c.suit, c.rank, c.id))


# ---- public API ------------------------------------------------------------------------------


def evaluate_hand(cards: Sequence[Card], rules: Rules, wild_rank: int | None) -> Evaluation:
    """Rule on 13 cards: valid declaration?, least deadwood, capped penalty, best layout.

    Any other number of cards is laid out the same way (every card in one valid group or left
    over, the leftovers worth the deadwood): the replay page rules on the 14 a seat holds
    after a draw."""
    if not _STATIC:
        _build_static()
    return _rule(_prepare(cards, rules, wild_rank), rules, wild_rank, _Memo())


def _rule(prep: _Prepared, rules: Rules, wild_rank: int | None, memo: _Memo) -> Evaluation:
    total = prep.total
    pure_value, pure_suit, pure_positions = _best_pure_run(prep, wild_rank, memo)
    # Without any pure run there are no lives: every card counts, no search needed.
    best = _best_both_lives(prep, rules, wild_rank, memo) if pure_value >= 0 else _Best()

    options: list[tuple[int, str]] = [(total, "all")]
    if best.covered >= 0:
        options.append((total - best.covered, "lives"))
    if rules.lone_pure is LonePure.PROTECTED and pure_value >= 0:
        options.append((total - pure_value, "pure"))
    deadwood, how = min(options, key=lambda o: (o[0], o[1] != "lives"))
    penalty = rules.cap(deadwood)

    if how == "lives":

        def build() -> tuple[tuple[Group, ...], tuple[Card, ...]]:
            groups, leftover = _layout(prep, best, rules, wild_rank)
            return tuple(groups), tuple(leftover)

        # A declaration must place every wild card too, but with both lives and no deadwood the
        # spare ones always find a group (`_place_spare_wilds`), so no layout is needed to
        # know: the 13 cards are the groups plus the spare wild cards, so an impure run of
        # length L leaves room for 13 - L >= spare more; and without an impure run there are
        # two pure runs (both lives need two runs), where the spares may go.
        return Evaluation(deadwood == 0, deadwood, penalty, build=build)
    if how == "pure":

        def build_pure() -> tuple[tuple[Group, ...], tuple[Card, ...]]:
            pool = _Pool(prep, wild_rank)
            run = _build_run(pool, pure_suit, (pure_positions, 0, True), wild_rank or 0)
            leftover = _sorted_cards(pool.remaining_naturals() + pool.remaining_wilds())
            return (run,), tuple(leftover)

        return Evaluation(False, deadwood, penalty, build=build_pure)
    return Evaluation(
        False, deadwood, penalty, (), tuple(_sorted_cards((*prep.naturals, *prep.wilds)))
    )


def evaluate_drawn(
    cards: Sequence[Card],
    rules: Rules,
    wild_rank: int | None,
    forbidden: Card | None = None,
) -> DrawnEvaluation:
    """Rule on 14 cards: try every distinct discard (never the physical card `forbidden`)."""
    if not _STATIC:
        _build_static()
    by_face: dict[Face, Card] = {}
    for c in cards:
        if forbidden is not None and c.id == forbidden.id:
            continue
        by_face.setdefault(c.face, c)
    prep = _prepare(cards, rules, wild_rank)
    results: list[tuple[Card, Evaluation]] = []
    memo = _Memo()
    for discard in by_face.values():
        results.append((discard, _rule(_without(prep, discard), rules, wild_rank, memo)))
    if not results:
        raise ValueError("no card can be discarded")
    winning = tuple(d for d, ev in results if ev.valid)
    best_discard, best = min(
        results,
        key=lambda r: (not r[1].valid, r[1].deadwood, -_discard_weight(r[0], rules, wild_rank)),
    )
    return DrawnEvaluation(bool(winning), winning, best_discard, best, tuple(results))


def _without(prep: _Prepared, card: Card) -> _Prepared:
    """`prep` less one physical card (cheaper than preparing the other 13 again)."""
    for i, c in enumerate(prep.wilds):
        if c.id == card.id:
            wr_by_suit = prep.wr_by_suit
            if not c.face.is_joker:
                wr_list = list(wr_by_suit)
                wr_list[c.suit] -= 1
                wr_by_suit = tuple(wr_list)
            wilds = prep.wilds[:i] + prep.wilds[i + 1 :]
            return _Prepared(prep.naturals, wilds, prep.patterns, wr_by_suit, prep.total)
    i = next(i for i, c in enumerate(prep.naturals) if c.id == card.id)
    naturals = prep.naturals[:i] + prep.naturals[i + 1 :]
    patterns = prep.patterns
    rank = card.rank
    if rank:  # a printed joker when nothing is wild sits in no pattern
        p = list(patterns)
        p[card.suit] -= 1 << 2 * rank
        patterns = tuple(p)
    return _Prepared(naturals, prep.wilds, patterns, prep.wr_by_suit, prep.total - _VALUES[rank])


def _discard_weight(card: Card, rules: Rules, wild_rank: int | None) -> int:
    """Tie-break between equally good discards: shed the highest-value natural card."""
    if rules.is_wild(card.face, wild_rank):
        return -1
    return card.face.value


def clear_cache() -> None:
    """Forget cached suit tables (tests and benchmarks use this to measure cold behaviour)."""
    global _cache_bytes
    _CACHE.clear()
    _cache_bytes = 0


def cache_info() -> dict[str, int]:
    """Suit-table figures: cache entries and estimated bytes; lookups that hit the cache, that
    missed it (a solve), and that the precomputed table answered."""
    return {
        "entries": len(_CACHE),
        "bytes": _cache_bytes,
        "hits": _stats[0],
        "misses": _stats[1],
        "precomputed": _stats[2],
    }


def static_info() -> dict[str, float]:
    """The precomputed table (never cleared): patterns x wild-rank variants, distinct tables,
    and the seconds its build took (0 keys before the first evaluation or `build_tables`)."""
    tables = {id(t) for by_budget in _STATIC.values() for t in by_budget}
    return {
        "keys": len(_STATIC),
        "tables": len(tables),
        "build_seconds": _static_build[0],
        "build_cpu_seconds": _static_build[1],
    }


def reset_cache_stats() -> None:
    _stats[0] = _stats[1] = _stats[2] = 0
