"""Each migration applied at start-up is one INFO line an operator can read; an up-to-date
database logs none."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.migrate import load_migrations
from tests.storage.conftest import Reopen

LINE = re.compile(r"applied migration (\d{4}) ([a-z0-9_]+) \((sqlite|postgres)\) in \d+ ms")


async def test_each_migration_applied_is_one_info_line(
    reopen: Reopen, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="bot.storage.migrate"):
        storage = await reopen()
    dialect = storage.dialect
    await storage.close()
    said = [r for r in caplog.records if r.name == "bot.storage.migrate"]
    shipped = load_migrations(dialect)
    assert [r.levelno for r in said] == [logging.INFO] * len(shipped)
    found = [LINE.fullmatch(r.getMessage()) for r in said]
    assert all(found), [r.getMessage() for r in said]
    assert [(int(m[1]), m[2], m[3]) for m in found if m] == [
        (mig.version, mig.name, dialect) for mig in shipped
    ]

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.storage.migrate"):
        again = await reopen()
    await again.close()
    assert [r.getMessage() for r in caplog.records if r.name == "bot.storage.migrate"] == []


async def test_an_upgrade_logs_only_the_migrations_it_applies(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A database an older release left (two migrations behind) logs those two, no others."""
    path = tmp_path / "old.sqlite3"
    shipped = load_migrations("sqlite")
    older = await Storage.open(path, migrate_to=shipped[-3].version)
    await older.close()
    with caplog.at_level(logging.INFO, logger="bot.storage.migrate"):
        upgraded = await Storage.open(path)
    await upgraded.close()
    applied = [LINE.fullmatch(r.getMessage()) for r in caplog.records]
    assert [int(m[1]) for m in applied if m] == [mig.version for mig in shipped[-2:]]
