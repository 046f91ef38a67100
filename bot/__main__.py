"""`python -m bot`: load `.env`, validate settings, check the database, run the bot.

Each check that fails prints one line naming the problem and exits with code 2, before the
bot connects to Discord.
"""

from __future__ import annotations

import asyncio
import sys

from dotenv import load_dotenv

from .config import ConfigError, load_settings


def main() -> int:
    load_dotenv()
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

    run(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
