from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE, ConfigError, load_settings
from tests.conftest import PROJECT_ROOT

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"


def test_defaults() -> None:
    s = load_settings({"DISCORD_TOKEN": TOKEN})
    assert s.token == TOKEN
    assert s.database_path == DEFAULT_DATABASE
    assert s.dev_guild_id is None
    assert s.log_level == logging.INFO
    assert s.deck_seed is None


def test_all_settings() -> None:
    s = load_settings(
        {
            "DISCORD_TOKEN": f"  {TOKEN} ",
            "DATABASE_PATH": "/tmp/x.sqlite3",
            "DEV_GUILD_ID": "1234567890",
            "LOG_LEVEL": "debug",
            "AI_DELAY": "0",
            "DECK_SEED": "42",
        }
    )
    assert s.database_path == Path("/tmp/x.sqlite3")
    assert s.dev_guild_id == 1234567890
    assert s.log_level == logging.DEBUG
    assert s.ai_delay == 0
    assert s.deck_seed == 42


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "not a token"}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": TOKEN, "AI_DELAY": "soon"}, "AI_DELAY"),
        ({"DISCORD_TOKEN": TOKEN, "DECK_SEED": "x"}, "DECK_SEED"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": "/tmp"}, "DATABASE_PATH"),
    ],
)
def test_bad_settings_name_the_setting(env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_settings(env)


def test_entry_point_exits_2_with_one_line(tmp_path: Path) -> None:
    # Run from an empty folder so no .env is picked up; no token: exit 2, no traceback.
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]
