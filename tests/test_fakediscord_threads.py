"""The fake Discord's threads, against Discord's documented rules (raw REST calls, as any
client would make them): a thread started from a message has the message's id and its
channel as parent; starting one needs Create Public Threads (403, 50013 without); one thread
per message (160004); an archived thread refuses edits (50083) and a message unarchives it,
unless it is locked; it archives by itself after `auto_archive_duration` minutes without
activity; thread creation has its own rate-limit bucket."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import (
    PERM_CREATE_PUBLIC_THREADS,
    PERM_MEMBER_DEFAULT,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_THREADS,
    FakeDiscord,
)

TOKEN = "thread-token"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(
        users=["alice"],
        channels=["general"],
        token=TOKEN,
        bot_permissions=PERM_MEMBER_DEFAULT | PERM_THREADS,
    ) as f:
        yield f


async def call(
    fake: FakeDiscord, method: str, path: str, body: dict[str, Any] | None = None
) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method,
            f"{fake.server.api_base}{path}",
            json=body,
            headers={"Authorization": f"Bot {TOKEN}"},
        ) as resp,
    ):
        data = await resp.json() if resp.status != 204 else None
        return resp.status, data


async def post(fake: FakeDiscord, channel: int, content: str) -> tuple[int, Any]:
    return await call(fake, "POST", f"/channels/{channel}/messages", {"content": content})


async def test_start_thread_from_message_and_post_in_it(fake: FakeDiscord) -> None:
    general = fake.channel("general").id
    _, lobby = await post(fake, general, "lobby")
    status, thread = await call(
        fake,
        "POST",
        f"/channels/{general}/messages/{lobby['id']}/threads",
        {"name": "table", "auto_archive_duration": 60},
    )
    assert status == 200
    assert thread["id"] == lobby["id"] and thread["type"] == 11
    assert thread["parent_id"] == str(general)
    assert thread["thread_metadata"]["archived"] is False
    assert thread["thread_metadata"]["auto_archive_duration"] == 60
    tid = int(thread["id"])
    assert fake.thread_of(int(lobby["id"])) is fake.channel(tid)
    status, msg = await post(fake, tid, "in the thread")
    assert status == 200 and msg["channel_id"] == str(tid)
    assert [m.content for m in fake.public_messages(tid)] == ["in the thread"]
    assert [m.content for m in fake.public_messages("general")] == ["lobby"]
    # One thread per message.
    again = await call(
        fake, "POST", f"/channels/{general}/messages/{lobby['id']}/threads", {"name": "x"}
    )
    assert again[0] == 400 and again[1]["code"] == 160004
    # A bad archive duration is a payload violation (Discord: 60, 1440, 4320, 10080).
    _, other = await post(fake, general, "another")
    bad = await call(
        fake,
        "POST",
        f"/channels/{general}/messages/{other['id']}/threads",
        {"name": "t", "auto_archive_duration": 30},
    )
    assert bad[0] == 400 and [v.kind for v in fake.violations] == ["schema_violation"]
    assert "/auto_archive_duration: 30 is not one of" in str(fake.violations[0])


async def test_missing_permissions_are_403_50013(fake: FakeDiscord) -> None:
    general = fake.channel("general").id
    _, lobby = await post(fake, general, "lobby")
    no_threads = PERM_MEMBER_DEFAULT & ~PERM_SEND_MESSAGES_IN_THREADS
    fake.server.bot_permissions = fake.server.everyone_permissions = no_threads
    status, body = await call(
        fake, "POST", f"/channels/{general}/messages/{lobby['id']}/threads", {"name": "t"}
    )
    assert (status, body["code"]) == (403, 50013)
    fake.server.bot_permissions = no_threads | PERM_CREATE_PUBLIC_THREADS  # create, not post
    status, thread = await call(
        fake, "POST", f"/channels/{general}/messages/{lobby['id']}/threads", {"name": "t"}
    )
    assert status == 200
    status, body = await post(fake, int(thread["id"]), "hello")
    assert (status, body["code"]) == (403, 50013)


async def test_archived_threads(fake: FakeDiscord) -> None:
    general = fake.channel("general").id
    _, lobby = await post(fake, general, "lobby")
    _, thread = await call(
        fake,
        "POST",
        f"/channels/{general}/messages/{lobby['id']}/threads",
        {"name": "t", "auto_archive_duration": 60},
    )
    tid = int(thread["id"])
    _, msg = await post(fake, tid, "table")
    _, extra = await post(fake, tid, "old ping")
    chan = fake.channel(tid)
    # Inactivity archives it (an hour on the server's clock).
    fake.server.advance_time(61 * 60)
    edit = f"/channels/{tid}/messages/{msg['id']}"
    status, body = await call(fake, "PATCH", edit, {"content": "edited"})
    assert (status, body["code"]) == (400, 50083) and chan.archived
    # Deleting is allowed in an archived thread; a message unarchives it.
    assert (await call(fake, "DELETE", f"/channels/{tid}/messages/{extra['id']}"))[0] == 204
    assert chan.archived
    assert (await post(fake, tid, "ping"))[0] == 200 and not chan.archived
    assert (await call(fake, "PATCH", edit, {"content": "edited"}))[0] == 200
    # Archived by a moderator, then unarchived by the bot (it created the thread).
    await fake.server.archive_thread(tid)
    status, body = await call(fake, "PATCH", f"/channels/{tid}", {"archived": False})
    assert status == 200 and body["thread_metadata"]["archived"] is False
    # Locked: no message reopens it, and the bot (no Manage Threads) may not unarchive it.
    await fake.server.archive_thread(tid, locked=True)
    status, body = await post(fake, tid, "ping")
    assert (status, body["code"]) == (400, 50083) and chan.archived
    status, body = await call(fake, "PATCH", f"/channels/{tid}", {"archived": False})
    assert (status, body["code"]) == (403, 50013)
    unlock = {"archived": False, "locked": False}
    assert (await call(fake, "PATCH", f"/channels/{tid}", unlock))[0] == 403
    status, body = await call(fake, "GET", f"/channels/{tid}")
    assert status == 200 and body["thread_metadata"]["locked"] is True


async def test_thread_creation_has_its_own_bucket(fake: FakeDiscord) -> None:
    general = fake.channel("general").id
    limit = fake.server.rate_limits.routes[
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads")
    ]
    assert limit.bucket == "thread-create"
    lobbies = []
    for i in range(limit.limit + 1):
        # Under the message bucket (5 per 5 s): pace the posts, not the threads.
        fake.server.ratelimiter._windows.clear()
        lobbies.append((await post(fake, general, f"lobby {i}"))[1]["id"])
    statuses = []
    for mid in lobbies:
        status, _ = await call(
            fake, "POST", f"/channels/{general}/messages/{mid}/threads", {"name": "t"}
        )
        statuses.append(status)
    assert statuses == [200] * limit.limit + [429]
    assert fake.server.ratelimiter.limited == {
        ("user", "POST /channels/{channel_id}/messages/{message_id}/threads"): 1
    }
