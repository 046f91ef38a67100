"""The end-to-end suite's own check (`tests/e2e/conftest.py`, `discord_rules_kept`): a test
that let the fake Discord record a violation fails, even if it asserted nothing about it.

Run here in a pytest of its own (pytester, in this process) with that very conftest: one test
sends the fake a request to a route Discord's API document lacks and asserts nothing, one
sends a valid request. Outside `tests/e2e/`, so the planted violation is not this test's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).resolve().parent / "e2e" / "conftest.py"

SCENARIOS = """
import asyncio

import aiohttp

from tests.fakediscord import FakeDiscord

TOKEN = "rules-kept-token"


async def call(method: str, path: str) -> int:
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        url = f"{fake.server.url}/api/v10{path}"
        headers = {"Authorization": f"Bot {TOKEN}"}
        async with aiohttp.ClientSession() as session, session.request(
            method, url, headers=headers
        ) as resp:
            return resp.status


def test_an_undocumented_route_asserting_nothing() -> None:
    asyncio.run(call("GET", "/no/such/route"))


def test_a_documented_request() -> None:
    assert asyncio.run(call("GET", "/users/@me")) == 200
"""


def test_a_violation_fails_the_test_that_caused_it(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_scenarios=SCENARIOS)
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:benchmark"
    )
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_an_undocumented_route_asserting_nothing*",
            "*Discord rule violations:*",
            "*undocumented_route*GET /no/such/route*",
        ]
    )
