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
  substitute budget), not on the suit itself or the other suits. So it is cached: across a
  session the same small patterns recur constantly, and a 14-card evaluation (14 candidate
  discards) changes one suit at a time.
* A suit's answer is a small table: for each (substitutes used, has a pure run, runs 0/1/2+)
  the most card value its runs can protect, with a witness. Four tables are combined with a
  tiny knapsack over the substitute budget, and the rules of RULES.md decide what counts:
  no pure run, every card counts; a lone pure run is protected or not per profile; with both
  lives every group is protected and only leftovers count.

The reference evaluator in `reference.py` answers the same questions by brute force over every
subset; the tests compare the two on thousands of hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Any

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


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The ruling on 13 cards: validity, least deadwood, capped penalty, and a best layout.

    `sum(value of leftover) == deadwood` always holds (wild cards count 0), and every group is
    valid on its own, so the layout can be shown to players as the engine's justification.
    """

    valid: bool
    deadwood: int
    penalty: int
    groups: tuple[Group, ...]
    leftover: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DrawnEvaluation:
    """The ruling on 14 cards (after a draw): which discards win, which discard is best."""

    declarable: bool
    winning_discards: tuple[Card, ...]  # one physical card per distinct winning face
    best_discard: Card
    best: Evaluation  # the 13 cards left after `best_discard`
    by_discard: tuple[tuple[Card, Evaluation], ...]  # one entry per distinct discardable face


# ---- per-suit sequence tables ------------------------------------------------------------------

# A sequence found by a suit solver, independent of the suit: the positions of the natural
# cards it uses (1..14; 14 is a high ace), how many substitutes it needs, whether it is pure.
_Seq = tuple[tuple[int, ...], int, bool]
# Table: (substitutes used, has pure, runs capped at 2) -> (protected value, witness runs)
_Key = tuple[int, int, int]
_Table = dict[_Key, tuple[int, tuple[_Seq, ...]]]

_VALUES = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10)  # index: position 0..14
_EMPTY_TABLE: _Table = {(0, 0, 0): (0, ())}
_CACHE: dict[tuple[tuple[int, ...], int, int, int], _Table] = {}
_CACHE_LIMIT = 500_000


_RANK_AT: tuple[int, ...] = (0, *range(1, 14), ACE)  # position 1..14 -> rank (14: high ace)


def _rank_of(pos: int) -> int:
    return _RANK_AT[pos]


def _suit_table(counts: tuple[int, ...], wr: int, wr_n: int, budget: int) -> _Table:
    """Best runs within one suit.

    `counts[r]` (r = 1..13, index 0 unused) is how many non-wild cards of rank r the suit holds;
    `wr` is the wild rank (0 if none) and `wr_n` how many wild-rank cards of this suit may be
    used as themselves (each one taken from the substitute budget when used so).
    """
    if wr_n == 0:
        wr = 0
    key = (counts, wr, wr_n, budget)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    table = _prune(_solve_suit(counts, wr, wr_n, budget))
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = table
    return table


def _merge(table: _Table, sub: _Table, seq: _Seq, value: int, extra_w: int, budget: int) -> None:
    pure = 1 if seq[2] else 0
    for (w, p, s), (v, wit) in sub.items():
        nw = w + extra_w
        if nw > budget:
            continue
        k = (nw, p | pure, 2 if s >= 1 else 1)
        nv = v + value
        old = table.get(k)
        if old is None or nv > old[0]:
            table[k] = (nv, (*wit, seq))


def _solve_suit(counts: tuple[int, ...], wr: int, wr_n: int, budget: int) -> _Table:
    r = 1
    while r <= 13 and counts[r] == 0:
        r += 1
    if r > 13:
        return _EMPTY_TABLE
    rest = list(counts)
    rest[r] -= 1
    base = tuple(rest)

    # Option 1: this card stays out of any run (it may still be deadwood or in nothing).
    table: _Table = dict(_suit_table(base, wr, wr_n, budget))

    def avail(pos: int, cnt: Sequence[int]) -> bool:
        rank = _RANK_AT[pos]
        return cnt[rank] > 0 if rank != wr else wr_n > 0

    # Option 2: pure runs through this card. It is the lowest natural card left, so the run
    # starts here, or one lower when that position is a wild-rank card used as itself.
    anchors = [r] if r != ACE else [1, 14]
    for anchor in anchors:
        if anchor == 14:
            # Q-K-A style: the run ends at this ace and extends downwards.
            lo = 14
            while lo - 1 >= 2 and 14 - (lo - 1) + 1 <= 13 and avail(lo - 1, base):
                lo -= 1
                if 14 - lo + 1 >= 3:
                    _add_pure(table, base, wr, wr_n, budget, tuple(range(lo, 15)), 14)
            continue
        starts = [anchor]
        if anchor - 1 >= 1 and _RANK_AT[anchor - 1] == wr and wr_n > 0:
            starts.append(anchor - 1)
        for lo in starts:
            hi = anchor
            while hi + 1 <= 14 and hi + 1 - lo + 1 <= 13 and avail(hi + 1, base):
                hi += 1
                if hi - lo + 1 >= 3:
                    _add_pure(table, base, wr, wr_n, budget, tuple(range(lo, hi + 1)), anchor)

    # Option 3: impure runs whose lowest natural card is this one (or, for an ace, whose
    # highest is this ace played high). Natural cards in between may be taken or skipped;
    # each skipped or missing position costs one substitute.
    if budget >= 1:
        if r == ACE:
            _impure_from(table, base, wr, wr_n, budget, 1, +1)
            _impure_from(table, base, wr, wr_n, budget, 14, -1)
        else:
            _impure_from(table, base, wr, wr_n, budget, r, +1)
    return table


def _add_pure(
    table: _Table,
    base: tuple[int, ...],
    wr: int,
    wr_n: int,
    budget: int,
    positions: tuple[int, ...],
    anchor: int,
) -> None:
    """Record the pure run over `positions`; the anchor card is already out of `base`."""
    rest = list(base)
    used_wr = 0
    value = 0
    for pos in positions:
        rank = _RANK_AT[pos]
        if rank == wr:
            used_wr += 1
            continue
        if pos != anchor:
            rest[rank] -= 1
        value += _VALUES[pos]
    if used_wr > budget:
        return
    sub = _suit_table(tuple(rest), wr, wr_n - used_wr, budget)
    _merge(table, sub, (positions, 0, True), value, used_wr, budget)


def _impure_from(
    table: _Table, base: tuple[int, ...], wr: int, wr_n: int, budget: int, anchor: int, step: int
) -> None:
    """Enumerate impure runs from `anchor` going in direction `step` (the anchor is in the run)."""
    limit_pos = min(13 if anchor == 1 else 14, anchor + 12) if step > 0 else max(2, anchor - 12)

    # Depth-first over the natural cards beyond the anchor, in order: take each or skip it;
    # every position of the run not held by a taken card costs one substitute.
    cands = [
        p
        for p in range(anchor + step, limit_pos + step, step)
        if _RANK_AT[p] != wr and base[_RANK_AT[p]] > 0
    ]
    rest = list(base)
    taken = [anchor]

    def walk(i: int, last: int, value: int, gaps: int) -> None:
        n_nat = len(taken)
        span = abs(last - anchor) + 1
        need = (span if span > 3 else 3) - n_nat
        # Record the run ending at the last taken card, unless it is really a pure run.
        if need <= budget and not (gaps == 0 and n_nat >= 3):
            sub = _suit_table(tuple(rest), wr, wr_n, budget)
            positions = tuple(taken) if step > 0 else tuple(reversed(taken))
            _merge(table, sub, (positions, need, False), value, need, budget)
        for j in range(i, len(cands)):
            p = cands[j]
            extra = abs(p - last) - 1
            if gaps + extra > budget:
                break
            rank = _RANK_AT[p]
            rest[rank] -= 1
            taken.append(p)
            walk(j + 1, p, value + _VALUES[p], gaps + extra)
            taken.pop()
            rest[rank] += 1

    walk(0, anchor, _VALUES[anchor], 0)


# ---- combining suits, sets and the rules -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Prepared:
    naturals: tuple[Card, ...]
    wilds: tuple[Card, ...]
    counts: tuple[tuple[int, ...], ...]  # per suit, index = rank
    wr_by_suit: tuple[int, ...]
    total: int


def _prepare(cards: Sequence[Card], rules: Rules, wild_rank: int | None) -> _Prepared:
    naturals: list[Card] = []
    wilds: list[Card] = []
    counts = [[0] * 14 for _ in range(4)]
    wr_by_suit = [0, 0, 0, 0]
    total = 0
    for c in cards:
        f = c.face
        if rules.is_wild(f, wild_rank):
            wilds.append(c)
            if not f.is_joker:
                wr_by_suit[f.suit] += 1
        else:
            naturals.append(c)
            counts[f.suit][f.rank] += 1
            total += f.value
    return _Prepared(
        tuple(naturals),
        tuple(wilds),
        tuple(tuple(x) for x in counts),
        tuple(wr_by_suit),
        total,
    )


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


def _combine(tables: list[_Table], budget: int) -> dict[_Key, tuple[int, tuple[Any, ...]]]:
    """Knapsack over suits; witnesses become ((suit, runs), ...) for suits that hold runs."""
    acc: dict[_Key, tuple[int, tuple[Any, ...]]] = {(0, 0, 0): (0, ())}
    for suit, t in enumerate(tables):
        if len(t) == 1 and (0, 0, 0) in t:
            continue  # only "no runs here": nothing to add
        nxt: dict[_Key, tuple[int, tuple[Any, ...]]] = {}
        for (w1, p1, s1), (v1, wit1) in acc.items():
            for (w2, p2, s2), (v2, wit2) in t.items():
                w = w1 + w2
                if w > budget:
                    continue
                k = (w, p1 | p2, min(2, s1 + s2))
                v = v1 + v2
                old = nxt.get(k)
                if old is None or v > old[0]:
                    nxt[k] = (v, (*wit1, (suit, wit2)) if wit2 else wit1)
        acc = nxt
    return acc


def _prune(table: _Table) -> _Table:
    """Drop entries that use more substitutes for no more value and no better lives."""
    items = sorted(table.items(), key=lambda kv: (kv[0][0], -kv[0][1], -kv[0][2]))
    out: _Table = {}
    for (w, p, s), val in items:
        dominated = False
        for (w2, p2, s2), val2 in out.items():
            if w2 <= w and p2 >= p and s2 >= s and val2[0] >= val[0]:
                dominated = True
                break
        if not dominated:
            out[(w, p, s)] = val
    return out


@dataclass(slots=True)
class _Best:
    covered: int = -1
    sets: tuple[_SetChoice, ...] = ()
    suit_runs: tuple[tuple[int, tuple[_Seq, ...]], ...] = ()  # (suit, runs) for suits with runs
    all_wild_run: bool = False


def _best_both_lives(prep: _Prepared, rules: Rules, wild_rank: int | None) -> _Best:
    """The most natural-card value protectable while holding both lives (covered -1: none)."""
    budget = len(prep.wilds)
    wr = wild_rank or 0
    max_nat = min(4, rules.set_max if rules.set_max is not None else 4)

    per_rank: list[tuple[tuple[_SetChoice, ...], ...]] = []
    for rank in range(1, 14):
        suit_counts = tuple(prep.counts[s][rank] for s in range(4))
        if sum(1 for x in suit_counts if x) >= 2:
            opts = tuple(
                o
                for o in _rank_set_options(rank, suit_counts, max_nat)
                if o and sum(c[2] for c in o) <= budget
            )
            if opts:
                per_rank.append(((), *opts))

    best = _Best()
    untouched: dict[int, _Table] = {}  # suit -> table when no sets are taken from it
    for combo in product(*per_rank):
        sets = [c for group in combo for c in group]
        set_w = sum(c[2] for c in sets)
        if set_w > budget:
            continue
        left = budget - set_w
        set_value = 0
        touched: dict[int, list[int]] = {}
        for rank, suits, _need in sets:
            for s in suits:
                counts = touched.get(s)
                if counts is None:
                    counts = touched[s] = list(prep.counts[s])
                counts[rank] -= 1
                set_value += _VALUES[rank]
        tables: list[_Table] = []
        bound = set_value
        for s in range(4):
            # Tables are computed for the whole substitute budget and filtered by `left`
            # when combined: one cached table serves every set choice.
            if s in touched:
                t = _suit_table(tuple(touched[s]), wr, prep.wr_by_suit[s], budget)
            else:
                t = untouched.get(s) or _suit_table(prep.counts[s], wr, prep.wr_by_suit[s], budget)
                untouched[s] = t
            tables.append(t)
            bound += max(v for v, _ in t.values())
        if bound <= best.covered:
            continue  # even a perfect combination cannot beat what we have
        for (w, p, s_count), (v, wit) in _combine(tables, left).items():
            if not p:
                continue
            all_wild = False
            if s_count < 2:
                if left - w < 3:
                    continue
                all_wild = True
            covered = v + set_value
            if covered > best.covered:
                best = _Best(covered, tuple(sets), wit, all_wild)
        if best.covered == prep.total:
            break  # everything protected: nothing can do better
    return best


def _best_pure_run(prep: _Prepared, wild_rank: int | None) -> tuple[int, int, tuple[int, ...]]:
    """(value, suit, positions) of the most valuable pure run, or (-1, -1, ()) if none."""
    wr = wild_rank or 0
    best: tuple[int, int, tuple[int, ...]] = (-1, -1, ())
    for suit in range(4):
        cnt = prep.counts[suit]
        has = [False] * 15
        for pos in range(1, 15):
            rank = _rank_of(pos)
            has[pos] = cnt[rank] > 0 or (rank == wr and prep.wr_by_suit[suit] > 0)
        for lo in range(1, 13):
            if not has[lo]:
                continue
            value = 0
            for hi in range(lo, min(14, lo + 12) + 1):
                if not has[hi]:
                    break
                rank = _rank_of(hi)
                value += 0 if rank == wr else _VALUES[hi]
                if hi - lo + 1 >= 3 and value > best[0]:
                    best = (value, suit, tuple(range(lo, hi + 1)))
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
    runs = [
        (seq, _take_run_naturals(pool, suit, seq, wr))
        for suit, suit_runs in best.suit_runs
        for seq in suit_runs
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
    """Rule on 13 cards: valid declaration?, least deadwood, capped penalty, best layout."""
    prep = _prepare(cards, rules, wild_rank)
    total = prep.total
    pure_value, pure_suit, pure_positions = _best_pure_run(prep, wild_rank)
    # Without any pure run there are no lives: every card counts, no search needed.
    best = _best_both_lives(prep, rules, wild_rank) if pure_value >= 0 else _Best()

    options: list[tuple[int, str]] = [(total, "all")]
    if best.covered >= 0:
        options.append((total - best.covered, "lives"))
    if rules.lone_pure is LonePure.PROTECTED and pure_value >= 0:
        options.append((total - pure_value, "pure"))
    deadwood, how = min(options, key=lambda o: (o[0], o[1] != "lives"))

    if how == "lives":
        groups, leftover = _layout(prep, best, rules, wild_rank)
    elif how == "pure":
        pool = _Pool(prep, wild_rank)
        run = _build_run(pool, pure_suit, (pure_positions, 0, True), wild_rank or 0)
        groups = [run]
        leftover = _sorted_cards(pool.remaining_naturals() + pool.remaining_wilds())
    else:
        groups, leftover = [], _sorted_cards(cards)
    valid = (
        how == "lives"
        and deadwood == 0
        and not any(rules.is_wild(c.face, wild_rank) for c in leftover)
    )
    return Evaluation(valid, deadwood, rules.cap(deadwood), tuple(groups), tuple(leftover))


def evaluate_drawn(
    cards: Sequence[Card],
    rules: Rules,
    wild_rank: int | None,
    forbidden: Card | None = None,
) -> DrawnEvaluation:
    """Rule on 14 cards: try every distinct discard (never the physical card `forbidden`)."""
    by_face: dict[Face, Card] = {}
    for c in cards:
        if forbidden is not None and c.id == forbidden.id:
            continue
        by_face.setdefault(c.face, c)
    results: list[tuple[Card, Evaluation]] = []
    for discard in by_face.values():
        rest = [c for c in cards if c.id != discard.id]
        results.append((discard, evaluate_hand(rest, rules, wild_rank)))
    if not results:
        raise ValueError("no card can be discarded")
    winning = tuple(d for d, ev in results if ev.valid)
    best_discard, best = min(
        results,
        key=lambda r: (not r[1].valid, r[1].deadwood, -_discard_weight(r[0], rules, wild_rank)),
    )
    return DrawnEvaluation(bool(winning), winning, best_discard, best, tuple(results))


def _discard_weight(card: Card, rules: Rules, wild_rank: int | None) -> int:
    """Tie-break between equally good discards: shed the highest-value natural card."""
    if rules.is_wild(card.face, wild_rank):
        return -1
    return card.face.value


def clear_cache() -> None:
    """Forget cached suit tables (tests use this to measure cold behaviour)."""
    _CACHE.clear()
