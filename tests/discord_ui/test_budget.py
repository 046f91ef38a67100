"""The bot's REST budget: what it counts, how it shares the token's global limit, how it paces
public calls and when it says it is shedding."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.discord_ui.budget import GLOBAL_LIMIT, RestBudget, exempt, kind_of, share_for

API = "/api/v10"


@pytest.mark.parametrize(
    ("method", "path", "kind"),
    [
        ("POST", "/interactions/1/tok/callback", "interaction_response"),
        ("PATCH", "/webhooks/9/tok/messages/@original", "webhook_edit"),
        ("POST", "/webhooks/9/tok", "webhook_post"),
        ("DELETE", "/webhooks/9/tok/messages/5", "webhook_other"),
        ("PATCH", "/channels/3/messages/4", "channel_edit"),
        ("POST", "/channels/3/messages", "channel_post"),
        ("DELETE", "/channels/3/messages/4", "channel_delete"),
        ("PUT", "/applications/1/commands", "other"),
    ],
)
def test_kinds(method: str, path: str, kind: str) -> None:
    assert kind_of(method, API + path) == kind
    assert exempt(kind) == path.startswith(("/interactions", "/webhooks"))


def test_each_process_takes_its_shards_part_of_the_token() -> None:
    assert share_for(None, None) == GLOBAL_LIMIT
    assert share_for(2, (0,)) == GLOBAL_LIMIT / 2
    assert share_for(8, (0, 1, 2, 3)) == GLOBAL_LIMIT / 2
    assert share_for(8, (0, 1, 2, 3)) + share_for(8, (4, 5, 6, 7)) == GLOBAL_LIMIT


def test_only_counted_calls_fill_the_window() -> None:
    budget = RestBudget(share=10)
    for _ in range(20):
        budget.record("POST", API + "/interactions/1/t/callback")
        budget.record("PATCH", API + "/webhooks/1/t/messages/@original")
    assert budget.used() == 0
    budget.record("PATCH", API + "/channels/3/messages/4")
    assert budget.used() == 1
    assert budget.counts["interaction_response"] == 20 and budget.counts["channel_edit"] == 1


async def test_slots_wait_for_the_window_and_reserve_their_call() -> None:
    budget = RestBudget(share=5)  # public calls may use 80 %: 4 per second
    loop = asyncio.get_running_loop()
    start = loop.time()
    for _ in range(4):
        await budget.slot(0.8, "PATCH", 3)
    assert loop.time() - start < 0.5 and budget.used() == 4
    # Its request being sent does not count twice...
    budget.record("PATCH", API + "/channels/3/messages/4")
    assert budget.used() == 4
    # ...but a request that was granted no slot (a retry, another call) counts on its own.
    budget.record("POST", API + "/channels/3/messages")
    assert budget.used() == 5
    await budget.slot(0.8, "PATCH", 3)  # waits until the window has room again
    assert loop.time() - start >= 0.95


async def test_room_says_whether_a_slot_would_wait_and_a_slot_given_back_frees_it() -> None:
    budget = RestBudget(share=5)  # 4 public calls a second
    for _ in range(3):
        await budget.slot(0.8, "PATCH", 3)
    assert budget.room(0.8)
    await budget.slot(0.8, "PATCH", 3)
    assert not budget.room(0.8) and budget.used() == 4
    # The edit it was for changed nothing: the room is there again at once, not in 5 s.
    budget.give_back("PATCH", 3)
    assert budget.room(0.8) and budget.used() == 3 and budget.returned == 1
    budget.give_back("PATCH", 9)  # no slot of that call: nothing changes
    assert budget.used() == 3 and budget.returned == 1
    loop = asyncio.get_running_loop()
    start = loop.time()
    await budget.slot(0.8, "PATCH", 3)
    assert loop.time() - start < 0.5 and budget.slots == 5


async def test_a_slot_never_used_stops_counting_after_its_expiry() -> None:
    now = [100.0]
    budget = RestBudget(share=5, clock=lambda: now[0])
    await budget.slot(0.8, "DELETE", 3)
    assert budget.used() == 1
    now[0] += 5.1  # its request was never seen
    assert budget.used() == 0 and budget.expired == 1


def test_busy_tables_stretch_as_the_share_runs_short_and_it_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [100.0]
    budget = RestBudget(share=20, clock=lambda: now[0])  # 16 public calls per second
    assert budget.stretch() == 1 and not budget.shedding
    caplog.set_level(logging.WARNING, logger="bot.discord_ui.budget")
    for _ in range(12):
        budget.record("PATCH", API + "/channels/3/messages/4")
    assert budget.stretch() == 2
    for _ in range(3):
        budget.record("PATCH", API + "/channels/3/messages/4")
    assert budget.stretch() == 4 and budget.shedding
    assert budget.stretch() == 4
    shedding = [r for r in caplog.records if "shedding" in r.getMessage()]
    assert len(shedding) == 1 and "requests/s" in shedding[0].getMessage()
    now[0] += 2.0  # the window is empty again: calm, but the episode ends only after a while
    assert budget.stretch() == 1 and budget.shedding
    now[0] += 11.0
    assert budget.stretch() == 1 and not budget.shedding
    assert any("no longer shedding" in r.getMessage() for r in caplog.records)


def test_a_global_429_lowers_the_pace_and_it_climbs_back(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    budget = RestBudget(share=20, clock=lambda: now[0])
    assert budget.pace() == 20
    with caplog.at_level(logging.WARNING, logger="bot.discord_ui.budget"):
        budget.limited()
        budget.limited()  # the same burst: once
    assert budget.pace() == pytest.approx(16) and budget.global_429s == 2
    assert len([r for r in caplog.records if "global 429" in r.message]) == 1
    for _ in range(int(16 * 0.8)):
        budget.record("PATCH", "/api/v10/channels/1/messages/2")
    assert not budget.room(0.8)  # 12 of the lowered 16 * 0.8, not of 20 * 0.8
    now[0] += 1.5
    budget.limited()  # a second burst: lower again
    assert budget.pace() == pytest.approx(12.8)
    for _ in range(10):
        budget.limited()
        now[0] += 1.1
    assert budget.pace() == pytest.approx(20 * 0.5)  # never below half
    now[0] += 5.0
    assert budget.pace() == pytest.approx(20 * 0.55)
    now[0] += 60.0
    assert budget.pace() == 20  # back to the full share after a calm minute
