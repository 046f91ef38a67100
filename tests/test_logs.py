"""Log lines: plain text unless stderr is a terminal (no colour codes in a container's log
file), and no secret in any of them, traceback included."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot import logs
from tests.conftest import PROJECT_ROOT


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _emit(stream: io.StringIO, secrets: tuple[str, ...] = ()) -> str:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        logs.setup(logging.INFO, secrets=secrets, stream=stream)
        log = logging.getLogger("paplu.test")
        log.warning("connecting to postgresql://u:hunter2@db/paplu?password=hunter3")
        try:
            raise RuntimeError("password hunter3 refused")
        except RuntimeError:
            log.exception("the database said no")
        log.debug("not shown at INFO")
    finally:
        for handler in root.handlers[:]:
            if handler not in saved[0]:
                root.removeHandler(handler)
        root.setLevel(saved[1])
    return stream.getvalue()


def test_no_colour_codes_when_the_output_is_not_a_terminal() -> None:
    out = _emit(io.StringIO())
    assert "\x1b" not in out
    assert "[WARNING ] paplu.test: connecting to" in out
    assert "not shown" not in out


def test_colours_on_a_terminal_unless_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[" in _emit(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in _emit(Terminal())


def test_secrets_are_masked_in_messages_and_tracebacks() -> None:
    out = _emit(io.StringIO(), secrets=("hunter2", "hunter3"))
    assert "hunter" not in out
    assert "postgresql://u:***@db/paplu?password=***" in out
    assert "RuntimeError: password *** refused" in out  # the traceback too


def test_setup_twice_keeps_one_handler() -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    level = root.level
    try:
        logs.setup(logging.INFO, stream=io.StringIO())
        logs.setup(logging.INFO, stream=io.StringIO())
        assert len([h for h in root.handlers if h not in before]) == 1
    finally:
        for handler in root.handlers[:]:
            if handler not in before:
                root.removeHandler(handler)
        root.setLevel(level)


def test_the_entry_points_log_file_has_no_colour_codes(tmp_path: Path) -> None:
    """`python -m bot` with its output in a file, as Docker keeps it (this test may itself
    run in a container, where discord.py's own logging set-up would colour every line): the
    migration lines of the first start are plain text."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(PROJECT_ROOT),
        "DISCORD_TOKEN": "MTAxMDEwMTAxMDEwMTAxMDEw.GhIjKl.abcdefghijklmnopqrstuvwxyz0123",
        "FAKE_DISCORD_URL": "http://127.0.0.1:9",  # nothing answers: exits after the check
    }
    with open(tmp_path / "bot.log", "wb") as out:
        subprocess.run(
            [sys.executable, "-m", "tests.fakediscord.launch", "bot"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=120,
        )
    text = (tmp_path / "bot.log").read_text()
    assert "applied migration 0001 initial (sqlite)" in text
    assert "\x1b" not in text
