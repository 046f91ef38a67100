"""The ``st`` fixture: a fresh Storage per test, on every backend.

One parametrised fixture runs the whole storage suite twice: on a private in-memory
SQLite database, and on PostgreSQL in a throwaway schema of the server named by
``PAPLU_TEST_POSTGRES_URL`` (``.ci/run`` starts one). Without that variable the
PostgreSQL runs skip with the reason; with ``PAPLU_REQUIRE_POSTGRES=1`` (CI) they fail
instead, so CI can never silently lose them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.postgres import postgres_schema, postgres_url_or_skip


async def _postgres_storage(url: str) -> AsyncIterator[Storage]:
    async for schema_url in postgres_schema(url):
        s = await Storage.open_url(schema_url)
        try:
            yield s
        finally:
            await s.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def st(request: pytest.FixtureRequest) -> AsyncIterator[Storage]:
    if request.param == "sqlite":
        s = await Storage.open(":memory:")
        try:
            yield s
        finally:
            await s.close()
        return
    async for s in _postgres_storage(postgres_url_or_skip()):
        yield s


Reopen = Callable[[], Awaitable[Storage]]


@pytest.fixture(params=["sqlite", "postgres"])
async def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Reopen]:
    """Opens a new Storage on the same database each call (a restart); the caller
    closes each one. SQLite: a file; PostgreSQL: one fresh schema."""
    if request.param == "sqlite":
        path = tmp_path / "restart.sqlite3"

        async def open_sqlite() -> Storage:
            return await Storage.open_url(path)

        yield open_sqlite
        return
    async for schema_url in postgres_schema(postgres_url_or_skip()):

        async def open_postgres(url: str = schema_url) -> Storage:
            return await Storage.open_url(url)

        yield open_postgres
