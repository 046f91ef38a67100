"""Every end-to-end test also checks that normal play stays within Discord's rate limits.

The fake Discord enforces them (`tests/fakediscord/ratelimits.py`) and counts every 429 it
sends; a game that needed one would, on the real service, have waited for it (discord.py
retries) or, for the global limit, stalled every table of the bot at once. So any 429 in
these tests fails them, with the routes and scopes that were refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.fakediscord import FakeDiscordServer


@pytest.fixture(autouse=True)
def no_rate_limited_requests(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    servers: list[FakeDiscordServer] = []
    original = FakeDiscordServer.__init__

    def remember(self: FakeDiscordServer, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        servers.append(self)

    monkeypatch.setattr(FakeDiscordServer, "__init__", remember)
    yield
    limited = {k: v for server in servers for k, v in server.ratelimiter.limited.items()}
    assert not limited, f"normal play was rate limited (scope, route: count): {limited}"
