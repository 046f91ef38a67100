"""Finished deals and matches: the source of truth every stat and board is derived from.

Why: results are what players care about most and what must never be counted twice
or lost. Invariants:

* **Written once.** ``deals`` is unique on ``(match_id, deal_no)`` and ``matches`` on
  ``match_id``; inserts use ``ON CONFLICT DO NOTHING`` and the summaries are updated
  only when the insert really happened, in the same transaction. A retry, a restart
  or a concurrent duplicate can never count twice (the functions return False).
* **Validated before the transaction.** Seats are checked and converted (exact money,
  see :mod:`bot.storage.money`) first, so a bad result raises ValueError and writes
  nothing.
* **AI seats** (``is_ai`` or ``user_id is None``) are stored with ``user_id`` NULL and
  never reach a summary; human seats keep their name in ``player_names``.
* **Void deals** are stored (history, hand history) but count for nothing.
* Ratings move only for matches with at least two humans (:mod:`bot.storage.ratings`)
  that are ``rated`` (a server may rate only games played without hints).
* Every result keeps the hint level it was played at.
* A result counts in the guild's open season too, if it finished at or after that season's
  start (:func:`bot.storage.seasons.season_at`, read under the guild's lock): the season
  is the one open when the result is recorded, so a season that closed never changes again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Final

from bot.storage import summaries
from bot.storage.conn import Conn, Database, Dialect, Tx, insert_batches, insert_rows
from bot.storage.money import to_pair
from bot.storage.records import (
    HINT_LEVELS,
    OUTCOMES,
    DealRecord,
    DealSeatRecord,
    MatchRecord,
    MatchSeatRecord,
)
from bot.storage.seasons import season_at
from bot.storage.summaries import ALL_SCOPE, SeatBump

__all__ = ["ResultRepo"]

# ------------------------------------------------------------- SQLite dialect

# The summaries' exact nets and ratings are read, changed and written back, so two results
# of one guild must not be recorded at the same time: on SQLite writers are serialised
# anyway; on PostgreSQL (a pool: two tables' results on two connections at once, or two
# processes) the first statement of the transaction takes a per-guild transaction lock
# (summaries.GUILD_LOCK), and the reads that follow, each a new snapshot at READ COMMITTED,
# see the other transaction's finished work. The insert itself then runs under the lock.
_INSERT_DEAL: Final[dict[Dialect, str]] = {
    "sqlite": "INSERT INTO deals (guild_id, match_id, deal_no, profile, finished_at,"
    " hand_history, hints) VALUES (?,?,?,?,?,?,?)"
    " ON CONFLICT (match_id, deal_no) DO NOTHING RETURNING deal_id",
    "postgres": "INSERT INTO deals (guild_id, match_id, deal_no, profile, finished_at,"
    " hand_history, hints)"
    " SELECT ?::bigint, ?::text, ?::bigint, ?::text, ?::bigint, ?::text, ?::text"
    f" FROM (SELECT {summaries.GUILD_LOCK}) AS locked"
    " ON CONFLICT (match_id, deal_no) DO NOTHING RETURNING deal_id",
}
# {rows}: rows given to conn.insert_rows, which reads the column types from *_TYPES.
_INSERT_DEALS = (
    "INSERT INTO deals (guild_id, match_id, deal_no, profile, finished_at,"
    " hand_history, hints) {rows}"
    " ON CONFLICT (match_id, deal_no) DO NOTHING RETURNING deal_id, match_id, deal_no"
)
_DEAL_TYPES: Final = ("bigint", "text", "bigint", "text", "bigint", "text", "text")
_INSERT_DEAL_SEAT = (
    "INSERT INTO deal_seats (deal_id, seat, guild_id, profile, finished_at, user_id, name,"
    " is_ai, outcome, penalty_num, penalty_den, net_num, net_den) {rows}"
)
_DEAL_SEAT_TYPES: Final = (
    *("bigint", "bigint", "bigint", "text", "bigint", "bigint", "text", "bigint", "text"),
    *["bigint"] * 4,
)
_INSERT_MATCH: Final[dict[Dialect, str]] = {
    "sqlite": "INSERT INTO matches (match_id, guild_id, profile, finished_at, hints, rated)"
    " VALUES (?,?,?,?,?,?) ON CONFLICT (match_id) DO NOTHING",
    "postgres": "INSERT INTO matches (match_id, guild_id, profile, finished_at, hints, rated)"
    " SELECT ?::text, ?::bigint, ?::text, ?::bigint, ?::text, ?::bigint"
    f" FROM (SELECT {summaries.GUILD_LOCK}) AS locked ON CONFLICT (match_id) DO NOTHING",
}
_INSERT_MATCHES = (
    "INSERT INTO matches (match_id, guild_id, profile, finished_at, hints, rated) {rows}"
    " ON CONFLICT (match_id) DO NOTHING RETURNING match_id"
)
_MATCH_TYPES: Final = ("text", "bigint", "text", "bigint", "text", "bigint")
_INSERT_MATCH_SEAT = (
    "INSERT INTO match_seats (match_id, seat, guild_id, profile, finished_at, user_id,"
    " name, is_ai, place, is_winner, net_num, net_den) {rows}"
)
_MATCH_SEAT_TYPES: Final = (
    "text",
    "bigint",
    "bigint",
    "text",
    "bigint",
    "bigint",
    "text",
    *["bigint"] * 5,
)
_UPSERT_NAME = (
    "INSERT INTO player_names (guild_id, user_id, name) {rows}"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name"
)
_NAME_TYPES: Final = ("bigint", "bigint", "text")

# Positions in the prepared seat rows built by _deal_seat_rows / _match_seat_rows.
_USER, _NAME = 4, 5  # both kinds
_OUTCOME, _NET_NUM, _NET_DEN = 7, 10, 11  # deal seat rows
_PLACE, _IS_WINNER = 7, 8  # match seat rows


def _hints(level: str) -> str:
    """A hint level as stored (the schema's CHECK accepts these only): refused up front."""
    if level not in HINT_LEVELS:
        raise ValueError(f"bad hint level {level!r}")
    return str(level)


def _deal_params(d: DealRecord) -> tuple[Any, ...]:
    return (
        d.guild_id,
        d.match_id,
        d.deal_no,
        d.profile,
        int(d.finished_at),
        d.hand_history_json,
        _hints(d.hints),
    )


def _match_params(m: MatchRecord) -> tuple[Any, ...]:
    return (m.match_id, m.guild_id, m.profile, int(m.finished_at), _hints(m.hints), int(m.rated))


# ------------------------------------------------------------- validation


def _check_humans(seats: Sequence[DealSeatRecord] | Sequence[MatchSeatRecord], what: str) -> None:
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


def _deal_seat_rows(result: DealRecord) -> list[tuple[Any, ...]]:
    """Validated deal_seats rows without the deal_id (known only after the insert)."""
    _check_humans(result.seats, f"deal {result.match_id}#{result.deal_no}")
    rows: list[tuple[Any, ...]] = []
    for i, seat in enumerate(result.seats):
        if seat.outcome not in OUTCOMES:
            raise ValueError(f"bad outcome {seat.outcome!r}")
        pen_num, pen_den = to_pair(seat.penalty, "penalty")
        net_num, net_den = to_pair(seat.net, "net")
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


def _match_seat_rows(result: MatchRecord) -> list[tuple[Any, ...]]:
    """Validated match_seats rows without the match_id."""
    _check_humans(result.seats, f"match {result.match_id}")
    rows: list[tuple[Any, ...]] = []
    for i, seat in enumerate(result.seats):
        if seat.place < 1:
            raise ValueError("place must be >= 1")
        net_num, net_den = to_pair(seat.net, "net")
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


def _name_rows(guild_id: int, seat_rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """player_names upserts for the human seats (AI seats have no user_id)."""
    return [(guild_id, r[_USER], r[_NAME]) for r in seat_rows if r[_USER] is not None]


# -------------------------------------------------------------------- bulk


def _deal_batch(batch: list[DealRecord]) -> Callable[[Conn], Awaitable[int]]:
    """Validate/convert a batch now and return its insert job."""
    prepared = [(d, _deal_seat_rows(d)) for d in batch]

    async def body(conn: Conn) -> int:
        # RETURNING names the deals really inserted: the others were stored already
        # (or repeat an earlier deal of this batch) and are skipped.
        new = {
            (match_id, deal_no): deal_id
            for deal_id, match_id, deal_no in await insert_rows(
                conn,
                _INSERT_DEALS,
                _DEAL_TYPES,
                [_deal_params(d) for d, _ in prepared],
                returning=True,
            )
        }
        inserted = 0
        seats: list[tuple[Any, ...]] = []
        names: dict[tuple[int, int], str] = {}
        for d, rows in prepared:
            deal_id = new.pop((d.match_id, d.deal_no), None)
            if deal_id is None:
                continue
            inserted += 1
            for r in rows:
                seats.append((deal_id, *r))
                if r[_USER] is not None:
                    names[(d.guild_id, r[_USER])] = r[_NAME]
        await insert_rows(conn, _INSERT_DEAL_SEAT, _DEAL_SEAT_TYPES, seats)
        await insert_rows(
            conn, _UPSERT_NAME, _NAME_TYPES, [(g, u, n) for (g, u), n in names.items()]
        )
        return inserted

    return body


def _match_batch(batch: list[MatchRecord]) -> Callable[[Conn], Awaitable[int]]:
    """Validate/convert a batch now and return its insert job."""
    prepared = [(m, _match_seat_rows(m)) for m in batch]

    async def body(conn: Conn) -> int:
        new = {
            match_id
            for (match_id,) in await insert_rows(
                conn,
                _INSERT_MATCHES,
                _MATCH_TYPES,
                [_match_params(m) for m, _ in prepared],
                returning=True,
            )
        }
        inserted = 0
        seats: list[tuple[Any, ...]] = []
        names: dict[tuple[int, int], str] = {}
        for m, rows in prepared:
            if m.match_id not in new:
                continue
            new.discard(m.match_id)
            inserted += 1
            for r in rows:
                seats.append((m.match_id, *r))
                if r[_USER] is not None:
                    names[(m.guild_id, r[_USER])] = r[_NAME]
        await insert_rows(conn, _INSERT_MATCH_SEAT, _MATCH_SEAT_TYPES, seats)
        await insert_rows(
            conn, _UPSERT_NAME, _NAME_TYPES, [(g, u, n) for (g, u), n in names.items()]
        )
        return inserted

    return body


# A bulk load leaves PostgreSQL's planner statistics and visibility map behind until
# autovacuum comes by; until then a rank (a COUNT over an index) fetches every counted
# row from the heap instead of an index-only scan. SQLite keeps neither: nothing to do.
_AFTER_BULK_LOAD: Final[dict[Dialect, str | None]] = {
    "sqlite": None,
    "postgres": "VACUUM (ANALYZE) deals, deal_seats, matches, match_seats, player_names,"
    " player_totals, ratings, rating_history",
}


class ResultRepo:
    """``storage.results``: finished deals and matches, and the summaries they feed."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def record_deal_result(self, result: DealRecord, *, tx: Tx | None = None) -> bool:
        """Store a finished deal once. Returns True if newly recorded, False if this
        (match_id, deal_no) was already stored (nothing is counted again)."""
        seat_rows = _deal_seat_rows(result)
        names = _name_rows(result.guild_id, seat_rows)
        # A void deal stays in history but counts for nothing.
        bumps = [
            SeatBump(
                r[_USER],
                deals=(1, int(r[_OUTCOME] == "won")),
                net=Fraction(r[_NET_NUM], r[_NET_DEN]),
            )
            for r in seat_rows
            if r[_USER] is not None and r[_OUTCOME] != "void"
        ]
        async with self._db.transaction(tx) as t:
            # RETURNING (both backends): no row means the deal was already stored.
            sql = _INSERT_DEAL[t.dialect]
            params = _deal_params(result)
            if t.dialect == "postgres":
                params = (*params, result.guild_id)
            row = await t.fetchone(sql, params)
            if row is None:
                return False
            deal_id = row[0]
            ts = int(result.finished_at)
            season = await season_at(t, result.guild_id, ts) if bumps else None
            await insert_batches(
                t,
                [
                    (_INSERT_DEAL_SEAT, _DEAL_SEAT_TYPES, [(deal_id, *r) for r in seat_rows]),
                    (_UPSERT_NAME, _NAME_TYPES, names),
                    *await summaries.bump_result(
                        t, result.guild_id, result.profile, ts, bumps, season
                    ),
                ],
            )
            return True

    async def record_match_result(self, result: MatchRecord, *, tx: Tx | None = None) -> bool:
        """Store a finished match once and update ratings (per profile and overall)
        from the finishing order of its human seats. Returns True if newly recorded.

        Ratings only move when at least two humans took part (beating AI seats says
        nothing about skill relative to other players) and the match is ``rated``."""
        seat_rows = _match_seat_rows(result)
        names = _name_rows(result.guild_id, seat_rows)
        # An unrated match (hints on where the server rates hint-free games only) counts in
        # the totals but rates nobody.
        humans = (
            [(r[_USER], r[_PLACE]) for r in seat_rows if r[_USER] is not None]
            if result.rated
            else []
        )
        bumps = [
            SeatBump(r[_USER], matches=(1, r[_IS_WINNER]))
            for r in seat_rows
            if r[_USER] is not None
        ]
        async with self._db.transaction(tx) as t:
            params = _match_params(result)
            if t.dialect == "postgres":
                params = (*params, result.guild_id)
            if await t.execute(_INSERT_MATCH[t.dialect], params) == 0:
                return False
            ts = int(result.finished_at)
            season = await season_at(t, result.guild_id, ts) if bumps else None
            scopes: tuple[str, ...] = (result.profile, ALL_SCOPE)
            if season is not None:
                scopes += tuple(summaries.season_scope(s, season) for s in scopes)
            seats = [(result.match_id, *r) for r in seat_rows]
            await insert_batches(
                t,
                [
                    (_INSERT_MATCH_SEAT, _MATCH_SEAT_TYPES, seats),
                    (_UPSERT_NAME, _NAME_TYPES, names),
                    *await summaries.bump_result(
                        t, result.guild_id, result.profile, ts, bumps, season
                    ),
                    *await summaries.rate_match(
                        t, result.guild_id, scopes, result.match_id, ts, humans
                    ),
                ],
            )
            return True

    async def import_results(
        self,
        deals: Iterable[DealRecord] = (),
        matches: Iterable[MatchRecord] = (),
        *,
        batch_size: int = 20_000,
        tx: Tx | None = None,
    ) -> tuple[int, int]:
        """Bulk-load results (backfill, benchmarks), skipping ones already stored,
        then recompute the affected guilds' summaries. Much faster than recording one
        by one because summaries are built once with set-based SQL. Returns
        (deals inserted, matches inserted). Without ``tx`` every batch is its own
        transaction; with it, everything goes into that one."""
        guilds: set[int] = set()
        counts = [0, 0]
        # Pipelining: while one batch is inserted (SQLite: on aiosqlite's thread, which
        # releases the GIL; PostgreSQL: on the server), this coroutine validates and
        # converts the next one. In the caller's transaction batches go one by one.
        pending: asyncio.Future[int] | None = None

        async def run(job: Callable[[Conn], Awaitable[int]]) -> int:
            async with self._db.transaction(bulk=True) as t:
                return await job(t)

        async def submit(job: Callable[[Conn], Awaitable[int]]) -> int:
            nonlocal pending
            if tx is not None:
                return await job(tx)
            done = 0 if pending is None else await pending
            pending = asyncio.ensure_future(run(job))
            return done

        async def drain() -> int:
            nonlocal pending
            done = 0 if pending is None else await pending
            pending = None
            return done

        try:
            for kind, records, make in (
                (0, deals, _deal_batch),
                (1, matches, _match_batch),
            ):
                batch: list[Any] = []
                for record in records:
                    guilds.add(record.guild_id)
                    batch.append(record)
                    if len(batch) >= batch_size:
                        counts[kind] += await submit(make(batch))
                        batch = []
                if batch:
                    counts[kind] += await submit(make(batch))
                counts[kind] += await drain()
        finally:
            if pending is not None:  # a failure above: do not leave the batch running alone
                pending.cancel()
                await asyncio.gather(pending, return_exceptions=True)
        for guild_id in sorted(guilds):
            await self.rebuild_summaries(guild_id, tx=tx)
        statement = _AFTER_BULK_LOAD[self._db.dialect]
        if statement is not None and tx is None:  # VACUUM runs outside a transaction
            async with self._db.session(bulk=True) as conn:
                await conn.execute(statement)
        return counts[0], counts[1]

    async def rebuild_summaries(self, guild_id: int, *, tx: Tx | None = None) -> None:
        """Recompute a guild's player_totals and ratings from the result rows and
        drop its period boards (rebuilt lazily on the next period query).

        Ratings are replayed in (finished_at, insertion) order; the incremental path
        rates in recording order, which is the same unless results arrive late."""
        async with self._db.transaction(tx, bulk=True) as t:
            await summaries.rebuild(t, guild_id)
