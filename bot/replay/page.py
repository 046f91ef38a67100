"""One self-contained HTML file from the page data: template, styles, script and data inlined.

The page is sent as a file and opened offline, maybe on a phone, maybe years later, so it
carries everything it needs (the card faces are CSS and the page's own SVG symbols) and asks
the network for nothing. Its Content-Security-Policy says so to the browser: nothing may be
loaded (`default-src 'none'`), the one script and the one style sheet run because their
SHA-256 hashes are named, images only from `data:` URLs (there are none today). A player name
in the data cannot become markup: the data is JSON inside a `type="application/json"` block
with every `<` escaped, and the script writes it with `textContent` only.

`page.html`, `page.css` and `page.js` are package data, read once per process.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def _asset(name: str) -> str:
    return files("bot.replay").joinpath(name).read_text(encoding="utf-8")


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@cache
def csp() -> str:
    """The page's Content-Security-Policy (the same for every page: data is no script)."""
    return (
        "default-src 'none'; "
        f"script-src {_hash(_asset('page.js'))}; "
        f"style-src {_hash(_asset('page.css'))}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def data_json(data: dict[str, Any]) -> str:
    """The data as the page embeds it: compact JSON that cannot close its script element
    (every `<` escaped; JSON.parse reads `\\u003c` back as `<`)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")


def render(data: dict[str, Any], noscript: str) -> bytes:
    """The HTML file for `data` (`states.deal_data` / `match_data`), UTF-8."""
    fill = {
        "lang": html.escape(str(data["lang"])),
        "title": html.escape(str(data["title"])),
        "csp": html.escape(csp()),
        "style": _asset("page.css"),
        "script": _asset("page.js"),
        "data": data_json(data),
        "noscript": html.escape(noscript),
    }
    out = _asset("page.html")
    # One pass, so a value that happens to contain "{{...}}" is never filled in again.
    pieces = out.split("{{")
    parts = [pieces[0]]
    for piece in pieces[1:]:
        name, sep, rest = piece.partition("}}")
        if not sep or name not in fill:
            raise ValueError(f"page.html: unknown placeholder {{{{{name}}}}}")
        parts.append(fill[name] + rest)
    return "".join(parts).encode("utf-8")
