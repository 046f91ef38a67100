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

DEFAULT_DATABASE = Path("data") / "paplu.sqlite3"
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


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, got {raw!r}") from None
    if value < 0:
        raise ConfigError(f"{name} must not be negative, got {raw!r}")
    return value


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

    guild_raw = env.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), got {guild_raw!r}")
        dev_guild_id = int(guild_raw)

    level_raw = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if level_raw not in _LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}, got {level_raw!r}")

    seed_raw = env.get("DECK_SEED", "").strip()
    if seed_raw and not seed_raw.lstrip("-").isdigit():
        raise ConfigError(f"DECK_SEED must be a whole number, got {seed_raw!r}")

    return Settings(
        token=token,
        database_path=database_path,
        dev_guild_id=dev_guild_id,
        log_level=getattr(logging, level_raw),
        ai_delay=_float(env, "AI_DELAY", 1.5),
        next_deal_delay=_float(env, "NEXT_DEAL_DELAY", 20.0),
        deck_seed=int(seed_raw) if seed_raw else None,
        lobby_timeout=_float(env, "LOBBY_TIMEOUT", 30 * 60.0),
    )
