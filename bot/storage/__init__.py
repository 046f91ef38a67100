"""Persistence for the Paplu bot (SQLite or PostgreSQL): the only package that talks SQL.

Layout (each module's docstring explains its invariants):

* :mod:`~bot.storage.db` — the connection (one worker thread, one job per operation,
  WAL + ``synchronous=FULL``), numbered migrations, the write-transaction helper and
  the single point where database errors become :class:`StorageError`.
* :mod:`~bot.storage.pg` — PostgreSQL through asyncpg on the same worker and job model
  (``DATABASE_URL=postgresql://…``); :mod:`~bot.storage.conn` — the connection protocol
  jobs are written against, and :func:`~bot.storage.conn.dialect_of` for the few
  statements kept per dialect. Migrations exist per dialect with the same numbers.
  Concurrency across processes relies on sharding by guild: one process writes a guild's
  results and summaries (the summaries' read-then-upsert is not meant for two writers).
* :mod:`~bot.storage.tables` — game tables and their action log (optimistic versions).
* :mod:`~bot.storage.outbox` — announcements due but not yet posted, written with
  the state change that makes them due.
* :mod:`~bot.storage.results` — finished deals/matches, written once (idempotent).
* :mod:`~bot.storage.summaries` — totals, rolling 7d/30d boards and ratings derived
  from the results (incremental and rebuild).
* :mod:`~bot.storage.ratings` — openskill maths as pure functions (no SQL).
* :mod:`~bot.storage.leaderboards`, :mod:`~bot.storage.stats`,
  :mod:`~bot.storage.settings`, :mod:`~bot.storage.privacy` — the read side, guild
  settings and forget-me; :mod:`~bot.storage.preferences` — a player's own display
  choices (card images or text only).
* :mod:`~bot.storage.records` — the records and read models; :mod:`~bot.storage.money`
  — exact Fractions as 64-bit pairs; :mod:`~bot.storage.errors` — the error types.
* :mod:`~bot.storage.front` — :class:`Storage`, the thin front the bot holds.

Cross-cutting semantics: AI seats (``is_ai`` or ``user_id is None``) are stored in
results but never in summaries, ratings, stats or leaderboards; void deals are kept
in the history but count for nothing; net chips on boards/stats are the sum of *deal*
nets (the per-seat match net is stored with the match but not added again).
"""

from __future__ import annotations

from bot.storage.db import Migration, load_migrations
from bot.storage.errors import (
    NotFoundError,
    StorageError,
    StorageIntegrityError,
    StorageUnavailable,
    VersionConflictError,
)
from bot.storage.front import Storage
from bot.storage.privacy import DELETED_NAME
from bot.storage.records import (
    UNSET,
    Announcement,
    AnnouncementKind,
    AnnouncementRecord,
    DealHistoryRow,
    DealRecord,
    DealSeatRecord,
    EventRecord,
    LeaderboardRow,
    MatchRecord,
    MatchSeatRecord,
    Outcome,
    Period,
    PlayerRank,
    PlayerStats,
    ProfileStats,
    RatingInfo,
    RatingPoint,
    SortKey,
    TableRecord,
    TableStatus,
    Unset,
)
from bot.storage.settings import DEFAULT_PROFILE, DEFAULT_TURN_TIMER, GuildSettings

__all__ = [
    "DEFAULT_PROFILE",
    "DEFAULT_TURN_TIMER",
    "DELETED_NAME",
    "UNSET",
    "Announcement",
    "AnnouncementKind",
    "AnnouncementRecord",
    "DealHistoryRow",
    "DealRecord",
    "DealSeatRecord",
    "EventRecord",
    "GuildSettings",
    "LeaderboardRow",
    "MatchRecord",
    "MatchSeatRecord",
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
    "StorageIntegrityError",
    "StorageUnavailable",
    "TableRecord",
    "TableStatus",
    "Unset",
    "VersionConflictError",
    "load_migrations",
]
