"""`python -m bot` checks its database before connecting: one line and exit code 2 for a file
that is corrupt, unreadable, read-only, locked or newer than the code."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.startup import check_database
from tests.conftest import PROJECT_ROOT

# Passes the settings check; the database check must stop the bot before it is ever used.
TOKEN = "aaaaaaaaaaaaaaaaaaaaaaaa.bbbbbb.cccccccccccccccccccccccccc"


def _run_bot(tmp_path: Path, database: Path | None) -> tuple[int, list[str]]:
    # From an empty folder so no .env is read; the worktree's code comes first. No
    # `database`: the default (`data/paplu.sqlite3` in that folder).
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(PROJECT_ROOT),
        "DISCORD_TOKEN": TOKEN,
    }
    if database is not None:
        env["DATABASE_PATH"] = str(database)
    run_dir = tmp_path / "run"
    run_dir.mkdir(exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=run_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    return proc.returncode, lines


def _one_line(tmp_path: Path, database: Path, problem: str) -> None:
    code, lines = _run_bot(tmp_path, database)
    assert code == 2
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"database error: {database}: "), lines
    assert problem in lines[0], lines


async def _good_database(path: Path) -> None:
    async with await Storage.open(path):
        pass


def test_a_corrupt_file(tmp_path: Path) -> None:
    db = tmp_path / "paplu.sqlite3"
    db.write_bytes(b"this is not a database, it is a shopping list\n" * 200)
    _one_line(tmp_path, db, "not a SQLite database")


def test_a_default_folder_that_cannot_be_created(tmp_path: Path) -> None:
    """Only the default `data/` folder is created (another missing folder is refused by the
    settings check, `tests/test_config.py`); a file in its way is one line."""
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "data").write_text("a file where the data folder should be")
    code, lines = _run_bot(tmp_path, None)
    assert code == 2
    assert len(lines) == 1, lines
    assert lines[0].startswith("database error: data/paplu.sqlite3: "), lines
    assert "cannot create the database directory" in lines[0], lines


async def test_a_database_newer_than_the_code(tmp_path: Path) -> None:
    db = tmp_path / "paplu.sqlite3"
    await _good_database(db)
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("INSERT INTO schema_version VALUES (999, 'future', 0)")
    _one_line(tmp_path, db, "newer than this code")


async def test_a_locked_database(tmp_path: Path) -> None:
    db = tmp_path / "paplu.sqlite3"
    await _good_database(db)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process is writing and does not stop
        _one_line(tmp_path, db, "locked by another process")
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """Make a file read-only for this process: a mode for an ordinary user; root ignores
    modes, so the immutable attribute (chattr) if the system allows it, else skip."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)]).returncode != 0:
        pytest.skip("running as root without chattr +i: cannot make a file read-only")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


async def test_a_read_only_database(tmp_path: Path) -> None:
    db = tmp_path / "paplu.sqlite3"
    await _good_database(db)
    with _read_only(db):
        assert await check_database(db) is not None  # in process too
        _one_line(tmp_path, db, "is read-only")


async def test_a_good_database_passes(tmp_path: Path) -> None:
    db = tmp_path / "new" / "paplu.sqlite3"
    assert await check_database(db) is None  # created and migrated
    assert await check_database(db) is None  # and opened again
    with contextlib.closing(sqlite3.connect(db)) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "paplu_write_probe" not in names  # the write probe left nothing behind
