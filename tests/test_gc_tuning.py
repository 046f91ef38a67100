"""The bot process's garbage-collector settings (`bot.gc_tuning`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import gc_tuning


@pytest.fixture
def restored_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_young_collections_are_rarer_and_start_up_is_frozen(restored_gc: None) -> None:
    gc_tuning.tune()
    assert gc.get_threshold() == gc_tuning.THRESHOLDS
    assert gc_tuning.THRESHOLDS[0] > 700  # rarer than CPython's default
    left_over = [[]]  # a cycle start-up left behind is collected, not frozen
    left_over[0].append(left_over)
    del left_over
    gc_tuning.freeze_startup()
    assert gc.get_freeze_count() > 0
    assert gc.get_count()[0] < 100  # the collection ran just now
