"""A logistic closeness hazard fitted to the public record (measured, not kept in the bot).

`bot/ai/closeness.py` reads each opponent's chance to declare on its coming turns from a
hand-set hazard. Measured against what happened (`benchmarks/closeness_calibration.py`) that
hazard is too high. `fitted_hazard` is a logistic hazard of the same public record
(`fitted_features`: the turn, piecewise; cards taken and kept, taken and thrown again, taken on
its last turn; the low-throw flag, the value of its last two throws, a last throw of 10 or
more; the stock), fitted on the rows of 1,500 deals against hard and 800 against
`ReferencePolicy` (seed 6000) and checked on others (seed 7000, 800 deals against hard: Brier
0.0730 against the hand-set 0.0758, log loss 0.2622 against 0.2737; 600 deals against the
reference: 0.0600 against 0.0638, 0.2209 against 0.2396). For a seat throwing 8s and taking
nothing it says 1.9%, 4.1%, 8.5% on turns 2-4 (hand-set 4%, 6.5%, 9%), 17% on turn 8 and 24% on
turn 10 (hand-set 16%, flat); two kept takes raise it by a third to a half (hand-set: by 70%),
two low last throws by about half (hand-set: by half). Better calibrated, it did not play
better: the expert reading it (`ExpertPolicy.closeness_model = "fitted"`, since removed)
measured -0.82 [-2.29, +0.64] chips a deal against the hand-set hazard, both facing hard
(1,000 paired deals, seed 2026), at about the same CPU; the hand-set hazard scaled to the
calibration (`ExpertPolicy.hazard_scale = 0.7`, since removed) measured -1.15 [-2.40, +0.11]
on the same deals (it hardly drops any more). So the bot keeps the hand-set hazard, and the
fit lives here, where the calibration benchmark still fits and scores it.

`Evidence` is an opponent as `closeness.opponents` sees it plus the rest of the public record
the fit reads (its throws, when it took cards, the stock); `evidence_of(obs)` builds it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.closeness import Closeness, opponents
from bot.engine.observation import Observation

FEATURE_NAMES = (
    "1", "turn<=4", "turn 5-10", "turn>10", "kept takes", "takes thrown again", "recent low",
    "last two /10", "last >=10", "took last turn", "stock /30",
)  # fmt: skip
# Fitted by `benchmarks/closeness_calibration.py --fit` (see the module docstring).
FITTED_WEIGHTS: tuple[float, ...] = (
    -5.693, 0.797, 0.218, -0.079, 0.150, 0.204, 0.180, -0.598, -0.322, 0.135, 0.245,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Evidence(Closeness):
    """One opponent's public record: `Closeness` (whose `hazard` is the hand-set one) and
    what the fitted hazard reads besides."""

    throws: tuple[int, ...] = ()  # the values of its throws this deal, oldest first
    take_turns: tuple[int, ...] = ()  # for each card it took, its throws made before the take
    stock: int = 0  # cards left in the stock

    def fitted_hazard(self, ahead: int = 0, weights: Sequence[float] | None = None) -> float:
        """The chance `hazard` gives, from the logistic fit (`fitted_features`,
        `FITTED_WEIGHTS` unless `weights` are given)."""
        w = FITTED_WEIGHTS if weights is None else weights
        z = sum(a * b for a, b in zip(w, fitted_features(self, ahead), strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def evidence(self) -> dict[str, Any]:
        """The fields as plain data (the calibration dumps them and rebuilds with
        `from_evidence`)."""
        return {
            "seat": self.seat, "turns": self.turns, "takes": self.takes,
            "recent_low": self.recent_low, "cards": self.cards, "throws": list(self.throws),
            "take_turns": list(self.take_turns), "stock": self.stock,
        }  # fmt: skip

    @classmethod
    def from_evidence(cls, e: dict[str, Any]) -> Evidence:
        return cls(
            e["seat"], e["turns"], e["takes"], e["recent_low"], e["cards"],
            tuple(e["throws"]), tuple(e["take_turns"]), e["stock"],
        )  # fmt: skip


def evidence_of(obs: Observation) -> list[Evidence]:
    """`closeness.opponents(obs)`, each with the rest of its public record."""
    throws: dict[int, list[int]] = {}
    take_turns: dict[int, list[int]] = {}
    for e in obs.pile_history:
        if e.taken_by is not None:
            take_turns.setdefault(e.taken_by, []).append(len(throws.get(e.taken_by, ())))
        if e.discarded_by is not None:
            throws.setdefault(e.discarded_by, []).append(e.card.face.value)
    out = []
    for o in opponents(obs):
        mine, taken = tuple(throws.get(o.seat, ())), tuple(take_turns.get(o.seat, ()))
        out.append(
            Evidence(o.seat, o.turns, o.takes, o.recent_low, o.cards, mine, taken, obs.stock_size)
        )
    return out


def fitted_features(c: Evidence, ahead: int = 0) -> tuple[float, ...]:
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
