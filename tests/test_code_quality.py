"""The code stays lint-clean, formatted, and typed (the engine under mypy --strict)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=PROJECT_ROOT, capture_output=True, text=True
    )


def test_ruff_lint_and_format() -> None:
    lint = run("ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout[-3000:]
    fmt = run("ruff", "format", "--check", ".")
    assert fmt.returncode == 0, fmt.stdout[-3000:]


def test_mypy_bot_and_cogs() -> None:
    """bot/engine is checked with strict settings (see [tool.mypy] in pyproject.toml)."""
    result = run("mypy", "bot", "cogs")
    assert result.returncode == 0, result.stdout[-3000:]


def test_engine_has_no_discord_or_storage_imports() -> None:
    offenders = []
    for path in (PROJECT_ROOT / "bot" / "engine").rglob("*.py"):
        for line in path.read_text().splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and any(
                f" {name}" in stripped or f" {name}." in stripped
                for name in ("discord", "aiosqlite", "cogs", "bot.storage", "bot.adapter")
            ):
                offenders.append(f"{path.name}: {stripped}")
    assert not offenders, offenders
