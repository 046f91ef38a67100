"""A backup of the SQLite database that is safe while the bot runs (`paplu-bot backup DEST`).

Why not copy the file: the database runs in WAL mode, so recent commits live in the `-wal`
file beside it until a checkpoint moves them in; a copy of the main file alone misses them,
and a copy taken during a checkpoint is torn. SQLite's online backup API reads a consistent
snapshot through a connection of its own (in WAL mode readers never block the bot's writer,
nor it them), page by page, into the new file.

The copy is then made to stand alone (its journal mode set back to a single file, so it can be
moved or mailed without a `-wal` beside it) and checked: `PRAGMA integrity_check` and the
foreign keys must hold, or the copy is thrown away and the command fails. It is written under
a temporary name and renamed into place at the end, so a backup that stops half-way never
leaves a file that looks like a backup.

Synchronous, with the standard library's `sqlite3`: this runs in the operator's command, not
in the bot's process, and nothing else waits for it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BackupFailed", "BackupReport", "backup_sqlite", "default_name"]


class BackupFailed(Exception):
    """The backup was not made (or was thrown away); the message says why."""


@dataclass(frozen=True, slots=True)
class BackupReport:
    path: Path
    size: int  # bytes
    schema_version: int
    seconds: float


def default_name(now: float | None = None) -> str:
    """The file name a backup gets in a folder: sortable by time, never the same twice a
    second apart (`paplu-20250102-030405.sqlite3`)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return f"paplu-{stamp}.sqlite3"


def _target(dest: Path, overwrite: bool) -> Path:
    if dest.is_dir():
        dest = dest / default_name()
    if not dest.parent.is_dir():
        raise BackupFailed(f"the folder {dest.parent} does not exist")
    if dest.exists() and not overwrite:
        raise BackupFailed(f"{dest} already exists (pass --force to overwrite it)")
    return dest


def backup_sqlite(source: Path, dest: Path, *, overwrite: bool = False) -> BackupReport:
    """Copy the SQLite database `source` to `dest` (a file, or a folder to put a dated file
    in) with the online backup API, and check the copy. Raises :class:`BackupFailed`."""
    started = time.monotonic()
    if not source.is_file():
        raise BackupFailed(f"there is no database at {source}")
    dest = _target(dest, overwrite)
    if dest.resolve() == source.resolve():
        raise BackupFailed("the backup would overwrite the database itself")
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        # mode=rw: never create the source (a typo must not make an empty database).
        uri = source.resolve().as_uri() + "?mode=rw"
        with (
            contextlib.closing(sqlite3.connect(uri, uri=True, timeout=30)) as src,
            contextlib.closing(sqlite3.connect(partial)) as copy,
        ):
            src.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
            version = _check(copy)
        _durable(partial)
        os.replace(partial, dest)
        _durable(dest.parent)
    except sqlite3.Error as exc:
        raise BackupFailed(f"{source} could not be backed up: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(dest, dest.stat().st_size, version, time.monotonic() - started)


def _check(copy: sqlite3.Connection) -> int:
    """The copy's schema version, once its pages and foreign keys are found sound."""
    problems = [str(r[0]) for r in copy.execute("PRAGMA integrity_check").fetchall()]
    if problems != ["ok"]:
        raise BackupFailed(
            "the copy fails its integrity check (" + "; ".join(problems[:3]) + "): the database "
            "itself may be damaged; run `paplu-bot check-db`"
        )
    orphans = copy.execute("PRAGMA foreign_key_check").fetchall()
    if orphans:
        raise BackupFailed(f"the copy has {len(orphans)} row(s) whose foreign key points nowhere")
    has_versions = copy.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if has_versions is None:
        raise BackupFailed("the file is not a database of this bot (no schema_version)")
    return int(copy.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])


def _durable(path: Path) -> None:
    """fsync a file or a folder: the backup (and its new name) survive a power cut."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
