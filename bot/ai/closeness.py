"""How close each opponent seems to a declaration, read from the public record only.

A points player sheds high cards when an opponent is about to go out, and keeps racing while
nobody is. To do that a policy needs, for every opponent, the chance that they declare on each
of their coming turns. Nothing hidden enters the estimate: it is read from the pile history of
an `Observation` (what each seat threw, took back and let pass) and the seat list.

The model is a hazard per opponent turn, `base(t)` for a seat that has played `t` turns (the
chance that a player who has not declared yet does so on turn `t`), raised for a seat that has
taken cards from the pile (each take is a group it is building, seen by everyone) and for a seat
whose recent throws are low cards (a player with little deadwood left throws what little it has
that is loose; a racing player throws its high cards first). `base` rises with the turns played
and flattens: its shape was read off simulated heads-up points deals between the hard tier and
itself (the figures are beside the constants), where a declaration is rare in a player's first
four turns and then comes at 12-20% a turn.

Measured against what happened (`benchmarks/closeness_calibration.py`: the expert's opponent,
heads-up points, at each of the expert's turns) that hazard is too high: against hard (seed
6000, 1,500 deals, 6,949 next turns reached) predictions of 0.073, 0.121, 0.169 and 0.239
came true 0.044, 0.094, 0.121 and 0.197 of the time; Brier 0.0768 against 0.0800 for a
constant, log loss 0.2747 against 0.2970. `fitted_hazard` is a logistic hazard of the same
public record (`fitted_features`: the turn, piecewise; cards taken and kept, taken and thrown
again, taken on its last turn; the low-throw flag, the value of its last two throws, a last
throw of 10 or more; the stock), fitted on the rows of 1,500 deals against hard and 800 against
`ReferencePolicy` (seed 6000) and checked on others (seed 7000, 800 deals against hard: Brier
0.0730 against the hand-set 0.0758, log loss 0.2622 against 0.2737; 600 deals against the
reference: 0.0600 against 0.0638, 0.2209 against 0.2396). For a seat throwing 8s and taking
nothing it says 1.9%, 4.1%, 8.5% on turns 2-4 (hand-set 4%, 6.5%, 9%), 17% on turn 8 and 24% on
turn 10 (hand-set 16%, flat); two kept takes raise it by a third to a half (hand-set: by 70%),
two low last throws by about half (hand-set: by half). Better calibrated, it did not play
better: the expert reading it (`ExpertPolicy.closeness_model = "fitted"`) measured -0.82
[-2.29, +0.64] chips a deal against the hand-set hazard, both facing hard (1,000 paired deals,
seed 2026), at about the same CPU, so it is off; the hand-set hazard scaled to the
calibration (`Closeness.scale`, `ExpertPolicy.hazard_scale = 0.7`) measured -1.15
[-2.40, +0.11] on the same deals (it hardly drops any more), so that is off too.

Everything is a pure function of the observation (the adapter rebuilds policies per move).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.observation import Observation

# base hazard per own turn: 1.5% on the first, +2.5 points a turn, flat from about turn 7.
# Measured: hard vs hard, heads-up points, 200 deals (seeds 1000-1199): 0.015, 0.026, 0.052,
# 0.055, 0.129, 0.124, 0.128, 0.148, 0.198, 0.154 on turns 1..10, then 0.08-0.15.
BASE_FLOOR = 0.015
BASE_SLOPE = 0.025
BASE_MAX = 0.16
TAKE_BOOST = 0.35  # hazard factor per card taken from the pile (and kept)
LOW_THROW_BOOST = 0.5  # hazard factor when the last throws were all low cards
HAZARD_MAX = 0.45

# The fitted estimate's features (`fitted_features`) and weights (`FITTED_WEIGHTS`): see the
# module docstring and benchmarks/closeness_calibration.py.
FEATURE_NAMES = (
    "1", "turn<=4", "turn 5-10", "turn>10", "kept takes", "takes thrown again", "recent low",
    "last two /10", "last >=10", "took last turn", "stock /30",
)  # fmt: skip
FITTED_WEIGHTS: tuple[float, ...] = (
    -5.693, 0.797, 0.218, -0.079, 0.150, 0.204, 0.180, -0.598, -0.322, 0.135, 0.245,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Closeness:
    """One opponent as seen from the pile: turns played, cards taken and kept, last throws."""

    seat: int
    turns: int  # throws made this deal (one per completed turn)
    takes: int  # cards taken from the pile and not thrown again
    recent_low: bool  # the last two throws were both worth 5 or less
    cards: int  # cards held now (public)
    # More of the public record, read by the fitted estimate (`fitted_hazard`) only:
    throws: tuple[int, ...] = ()  # the values of its throws this deal, oldest first
    take_turns: tuple[int, ...] = ()  # for each card it took, its throws made before the take
    stock: int = 0  # cards left in the stock
    fitted: bool = False  # `hazard` answers with `fitted_hazard` (ExpertPolicy.closeness_model)
    scale: float = 1.0  # the hand-set hazard times this (ExpertPolicy.hazard_scale)

    def hazard(self, ahead: int = 0) -> float:
        """Chance this seat declares on its turn `ahead` turns from now (0: its next turn),
        given that it has not declared before."""
        if self.fitted:
            return self.fitted_hazard(ahead)
        t = self.turns + 1 + ahead
        base = min(BASE_MAX, BASE_FLOOR + BASE_SLOPE * (t - 1))
        h = self.scale * base * (1.0 + TAKE_BOOST * self.takes)
        if self.recent_low:
            h *= 1.0 + LOW_THROW_BOOST
        return min(HAZARD_MAX, h)

    def fitted_hazard(self, ahead: int = 0, weights: Sequence[float] | None = None) -> float:
        """The same chance from the logistic fit (`fitted_features`, `FITTED_WEIGHTS`)."""
        w = FITTED_WEIGHTS if weights is None else weights
        z = sum(a * b for a, b in zip(w, fitted_features(self, ahead), strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def evidence(self) -> dict[str, Any]:
        """The fields as plain data (benchmarks dump them and rebuild with `from_evidence`)."""
        return {
            "seat": self.seat, "turns": self.turns, "takes": self.takes,
            "recent_low": self.recent_low, "cards": self.cards, "throws": list(self.throws),
            "take_turns": list(self.take_turns), "stock": self.stock,
        }  # fmt: skip

    @classmethod
    def from_evidence(cls, e: dict[str, Any]) -> Closeness:
        return cls(
            e["seat"], e["turns"], e["takes"], e["recent_low"], e["cards"],
            tuple(e["throws"]), tuple(e["take_turns"]), e["stock"],
        )  # fmt: skip


def opponents(obs: Observation) -> list[Closeness]:
    """Every opponent still playing the deal, in the order they move after this seat."""
    active = [s.seat for s in obs.seats if s.status == "active"]
    if obs.seat in active:
        i = active.index(obs.seat)
        order = active[i + 1 :] + active[:i]
    else:
        order = [s for s in active if s != obs.seat]
    cards = {s.seat: s.cards for s in obs.seats}
    throws: dict[int, list[int]] = {}
    kept: dict[int, set[int]] = {}
    take_turns: dict[int, list[int]] = {}
    for e in obs.pile_history:
        if e.taken_by is not None:
            take_turns.setdefault(e.taken_by, []).append(len(throws.get(e.taken_by, ())))
        if e.discarded_by is not None:
            throws.setdefault(e.discarded_by, []).append(e.card.face.value)
            kept.get(e.discarded_by, set()).discard(e.card.id)
        if e.taken_by is not None:
            kept.setdefault(e.taken_by, set()).add(e.card.id)
    out = []
    for s in order:
        mine = throws.get(s, [])
        recent_low = len(mine) >= 4 and all(v <= 5 for v in mine[-2:])
        taken = tuple(take_turns.get(s, ()))
        held = len(kept.get(s, ()))
        n = cards.get(s, 13)
        out.append(Closeness(s, len(mine), held, recent_low, n, tuple(mine), taken, obs.stock_size))
    return out


def fitted_features(c: Closeness, ahead: int = 0) -> tuple[float, ...]:
    """The public evidence of one opponent as the fitted hazard reads it, for its turn `ahead`
    turns from now (the turn count advanced, the rest as seen now)."""
    t = c.turns + 1 + ahead
    last = c.throws[-2:]
    mean_last = sum(last) / len(last) / 10.0 if last else 0.0
    took_last = 1.0 if c.take_turns and c.take_turns[-1] == c.turns - 1 else 0.0
    return (
        1.0,
        float(min(t, 4)),
        float(min(max(t - 4, 0), 6)),
        float(max(t - 10, 0)),
        float(c.takes),
        float(len(c.take_turns) - c.takes),
        1.0 if c.recent_low else 0.0,
        mean_last,
        1.0 if c.throws and c.throws[-1] >= 10 else 0.0,
        took_last,
        c.stock / 30.0,
    )
