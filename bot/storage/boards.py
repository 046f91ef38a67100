"""The read side of results: guild leaderboards, a player's rank, stats and history.

Why one repository (``storage.boards``) for what players look at: every query here reads
the result rows and their summaries and writes nothing a player chose (the rolling
period boards are rolled forward lazily, :func:`~bot.storage.summaries.ensure_window`).

**Leaderboards.** A board must answer in milliseconds for a guild with 100k players, so
every page is an index range scan over a summary table (``ratings``, ``player_totals``
or the materialised ``period_board``) that stops after ``LIMIT`` rows, and a rank is a
``COUNT`` over the same index. Exact values are looked up afterwards for the few players
on the page (net chips are sorted by a float copy but shown as exact fractions).

* Humans only. Ties share a rank (1, 1, 3); within a tie the order is by more games
  (win_rate) then user id, so pages are stable.
* ``profile=None`` ranks across all profiles (scope ``'*'``; for ``rating`` the
  overall rating fed by every match).
* Periods ``"7d"``/``"30d"`` are whole UTC days ending on the day of ``now``. For
  ``sort="rating"`` the value is always the *current* rating; the period only
  restricts the board to players who played a rated match inside the window.
* ``min_games`` applies to win_rate only (deals played in the period).
* ``season=N`` is season N's board (:mod:`bot.storage.seasons`): the same summary tables
  under that season's scopes, every sort, with its own (fresh) season rating; a season is
  its own window, so it takes no period.

**One player's numbers** are computed from the player's own result rows (not from the
summaries): a player has at most thousands of seats, the index ``(guild_id, user_id,
...)`` finds them directly, and summing them here gives exact fractions for everything
shown (average penalty, best/worst deal, net) without the summaries needing columns only
one screen uses. Void deals are not counted at all (they still appear in
:meth:`BoardRepo.recent_deals`); ``avg_penalty_when_losing`` averages over lost, dropped
and invalid-declaration deals; net chips are the sum of deal nets. A hand history is only
returned for a deal of the asking guild.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, Final

from bot.storage.conn import Conn, Database
from bot.storage.records import (
    LOSING_OUTCOMES,
    PERIOD_DAYS,
    SORT_KEYS,
    DealHistoryRow,
    HintLevel,
    LeaderboardRow,
    Period,
    PlayerRank,
    PlayerStats,
    ProfileStats,
    RatingInfo,
    RatingPoint,
    SortKey,
)
from bot.storage.summaries import ALL_SCOPE, DAY, day_of, ensure_window, season_scope

__all__ = ["BoardRepo"]

# ------------------------------------------------------- leaderboards: SQL

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


def _validate_board_args(
    sort: str, period: str, limit: int, offset: int, season: int | None = None
) -> None:
    if sort not in SORT_KEYS:
        raise ValueError(f"bad sort {sort!r}")
    if period != "all" and period not in PERIOD_DAYS:
        raise ValueError(f"bad period {period!r}")
    if season is not None and (period != "all" or not 0 < season < 2**63):
        raise ValueError("a season board is season 1 or later, and takes no period")
    if limit < 1 or offset < 0:
        raise ValueError("limit must be >= 1 and offset >= 0")


async def _board_source(
    db: Database,
    guild_id: int,
    profile: str | None,
    sort: str,
    period: str,
    min_games: int,
    now: float,
    scope: str,
) -> tuple[str, list[Any], str, str, str, tuple[int, int] | None]:
    """(FROM+WHERE sql, args, value column, games column, ORDER BY, window)."""
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
        start = await ensure_window(db, guild_id, days, now)
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


def _scope(profile: str | None, season: int | None) -> str:
    """The summaries scope of a board: a profile or all of them, all time or in a season."""
    scope = ALL_SCOPE if profile is None else profile
    return scope if season is None else season_scope(scope, season)


async def _exact_nets(
    conn: Conn,
    guild_id: int,
    profile: str | None,
    user_ids: Sequence[int],
    window: tuple[int, int] | None,
    scope: str,
) -> dict[int, Fraction]:
    """Exact net for the players on one page (the board sorted by a float copy)."""
    if not user_ids:
        return {}
    if window is None:
        rows = await conn.fetchall(_totals_nets_sql(len(user_ids)), (guild_id, scope, *user_ids))
        return {u: Fraction(n, d) for u, n, d in rows}
    args: list[Any] = [guild_id, *user_ids, window[0], window[1]]
    if profile is not None:
        args.append(profile)
    out: dict[int, Fraction] = {u: Fraction(0) for u in user_ids}
    for user_id, den, num in await conn.fetchall(
        _window_nets_sql(len(user_ids), profile is not None), args
    ):
        out[user_id] += Fraction(num, den)
    return out


async def _names(conn: Conn, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
    rows = await conn.fetchall(_names_sql(len(user_ids)), (guild_id, *user_ids))
    return {u: n for u, n in rows}


# ---------------------------------------------------- stats & history: SQL

_PLAYER_DEAL_SEATS = (
    "SELECT profile, outcome, penalty_num, penalty_den, net_num, net_den"
    " FROM deal_seats WHERE guild_id = ? AND user_id = ?"
)
_PLAYER_MATCHES_BY_PROFILE = (
    "SELECT profile, COUNT(*), SUM(is_winner) FROM match_seats"
    " WHERE guild_id = ? AND user_id = ? GROUP BY profile"
)
_CURRENT_RATING = (
    "SELECT mu, sigma, ordinal, matches FROM ratings"
    " WHERE guild_id = ? AND scope = ? AND user_id = ?"
)
_LAST_ORDINALS_BEFORE = (
    "SELECT ordinal_before FROM rating_history WHERE guild_id = ? AND user_id = ?"
    " AND scope = ? ORDER BY id DESC LIMIT ?"
)
_LAST_RATING_POINTS = (
    "SELECT match_id, rated_at, mu, sigma, ordinal, ordinal_before"
    " FROM rating_history WHERE guild_id = ? AND user_id = ? AND scope = ?"
    " ORDER BY id DESC LIMIT ?"
)
_RECENT_DEALS = (
    "SELECT s.deal_id, d.match_id, d.deal_no, s.profile, s.finished_at,"
    " s.outcome, s.net_num, s.net_den, d.hints"
    " FROM deal_seats s JOIN deals d ON d.deal_id = s.deal_id"
    " WHERE s.guild_id = ? AND s.user_id = ?"
    " ORDER BY s.finished_at DESC, s.deal_id DESC LIMIT ?"
)
_HAND_HISTORY = "SELECT hand_history FROM deals WHERE deal_id = ? AND guild_id = ?"
_DEAL_ID = "SELECT deal_id FROM deals WHERE guild_id = ? AND match_id = ? AND deal_no = ?"
_MATCH_DEALS = (
    "SELECT deal_id, hand_history FROM deals WHERE guild_id = ? AND match_id = ? ORDER BY deal_no"
)
# The primary key (deal_id, seat) finds each deal's seats; a deal has at most ten.
_PLAYED = (
    "SELECT DISTINCT deal_id FROM deal_seats"
    " WHERE guild_id = ? AND user_id = ? AND deal_id IN ({marks})"
)
#: Most deal ids asked about in one query (SQLite allows 32766 parameters; a menu has 25).
_PLAYED_MAX: Final = 500


def _new_slot() -> dict[str, Any]:
    return {
        "mp": 0,
        "mw": 0,
        "dp": 0,
        "dw": 0,
        "pen": Fraction(0),
        "losses": 0,
        "df": 0,
        "dm": 0,
        "inv": 0,
        "best": None,
        "worst": None,
        "net": Fraction(0),
    }


async def _rating_and_trend(
    conn: Conn, guild_id: int, scope: str, user_id: int, last_n: int
) -> tuple[RatingInfo | None, float | None]:
    """Current rating in ``scope`` and the ordinal change over the last ``last_n``
    rated matches (None without history, or when ``last_n`` is 0)."""
    row = await conn.fetchone(_CURRENT_RATING, (guild_id, scope, user_id))
    if row is None:
        return None, None
    info = RatingInfo(*row)
    if last_n <= 0:
        return info, None
    hist = await conn.fetchall(_LAST_ORDINALS_BEFORE, (guild_id, user_id, scope, last_n))
    if not hist:
        return info, None
    return info, info.ordinal - hist[-1][0]


class BoardRepo:
    """``storage.boards``: leaderboards, ranks, a player's stats and history."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(
        self,
        guild_id: int,
        profile: str | None = None,
        sort: SortKey = "rating",
        period: Period = "all",
        limit: int = 10,
        offset: int = 0,
        min_games: int = 5,
        now: float | None = None,
        season: int | None = None,
    ) -> list[LeaderboardRow]:
        """One page of a guild leaderboard (humans only).

        ``profile=None`` ranks across all profiles (for ``rating``: the overall
        rating fed by every match). Ties share a rank (1, 1, 3); order within a tie
        is by more games (win_rate) then user id, so pages are stable. ``min_games``
        applies to win_rate only (deals played in the period). ``season``: that season's
        board instead of the all-time one (``period`` must then be ``"all"``).
        """
        _validate_board_args(sort, period, limit, offset, season)
        ts = time.time() if now is None else now
        scope = _scope(profile, season)
        where, args, value, games, order, window = await _board_source(
            self._db, guild_id, profile, sort, period, min_games, ts, scope
        )
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                _page_sql(where, value, games, order), (*args, limit, offset)
            )
            if not rows:
                return []
            above = await conn.fetchval(_count_above_sql(where, value), (*args, rows[0][1]))
            user_ids = [r[0] for r in rows]
            names = await _names(conn, guild_id, user_ids)
            nets = (
                await _exact_nets(conn, guild_id, profile, user_ids, window, scope)
                if sort == "net_chips"
                else {}
            )
        out: list[LeaderboardRow] = []
        rank = above + 1
        for i, (user_id, val, n_games) in enumerate(rows):
            if i > 0 and val != rows[i - 1][1]:
                rank = offset + i + 1
            shown: float | int | Fraction = nets[user_id] if nets else val
            out.append(LeaderboardRow(rank, user_id, names.get(user_id, ""), shown, n_games))
        return out

    async def player_rank(
        self,
        guild_id: int,
        user_id: int,
        profile: str | None = None,
        sort: SortKey = "rating",
        period: Period = "all",
        min_games: int = 5,
        now: float | None = None,
        season: int | None = None,
    ) -> PlayerRank | None:
        """The caller's own line on a board even when it is off the current page;
        None if the player is not ranked there (no results / below min_games).
        ``season`` as for :meth:`leaderboard`."""
        _validate_board_args(sort, period, 1, 0, season)
        ts = time.time() if now is None else now
        scope = _scope(profile, season)
        where, args, value, games, _order, window = await _board_source(
            self._db, guild_id, profile, sort, period, min_games, ts, scope
        )
        async with self._db.reading() as conn:
            row = await conn.fetchone(_own_line_sql(where, value, games), (*args, user_id))
            if row is None:
                return None
            above = await conn.fetchval(_count_above_sql(where, value), (*args, row[0]))
            total = await conn.fetchval(_count_sql(where), args)
            shown: float | int | Fraction = row[0]
            if sort == "net_chips":
                nets = await _exact_nets(conn, guild_id, profile, [user_id], window, scope)
                shown = nets[user_id]
            name = (await _names(conn, guild_id, [user_id])).get(user_id, "")
        return PlayerRank(above + 1, user_id, name, shown, row[1], total)

    async def player_stats(
        self, guild_id: int, user_id: int, *, trend_matches: int = 10
    ) -> PlayerStats:
        """Per-profile numbers computed from the player's own result rows (exact
        fractions), plus current rating and its change over the last
        ``trend_matches`` rated matches."""
        acc: dict[str, dict[str, Any]] = {}

        def slot(profile: str) -> dict[str, Any]:
            if profile not in acc:
                acc[profile] = _new_slot()
            return acc[profile]

        async with self._db.reading() as conn:
            for profile, outcome, pn, pd, nn, nd in await conn.fetchall(
                _PLAYER_DEAL_SEATS, (guild_id, user_id)
            ):
                if outcome == "void":
                    continue
                s = slot(profile)
                net = Fraction(nn, nd)
                s["dp"] += 1
                s["dw"] += outcome == "won"
                if outcome in LOSING_OUTCOMES:
                    s["losses"] += 1
                    s["pen"] += Fraction(pn, pd)
                s["df"] += outcome == "dropped_first"
                s["dm"] += outcome == "dropped_middle"
                s["inv"] += outcome == "invalid_declaration"
                s["net"] += net
                s["best"] = net if s["best"] is None else max(s["best"], net)
                s["worst"] = net if s["worst"] is None else min(s["worst"], net)
            for profile, played, won in await conn.fetchall(
                _PLAYER_MATCHES_BY_PROFILE, (guild_id, user_id)
            ):
                s = slot(profile)
                s["mp"] = played
                s["mw"] = won
            profiles: dict[str, ProfileStats] = {}
            for profile in sorted(acc):
                s = acc[profile]
                rating, trend = await _rating_and_trend(
                    conn, guild_id, profile, user_id, trend_matches
                )
                profiles[profile] = ProfileStats(
                    profile=profile,
                    matches_played=s["mp"],
                    matches_won=s["mw"],
                    deals_played=s["dp"],
                    deals_won=s["dw"],
                    avg_penalty_when_losing=s["pen"] / s["losses"] if s["losses"] else None,
                    drops_first=s["df"],
                    drops_middle=s["dm"],
                    invalid_declarations=s["inv"],
                    best_deal=s["best"],
                    worst_deal=s["worst"],
                    net=s["net"],
                    rating=rating,
                    rating_trend=trend,
                )
            overall, _ = await _rating_and_trend(conn, guild_id, ALL_SCOPE, user_id, 0)
        return PlayerStats(guild_id, user_id, profiles, overall)

    async def rating_history(
        self, guild_id: int, user_id: int, profile: str | None = None, *, limit: int = 20
    ) -> list[RatingPoint]:
        """The player's last ``limit`` rating changes, oldest first (for a trend
        line). ``profile=None`` is the overall rating."""
        scope = ALL_SCOPE if profile is None else profile
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_LAST_RATING_POINTS, (guild_id, user_id, scope, limit))
        return [RatingPoint(*r) for r in reversed(rows)]

    async def recent_deals(
        self, guild_id: int, user_id: int, limit: int = 10
    ) -> list[DealHistoryRow]:
        """The player's most recent deals, newest first."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_RECENT_DEALS, (guild_id, user_id, limit))
        return [
            DealHistoryRow(
                r[0], r[1], r[2], r[3], r[4], r[5], Fraction(r[6], r[7]), HintLevel(r[8])
            )
            for r in rows
        ]

    async def hand_history(self, guild_id: int, deal_id: int) -> str | None:
        """The engine's hand-history JSON of a deal; None if it is not this guild's."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(_HAND_HISTORY, (deal_id, guild_id))
        return None if row is None else str(row[0])

    async def deal_id(self, guild_id: int, match_id: str, deal_no: int) -> int | None:
        """The stored id of deal ``deal_no`` of match ``match_id`` (a table's id) in this
        guild; None if it is not stored (yet, or any more)."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(_DEAL_ID, (guild_id, match_id, deal_no))
        return None if row is None else int(row[0])

    async def match_deals(self, guild_id: int, match_id: str) -> list[tuple[int, str]]:
        """Every stored deal of match ``match_id`` (a table's id) in this guild, in the order
        played: (deal id, hand-history JSON). Empty if none is stored (yet, or any more)."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_MATCH_DEALS, (guild_id, match_id))
        return [(int(r[0]), str(r[1])) for r in rows]

    async def played_deals(
        self, guild_id: int, user_id: int, deal_ids: Iterable[int]
    ) -> frozenset[int]:
        """Which of ``deal_ids`` (of this guild) the user held a seat in: a deal's hand
        history shows every hand, so it is for its players only. A forgotten seat counts
        for nobody."""
        wanted = sorted(set(deal_ids))
        if not wanted:
            return frozenset()
        if len(wanted) > _PLAYED_MAX:
            raise ValueError(f"ask about at most {_PLAYED_MAX} deals at once")
        sql = _PLAYED.format(marks=", ".join("?" * len(wanted)))
        async with self._db.reading() as conn:
            rows = await conn.fetchall(sql, (guild_id, user_id, *wanted))
        return frozenset(int(r[0]) for r in rows)
