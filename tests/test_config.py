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


def test_database_url_selects_postgres_and_hides_its_password() -> None:
    url = "postgresql://paplu:s3cret@db.example:5432/paplu"
    s = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert s.database == url
    assert s.database_label == "postgresql://paplu:***@db.example:5432/paplu"
    assert "s3cret" not in s.database_label


def test_database_url_unset_or_a_path_keeps_sqlite() -> None:
    assert load_settings({"DISCORD_TOKEN": TOKEN}).database == str(DEFAULT_DATABASE)
    s = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "/tmp/y.sqlite3"})
    assert s.database_url is None and s.database == "/tmp/y.sqlite3"
    socket = "postgresql://paplu@/paplu?host=/run/postgresql"  # a unix socket names no host
    assert load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": socket}).database == socket


def test_database_pool_size_defaults_to_ten_and_is_range_checked() -> None:
    assert load_settings({"DISCORD_TOKEN": TOKEN}).database_pool_size == 10
    s = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_POOL_SIZE": " 25 "})
    assert s.database_pool_size == 25
    for bad in ("0", "101", "-3", "ten", "2.5"):
        with pytest.raises(ConfigError, match="DATABASE_POOL_SIZE"):
            load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_POOL_SIZE": bad})


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
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://h/db"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql:///db"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://h:port/db"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "/tmp"}, "DATABASE_URL"),
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


def test_no_sharding_by_default() -> None:
    s = load_settings({"DISCORD_TOKEN": TOKEN})
    assert s.shard_count is None and s.shard_ids is None
    assert s.owns_guild(123 << 22) and s.owns_guild(0)


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "", (0, 1, 2, 3)),
        ("4", "0-3", (0, 1, 2, 3)),
        ("8", "4-7", (4, 5, 6, 7)),
        ("4", "0,2", (0, 2)),
        ("4", " 2 , 0 ", (0, 2)),
        ("8", "0-1,6", (0, 1, 6)),
        ("1", "0", (0,)),
    ],
)
def test_shard_ids(count: str, ids: str, expected: tuple[int, ...]) -> None:
    s = load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": count, "SHARD_IDS": ids})
    assert s.shard_count == int(count)
    assert s.shard_ids == expected


def test_a_guild_belongs_to_its_shard() -> None:
    s = load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": "0,2"})
    assert s.owns_guild(0 << 22) and s.owns_guild((2 << 22) + 12345)
    assert not s.owns_guild(1 << 22) and not s.owns_guild(7 << 22)  # shards 1 and 3
    assert s.owns_guild(8 << 22)  # 8 % 4 == 0


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_IDS": "0-3"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "-2"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-4"}, "names shard 4"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "runs backwards"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a-b"}, "SHARD_IDS must be"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1-2"}, "SHARD_IDS must be"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "SHARD_IDS must be"),
    ],
)
def test_bad_shard_settings_are_one_line(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError, match=says) as info:
        load_settings({"DISCORD_TOKEN": TOKEN, **env})
    assert "\n" not in str(info.value)


def test_entry_point_rejects_bad_shards_with_one_line(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(PROJECT_ROOT),
        "DISCORD_TOKEN": TOKEN,
        "SHARD_COUNT": "2",
        "SHARD_IDS": "0-2",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "SHARD_IDS" in lines[0]


# ---- ranges of the numeric settings -------------------------------------------------------

OUT_OF_RANGE = [
    ("AI_DELAY", "-1"),
    ("AI_DELAY", "31"),
    ("AI_DELAY", "nan"),
    ("NEXT_DEAL_DELAY", "1e9"),
    ("NEXT_DEAL_DELAY", "inf"),
    ("LOBBY_TIMEOUT", "0"),
    ("LOBBY_TIMEOUT", "59"),
    ("LOBBY_TIMEOUT", "86401"),
    ("SHARD_COUNT", "5000"),
    ("DEV_GUILD_ID", "9" * 30),
    ("DECK_SEED", "1" * 5000),  # int() itself refuses more than 4,300 digits
]


@pytest.mark.parametrize(("name", "raw"), OUT_OF_RANGE)
def test_numeric_settings_outside_their_range_are_refused(name: str, raw: str) -> None:
    with pytest.raises(ConfigError, match=name) as info:
        load_settings({"DISCORD_TOKEN": TOKEN, name: raw})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "raw", "value"),
    [
        ("AI_DELAY", "0", 0.0),
        ("AI_DELAY", "30", 30.0),
        ("NEXT_DEAL_DELAY", "600", 600.0),
        ("LOBBY_TIMEOUT", "60", 60.0),
        ("LOBBY_TIMEOUT", "86400", 86400.0),
    ],
)
def test_range_ends_are_accepted(name: str, raw: str, value: float) -> None:
    s = load_settings({"DISCORD_TOKEN": TOKEN, name: raw})
    assert getattr(s, name.lower()) == value


@pytest.mark.parametrize(
    ("name", "raw"), [("AI_DELAY", "99"), ("NEXT_DEAL_DELAY", "1e9"), ("LOBBY_TIMEOUT", "0")]
)
def test_entry_point_refuses_a_setting_out_of_range(tmp_path: Path, name: str, raw: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT), "DISCORD_TOKEN": TOKEN}
    env[name] = raw
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and name in lines[0] and "between" in lines[0]


# ---- .env from the current folder ---------------------------------------------------------


def test_env_file_is_the_current_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.__main__ import env_file

    monkeypatch.chdir(tmp_path)
    assert env_file() == tmp_path / ".env"


def test_entry_point_reads_env_from_the_current_folder(tmp_path: Path) -> None:
    """The package is imported from outside the current folder (as after `pip install .`,
    where it sits in site-packages): the `.env` that counts is the one where the admin runs
    the bot. Its deliberately bad setting shows it was read."""
    assert PROJECT_ROOT not in tmp_path.parents
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nLOBBY_TIMEOUT=5\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2, proc.stderr
    assert "LOBBY_TIMEOUT" in proc.stderr and "DISCORD_TOKEN" not in proc.stderr


def test_event_loop_is_uvloop_where_installed_and_asyncio_on_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot import loops

    base = {"DISCORD_TOKEN": TOKEN}
    monkeypatch.setattr(loops, "uvloop_installed", lambda: True)
    assert load_settings(base).event_loop == "uvloop"
    assert load_settings({**base, "EVENT_LOOP": "uvloop"}).event_loop == "uvloop"
    assert load_settings({**base, "EVENT_LOOP": " Asyncio "}).event_loop == "asyncio"
    monkeypatch.setattr(loops, "uvloop_installed", lambda: False)
    assert load_settings(base).event_loop == "asyncio"  # auto, without uvloop
    with pytest.raises(ConfigError, match="EVENT_LOOP=uvloop, but uvloop is not installed"):
        load_settings({**base, "EVENT_LOOP": "uvloop"})
    with pytest.raises(ConfigError, match="EVENT_LOOP must be one of auto, uvloop, asyncio"):
        load_settings({**base, "EVENT_LOOP": "trio"})


def test_the_chosen_loop_is_what_the_runner_builds() -> None:
    import asyncio

    from bot import loops

    assert loops.factory("asyncio") is None  # asyncio.Runner's own default
    if loops.uvloop_installed():
        factory = loops.factory("uvloop")
        assert factory is not None
        with asyncio.Runner(loop_factory=factory) as runner:
            assert type(runner.get_loop()).__module__.startswith("uvloop")
