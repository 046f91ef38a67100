"""Match equity in a pool match: the chance of winning it from the two players' totals.

In pool rummy a deal's points are not money. They are added to the loser's total, and a player
whose total reaches the limit is out. So a point costs nothing at 10 and everything at 95, and
a drop that takes a player to the limit loses the match on the spot, where playing the hand out
keeps whatever chance it has. The chip values the expert plays points rummy with cannot see
that; this module turns a pair of totals into the chance of winning the match, so that a pool
decision can compare what each choice leaves.

The model is heads-up and symmetric: each deal is won by either player with an even chance,
and the loser adds a number of points drawn from `LOSS_POINTS`, the measured spread of what a
losing heads-up pool101 player added (drops included; `benchmarks/pool_losses.py`). Totals only
grow, so the table fills from the limit down. Pure arithmetic, computed once per limit (25 ms
for 101, 105 ms for 201). pool201 reads the same spread, though its drops cost 25 and 50; the
gain was measured in pool101 only (docs/ai.md).
"""

from __future__ import annotations

from functools import lru_cache

# What the loser of a heads-up pool101 deal added to their total, in 5-point steps (a deal
# never adds 0 to its loser; the lowest step stands for 1-2 points). Measured before the
# expert read this table, with `python benchmarks/pool_losses.py --matches 100 --seed 2026
# --seats expert@pool_equity=0,hard` (both seatings, 922 lost deals, mean 36.7 points). The
# commonest steps are 20 (23%, mostly first drops) and 80 (18%, full counts at the cap).
LOSS_POINTS: tuple[tuple[int, float], ...] = (
    (2, 0.028), (5, 0.077), (10, 0.091), (15, 0.067), (20, 0.229), (25, 0.057),
    (30, 0.036), (35, 0.017), (40, 0.056), (45, 0.023), (50, 0.012), (55, 0.013),
    (60, 0.021), (65, 0.026), (70, 0.036), (75, 0.031), (80, 0.179),
)  # fmt: skip

_TOTAL = sum(p for _, p in LOSS_POINTS)
_LOSSES = tuple((pts, p / _TOTAL) for pts, p in LOSS_POINTS)  # the same, summing to 1


@lru_cache(maxsize=8)
def equity_table(limit: int) -> tuple[tuple[float, ...], ...]:
    """`table[a][b]`: the chance that a player at total `a` wins a heads-up match against one
    at total `b` (both below `limit`)."""
    table = [[0.0] * limit for _ in range(limit)]
    for a in range(limit - 1, -1, -1):
        row = table[a]
        for b in range(limit - 1, -1, -1):
            win = 0.0  # they lose the deal
            for pts, p in _LOSSES:
                win += p * (1.0 if b + pts >= limit else row[b + pts])
            lose = 0.0  # I lose the deal
            for pts, p in _LOSSES:
                if a + pts < limit:
                    lose += p * table[a + pts][b]
            row[b] = 0.5 * win + 0.5 * lose
    return tuple(tuple(r) for r in table)


def equity(mine: float, theirs: float, limit: int) -> float:
    """The chance of winning the match at these totals (a total at or past the limit is out)."""
    if mine >= limit:
        return 0.0
    if theirs >= limit:
        return 1.0
    return equity_table(limit)[int(mine)][int(theirs)]


def after_win(mine: float, theirs: float, limit: int) -> float:
    """Equity once this player wins the deal: the other adds a loss from `LOSS_POINTS`."""
    return sum(p * equity(mine, theirs + pts, limit) for pts, p in _LOSSES)


def after_loss(mine: float, theirs: float, limit: int) -> float:
    """Equity once this player loses the deal for an unknown number of points."""
    return sum(p * equity(mine + pts, theirs, limit) for pts, p in _LOSSES)
