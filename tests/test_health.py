"""The heartbeat file behind `python -m bot.health` (the Docker HEALTHCHECK)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from bot import health

BEAT_MANY = """
import sys
from pathlib import Path
from bot import health
for _ in range(int(sys.argv[2])):
    health.beat(Path(sys.argv[1]))
"""


def test_a_fresh_heartbeat_is_healthy_and_an_old_or_missing_one_is_not(tmp_path: Path) -> None:
    path = health.heartbeat_path(tmp_path / "data" / "paplu.db")
    assert health.problem(path) is not None and "no heartbeat" in str(health.problem(path))
    health.beat(path)
    assert health.problem(path) is None
    later = time.time() + health.STALE_AFTER + 5
    assert "old" in str(health.problem(path, now=later))
    health.clear(path)
    assert path.exists() is False


def test_processes_sharing_a_data_folder_beat_without_tripping_over_each_other(
    tmp_path: Path,
) -> None:
    """Two shard processes on one machine share `data/`: each one's beat must not move
    away the temporary file the other is writing (it once raised FileNotFoundError)."""
    path = tmp_path / ".heartbeat"
    root = Path(__file__).resolve().parents[1]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", BEAT_MANY, str(path), "1500"],
            cwd=root,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    assert health.problem(path) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == [".heartbeat"]  # no temp left behind
