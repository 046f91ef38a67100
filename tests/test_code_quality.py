"""The code stays lint-clean, formatted, and typed (the engine under mypy --strict)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:` (they never run)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                hidden.update(id(n) for n in ast.walk(inner))
    return hidden


def _names_the_bot_class(node: ast.AST, package: str) -> bool:
    if not isinstance(node, ast.ImportFrom):
        return False
    module = node.module or ""
    if node.level:
        base = package.split(".")
        module = ".".join([*base[: len(base) - node.level + 1], module])
    return module == "bot.discord_ui.client" and [a.name for a in node.names] == ["PapluBot"]


def _imports(path: Path, *, runtime_only: bool = False) -> set[str]:
    """Every module `path` imports (absolute, or relative resolved against its package),
    including imports inside functions and under TYPE_CHECKING (a layer must not even *name*
    a layer above it). `runtime_only` leaves out the one annotation-only import allowed to
    close a loop: the Discord side naming its bot class (`PapluBot`) for typed interactions."""
    tree = ast.parse(path.read_text(), str(path))
    package = ".".join(path.relative_to(PROJECT_ROOT).with_suffix("").parts[:-1])
    hidden = _type_checking_blocks(tree) if runtime_only else set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in hidden and _names_the_bot_class(node, package):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> dict[str, Path]:
    return {
        _module_name(p): p
        for folder in ("bot", "cogs")
        for p in (PROJECT_ROOT / folder).rglob("*.py")
    }


def _touches(imported: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(
        name for name in imported for p in prefixes if name == p or name.startswith(p + ".")
    )


#: Which layers each layer may not import (imports point down: Discord -> table -> the rest).
FORBIDDEN = {
    "bot.engine": ("discord", "aiosqlite", "asyncpg", "cogs", "bot.storage", "bot.table",
                   "bot.discord_ui", "bot.ai"),
    "bot.ai": ("discord", "aiosqlite", "asyncpg", "cogs", "bot.storage", "bot.table",
               "bot.discord_ui"),
    "bot.table": ("discord", "cogs", "bot.discord_ui", "sqlite3", "aiosqlite", "asyncpg"),
    "bot.discord_ui": ("sqlite3", "aiosqlite", "asyncpg"),
    "cogs": ("sqlite3", "aiosqlite", "asyncpg"),
    "bot.storage": ("discord", "cogs", "bot.discord_ui", "bot.table", "bot.ai"),
    "bot.images": ("discord", "cogs", "bot.discord_ui", "bot.table", "bot.storage", "bot.words"),
    # The words: facts of the layers below turned into sentences, for Discord and the terminal.
    "bot.words": ("discord", "cogs", "bot.discord_ui", "bot.storage", "sqlite3", "aiosqlite",
                  "asyncpg"),
    # Replay pages: made from hand histories by the engine, worded by bot/words; the Discord
    # side sends them, storage keeps the histories, neither is known here.
    "bot.replay": ("discord", "cogs", "bot.discord_ui", "bot.storage", "bot.table", "bot.ai",
                   "sqlite3", "aiosqlite", "asyncpg"),
}  # fmt: skip


def test_layers_import_only_downwards() -> None:
    offenders = []
    for module, path in _project_modules().items():
        for layer, forbidden in FORBIDDEN.items():
            if module == layer or module.startswith(layer + "."):
                bad = _touches(_imports(path), forbidden)
                if bad:
                    offenders.append(f"{module} imports {bad}")
    assert not offenders, offenders


def test_only_the_discord_side_imports_discord() -> None:
    offenders = [
        module
        for module, path in _project_modules().items()
        if _touches(_imports(path), ("discord",))
        and not module.startswith(("bot.discord_ui", "cogs"))
    ]
    assert not offenders, offenders


def test_no_import_cycles() -> None:
    """A cycle hidden by an import inside a function is still a cycle: walk them all."""
    modules = _project_modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        deps = set()
        for name in _imports(path, runtime_only=True):
            # `from a.b import c` names a.b.c (a module or an attribute): keep the longest
            # project module the name starts with.
            parts = name.split(".")
            for n in range(len(parts), 0, -1):
                candidate = ".".join(parts[:n])
                if candidate in modules and candidate != module:
                    deps.add(candidate)
                    break
        graph[module] = deps
    # Package __init__ modules re-export their children; an edge child -> parent package is
    # how a child names its siblings, not a real cycle, so packages are left out.
    packages = {m for m, p in modules.items() if p.name == "__init__.py"}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if dep in packages:
                continue
            if state.get(dep) == 1:
                cycles.append([*stack[stack.index(dep) :], dep])
            elif dep not in state:
                visit(dep)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state and node not in packages:
            visit(node)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_engine_has_no_discord_or_storage_imports() -> None:
    offenders = []
    for path in (PROJECT_ROOT / "bot" / "engine").rglob("*.py"):
        for line in path.read_text().splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and any(
                f" {name}" in stripped or f" {name}." in stripped
                for name in ("discord", "aiosqlite", "cogs", "bot.storage", "bot.table")
            ):
                offenders.append(f"{path.name}: {stripped}")
    assert not offenders, offenders


def test_storage_runs_no_thread_or_event_loop_of_its_own() -> None:
    """aiosqlite and asyncpg carry all storage on the bot's own loop: no private loop, no
    ``run_until_complete``, no hand-written worker thread or queue in ``bot/storage``."""
    banned = ("run_until_complete", "new_event_loop", "threading", "queue.", "SimpleQueue")
    offenders = [
        f"{path.relative_to(PROJECT_ROOT)}: {word}"
        for path in sorted((PROJECT_ROOT / "bot" / "storage").rglob("*.py"))
        for word in banned
        if word in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


#: The Discord side's shape (issue 38): small modules and functions, clicks dispatched through
#: one typed table, interactions typed as the bot's.
DISCORD_SIDE = ("bot/discord_ui", "cogs")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _discord_side() -> list[Path]:
    return [p for root in DISCORD_SIDE for p in sorted((PROJECT_ROOT / root).rglob("*.py"))]


def test_discord_side_modules_and_functions_stay_small() -> None:
    too_long: list[str] = []
    for path in _discord_side():
        source = path.read_text()
        name = path.relative_to(PROJECT_ROOT)
        if len(source.splitlines()) > MAX_MODULE_LINES:
            too_long.append(f"{name}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}: {node.name} is {length} lines")
    assert not too_long, too_long


def test_discord_side_dispatches_clicks_through_one_typed_table() -> None:
    """No cog is looked up by name, no handler compares a custom id's action word as a
    string (they are `clicks.Act` members once parsed), and no interaction is `Any`."""
    found: list[str] = []
    for path in _discord_side():
        tree = ast.parse(path.read_text())
        name = path.relative_to(PROJECT_ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "get_cog":
                found.append(f"{name}:{node.lineno}: get_cog")
            if isinstance(node, ast.Subscript) and ast.unparse(node) in (
                "discord.Interaction[Any]",
                "Interaction[Any]",
            ):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.Compare) and _compares_action_word(node):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    assert not found, found


def _compares_action_word(node: ast.Compare) -> bool:
    """`action == "draw"`, `cid.action in ("join", ...)`: an action word tested as text."""
    sides = (node.left, *node.comparators)
    names_action = any(
        (isinstance(side, ast.Attribute) and side.attr in ("action", "act"))
        or (isinstance(side, ast.Name) and side.id == "action")
        for side in sides
    )
    texts = [c for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return names_action and bool(texts)
