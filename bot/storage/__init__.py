"""Persistence for the Paplu bot: the only module that talks SQL.

Design notes (the *why*):

* **One aiosqlite connection, one job per operation.** Every public method hands a
  single synchronous function to aiosqlite's worker thread, and that function runs
  the whole transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``/``ROLLBACK``). aiosqlite
  executes queued jobs strictly one after another, so operations never interleave
  and no ``asyncio.Lock`` is needed. It also means a cancelled coroutine can never
  leave a half-finished transaction open: the job always runs to its end. It also
  saves a thread round-trip per statement, which is what makes the latency targets
  (``commit_action`` <= 2 ms, ``record_deal_result`` <= 5 ms) reachable.
* **Durability.** WAL journal with ``synchronous=FULL`` by default: once
  ``commit_action`` returns, the action survives a crash or power loss, so the bot
  may show it. ``foreign_keys=ON`` so events cannot outlive their table row.
* **Results are written once.** ``deals`` is unique on ``(match_id, deal_no)`` and
  ``matches`` on ``match_id``; inserts use ``ON CONFLICT DO NOTHING`` and all
  summaries are only updated when the insert really happened, in the same
  transaction. A retry, a restart or a concurrent duplicate can never count twice.
* **Exact money.** Penalties and nets are :class:`fractions.Fraction` in the engine;
  they are stored as integer numerator/denominator pairs and summed exactly. A float
  copy (``net_f``) exists only to ORDER BY.
* **Summaries.** Result rows are the source of truth. ``player_totals`` (all time),
  ``period_board`` (rolling 7/30 days) and ``ratings`` are derived, indexed for
  ``LIMIT``-sized page scans, and can be recomputed with :meth:`rebuild_summaries`.
  Scope ``'*'`` holds the all-profiles aggregate (and an overall rating).
* **AI seats** (``is_ai`` or ``user_id is None``) are stored in results but never in
  summaries, ratings, stats or leaderboards. Ratings only move in matches with at
  least two humans; the humans are ranked among themselves by their places.
* **Void deals** are kept in the history (``recent_deals``/``hand_history``) but
  count for nothing: not played, not won, no net.
* **Net chips** on boards/stats are the sum of *deal* nets; the per-seat match net
  is stored with the match result but not added again (it would double count).
* **forget_user** deletes the user's summaries, ratings, rating history and name,
  and anonymises (user_id NULL, name "(deleted)") their seats in results so the
  other players' results and totals stay intact. Hand-history JSON is engine-owned
  opaque text and is not rewritten.

Period semantics: a period ``"7d"``/``"30d"`` covers whole UTC calendar days, i.e.
today (the UTC day of ``now``) and the previous 6 / 29 days. For ``sort="rating"``
the value is always the *current* rating; the period only restricts the board to
players who played a rated match inside the window.
"""

from __future__ import annotations

import asyncio
import enum
import importlib.resources
import json
import math
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar, get_args

import aiosqlite
from openskill.models import PlackettLuce

__all__ = [
    "DELETED_NAME",
    "DealHistoryRow",
    "DealResult",
    "DealSeat",
    "GameEvent",
    "GuildSettings",
    "LeaderboardRow",
    "MatchResult",
    "MatchSeat",
    "Migration",
    "NotFoundError",
    "Outcome",
    "Period",
    "PlayerRank",
    "PlayerStats",
    "ProfileStats",
    "RatingInfo",
    "RatingPoint",
    "SortKey",
    "Storage",
    "StorageError",
    "TableRecord",
    "TableStatus",
    "VersionConflictError",
    "load_migrations",
]

T = TypeVar("T")

TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
Outcome = Literal["won", "lost", "dropped_first", "dropped_middle", "invalid_declaration", "void"]
SortKey = Literal["rating", "matches_won", "deals_won", "net_chips", "win_rate"]
Period = Literal["all", "30d", "7d"]

TABLE_STATUSES: frozenset[str] = frozenset(get_args(TableStatus))
OPEN_STATUSES: tuple[str, ...] = ("lobby", "playing")
OUTCOMES: frozenset[str] = frozenset(get_args(Outcome))
SORT_KEYS: frozenset[str] = frozenset(get_args(SortKey))
PERIOD_DAYS: dict[str, int] = {"7d": 7, "30d": 30}
#: Outcomes that cost the player a penalty ("losing" for the average-penalty stat).
LOSING_OUTCOMES: frozenset[str] = frozenset(
    {"lost", "dropped_first", "dropped_middle", "invalid_declaration"}
)
#: Name written over a forgotten user's seats in other players' results.
DELETED_NAME = "(deleted)"
#: Scope key of the all-profiles aggregate in summary tables.
ALL_SCOPE = "*"
DAY = 86_400
DEFAULT_PROFILE = "points"
DEFAULT_TURN_TIMER = 60
_INT64 = 2**63


class StorageError(Exception):
    """Base class for storage errors the caller is expected to handle."""


class VersionConflictError(StorageError):
    """A write carried a table version that is not newer than the stored one (or the
    table is already closed). The caller holds a stale snapshot and must reload."""


class NotFoundError(StorageError):
    """The referenced table does not exist."""


class _Unset(enum.Enum):
    UNSET = 0


UNSET = _Unset.UNSET
"""Sentinel for "leave this column unchanged" (``None`` is a meaningful value)."""


# --------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered ``.sql`` file of :mod:`bot.storage.migrations`."""

    version: int
    name: str
    sql: str


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A durable game table (lobby or match in progress, or a closed one)."""

    table_id: str
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    state_json: str
    version: int
    public_message_id: int | None
    prompt_message_id: int | None
    turn_deadline: float | None
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One accepted action; ``seq`` equals the table version it produced."""

    table_id: str
    seq: int
    event_json: str
    created_at: float


@dataclass(frozen=True, slots=True)
class DealSeat:
    """One seat of a finished deal. ``user_id`` is ``None`` for AI seats."""

    user_id: int | None
    name: str
    is_ai: bool
    outcome: Outcome
    penalty: Fraction
    net: Fraction


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal as reported by the engine; written once per (match_id, deal_no)."""

    guild_id: int
    match_id: str
    deal_no: int
    profile: str
    finished_at: int
    hand_history_json: str
    seats: Sequence[DealSeat]


@dataclass(frozen=True, slots=True)
class MatchSeat:
    """One seat of a finished match; ``place`` 1 is the winner, ties share a place."""

    user_id: int | None
    name: str
    is_ai: bool
    place: int
    is_winner: bool
    net: Fraction


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match; written once per match_id."""

    match_id: str
    guild_id: int
    profile: str
    finished_at: int
    seats: Sequence[MatchSeat]


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One leaderboard line. ``value`` is: rating -> float ordinal, matches_won /
    deals_won -> int, net_chips -> exact Fraction, win_rate -> float in [0, 1].
    ``games`` is rated matches (rating), matches played (matches_won) or deals played
    (deals_won, net_chips, win_rate) within the period."""

    rank: int
    user_id: int
    name: str
    value: float | int | Fraction
    games: int


@dataclass(frozen=True, slots=True)
class PlayerRank:
    """A player's own position on a board (same meaning of fields as LeaderboardRow)
    plus the number of ranked players."""

    rank: int
    user_id: int
    name: str
    value: float | int | Fraction
    games: int
    total: int


@dataclass(frozen=True, slots=True)
class RatingInfo:
    """openskill PlackettLuce rating; ``ordinal`` (mu - 3*sigma) is what is displayed."""

    mu: float
    sigma: float
    ordinal: float
    matches: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """Rating after one rated match (for trend charts)."""

    match_id: str
    rated_at: int
    mu: float
    sigma: float
    ordinal: float
    ordinal_before: float


@dataclass(frozen=True, slots=True)
class ProfileStats:
    """A player's numbers for one profile. Void deals are not counted at all.
    ``avg_penalty_when_losing`` averages over lost/dropped/invalid deals.
    ``rating_trend`` is the ordinal change over the last ``trend_matches`` rated
    matches (None without rating history)."""

    profile: str
    matches_played: int
    matches_won: int
    deals_played: int
    deals_won: int
    avg_penalty_when_losing: Fraction | None
    drops_first: int
    drops_middle: int
    invalid_declarations: int
    best_deal: Fraction | None
    worst_deal: Fraction | None
    net: Fraction
    rating: RatingInfo | None
    rating_trend: float | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """All of a player's per-profile stats in one guild plus the overall rating."""

    guild_id: int
    user_id: int
    profiles: dict[str, ProfileStats]
    overall_rating: RatingInfo | None


@dataclass(frozen=True, slots=True)
class DealHistoryRow:
    """One line of a player's recent deals; ``deal_id`` opens the hand history."""

    deal_id: int
    match_id: str
    deal_no: int
    profile: str
    finished_at: int
    outcome: Outcome
    net: Fraction


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild configuration. ``allowed_channel_ids`` None means every channel."""

    guild_id: int
    default_profile: str = DEFAULT_PROFILE
    turn_timer: int = DEFAULT_TURN_TIMER
    allowed_channel_ids: frozenset[int] | None = field(default=None)

    def channel_allowed(self, channel_id: int) -> bool:
        """Whether games may be started in ``channel_id``."""
        return self.allowed_channel_ids is None or channel_id in self.allowed_channel_ids


# ---------------------------------------------------------------------- helpers


def _frac(value: Fraction | int | float | str | Decimal, what: str) -> Fraction:
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
    if abs(result.numerator) >= _INT64 or result.denominator >= _INT64:
        raise ValueError(f"{what} {result} does not fit in 64-bit numerator/denominator")
    return result


def _pair(value: Fraction | int | float | str | Decimal, what: str) -> tuple[int, int]:
    """(numerator, denominator) for storage; plain ints skip Fraction construction
    because bulk imports convert millions of them."""
    if type(value) is int:
        if abs(value) >= _INT64:
            raise ValueError(f"{what} {value} does not fit in 64 bits")
        return value, 1
    f = _frac(value, what)
    return f.numerator, f.denominator


def _day(ts: float) -> int:
    return int(ts // DAY)


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (sqlite3.complete_statement understands
    strings, comments and trigger bodies), so each runs inside our transaction
    instead of through executescript, which would COMMIT on its own."""
    statements: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            stmt = buf.strip()
            if stmt.rstrip(";").strip():
                statements.append(stmt)
            buf = ""
    rest = "\n".join(
        ln for ln in buf.splitlines() if ln.strip() and not ln.strip().startswith("--")
    )
    if rest.strip():
        raise StorageError(f"incomplete SQL statement at end of migration: {rest[:80]!r}")
    return statements


_MIGRATION_RE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def load_migrations() -> list[Migration]:
    """All migrations shipped in :mod:`bot.storage.migrations`, ordered; versions
    must be contiguous from 1 so a missing file is caught rather than skipped."""
    found: list[Migration] = []
    root = importlib.resources.files("bot.storage.migrations").joinpath("sqlite")
    for entry in root.iterdir():
        m = _MIGRATION_RE.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda mig: mig.version)
    for expected, mig in enumerate(found, start=1):
        if mig.version != expected:
            raise StorageError(f"migration numbering gap/duplicate at {mig.version:04d}")
    return found


def _migrate(conn: sqlite3.Connection, migrations: Sequence[Migration], target: int) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    for mig in migrations:
        if mig.version > target:
            break
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the write lock: another process may have migrated.
            (current,) = conn.execute(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version"
            ).fetchone()
            if mig.version <= current:
                conn.execute("ROLLBACK")
                continue
            if mig.version != current + 1:
                raise StorageError(f"cannot apply {mig.version:04d} on schema v{current}")
            for stmt in _split_sql(mig.sql):
                conn.execute(stmt)
            conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (mig.version, mig.name, time.time()),
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    (final,) = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    known = migrations[-1].version if migrations else 0
    if final > known:
        raise StorageError(f"database schema v{final} is newer than this code (v{known})")
    return int(final)


def _write(conn: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``body`` in an explicit write transaction (taken up-front with IMMEDIATE
    so it cannot fail half-way with SQLITE_BUSY on lock upgrade)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


async def _run_on_worker(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``fn(sqlite3_connection)`` as one job on aiosqlite's worker thread.

    ``Connection._execute`` is aiosqlite's internal "queue a callable" hook (present
    since 0.1, unchanged through the pinned <0.23 range); all of aiosqlite's own
    methods go through it, so jobs stay strictly ordered with any other use."""
    runner: Callable[[Callable[[], T]], Awaitable[T]] = db._execute
    return await runner(lambda: fn(db._conn))


# Column names for each sort; interpolated from this fixed whitelist only.
_BOARD_COLUMNS: dict[str, tuple[str, str]] = {
    "matches_won": ("matches_won", "matches_played"),
    "deals_won": ("deals_won", "deals_played"),
    "net_chips": ("net_f", "deals_played"),
    "win_rate": ("win_rate", "deals_played"),
}

_MODEL = PlackettLuce()


def _win_rate(won: int, played: int) -> float:
    return won / played if played > 0 else 0.0


# ---------------------------------------------------------------------- storage


class Storage:
    """Async facade over the bot's SQLite database. Create with :meth:`open`."""

    def __init__(self, db: aiosqlite.Connection, schema_version: int) -> None:
        """Use :meth:`open`; this only wires an already migrated connection."""
        self._db: aiosqlite.Connection | None = db
        self._schema_version = schema_version

    # ------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        migrate_to: int | None = None,
    ) -> Storage:
        """Open (creating parent directories) and migrate to the latest schema.

        ``":memory:"`` gives a private in-memory database for tests. ``migrate_to``
        stops at an earlier schema version (for migration tests only; the rest of
        the API assumes the latest schema). ``synchronous="NORMAL"`` trades the last
        few commits on power loss for speed; the default keeps every commit.
        """
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous must be FULL or NORMAL")
        target = str(path)
        if target != ":memory:" and not target.startswith("file:"):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(target, isolation_level=None)
        try:
            migrations = load_migrations()
            upto = migrations[-1].version if migrate_to is None else migrate_to

            def setup(conn: sqlite3.Connection) -> int:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(f"PRAGMA synchronous={synchronous}")  # whitelisted above
                conn.execute("PRAGMA foreign_keys=ON")
                conn.execute("PRAGMA busy_timeout=5000")
                # 64 MiB page cache: leaderboard/index pages of a big guild stay hot.
                conn.execute("PRAGMA cache_size=-65536")
                conn.execute("PRAGMA temp_store=MEMORY")
                return _migrate(conn, migrations, upto)

            version = await _run_on_worker(db, setup)
        except BaseException:
            await db.close()
            raise
        return cls(db, version)

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        db, self._db = self._db, None
        if db is not None:
            await db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def schema_version(self) -> int:
        """Highest applied migration number."""

        def q(conn: sqlite3.Connection) -> int:
            (v,) = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            return int(v)

        return await self._read(q)

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` as one job on aiosqlite's worker thread (see module doc)."""
        db = self._db
        if db is None:
            raise StorageError("storage is closed")
        # aiosqlite's queue runs jobs one at a time; _execute is its (stable since
        # 0.1, pinned <0.23) hook for running a callable on that thread.
        return await _run_on_worker(db, fn)

    async def _tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` inside one write transaction as one job."""
        return await self._read(lambda conn: _write(conn, fn))

    # ----------------------------------------------------------- game tables

    async def save_table(
        self,
        table_id: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        status: TableStatus,
        state_json: str,
        version: int,
        public_message_id: int | None = None,
        prompt_message_id: int | None = None,
        turn_deadline: float | None = None,
        now: float | None = None,
    ) -> None:
        """Insert or replace a table snapshot.

        Optimistic concurrency: an update only applies if ``version`` is strictly
        greater than the stored one and the table is still open; otherwise
        :class:`VersionConflictError` (a stale writer must never overwrite newer
        state).
        """
        if status not in TABLE_STATUSES:
            raise ValueError(f"bad status {status!r}")
        ts = time.time() if now is None else now
        params = (
            table_id,
            guild_id,
            channel_id,
            host_id,
            status,
            public_message_id,
            prompt_message_id,
            state_json,
            version,
            turn_deadline,
            ts,
            ts,
        )

        def body(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                "INSERT INTO game_tables (table_id, guild_id, channel_id, host_id, status,"
                " public_message_id, prompt_message_id, state_json, version, turn_deadline,"
                " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT (table_id) DO UPDATE SET guild_id = excluded.guild_id,"
                " channel_id = excluded.channel_id, host_id = excluded.host_id,"
                " status = excluded.status, public_message_id = excluded.public_message_id,"
                " prompt_message_id = excluded.prompt_message_id,"
                " state_json = excluded.state_json, version = excluded.version,"
                " turn_deadline = excluded.turn_deadline, updated_at = excluded.updated_at"
                " WHERE excluded.version > game_tables.version"
                " AND game_tables.status IN ('lobby', 'playing')",
                params,
            )
            if cur.rowcount == 0:
                raise VersionConflictError(f"table {table_id}: version {version} is stale")

        await self._tx(body)

    async def commit_action(
        self,
        table_id: str,
        version: int,
        state_json: str,
        event_json: str,
        *,
        status: TableStatus | _Unset = UNSET,
        turn_deadline: float | _Unset | None = UNSET,
        prompt_message_id: int | _Unset | None = UNSET,
        public_message_id: int | _Unset | None = UNSET,
        now: float | None = None,
    ) -> None:
        """Durably accept one game action: the new snapshot (``version``) and its
        event (``seq = version``) are written in ONE transaction, so after a crash the
        log and the snapshot always agree. Call before showing the action.

        Raises :class:`VersionConflictError` if ``version`` is not newer than the
        stored one or the table is closed, :class:`NotFoundError` if unknown.
        Optional keyword arguments update those columns too (UNSET = keep).
        """
        if not isinstance(status, _Unset) and status not in TABLE_STATUSES:
            raise ValueError(f"bad status {status!r}")
        ts = time.time() if now is None else now
        sets = ["version = ?", "state_json = ?", "updated_at = ?"]
        args: list[Any] = [version, state_json, ts]
        for column, value in (
            ("status", status),
            ("turn_deadline", turn_deadline),
            ("prompt_message_id", prompt_message_id),
            ("public_message_id", public_message_id),
        ):
            if not isinstance(value, _Unset):
                sets.append(f"{column} = ?")
                args.append(value)
        sql = (
            f"UPDATE game_tables SET {', '.join(sets)}"
            " WHERE table_id = ? AND version < ? AND status IN ('lobby', 'playing')"
        )
        args += [table_id, version]

        def body(conn: sqlite3.Connection) -> None:
            if conn.execute(sql, args).rowcount == 0:
                self._raise_table_conflict(conn, table_id, version)
            conn.execute(
                "INSERT INTO game_events (table_id, seq, event_json, created_at)"
                " VALUES (?, ?, ?, ?)",
                (table_id, version, event_json, ts),
            )

        await self._tx(body)

    @staticmethod
    def _raise_table_conflict(conn: sqlite3.Connection, table_id: str, version: int) -> None:
        row = conn.execute(
            "SELECT version, status FROM game_tables WHERE table_id = ?", (table_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no table {table_id}")
        raise VersionConflictError(
            f"table {table_id}: version {version} rejected (stored {row[0]}, {row[1]})"
        )

    async def append_event(
        self, table_id: str, seq: int, event_json: str, *, now: float | None = None
    ) -> None:
        """Append an event without a snapshot (e.g. chat/system notes). Prefer
        :meth:`commit_action` for game actions. Duplicate ``seq`` raises
        :class:`VersionConflictError`; unknown table raises :class:`NotFoundError`."""
        ts = time.time() if now is None else now

        def body(conn: sqlite3.Connection) -> None:
            if (
                conn.execute("SELECT 1 FROM game_tables WHERE table_id = ?", (table_id,)).fetchone()
                is None
            ):
                raise NotFoundError(f"no table {table_id}")
            try:
                conn.execute(
                    "INSERT INTO game_events (table_id, seq, event_json, created_at)"
                    " VALUES (?, ?, ?, ?)",
                    (table_id, seq, event_json, ts),
                )
            except sqlite3.IntegrityError as exc:
                raise VersionConflictError(f"table {table_id}: seq {seq} exists") from exc

        await self._tx(body)

    async def set_table_messages(
        self,
        table_id: str,
        *,
        public_message_id: int | _Unset | None = UNSET,
        prompt_message_id: int | _Unset | None = UNSET,
    ) -> None:
        """Record Discord message ids without bumping the game version (posting a
        message is not a game action). Raises NotFoundError for unknown tables."""
        sets: list[str] = []
        args: list[Any] = []
        for column, value in (
            ("public_message_id", public_message_id),
            ("prompt_message_id", prompt_message_id),
        ):
            if not isinstance(value, _Unset):
                sets.append(f"{column} = ?")
                args.append(value)
        if not sets:
            return
        sql = f"UPDATE game_tables SET {', '.join(sets)} WHERE table_id = ?"

        def body(conn: sqlite3.Connection) -> None:
            if conn.execute(sql, [*args, table_id]).rowcount == 0:
                raise NotFoundError(f"no table {table_id}")

        await self._tx(body)

    async def close_table(
        self, table_id: str, status: Literal["finished", "cancelled"], *, now: float | None = None
    ) -> bool:
        """Mark a table finished/cancelled so it is not restored on start-up.
        Returns False if it was unknown or already closed (safe to retry)."""
        if status not in ("finished", "cancelled"):
            raise ValueError("close_table status must be 'finished' or 'cancelled'")
        ts = time.time() if now is None else now

        def body(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE game_tables SET status = ?, turn_deadline = NULL, updated_at = ?"
                " WHERE table_id = ? AND status IN ('lobby', 'playing')",
                (status, ts, table_id),
            )
            return cur.rowcount > 0

        return await self._tx(body)

    _TABLE_COLS = (
        "table_id, guild_id, channel_id, host_id, status, state_json, version,"
        " public_message_id, prompt_message_id, turn_deadline, created_at, updated_at"
    )

    @staticmethod
    def _table_row(row: tuple[Any, ...]) -> TableRecord:
        return TableRecord(*row)

    async def load_table(self, table_id: str) -> TableRecord | None:
        """One table, whatever its status."""

        def q(conn: sqlite3.Connection) -> TableRecord | None:
            row = conn.execute(
                f"SELECT {self._TABLE_COLS} FROM game_tables WHERE table_id = ?", (table_id,)
            ).fetchone()
            return None if row is None else self._table_row(row)

        return await self._read(q)

    async def load_open_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        """All lobby/playing tables (optionally one guild's), oldest first, for
        restoring games after a restart."""

        def q(conn: sqlite3.Connection) -> list[TableRecord]:
            sql = f"SELECT {self._TABLE_COLS} FROM game_tables WHERE status IN ('lobby', 'playing')"
            args: tuple[Any, ...] = ()
            if guild_id is not None:
                sql += " AND guild_id = ?"
                args = (guild_id,)
            rows = conn.execute(sql + " ORDER BY created_at, table_id", args).fetchall()
            return [self._table_row(r) for r in rows]

        return await self._read(q)

    async def load_events(self, table_id: str, *, after_seq: int = 0) -> list[GameEvent]:
        """A table's events with ``seq > after_seq`` in order (replay / audit)."""

        def q(conn: sqlite3.Connection) -> list[GameEvent]:
            rows = conn.execute(
                "SELECT table_id, seq, event_json, created_at FROM game_events"
                " WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after_seq),
            ).fetchall()
            return [GameEvent(*r) for r in rows]

        return await self._read(q)

    # --------------------------------------------------------------- results

    @staticmethod
    def _check_humans(seats: Sequence[DealSeat] | Sequence[MatchSeat], what: str) -> None:
        if not seats:
            raise ValueError(f"{what} has no seats")
        seen: set[int] = set()
        for seat in seats:
            if seat.user_id is None and not seat.is_ai:
                raise ValueError(f"{what}: human seat {seat.name!r} without user_id")
            if seat.user_id is not None and not seat.is_ai:
                if seat.user_id in seen:
                    raise ValueError(f"{what}: user {seat.user_id} seated twice")
                seen.add(seat.user_id)

    @staticmethod
    def _deal_seat_rows(result: DealResult) -> list[tuple[Any, ...]]:
        Storage._check_humans(result.seats, f"deal {result.match_id}#{result.deal_no}")
        rows: list[tuple[Any, ...]] = []
        for i, seat in enumerate(result.seats):
            if seat.outcome not in OUTCOMES:
                raise ValueError(f"bad outcome {seat.outcome!r}")
            pen_num, pen_den = _pair(seat.penalty, "penalty")
            net_num, net_den = _pair(seat.net, "net")
            rows.append(
                (
                    i,
                    result.guild_id,
                    result.profile,
                    int(result.finished_at),
                    None if seat.is_ai else seat.user_id,
                    seat.name,
                    int(seat.is_ai),
                    seat.outcome,
                    pen_num,
                    pen_den,
                    net_num,
                    net_den,
                )
            )
        return rows

    @staticmethod
    def _match_seat_rows(result: MatchResult) -> list[tuple[Any, ...]]:
        Storage._check_humans(result.seats, f"match {result.match_id}")
        rows: list[tuple[Any, ...]] = []
        for i, seat in enumerate(result.seats):
            if seat.place < 1:
                raise ValueError("place must be >= 1")
            net_num, net_den = _pair(seat.net, "net")
            rows.append(
                (
                    i,
                    result.guild_id,
                    result.profile,
                    int(result.finished_at),
                    None if seat.is_ai else seat.user_id,
                    seat.name,
                    int(seat.is_ai),
                    seat.place,
                    int(seat.is_winner),
                    net_num,
                    net_den,
                )
            )
        return rows

    _INSERT_DEAL_SEAT = (
        "INSERT INTO deal_seats (deal_id, seat, guild_id, profile, finished_at, user_id, name,"
        " is_ai, outcome, penalty_num, penalty_den, net_num, net_den)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
    )
    _INSERT_MATCH_SEAT = (
        "INSERT INTO match_seats (match_id, seat, guild_id, profile, finished_at, user_id,"
        " name, is_ai, place, is_winner, net_num, net_den) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
    )
    _UPSERT_NAME = (
        "INSERT INTO player_names (guild_id, user_id, name) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name"
    )

    async def record_deal_result(self, result: DealResult) -> bool:
        """Store a finished deal once. Returns True if newly recorded, False if this
        (match_id, deal_no) was already stored (nothing is counted again)."""
        seat_rows = self._deal_seat_rows(result)

        def body(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "INSERT INTO deals (guild_id, match_id, deal_no, profile, finished_at,"
                " hand_history) VALUES (?,?,?,?,?,?)"
                " ON CONFLICT (match_id, deal_no) DO NOTHING",
                (
                    result.guild_id,
                    result.match_id,
                    result.deal_no,
                    result.profile,
                    int(result.finished_at),
                    result.hand_history_json,
                ),
            )
            if cur.rowcount == 0:
                return False
            deal_id = cur.lastrowid
            conn.executemany(self._INSERT_DEAL_SEAT, [(deal_id, *r) for r in seat_rows])
            windows = self._windows_containing(conn, result.guild_id, int(result.finished_at))
            for r in seat_rows:
                user_id = r[4]
                if user_id is None:
                    continue
                conn.execute(self._UPSERT_NAME, (result.guild_id, user_id, r[5]))
                if r[7] == "void":
                    continue  # a void deal stays in history but counts for nothing
                played = 1
                won = int(r[7] == "won")
                net = Fraction(r[10], r[11])
                for scope in (result.profile, ALL_SCOPE):
                    self._bump_totals(
                        conn,
                        result.guild_id,
                        scope,
                        user_id,
                        int(result.finished_at),
                        deals=(played, won),
                        net=net,
                    )
                    for period_days in windows:
                        self._bump_period(
                            conn,
                            result.guild_id,
                            period_days,
                            scope,
                            user_id,
                            deals=(played, won),
                            matches=(0, 0),
                            net_f=float(net),
                        )
            return True

        return await self._tx(body)

    async def record_match_result(self, result: MatchResult) -> bool:
        """Store a finished match once and update ratings (per profile and overall)
        from the finishing order of its human seats. Returns True if newly recorded.

        Ratings only move when at least two humans took part (beating AI seats says
        nothing about skill relative to other players)."""
        seat_rows = self._match_seat_rows(result)

        def body(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "INSERT INTO matches (match_id, guild_id, profile, finished_at)"
                " VALUES (?,?,?,?) ON CONFLICT (match_id) DO NOTHING",
                (result.match_id, result.guild_id, result.profile, int(result.finished_at)),
            )
            if cur.rowcount == 0:
                return False
            conn.executemany(self._INSERT_MATCH_SEAT, [(result.match_id, *r) for r in seat_rows])
            ts = int(result.finished_at)
            windows = self._windows_containing(conn, result.guild_id, ts)
            humans: list[tuple[int, int]] = []
            for r in seat_rows:
                user_id = r[4]
                if user_id is None:
                    continue
                humans.append((user_id, r[7]))
                conn.execute(self._UPSERT_NAME, (result.guild_id, user_id, r[5]))
                for scope in (result.profile, ALL_SCOPE):
                    self._bump_totals(conn, result.guild_id, scope, user_id, ts, matches=(1, r[8]))
                    for period_days in windows:
                        self._bump_period(
                            conn,
                            result.guild_id,
                            period_days,
                            scope,
                            user_id,
                            deals=(0, 0),
                            matches=(1, r[8]),
                            net_f=0.0,
                        )
            for scope in (result.profile, ALL_SCOPE):
                self._rate(conn, result.guild_id, scope, result.match_id, ts, humans)
            return True

        return await self._tx(body)

    @staticmethod
    def _bump_totals(
        conn: sqlite3.Connection,
        guild_id: int,
        scope: str,
        user_id: int,
        ts: int,
        *,
        deals: tuple[int, int] = (0, 0),
        matches: tuple[int, int] = (0, 0),
        net: Fraction | None = None,
    ) -> None:
        """Add to a player_totals row. The exact net is read-modify-written in Python
        (SQL cannot add fractions); counters are added in SQL."""
        row = conn.execute(
            "SELECT net_num, net_den FROM player_totals"
            " WHERE guild_id = ? AND scope = ? AND user_id = ?",
            (guild_id, scope, user_id),
        ).fetchone()
        total = Fraction(row[0], row[1]) if row else Fraction(0)
        if net:
            total += net
        if abs(total.numerator) >= _INT64 or total.denominator >= _INT64:
            raise StorageError("net total overflows 64-bit storage")
        conn.execute(
            "INSERT INTO player_totals (guild_id, scope, user_id, deals_played, deals_won,"
            " matches_played, matches_won, net_num, net_den, net_f, win_rate, last_played_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT (guild_id, scope, user_id) DO UPDATE SET"
            " deals_played = deals_played + excluded.deals_played,"
            " deals_won = deals_won + excluded.deals_won,"
            " matches_played = matches_played + excluded.matches_played,"
            " matches_won = matches_won + excluded.matches_won,"
            " net_num = excluded.net_num, net_den = excluded.net_den, net_f = excluded.net_f,"
            " win_rate = CASE WHEN deals_played + excluded.deals_played > 0"
            "   THEN (deals_won + excluded.deals_won) * 1.0"
            "        / (deals_played + excluded.deals_played) ELSE 0.0 END,"
            " last_played_at = MAX(last_played_at, excluded.last_played_at)",
            (
                guild_id,
                scope,
                user_id,
                deals[0],
                deals[1],
                matches[0],
                matches[1],
                total.numerator,
                total.denominator,
                float(total),
                _win_rate(deals[1], deals[0]),
                ts,
            ),
        )

    _UPSERT_PERIOD = (
        "INSERT INTO period_board (guild_id, period_days, scope, user_id, deals_played,"
        " deals_won, matches_played, matches_won, net_f, win_rate)"
        " {select}"
        " ON CONFLICT (guild_id, period_days, scope, user_id) DO UPDATE SET"
        " deals_played = deals_played + excluded.deals_played,"
        " deals_won = deals_won + excluded.deals_won,"
        " matches_played = matches_played + excluded.matches_played,"
        " matches_won = matches_won + excluded.matches_won,"
        " net_f = net_f + excluded.net_f,"
        " win_rate = CASE WHEN deals_played + excluded.deals_played > 0"
        "   THEN (deals_won + excluded.deals_won) * 1.0"
        "        / (deals_played + excluded.deals_played) ELSE 0.0 END"
    )
    _UPSERT_PERIOD_VALUES = _UPSERT_PERIOD.format(select="VALUES (?,?,?,?,?,?,?,?,?,?)")

    @classmethod
    def _bump_period(
        cls,
        conn: sqlite3.Connection,
        guild_id: int,
        period_days: int,
        scope: str,
        user_id: int,
        *,
        deals: tuple[int, int],
        matches: tuple[int, int],
        net_f: float,
    ) -> None:
        conn.execute(
            cls._UPSERT_PERIOD_VALUES,
            (
                guild_id,
                period_days,
                scope,
                user_id,
                deals[0],
                deals[1],
                matches[0],
                matches[1],
                net_f,
                _win_rate(deals[1], deals[0]),
            ),
        )

    @staticmethod
    def _windows_containing(conn: sqlite3.Connection, guild_id: int, ts: int) -> list[int]:
        """Materialised period windows that a result at ``ts`` falls into."""
        day = _day(ts)
        rows = conn.execute(
            "SELECT period_days FROM period_window WHERE guild_id = ?"
            " AND start_day <= ? AND start_day + period_days > ?",
            (guild_id, day, day),
        ).fetchall()
        return [int(r[0]) for r in rows]

    @staticmethod
    def _rate(
        conn: sqlite3.Connection,
        guild_id: int,
        scope: str,
        match_id: str,
        ts: int,
        humans: Sequence[tuple[int, int]],
    ) -> None:
        """Update openskill ratings of ``humans`` ((user_id, place) pairs) and append
        history rows. Fewer than two humans: nothing to learn, nothing changes."""
        if len(humans) < 2:
            return
        current: list[Any] = []
        before: list[tuple[int, float]] = []
        for user_id, _place in humans:
            row = conn.execute(
                "SELECT mu, sigma, matches FROM ratings"
                " WHERE guild_id = ? AND scope = ? AND user_id = ?",
                (guild_id, scope, user_id),
            ).fetchone()
            rating = _MODEL.rating() if row is None else _MODEL.rating(mu=row[0], sigma=row[1])
            current.append(rating)
            before.append((0 if row is None else int(row[2]), rating.ordinal()))
        new = _MODEL.rate([[r] for r in current], ranks=[float(p) for _u, p in humans])
        rating_rows = []
        history_rows = []
        for (user_id, _place), (team,), (played, old_ordinal) in zip(
            humans, new, before, strict=True
        ):
            ordinal = team.ordinal()
            rating_rows.append(
                (guild_id, scope, user_id, team.mu, team.sigma, ordinal, played + 1, ts)
            )
            history_rows.append(
                (guild_id, scope, user_id, match_id, team.mu, team.sigma, ordinal, old_ordinal, ts)
            )
        conn.executemany(
            "INSERT INTO ratings (guild_id, scope, user_id, mu, sigma, ordinal, matches,"
            " last_played_at) VALUES (?,?,?,?,?,?,?,?)"
            " ON CONFLICT (guild_id, scope, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, ordinal = excluded.ordinal, matches = excluded.matches,"
            " last_played_at = MAX(last_played_at, excluded.last_played_at)",
            rating_rows,
        )
        conn.executemany(
            "INSERT INTO rating_history (guild_id, scope, user_id, match_id, mu, sigma,"
            " ordinal, ordinal_before, rated_at) VALUES (?,?,?,?,?,?,?,?,?)",
            history_rows,
        )

    # ------------------------------------------------------- bulk / rebuild

    async def import_results(
        self,
        deals: Iterable[DealResult] = (),
        matches: Iterable[MatchResult] = (),
        *,
        batch_size: int = 20_000,
    ) -> tuple[int, int]:
        """Bulk-load results (backfill, benchmarks), skipping ones already stored,
        then recompute the affected guilds' summaries. Much faster than recording one
        by one because summaries are built once with set-based SQL. Returns
        (deals inserted, matches inserted)."""
        guilds: set[int] = set()
        n_deals = 0
        n_matches = 0

        def deal_batch(batch: list[DealResult]) -> Callable[[sqlite3.Connection], int]:
            prepared = [(d, self._deal_seat_rows(d)) for d in batch]

            def body(conn: sqlite3.Connection) -> int:
                seats: list[tuple[Any, ...]] = []
                names: dict[tuple[int, int], str] = {}
                inserted = 0
                for d, rows in prepared:
                    cur = conn.execute(
                        "INSERT INTO deals (guild_id, match_id, deal_no, profile, finished_at,"
                        " hand_history) VALUES (?,?,?,?,?,?)"
                        " ON CONFLICT (match_id, deal_no) DO NOTHING",
                        (
                            d.guild_id,
                            d.match_id,
                            d.deal_no,
                            d.profile,
                            int(d.finished_at),
                            d.hand_history_json,
                        ),
                    )
                    if cur.rowcount == 0:
                        continue
                    inserted += 1
                    deal_id = cur.lastrowid
                    for r in rows:
                        seats.append((deal_id, *r))
                        if r[4] is not None:
                            names[(d.guild_id, r[4])] = r[5]
                conn.executemany(self._INSERT_DEAL_SEAT, seats)
                conn.executemany(self._UPSERT_NAME, [(g, u, n) for (g, u), n in names.items()])
                return inserted

            return body

        def match_batch(batch: list[MatchResult]) -> Callable[[sqlite3.Connection], int]:
            prepared = [(m, self._match_seat_rows(m)) for m in batch]

            def body(conn: sqlite3.Connection) -> int:
                seats: list[tuple[Any, ...]] = []
                names: dict[tuple[int, int], str] = {}
                inserted = 0
                for m, rows in prepared:
                    cur = conn.execute(
                        "INSERT INTO matches (match_id, guild_id, profile, finished_at)"
                        " VALUES (?,?,?,?) ON CONFLICT (match_id) DO NOTHING",
                        (m.match_id, m.guild_id, m.profile, int(m.finished_at)),
                    )
                    if cur.rowcount == 0:
                        continue
                    inserted += 1
                    for r in rows:
                        seats.append((m.match_id, *r))
                        if r[4] is not None:
                            names[(m.guild_id, r[4])] = r[5]
                conn.executemany(self._INSERT_MATCH_SEAT, seats)
                conn.executemany(self._UPSERT_NAME, [(g, u, n) for (g, u), n in names.items()])
                return inserted

            return body

        # Pipelining: while the worker thread inserts one batch, this coroutine
        # validates/converts the next one (sqlite releases the GIL while it works).
        pending: asyncio.Future[int] | None = None

        async def submit(job: Callable[[sqlite3.Connection], int]) -> int:
            nonlocal pending
            done = 0 if pending is None else await pending
            pending = asyncio.ensure_future(self._tx(job))
            return done

        dbatch: list[DealResult] = []
        for d in deals:
            guilds.add(d.guild_id)
            dbatch.append(d)
            if len(dbatch) >= batch_size:
                n_deals += await submit(deal_batch(dbatch))
                dbatch = []
        if dbatch:
            n_deals += await submit(deal_batch(dbatch))
        n_deals += 0 if pending is None else await pending
        pending = None
        mbatch: list[MatchResult] = []
        for m in matches:
            guilds.add(m.guild_id)
            mbatch.append(m)
            if len(mbatch) >= batch_size:
                n_matches += await submit(match_batch(mbatch))
                mbatch = []
        if mbatch:
            n_matches += await submit(match_batch(mbatch))
        n_matches += 0 if pending is None else await pending
        for guild_id in sorted(guilds):
            await self.rebuild_summaries(guild_id)
        return n_deals, n_matches

    async def rebuild_summaries(self, guild_id: int) -> None:
        """Recompute a guild's player_totals and ratings from the result rows and
        drop its period boards (rebuilt lazily on the next period query).

        Ratings are replayed in (finished_at, insertion) order; the incremental path
        rates in recording order, which is the same unless results arrive late."""

        def body(conn: sqlite3.Connection) -> None:
            for table in (
                "player_totals",
                "ratings",
                "rating_history",
                "period_board",
                "period_window",
            ):
                conn.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
            totals: dict[tuple[str, int], list[Any]] = {}

            def slot(scope: str, user_id: int) -> list[Any]:
                # deals_played, deals_won, matches_played, matches_won, net, last
                s = totals.get((scope, user_id))
                if s is None:
                    s = totals[(scope, user_id)] = [0, 0, 0, 0, Fraction(0), 0]
                return s

            for profile, user_id, played, won, den, num, last in conn.execute(
                "SELECT profile, user_id, COUNT(*), SUM(outcome = 'won'),"
                " net_den, SUM(net_num), MAX(finished_at) FROM deal_seats"
                " WHERE guild_id = ? AND user_id IS NOT NULL AND outcome != 'void'"
                " GROUP BY profile, user_id, net_den",
                (guild_id,),
            ):
                for scope in (profile, ALL_SCOPE):
                    s = slot(scope, user_id)
                    s[0] += played
                    s[1] += won
                    s[4] += Fraction(num, den)
                    s[5] = max(s[5], last)
            for profile, user_id, played, won, last in conn.execute(
                "SELECT profile, user_id, COUNT(*), SUM(is_winner), MAX(finished_at)"
                " FROM match_seats WHERE guild_id = ? AND user_id IS NOT NULL"
                " GROUP BY profile, user_id",
                (guild_id,),
            ):
                for scope in (profile, ALL_SCOPE):
                    s = slot(scope, user_id)
                    s[2] += played
                    s[3] += won
                    s[5] = max(s[5], last)
            conn.executemany(
                "INSERT INTO player_totals (guild_id, scope, user_id, deals_played, deals_won,"
                " matches_played, matches_won, net_num, net_den, net_f, win_rate,"
                " last_played_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
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
                        _win_rate(s[1], s[0]),
                        s[5],
                    )
                    for (scope, user_id), s in totals.items()
                ),
            )
            self._replay_ratings(conn, guild_id)

        await self._tx(body)

    @staticmethod
    def _replay_ratings(conn: sqlite3.Connection, guild_id: int) -> None:
        state: dict[tuple[str, int], tuple[Any, int, int]] = {}
        history: list[tuple[Any, ...]] = []
        cur = conn.execute(
            "SELECT m.match_id, m.profile, m.finished_at, s.user_id, s.place"
            " FROM matches m JOIN match_seats s ON s.match_id = m.match_id"
            " WHERE m.guild_id = ? AND s.user_id IS NOT NULL"
            " ORDER BY m.finished_at, m.rowid, s.seat",
            (guild_id,),
        )

        def flush(match_id: str, profile: str, ts: int, humans: list[tuple[int, int]]) -> None:
            if len(humans) < 2:
                return
            for scope in (profile, ALL_SCOPE):
                old = [state.get((scope, u)) for u, _ in humans]
                ratings = [_MODEL.rating() if o is None else o[0] for o in old]
                new = _MODEL.rate([[r] for r in ratings], ranks=[float(p) for _, p in humans])
                for (u, _), (team,), o, r in zip(humans, new, old, ratings, strict=True):
                    state[(scope, u)] = (team, (0 if o is None else o[1]) + 1, ts)
                    history.append(
                        (
                            guild_id,
                            scope,
                            u,
                            match_id,
                            team.mu,
                            team.sigma,
                            team.ordinal(),
                            r.ordinal(),
                            ts,
                        )
                    )

        key: tuple[str, str, int] | None = None
        humans: list[tuple[int, int]] = []
        for match_id, profile, ts, user_id, place in cur.fetchall():
            if key is None or key[0] != match_id:
                if key is not None:
                    flush(*key, humans)
                key = (match_id, profile, ts)
                humans = []
            humans.append((user_id, place))
        if key is not None:
            flush(*key, humans)
        conn.executemany(
            "INSERT INTO ratings (guild_id, scope, user_id, mu, sigma, ordinal, matches,"
            " last_played_at) VALUES (?,?,?,?,?,?,?,?)",
            (
                (guild_id, scope, u, r.mu, r.sigma, r.ordinal(), n, ts)
                for (scope, u), (r, n, ts) in state.items()
            ),
        )
        conn.executemany(
            "INSERT INTO rating_history (guild_id, scope, user_id, match_id, mu, sigma,"
            " ordinal, ordinal_before, rated_at) VALUES (?,?,?,?,?,?,?,?,?)",
            history,
        )

    # ---------------------------------------------------------- leaderboards

    def _ensure_window(self, conn: sqlite3.Connection, guild_id: int, days: int, now: float) -> int:
        """Make period_board hold exactly the window ending on the UTC day of ``now``;
        returns its start day. Rolling forward a few days only touches the days that
        leave/enter; anything else rebuilds the window from the result rows."""
        start = _day(now) - days + 1
        row = conn.execute(
            "SELECT start_day FROM period_window WHERE guild_id = ? AND period_days = ?",
            (guild_id, days),
        ).fetchone()
        if row is not None and row[0] == start:
            return start

        def roll(conn: sqlite3.Connection) -> None:
            old = conn.execute(
                "SELECT start_day FROM period_window WHERE guild_id = ? AND period_days = ?",
                (guild_id, days),
            ).fetchone()
            if old is not None and old[0] == start:
                return
            if old is not None and 0 < start - old[0] < days:
                self._add_days(conn, guild_id, days, old[0], start - 1, -1)
                self._add_days(conn, guild_id, days, old[0] + days, start + days - 1, +1)
                conn.execute(
                    "DELETE FROM period_board WHERE guild_id = ? AND period_days = ?"
                    " AND deals_played <= 0 AND matches_played <= 0 AND deals_won <= 0",
                    (guild_id, days),
                )
            else:
                conn.execute(
                    "DELETE FROM period_board WHERE guild_id = ? AND period_days = ?",
                    (guild_id, days),
                )
                self._add_days(conn, guild_id, days, start, start + days - 1, +1)
            conn.execute(
                "INSERT INTO period_window (guild_id, period_days, start_day) VALUES (?,?,?)"
                " ON CONFLICT (guild_id, period_days) DO UPDATE SET start_day = excluded.start_day",
                (guild_id, days, start),
            )

        _write(conn, roll)
        return start

    @classmethod
    def _add_days(
        cls,
        conn: sqlite3.Connection,
        guild_id: int,
        days: int,
        first_day: int,
        last_day: int,
        sign: int,
    ) -> None:
        """Add (sign=+1) or subtract (-1) the results of UTC days [first, last] to
        the guild's period_board, per profile and for the '*' scope."""
        lo, hi = first_day * DAY, (last_day + 1) * DAY
        for group, scope_expr in (("profile, user_id", "profile"), ("user_id", "'*'")):
            conn.execute(
                cls._UPSERT_PERIOD.format(
                    select=(
                        f"SELECT ?, ?, {scope_expr}, user_id, ? * COUNT(*),"
                        " ? * SUM(outcome = 'won'), 0, 0, ? * SUM(net_num * 1.0 / net_den),"
                        " SUM(outcome = 'won') * 1.0 / COUNT(*)"
                        " FROM deal_seats WHERE guild_id = ? AND finished_at >= ?"
                        " AND finished_at < ? AND user_id IS NOT NULL AND outcome != 'void'"
                        f" GROUP BY {group}"
                    )
                ),
                (guild_id, days, sign, sign, sign, guild_id, lo, hi),
            )
            conn.execute(
                cls._UPSERT_PERIOD.format(
                    select=(
                        f"SELECT ?, ?, {scope_expr}, user_id, 0, 0, ? * COUNT(*),"
                        " ? * SUM(is_winner), 0.0, 0.0"
                        " FROM match_seats WHERE guild_id = ? AND finished_at >= ?"
                        f" AND finished_at < ? AND user_id IS NOT NULL GROUP BY {group}"
                    )
                ),
                (guild_id, days, sign, sign, guild_id, lo, hi),
            )

    @staticmethod
    def _validate_board_args(sort: str, period: str, limit: int, offset: int) -> None:
        if sort not in SORT_KEYS:
            raise ValueError(f"bad sort {sort!r}")
        if period != "all" and period not in PERIOD_DAYS:
            raise ValueError(f"bad period {period!r}")
        if limit < 1 or offset < 0:
            raise ValueError("limit must be >= 1 and offset >= 0")

    def _board_source(
        self,
        conn: sqlite3.Connection,
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
            where = "ratings WHERE guild_id = ? AND scope = ?"
            args: list[Any] = [guild_id, scope]
            if period != "all":
                days = PERIOD_DAYS[period]
                lo = (_day(now) - days + 1) * DAY
                where += " AND last_played_at >= ?"
                args.append(lo)
            return where, args, "ordinal", "matches", "ordinal DESC, user_id", None
        value, games = _BOARD_COLUMNS[sort]
        if period == "all":
            where = "player_totals WHERE guild_id = ? AND scope = ?"
            args = [guild_id, scope]
        else:
            days = PERIOD_DAYS[period]
            start = self._ensure_window(conn, guild_id, days, now)
            window = (start * DAY, (start + days) * DAY)
            where = "period_board WHERE guild_id = ? AND period_days = ? AND scope = ?"
            args = [guild_id, days, scope]
        if sort == "win_rate":
            where += " AND deals_played >= ?"
            args.append(min_games)
            order = "win_rate DESC, deals_played DESC, user_id"
        else:
            order = f"{value} DESC, user_id"
        return where, args, value, games, order, window

    def _exact_nets(
        self,
        conn: sqlite3.Connection,
        guild_id: int,
        profile: str | None,
        user_ids: Sequence[int],
        window: tuple[int, int] | None,
    ) -> dict[int, Fraction]:
        """Exact net for the players on one page (the board sorted by a float copy)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        if window is None:
            scope = ALL_SCOPE if profile is None else profile
            rows = conn.execute(
                f"SELECT user_id, net_num, net_den FROM player_totals WHERE guild_id = ?"
                f" AND scope = ? AND user_id IN ({marks})",
                (guild_id, scope, *user_ids),
            ).fetchall()
            return {u: Fraction(n, d) for u, n, d in rows}
        sql = (
            f"SELECT user_id, net_den, SUM(net_num) FROM deal_seats WHERE guild_id = ?"
            f" AND user_id IN ({marks}) AND finished_at >= ? AND finished_at < ?"
            " AND outcome != 'void'"
        )
        args: list[Any] = [guild_id, *user_ids, window[0], window[1]]
        if profile is not None:
            sql += " AND profile = ?"
            args.append(profile)
        out: dict[int, Fraction] = {u: Fraction(0) for u in user_ids}
        for user_id, den, num in conn.execute(sql + " GROUP BY user_id, net_den", args):
            out[user_id] += Fraction(num, den)
        return out

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
    ) -> list[LeaderboardRow]:
        """One page of a guild leaderboard (humans only).

        ``profile=None`` ranks across all profiles (for ``rating``: the overall
        rating fed by every match). Ties share a rank (1, 1, 3); order within a tie
        is by more games (win_rate) then user id, so pages are stable. ``min_games``
        applies to win_rate only (deals played in the period).
        """
        self._validate_board_args(sort, period, limit, offset)
        ts = time.time() if now is None else now

        def q(conn: sqlite3.Connection) -> list[LeaderboardRow]:
            where, args, value, games, order, window = self._board_source(
                conn, guild_id, profile, sort, period, min_games, ts
            )
            rows = conn.execute(
                f"SELECT user_id, {value}, {games} FROM {where} ORDER BY {order} LIMIT ? OFFSET ?",
                (*args, limit, offset),
            ).fetchall()
            if not rows:
                return []
            (above,) = conn.execute(
                f"SELECT COUNT(*) FROM {where} AND {value} > ?", (*args, rows[0][1])
            ).fetchone()
            user_ids = [r[0] for r in rows]
            names = self._names(conn, guild_id, user_ids)
            nets = (
                self._exact_nets(conn, guild_id, profile, user_ids, window)
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

        return await self._read(q)

    async def player_rank(
        self,
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
        self._validate_board_args(sort, period, 1, 0)
        ts = time.time() if now is None else now

        def q(conn: sqlite3.Connection) -> PlayerRank | None:
            where, args, value, games, _order, window = self._board_source(
                conn, guild_id, profile, sort, period, min_games, ts
            )
            row = conn.execute(
                f"SELECT {value}, {games} FROM {where} AND user_id = ?", (*args, user_id)
            ).fetchone()
            if row is None:
                return None
            (above,) = conn.execute(
                f"SELECT COUNT(*) FROM {where} AND {value} > ?", (*args, row[0])
            ).fetchone()
            (total,) = conn.execute(f"SELECT COUNT(*) FROM {where}", args).fetchone()
            shown: float | int | Fraction = row[0]
            if sort == "net_chips":
                shown = self._exact_nets(conn, guild_id, profile, [user_id], window)[user_id]
            name = self._names(conn, guild_id, [user_id]).get(user_id, "")
            return PlayerRank(above + 1, user_id, name, shown, row[1], total)

        return await self._read(q)

    @staticmethod
    def _names(conn: sqlite3.Connection, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        marks = ",".join("?" * len(user_ids))
        rows = conn.execute(
            f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *user_ids),
        ).fetchall()
        return {u: n for u, n in rows}

    # ------------------------------------------------------ stats & history

    async def player_stats(
        self, guild_id: int, user_id: int, *, trend_matches: int = 10
    ) -> PlayerStats:
        """Per-profile numbers computed from the player's own result rows (exact
        fractions), plus current rating and its change over the last
        ``trend_matches`` rated matches."""

        def q(conn: sqlite3.Connection) -> PlayerStats:
            acc: dict[str, dict[str, Any]] = {}

            def slot(profile: str) -> dict[str, Any]:
                if profile not in acc:
                    acc[profile] = {
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
                return acc[profile]

            for profile, outcome, pn, pd, nn, nd in conn.execute(
                "SELECT profile, outcome, penalty_num, penalty_den, net_num, net_den"
                " FROM deal_seats WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
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
            for profile, played, won in conn.execute(
                "SELECT profile, COUNT(*), SUM(is_winner) FROM match_seats"
                " WHERE guild_id = ? AND user_id = ? GROUP BY profile",
                (guild_id, user_id),
            ):
                s = slot(profile)
                s["mp"] = played
                s["mw"] = won
            profiles: dict[str, ProfileStats] = {}
            for profile in sorted(acc):
                s = acc[profile]
                rating, trend = self._rating_and_trend(
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
            overall, _ = self._rating_and_trend(conn, guild_id, ALL_SCOPE, user_id, 0)
            return PlayerStats(guild_id, user_id, profiles, overall)

        return await self._read(q)

    @staticmethod
    def _rating_and_trend(
        conn: sqlite3.Connection, guild_id: int, scope: str, user_id: int, last_n: int
    ) -> tuple[RatingInfo | None, float | None]:
        row = conn.execute(
            "SELECT mu, sigma, ordinal, matches FROM ratings"
            " WHERE guild_id = ? AND scope = ? AND user_id = ?",
            (guild_id, scope, user_id),
        ).fetchone()
        if row is None:
            return None, None
        info = RatingInfo(*row)
        if last_n <= 0:
            return info, None
        hist = conn.execute(
            "SELECT ordinal_before FROM rating_history WHERE guild_id = ? AND user_id = ?"
            " AND scope = ? ORDER BY id DESC LIMIT ?",
            (guild_id, user_id, scope, last_n),
        ).fetchall()
        if not hist:
            return info, None
        return info, info.ordinal - hist[-1][0]

    async def rating_history(
        self, guild_id: int, user_id: int, profile: str | None = None, *, limit: int = 20
    ) -> list[RatingPoint]:
        """The player's last ``limit`` rating changes, oldest first (for a trend
        line). ``profile=None`` is the overall rating."""
        scope = ALL_SCOPE if profile is None else profile

        def q(conn: sqlite3.Connection) -> list[RatingPoint]:
            rows = conn.execute(
                "SELECT match_id, rated_at, mu, sigma, ordinal, ordinal_before"
                " FROM rating_history WHERE guild_id = ? AND user_id = ? AND scope = ?"
                " ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, scope, limit),
            ).fetchall()
            return [RatingPoint(*r) for r in reversed(rows)]

        return await self._read(q)

    async def recent_deals(
        self, guild_id: int, user_id: int, limit: int = 10
    ) -> list[DealHistoryRow]:
        """The player's most recent deals, newest first."""

        def q(conn: sqlite3.Connection) -> list[DealHistoryRow]:
            rows = conn.execute(
                "SELECT s.deal_id, d.match_id, d.deal_no, s.profile, s.finished_at,"
                " s.outcome, s.net_num, s.net_den"
                " FROM deal_seats s JOIN deals d ON d.deal_id = s.deal_id"
                " WHERE s.guild_id = ? AND s.user_id = ?"
                " ORDER BY s.finished_at DESC, s.deal_id DESC LIMIT ?",
                (guild_id, user_id, limit),
            ).fetchall()
            return [
                DealHistoryRow(r[0], r[1], r[2], r[3], r[4], r[5], Fraction(r[6], r[7]))
                for r in rows
            ]

        return await self._read(q)

    async def hand_history(self, guild_id: int, deal_id: int) -> str | None:
        """The engine's hand-history JSON of a deal; None if it is not this guild's."""

        def q(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(
                "SELECT hand_history FROM deals WHERE deal_id = ? AND guild_id = ?",
                (deal_id, guild_id),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._read(q)

    # ------------------------------------------------------------- settings

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults if never changed."""

        def q(conn: sqlite3.Connection) -> GuildSettings:
            row = conn.execute(
                "SELECT default_profile, turn_timer, allowed_channel_ids FROM guild_settings"
                " WHERE guild_id = ?",
                (guild_id,),
            ).fetchone()
            if row is None:
                return GuildSettings(guild_id)
            channels = None if row[2] is None else frozenset(int(c) for c in json.loads(row[2]))
            return GuildSettings(guild_id, row[0], int(row[1]), channels)

        return await self._read(q)

    async def update_settings(
        self,
        guild_id: int,
        *,
        default_profile: str | _Unset = UNSET,
        turn_timer: int | _Unset = UNSET,
        allowed_channel_ids: Iterable[int] | _Unset | None = UNSET,
        now: float | None = None,
    ) -> GuildSettings:
        """Change some settings (UNSET = keep). ``allowed_channel_ids=None`` or an
        empty list means all channels (an empty allow-list would only lock the bot
        out of the guild). Returns the new settings."""
        if not isinstance(default_profile, _Unset) and not default_profile.strip():
            raise ValueError("default_profile must be non-empty")
        if not isinstance(turn_timer, _Unset) and (
            isinstance(turn_timer, bool) or not isinstance(turn_timer, int) or turn_timer <= 0
        ):
            raise ValueError("turn_timer must be a positive int (seconds)")
        channels_json: str | _Unset | None = UNSET
        if not isinstance(allowed_channel_ids, _Unset):
            ids = sorted({int(c) for c in allowed_channel_ids or ()})
            channels_json = json.dumps(ids) if ids else None
        ts = time.time() if now is None else now

        def body(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "SELECT default_profile, turn_timer, allowed_channel_ids FROM guild_settings"
                " WHERE guild_id = ?",
                (guild_id,),
            ).fetchone()
            cur: list[Any] = list(row) if row else [DEFAULT_PROFILE, DEFAULT_TURN_TIMER, None]
            for i, value in enumerate((default_profile, turn_timer, channels_json)):
                if not isinstance(value, _Unset):
                    cur[i] = value
            conn.execute(
                "INSERT INTO guild_settings (guild_id, default_profile, turn_timer,"
                " allowed_channel_ids, updated_at) VALUES (?,?,?,?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET default_profile = excluded.default_profile,"
                " turn_timer = excluded.turn_timer,"
                " allowed_channel_ids = excluded.allowed_channel_ids,"
                " updated_at = excluded.updated_at",
                (guild_id, *cur, ts),
            )

        await self._tx(body)
        return await self.get_settings(guild_id)

    # -------------------------------------------------------------- privacy

    async def forget_user(self, guild_id: int, user_id: int) -> None:
        """Erase a user's footprint in one guild: stats, ratings, rating history,
        name and summaries are deleted. Their seats in *other players'* results are
        kept but anonymised (user_id NULL, name "(deleted)") so those players'
        results and totals stay correct. Ratings already earned by others are not
        recomputed. The engine's hand-history JSON is opaque and not rewritten.
        Open game tables are untouched."""

        def body(conn: sqlite3.Connection) -> None:
            for table in ("deal_seats", "match_seats"):
                conn.execute(
                    f"UPDATE {table} SET user_id = NULL, name = ?"
                    " WHERE guild_id = ? AND user_id = ?",
                    (DELETED_NAME, guild_id, user_id),
                )
            for table in (
                "player_totals",
                "period_board",
                "ratings",
                "rating_history",
                "player_names",
            ):
                conn.execute(
                    f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                )

        await self._tx(body)
