"""Shared test helpers: the project root and the rule vectors.

`tests/data/rule_vectors.jsonl` is a copy of the test vectors of the project's rules
specification (written up for players in `docs/rules.md`): one JSON object a line, a hand with
its indicator and profile (`variant`) and the ruling the rules give it. It lives in the
repository so that a plain clone runs every vector test; nothing here looks outside the project.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
VECTORS = PROJECT_ROOT / "tests" / "data" / "rule_vectors.jsonl"


@pytest.fixture(scope="session")
def vectors_path() -> Path:
    """The rule vectors. Missing means a broken checkout: fail, never skip."""
    assert VECTORS.is_file(), f"rule vectors missing from the repository: {VECTORS}"
    return VECTORS


#: The suite's longest tests, longest first (`tests/long_tests.txt`). They are run first:
#: in collection order a long test collected late ran on one worker while the others, done,
#: sat idle (the last 4 of 15 minutes at a load near 1). Only the order changes; every test
#: still runs.
LONG_TESTS_FIRST = tuple(
    line.split()[1]
    for line in (PROJECT_ROOT / "tests" / "long_tests.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)


def long_test_rank(nodeid: str) -> int:
    """Where a test goes in the run: the place in `LONG_TESTS_FIRST` of its own id (with its
    parameters) or else of its function, else after all of them."""
    for name in (nodeid, nodeid.split("[", 1)[0]):
        if name in LONG_TESTS_FIRST:
            return LONG_TESTS_FIRST.index(name)
    return len(LONG_TESTS_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A stable sort: every other test keeps its collection order. Each xdist worker collects
    # and sorts alike, as xdist requires. The order only pays with `--maxschedchunk 1`
    # (pyproject.toml): xdist otherwise starts each worker on a quarter of its share in one
    # block, and the first worker got every long test.
    items.sort(key=lambda item: long_test_rank(item.nodeid))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: PAPLU_TEST_WORKERS if set, else one worker a core, at most four.

    More workers than cores would use the quarter of the run the CPUs sit idle (the e2e tests
    wait on the bot's processes): on the 2-core machine three workers took 747 s and four
    720 s against 843 s for two, but each of those runs failed two tests. At three, two whose
    harness read a move's outcome before the bot had shown it (fixed since); at four, two
    PostgreSQL tests that waited 90 s for a public edit that never came (not reproduced in a
    rerun of the long tests at four workers). Two is what the busy-machine run (four busy
    loops beside the suite, load 6-7) passed with."""
    chosen = os.environ.get("PAPLU_TEST_WORKERS", "")
    if chosen.isdigit() and int(chosen) > 0:
        return int(chosen)
    return max(1, min(4, os.cpu_count() or 1))


from tests.postgres import cluster  # noqa: E402, F401  (a private PostgreSQL, stopped at will)
