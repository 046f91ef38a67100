"""The derived tables: all-time totals, rolling period boards and ratings.

Why a module of its own: result rows (:mod:`bot.storage.results`) are the source of
truth; ``player_totals`` (all time), ``period_board``/``period_window`` (rolling 7/30
days) and ``ratings``/``rating_history`` are summaries of them, maintained
incrementally when a result is first recorded, read by the leaderboards, and
recomputable from scratch (:func:`rebuild`). Keeping every write to a summary here
keeps the incremental path and the rebuild next to each other, where they can be
checked against each other.

Invariants:

* Humans only; AI seats never reach a summary. Void deals count for nothing.
* Scope ``'*'`` (:data:`ALL_SCOPE`) holds the all-profiles aggregate and an overall
  rating, next to one scope per profile. A season (:mod:`bot.storage.seasons`) has the same
  two kinds of scope of its own (:func:`season_scope`: ``'points@s3'``, ``'*@s3'``): a result
  recorded while a season is open counts in its scopes too, and a season rating starts from
  openskill's default, whatever the player's all-time rating (see :func:`rate_match`).
* Net chips are the sum of *deal* nets, kept exactly (numerator/denominator) in
  ``player_totals``; ``net_f`` is a float copy for ORDER BY only. The per-seat match
  net is stored with the match but never added here (it would double count).
* A period ``"7d"``/``"30d"`` covers whole UTC calendar days: the UTC day of ``now``
  and the previous 6 / 29 days. The board is materialised per guild and period and
  rolled forward lazily by the first query of a new day (:func:`ensure_window`).

The functions here run inside a caller's connection (and, for writes, inside its
transaction): they take a :class:`~bot.storage.conn.Conn`; only :func:`ensure_window`
takes the database, because it opens a write transaction of its own when a window moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from bot.storage import ratings
from bot.storage.conn import Batch, Conn, Database, Dialect, insert_rows
from bot.storage.errors import StorageError
from bot.storage.money import fits_int64

__all__ = [
    "ALL_SCOPE",
    "DAY",
    "SeatBump",
    "bump_result",
    "day_of",
    "ensure_window",
    "rate_match",
    "rebuild",
    "season_scope",
    "win_rate",
]

#: PostgreSQL: the transaction lock of one guild's summaries (one ``?``: the guild id), held
#: by whatever reads and writes them back (recording a result, a rebuild, moving a window)
#: until its transaction ends. SQLite serialises writers and needs none (:data:`LOCK_GUILD`).
GUILD_LOCK: Final = (
    "pg_advisory_xact_lock(hashtextextended('paplu summaries ' || CAST(? AS bigint)::text, 0))"
)
#: The statement that takes it on its own, per dialect.
LOCK_GUILD: Final[dict[Dialect, str | None]] = {"sqlite": None, "postgres": f"SELECT {GUILD_LOCK}"}

#: Scope key of the all-profiles aggregate in summary tables.
ALL_SCOPE: Final = "*"
#: Seconds in a UTC day; periods are made of whole days.
DAY: Final = 86_400


#: What joins a scope to its season's number (a profile name never contains it).
SEASON_MARK: Final = "@s"


def season_scope(scope: str, number: int) -> str:
    """The summaries scope of ``scope`` (a profile or :data:`ALL_SCOPE`) within season
    ``number``: its own rows, next to the all-time ones, read by the same board queries."""
    return f"{scope}{SEASON_MARK}{number}"


def day_of(ts: float) -> int:
    """The UTC day number (days since the epoch) of a unix timestamp."""
    return int(ts // DAY)


def win_rate(won: int, played: int) -> float:
    """Deals won per deal played; 0.0 before the first deal."""
    return won / played if played > 0 else 0.0


# ------------------------------------------- SQL (portable unless keyed by dialect)


def _in_marks(n: int) -> str:
    return ",".join("?" * n)


def _select_nets_and_windows_sql(n_scopes: int, n_users: int) -> str:
    """Exact nets of users in scopes, then (scope NULL, period_days) rows for the
    materialised windows containing a day: what one result needs to read, in one
    statement (args: guild, scopes..., users..., guild, day, day)."""
    return (
        "SELECT scope, user_id, net_num, net_den FROM player_totals WHERE guild_id = ?"
        f" AND scope IN ({_in_marks(n_scopes)}) AND user_id IN ({_in_marks(n_users)})"
        " UNION ALL SELECT NULL, period_days, 0, 1 FROM period_window WHERE guild_id = ?"
        " AND start_day <= ? AND start_day + period_days > ?"
    )


def _select_ratings_sql(n_scopes: int, n_users: int) -> str:
    """Ratings of users in scopes (args: guild, scopes..., users...)."""
    return (
        "SELECT scope, user_id, mu, sigma, matches FROM ratings WHERE guild_id = ?"
        f" AND scope IN ({_in_marks(n_scopes)}) AND user_id IN ({_in_marks(n_users)})"
    )


_UPSERT_TOTALS = (
    "INSERT INTO player_totals (guild_id, scope, user_id, deals_played, deals_won,"
    " matches_played, matches_won, net_num, net_den, net_f, win_rate, last_played_at)"
    " {rows}"
    " ON CONFLICT (guild_id, scope, user_id) DO UPDATE SET"
    " deals_played = player_totals.deals_played + excluded.deals_played,"
    " deals_won = player_totals.deals_won + excluded.deals_won,"
    " matches_played = player_totals.matches_played + excluded.matches_played,"
    " matches_won = player_totals.matches_won + excluded.matches_won,"
    " net_num = excluded.net_num, net_den = excluded.net_den, net_f = excluded.net_f,"
    " win_rate = CASE WHEN player_totals.deals_played + excluded.deals_played > 0"
    "   THEN (player_totals.deals_won + excluded.deals_won) * 1.0"
    "        / (player_totals.deals_played + excluded.deals_played) ELSE 0.0 END,"
    " last_played_at = CASE WHEN excluded.last_played_at > player_totals.last_played_at"
    "   THEN excluded.last_played_at ELSE player_totals.last_played_at END"
)
_INSERT_TOTALS = (
    "INSERT INTO player_totals (guild_id, scope, user_id, deals_played, deals_won,"
    " matches_played, matches_won, net_num, net_den, net_f, win_rate,"
    " last_played_at) {rows}"
)
_TOTALS_TYPES: Final = ("bigint", "text", *["bigint"] * 7, "float8", "float8", "bigint")
# {rows} is rows given (conn.insert_rows) or one of the _PERIOD_*_DAYS aggregates below.
_UPSERT_PERIOD = (
    "INSERT INTO period_board (guild_id, period_days, scope, user_id, deals_played,"
    " deals_won, matches_played, matches_won, net_f, win_rate)"
    " {rows}"
    " ON CONFLICT (guild_id, period_days, scope, user_id) DO UPDATE SET"
    " deals_played = period_board.deals_played + excluded.deals_played,"
    " deals_won = period_board.deals_won + excluded.deals_won,"
    " matches_played = period_board.matches_played + excluded.matches_played,"
    " matches_won = period_board.matches_won + excluded.matches_won,"
    " net_f = period_board.net_f + excluded.net_f,"
    " win_rate = CASE WHEN period_board.deals_played + excluded.deals_played > 0"
    "   THEN (period_board.deals_won + excluded.deals_won) * 1.0"
    "        / (period_board.deals_played + excluded.deals_played) ELSE 0.0 END"
)
_PERIOD_TYPES: Final = ("bigint", "bigint", "text", *["bigint"] * 5, "float8", "float8")
# (GROUP BY, scope expression) pairs: per profile, and the all-profiles '*' scope.
_PERIOD_GROUPINGS: Final = (("profile, user_id", "profile"), ("user_id", "'*'"))
_PERIOD_DEAL_DAYS = (
    "SELECT ?, ?, {scope}, user_id, ? * COUNT(*),"
    " ? * SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END), 0, 0, ? * SUM(net_num * 1.0 / net_den),"
    " SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END) * 1.0 / COUNT(*)"
    " FROM deal_seats WHERE guild_id = ? AND finished_at >= ?"
    " AND finished_at < ? AND user_id IS NOT NULL AND outcome != 'void'"
    " GROUP BY {group}"
)
_PERIOD_MATCH_DAYS = (
    "SELECT ?, ?, {scope}, user_id, 0, 0, ? * COUNT(*),"
    " ? * SUM(is_winner), 0.0, 0.0"
    " FROM match_seats WHERE guild_id = ? AND finished_at >= ?"
    " AND finished_at < ? AND user_id IS NOT NULL GROUP BY {group}"
)
_SELECT_WINDOW_START = "SELECT start_day FROM period_window WHERE guild_id = ? AND period_days = ?"
_DELETE_EMPTY_PERIOD_ROWS = (
    "DELETE FROM period_board WHERE guild_id = ? AND period_days = ?"
    " AND deals_played <= 0 AND matches_played <= 0 AND deals_won <= 0"
)
_DELETE_PERIOD = "DELETE FROM period_board WHERE guild_id = ? AND period_days = ?"
_UPSERT_WINDOW = (
    "INSERT INTO period_window (guild_id, period_days, start_day) VALUES (?,?,?)"
    " ON CONFLICT (guild_id, period_days) DO UPDATE SET start_day = excluded.start_day"
)
_UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, scope, user_id, mu, sigma, ordinal, matches,"
    " last_played_at) {rows}"
    " ON CONFLICT (guild_id, scope, user_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, ordinal = excluded.ordinal, matches = excluded.matches,"
    " last_played_at = CASE WHEN excluded.last_played_at > ratings.last_played_at"
    "   THEN excluded.last_played_at ELSE ratings.last_played_at END"
)
_INSERT_RATING = (
    "INSERT INTO ratings (guild_id, scope, user_id, mu, sigma, ordinal, matches,"
    " last_played_at) {rows}"
)
_RATING_TYPES: Final = (
    "bigint",
    "text",
    "bigint",
    "float8",
    "float8",
    "float8",
    "bigint",
    "bigint",
)
_INSERT_RATING_HISTORY = (
    "INSERT INTO rating_history (guild_id, scope, user_id, match_id, mu, sigma,"
    " ordinal, ordinal_before, rated_at) {rows}"
)
_HISTORY_TYPES: Final = ("bigint", "text", "bigint", "text", *["float8"] * 4, "bigint")
#: Summary tables of a guild with a scope column: a rebuild drops their all-time rows and the
#: open season's, never a closed season's (names are fixed, not input).
_SCOPED_TABLES: Final = ("player_totals", "ratings", "rating_history")
#: The rolling period boards (all-time scopes only): dropped whole, rebuilt lazily.
_PERIOD_TABLES: Final = ("period_board", "period_window")
_DELETE_GUILD_ROWS = "DELETE FROM {table} WHERE guild_id = ?"
_DELETE_ALL_TIME_ROWS = "DELETE FROM {table} WHERE guild_id = ? AND scope NOT LIKE ?"
_DELETE_SEASON_ROWS = "DELETE FROM {table} WHERE guild_id = ? AND scope LIKE ?"
_OPEN_SEASON = "SELECT number, starts_at FROM seasons WHERE guild_id = ? AND closed_at IS NULL"
# ``finished_at >= ?``: everything (a bound before any result) or the open season's results.
_DEAL_TOTALS_BY_PROFILE = (
    "SELECT profile, user_id, COUNT(*), SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END),"
    " net_den, SUM(net_num), MAX(finished_at) FROM deal_seats"
    " WHERE guild_id = ? AND finished_at >= ? AND user_id IS NOT NULL AND outcome != 'void'"
    " GROUP BY profile, user_id, net_den"
)
_MATCH_TOTALS_BY_PROFILE = (
    "SELECT profile, user_id, COUNT(*), SUM(is_winner), MAX(finished_at)"
    " FROM match_seats WHERE guild_id = ? AND finished_at >= ? AND user_id IS NOT NULL"
    " GROUP BY profile, user_id"
)
#: A ``finished_at`` bound before every result (results are unix seconds, never negative).
_EVER: Final = -(2**62)
# Matches in the order they were recorded: SQLite's rowid; PostgreSQL has no rowid, so
# its migration gives matches an identity column ``recorded`` for the same purpose.
_MATCH_ORDER: Final[dict[Dialect, str]] = {"sqlite": "rowid", "postgres": "recorded"}
_RATED_SEATS_IN_ORDER: Final[dict[Dialect, str]] = {
    dialect: "SELECT m.match_id, m.profile, m.finished_at, s.user_id, s.place"
    " FROM matches m JOIN match_seats s ON s.match_id = m.match_id"
    " WHERE m.guild_id = ? AND s.user_id IS NOT NULL AND m.rated = 1"
    f" ORDER BY m.finished_at, m.{order}, s.seat"
    for dialect, order in _MATCH_ORDER.items()
}


# ------------------------------------------------------ incremental updates


@dataclass(frozen=True)
class SeatBump:
    """What one human seat of a result adds to that player's summary rows."""

    user_id: int
    deals: tuple[int, int] = (0, 0)  # (played, won)
    matches: tuple[int, int] = (0, 0)  # (played, won)
    net: Fraction = Fraction(0)


async def bump_result(
    conn: Conn,
    guild_id: int,
    profile: str,
    ts: int,
    bumps: Sequence[SeatBump],
    season: int | None = None,
) -> list[Batch]:
    """What one result's human seats add to ``player_totals`` (the profile's scope and
    ``'*'``, and the same two of ``season`` when it counts in one) and to every materialised
    period window that ``ts`` falls into: reads now, returns the writes for the caller to run
    (:func:`~bot.storage.conn.insert_batches`, together with its own, in the same transaction).

    One read whatever the number of seats: the current exact nets (SQL cannot add
    fractions, so the net is read-modify-written here) and the windows. The writes are
    one batch of totals rows and one of period rows. Rows go in key order so
    concurrent writers lock them in the same order."""
    if not bumps:
        return []
    base = (profile, ALL_SCOPE)
    scopes = base if season is None else (*base, *(season_scope(s, season) for s in base))
    users = [b.user_id for b in bumps]
    day = day_of(ts)
    current: dict[tuple[str, int], Fraction] = {}
    windows: list[int] = []
    for scope, key, num, den in await conn.fetchall(
        _select_nets_and_windows_sql(len(scopes), len(users)),
        (guild_id, *scopes, *users, guild_id, day, day),
    ):
        if scope is None:
            windows.append(int(key))
        else:
            current[(scope, key)] = Fraction(num, den)
    ordered = sorted(bumps, key=lambda b: b.user_id)
    total_rows: list[tuple[Any, ...]] = []
    for scope in sorted(scopes):
        for b in ordered:
            total = current.get((scope, b.user_id), Fraction(0)) + b.net
            if not fits_int64(total):
                raise StorageError("net total overflows 64-bit storage")
            total_rows.append(
                (
                    guild_id,
                    scope,
                    b.user_id,
                    b.deals[0],
                    b.deals[1],
                    b.matches[0],
                    b.matches[1],
                    total.numerator,
                    total.denominator,
                    float(total),
                    win_rate(b.deals[1], b.deals[0]),
                    ts,
                )
            )
    period_rows = [
        (
            guild_id,
            period_days,
            scope,
            b.user_id,
            b.deals[0],
            b.deals[1],
            b.matches[0],
            b.matches[1],
            float(b.net),
            win_rate(b.deals[1], b.deals[0]),
        )
        for period_days in sorted(windows)
        for scope in sorted(base)
        for b in ordered
    ]
    return [
        (_UPSERT_TOTALS, _TOTALS_TYPES, total_rows),
        (_UPSERT_PERIOD, _PERIOD_TYPES, period_rows),
    ]


async def rate_match(
    conn: Conn,
    guild_id: int,
    scopes: Sequence[str],
    match_id: str,
    ts: int,
    humans: Sequence[tuple[int, int]],
) -> list[Batch]:
    """The new openskill ratings of ``humans`` ((user_id, place) pairs) in each of
    ``scopes`` and their history rows: reads every current rating in one statement
    now and returns the two write batches (as :func:`bump_result`). Fewer than two
    humans: nothing changes.

    A player without a rating in a scope starts from openskill's default. For a season's
    scopes that is the season rating starting afresh, on purpose: a season is a race everyone
    starts level (ordinal 0), which a rating carried over with its uncertainty raised would
    not be (a veteran's mean would start them ahead). The all-time rating is untouched by it,
    and a season rating is a function of that season's matches alone, so a rebuild replays
    it exactly."""
    if not ratings.is_rated(len(humans)):
        return []
    users = [user_id for user_id, _place in humans]
    found = {
        (scope, user_id): (mu, sigma, int(n))
        for scope, user_id, mu, sigma, n in await conn.fetchall(
            _select_ratings_sql(len(scopes), len(users)), (guild_id, *scopes, *users)
        )
    }
    places = [place for _user, place in humans]
    rating_rows: list[tuple[Any, ...]] = []
    history_rows: list[tuple[Any, ...]] = []
    for scope in scopes:
        rows = [found.get((scope, user_id)) for user_id in users]
        before = [ratings.default_skill() if r is None else ratings.skill(r[0], r[1]) for r in rows]
        played = [0 if r is None else r[2] for r in rows]
        after = ratings.rate_places(before, places)
        for user_id, old, new, n in zip(users, before, after, played, strict=True):
            rating_rows.append(
                (guild_id, scope, user_id, new.mu, new.sigma, new.ordinal, n + 1, ts)
            )
            history_rows.append(
                (
                    guild_id,
                    scope,
                    user_id,
                    match_id,
                    new.mu,
                    new.sigma,
                    new.ordinal,
                    old.ordinal,
                    ts,
                )
            )
    rating_rows.sort(key=lambda r: (r[1], r[2]))
    return [
        (_UPSERT_RATING, _RATING_TYPES, rating_rows),
        (_INSERT_RATING_HISTORY, _HISTORY_TYPES, history_rows),
    ]


# ---------------------------------------------------------------- rebuild


async def lock_guild(conn: Conn, guild_id: int) -> None:
    """Take the guild's summaries lock in ``conn``'s transaction (PostgreSQL; nothing to do
    on SQLite, see :data:`GUILD_LOCK`)."""
    statement = LOCK_GUILD[conn.dialect]
    if statement is not None:
        await conn.fetchall(statement, (guild_id,))


async def rebuild(conn: Conn, guild_id: int) -> None:
    """Recompute a guild's player_totals and ratings from the result rows, all time and for
    its open season, and drop its period boards (rebuilt lazily on the next period query).
    Ratings are replayed in (finished_at, insertion) order. A closed season's rows are left
    as they are: it is frozen (:mod:`bot.storage.seasons`)."""
    await lock_guild(conn, guild_id)
    row = await conn.fetchone(_OPEN_SEASON, (guild_id,))
    season: tuple[int, int] | None = None if row is None else (int(row[0]), int(row[1]))
    any_season = f"%{SEASON_MARK}%"
    for table in _SCOPED_TABLES:
        await conn.execute(_DELETE_ALL_TIME_ROWS.format(table=table), (guild_id, any_season))
        if season is not None:
            await conn.execute(
                _DELETE_SEASON_ROWS.format(table=table),
                (guild_id, "%" + season_scope("", season[0])),
            )
    for table in _PERIOD_TABLES:
        await conn.execute(_DELETE_GUILD_ROWS.format(table=table), (guild_id,))
    totals = await _totals(conn, guild_id, _EVER, lambda scope: scope)
    if season is not None:
        number = season[0]
        totals |= await _totals(conn, guild_id, season[1], lambda s: season_scope(s, number))
    await insert_rows(
        conn,
        _INSERT_TOTALS,
        _TOTALS_TYPES,
        [
            (
                guild_id,
                scope,
                user_id,
                s[0],
                s[1],
                s[2],
                s[3],
                s[4].numerator,
                s[4].denominator,
                float(s[4]),
                win_rate(s[1], s[0]),
                s[5],
            )
            for (scope, user_id), s in totals.items()
        ],
    )
    await _replay_ratings(conn, guild_id, season)


async def _totals(
    conn: Conn, guild_id: int, since: int, scoped: Callable[[str], str]
) -> dict[tuple[str, int], list[Any]]:
    """Every player's totals over the results that finished at or after ``since``, per
    profile and all profiles, keyed by ``(scoped(scope), user_id)``: [deals played, deals
    won, matches played, matches won, net, last played]."""
    totals: dict[tuple[str, int], list[Any]] = {}

    def slot(scope: str, user_id: int) -> list[Any]:
        key = (scoped(scope), user_id)
        s = totals.get(key)
        if s is None:
            s = totals[key] = [0, 0, 0, 0, Fraction(0), 0]
        return s

    for profile, user_id, played, won, den, num, last in await conn.fetchall(
        _DEAL_TOTALS_BY_PROFILE, (guild_id, since)
    ):
        for scope in (profile, ALL_SCOPE):
            s = slot(scope, user_id)
            s[0] += played
            s[1] += won
            s[4] += Fraction(num, den)
            s[5] = max(s[5], last)
    for profile, user_id, played, won, last in await conn.fetchall(
        _MATCH_TOTALS_BY_PROFILE, (guild_id, since)
    ):
        for scope in (profile, ALL_SCOPE):
            s = slot(scope, user_id)
            s[2] += played
            s[3] += won
            s[5] = max(s[5], last)
    return totals


async def _rated_matches(
    conn: Conn, guild_id: int, season: tuple[int, int] | None
) -> list[ratings.RatedMatch]:
    """The guild's matches with their human seats, in replay order; a match of the open
    ``season`` (its number, its start) counts in that season's scopes too."""
    out: list[ratings.RatedMatch] = []
    key: tuple[str, str, int] | None = None
    humans: list[tuple[int, int]] = []

    def done(match_id: str, profile: str, ts: int) -> None:
        scopes: tuple[str, ...] = (profile, ALL_SCOPE)
        if season is not None and ts >= season[1]:
            scopes += tuple(season_scope(s, season[0]) for s in scopes)
        out.append(ratings.RatedMatch(match_id, scopes, ts, humans))

    for match_id, profile, ts, user_id, place in await conn.fetchall(
        _RATED_SEATS_IN_ORDER[conn.dialect], (guild_id,)
    ):
        if key is None or key[0] != match_id:
            if key is not None:
                done(*key)
            key = (match_id, profile, ts)
            humans = []
        humans.append((user_id, place))
    if key is not None:
        done(*key)
    return out


async def _replay_ratings(conn: Conn, guild_id: int, season: tuple[int, int] | None) -> None:
    state, history = ratings.replay(await _rated_matches(conn, guild_id, season))
    await insert_rows(
        conn,
        _INSERT_RATING,
        _RATING_TYPES,
        [
            (
                guild_id,
                scope,
                u,
                st.skill.mu,
                st.skill.sigma,
                st.skill.ordinal,
                st.matches,
                st.last_played_at,
            )
            for (scope, u), st in state.items()
        ],
    )
    await insert_rows(
        conn,
        _INSERT_RATING_HISTORY,
        _HISTORY_TYPES,
        [
            (
                guild_id,
                c.scope,
                c.user_id,
                c.match_id,
                c.skill.mu,
                c.skill.sigma,
                c.skill.ordinal,
                c.ordinal_before,
                c.rated_at,
            )
            for c in history
        ],
    )


# ---------------------------------------------------------- period windows


async def ensure_window(db: Database, guild_id: int, days: int, now: float) -> int:
    """Make period_board hold exactly the window ending on the UTC day of ``now``;
    returns its start day. Rolling forward a few days only touches the days that
    leave/enter; anything else rebuilds the window from the result rows. Reads first;
    takes a write transaction of its own only when the window moves (once a day)."""
    start = day_of(now) - days + 1
    async with db.reading() as conn:
        current = await conn.fetchval(_SELECT_WINDOW_START, (guild_id, days))
    if current == start:
        return start
    async with db.transaction() as tx:
        await lock_guild(tx, guild_id)
        old = await tx.fetchval(_SELECT_WINDOW_START, (guild_id, days))
        if old == start:
            return start
        if old is not None and 0 < start - old < days:
            await _add_days(tx, guild_id, days, old, start - 1, -1)
            await _add_days(tx, guild_id, days, old + days, start + days - 1, +1)
            await tx.execute(_DELETE_EMPTY_PERIOD_ROWS, (guild_id, days))
        else:
            await tx.execute(_DELETE_PERIOD, (guild_id, days))
            await _add_days(tx, guild_id, days, start, start + days - 1, +1)
        await tx.execute(_UPSERT_WINDOW, (guild_id, days, start))
    return start


async def _add_days(
    conn: Conn,
    guild_id: int,
    days: int,
    first_day: int,
    last_day: int,
    sign: int,
) -> None:
    """Add (sign=+1) or subtract (-1) the results of UTC days [first, last] to
    the guild's period_board, per profile and for the '*' scope."""
    lo, hi = first_day * DAY, (last_day + 1) * DAY
    for group, scope_expr in _PERIOD_GROUPINGS:
        await conn.execute(
            _UPSERT_PERIOD.format(rows=_PERIOD_DEAL_DAYS.format(scope=scope_expr, group=group)),
            (guild_id, days, sign, sign, sign, guild_id, lo, hi),
        )
        await conn.execute(
            _UPSERT_PERIOD.format(rows=_PERIOD_MATCH_DAYS.format(scope=scope_expr, group=group)),
            (guild_id, days, sign, sign, guild_id, lo, hi),
        )
