"""The one way to print an amount (7½, +40), shared by every reader of scores.

What happened at a table is told as facts (`public_log.py`) and worded, for Discord and the
terminal alike, from the catalogue in the reader's language (`bot/words/log.py`);
this module keeps only the notation of amounts, which is the same in every language.
"""

from __future__ import annotations

from fractions import Fraction


def amount(x: Fraction | int) -> str:
    """Exact amounts as people read them: 15/2 is 7½, never rounded; other fractions stay
    fractions (10/3)."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator == 2:
        whole = int(x)
        sign = "-" if x < 0 and whole == 0 else ""
        return f"{sign}{whole}½" if whole != 0 else f"{sign}½"
    return f"{x.numerator}/{x.denominator}"


def signed(x: Fraction | int) -> str:
    """An amount with its sign, for score changes: +7½, -40, 0."""
    x = Fraction(x)
    return f"+{amount(x)}" if x > 0 else amount(x)
