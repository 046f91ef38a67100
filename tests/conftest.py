"""Shared test helpers: the project root and the rule vectors.

`tests/data/rule_vectors.jsonl` is a copy of the test vectors of the project's rules
specification (written up for players in `docs/rules.md`): one JSON object a line, a hand with
its indicator and profile (`variant`) and the ruling the rules give it. It lives in the
repository so that a plain clone runs every vector test; nothing here looks outside the project.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
VECTORS = PROJECT_ROOT / "tests" / "data" / "rule_vectors.jsonl"


@pytest.fixture(scope="session")
def vectors_path() -> Path:
    """The rule vectors. Missing means a broken checkout: fail, never skip."""
    assert VECTORS.is_file(), f"rule vectors missing from the repository: {VECTORS}"
    return VECTORS


from tests.postgres import cluster  # noqa: E402, F401  (a private PostgreSQL, stopped at will)
