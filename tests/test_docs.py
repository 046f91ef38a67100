"""The documentation points at things that exist: every relative link (and its `#section`) in
the README, `docs/` and the package READMEs, and every repository path it names in code spans.
A file moved or a section renamed fails here, not in a reader's hands."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import PROJECT_ROOT

DOCS = sorted(
    [
        *PROJECT_ROOT.glob("*.md"),
        *PROJECT_ROOT.glob("docs/*.md"),
        *PROJECT_ROOT.glob("bot/**/*.md"),
    ]
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
PATH = re.compile(r"`((?:bot|cogs|tests|docs|benchmarks)/[\w./\-]*[\w/])`")


def anchors(markdown: str) -> set[str]:
    """GitHub's anchors of a document's headings: lower case, punctuation dropped, spaces to
    hyphens."""
    out = set()
    for line in markdown.splitlines():
        m = re.match(r"^#+\s+(.*)", line)
        if m:
            out.add(re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-"))
    return out


def test_links_and_sections_exist() -> None:
    broken = []
    for doc in DOCS:
        text = doc.read_text()
        for link in LINK.findall(text):
            if re.match(r"^[a-z]+:", link):
                continue  # https:, mailto:
            path, _, anchor = link.partition("#")
            target = (doc.parent / path) if path else doc
            if not target.exists():
                broken.append(f"{doc.relative_to(PROJECT_ROOT)}: {link} (no such file)")
            elif anchor and target.suffix == ".md" and anchor not in anchors(target.read_text()):
                broken.append(f"{doc.relative_to(PROJECT_ROOT)}: {link} (no such section)")
    assert not broken, "\n".join(broken)


def test_named_paths_exist() -> None:
    missing = [
        f"{doc.relative_to(PROJECT_ROOT)}: {path}"
        for doc in DOCS
        for path in PATH.findall(doc.read_text())
        if not (PROJECT_ROOT / path).exists() and not _module_attribute(path)
    ]
    assert not missing, "\n".join(missing)


def _module_attribute(path: str) -> bool:
    """`bot/storage/conn.Conn`: a module's attribute, written as a path to the module."""
    head, _, _attr = path.rpartition(".")
    return bool(head) and Path(PROJECT_ROOT / f"{head}.py").exists()
