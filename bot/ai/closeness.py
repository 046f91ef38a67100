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
constant, log loss 0.2747 against 0.2970. A logistic hazard fitted to the same public record
was better calibrated but did not play better, and the hand-set hazard scaled to the
calibration played worse; both left the bot (the fit is in
`benchmarks/experiments/fitted_hazard.py`, the figures in docs/ai.md).

Everything is a pure function of the observation (the adapter rebuilds policies per move).
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Closeness:
    """One opponent as seen from the pile: turns played, cards taken and kept, last throws."""

    seat: int
    turns: int  # throws made this deal (one per completed turn)
    takes: int  # cards taken from the pile and not thrown again
    recent_low: bool  # the last two throws were both worth 5 or less
    cards: int  # cards held now (public)

    def hazard(self, ahead: int = 0) -> float:
        """Chance this seat declares on its turn `ahead` turns from now (0: its next turn),
        given that it has not declared before."""
        t = self.turns + 1 + ahead
        base = min(BASE_MAX, BASE_FLOOR + BASE_SLOPE * (t - 1))
        h = base * (1.0 + TAKE_BOOST * self.takes)
        if self.recent_low:
            h *= 1.0 + LOW_THROW_BOOST
        return min(HAZARD_MAX, h)


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
    for e in obs.pile_history:
        if e.discarded_by is not None:
            throws.setdefault(e.discarded_by, []).append(e.card.face.value)
            kept.get(e.discarded_by, set()).discard(e.card.id)
        if e.taken_by is not None:
            kept.setdefault(e.taken_by, set()).add(e.card.id)
    out = []
    for s in order:
        mine = throws.get(s, [])
        recent_low = len(mine) >= 4 and all(v <= 5 for v in mine[-2:])
        held = len(kept.get(s, ()))
        out.append(Closeness(s, len(mine), held, recent_low, cards.get(s, 13)))
    return out
