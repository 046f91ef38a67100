"""The command line as an operator meets it: `--help` and `--version` never start the bot;
`check-db` reports without changing anything; `backup` on PostgreSQL says to use pg_dump.

The backup of a running bot's database and the move to PostgreSQL are played with real games
in `tests/e2e/test_operations.py`.
"""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.migrate import load_migrations
from tests.conftest import PROJECT_ROOT
from tests.postgres import postgres_schema, postgres_url_or_skip

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"


def paplu_bot(
    folder: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`paplu-bot ARGS` (the same `main` as `python -m bot`) in `folder`, as an operator
    would run it there: settings from the folder's `.env` and `env` only."""
    full = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=folder,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("flag", ["--help", "-h", "--version"])
def test_help_and_version_print_and_exit_without_starting_the_bot(
    tmp_path: Path, flag: str
) -> None:
    """With a real-looking token in `.env`, the bot would start (check its database, then
    connect); `--help` and `--version` must do neither."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n")
    proc = paplu_bot(tmp_path, flag)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    if flag == "--version":
        assert proc.stdout.strip() == "paplu-bot 0.1.0"
    else:
        for command in ("backup", "migrate-data", "check-db"):
            assert command in proc.stdout
    assert not (tmp_path / "data").exists(), "the bot started: it created its database"


def test_each_subcommand_has_its_help(tmp_path: Path) -> None:
    for command, says in [
        ("backup", "online backup"),
        ("migrate-data", "one transaction"),
        ("check-db", "schema version"),
    ]:
        proc = paplu_bot(tmp_path, command, "--help")
        assert proc.returncode == 0 and says in " ".join(proc.stdout.split()), proc.stdout


def test_an_unknown_command_is_refused(tmp_path: Path) -> None:
    proc = paplu_bot(tmp_path, "bakup", "x")
    assert proc.returncode == 2
    assert "invalid choice: 'bakup'" in proc.stderr


# ---- check-db ---------------------------------------------------------------------------------


async def test_check_db_reports_pending_migrations_and_changes_nothing(tmp_path: Path) -> None:
    shipped = load_migrations("sqlite")
    db = tmp_path / "old.sqlite3"
    older = await Storage.open(db, migrate_to=shipped[-3].version)
    await older.close()
    proc = paplu_bot(tmp_path, "check-db", "--database", str(db))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"schema: v{shipped[-3].version} (this code ships v{shipped[-1].version})" in out
    pending = ", ".join(f"{m.version:04d} {m.name}" for m in shipped[-2:])
    assert f"pending: {pending}" in out
    assert "integrity: ok" in out
    with contextlib.closing(sqlite3.connect(db)) as conn:
        versions = {v for (v,) in conn.execute("SELECT version FROM schema_version")}
    assert max(versions) == shipped[-3].version, "check-db must not migrate"

    up = await Storage.open(db)
    await up.close()
    proc = paplu_bot(tmp_path, "check-db", "--database", str(db))
    assert proc.returncode == 0 and "no pending migration" in proc.stdout


async def test_check_db_reads_the_bots_own_settings(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    storage = await Storage.open(tmp_path / "data" / "paplu.sqlite3")
    await storage.close()
    (tmp_path / ".env").write_text("DATABASE_PATH=data/paplu.sqlite3\n")  # no token needed
    proc = paplu_bot(tmp_path, "check-db")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("database: data/paplu.sqlite3 (sqlite)")


def test_check_db_of_a_missing_file_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "missing.sqlite3"
    proc = paplu_bot(tmp_path, "check-db", "--database", str(db))
    assert proc.returncode == 2
    assert (
        proc.stderr.strip()
        == f"database error: {db}: does not exist (the bot creates it at its first start)"
    )
    assert not db.exists()


async def test_check_db_finds_a_database_newer_than_the_code(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    storage = await Storage.open(db)
    await storage.close()
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("INSERT INTO schema_version VALUES (999, 'future', 0)")
    proc = paplu_bot(tmp_path, "check-db", "--database", str(db))
    assert proc.returncode == 1
    assert "NEWER than this code: migration(s) [999]" in proc.stdout


async def test_check_db_finds_a_damaged_file(tmp_path: Path) -> None:
    """Pages overwritten in the middle of the file: the check says so (or cannot even read
    it), and exits non-zero either way."""
    db = tmp_path / "damaged.sqlite3"
    storage = await Storage.open(db)
    await storage.close()
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.executemany(
            "INSERT INTO player_names VALUES (?, ?, ?)", [(1, i, "x" * 200) for i in range(2000)]
        )
    data = bytearray(db.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8192] = b"\xa5" * 8192
    db.write_bytes(bytes(data))
    proc = paplu_bot(tmp_path, "check-db", "--database", str(db))
    assert proc.returncode in (1, 2), proc.stdout + proc.stderr
    said = proc.stdout + proc.stderr
    assert "DAMAGED" in said or "corrupt" in said, said


async def test_check_db_on_postgres() -> None:
    async for url in postgres_schema(postgres_url_or_skip()):
        storage = await Storage.open_url(url)
        await storage.close()
        proc = paplu_bot(Path("/"), "check-db", "--database", url)
        assert proc.returncode == 0, proc.stderr
        shipped = load_migrations("postgres")[-1].version
        assert f"schema: v{shipped} (this code ships v{shipped})" in proc.stdout
        assert "(postgres)" in proc.stdout and "no pending migration" in proc.stdout
        assert "game_tables" in proc.stdout


# ---- backup -----------------------------------------------------------------------------------


def test_backup_of_postgres_points_at_pg_dump(tmp_path: Path) -> None:
    url = "postgresql://paplu@db.example/paplu?password=s3cret"
    proc = paplu_bot(tmp_path, "backup", str(tmp_path / "b.dump"), env={"DATABASE_URL": url})
    assert proc.returncode == 2
    assert "pg_dump --format=custom" in proc.stderr and '"$DATABASE_URL"' in proc.stderr
    assert "s3cret" not in proc.stderr + proc.stdout
    readme = (PROJECT_ROOT / "README.md").read_text()
    from bot.cli import PG_DUMP

    assert PG_DUMP in readme, "the README gives the same pg_dump line"
    assert not (tmp_path / "b.dump").exists()


def test_backup_refuses_a_missing_database_and_an_existing_file(tmp_path: Path) -> None:
    proc = paplu_bot(
        tmp_path,
        "backup",
        str(tmp_path / "b.sqlite3"),
        "--database",
        str(tmp_path / "none.sqlite3"),
    )
    assert proc.returncode == 2 and "there is no database at" in proc.stderr
    assert not (tmp_path / "none.sqlite3").exists()
    (tmp_path / "b.sqlite3").write_text("an older backup")
    with contextlib.closing(sqlite3.connect(tmp_path / "db.sqlite3")) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER, name TEXT, applied_at REAL)")
    proc = paplu_bot(
        tmp_path, "backup", str(tmp_path / "b.sqlite3"), "--database", str(tmp_path / "db.sqlite3")
    )
    assert proc.returncode == 2 and "already exists (pass --force" in proc.stderr
    assert (tmp_path / "b.sqlite3").read_text() == "an older backup"
