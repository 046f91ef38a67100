"""The fake Discord's rate limits: what a flood gets back, and what discord.py does with it.

A raw client (aiohttp, no rate limiter of its own) shows the answers exactly: per-route
buckets keyed by channel with their headers, the global limit per token with its scope, the
interaction endpoints outside it. Then the real discord.py client against the same fake: it
reads the headers, waits on 429s and retries, and every request ends up done.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, RateLimiter, RateLimits, RouteLimit
from tests.fakediscord.driver import DEADLINE

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GhIjKl.ratelimitsratelimitsratelimit0"
CREATE = ("POST", "/channels/{channel_id}/messages")
AUTH = {"Authorization": f"Bot {TOKEN}"}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=["alice"], channels=["one", "two"], token=TOKEN) as server:
        yield server


def channel_ids(fake: FakeDiscord) -> list[int]:
    return sorted(fake.server.channels)


async def post(session: aiohttp.ClientSession, fake: FakeDiscord, channel: int, text: str) -> Any:
    url = f"{fake.server.api_base}/channels/{channel}/messages"
    async with session.post(url, json={"content": text}, headers=AUTH) as resp:
        return resp.status, dict(resp.headers), await resp.json(content_type=None)


async def test_a_channel_flood_gets_route_429s_with_the_documented_headers(
    fake: FakeDiscord,
) -> None:
    one, two = channel_ids(fake)
    async with aiohttp.ClientSession() as session:
        answers = [await post(session, fake, one, f"m{i}") for i in range(6)]
        other = await post(session, fake, two, "elsewhere")
    statuses = [status for status, _h, _b in answers]
    assert statuses == [200] * 5 + [429]
    remaining = [int(h["X-RateLimit-Remaining"]) for _s, h, _b in answers[:5]]
    assert remaining == [4, 3, 2, 1, 0]
    first = answers[0][1]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Bucket"] == "message-create"
    assert 4.0 < float(first["X-RateLimit-Reset-After"]) <= 5.0
    assert "X-RateLimit-Scope" not in first  # only on 429s
    _status, headers, body = answers[5]
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert headers["Via"] and int(headers["Retry-After"]) >= 1
    assert body["global"] is False and 0 < body["retry_after"] <= 5.0
    # Another channel is another bucket (channel_id is a top-level resource).
    assert other[0] == 200 and other[1]["X-RateLimit-Remaining"] == "4"
    assert fake.server.ratelimiter.limited == {("user", "POST " + CREATE[1]): 1}
    assert len([m for m in fake.server.messages.values() if not m.deleted]) == 6


async def test_the_global_limit_is_per_token_and_answers_with_its_scope(
    fake: FakeDiscord,
) -> None:
    fake.server.rate_limits.global_limit = 4
    one, _two = channel_ids(fake)
    url = f"{fake.server.api_base}/channels/{one}"
    async with aiohttp.ClientSession() as session:
        statuses, last = [], None
        for _ in range(5):
            async with session.get(url, headers=AUTH) as resp:
                statuses.append(resp.status)
                last = (dict(resp.headers), await resp.json(content_type=None))
    assert statuses == [200, 200, 200, 200, 429]
    assert last is not None
    headers, body = last
    assert headers["X-RateLimit-Scope"] == "global" and headers["X-RateLimit-Global"] == "true"
    assert body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert fake.server.ratelimiter.count("global") == 1
    assert fake.server.ratelimiter.busiest_second() == 4


def test_interaction_endpoints_are_outside_the_global_limit() -> None:
    limiter = RateLimiter(RateLimits(global_limit=2))
    callback = "/interactions/{interaction_id}/{token}/callback"
    webhook_edit = "/webhooks/{app_id}/{token}/messages/{message_id}"
    for i in range(10):
        params = {"interaction_id": str(i), "token": f"t{i}"}
        assert limiter.admit("POST", callback, params, "bot", float(i) / 100)[0] is None
        params = {"app_id": "1", "token": f"t{i}", "message_id": "@original"}
        assert limiter.admit("PATCH", webhook_edit, params, "bot", float(i) / 100)[0] is None
    assert limiter.busiest_second() == 0
    # ...while channel routes count, and a third one in the same second is refused.
    get = "/channels/{channel_id}"
    assert limiter.admit("GET", get, {"channel_id": "5"}, "bot", 1.0)[0] is None
    assert limiter.admit("GET", get, {"channel_id": "6"}, "bot", 1.1)[0] is None
    refused, _headers = limiter.admit("GET", get, {"channel_id": "7"}, "bot", 1.2)
    assert refused is not None and refused.status == 429
    # Another token has its own budget.
    assert limiter.admit("GET", get, {"channel_id": "7"}, "other bot", 1.2)[0] is None
    # One interaction webhook's own bucket (per token) still applies: 5 per 2 s.
    params = {"app_id": "1", "token": "busy", "message_id": "@original"}
    answers = [limiter.admit("PATCH", webhook_edit, params, "bot", 3.0)[0] for _ in range(6)]
    assert [a is None for a in answers] == [True] * 5 + [False]
    assert limiter.limited[("user", "PATCH " + webhook_edit)] == 1


async def test_discord_py_waits_and_retries_until_every_request_is_done(
    fake: FakeDiscord,
) -> None:
    limits = fake.server.rate_limits
    limits.global_limit = 6
    limits.routes[CREATE] = RouteLimit(3, 0.5, "message-create")
    one, two = channel_ids(fake)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(TOKEN)
    try:
        sends = [
            client.get_partial_messageable(channel).send(f"flood {i}")
            for i in range(12)
            for channel in (one, two)
        ]
        sent = await asyncio.wait_for(asyncio.gather(*sends), timeout=DEADLINE)
    finally:
        await client.close()
    assert len(sent) == 24
    stored = {m.content for m in fake.server.messages.values() if not m.deleted}
    assert stored == {f"flood {i}" for i in range(12)}
    limiter = fake.server.ratelimiter
    # discord.py paces itself by the bucket headers but not by the global limit: it gets
    # global 429s, waits `retry_after` and retries.
    assert limiter.count("global") > 0
    assert limiter.busiest_second() <= 6
    created = [c for c in fake.server.calls if c.method == "POST" and c.status == 200]
    assert len(created) == 24
