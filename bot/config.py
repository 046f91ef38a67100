"""Settings from the environment (and `.env`), validated before the bot connects.

A mistake here should cost an admin one glance: each problem is reported as one line naming
the setting, and the process exits with code 2 without a traceback.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot import loops

DEFAULT_DATABASE = Path("data") / "paplu.sqlite3"
#: PostgreSQL connections per process by default, and the most a setting may ask for (the
#: server's max_connections, 100 by default, is shared by every process of a cluster).
DEFAULT_POOL_SIZE = 10
MAX_POOL_SIZE = 100
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# A bot token is three base64url segments separated by dots.
_TOKEN = re.compile(r"^[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}$")


class ConfigError(Exception):
    """A missing or malformed setting; the message names it."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: int
    # Seconds an AI seat "thinks" before acting; 0 in tests.
    ai_delay: float = 1.5
    # Pause between deals of a multi-deal match, unless everyone clicks Next.
    next_deal_delay: float = 20.0
    # Fixed shuffle seed, for reproducible test games only; None = system randomness.
    deck_seed: int | None = None
    # Seconds an untouched lobby stays open before it closes by itself.
    lobby_timeout: float = 30 * 60.0
    # Sharding: None = one process on one gateway connection (no sharding), as before.
    # Otherwise the total number of shards and the ones this process runs.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # A postgresql:// URL selects PostgreSQL; None keeps SQLite at database_path.
    database_url: str | None = None
    # PostgreSQL only: connections in the storage's pool (tables write side by side).
    database_pool_size: int = DEFAULT_POOL_SIZE
    # The event loop the bot runs on, "uvloop" or "asyncio" (`bot.loops`; `EVENT_LOOP`).
    event_loop: str = "asyncio"

    @property
    def database(self) -> str:
        """What storage opens (``Storage.open_url``): the PostgreSQL URL, else the file."""
        return self.database_url or str(self.database_path)

    @property
    def database_label(self) -> str:
        """The database for messages and logs: a URL without its password."""
        if self.database_url is None:
            return str(self.database_path)
        parts = urlsplit(self.database_url)
        if parts.password is None:
            return self.database_url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))

    def owns_guild(self, guild_id: int) -> bool:
        """Is this guild on one of this process's shards? Discord's own rule
        (`(guild_id >> 22) % shard_count`), so a table follows its guild's gateway."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers a guild's events on."""
    return (guild_id >> 22) % shard_count


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """`SHARD_COUNT` and `SHARD_IDS` (a range `0-3` or a list `0,2`). Both unset: no sharding.
    `SHARD_COUNT` alone runs every shard in this one process."""
    count_raw = env.get("SHARD_COUNT", "").strip()
    ids_raw = env.get("SHARD_IDS", "").strip()
    if not count_raw:
        if ids_raw:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
        return None, None
    if not count_raw.isdigit() or not 1 <= int(count_raw) <= MAX_SHARD_COUNT:
        raise ConfigError(
            f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARD_COUNT}, got {count_raw!r}"
        )
    count = int(count_raw)
    if not ids_raw:
        return count, tuple(range(count))
    ids: set[int] = set()
    for part in ids_raw.split(","):
        part = part.strip()
        bounds = part.split("-")
        if len(bounds) > 2 or not all(b.strip().isdigit() for b in bounds):
            raise ConfigError(
                f"SHARD_IDS must be a range such as 0-3 or a list such as 0,2, got {ids_raw!r}"
            )
        low, high = int(bounds[0]), int(bounds[-1])
        if low > high:
            raise ConfigError(f"SHARD_IDS range {part!r} runs backwards")
        ids.update(range(low, high + 1))
    outside = sorted(i for i in ids if i >= count)
    if outside:
        raise ConfigError(
            f"SHARD_IDS names shard {outside[0]}, but SHARD_COUNT={count} has shards 0-{count - 1}"
        )
    return count, tuple(sorted(ids))


def _pool_size(env: Mapping[str, str]) -> int:
    """`DATABASE_POOL_SIZE`: PostgreSQL connections of this process (1 to MAX_POOL_SIZE)."""
    raw = env.get("DATABASE_POOL_SIZE", "").strip()
    if not raw:
        return DEFAULT_POOL_SIZE
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_POOL_SIZE:
        raise ConfigError(
            f"DATABASE_POOL_SIZE must be a whole number from 1 to {MAX_POOL_SIZE}, got {raw!r}"
        )
    return int(raw)


def _event_loop(env: Mapping[str, str]) -> str:
    """`EVENT_LOOP`: `auto` (uvloop where it is installed), `uvloop` or `asyncio`."""
    raw = env.get("EVENT_LOOP", "").strip().lower() or "auto"
    if raw not in loops.CHOICES:
        raise ConfigError(f"EVENT_LOOP must be one of {', '.join(loops.CHOICES)}, got {raw!r}")
    if raw == "uvloop" and not loops.uvloop_installed():
        raise ConfigError(
            "EVENT_LOOP=uvloop, but uvloop is not installed: pip install 'paplu-bot[speedups]'"
        )
    return loops.resolve(raw)


#: The accepted range of every numeric setting, in seconds (README, settings table). Outside
#: it a value is almost surely a typo (`LOBBY_TIMEOUT=0` closes every lobby at once,
#: `NEXT_DEAL_DELAY=1e9` never starts the next deal), so it is refused, not clamped.
RANGES: dict[str, tuple[float, float]] = {
    "AI_DELAY": (0.0, 30.0),
    "NEXT_DEAL_DELAY": (0.0, 600.0),
    "LOBBY_TIMEOUT": (60.0, 86400.0),
}
#: Discord's own bound on shards per bot is far below this; it catches a stray digit.
MAX_SHARD_COUNT = 4096


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    low, high = RANGES[name]
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, got {raw!r}") from None
    if not low <= value <= high:  # also refuses nan and inf
        raise ConfigError(f"{name} must be between {low:g} and {high:g} seconds, got {raw!r}")
    return value


_POSTGRES_SCHEMES = ("postgresql", "postgres")


def _database_url(env: Mapping[str, str], database_path: Path) -> tuple[str | None, Path]:
    """`DATABASE_URL`: a `postgresql://` URL selects PostgreSQL; unset keeps SQLite; a plain
    file path (no scheme) is the SQLite file, as `DATABASE_PATH` would be."""
    raw = env.get("DATABASE_URL", "").strip()
    if not raw:
        return None, database_path
    scheme, sep, _ = raw.partition("://")
    if not sep:
        path = Path(raw)
        if path.exists() and path.is_dir():
            raise ConfigError(f"DATABASE_URL points to a directory: {path}")
        return None, path
    if scheme.lower() not in _POSTGRES_SCHEMES:
        raise ConfigError(
            f"DATABASE_URL must be a postgresql:// URL or a SQLite file path, got a {scheme}:// URL"
        )
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL is not a valid URL: {exc}") from None
    if not parts.hostname and "host=" not in parts.query:
        raise ConfigError("DATABASE_URL names no server: postgresql://user:password@host/dbname")
    return raw, database_path


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read and validate settings; raises ConfigError naming the first bad one."""
    env = os.environ if env is None else env
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is missing: put your bot token in .env (see .env.example)")
    if not _TOKEN.match(token):
        raise ConfigError(
            "DISCORD_TOKEN does not look like a bot token (three dot-separated parts)"
        )

    db_raw = env.get("DATABASE_PATH", "").strip()
    database_path = Path(db_raw) if db_raw else DEFAULT_DATABASE
    if database_path.exists() and database_path.is_dir():
        raise ConfigError(f"DATABASE_PATH points to a directory: {database_path}")

    database_url, database_path = _database_url(env, database_path)

    guild_raw = env.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if guild_raw:
        # A Discord id (snowflake) is a positive 64-bit number: at most 20 digits.
        if not guild_raw.isdigit() or len(guild_raw) > 20 or not 0 < int(guild_raw) < 2**63:
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), got {guild_raw!r}")
        dev_guild_id = int(guild_raw)

    level_raw = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if level_raw not in _LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}, got {level_raw!r}")

    seed_raw = env.get("DECK_SEED", "").strip()
    digits = seed_raw.removeprefix("-")
    if seed_raw and (not digits.isdigit() or len(digits) > 19 or abs(int(seed_raw)) >= 2**63):
        raise ConfigError(f"DECK_SEED must be a whole number (64-bit), got {seed_raw!r}")

    shard_count, shard_ids = _shards(env)

    return Settings(
        token=token,
        database_path=database_path,
        dev_guild_id=dev_guild_id,
        log_level=getattr(logging, level_raw),
        ai_delay=_float(env, "AI_DELAY", 1.5),
        next_deal_delay=_float(env, "NEXT_DEAL_DELAY", 20.0),
        deck_seed=int(seed_raw) if seed_raw else None,
        lobby_timeout=_float(env, "LOBBY_TIMEOUT", 30 * 60.0),
        shard_count=shard_count,
        shard_ids=shard_ids,
        database_url=database_url,
        database_pool_size=_pool_size(env),
        event_loop=_event_loop(env),
    )
