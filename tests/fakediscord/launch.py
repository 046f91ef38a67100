"""Run a bot module against the fake Discord server in a subprocess.

Usage: ``FAKE_DISCORD_URL=http://127.0.0.1:PORT python -m tests.fakediscord.launch <module> [args]``

It performs the only two changes discord.py needs (REST base URL and default gateway URL) and then
executes ``<module>`` exactly as ``python -m <module>`` would, so the bot's real entry point runs
unmodified. With ``FAKE_DISCORD_CLIENT`` set, every HTTP request and the gateway handshake also
carry that name in the ``X-Fake-Client`` header (instrumentation only: it lets the fake tell
several bot processes on one token apart). With ``FAKE_DISCORD_PACE`` set, the bot's request
budget is scaled to a fake whose rate-limit windows run that many times faster.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

from tests.fakediscord.server import CLIENT_HEADER, patch_discord


def tag_requests(client: str) -> None:
    """Give every aiohttp session of this process a default ``X-Fake-Client: client`` header
    (discord.py makes one session for REST, webhooks and the gateway)."""
    import aiohttp

    original = aiohttp.ClientSession.__init__

    def __init__(self: aiohttp.ClientSession, *args: Any, headers: Any = None, **kw: Any) -> None:
        merged = {CLIENT_HEADER: client, **dict(headers or {})}
        original(self, *args, headers=merged, **kw)

    aiohttp.ClientSession.__init__ = __init__  # type: ignore[method-assign]


def pace_budget(factor: float) -> None:
    """Scale the bot's own request budget (its share of the global limit) by ``factor``,
    as ``tests.e2e.harness.scripted_pace`` does for an in-process bot: a test that runs the
    fake's rate-limit windows ``factor`` times faster gives a subprocess bot the same pace,
    so it does not shed refreshes at a pace that is only a person's sped up."""
    from bot.discord_ui import budget

    original = budget.RestBudget.__init__

    def __init__(self: budget.RestBudget, *args: Any, **kw: Any) -> None:
        original(self, *args, **kw)
        self.share *= factor

    budget.RestBudget.__init__ = __init__  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    """Patch discord.py from ``FAKE_DISCORD_URL`` and run ``argv[1]`` as ``__main__``."""
    if len(argv) < 2:
        raise SystemExit("usage: python -m tests.fakediscord.launch <module> [args...]")
    url = os.environ.get("FAKE_DISCORD_URL")
    if not url:
        raise SystemExit("FAKE_DISCORD_URL is not set")
    patch_discord(url)
    client = os.environ.get("FAKE_DISCORD_CLIENT")
    if client:
        tag_requests(client)
    pace = os.environ.get("FAKE_DISCORD_PACE")
    if pace:
        pace_budget(float(pace))
    target = argv[1]
    sys.argv = [target, *argv[2:]]
    runpy.run_module(target, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv)
