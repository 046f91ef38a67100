"""Seasons: a server's leaderboard that starts afresh every week or month, and the ones that ended.

Why rows with their own windows, and not windows computed from timestamps when asked: a
season computed from "the Monday before" in the server's zone would move when the server
changes its zone or its cadence, rewriting every past season. Here each season is a row
written when it opens (its start, the boundary it ends at, the cadence and zone that planned
it) and frozen when it closes; the calendar maths that plans the next boundary is the table
layer's (`bot.table.season`), and storage only keeps what it decided.

Invariants:

* **One open season per guild** (``closed_at`` NULL; a partial unique index). The next one
  starts where the last closed (``starts_at`` = its ``closed_at``): windows never overlap.
* **A result counts in the season open when it is recorded**, if it finished at or after that
  season's start (:func:`season_at`, called by :mod:`bot.storage.results` under the guild's
  summaries lock, which closing a season takes too: a result and a close never interleave).
  Its standings are the summary rows under the season's scopes (:func:`season_scope`): the
  same tables and indexes as the all-time boards, so a season board costs what they cost.
* **Closed is frozen.** Nothing writes a closed season's summary rows again (results go to the
  open season only; :func:`bot.storage.summaries.rebuild` recomputes only the open one), and
  only the open season's end is ever re-planned. A result recorded late (after its season
  closed) counts all-time only. Forget-me still removes a player's rows (privacy first).
* **Its own outbox.** The row that closes a season has ``announced_at`` NULL until its final
  standings are posted (:meth:`SeasonRepo.mark_announced`); :meth:`SeasonRepo.unannounced`
  finds what a stopped run still owes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from bot.storage.conn import Conn, Database, Tx, joined
from bot.storage.summaries import lock_guild, season_scope

__all__ = [
    "CADENCES",
    "ENDINGS",
    "Cadence",
    "Ending",
    "SeasonRecord",
    "SeasonRepo",
    "open_season",
    "season_at",
    "season_scope",
]

#: How often a season ends (the plan ``off`` has no seasons at all).
Cadence = Literal["weekly", "monthly"]
#: Why a season closed: its boundary passed, a manager ended it, or seasons were turned off.
Ending = Literal["boundary", "manager", "off"]
CADENCES: Final[frozenset[str]] = frozenset(get_args(Cadence))
ENDINGS: Final[frozenset[str]] = frozenset(get_args(Ending))
#: Longest time zone name stored (the longest IANA name is about 32 characters).
ZONE_MAX: Final = 64


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season of one guild. Times are unix seconds; its results are those recorded while
    it was open that finished in ``[starts_at, closed_at)``. ``ends_at`` is the boundary it
    was planned to end at (for a season a manager ended or seasons turned off: when that
    happened), ``channel_id`` where its final standings go (copied from the settings when it
    closed), ``announced_at`` when they were posted (None: still owed, or still open)."""

    guild_id: int
    number: int
    cadence: Cadence
    time_zone: str
    starts_at: int
    ends_at: int
    closed_at: int | None = None
    ended_by: Ending | None = None
    channel_id: int | None = None
    announced_at: float | None = None

    @property
    def open(self) -> bool:
        return self.closed_at is None


# ------------------------------------------------------------- SQL (portable)

_COLS = (
    "guild_id, number, cadence, time_zone, starts_at, ends_at, closed_at, ended_by,"
    " channel_id, announced_at"
)
_OPEN = f"SELECT {_COLS} FROM seasons WHERE guild_id = ? AND closed_at IS NULL"
_ONE = f"SELECT {_COLS} FROM seasons WHERE guild_id = ? AND number = ?"
_RECENT = f"SELECT {_COLS} FROM seasons WHERE guild_id = ? ORDER BY number DESC LIMIT ?"
_LAST_CLOSED = (
    f"SELECT {_COLS} FROM seasons WHERE guild_id = ? AND closed_at IS NOT NULL"
    " ORDER BY number DESC LIMIT 1"
)
_ALL_OPEN = f"SELECT {_COLS} FROM seasons WHERE closed_at IS NULL ORDER BY ends_at, guild_id"
_UNANNOUNCED = (
    f"SELECT {_COLS} FROM seasons WHERE closed_at IS NOT NULL AND announced_at IS NULL"
    " ORDER BY closed_at, guild_id, number"
)
_NEXT_NUMBER = "SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = ?"
_INSERT = (
    "INSERT INTO seasons (guild_id, number, cadence, time_zone, starts_at, ends_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_CLOSE = (
    "UPDATE seasons SET closed_at = ?, ended_by = ?, ends_at = ?, channel_id = ?"
    " WHERE guild_id = ? AND number = ? AND closed_at IS NULL"
)
_REPLAN = (
    "UPDATE seasons SET cadence = ?, time_zone = ?, ends_at = ?"
    " WHERE guild_id = ? AND closed_at IS NULL"
)
_MARK = (
    "UPDATE seasons SET announced_at = ? WHERE guild_id = ? AND number = ?"
    " AND closed_at IS NOT NULL AND announced_at IS NULL"
)
_SEASON_AT = (
    "SELECT number FROM seasons WHERE guild_id = ? AND closed_at IS NULL AND starts_at <= ?"
)


def _record(row: tuple[Any, ...]) -> SeasonRecord:
    (guild_id, number, cadence, zone, starts, ends, closed, ended_by, channel, announced) = row
    return SeasonRecord(
        int(guild_id),
        int(number),
        cadence,
        str(zone),
        int(starts),
        int(ends),
        None if closed is None else int(closed),
        ended_by,
        None if channel is None else int(channel),
        None if announced is None else float(announced),
    )


def _check_plan(cadence: str, time_zone: str, starts_at: int, ends_at: int) -> None:
    if cadence not in CADENCES:
        raise ValueError(f"cadence must be one of {sorted(CADENCES)}")
    if not 0 < len(time_zone) <= ZONE_MAX:
        raise ValueError(f"time_zone must be a zone name of at most {ZONE_MAX} characters")
    if ends_at < starts_at:
        raise ValueError("a season cannot end before it starts")


async def season_at(conn: Conn, guild_id: int, finished_at: int) -> int | None:
    """The number of the guild's open season if a result that finished at ``finished_at``
    counts in it (it finished at or after the season's start), else None. Run it inside the
    transaction that records the result, after the guild's summaries lock is taken."""
    row = await conn.fetchone(_SEASON_AT, (guild_id, finished_at))
    return None if row is None else int(row[0])


async def open_season(conn: Conn, guild_id: int) -> SeasonRecord | None:
    """The guild's open season, read on ``conn`` (a rebuild's transaction)."""
    row = await conn.fetchone(_OPEN, (guild_id,))
    return None if row is None else _record(row)


class SeasonRepo:
    """``storage.seasons``: every season of every guild, the open one and the frozen ones."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ---- reads ----------------------------------------------------------------------------

    async def current(self, guild_id: int, *, tx: Tx | None = None) -> SeasonRecord | None:
        """The guild's open season (None: seasons are off, or none has opened yet); with
        ``tx``, as that transaction sees it."""
        async with self._db.reading() if tx is None else joined(tx) as conn:
            return await open_season(conn, guild_id)

    async def get(self, guild_id: int, number: int) -> SeasonRecord | None:
        """Season ``number`` of the guild (open or closed), or None."""
        if not 0 < number < 2**63:
            return None
        async with self._db.reading() as conn:
            row = await conn.fetchone(_ONE, (guild_id, number))
        return None if row is None else _record(row)

    async def recent(self, guild_id: int, limit: int = 25) -> list[SeasonRecord]:
        """The guild's latest seasons, newest first (the open one included)."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_RECENT, (guild_id, limit))
        return [_record(r) for r in rows]

    async def last_closed(self, guild_id: int) -> SeasonRecord | None:
        """The guild's most recent season that has ended."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(_LAST_CLOSED, (guild_id,))
        return None if row is None else _record(row)

    async def open_seasons(self) -> list[SeasonRecord]:
        """Every guild's open season, the soonest to end first (to arm their timers)."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_ALL_OPEN)
        return [_record(r) for r in rows]

    async def unannounced(self) -> list[SeasonRecord]:
        """Closed seasons whose final standings are still owed, oldest first."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_UNANNOUNCED)
        return [_record(r) for r in rows]

    # ---- writes ---------------------------------------------------------------------------

    async def open(
        self,
        guild_id: int,
        *,
        cadence: str,
        time_zone: str,
        starts_at: int,
        ends_at: int,
        tx: Tx | None = None,
    ) -> SeasonRecord:
        """Open the guild's next season (numbered after its last). Refuses (ValueError)
        while another is open: close it first, in the same transaction."""
        _check_plan(cadence, time_zone, starts_at, ends_at)
        async with self._db.transaction(tx) as t:
            await lock_guild(t, guild_id)
            if await t.fetchone(_OPEN, (guild_id,)) is not None:
                raise ValueError(f"guild {guild_id} already has an open season")
            number = int(await t.fetchval(_NEXT_NUMBER, (guild_id,)))
            await t.execute(_INSERT, (guild_id, number, cadence, time_zone, starts_at, ends_at))
            row = await t.fetchone(_ONE, (guild_id, number))
        assert row is not None
        return _record(row)

    async def close(
        self,
        guild_id: int,
        number: int,
        *,
        closed_at: int,
        ended_by: Ending,
        ends_at: int,
        channel_id: int | None,
        tx: Tx | None = None,
    ) -> SeasonRecord | None:
        """Close the guild's open season ``number`` at ``closed_at``: from then on it is
        frozen, and its announcement is owed. Returns it, or None if it was not open (closed
        already: closing twice is harmless). Takes the guild's summaries lock, so no result
        is being counted in it meanwhile."""
        if ended_by not in ENDINGS:
            raise ValueError(f"ended_by must be one of {sorted(ENDINGS)}")
        async with self._db.transaction(tx) as t:
            await lock_guild(t, guild_id)
            changed = await t.execute(
                _CLOSE, (closed_at, ended_by, ends_at, channel_id, guild_id, number)
            )
            if not changed:
                return None
            row = await t.fetchone(_ONE, (guild_id, number))
        return None if row is None else _record(row)

    async def replan(
        self,
        guild_id: int,
        *,
        cadence: str,
        time_zone: str,
        ends_at: int,
        tx: Tx | None = None,
    ) -> SeasonRecord | None:
        """Give the open season a new end (the cadence or the zone changed); a closed season
        is never re-planned. Returns the open season as now planned, or None."""
        async with self._db.transaction(tx) as t:
            current = await open_season(t, guild_id)
            if current is None:
                return None
            _check_plan(cadence, time_zone, current.starts_at, ends_at)
            await t.execute(_REPLAN, (cadence, time_zone, ends_at, guild_id))
            return await open_season(t, guild_id)

    async def mark_announced(
        self, guild_id: int, number: int, *, now: float | None = None, tx: Tx | None = None
    ) -> bool:
        """Mark a closed season's final standings posted; False if they were not owed (an
        open season, or marked already), so a repeated mark is harmless."""
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            return await t.execute(_MARK, (ts, guild_id, number)) > 0
