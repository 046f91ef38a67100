"""How a hand is shown: the one grouping every view of it reads.

A hand view has three faces, the text embed, the picture and the discard menu (and the
terminal game one more), and a player compares them card by card. When each sorted the cards
its own way they disagreed: the text split a hand without groups into wild cards, pairs and
loose cards while the picture and the menu showed one row in suit order. So the grouping is
decided here, once, from the engine's own evaluation, and every renderer lays out the same
`Part`s in the same order. A part names its kind (a key such as ``"pairs"``), never words:
each renderer chooses its own labels.

A part holds *clusters*: the cards that belong together inside it. For the engine's groups
and for loose cards a part is one cluster; pairs and near-runs are one cluster each, so a
player sees which cards pair ("5♠ 5♦ · 8♠ 8♦"), not a row in suit order ("5♠ 8♠ 5♦ 8♦").
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ACE, KING, QUEEN, Card
from .evaluate import DrawnEvaluation, Evaluation

#: Kinds of the parts of a hand. The engine's groups keep `GroupKind`'s values.
WILD, PAIRS, NEAR_RUNS, NOTHING, UNMATCHED = "wild", "pairs", "near_runs", "nothing", "unmatched"

#: ♠ ♥ ♣ ♦: colours alternate, so neighbouring suits are told apart at a glance (the picture's
#: and the "sort by suit" order too).
SUIT_ORDER = {0: 0, 1: 1, 3: 2, 2: 3}


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a hand as shown: its kind and its clusters, in display order."""

    kind: str
    clusters: tuple[tuple[Card, ...], ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for cluster in self.clusters for c in cluster)


def _suit_rank(c: Card) -> tuple[int, int, int]:
    return (SUIT_ORDER.get(c.suit, 9), c.rank, c.id)


def loose_parts(hand: list[Card] | tuple[Card, ...], wild_rank: int | None) -> tuple[Part, ...]:
    """Cards that form no group yet, sorted into what a player looks for: `WILD` cards, `PAIRS`
    of one rank in two suits or more (half a set; one cluster per rank, low to high),
    `NEAR_RUNS` of one suit (7♦ 8♦, or 7♦ _ 9♦ with one gap, Q♠ K♠ A♠ wrapping; one
    cluster per run, suit by suit), and cards that fit `NOTHING` yet, in suit order. Empty
    parts are left out; every card is in exactly one cluster."""
    wild = [c for c in hand if c.face.is_joker or c.rank == wild_rank]
    wild_ids = {c.id for c in wild}
    rest = sorted((c for c in hand if c.id not in wild_ids), key=_suit_rank)
    by_rank: dict[int, list[Card]] = {}
    for c in rest:
        by_rank.setdefault(c.rank, []).append(c)
    pairs = [tuple(cs) for _rank, cs in sorted(by_rank.items()) if len({x.suit for x in cs}) >= 2]
    in_pair = {c.id for cs in pairs for c in cs}
    by_suit: dict[int, list[Card]] = {}
    for c in rest:
        if c.id not in in_pair:
            by_suit.setdefault(c.suit, []).append(c)
    near: list[tuple[Card, ...]] = []
    for cs in by_suit.values():  # suit order, each low to high
        near.extend(_near_runs(cs))
    in_near = {c.id for cs in near for c in cs}
    nothing = tuple(c for c in rest if c.id not in in_pair and c.id not in in_near)
    parts = [
        Part(WILD, (tuple(wild),)) if wild else None,
        Part(PAIRS, tuple(pairs)) if pairs else None,
        Part(NEAR_RUNS, tuple(near)) if near else None,
        Part(NOTHING, (nothing,)) if nothing else None,
    ]
    return tuple(p for p in parts if p is not None)


def _near_runs(cs: list[Card]) -> list[tuple[Card, ...]]:
    """One suit's cards (low to high) in chains whose neighbours are one or two ranks apart;
    chains of one card are not near-runs. An ace also reaches up to a queen or king (Q-K-A)."""
    chains: list[list[Card]] = []
    for c in cs:
        if chains and 1 <= c.rank - chains[-1][-1].rank <= 2:
            chains[-1].append(c)
        else:
            chains.append([c])
    if len(chains) > 1 and chains[0][0].rank == ACE and chains[-1][-1].rank in (QUEEN, KING):
        low, high = chains[0], chains[-1]
        if len(low) == 1:  # the lone ace goes up: Q K A
            high.append(low.pop())
        elif len(high) == 1:  # a lone king or queen wraps round: K A 2
            low.insert(0, high.pop())
    return [tuple(ch) for ch in chains if len(ch) >= 2]


def arrangement(
    evaluation: Evaluation | DrawnEvaluation, wild_rank: int | None, *, suggest: bool = True
) -> tuple[Part, ...]:
    """The whole hand as shown, from the engine's ruling: its groups (one part each), then the
    cards they leave, with (holding 14 cards) the suggested discard last. With no group at all
    those cards are split as `loose_parts` does (a wall of thirteen cards tells a player
    nothing); beside groups they stay one `UNMATCHED` part.

    `suggest=False` (a table whose hints show the groups only) keeps the cards left over in
    suit order: the last place would otherwise tell the suggested discard."""
    best = evaluation.best if isinstance(evaluation, DrawnEvaluation) else evaluation
    parts = [Part(g.kind.value, (g.cards,)) for g in best.groups]
    left = list(best.leftover)
    if isinstance(evaluation, DrawnEvaluation):
        left.append(evaluation.best_discard)
    if not suggest:
        left.sort(key=_suit_rank)
    if not parts:
        return loose_parts(left, wild_rank)
    if left:
        parts.append(Part(UNMATCHED, (tuple(left),)))
    return tuple(parts)
