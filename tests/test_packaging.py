"""What a newcomer installs: the license, the `paplu-bot` command, the pinned image, compose.

The Docker image itself is not built here (no Docker on the test machines); these check the
files it is built from agree with pyproject.toml and with each other.
"""

from __future__ import annotations

import importlib
import re
import tomllib

from tests.conftest import PROJECT_ROOT

PYPROJECT = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def _lock() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (PROJECT_ROOT / "requirements.lock").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        assert sep and re.fullmatch(r"[\w.]+", version), f"not an exact pin: {line!r}"
        pins[name.lower().replace("_", "-")] = version
    return pins


def test_license_is_an_spdx_string_with_its_file() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert "MIT License" in (PROJECT_ROOT / "LICENSE").read_text()
    backend = PYPROJECT["build-system"]["requires"][0]
    assert _version(backend.split(">=")[1]) >= (77,), "SPDX license strings need setuptools 77"


def test_paplu_bot_command_is_the_module_entry_point() -> None:
    target = PYPROJECT["project"]["scripts"]["paplu-bot"]
    module, _, name = target.partition(":")
    main = getattr(importlib.import_module(module), name)
    assert callable(main)
    assert main is importlib.import_module("bot.__main__").main


def test_dev_tools_are_bounded() -> None:
    dev = PYPROJECT["project"]["optional-dependencies"]["dev"]
    for tool in ("ruff", "mypy"):
        (spec,) = [d for d in dev if d.startswith(tool)]
        assert "<" in spec, f"{tool} needs an upper bound: {spec}"


def test_the_lock_pins_every_runtime_dependency_within_its_range() -> None:
    pins = _lock()
    for dep in PYPROJECT["project"]["dependencies"]:
        name, low, high = re.fullmatch(r"([\w.\-]+)>=([\d.]+),<([\d.]+)", dep).groups()  # type: ignore[union-attr]
        key = name.lower().replace("_", "-")
        assert key in pins, f"{name} is not pinned in requirements.lock"
        assert _version(low) <= _version(pins[key]) < _version(high), (dep, pins[key])
    assert "aiohttp" in pins, "transitive dependencies are pinned too"


def test_the_lock_pins_the_speedups_the_image_runs_with() -> None:
    """The image installs the lock only (the bot itself with --no-deps), so the `speedups`
    extra reaches it through the lock."""
    pins = _lock()
    for dep in PYPROJECT["project"]["optional-dependencies"]["speedups"]:
        name, low, high = re.match(r"([\w.\-]+)>=([\d.]+),<([\d.]+)", dep).groups()  # type: ignore[union-attr]
        assert name in pins, f"{name} (speedups) is not pinned in requirements.lock"
        assert _version(low) <= _version(pins[name]) < _version(high), (dep, pins[name])


def test_the_image_installs_the_lock_and_checks_its_health() -> None:
    dockerfile = (PROJECT_ROOT / "Dockerfile").read_text()
    assert "pip install -r requirements.lock" in dockerfile
    assert "pip install --no-deps ." in dockerfile
    assert re.search(r"HEALTHCHECK .*\n?.*bot\.health", dockerfile)


def test_compose_has_no_default_database_password() -> None:
    compose = (PROJECT_ROOT / "docker-compose.yml").read_text()
    uses = re.findall(r"\$\{POSTGRES_PASSWORD([^}]*)\}", compose)
    assert uses, "compose takes the password from POSTGRES_PASSWORD"
    assert all(u.startswith(":?") for u in uses), uses
    assert "change-me" not in compose
