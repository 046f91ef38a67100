"""Every end-to-end test also checks, when it ends, that the bot kept Discord's rules.

The fake Discord records every breach it sees in ``FakeDiscordServer.violations``: a request
Discord's own API document refuses (a route or method it lacks, a body its schemas refuse:
``tests/fakediscord/openapi.py``), a documented limit the document does not encode
(``limits.py``), a late or double acknowledgement, an ephemeral leak. Whatever the test itself
asserted, any violation left in that list when the test ends fails it, with the list; a test
that provokes one on purpose (an expired token) removes what it provoked after checking it.

The fake also enforces Discord's rate limits (`tests/fakediscord/ratelimits.py`) and counts
every 429 it sends; a game that needed one would, on the real service, have waited for it
(discord.py retries) or, for the global limit, stalled every table of the bot at once. So any
429 in these tests fails them too, with the routes and scopes that were refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.fakediscord import FakeDiscordServer


@pytest.fixture(autouse=True)
def discord_rules_kept(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    servers: list[FakeDiscordServer] = []
    original = FakeDiscordServer.__init__

    def remember(self: FakeDiscordServer, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        servers.append(self)

    monkeypatch.setattr(FakeDiscordServer, "__init__", remember)
    yield
    violations = [str(v) for server in servers for v in server.violations]
    assert not violations, "Discord rule violations:\n" + "\n".join(violations)
    limited = {k: v for server in servers for k, v in server.ratelimiter.limited.items()}
    assert not limited, f"normal play was rate limited (scope, route: count): {limited}"
