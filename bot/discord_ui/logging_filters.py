"""Keeping secrets out of the logs.

At DEBUG level discord.py logs gateway payloads and HTTP routes, and both carry interaction
tokens (anyone holding one can answer as the bot for 15 minutes). This filter rewrites every
record's message before it is emitted, whatever handler the operator configured.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"

_PATTERNS = (
    # "token": "aW50ZXJhY3Rpb246..." in a JSON payload
    re.compile(r"""(["']token["']\s*:\s*["'])[^"']+(["'])"""),
    # /interactions/<id>/<token>/callback and /webhooks/<app id>/<token>/...
    re.compile(r"(/interactions/\d+/)[^/\s\"']+"),
    re.compile(r"(/webhooks/\d+/)[^/\s\"'?]+"),
)


def redact(text: str) -> str:
    for pattern in _PATTERNS:
        text = pattern.sub(
            lambda m: m.group(1) + REDACTED + (m.group(2) if m.lastindex == 2 else ""), text
        )
    return text


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg = cleaned
            record.args = None
        return True


def install() -> None:
    """Attach the filter to every handler of the root logger (discord.py logs propagate)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactTokens) for f in handler.filters):
            handler.addFilter(RedactTokens())
