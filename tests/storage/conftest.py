"""The ``st`` fixture: a fresh Storage per test, on every backend.

One parametrised fixture runs the whole storage suite twice: on a private in-memory
SQLite database, and on PostgreSQL in a throwaway schema of the server named by
``PAPLU_TEST_POSTGRES_URL`` (``.ci/run`` starts one). Without that variable the
PostgreSQL runs skip with the reason; with ``PAPLU_REQUIRE_POSTGRES=1`` (CI) they fail
instead, so CI can never silently lose them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from bot.storage import Storage

POSTGRES_URL_VAR = "PAPLU_TEST_POSTGRES_URL"
REQUIRE_VAR = "PAPLU_REQUIRE_POSTGRES"


def postgres_url_or_skip() -> str:
    """The test server's URL; skip (or fail, when PostgreSQL is required) without one."""
    url = os.environ.get(POSTGRES_URL_VAR, "").strip()
    if url:
        return url
    reason = f"PostgreSQL tests need a server: set {POSTGRES_URL_VAR} (.ci/run starts one)"
    if os.environ.get(REQUIRE_VAR) == "1":
        pytest.fail(f"{REQUIRE_VAR}=1 but {reason}")
    pytest.skip(reason)


def _with_search_path(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}search_path={schema}"


async def postgres_schema(url: str) -> AsyncIterator[str]:
    """A URL on a fresh schema of the test server (dropped afterwards): every test
    starts from an empty database without the cost of creating one."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield _with_search_path(url, schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


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
