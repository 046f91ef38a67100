"""`python -m bot` (or the `paplu-bot` command): load `.env`, validate settings, check the
database, run the bot.

Each check that fails prints one line naming the problem and exits with code 2, before the
bot connects to Discord; so does a token Discord rejects or a Discord that cannot be reached
(`bot.discord_ui.client.run`). Ctrl-C stops the bot cleanly with code 130.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from dotenv import load_dotenv

from . import loops
from .config import ConfigError, load_settings


def env_file() -> Path:
    """`.env` in the current folder: where the README tells the admin to put it. (Without a
    path, python-dotenv looks upward from the calling module's folder, which for an installed
    package is somewhere in site-packages, never the admin's folder.)"""
    return Path.cwd() / ".env"


def main() -> int:
    """The entry point; returns the exit code (see the module docstring)."""
    try:
        return _main()
    except KeyboardInterrupt:  # Ctrl-C during the checks before the bot runs
        print("stopped (Ctrl-C)", file=sys.stderr)
        return 130


def _main() -> int:
    load_dotenv(env_file())  # variables already set in the environment win
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2

    from .storage.startup import check_database

    problem = asyncio.run(check_database(settings.database))
    if problem is not None:
        print(f"database error: {settings.database_label}: {problem}", file=sys.stderr)
        return 2

    from .discord_ui.client import run

    # The event loop is chosen here, the one place (`EVENT_LOOP`, `bot.loops`).
    return run(settings, loop_factory=loops.factory(settings.event_loop))


if __name__ == "__main__":
    raise SystemExit(main())
