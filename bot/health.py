"""`python -m bot.health`: is the bot alive? The Docker image's HEALTHCHECK.

While it is connected to Discord the bot writes a heartbeat file beside its database every
`INTERVAL` seconds (`bot.discord_ui.client`), from its event loop. A fresh heartbeat therefore
says three true things at once: the process runs, its event loop is not stuck, and it is
logged in to Discord. This check only reads the file's time (no Discord, no database, no
import of discord.py), so it is cheap enough to run every 30 seconds. It exits 0 when the
heartbeat is fresh, otherwise 1 with one line saying why.

The file is `<folder of DATABASE_PATH>/.heartbeat` (`data/.heartbeat` by default, also with
PostgreSQL, where DATABASE_PATH keeps its default folder); `.env` in the current folder is
read as the bot reads it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from dotenv import load_dotenv

from .config import DEFAULT_DATABASE

INTERVAL = 30.0  # seconds between heartbeats
STALE_AFTER = 3 * INTERVAL  # two missed beats are a hiccup; three, a stuck or gone bot
NAME = ".heartbeat"


def heartbeat_path(database_path: Path) -> Path:
    return database_path.parent / NAME


def beat(path: Path) -> None:
    """Write the heartbeat (the time, for people; the check reads the file's mtime), atomically
    so a check never reads half a file. The temporary name carries the process id: shard
    processes sharing one data folder (one machine, no containers) each beat, and one
    must not move away the file another is still writing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(f"{time.time():.0f}\n")
    os.replace(tmp, path)


def clear(path: Path) -> None:
    """Remove the heartbeat: a stopped bot, or one starting, is not healthy yet."""
    path.unlink(missing_ok=True)


def problem(path: Path, now: float | None = None, stale_after: float = STALE_AFTER) -> str | None:
    """None when the heartbeat at `path` is fresh, else why not (one line)."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return f"no heartbeat at {path}: the bot is not connected (or not running)"
    if age > stale_after:
        return f"heartbeat at {path} is {age:.0f} s old (more than {stale_after:.0f} s)"
    return None


def main() -> int:
    load_dotenv(Path.cwd() / ".env")
    raw = os.environ.get("DATABASE_PATH", "").strip()
    url = os.environ.get("DATABASE_URL", "").strip()
    if url and "://" not in url:  # a plain path in DATABASE_URL is the SQLite file (config)
        raw = url
    path = heartbeat_path(Path(raw) if raw else DEFAULT_DATABASE)
    why = problem(path)
    if why is not None:
        print(f"unhealthy: {why}", file=sys.stderr)
        return 1
    print("healthy")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
