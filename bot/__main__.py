"""`python -m bot`: load `.env`, validate settings, run the bot."""

from __future__ import annotations

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

    from .discord_ui.client import run

    run(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
