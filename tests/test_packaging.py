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


def _pins(name: str) -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (PROJECT_ROOT / name).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            pkg, sep, version = line.partition("==")
            assert sep and re.fullmatch(r"[\w.]+", version), f"not an exact pin: {line!r}"
            pins[pkg.lower().replace("_", "-")] = version
    return pins


def test_the_dev_lock_pins_every_test_and_dev_tool_within_its_range() -> None:
    runtime, dev = _pins("requirements.lock"), _pins("requirements-dev.lock")
    extras = PYPROJECT["project"]["optional-dependencies"]
    for dep in [*extras["test"], *extras["dev"]]:
        if dep.startswith("paplu-bot"):
            continue
        spec = dep.partition(";")[0].strip()  # an environment marker aside
        name, low, high = re.fullmatch(r"([\w.\-]+)>=([\d.]+),<([\d.]+)", spec).groups()  # type: ignore[union-attr]
        key = name.lower().replace("_", "-")
        # A tool the image ships too (uvloop, for the drawing pipe's tests) is the runtime's pin.
        pinned = dev.get(key) or runtime.get(key)
        assert pinned, f"{name} is not pinned in requirements-dev.lock"
        assert _version(low) <= _version(pinned) < _version(high), (dep, pinned)
    assert {"pluggy", "execnet"} <= set(dev), "what the tools need is pinned too"
    assert not set(runtime) & set(dev), "a package is pinned in one lock only"


def test_ci_and_the_readme_install_the_tests_on_the_locked_versions() -> None:
    command = (
        'python3 -m pip install -c requirements.lock -c requirements-dev.lock -e ".[dev]"'
        " && python3 -m pytest -q"
    )
    assert command in (PROJECT_ROOT / "README.md").read_text()
    ci = (PROJECT_ROOT / ".ci" / "run").read_text().replace("\\\n", "")
    assert command in " ".join(ci.split()), "`.ci/run` runs the README's test command"
    dockerfile = (PROJECT_ROOT / "Dockerfile").read_text()
    assert "requirements-dev.lock" not in dockerfile, "the image ships the runtime only"


def test_plain_mypy_checks_the_bot_and_the_cogs() -> None:
    assert PYPROJECT["tool"]["mypy"]["files"] == ["bot", "cogs"]


def test_base_images_are_pinned_by_digest_with_their_tag() -> None:
    digest = r"@sha256:[0-9a-f]{64}"
    dockerfile = (PROJECT_ROOT / "Dockerfile").read_text()
    assert re.search(rf"^FROM python:3\.12-slim{digest}$", dockerfile, re.M), "Dockerfile FROM"
    assert re.search(r"^# python:3\.12-slim", dockerfile, re.M), "the tag, in a comment"
    compose = (PROJECT_ROOT / "docker-compose.yml").read_text()
    assert re.search(rf"^\s+image: postgres:16{digest}$", compose, re.M), "compose's db image"
    assert re.search(r"^\s+# postgres:16, pinned by digest", compose, re.M)


def test_compose_runs_the_readmes_cluster() -> None:
    """README, "Running large": two processes, eight shards, half each; compose runs that."""
    compose = (PROJECT_ROOT / "docker-compose.yml").read_text()
    readme = (PROJECT_ROOT / "README.md").read_text()
    counts = set(re.findall(r'SHARD_COUNT: "(\d+)"', compose))
    ids = re.findall(r'SHARD_IDS: "([\d-]+)"', compose)
    assert counts == {"8"} and ids == ["0-3", "4-7"], (counts, ids)
    assert "Two processes, eight shards" in readme
    assert "SHARD_COUNT=8 SHARD_IDS=0-3" in readme and "SHARD_COUNT=8 SHARD_IDS=4-7" in readme


def test_env_example_names_every_setting_of_the_readme() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    table = readme.split("| setting | meaning | default |", 1)[1].split("\n\n", 1)[0]
    settings = re.findall(r"^\| `([A-Z_]+)` \|", table, re.M)
    assert "DATABASE_URL" in settings and "LOG_LEVEL" in settings
    example = (PROJECT_ROOT / ".env.example").read_text()
    assigned = set(re.findall(r"^([A-Z_]+)=", example, re.M))
    assert set(settings) <= assigned, set(settings) - assigned
    assert "POSTGRES_PASSWORD" in assigned  # compose's, in the same file
    assert re.search(r"^# DATABASE_URL=postgresql://", example, re.M), "a commented example"
    levels = re.search(r"^\| `LOG_LEVEL` \| (.*) \|", table, re.M)
    from bot.config import _LEVELS

    assert levels is not None and all(f"`{lvl}`" in levels.group(1) for lvl in _LEVELS)
