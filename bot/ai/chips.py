"""A position's value in chips: the race to a declaration weighed against what a loss costs.

In points rummy the score is chips, so a move should maximise

    E[chips] = P(I declare first) * (what the others then pay)
             - sum over their turns of P(that opponent declares then) * (what I would pay then)

`race` computes both sums turn by turn from a per-turn chance that this seat declares (`mine`,
from its distance to a declaration and effective draws: see `distance.py`) and every opponent's
hazard (`closeness.py`), for a fixed horizon of rounds. What I would pay is the engine's
penalty of the cards I keep (capped like the rules cap it), discounted per round ahead by
`pay_decay` (a hand that keeps playing improves, so a loss far ahead costs less than the
penalty held now). That is the one place deadwood enters, so the policy sheds high cards
exactly when some opponent's hazard is high and races when nobody is close.

Pure arithmetic, no randomness, a few hundred multiplications per call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Hazard(Protocol):
    """An opponent's chance to declare on its turn `ahead` turns from now, if not before
    (`closeness.Closeness` reads it from the pile; `benchmarks/closeness_oracle.py` from the
    real hand)."""

    def hazard(self, ahead: int = 0) -> float: ...


HORIZON = 16  # rounds looked ahead; beyond it the deal is usually over


@dataclass(frozen=True, slots=True)
class Race:
    win: float  # chance this seat declares first within the horizon
    lose: float  # chance an opponent declares first within the horizon
    chips: float  # expected chips (gain when winning minus discounted payments)


# Improvements a turn, by distance, of the hard tier's hands in heads-up points (60 deals,
# seeds 5000-5059, 543 turns): 0.28 at distance 1 (that is, declaring), 0.37 at 2, 0.55 at 3,
# 0.72 at 4 and beyond. Far hands improve fastest: almost any draw or take helps them.
STEP_RATES = (0.0, 0.28, 0.37, 0.55, 0.72)


def step_rate(distance: int) -> float:
    return STEP_RATES[min(distance, len(STEP_RATES) - 1)]


def first_step_rate(good: int, unseen: int, extra_turns: float = 0.0) -> float:
    """Per-turn chance of the next improvement: a stock draw or a pile card among the unseen
    copies that help (two looks a turn, roughly), slowed by `extra_turns` of other costs."""
    g = min(1.0, good / max(1, unseen))
    rate = min(0.8, 1.0 - (1.0 - g) ** 2)
    if rate <= 0.0:
        return 0.0
    return 1.0 / (1.0 / rate + max(0.0, extra_turns))


def finish_chances(distance: int, first_rate: float, horizon: int) -> list[float]:
    """Chance that this seat declares on each of its next `horizon` turns (unconditional).

    A hand `distance` draws from a declaration needs that many improvements. The next one comes
    on each turn with `first_rate` (from its effective draws), each later one at the measured
    rate of its distance (`STEP_RATES`); the hand declares on the turn its last improvement
    arrives. A small chain of `distance + 1` states, updated once per turn."""
    if distance <= 0:
        return [1.0] + [0.0] * (horizon - 1)
    mass = [0.0] * (distance + 1)  # mass[j]: still j improvements away
    mass[distance] = 1.0
    out = []
    for _ in range(horizon):
        done = 0.0
        for j in range(1, distance + 1):
            m = mass[j]
            if m <= 0.0:
                continue
            rate = first_rate if j == distance else step_rate(j)
            moved = m * rate
            mass[j] -= moved
            if j == 1:
                done += moved
            else:
                mass[j - 1] += moved
        out.append(done)
    return out


def race(
    finish: Sequence[float],
    pay: float,
    opponents: Sequence[Hazard],
    gain_each: float,
    pay_decay: float,
    me_first: bool,
) -> Race:
    """Expected chips of a position (see the module docstring).

    `finish[k]`: the chance this seat declares on its k-th coming turn (`finish_chances`);
    `pay`: its penalty now; `gain_each`: what each opponent is expected to pay when this seat
    wins; `me_first`: whether this seat moves before the opponents in the first round (a draw
    decision) or after them (a throw has just been made)."""
    others = 1.0  # chance no opponent has declared yet
    mine_left = 1.0  # chance this seat has not declared yet
    win = lose = loss = 0.0
    gain = gain_each * len(opponents)
    for k, f in enumerate(finish):
        if me_first:
            win += others * f
            mine_left -= f
        owed = pay * pay_decay**k
        for o in opponents:
            h = o.hazard(k) * others * max(0.0, mine_left)
            lose += h
            loss += h * owed
            others *= 1.0 - o.hazard(k)
        if not me_first:
            win += others * f
            mine_left -= f
    return Race(win, lose, win * gain - loss)
