"""`bot.fastjson`: orjson's text where it is installed, read back exactly as the standard
library's."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import pytest

from bot import fastjson


class Colour(StrEnum):
    RED = "red"


def _default(value: Any) -> Any:
    if hasattr(value, "value"):
        return value.value
    raise TypeError(f"not serialisable: {value!r}")


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, None, True], "b": {"c": "Ünïcödé ♠ नमस्ते"}, "d": (1, 2)},
        {1: "int keys become strings", "x": Colour.RED},
        {"big": 2**63 - 1, "neg": -(2**63), "huge": 2**70},  # beyond 64 bits: json writes it
        [Colour.RED, {"deadline": 1712345678.25}],
    ],
)
def test_the_text_reads_back_as_the_standard_librarys(value: Any) -> None:
    text = fastjson.dumps(value, default=_default)
    assert json.loads(text) == json.loads(json.dumps(value, default=_default))
    assert ", " not in text.replace('", "', "")  # compact


def test_what_the_default_refuses_is_refused() -> None:
    with pytest.raises(TypeError, match="not serialisable"):
        fastjson.dumps({"x": object()}, default=_default)
