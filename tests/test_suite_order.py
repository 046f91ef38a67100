"""The run order of the suite (`tests/conftest.py`): the longest tests first, nothing lost."""

from __future__ import annotations

import re

from tests.conftest import LONG_TESTS_FIRST, PROJECT_ROOT, long_test_rank


def test_every_long_test_named_first_exists() -> None:
    """A renamed or removed test would silently drop out of the front of the run."""
    missing = []
    for nodeid in LONG_TESTS_FIRST:
        path, name = nodeid.split("::")
        function = name.split("[", 1)[0]
        source = PROJECT_ROOT / path
        if not source.is_file() or not re.search(
            rf"^(async )?def {re.escape(function)}\(", source.read_text(), re.MULTILINE
        ):
            missing.append(nodeid)
    assert not missing, missing
    assert len(set(LONG_TESTS_FIRST)) == len(LONG_TESTS_FIRST)


def test_a_named_case_goes_before_its_function_and_others_keep_their_place() -> None:
    case = "tests/engine/test_simulation.py::test_random_play_keeps_invariants[classic-preset]"
    other_case = "tests/engine/test_simulation.py::test_random_play_keeps_invariants[x]"
    assert long_test_rank(case) < long_test_rank(other_case) < len(LONG_TESTS_FIRST)
    first = LONG_TESTS_FIRST[0]
    assert long_test_rank(first) == 0
    assert long_test_rank(first + "[sqlite]") == 0
    assert long_test_rank("tests/test_docs.py::test_anything") == len(LONG_TESTS_FIRST)
