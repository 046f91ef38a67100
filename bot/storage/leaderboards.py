"""Guild leaderboards: one page of a board, and a player's own line on it.

Why it is shaped like this: a board must answer in milliseconds for a guild with
100k players, so every page is an index range scan over a summary table
(``ratings``, ``player_totals`` or the materialised ``period_board``) that stops after
``LIMIT`` rows, and a rank is a ``COUNT`` over the same index. Exact values are
looked up afterwards for the few players on the page (net chips are sorted by a float
copy but shown as exact fractions).

Semantics:

* Humans only. Ties share a rank (1, 1, 3); within a tie the order is by more games
  (win_rate) then user id, so pages are stable.
* ``profile=None`` ranks across all profiles (scope ``'*'``; for ``rating`` the
  overall rating fed by every match).
* Periods ``"7d"``/``"30d"`` are whole UTC days ending on the day of ``now``. For
  ``sort="rating"`` the value is always the *current* rating; the period only
  restricts the board to players who played a rated match inside the window.
* ``min_games`` applies to win_rate only (deals played in the period).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

from bot.storage.conn import Connection
from bot.storage.db import Database
from bot.storage.records import (
    PERIOD_DAYS,
    SORT_KEYS,
    LeaderboardRow,
    Period,
    PlayerRank,
    SortKey,
)
from bot.storage.summaries import ALL_SCOPE, DAY, day_of, ensure_window

__all__ = ["leaderboard", "player_rank"]

# ------------------------------------------------------------- SQLite dialect

# Column names for each sort; interpolated from this fixed whitelist only.
_BOARD_COLUMNS: Final[dict[str, tuple[str, str]]] = {
    "matches_won": ("matches_won", "matches_played"),
    "deals_won": ("deals_won", "deals_played"),
    "net_chips": ("net_f", "deals_played"),
    "win_rate": ("win_rate", "deals_played"),
}
_RATING_SOURCE = "ratings WHERE guild_id = ? AND scope = ?"
_RATING_IN_PERIOD = " AND last_played_at >= ?"
_RATING_COLUMNS: Final = ("ordinal", "matches", "ordinal DESC, user_id")
_TOTALS_SOURCE = "player_totals WHERE guild_id = ? AND scope = ?"
_PERIOD_SOURCE = "period_board WHERE guild_id = ? AND period_days = ? AND scope = ?"
_MIN_DEALS = " AND deals_played >= ?"
_WIN_RATE_ORDER = "win_rate DESC, deals_played DESC, user_id"


def _in_marks(n: int) -> str:
    return ",".join("?" * n)


def _page_sql(source: str, value: str, games: str, order: str) -> str:
    return f"SELECT user_id, {value}, {games} FROM {source} ORDER BY {order} LIMIT ? OFFSET ?"


def _count_above_sql(source: str, value: str) -> str:
    return f"SELECT COUNT(*) FROM {source} AND {value} > ?"


def _own_line_sql(source: str, value: str, games: str) -> str:
    return f"SELECT {value}, {games} FROM {source} AND user_id = ?"


def _count_sql(source: str) -> str:
    return f"SELECT COUNT(*) FROM {source}"


def _names_sql(n: int) -> str:
    return (
        f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({_in_marks(n)})"
    )


def _totals_nets_sql(n: int) -> str:
    return (
        "SELECT user_id, net_num, net_den FROM player_totals WHERE guild_id = ?"
        f" AND scope = ? AND user_id IN ({_in_marks(n)})"
    )


def _window_nets_sql(n: int, by_profile: bool) -> str:
    return (
        "SELECT user_id, net_den, SUM(net_num) FROM deal_seats WHERE guild_id = ?"
        f" AND user_id IN ({_in_marks(n)}) AND finished_at >= ? AND finished_at < ?"
        " AND outcome != 'void'"
        + (" AND profile = ?" if by_profile else "")
        + " GROUP BY user_id, net_den"
    )


# ----------------------------------------------------------------- helpers


def _validate_board_args(sort: str, period: str, limit: int, offset: int) -> None:
    if sort not in SORT_KEYS:
        raise ValueError(f"bad sort {sort!r}")
    if period != "all" and period not in PERIOD_DAYS:
        raise ValueError(f"bad period {period!r}")
    if limit < 1 or offset < 0:
        raise ValueError("limit must be >= 1 and offset >= 0")


def _board_source(
    conn: Connection,
    guild_id: int,
    profile: str | None,
    sort: str,
    period: str,
    min_games: int,
    now: float,
) -> tuple[str, list[Any], str, str, str, tuple[int, int] | None]:
    """(FROM+WHERE sql, args, value column, games column, ORDER BY, window)."""
    scope = ALL_SCOPE if profile is None else profile
    window: tuple[int, int] | None = None
    if sort == "rating":
        where = _RATING_SOURCE
        args: list[Any] = [guild_id, scope]
        if period != "all":
            days = PERIOD_DAYS[period]
            lo = (day_of(now) - days + 1) * DAY
            where += _RATING_IN_PERIOD
            args.append(lo)
        value, games, order = _RATING_COLUMNS
        return where, args, value, games, order, None
    value, games = _BOARD_COLUMNS[sort]
    if period == "all":
        where = _TOTALS_SOURCE
        args = [guild_id, scope]
    else:
        days = PERIOD_DAYS[period]
        start = ensure_window(conn, guild_id, days, now)
        window = (start * DAY, (start + days) * DAY)
        where = _PERIOD_SOURCE
        args = [guild_id, days, scope]
    if sort == "win_rate":
        where += _MIN_DEALS
        args.append(min_games)
        order = _WIN_RATE_ORDER
    else:
        order = f"{value} DESC, user_id"
    return where, args, value, games, order, window


def _exact_nets(
    conn: Connection,
    guild_id: int,
    profile: str | None,
    user_ids: Sequence[int],
    window: tuple[int, int] | None,
) -> dict[int, Fraction]:
    """Exact net for the players on one page (the board sorted by a float copy)."""
    if not user_ids:
        return {}
    if window is None:
        scope = ALL_SCOPE if profile is None else profile
        rows = conn.execute(
            _totals_nets_sql(len(user_ids)), (guild_id, scope, *user_ids)
        ).fetchall()
        return {u: Fraction(n, d) for u, n, d in rows}
    args: list[Any] = [guild_id, *user_ids, window[0], window[1]]
    if profile is not None:
        args.append(profile)
    out: dict[int, Fraction] = {u: Fraction(0) for u in user_ids}
    for user_id, den, num in conn.execute(
        _window_nets_sql(len(user_ids), profile is not None), args
    ):
        out[user_id] += Fraction(num, den)
    return out


def _names(conn: Connection, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
    rows = conn.execute(_names_sql(len(user_ids)), (guild_id, *user_ids)).fetchall()
    return {u: n for u, n in rows}


# ------------------------------------------------------------------ queries


async def leaderboard(
    db: Database,
    guild_id: int,
    profile: str | None = None,
    sort: SortKey = "rating",
    period: Period = "all",
    limit: int = 10,
    offset: int = 0,
    min_games: int = 5,
    now: float | None = None,
) -> list[LeaderboardRow]:
    """One page of a guild leaderboard (humans only).

    ``profile=None`` ranks across all profiles (for ``rating``: the overall
    rating fed by every match). Ties share a rank (1, 1, 3); order within a tie
    is by more games (win_rate) then user id, so pages are stable. ``min_games``
    applies to win_rate only (deals played in the period).
    """
    _validate_board_args(sort, period, limit, offset)
    ts = time.time() if now is None else now

    def q(conn: Connection) -> list[LeaderboardRow]:
        where, args, value, games, order, window = _board_source(
            conn, guild_id, profile, sort, period, min_games, ts
        )
        rows = conn.execute(
            _page_sql(where, value, games, order), (*args, limit, offset)
        ).fetchall()
        if not rows:
            return []
        (above,) = conn.execute(_count_above_sql(where, value), (*args, rows[0][1])).fetchone()
        user_ids = [r[0] for r in rows]
        names = _names(conn, guild_id, user_ids)
        nets = _exact_nets(conn, guild_id, profile, user_ids, window) if sort == "net_chips" else {}
        out: list[LeaderboardRow] = []
        rank = above + 1
        for i, (user_id, val, n_games) in enumerate(rows):
            if i > 0 and val != rows[i - 1][1]:
                rank = offset + i + 1
            shown: float | int | Fraction = nets[user_id] if nets else val
            out.append(LeaderboardRow(rank, user_id, names.get(user_id, ""), shown, n_games))
        return out

    return await db.run(q)


async def player_rank(
    db: Database,
    guild_id: int,
    user_id: int,
    profile: str | None = None,
    sort: SortKey = "rating",
    period: Period = "all",
    min_games: int = 5,
    now: float | None = None,
) -> PlayerRank | None:
    """The caller's own line on a board even when it is off the current page;
    None if the player is not ranked there (no results / below min_games)."""
    _validate_board_args(sort, period, 1, 0)
    ts = time.time() if now is None else now

    def q(conn: Connection) -> PlayerRank | None:
        where, args, value, games, _order, window = _board_source(
            conn, guild_id, profile, sort, period, min_games, ts
        )
        row = conn.execute(_own_line_sql(where, value, games), (*args, user_id)).fetchone()
        if row is None:
            return None
        (above,) = conn.execute(_count_above_sql(where, value), (*args, row[0])).fetchone()
        (total,) = conn.execute(_count_sql(where), args).fetchone()
        shown: float | int | Fraction = row[0]
        if sort == "net_chips":
            shown = _exact_nets(conn, guild_id, profile, [user_id], window)[user_id]
        name = _names(conn, guild_id, [user_id]).get(user_id, "")
        return PlayerRank(above + 1, user_id, name, shown, row[1], total)

    return await db.run(q)
