"""Where the bot's log lines go, and what they look like: set up once, before the first one.

Why here and not in the Discord client: the start-up check migrates the database before the
bot connects, and each migration it applies logs a line an operator needs to see; so logging
is set up by the entry point, before that check. And why not discord.py's `setup_logging`: it
colours its output whenever it guesses a terminal, and inside a container it always guesses
so (it looks for `/.dockerenv`), which left ANSI escape codes in every log file written from
Docker. Here colours are used only when stderr really is a terminal (and `NO_COLOR` is unset).

Secrets: the database URL's password must never reach a log line, whether a driver quotes the
URL in a message or a traceback carries it; the formatter masks the values it is given in
the whole formatted record, traceback included.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterable
from typing import TextIO

__all__ = ["FORMAT", "setup"]

#: One line per record: time, level, logger, message (the layout discord.py's own uses).
FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
MASK = "***"

# ANSI colours of the level names, for a terminal only.
_COLOURS = {
    logging.DEBUG: "\x1b[40;1m",
    logging.INFO: "\x1b[34;1m",
    logging.WARNING: "\x1b[33;1m",
    logging.ERROR: "\x1b[31m",
    logging.CRITICAL: "\x1b[41m",
}
_RESET = "\x1b[0m"


class Formatter(logging.Formatter):
    """The plain format, the level name coloured when `colour`, `secrets` masked anywhere in
    the formatted record (its message and its traceback)."""

    def __init__(self, *, colour: bool = False, secrets: Iterable[str] = ()) -> None:
        super().__init__(FORMAT, DATE_FORMAT, style="{")
        self.colour = colour
        # Longest first: a secret that contains another is masked whole.
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        levelname = record.levelname
        if self.colour:
            record.levelname = f"{_COLOURS.get(record.levelno, '')}{levelname:<8}{_RESET}"
        try:
            text = super().format(record)
        finally:
            record.levelname = levelname
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and not when the user asked for none (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class _Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler `setup` installs (recognised, and replaced, by a later call)."""


def setup(level: int, *, secrets: Iterable[str] = (), stream: TextIO | None = None) -> None:
    """Log records of `level` and above to `stream` (stderr), one line each. Called again
    (the entry point, then the bot's `run`), it replaces its own handler and keeps any other
    an embedding program installed."""
    stream = sys.stderr if stream is None else stream
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _Handler)]:
        root.removeHandler(old)
    handler = _Handler(stream)
    handler.setFormatter(Formatter(colour=wants_colour(stream), secrets=secrets))
    root.addHandler(handler)
    root.setLevel(level)
