"""Exact money at the storage boundary: Fractions in, 64-bit numerator/denominator out.

Why: penalties and nets are :class:`fractions.Fraction` in the engine (a 7.5-point
penalty is exact), and sums of them must stay exact across millions of rows. The
schema stores every amount as an INTEGER pair, so everything written must fit in a
signed 64-bit integer; this module is the one place that checks and converts. A float
copy (``net_f``) exists in the summaries only to ORDER BY.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Final

__all__ = ["INT64_LIMIT", "fits_int64", "to_fraction", "to_pair"]

#: Exclusive bound of a signed 64-bit INTEGER column.
INT64_LIMIT: Final = 2**63

Amount = Fraction | int | float | str | Decimal


def fits_int64(value: Fraction) -> bool:
    """Whether numerator and denominator both fit an INTEGER column."""
    return abs(value.numerator) < INT64_LIMIT and value.denominator < INT64_LIMIT


def to_fraction(value: Amount, what: str) -> Fraction:
    """Coerce to an exact Fraction. Floats go through their shortest decimal repr
    (7.5 -> 15/2, 0.1 -> 1/10) so a float never smuggles binary noise into money."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be a number, not bool")
    if isinstance(value, Fraction):
        result = value
    elif isinstance(value, Rational | Decimal | str):
        result = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{what} must be finite")
        result = Fraction(repr(value))
    else:
        raise TypeError(f"{what} must be a Fraction/int, got {type(value).__name__}")
    if not fits_int64(result):
        raise ValueError(f"{what} {result} does not fit in 64-bit numerator/denominator")
    return result


def to_pair(value: Amount, what: str) -> tuple[int, int]:
    """(numerator, denominator) for storage; plain ints skip Fraction construction
    because bulk imports convert millions of them."""
    if type(value) is int:
        if abs(value) >= INT64_LIMIT:
            raise ValueError(f"{what} {value} does not fit in 64 bits")
        return value, 1
    f = to_fraction(value, what)
    return f.numerator, f.denominator
