"""Persistence for the Paplu bot (SQLite or PostgreSQL): the only package that talks SQL.

Layout (each module's docstring explains its invariants):

* :mod:`~bot.storage.storage` — :class:`Storage`: open (and migrate), close, and
  ``async with storage.transaction() as tx:``; it holds one repository per aggregate.
* The repositories, each a module with its queries; every write method takes ``tx=``
  (given: runs in that transaction, which the caller commits; absent: its own):
  ``storage.tables`` (:mod:`~bot.storage.tables`: game tables and their action log,
  optimistic versions), ``storage.outbox`` (:mod:`~bot.storage.outbox`: announcements
  and result jobs due but not yet done, written with the state change that makes them
  due), ``storage.leases`` (:mod:`~bot.storage.ownership`: which process drives a table),
  ``storage.results`` (:mod:`~bot.storage.results`: finished deals/matches, written once,
  and the summaries of :mod:`~bot.storage.summaries`), ``storage.boards``
  (:mod:`~bot.storage.boards`: leaderboards, ranks, stats, history), ``storage.settings``
  (:mod:`~bot.storage.settings`), ``storage.preferences``
  (:mod:`~bot.storage.preferences`), ``storage.privacy`` (:mod:`~bot.storage.privacy`:
  forget-me) and ``storage.seasons`` (:mod:`~bot.storage.seasons`: each server's seasons,
  the open one and the frozen ones).
* :mod:`~bot.storage.conn` — the async connection protocol every query is written
  against (``?`` placeholders), the bad-value check and the batching helpers;
  :mod:`~bot.storage.sqlite` (aiosqlite: one writer behind a lock, one reader) and
  :mod:`~bot.storage.pg` (an asyncpg pool) implement it, each with the single point where
  its driver's errors become :class:`StorageError`; :mod:`~bot.storage.migrate` — the
  numbered migrations of both dialects. Concurrency across processes relies on sharding
  by guild: one process writes a guild's results and summaries (the summaries'
  read-then-upsert is not meant for two writers).
* :mod:`~bot.storage.ratings` — openskill maths as pure functions (no SQL);
  :mod:`~bot.storage.records` — the records and read models; :mod:`~bot.storage.money`
  — exact Fractions as 64-bit pairs; :mod:`~bot.storage.errors` — the error types.

Cross-cutting semantics: AI seats (``is_ai`` or ``user_id is None``) are stored in
results but never in summaries, ratings, stats or leaderboards; void deals are kept
in the history but count for nothing; net chips on boards/stats are the sum of *deal*
nets (the per-seat match net is stored with the match but not added again).
"""

from __future__ import annotations

from bot.storage.conn import Conn, Tx
from bot.storage.errors import (
    BadValue,
    NotFoundError,
    StorageError,
    StorageIntegrityError,
    StorageUnavailable,
    VersionConflictError,
)
from bot.storage.migrate import Migration, load_migrations
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
    HintLevel,
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
    TableStatusName,
    Unset,
)
from bot.storage.seasons import Cadence, Ending, SeasonRecord
from bot.storage.settings import (
    DEFAULT_PROFILE,
    DEFAULT_TURN_TIMER,
    SEASON_OFF,
    SEASON_PLANS,
    GuildSettings,
)
from bot.storage.storage import Storage

__all__ = [
    "DEFAULT_PROFILE",
    "DEFAULT_TURN_TIMER",
    "DELETED_NAME",
    "SEASON_OFF",
    "SEASON_PLANS",
    "UNSET",
    "Announcement",
    "AnnouncementKind",
    "AnnouncementRecord",
    "BadValue",
    "Cadence",
    "Conn",
    "DealHistoryRow",
    "DealRecord",
    "DealSeatRecord",
    "Ending",
    "EventRecord",
    "GuildSettings",
    "HintLevel",
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
    "SeasonRecord",
    "SortKey",
    "Storage",
    "StorageError",
    "StorageIntegrityError",
    "StorageUnavailable",
    "TableRecord",
    "TableStatusName",
    "Tx",
    "Unset",
    "VersionConflictError",
    "load_migrations",
]
