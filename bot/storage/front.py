"""The ``Storage`` front: the one object the bot holds, with the whole public API.

Why a thin front: call sites (adapter, cogs, client, benchmarks, tests) keep one
object with stable method names and signatures, while each method's rules and SQL
live in its aggregate module (:mod:`~bot.storage.tables`, :mod:`~bot.storage.results`,
:mod:`~bot.storage.leaderboards`, :mod:`~bot.storage.stats`,
:mod:`~bot.storage.settings`, :mod:`~bot.storage.preferences`,
:mod:`~bot.storage.privacy`). The front only owns the lifecycle (open + migrate,
close) and forwards; it contains no SQL and no rules, so a second backend changes
what :meth:`Storage.open` builds, not this API.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Literal, Self

from bot.storage import db as dbmod
from bot.storage import (
    leaderboards,
    outbox,
    ownership,
    preferences,
    privacy,
    results,
    settings,
    stats,
    tables,
)
from bot.storage.db import Database, Synchronous
from bot.storage.errors import StorageUnavailable
from bot.storage.ownership import Owner
from bot.storage.pg import PgDatabase, is_postgres_url
from bot.storage.records import (
    UNSET,
    Announcement,
    AnnouncementKind,
    AnnouncementRecord,
    DealHistoryRow,
    DealRecord,
    EventRecord,
    LeaderboardRow,
    MatchRecord,
    Period,
    PlayerRank,
    PlayerStats,
    RatingPoint,
    SortKey,
    TableRecord,
    TableStatus,
    Unset,
)
from bot.storage.settings import GuildSettings

__all__ = ["Storage"]


class Storage:
    """Async facade over the bot's database (SQLite or PostgreSQL). Create with
    :meth:`open_url` (or :meth:`open` for a SQLite path).

    Every method is one job on the database's worker thread (writes: one
    transaction), and every database failure surfaces as
    :class:`~bot.storage.errors.StorageError`."""

    def __init__(self, db: Database, schema_version: int) -> None:
        """Use :meth:`open`; this only wires an already migrated database."""
        self._db: Database | None = db
        self._schema_version = schema_version

    # ------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        migrate_to: int | None = None,
    ) -> Storage:
        """Open (creating parent directories) and migrate to the latest schema.

        ``":memory:"`` gives a private in-memory database for tests. ``migrate_to``
        stops at an earlier schema version (for migration tests only; the rest of
        the API assumes the latest schema). ``synchronous="NORMAL"`` trades the last
        few commits on power loss for speed; the default keeps every commit.
        """
        database = await Database.open(str(path), synchronous=synchronous)
        return await cls._migrated(database, migrate_to)

    @classmethod
    async def open_url(cls, url_or_path: str | Path, *, migrate_to: int | None = None) -> Storage:
        """The one factory the bot uses: a ``postgresql://`` (or ``postgres://``) URL
        opens PostgreSQL through asyncpg; anything else is a SQLite file path (see
        :meth:`open`). Either way the database is migrated to the latest schema of its
        dialect (the same numbered migrations exist for both)."""
        target = str(url_or_path)
        if not is_postgres_url(target):
            return await cls.open(target, migrate_to=migrate_to)
        database = await PgDatabase.open_url(target)
        return await cls._migrated(database, migrate_to)

    @classmethod
    async def _migrated(cls, database: Database, migrate_to: int | None) -> Storage:
        """Migrate ``database`` (closing it if that fails) and wrap it."""
        try:
            migrations = dbmod.load_migrations(database.DIALECT)
            upto = migrations[-1].version if migrate_to is None else migrate_to
            version = await database.run(lambda conn: dbmod.migrate(conn, migrations, upto))
        except BaseException:
            await database.close()
            raise
        return cls(database, version)

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

    def _database(self) -> Database:
        db = self._db
        if db is None:
            raise StorageUnavailable("storage is closed")
        return db

    async def schema_version(self) -> int:
        """Highest applied migration number."""
        return await self._database().run(dbmod.current_version)

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
        """Insert or replace a table snapshot; a version that is not newer than the
        stored one (or a closed table) raises VersionConflictError. See
        :func:`bot.storage.tables.save_table`."""
        await tables.save_table(
            self._database(),
            table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status=status,
            state_json=state_json,
            version=version,
            public_message_id=public_message_id,
            prompt_message_id=prompt_message_id,
            turn_deadline=turn_deadline,
            now=now,
        )

    async def commit_action(
        self,
        table_id: str,
        version: int,
        state_json: str,
        event_json: str,
        *,
        status: TableStatus | Unset = UNSET,
        turn_deadline: float | Unset | None = UNSET,
        prompt_message_id: int | Unset | None = UNSET,
        public_message_id: int | Unset | None = UNSET,
        announce: Sequence[Announcement] = (),
        now: float | None = None,
    ) -> None:
        """Durably accept one game action (snapshot, event and the announcements it
        makes due, in one transaction); call before showing it. See
        :func:`bot.storage.tables.commit_action`."""
        await tables.commit_action(
            self._database(),
            table_id,
            version,
            state_json,
            event_json,
            status=status,
            turn_deadline=turn_deadline,
            prompt_message_id=prompt_message_id,
            public_message_id=public_message_id,
            announce=announce,
            now=now,
        )

    async def append_event(
        self, table_id: str, seq: int, event_json: str, *, now: float | None = None
    ) -> None:
        """Append an event without a snapshot. See :func:`bot.storage.tables.append_event`."""
        await tables.append_event(self._database(), table_id, seq, event_json, now=now)

    async def set_table_messages(
        self,
        table_id: str,
        *,
        public_message_id: int | Unset | None = UNSET,
        prompt_message_id: int | Unset | None = UNSET,
    ) -> None:
        """Record Discord message ids without bumping the game version. See
        :func:`bot.storage.tables.set_table_messages`."""
        await tables.set_table_messages(
            self._database(),
            table_id,
            public_message_id=public_message_id,
            prompt_message_id=prompt_message_id,
        )

    async def close_table(
        self,
        table_id: str,
        status: Literal["finished", "cancelled"],
        *,
        announce: Sequence[Announcement] = (),
        now: float | None = None,
    ) -> bool:
        """Mark a table finished/cancelled (with the announcements that makes due, in one
        transaction); False if unknown or already closed. See
        :func:`bot.storage.tables.close_table`."""
        return await tables.close_table(
            self._database(), table_id, status, announce=announce, now=now
        )

    # ----------------------------------------------------------- the outbox

    async def pending_announcements(self, table_id: str | None = None) -> list[AnnouncementRecord]:
        """Announcements written but not yet marked posted, oldest first. See
        :mod:`bot.storage.outbox`."""
        return await outbox.pending_announcements(self._database(), table_id)

    async def mark_announced(
        self,
        table_id: str,
        kind: AnnouncementKind,
        deal_no: int = 0,
        *,
        now: float | None = None,
    ) -> bool:
        """Mark one announcement posted; False if it was not pending."""
        return await outbox.mark_announced(self._database(), table_id, kind, deal_no, now=now)

    async def load_table(self, table_id: str) -> TableRecord | None:
        """One table, whatever its status."""
        return await tables.load_table(self._database(), table_id)

    async def load_open_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        """All lobby/playing tables (optionally one guild's), oldest first."""
        return await tables.load_open_tables(self._database(), guild_id)

    async def load_events(self, table_id: str, *, after_seq: int = 0) -> list[EventRecord]:
        """A table's events with ``seq > after_seq`` in order."""
        return await tables.load_events(self._database(), table_id, after_seq=after_seq)

    # ------------------------------------------------------- table ownership

    async def claim_table(
        self, table_id: str, owner: str, lease_seconds: float, *, now: float
    ) -> bool:
        """Take or keep a table for ``owner``; False if another process holds a live lease.
        See :func:`bot.storage.ownership.claim`."""
        return await ownership.claim(self._database(), table_id, owner, lease_seconds, now=now)

    async def renew_tables(
        self, table_ids: Iterable[str], owner: str, lease_seconds: float, *, now: float
    ) -> set[str]:
        """Extend ``owner``'s leases; returns the ids it no longer holds. See
        :func:`bot.storage.ownership.renew`."""
        return await ownership.renew(self._database(), table_ids, owner, lease_seconds, now=now)

    async def release_table(self, table_id: str, owner: str) -> bool:
        """Give a table up. See :func:`bot.storage.ownership.release`."""
        return await ownership.release(self._database(), table_id, owner)

    async def table_owner(self, table_id: str) -> Owner | None:
        """Who holds a table and until when. See :func:`bot.storage.ownership.owner_of`."""
        return await ownership.owner_of(self._database(), table_id)

    async def orphan_tables(self, *, now: float) -> list[tuple[str, int]]:
        """Open tables with no live lease, as (table_id, guild_id). See
        :func:`bot.storage.ownership.orphans`."""
        return await ownership.orphans(self._database(), now=now)

    # --------------------------------------------------------------- results

    async def record_deal_result(self, result: DealRecord) -> bool:
        """Store a finished deal once; False if it was already stored. See
        :func:`bot.storage.results.record_deal_result`."""
        return await results.record_deal_result(self._database(), result)

    async def record_match_result(self, result: MatchRecord) -> bool:
        """Store a finished match once and update ratings; False if already stored.
        See :func:`bot.storage.results.record_match_result`."""
        return await results.record_match_result(self._database(), result)

    async def import_results(
        self,
        deals: Iterable[DealRecord] = (),
        matches: Iterable[MatchRecord] = (),
        *,
        batch_size: int = 20_000,
    ) -> tuple[int, int]:
        """Bulk-load results, skipping stored ones, then rebuild summaries. See
        :func:`bot.storage.results.import_results`."""
        return await results.import_results(self._database(), deals, matches, batch_size=batch_size)

    async def rebuild_summaries(self, guild_id: int) -> None:
        """Recompute a guild's summaries from its result rows. See
        :func:`bot.storage.results.rebuild_summaries`."""
        await results.rebuild_summaries(self._database(), guild_id)

    # ---------------------------------------------------------- leaderboards

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
        """One page of a guild leaderboard (humans only). See
        :func:`bot.storage.leaderboards.leaderboard`."""
        return await leaderboards.leaderboard(
            self._database(), guild_id, profile, sort, period, limit, offset, min_games, now
        )

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
        """The player's own line on a board; None if not ranked there. See
        :func:`bot.storage.leaderboards.player_rank`."""
        return await leaderboards.player_rank(
            self._database(), guild_id, user_id, profile, sort, period, min_games, now
        )

    # ------------------------------------------------------ stats & history

    async def player_stats(
        self, guild_id: int, user_id: int, *, trend_matches: int = 10
    ) -> PlayerStats:
        """Per-profile numbers plus rating and trend. See
        :func:`bot.storage.stats.player_stats`."""
        return await stats.player_stats(
            self._database(), guild_id, user_id, trend_matches=trend_matches
        )

    async def rating_history(
        self, guild_id: int, user_id: int, profile: str | None = None, *, limit: int = 20
    ) -> list[RatingPoint]:
        """The player's last ``limit`` rating changes, oldest first (None = overall)."""
        return await stats.rating_history(self._database(), guild_id, user_id, profile, limit=limit)

    async def recent_deals(
        self, guild_id: int, user_id: int, limit: int = 10
    ) -> list[DealHistoryRow]:
        """The player's most recent deals, newest first."""
        return await stats.recent_deals(self._database(), guild_id, user_id, limit)

    async def hand_history(self, guild_id: int, deal_id: int) -> str | None:
        """The engine's hand-history JSON of a deal; None if it is not this guild's."""
        return await stats.hand_history(self._database(), guild_id, deal_id)

    async def played_deals(
        self, guild_id: int, user_id: int, deal_ids: Iterable[int]
    ) -> frozenset[int]:
        """Which of these deals the user played (hand histories are for players only).
        See :func:`bot.storage.stats.played_deals`."""
        return await stats.played_deals(self._database(), guild_id, user_id, deal_ids)

    # ------------------------------------------------------------- settings

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults if never changed."""
        return await settings.get_settings(self._database(), guild_id)

    async def update_settings(
        self,
        guild_id: int,
        *,
        default_profile: str | Unset = UNSET,
        turn_timer: int | Unset = UNSET,
        allowed_channel_ids: Iterable[int] | Unset | None = UNSET,
        card_images: bool | Unset = UNSET,
        now: float | None = None,
    ) -> GuildSettings:
        """Change some settings (UNSET = keep) and return the new ones. See
        :func:`bot.storage.settings.update_settings`."""
        return await settings.update_settings(
            self._database(),
            guild_id,
            default_profile=default_profile,
            turn_timer=turn_timer,
            allowed_channel_ids=allowed_channel_ids,
            card_images=card_images,
            now=now,
        )

    # ---------------------------------------------------------- preferences

    async def get_card_images(self, user_id: int) -> bool | None:
        """The user's own images-or-text choice; None: they never chose (the server's
        default applies). See :mod:`bot.storage.preferences`."""
        return await preferences.get_card_images(self._database(), user_id)

    async def set_card_images(
        self, user_id: int, card_images: bool | None, *, now: float | None = None
    ) -> None:
        """Remember the user's choice (None forgets it)."""
        await preferences.set_card_images(self._database(), user_id, card_images, now=now)

    # -------------------------------------------------------------- privacy

    async def forget_user(self, guild_id: int, user_id: int) -> bool:
        """Erase a user's footprint in one guild: their stats deleted, their name and id
        taken out of everything stored (results, hand histories, tables, events). False,
        with nothing changed, while an open table still has them in it. See
        :func:`bot.storage.privacy.forget_user`."""
        return await privacy.forget_user(self._database(), guild_id, user_id)
