"""Who pays what when a deal ends.

Each loser is charged once, on one basis:

* a seat still holding cards pays its penalty: the evaluator's least deadwood for its final 13,
  already capped by the profile (`Evaluation.penalty`);
* a seat that packed pays the fixed first- or middle-drop amount (its cards are not counted);
* a wrong show pays `invalid_penalty` (PENALTY_OUT) or the middle-drop amount (MIDDLE_DROP).

Then the rates: `first_turn_win_half` halves the deadwood of players who had no turn yet when
the winner declared on their own first drawn turn; a hand rummy under DOUBLE_PLAYED doubles the
deadwood of players who already played and charges packed players `hand_rummy_dropped_pay`.
Finally `payment_multiplier` (a printed joker cut as indicator, when the table doubles) applies
to everything. Amounts are `Fraction`s and never rounded: half of 15 is 15/2.

Where the money goes is the profile's `drop_paid`: TO_WINNER means every charge is a transfer to
the winner (the ledger sums to zero); TO_TOTAL means charges are penalty points added to each
loser's own running total (pool and deals formats). A void deal charges nobody, which also
cancels drop penalties.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .deal import Deal
from .evaluate import Evaluation
from .rules import DropPaid, HandRummy, Rules
from .states import EndReason, OutReason, SeatStatus


class Basis(StrEnum):
    DEADWOOD = "deadwood"
    FIRST_DROP = "first_drop"
    MIDDLE_DROP = "middle_drop"
    WRONG_SHOW = "wrong_show"
    WRONG_SHOW_DROP = "wrong_show_drop"
    HAND_RUMMY_DROPPED = "hand_rummy_dropped"


class Outcome(StrEnum):
    """How one seat came out of one deal, in one word (what statistics count). The values are
    the ones the storage layer records, so the table layer can pass them through unchanged."""

    WON = "won"
    LOST = "lost"  # paid its deadwood
    DROPPED_FIRST = "dropped_first"
    DROPPED_MIDDLE = "dropped_middle"
    INVALID_DECLARATION = "invalid_declaration"
    VOID = "void"


# Why a seat paid decides its outcome (a drop charged as a hand-rummy drop was a first or middle
# drop; statistics count it with the first drops, as the table layer always has).
OUTCOME_OF_BASIS = {
    Basis.DEADWOOD: Outcome.LOST,
    Basis.FIRST_DROP: Outcome.DROPPED_FIRST,
    Basis.HAND_RUMMY_DROPPED: Outcome.DROPPED_FIRST,
    Basis.MIDDLE_DROP: Outcome.DROPPED_MIDDLE,
    Basis.WRONG_SHOW: Outcome.INVALID_DECLARATION,
    Basis.WRONG_SHOW_DROP: Outcome.INVALID_DECLARATION,
}

_FIXED_BASIS = {
    OutReason.FIRST_DROP: Basis.FIRST_DROP,
    OutReason.MIDDLE_DROP: Basis.MIDDLE_DROP,
    OutReason.WRONG_SHOW: Basis.WRONG_SHOW,
    OutReason.WRONG_SHOW_DROP: Basis.WRONG_SHOW_DROP,
}


def fixed_cost(rules: Rules, reason: OutReason) -> int:
    """What a seat that stopped playing for `reason` pays, before rates and multipliers."""
    if reason is OutReason.FIRST_DROP:
        return rules.first_drop
    if reason is OutReason.WRONG_SHOW:
        return rules.invalid_penalty
    return rules.middle_drop  # a middle drop, or a wrong show counted as one


@dataclass(frozen=True, slots=True)
class Charge:
    """One loser's bill: `amount = base * rate * multiplier`."""

    seat: int
    basis: Basis
    base: int
    rate: Fraction
    multiplier: int
    amount: Fraction

    @property
    def outcome(self) -> Outcome:
        return OUTCOME_OF_BASIS[self.basis]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "basis": self.basis.value, "base": self.base,
                "rate": str(self.rate), "multiplier": self.multiplier,
                "amount": str(self.amount)}  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Charge:
        return cls(d["seat"], Basis(d["basis"]), d["base"], Fraction(d["rate"]),
                   d["multiplier"], Fraction(d["amount"]))  # fmt: skip

    def to_row(self) -> list[Any]:
        """Compact form for the live state: `[seat, basis, base, rate, multiplier]` (the
        amount is their product)."""
        return [self.seat, self.basis.value, self.base, str(self.rate), self.multiplier]

    @classmethod
    def from_row(cls, r: list[Any]) -> Charge:
        rate = Fraction(r[3])
        return cls(r[0], Basis(r[1]), r[2], rate, r[4], r[2] * rate * r[4])


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended and its effect on the match ledger.

    `deltas[seat]` is the change to that seat's score: for TO_WINNER tables a transfer (losers
    negative, the winner the sum, total zero); for TO_TOTAL tables penalty points added to the
    seat's total (the winner 0).
    """

    number: int  # 1-based deal number within the match
    dealer: int
    end: EndReason
    winner: int | None
    charges: tuple[Charge, ...]
    deltas: dict[int, Fraction]

    @property
    def void(self) -> bool:
        return self.end is EndReason.VOID

    def outcome(self, seat: int) -> Outcome:
        """How `seat` (one of the deal's seats) came out of this deal."""
        if self.void:
            return Outcome.VOID
        if seat == self.winner:
            return Outcome.WON
        charge = next((c for c in self.charges if c.seat == seat), None)
        return Outcome.LOST if charge is None else charge.outcome

    def charge(self, seat: int) -> Charge | None:
        return next((c for c in self.charges if c.seat == seat), None)

    def to_row(self) -> list[Any]:
        """Compact form for the live state: `[number, dealer, end, winner, charges, deltas]`
        with charges as `Charge.to_row` and deltas as `[seat, "fraction"]` pairs."""
        return [self.number, self.dealer, self.end.value, self.winner,
                [c.to_row() for c in self.charges],
                [[s, str(v)] for s, v in self.deltas.items()]]  # fmt: skip

    @classmethod
    def from_row(cls, r: list[Any]) -> DealResult:
        return cls(r[0], r[1], EndReason(r[2]), r[3], tuple(Charge.from_row(c) for c in r[4]),
                   {int(s): Fraction(v) for s, v in r[5]})  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "end": self.end.value,
            "winner": self.winner,
            "charges": [c.to_dict() for c in self.charges],
            "deltas": {str(s): str(v) for s, v in self.deltas.items()},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DealResult:
        return cls(
            d["number"],
            d["dealer"],
            EndReason(d["end"]),
            d["winner"],
            tuple(Charge.from_dict(c) for c in d["charges"]),
            {int(s): Fraction(v) for s, v in d["deltas"].items()},
        )


def settle(deal: Deal, number: int, evaluations: dict[int, Evaluation]) -> DealResult:
    """Charges and ledger changes for a finished deal.

    `evaluations` is `deal.final_evaluations()`: the best arrangement of every hand still held.
    """
    if deal.end is None:
        raise ValueError("the deal is not over")
    rules = deal.rules
    zero = {s: Fraction(0) for s in deal.seats}
    if deal.end is EndReason.VOID or deal.winner is None:
        return DealResult(number, deal.dealer, deal.end, None, (), zero)
    winner = deal.winner
    multiplier = rules.payment_multiplier(None if deal.indicator is None else deal.indicator.face)
    hand_rummy = deal.end is EndReason.HAND_RUMMY
    double_played = hand_rummy and rules.hand_rummy is HandRummy.DOUBLE_PLAYED
    charges: list[Charge] = []
    for s in deal.seats:
        if s == winner:
            continue
        rate = Fraction(1)
        if deal.status[s] is SeatStatus.ACTIVE:
            basis, base = Basis.DEADWOOD, evaluations[s].penalty
            had_turn = deal.turns_taken[s] > 0
            if double_played and had_turn:
                rate = Fraction(2)
            elif deal.winner_first_turn and rules.first_turn_win_half and not had_turn:
                rate = Fraction(1, 2)
        else:
            reason = deal.out_reason[s]
            basis, base = _FIXED_BASIS[reason], fixed_cost(rules, reason)
            if double_played and reason in (OutReason.FIRST_DROP, OutReason.MIDDLE_DROP):
                basis, base = Basis.HAND_RUMMY_DROPPED, rules.hand_rummy_dropped_pay
        charges.append(Charge(s, basis, base, rate, multiplier, base * rate * multiplier))
    deltas = dict(zero)
    if rules.drop_paid is DropPaid.TO_WINNER:
        for c in charges:
            deltas[c.seat] -= c.amount
            deltas[winner] += c.amount
    else:
        for c in charges:
            deltas[c.seat] += c.amount
    return DealResult(number, deal.dealer, deal.end, winner, tuple(charges), deltas)
