"""The REST-floor benchmark, small: its bot answers every mode through the fake without a
broken Discord rule, and the floor per action is the request mix at the measured costs."""

from __future__ import annotations

import pytest

from benchmarks.bench_rest_floor import MODES, floor_per_action, measure


async def test_every_mode_is_clicked_and_costs_the_bot_something() -> None:
    figures = await measure(clicks=6, rounds=2)  # measure() asserts no violations itself
    assert set(figures) == set(MODES)
    assert all(len(values) == 2 for values in figures.values())
    assert all(value >= 0 for values in figures.values() for value in values)
    assert sum(sum(values) for values in figures.values()) > 0


def test_the_floor_charges_each_request_its_own_cost() -> None:
    cost = {"ack": 1.0, "hand": 3.0, "table": 2.0, "ping": 1.5, "answer": 2.5, "lean": 1.8}
    mix = {
        "uploads_per_action": 1.0,
        "rest_per_action_by_kind": {
            "interaction_response": 0.5,
            "webhook_edit": 2.0,
            "channel_edit": 0.5,
            "channel_post": 0.2,
            "webhook_post": 0.2,
        },
    }
    parts = floor_per_action(cost, mix)
    assert parts["click answers"] == pytest.approx(0.5)
    assert parts["edits with a picture"] == pytest.approx(2.0)  # 1 upload at 3 - 1
    assert parts["edits without"] == pytest.approx(1.5)  # 1.5 more edits at 2 - 1
    assert parts["posts and deletions"] == pytest.approx(0.2)  # 0.4 posts at 1.5 - 1
    assert parts["total"] == pytest.approx(4.2)
