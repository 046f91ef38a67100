"""The command line: `paplu-bot` (or `python -m bot`) runs the bot; its subcommands are the
operator's jobs.

    paplu-bot                     run the bot (settings from the environment and ./.env)
    paplu-bot --help | --version  say so and exit (they never start the bot)
    paplu-bot backup DEST         an online backup of the SQLite database, checked
    paplu-bot migrate-data --from SQLITE_FILE --to postgresql://...
                                  copy every server's data into an empty PostgreSQL database
    paplu-bot check-db            schema version, pending migrations, integrity

Why subcommands of the one program: an operator has the program and its `.env` already;
the jobs read the same database settings the bot does (`DATABASE_PATH`, `DATABASE_URL`), so
`paplu-bot backup /backups/` backs up exactly the database the bot uses. They need no bot
token. Each prints what it did on stdout; a failure is one line on stderr. Exit codes: 0 done,
1 a check found a problem (a damaged database, counts that disagree), 2 it could not be done
(a bad setting, a missing file, a refused copy), as for the bot's own start.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import logging
import os
import sys
import tomllib
from pathlib import Path
from typing import TextIO

from .config import (
    ConfigError,
    DatabaseSettings,
    load_database,
    redact_text,
    redact_url,
    url_secrets,
)

__all__ = ["parser", "run_command", "version"]

#: The README's PostgreSQL backup line (`DATABASE_URL` as the bot has it in its environment).
PG_DUMP = 'pg_dump --format=custom --file=paplu-$(date +%Y%m%d-%H%M%S).dump "$DATABASE_URL"'


def version() -> str:
    """The installed package's version; from a source checkout, its pyproject.toml's."""
    try:
        return importlib.metadata.version("paplu-bot")
    except importlib.metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text())["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="paplu-bot",
        description="Indian Rummy at the Discord table. Without a command, runs the bot "
        "(settings from the environment and ./.env; see the README).",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    backup = sub.add_parser(
        "backup",
        help="back up the SQLite database (safe while the bot runs)",
        description="Copy the SQLite database with SQLite's online backup API (safe while "
        "the bot runs) and check the copy (PRAGMA integrity_check). For PostgreSQL, prints "
        "the pg_dump command to use instead.",
    )
    backup.add_argument(
        "dest", type=Path, help="the backup file, or a folder to put a dated one in"
    )
    backup.add_argument("--database", help="the SQLite file (default: DATABASE_PATH's)")
    backup.add_argument("--force", action="store_true", help="overwrite DEST if it exists")

    move = sub.add_parser(
        "migrate-data",
        help="copy every server's data from the SQLite file into PostgreSQL",
        description="Copy every table (leaderboards, ratings, match and deal histories, "
        "settings, preferences, open tables) from a SQLite file into a PostgreSQL database, "
        "in one transaction, then verify the row counts. Stop the bot first: a table it is "
        "playing stops the copy. The target must be empty unless --force is given.",
    )
    move.add_argument("--from", dest="source", required=True, type=Path, metavar="SQLITE_FILE")
    move.add_argument("--to", dest="target", required=True, metavar="POSTGRESQL_URL")
    move.add_argument(
        "--force",
        action="store_true",
        help="the target already holds data: delete it first (in the same transaction)",
    )

    check = sub.add_parser(
        "check-db",
        help="the database's schema version, pending migrations and integrity",
        description="Look at the database without changing its data: its schema version "
        "against this code's migrations, its integrity and its size per table.",
    )
    check.add_argument("--database", help="a SQLite file or postgresql:// URL (default: the bot's)")
    return p


def run_command(
    args: argparse.Namespace, out: TextIO = sys.stdout, err: TextIO = sys.stderr
) -> int:
    """Run an operator's subcommand (`args.command`); returns the exit code."""
    from . import logs

    # The migrations a command applies are logged; no password of a URL it was given may be.
    urls = (getattr(args, "target", None), getattr(args, "database", None))
    secrets = [s for url in (*urls, os.environ.get("DATABASE_URL")) for s in url_secrets(url or "")]
    logs.setup(logging.INFO, stream=err, secrets=secrets)
    try:
        if args.command == "backup":
            return _backup(args, out, err)
        if args.command == "migrate-data":
            return asyncio.run(_migrate_data(args, out, err))
        if args.command == "check-db":
            return asyncio.run(_check_db(args, out, err))
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=err)
        return 2
    raise AssertionError(f"unknown command {args.command!r}")  # pragma: no cover


def _database(given: str | None) -> DatabaseSettings:
    """The database a command works on: the one named on the command line, else the bot's."""
    if not given:
        return load_database()
    return load_database({"DATABASE_URL": given})


# ------------------------------------------------------------------ backup


def _backup(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .storage.backup import BackupFailed, backup_sqlite

    db = _database(args.database)
    if db.url is not None:
        print(
            f"backup: the database is PostgreSQL ({db.label}); back it up with pg_dump, "
            f"as the README says:\n  {PG_DUMP}",
            file=err,
        )
        return 2
    try:
        report = backup_sqlite(db.path, args.dest, overwrite=args.force)
    except BackupFailed as exc:
        print(f"backup failed: {exc}", file=err)
        return 1 if "integrity" in str(exc) or "foreign key" in str(exc) else 2
    print(
        f"backed up {db.path} to {report.path}: {report.size:,} bytes, schema "
        f"v{report.schema_version}, integrity ok, in {report.seconds:.1f} s",
        file=out,
    )
    return 0


# ------------------------------------------------------------------ migrate-data


async def _migrate_data(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .storage import Storage, StorageError
    from .storage.pg import PgDatabase, is_postgres_url
    from .storage.sqlite import SqliteDatabase
    from .storage.startup import describe
    from .storage.transfer import CopyRefused, copy_sqlite_to_postgres

    source_path: Path = args.source
    target_url: str = args.target
    label = redact_url(target_url)
    if not is_postgres_url(target_url):
        print(f"migrate-data: --to must be a postgresql:// URL, got {label!r}", file=err)
        return 2
    if not source_path.is_file():
        print(f"migrate-data: there is no SQLite database at {source_path}", file=err)
        return 2
    try:
        source = await Storage.open(source_path)
    except StorageError as exc:
        print(f"database error: {source_path}: {describe(exc)}", file=err)
        return 2
    try:
        try:
            target = await Storage.open_url(target_url, pool_size=2)
        except StorageError as exc:
            print(f"database error: {label}: {redact_text(describe(exc), target_url)}", file=err)
            return 2
        try:
            src, dst = source.database, target.database
            assert isinstance(src, SqliteDatabase) and isinstance(dst, PgDatabase)
            print(f"copying {source_path} to {label}", file=out)
            report = await copy_sqlite_to_postgres(
                src,
                dst,
                replace=args.force,
                progress=lambda table, rows: print(f"  {table:<20} {rows:>10,}", file=out),
            )
        except CopyRefused as exc:
            print(f"migrate-data: nothing copied: {redact_text(str(exc), target_url)}", file=err)
            return 2
        except StorageError as exc:
            print(f"migrate-data: {redact_text(describe(exc), target_url)}", file=err)
            return 1
        finally:
            await target.close()
    finally:
        await source.close()
    for table, rows in report.replaced.items():
        print(f"  (replaced {rows:,} rows the target held in {table})", file=out)
    print(
        f"copied {report.rows:,} rows in {len(report.counts)} tables (schema "
        f"v{report.schema_version}) in {report.seconds:.1f} s; every count verified on the "
        "target after the commit",
        file=out,
    )
    print(f"now set DATABASE_URL={label} and start the bot", file=out)
    return 0


# ------------------------------------------------------------------ check-db


async def _check_db(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .storage.startup import inspect_database

    db = _database(args.database)
    report = await inspect_database(db.target)
    if report.problem is not None:
        print(f"database error: {db.label}: {redact_text(report.problem, db.url)}", file=err)
        return 2
    print(f"database: {db.label} ({report.dialect})", file=out)
    print(f"schema: v{report.version} (this code ships v{report.shipped})", file=out)
    if report.unknown:
        print(
            f"  NEWER than this code: migration(s) {report.unknown} are unknown here; run the "
            "version of the bot that wrote them",
            file=out,
        )
    if report.pending:
        print(
            f"  pending: {', '.join(report.pending)} (the bot applies them at its next start; "
            "back up first)",
            file=out,
        )
    else:
        print("  no pending migration", file=out)
    if report.integrity:
        print(f"integrity: DAMAGED: {'; '.join(report.integrity[:5])}", file=out)
    elif report.dialect == "sqlite":
        print("integrity: ok (PRAGMA integrity_check, foreign keys; every table read)", file=out)
    else:
        print("integrity: every table read through", file=out)
    for table, rows in report.rows.items():
        print(f"  {table:<24} {rows:>10,}", file=out)
    return 0 if report.sound else 1
