"""Shared test helpers: locating the shared rule documents beside the project."""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED = PROJECT_ROOT.parent / "shared"
VECTORS = SHARED / "rules" / "vectors.jsonl"


@pytest.fixture(scope="session")
def vectors_path() -> Path:
    if not VECTORS.exists():
        pytest.skip(f"rule vectors not found at {VECTORS} (../shared is not beside the project)")
    return VECTORS


from tests.postgres import cluster  # noqa: E402, F401  (a private PostgreSQL, stopped at will)
