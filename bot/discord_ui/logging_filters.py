"""Keeping secrets and noise out of the logs.

At DEBUG level discord.py logs gateway payloads and HTTP routes, and both carry interaction
tokens (anyone holding one can answer as the bot for 15 minutes). `RedactTokens` rewrites every
record's message before it is emitted, whatever handler the operator configured.

`QuietStartup` drops what discord.py's client says at every start that an operator of this bot
cannot act on: that the voice libraries (PyNaCl, davey) are missing (the bot never joins a
voice channel, so it does not install them) and that it is "logging in using static token"
(the bot says "logged in as ..." itself once connected).
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


_NOISE = ("voice will NOT be supported", "logging in using static token")


class QuietStartup(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(noise in message for noise in _NOISE)


def quiet_startup() -> None:
    """Attach `QuietStartup` to the `discord.client` logger (a logger's own filter sees its
    records whatever the handlers). Call it before the client is built: the voice warnings
    are logged by the client's constructor."""
    logger = logging.getLogger("discord.client")
    if not any(isinstance(f, QuietStartup) for f in logger.filters):
        logger.addFilter(QuietStartup())
