"""Compact JSON text: orjson where it is installed (the `speedups` extra), else the standard
library, with the same meaning either way.

A table's whole state is written as JSON on every game action (`Table.to_json`): ~80 µs a
state with `json.dumps`, ~12 with orjson (`docs/scaling.md`, "Eighth pass"). The two texts
differ only in spelling (orjson writes non-ASCII characters as UTF-8 where `json` escapes
them, and may write a float's digits differently), never in what `json.loads` reads back.
orjson refuses integers beyond 64 bits; then the standard library writes the value.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - the speedups extra is optional
    orjson = None  # type: ignore[assignment]

Default = Callable[[Any], Any]


def dumps(value: Any, default: Default | None = None) -> str:
    """`value` as compact JSON text; `default` turns what JSON lacks into what it has (and
    raises `TypeError` for what must not be written)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, default=default, option=orjson.OPT_NON_STR_KEYS).decode()
        except orjson.JSONEncodeError:
            pass  # an integer beyond 64 bits, or a refusal: the standard library says which
    return json.dumps(value, default=default, separators=(",", ":"))
