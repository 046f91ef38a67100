"""The PostgreSQL test server, for every suite that runs on both backends.

``PAPLU_TEST_POSTGRES_URL`` names the server (``.ci/run`` starts a throwaway one); each
test gets its own fresh schema there. Without a server the PostgreSQL runs skip with the
reason, unless ``PAPLU_REQUIRE_POSTGRES=1`` (CI): then they fail, so a broken server can
never silently turn them off.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

POSTGRES_URL_VAR = "PAPLU_TEST_POSTGRES_URL"
REQUIRE_VAR = "PAPLU_REQUIRE_POSTGRES"


def postgres_url_or_skip() -> str:
    """The test server's URL; skip (or fail, when PostgreSQL is required) without one."""
    url = os.environ.get(POSTGRES_URL_VAR, "").strip()
    if url:
        return url
    reason = f"PostgreSQL tests need a server: set {POSTGRES_URL_VAR} (.ci/run starts one)"
    if os.environ.get(REQUIRE_VAR) == "1":
        pytest.fail(f"{REQUIRE_VAR}=1 but {reason}")
    pytest.skip(reason)


def _with_search_path(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}search_path={schema}"


async def postgres_schema(url: str) -> AsyncIterator[str]:
    """A URL on a fresh schema of the test server (dropped afterwards): every test
    starts from an empty database without the cost of creating one."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield _with_search_path(url, schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


# ---- a private cluster, for tests that stop and start the server ----------------------


class Cluster:
    """A throwaway PostgreSQL cluster: ``stop()`` crashes it, ``start()`` brings it back."""

    def __init__(self, bindir: Path, work: Path, run_as: list[str]) -> None:
        self.bindir = bindir
        self.work = work
        self.run_as = run_as
        self.url = f"postgresql://paplu@/postgres?host={work}&port=5432"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.run_as, *args], check=True, cwd="/", capture_output=True, timeout=120)

    def init(self) -> None:
        self._run(
            str(self.bindir / "initdb"), "-D", str(self.work / "data"), "-U", "paplu",
            "-A", "trust", "-E", "UTF8", "--no-sync",
        )  # fmt: skip

    def start(self) -> None:
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.work / "data"), "-l",
            str(self.work / "server.log"), "-w", "-o",
            f"-k {self.work} -p 5432 -c listen_addresses='' -c fsync=off",
            "start",
        )  # fmt: skip

    def stop(self, mode: str = "immediate") -> None:
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.work / "data"), "-m", mode, "-w", "stop"
        )


def _bindir() -> Path | None:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(f"{d}/initdb", os.X_OK) and os.access(f"{d}/pg_ctl", os.X_OK):
            return Path(d)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and shutil.which("initdb") else None


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    bindir = _bindir()
    if bindir is None:
        reason = "the PostgreSQL server binaries (initdb, pg_ctl) are not installed"
        if os.environ.get(REQUIRE_VAR) == "1":
            pytest.fail(f"{REQUIRE_VAR}=1 but {reason}")
        pytest.skip(reason)
    work = Path(tempfile.mkdtemp(prefix="paplu-pg-restart-"))
    run_as: list[str] = []
    if os.getuid() == 0:  # postgres refuses to run as root
        run_as = ["runuser", "-u", "nobody", "--"]
        os.chown(work, pwd_uid("nobody"), -1)
    c = Cluster(bindir, work, run_as)
    try:
        c.init()
        c.start()
        yield c
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            c.stop()
        shutil.rmtree(work, ignore_errors=True)


def pwd_uid(name: str) -> int:
    import pwd

    return pwd.getpwnam(name).pw_uid
