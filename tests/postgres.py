"""The PostgreSQL test server, for every suite that runs on both backends.

``PAPLU_TEST_POSTGRES_URL`` names the server (``.ci/run`` starts a throwaway one); each
test gets its own fresh schema there. Without a server the PostgreSQL runs skip with the
reason, unless ``PAPLU_REQUIRE_POSTGRES=1`` (CI): then they fail, so a broken server can
never silently turn them off.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import asyncpg
import pytest

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
