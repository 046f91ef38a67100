"""Events in English words for the terminal, and the one way to print an amount.

What a table shows is decided once, as facts, by `public_log.py` (no hidden card, auto moves
said once); the Discord side words those records from its catalogue in the reader's language
(`bot/discord_ui/render/log.py`), and the terminal game (`bot/play.py`) prints them here in
English, so both show the same actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from .cards import Face
from .events import Event
from .public_log import LogEntry, entry
from .rules import Rules


def _card(code: str) -> str:
    return Face.parse(code).pretty


def line(record: LogEntry) -> str:
    """One public record (`public_log`) as the terminal's English line."""
    k, who = record["k"], record.get("who", "")
    if k == "deal":
        return f"Deal {record['n']}: {record['by']} deals"
    if k == "auto_threw":
        return f"⏰ {who} ran out of time; the bot threw {_card(record['card'])} for them"
    if k == "auto_declared":
        return f"⏰ {who} ran out of time; the bot declared for them! 🎉"
    if k == "drew":
        return f"{who} drew from the stock"
    if k == "took":
        return f"{who} took {_card(record['card'])} from the pile"
    if k == "threw":
        return f"{who} discarded {_card(record['card'])}"
    if k == "dropped":
        return f"{who} dropped ({record['cost']})"
    if k == "left":
        return f"{who} left the table"
    if k == "declared":
        return f"{who} declared! 🎉"
    if k == "wrong_show":
        return f"{who} made a wrong show"
    if k == "timeout_dropped":
        return f"⏰ {who} was dropped after {record['count']} timeouts in a row"
    if k == "seating_draw":
        drawn = ", ".join(f"{name} {_card(code)}" for name, code in record["drawn"])
        return f"🎴 Seating draw{' (tie-break)' if record['tie_break'] else ''}: {drawn}"
    if k == "seats":
        order = record["order"]
        return f"🎴 Seats, highest card first: {' → '.join(order)}; {order[-1]} deals (lowest)"
    raise ValueError(f"not a log record: {record!r}")


def describe(event: Event, names: Sequence[str], rules: Rules) -> str | None:
    """The terminal's line for `event`, or None when the table shows nothing for it."""
    record = entry(event, names, rules)
    return None if record is None else line(record)


def describe_all(events: Iterable[Event], names: Sequence[str], rules: Rules) -> list[str]:
    """The terminal's lines for `events`, in order, skipping events the table does not show."""
    out = []
    for e in events:
        text = describe(e, names, rules)
        if text is not None:
            out.append(text)
    return out


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
