"""One player's numbers: per-profile stats, rating trend, recent deals, hand histories.

Why computed from the player's own result rows (not from the summaries): a player
has at most thousands of seats, the index ``(guild_id, user_id, ...)`` finds them
directly, and summing them here gives exact fractions for everything shown
(average penalty, best/worst deal, net) without the summaries needing columns
only one screen uses.

Semantics: void deals are not counted at all (they still appear in
:func:`recent_deals`); ``avg_penalty_when_losing`` averages over lost, dropped and
invalid-declaration deals; net chips are the sum of deal nets. A hand history is
only returned for a deal of the asking guild.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Final

from bot.storage.conn import Connection
from bot.storage.db import Database
from bot.storage.records import (
    LOSING_OUTCOMES,
    DealHistoryRow,
    PlayerStats,
    ProfileStats,
    RatingInfo,
    RatingPoint,
)
from bot.storage.summaries import ALL_SCOPE

__all__ = ["hand_history", "played_deals", "player_stats", "rating_history", "recent_deals"]

# ------------------------------------------------------------- SQLite dialect

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
    " s.outcome, s.net_num, s.net_den"
    " FROM deal_seats s JOIN deals d ON d.deal_id = s.deal_id"
    " WHERE s.guild_id = ? AND s.user_id = ?"
    " ORDER BY s.finished_at DESC, s.deal_id DESC LIMIT ?"
)
_HAND_HISTORY = "SELECT hand_history FROM deals WHERE deal_id = ? AND guild_id = ?"
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


async def player_stats(
    db: Database, guild_id: int, user_id: int, *, trend_matches: int = 10
) -> PlayerStats:
    """Per-profile numbers computed from the player's own result rows (exact
    fractions), plus current rating and its change over the last
    ``trend_matches`` rated matches."""

    def q(conn: Connection) -> PlayerStats:
        acc: dict[str, dict[str, Any]] = {}

        def slot(profile: str) -> dict[str, Any]:
            if profile not in acc:
                acc[profile] = _new_slot()
            return acc[profile]

        for profile, outcome, pn, pd, nn, nd in conn.execute(
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
        for profile, played, won in conn.execute(_PLAYER_MATCHES_BY_PROFILE, (guild_id, user_id)):
            s = slot(profile)
            s["mp"] = played
            s["mw"] = won
        profiles: dict[str, ProfileStats] = {}
        for profile in sorted(acc):
            s = acc[profile]
            rating, trend = _rating_and_trend(conn, guild_id, profile, user_id, trend_matches)
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
        overall, _ = _rating_and_trend(conn, guild_id, ALL_SCOPE, user_id, 0)
        return PlayerStats(guild_id, user_id, profiles, overall)

    return await db.run(q)


def _rating_and_trend(
    conn: Connection, guild_id: int, scope: str, user_id: int, last_n: int
) -> tuple[RatingInfo | None, float | None]:
    """Current rating in ``scope`` and the ordinal change over the last ``last_n``
    rated matches (None without history, or when ``last_n`` is 0)."""
    row = conn.execute(_CURRENT_RATING, (guild_id, scope, user_id)).fetchone()
    if row is None:
        return None, None
    info = RatingInfo(*row)
    if last_n <= 0:
        return info, None
    hist = conn.execute(_LAST_ORDINALS_BEFORE, (guild_id, user_id, scope, last_n)).fetchall()
    if not hist:
        return info, None
    return info, info.ordinal - hist[-1][0]


async def rating_history(
    db: Database, guild_id: int, user_id: int, profile: str | None = None, *, limit: int = 20
) -> list[RatingPoint]:
    """The player's last ``limit`` rating changes, oldest first (for a trend
    line). ``profile=None`` is the overall rating."""
    scope = ALL_SCOPE if profile is None else profile

    def q(conn: Connection) -> list[RatingPoint]:
        rows = conn.execute(_LAST_RATING_POINTS, (guild_id, user_id, scope, limit)).fetchall()
        return [RatingPoint(*r) for r in reversed(rows)]

    return await db.run(q)


async def recent_deals(
    db: Database, guild_id: int, user_id: int, limit: int = 10
) -> list[DealHistoryRow]:
    """The player's most recent deals, newest first."""

    def q(conn: Connection) -> list[DealHistoryRow]:
        rows = conn.execute(_RECENT_DEALS, (guild_id, user_id, limit)).fetchall()
        return [
            DealHistoryRow(r[0], r[1], r[2], r[3], r[4], r[5], Fraction(r[6], r[7])) for r in rows
        ]

    return await db.run(q)


async def hand_history(db: Database, guild_id: int, deal_id: int) -> str | None:
    """The engine's hand-history JSON of a deal; None if it is not this guild's."""

    def q(conn: Connection) -> str | None:
        row = conn.execute(_HAND_HISTORY, (deal_id, guild_id)).fetchone()
        return None if row is None else str(row[0])

    return await db.run(q)


async def played_deals(
    db: Database, guild_id: int, user_id: int, deal_ids: Iterable[int]
) -> frozenset[int]:
    """Which of ``deal_ids`` (of this guild) the user held a seat in: a deal's hand history
    shows every hand, so it is for its players only. A forgotten seat counts for nobody."""
    wanted = sorted(set(deal_ids))
    if not wanted:
        return frozenset()
    if len(wanted) > _PLAYED_MAX:
        raise ValueError(f"ask about at most {_PLAYED_MAX} deals at once")
    sql = _PLAYED.format(marks=", ".join("?" * len(wanted)))

    def q(conn: Connection) -> frozenset[int]:
        rows = conn.execute(sql, (guild_id, user_id, *wanted)).fetchall()
        return frozenset(int(r[0]) for r in rows)

    return await db.run(q)
