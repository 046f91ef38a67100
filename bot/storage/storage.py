"""``Storage``: the lifecycle of the database and its transaction, and the repositories.

Why this shape: the bot holds one object, but the queries live with their aggregate, one
repository per module (``storage.tables``, ``storage.outbox``, ``storage.leases``,
``storage.results``, ``storage.boards``, ``storage.settings``, ``storage.preferences``,
``storage.help_pointers``, ``storage.privacy``, ``storage.seasons``,
``storage.tournaments``). ``Storage`` only opens (and migrates), closes, and hands out
``async with storage.transaction() as tx:``; every write method of every repository takes
``tx=``, so writes of several repositories (a move, its outbox rows, a result) commit or roll
back together. A second backend changes what
:meth:`Storage.open_url` builds, not the repositories.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Self

from bot.storage import migrate as migrations
from bot.storage.boards import BoardRepo
from bot.storage.conn import Database, Dialect, Tx
from bot.storage.outbox import OutboxRepo
from bot.storage.ownership import LeaseRepo
from bot.storage.pg import PgDatabase, is_postgres_url
from bot.storage.pointers import HelpPointerRepo
from bot.storage.preferences import PreferenceRepo
from bot.storage.privacy import PrivacyRepo
from bot.storage.results import ResultRepo
from bot.storage.seasons import SeasonRepo
from bot.storage.settings import SettingsRepo
from bot.storage.sqlite import SqliteDatabase, Synchronous
from bot.storage.tables import TableRepo
from bot.storage.tournaments import TournamentRepo

__all__ = ["Storage"]


class Storage:
    """The bot's database (SQLite or PostgreSQL). Create with :meth:`open_url` (or
    :meth:`open` for a SQLite path); use as ``async with`` or :meth:`close` it.

    Every database failure surfaces as :class:`~bot.storage.errors.StorageError`; a value
    no column can hold as :class:`~bot.storage.errors.BadValue`."""

    def __init__(self, db: Database) -> None:
        """Use :meth:`open`/:meth:`open_url`; this wires an already migrated database."""
        self._db = db
        self.tables = TableRepo(db)
        self.outbox = OutboxRepo(db)
        self.leases = LeaseRepo(db)
        self.results = ResultRepo(db)
        self.boards = BoardRepo(db)
        self.settings = SettingsRepo(db)
        self.preferences = PreferenceRepo(db)
        self.help_pointers = HelpPointerRepo(db)
        self.privacy = PrivacyRepo(db)
        self.seasons = SeasonRepo(db)
        self.tournaments = TournamentRepo(db)

    # ------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        migrate_to: int | None = None,
    ) -> Storage:
        """Open a SQLite file (creating parent directories) and migrate it.

        ``":memory:"`` gives a private in-memory database for tests. ``migrate_to``
        stops at an earlier schema version (for migration tests only; the rest of
        the API assumes the latest schema). ``synchronous="NORMAL"`` trades the last
        few commits on power loss for speed; the default keeps every commit.
        """
        database = await SqliteDatabase.open(str(path), synchronous=synchronous)
        return await cls._migrated(database, migrate_to)

    @classmethod
    async def open_url(
        cls, url_or_path: str | Path, *, pool_size: int = 10, migrate_to: int | None = None
    ) -> Storage:
        """The one factory the bot uses: a ``postgresql://`` (or ``postgres://``) URL
        opens PostgreSQL through an asyncpg pool of up to ``pool_size`` connections;
        anything else is a SQLite file path (see :meth:`open`; ``pool_size`` does not
        apply). Either way the database is migrated to the latest schema of its dialect
        (the same numbered migrations exist for both)."""
        target = str(url_or_path)
        if not is_postgres_url(target):
            return await cls.open(target, migrate_to=migrate_to)
        database = await PgDatabase.open(target, pool_size=pool_size)
        return await cls._migrated(database, migrate_to)

    @classmethod
    async def _migrated(cls, database: Database, migrate_to: int | None) -> Storage:
        """Migrate ``database`` (closing it if that fails) and wrap it."""
        try:
            shipped = migrations.load_migrations(database.dialect)
            upto = shipped[-1].version if migrate_to is None else migrate_to
            # bulk: a migration of a big database, or waiting for another process's, may
            # take longer than one statement of a game is allowed to
            async with database.session(bulk=True) as conn:
                await migrations.migrate(conn, shipped, upto)
            if isinstance(database, PgDatabase):
                # Connections opened before the schema changed may hold plans of the old one.
                await database.pool.expire_connections()
        except BaseException:
            await database.close()
            raise
        return cls(database)

    @property
    def database(self) -> Database:
        """The backend itself, for the operator's tools that work on whole tables
        (`bot.storage.transfer`); the bot goes through the repositories."""
        return self._db

    @property
    def dialect(self) -> Dialect:
        """Which SQL dialect the database speaks (``"sqlite"`` or ``"postgres"``)."""
        return self._db.dialect

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """``async with storage.transaction() as tx:`` one transaction: pass ``tx=tx`` to
        the repositories' write methods and their statements commit together when the
        block ends, or roll back together if it raises (a cancellation included; the
        COMMIT itself is never cut off half-way). On SQLite a task holding a transaction
        must not open a second one (``RuntimeError``): pass ``tx=``."""
        return self._db.transaction()

    async def schema_version(self) -> int:
        """Highest applied migration number."""
        async with self._db.reading() as conn:
            return await migrations.current_version(conn)

    async def close(self) -> None:
        """Close the connections (idempotent)."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
