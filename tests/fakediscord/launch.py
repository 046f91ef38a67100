"""Run a bot module against the fake Discord server in a subprocess.

Usage: ``FAKE_DISCORD_URL=http://127.0.0.1:PORT python -m tests.fakediscord.launch <module> [args]``

It performs the only two changes discord.py needs (REST base URL and default gateway URL) and then
executes ``<module>`` exactly as ``python -m <module>`` would, so the bot's real entry point runs
unmodified.
"""

from __future__ import annotations

import os
import runpy
import sys

from tests.fakediscord.server import patch_discord


def main(argv: list[str]) -> None:
    """Patch discord.py from ``FAKE_DISCORD_URL`` and run ``argv[1]`` as ``__main__``."""
    if len(argv) < 2:
        raise SystemExit("usage: python -m tests.fakediscord.launch <module> [args...]")
    url = os.environ.get("FAKE_DISCORD_URL")
    if not url:
        raise SystemExit("FAKE_DISCORD_URL is not set")
    patch_discord(url)
    target = argv[1]
    sys.argv = [target, *argv[2:]]
    runpy.run_module(target, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv)
