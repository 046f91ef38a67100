"""The ``st`` fixture: a fresh in-memory Storage per test, closed afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage


@pytest.fixture
async def st() -> AsyncIterator[Storage]:
    s = await Storage.open(":memory:")
    try:
        yield s
    finally:
        await s.close()
