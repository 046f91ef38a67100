"""Tournaments: their state, event log and outbox, their tables, their final places.

Why one repository: a tournament is one aggregate, changed like a table (``storage.tables``):
its whole state as JSON with a ``version`` that only ever increases, and every change written
by :meth:`TournamentRepo.commit` in ONE transaction with its event, the announcements it makes
due (``tournament_outbox``), the tables it opens (a round's tables are ``game_tables`` rows
carrying ``tournament_id`` and ``tournament_round``) and, when it ends, the final places
(``tournament_results``). So a round is seated whole or not at all, and what must be announced
survives a crash.

Invariants:

* **Optimistic concurrency.** A commit applies only if its version is newer than the stored
  one and the tournament is still open; otherwise :class:`VersionConflictError`.
* **Exactly once in the normal case, at least once across crashes** for the outbox, as for a
  table's (:mod:`bot.storage.outbox`): ``(tournament_id, kind, round_no)`` is unique, writes
  are ``ON CONFLICT DO NOTHING`` and a row stops being pending only when marked.
* Message ids are bookkeeping (:meth:`TournamentRepo.set_messages`): no version bump.
* Which process drives a tournament is a lease in ``table_owners`` (``storage.leases``),
  under the key :func:`lease_key`; :meth:`TournamentRepo.orphans` finds open tournaments
  nobody holds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from bot.storage.conn import Conn, Database, Tx
from bot.storage.errors import NotFoundError, VersionConflictError

__all__ = [
    "NewTable",
    "PlaceRow",
    "TournamentNote",
    "TournamentNoteKind",
    "TournamentNoteRecord",
    "TournamentRecord",
    "TournamentRepo",
    "TournamentStats",
    "lease_key",
]

TournamentNoteKind = Literal[
    "round_seated", "round_done", "finished", "cancelled", "left_out", "stalled"
]
NOTE_KINDS: Final[frozenset[str]] = frozenset(get_args(TournamentNoteKind))
_OPEN_STATUSES: Final = ("registration", "check_in", "running")
_OPEN = "status IN ('registration', 'check_in', 'running')"


def lease_key(tournament_id: str) -> str:
    """A tournament's key in ``table_owners`` (a table id never holds a colon)."""
    return f"tournament:{tournament_id}"


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A stored tournament."""

    tournament_id: str
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    status: str
    state_json: str
    version: int
    messages: dict[str, int]
    start_at: float
    created_at: float
    updated_at: float

    @property
    def open(self) -> bool:
        return self.status in _OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class TournamentNote:
    """Something a change made due: an announcement (or a private note) to post."""

    kind: TournamentNoteKind
    round_no: int = 0
    payload_json: str = "{}"


@dataclass(frozen=True, slots=True)
class TournamentNoteRecord:
    tournament_id: str
    kind: TournamentNoteKind
    round_no: int
    payload_json: str
    created_at: float
    delivered_at: float | None


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table a round opens: its row, written with the round."""

    table_id: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    state_json: str
    version: int
    turn_deadline: float | None
    round_no: int


@dataclass(frozen=True, slots=True)
class PlaceRow:
    """An entrant's final place."""

    entrant: str
    user_id: int | None
    name: str
    place: int
    rounds: int


@dataclass(frozen=True, slots=True)
class TournamentStats:
    """A player's tournaments in one server (finished ones)."""

    played: int = 0
    won: int = 0
    best: int | None = None  # best place
    last_name: str | None = None  # the last tournament's name
    last_place: int | None = None
    last_players: int | None = None


# ------------------------------------------------------------- SQL (both dialects)

_COLS = (
    "tournament_id, guild_id, channel_id, organiser_id, name, status, state_json, version,"
    " messages_json, start_at, created_at, updated_at"
)
_INSERT = f"INSERT INTO tournaments ({_COLS}) VALUES (?,?,?,?,?,?,?,?,'{{}}',?,?,?)"
_UPDATE = (
    "UPDATE tournaments SET state_json = ?, version = ?, status = ?, name = ?, start_at = ?,"
    f" updated_at = ? WHERE tournament_id = ? AND version < ? AND {_OPEN}"
)
_VERSION = "SELECT version, status FROM tournaments WHERE tournament_id = ?"
_EVENT = (
    "INSERT INTO tournament_events (tournament_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)"
)
_NOTE = (
    "INSERT INTO tournament_outbox (tournament_id, kind, round_no, payload_json, created_at)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, kind, round_no) DO NOTHING"
)
_TABLE = (
    "INSERT INTO game_tables (table_id, guild_id, channel_id, host_id, status, state_json,"
    " version, turn_deadline, created_at, updated_at, tournament_id, tournament_round)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
_TABLE_EVENT = "INSERT INTO game_events (table_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)"
_PLACE = (
    "INSERT INTO tournament_results (tournament_id, entrant, guild_id, user_id, name, place,"
    " players, rounds, finished_at) VALUES (?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT (tournament_id, entrant) DO NOTHING"
)
_SELECT = f"SELECT {_COLS} FROM tournaments WHERE tournament_id = ?"
_SELECT_OPEN = f"SELECT {_COLS} FROM tournaments WHERE {_OPEN} ORDER BY created_at, tournament_id"
_SELECT_GUILD = (
    f"SELECT {_COLS} FROM tournaments WHERE guild_id = ?"
    " ORDER BY created_at DESC, tournament_id DESC LIMIT ?"
)
_MESSAGES = "UPDATE tournaments SET messages_json = ? WHERE tournament_id = ?"
_PENDING = (
    "SELECT tournament_id, kind, round_no, payload_json, created_at, delivered_at"
    " FROM tournament_outbox WHERE delivered_at IS NULL"
)
_MARK = (
    "UPDATE tournament_outbox SET delivered_at = ? WHERE tournament_id = ? AND kind = ?"
    " AND round_no = ? AND delivered_at IS NULL"
)
_TABLE_STATUS = "SELECT table_id, status FROM game_tables WHERE tournament_id = ? ORDER BY table_id"
_ORPHANS = (
    "SELECT t.tournament_id, t.guild_id FROM tournaments AS t"
    " LEFT JOIN table_owners AS o ON o.table_id = 'tournament:' || t.tournament_id"
    f" WHERE t.{_OPEN} AND (o.table_id IS NULL OR o.lease_until <= ?)"
    " ORDER BY t.created_at, t.tournament_id"
)
_STATS = (
    "SELECT COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), MIN(place)"
    " FROM tournament_results WHERE guild_id = ? AND user_id = ?"
)
_LAST = (
    "SELECT t.name, r.place, r.players FROM tournament_results AS r"
    " JOIN tournaments AS t ON t.tournament_id = r.tournament_id"
    " WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.finished_at DESC LIMIT 1"
)
_RESULTS = (
    "SELECT r.tournament_id, t.name, r.place, r.players, r.rounds FROM tournament_results AS r"
    " JOIN tournaments AS t ON t.tournament_id = r.tournament_id"
    " WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.finished_at DESC, r.tournament_id"
    " LIMIT ?"
)
_PLACES = (
    "SELECT entrant, user_id, name, place, rounds FROM tournament_results"
    " WHERE tournament_id = ? ORDER BY place, name"
)


def _record(row: Sequence[Any]) -> TournamentRecord:
    messages = {str(k): int(v) for k, v in json.loads(row[8] or "{}").items()}
    return TournamentRecord(
        str(row[0]),
        int(row[1]),
        int(row[2]),
        int(row[3]),
        str(row[4]),
        str(row[5]),
        str(row[6]),
        int(row[7]),
        messages,
        float(row[9]),
        float(row[10]),
        float(row[11]),
    )


def _check(notes: Sequence[TournamentNote]) -> None:
    for note in notes:
        if note.kind not in NOTE_KINDS:
            raise ValueError(f"bad tournament note kind {note.kind!r}")
        if note.round_no < 0:
            raise ValueError("round_no must not be negative")


class TournamentRepo:
    """``storage.tournaments``: tournaments and what hangs on them."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------- writes

    async def create(
        self,
        tournament_id: str,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        status: str,
        state_json: str,
        version: int,
        start_at: float,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Insert a new tournament (its first version)."""
        ts = time.time() if now is None else now
        args = (
            tournament_id, guild_id, channel_id, organiser_id, name, status, state_json,
            version, start_at, ts, ts,
        )  # fmt: skip
        async with self._db.transaction(tx) as t:
            await t.execute(_INSERT, args)

    async def commit(
        self,
        tournament_id: str,
        version: int,
        state_json: str,
        event_json: str,
        *,
        status: str,
        name: str,
        start_at: float,
        notes: Sequence[TournamentNote] = (),
        tables: Sequence[NewTable] = (),
        places: Sequence[PlaceRow] = (),
        guild_id: int = 0,
        players: int = 0,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Durably accept one change of a tournament, in ONE transaction: the new state
        (``version``) and its event, the notes it makes due, the tables it opens (each with
        its first event) and, when it finishes, every entrant's place (``guild_id`` and
        ``players`` go with those). Raises :class:`VersionConflictError` if ``version`` is
        not newer or the tournament is closed, :class:`NotFoundError` if unknown."""
        _check(notes)
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            updated = await t.execute(
                _UPDATE,
                (state_json, version, status, name, start_at, ts, tournament_id, version),
            )
            if updated == 0:
                await _conflict(t, tournament_id, version)
            await t.execute(_EVENT, (tournament_id, version, event_json, ts))
            if notes:
                await t.executemany(
                    _NOTE, [(tournament_id, n.kind, n.round_no, n.payload_json, ts) for n in notes]
                )
            for table in tables:
                await t.execute(
                    _TABLE,
                    (
                        table.table_id, table.guild_id, table.channel_id, table.host_id,
                        table.status, table.state_json, table.version, table.turn_deadline,
                        ts, ts, tournament_id, table.round_no,
                    ),
                )  # fmt: skip
                await t.execute(
                    _TABLE_EVENT,
                    (table.table_id, table.version, '{"type":"tournament_seat"}', ts),
                )
            rows = [
                (tournament_id, p.entrant, guild_id, p.user_id, p.name, p.place, players)
                for p in places
            ]
            if rows:
                await t.executemany(
                    _PLACE, [(*row, p.rounds, ts) for row, p in zip(rows, places, strict=True)]
                )

    async def set_messages(
        self, tournament_id: str, messages: dict[str, int], *, tx: Tx | None = None
    ) -> None:
        """Record the Discord messages that show a tournament (no version bump)."""
        async with self._db.transaction(tx) as t:
            if await t.execute(_MESSAGES, (json.dumps(messages), tournament_id)) == 0:
                raise NotFoundError(f"no tournament {tournament_id}")

    async def mark(
        self,
        tournament_id: str,
        kind: TournamentNoteKind,
        round_no: int = 0,
        *,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> bool:
        """Mark a note posted; False if it was not pending (a repeat is harmless)."""
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            return await t.execute(_MARK, (ts, tournament_id, kind, round_no)) > 0

    # -------------------------------------------------------------- reads

    async def load(self, tournament_id: str) -> TournamentRecord | None:
        async with self._db.reading() as conn:
            row = await conn.fetchone(_SELECT, (tournament_id,))
        return None if row is None else _record(row)

    async def load_open(self) -> list[TournamentRecord]:
        """Every tournament not finished or cancelled, oldest first (restored at start)."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_SELECT_OPEN)
        return [_record(r) for r in rows]

    async def recent(self, guild_id: int, limit: int = 10) -> list[TournamentRecord]:
        """A server's tournaments, newest first."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_SELECT_GUILD, (guild_id, limit))
        return [_record(r) for r in rows]

    async def pending(self, tournament_id: str | None = None) -> list[TournamentNoteRecord]:
        """Notes not yet marked posted (optionally one tournament's), oldest first."""
        sql: str = _PENDING
        args: tuple[Any, ...] = ()
        if tournament_id is not None:
            sql, args = sql + " AND tournament_id = ?", (tournament_id,)
        async with self._db.reading() as conn:
            rows = await conn.fetchall(sql + " ORDER BY outbox_id", args)
        return [
            TournamentNoteRecord(str(r[0]), r[1], int(r[2]), str(r[3]), float(r[4]), r[5])
            for r in rows
        ]

    async def table_statuses(self, tournament_id: str) -> dict[str, str]:
        """The status of every table the tournament opened, by table id."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_TABLE_STATUS, (tournament_id,))
        return {str(r[0]): str(r[1]) for r in rows}

    async def orphans(self, *, now: float) -> list[tuple[str, int]]:
        """Open tournaments without a live lease, as ``(tournament_id, guild_id)``."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_ORPHANS, (now,))
        return [(str(r[0]), int(r[1])) for r in rows]

    async def places(self, tournament_id: str) -> list[PlaceRow]:
        """A finished tournament's places, best first."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_PLACES, (tournament_id,))
        return [PlaceRow(str(r[0]), r[1], str(r[2]), int(r[3]), int(r[4])) for r in rows]

    async def player_results(
        self, guild_id: int, user_id: int, limit: int = 5
    ) -> list[tuple[str, str, int, int, int]]:
        """A player's latest finished tournaments in a server, newest first: (tournament id,
        name, place, players, rounds played)."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_RESULTS, (guild_id, user_id, limit))
        return [(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    async def player_stats(self, guild_id: int, user_id: int) -> TournamentStats:
        """A player's finished tournaments in a server: how many, won, best and last place."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(_STATS, (guild_id, user_id))
            last = await conn.fetchone(_LAST, (guild_id, user_id))
        played = int(row[0] or 0) if row else 0
        if not played:
            return TournamentStats()
        assert row is not None
        return TournamentStats(
            played,
            int(row[1] or 0),
            None if row[2] is None else int(row[2]),
            None if last is None else str(last[0]),
            None if last is None else int(last[1]),
            None if last is None else int(last[2]),
        )


async def _conflict(conn: Conn, tournament_id: str, version: int) -> None:
    row = await conn.fetchone(_VERSION, (tournament_id,))
    if row is None:
        raise NotFoundError(f"no tournament {tournament_id}")
    raise VersionConflictError(
        f"tournament {tournament_id}: version {version} rejected (stored {row[0]}, {row[1]})"
    )
