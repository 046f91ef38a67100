"""`/rummy history`: a player's recent deals, and the menu that downloads their hand histories.

Private answers, in the reader's language. A deal is named by its table's id and its number;
the download's file name is safe on every system whatever an id looks like.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from fractions import Fraction

import discord

from bot.engine.rules import PROFILES
from bot.engine.states import ScoreKind
from bot.storage import DealHistoryRow
from bot.words import Locale, text

from .colour import COLOUR
from .stats import OUTCOMES, amount, display_name, plural_n, signed


def utc_time(ts: int) -> str:
    """Plain UTC time for places Discord does not render ``<t:…>`` (select descriptions)."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def deal_title(row: DealHistoryRow, locale: Locale | None = None) -> str:
    return text(
        locale, "stats-deal-title", profile=row.profile, table=row.match_id, deal=row.deal_no
    )


def outcome_text(outcome: str, locale: Locale | None = None) -> str:
    return text(locale, "stats-outcome", outcome=outcome) if outcome in OUTCOMES else outcome


def deal_score(row: DealHistoryRow, locale: Locale | None = None) -> str:
    """The deal's effect in its own kind of score, worded as on the results message: chips
    are won or lost; pool and deals points are added to a total. Starts with a space (it
    follows the outcome), or is empty for a void deal."""
    if row.outcome == "void":
        return ""
    chips = row.profile not in PROFILES or PROFILES[row.profile].chips
    kind = ScoreKind.NET if chips else ScoreKind.PENALTY
    delta = Fraction(row.net if chips else -row.net)  # storage keeps points as a negative net
    if not delta:
        return " " + text(locale, "stats-score-even")
    n = plural_n(abs(delta))
    if kind is ScoreKind.NET:
        msg_id = "stats-score-won" if delta > 0 else "stats-score-lost"
        return " " + text(locale, msg_id, chips=amount(abs(delta), locale), n=n)
    return " " + text(locale, "stats-score-points", points=signed(delta, locale), n=n)


def hints_note(hints: str, locale: Locale | None = None) -> str:
    """ " · hints off" after a result played with less than full hints; nothing otherwise
    (full hints are the default, and every result stored before hint levels had them)."""
    if hints == "full":
        return ""
    return " · " + text(locale, "stats-hints-note", hints=hints)


def history_line(row: DealHistoryRow, locale: Locale | None = None) -> str:
    return text(
        locale,
        "stats-history-line",
        time=str(row.finished_at),
        deal=deal_title(row, locale),
        result=outcome_text(row.outcome, locale),
        score=deal_score(row, locale),
        hints=hints_note(str(row.hints), locale),
    )


def history_embed(
    name: str,
    rows: Sequence[DealHistoryRow],
    locale: Locale | None = None,
    tournaments: Sequence[tuple[str, str, int, int, int]] = (),
) -> discord.Embed:
    """A player's recent deals (a private answer: `locale` is the reader's), and their
    latest tournaments (each with its id: `/rummy tournament record` gives its record)."""
    embed = discord.Embed(
        title=text(locale, "stats-history-title", name=display_name(name, locale)), colour=COLOUR
    )
    if rows:
        embed.description = "\n".join(history_line(r, locale) for r in rows)
        embed.set_footer(text=text(locale, "stats-history-footer"))
    else:
        embed.description = text(locale, "stats-history-empty")
    if tournaments:
        lines = [
            text(locale, "tournament-history", name=n, place=p, players=c, rounds=r, id=tid)
            for tid, n, p, c, r in tournaments
        ]
        embed.add_field(
            name=text(locale, "tournament-history-title"), value="\n".join(lines)[:1024]
        )
    return embed


def history_placeholder(locale: Locale | None = None) -> str:
    return text(locale, "stats-history-placeholder")


def deal_option_value(row: DealHistoryRow) -> str:
    """``deal_id:match_id:deal_no``: the id opens the hand history, the other two name the
    downloaded file, so the click needs no extra lookup (≤ 100 chars: table ids are short)."""
    return f"{row.deal_id}:{row.match_id}:{row.deal_no}"[:100]


def parse_deal_option(value: str) -> tuple[int, str, int] | None:
    """Inverse of `deal_option_value`; None for anything else."""
    m = re.fullmatch(r"(\d{1,19}):(.{0,80}):(\d{1,6})", value)
    if m is None:
        return None
    return int(m[1]), m[2], int(m[3])


def history_option(row: DealHistoryRow, locale: Locale | None = None) -> discord.SelectOption:
    """A menu entry for downloading one deal (labels ≤ 100, descriptions ≤ 100 chars)."""
    description = text(
        locale,
        "stats-history-option",
        result=outcome_text(row.outcome, locale),
        score=deal_score(row, locale),
        time=utc_time(row.finished_at),
    )
    return discord.SelectOption(
        label=deal_title(row, locale)[:100],
        value=deal_option_value(row),
        description=description[:100],
    )


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def hand_history_caption(match_id: str, deal_no: int, locale: Locale | None = None) -> str:
    """The private message a hand-history file comes with."""
    return text(locale, "stats-hand-history-caption", table=match_id, deal=deal_no)


def hand_history_filename(match_id: str, deal_no: int) -> str:
    """A safe attachment name: ids come from storage, but a filename must never carry a path
    separator or spaces whatever an id looks like."""
    safe = _UNSAFE.sub("_", match_id).strip("_") or "table"
    return f"hand-history-{safe[:40]}-deal{deal_no}.json"
