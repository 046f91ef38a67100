"""Start-up as an admin meets it: the real entry point (`python -m bot`) in a folder holding
`.env`, against the fake Discord. A token Discord rejects, a Discord that cannot be reached:
one line on stderr and exit code 2. Ctrl-C: a clean stop. No voice warnings at any start."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import SCRIPTED_PACE, TOKEN, TableDriver, scripted_pace
from tests.fakediscord import FakeDiscord
from tests.fakediscord.driver import DEADLINE, REPO_ROOT

# Well-formed (three dot-separated parts), but not the token the fake Discord knows.
OTHER_TOKEN = "OTk5OTk5OTk5OTk5OTk5OTk5.XxYyZz.zyxwvutsrqponmlkjihgfedcba9876"


def write_env(folder: Path, **values: str) -> None:
    folder.joinpath(".env").write_text("".join(f"{k}={v}\n" for k, v in values.items()))


async def start_bot(
    folder: Path, url: str, extra: dict[str, str] | None = None
) -> asyncio.subprocess.Process:
    """`python -m bot` (through the fake's launcher, which only points discord.py at `url`)
    in `folder`, its own process group as in a terminal; settings only from `folder/.env`
    (and `extra`, the launcher's own variables). Its output goes to files (`finish` reads
    them): a pipe would stay open as long as the drawing process the bot started, which
    outlives it by a moment."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO_ROOT),
        "FAKE_DISCORD_URL": url,
        "PYTHONUNBUFFERED": "1",
        "PYTHONFAULTHANDLER": "1",  # a stuck bot's threads are dumped by SIGABRT (`finish`)
        **(extra or {}),
    }
    with open(folder / "stdout.log", "wb") as out, open(folder / "stderr.log", "wb") as err:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.fakediscord.launch",
            "bot",
            cwd=str(folder),
            env=env,
            stdout=out,
            stderr=err,
            start_new_session=True,
            # A test run started in the background (`cmd &`) ignores SIGINT and a child
            # inherits that; a terminal's foreground bot never does, so give it Ctrl-C back.
            preexec_fn=_ctrl_c_back,
        )


def _ctrl_c_back() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


async def finish(
    proc: asyncio.subprocess.Process, folder: Path, timeout: float = DEADLINE
) -> tuple[int, str, str]:
    """Wait for the bot to exit; its exit code, stdout and stderr."""
    try:
        code = await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        os.kill(proc.pid, signal.SIGABRT)  # the stacks of its threads, into stderr.log
        await asyncio.sleep(2)
        os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
        raise AssertionError(
            f"the bot did not exit within {timeout} s; stderr:\n"
            + (folder / "stderr.log").read_text(errors="replace")
        ) from None
    out = (folder / "stdout.log").read_text(errors="replace")
    err = (folder / "stderr.log").read_text(errors="replace")
    return code, out, err


async def group_gone(pgid: int, timeout: float = DEADLINE) -> bool:
    """Has every process of the bot's process group exited (the drawing process too)?"""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        await asyncio.sleep(0.2)
    os.killpg(pgid, signal.SIGKILL)
    return False


def lines(text: str) -> list[str]:
    """The lines of an output, without the one log line each migration applied to the fresh
    database writes (an operator's record of what changed, not a complaint)."""
    return [
        line
        for line in text.splitlines()
        if line.strip() and "bot.storage.migrate: applied migration" not in line
    ]


async def test_a_rejected_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    write_env(tmp_path, DISCORD_TOKEN=OTHER_TOKEN, DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        code, out, err = await finish(await start_bot(tmp_path, fake.server.url), tmp_path)
        assert ("GET", "/users/@me", 401) in fake.server.request_log
        assert fake.server.identify_count == 0
    assert code == 2, err
    assert len(lines(err)) == 1, err
    assert "rejected the token" in err and "DISCORD_TOKEN" in err
    assert "Traceback" not in err + out


async def test_discord_unreachable_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Nothing listens at the address (what a machine without network, or with Discord's
    address blocked, meets): no aiohttp traceback, one line naming the problem."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    write_env(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    proc = await start_bot(tmp_path, f"http://127.0.0.1:{port}")
    code, out, err = await finish(proc, tmp_path)
    assert code == 2, err
    assert len(lines(err)) == 1, err
    assert "cannot reach Discord" in err
    assert "Traceback" not in err + out


async def test_ctrl_c_stops_cleanly_and_no_voice_warnings(tmp_path: Path) -> None:
    write_env(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        LOG_LEVEL="INFO",
    )
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        proc = await start_bot(tmp_path, fake.server.url)
        try:
            await fake.wait_for_commands("rummy")
            await fake.wait_for(lambda: fake.connected)
            log = tmp_path / "stderr.log"
            # until the bot has handled READY (on_ready)
            await fake.wait_for(lambda: "logged in as" in log.read_text(errors="replace"))
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
        # Ctrl-C in a terminal interrupts the whole foreground process group, the drawing
        # process included.
        os.killpg(proc.pid, signal.SIGINT)
        code, out, err = await finish(proc, tmp_path)
        gone = await group_gone(proc.pid)
    assert code in (0, 130), err
    assert gone, "a process the bot started outlived it by 20 s (the drawing process?)"
    assert "Traceback" not in err + out, err
    assert "voice will NOT be supported" not in err, err
    assert "PyNaCl" not in err and "davey" not in err
    assert "synced commands" in err  # the bot did run, on the settings of the .env it read
    assert "\x1b" not in err, "colour codes in a log written to a file"


def workers_of(pgid: int) -> list[str]:
    """The command lines of the processes the bot spawned (its process group, itself aside):
    the drawing process and, once an AI seat has searched, the AI's thinking process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == pgid:
            continue
        try:
            if os.getpgid(int(entry.name)) != pgid:
                continue
            found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except (OSError, ProcessLookupError):
            continue  # gone meanwhile
    return found


@pytest.mark.parametrize(
    ("how", "code"), [("ctrl-c", 130), ("sigterm", 0)], ids=["ctrl-c", "sigterm"]
)
async def test_a_stop_after_a_game_with_an_ai_seat_is_clean(
    tmp_path: Path, how: str, code: int
) -> None:
    """A match against the expert AI (it thinks in its own worker process), then Ctrl-C (the
    terminal interrupts the whole process group, every worker included) or SIGTERM (what
    `docker stop` sends the bot alone): no traceback from any process, the exit code the
    README promises, and no process of the bot left behind."""
    write_env(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        AI_DELAY="0",
        NEXT_DEAL_DELAY="0",
        DECK_SEED="4",
    )
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake:
        scripted_pace(fake)
        proc = await start_bot(tmp_path, fake.server.url, {"FAKE_DISCORD_PACE": str(SCRIPTED_PACE)})
        try:
            await fake.wait_for_commands("rummy")
            driver = TableDriver(fake, ["alice"])
            await driver.open("alice", ai=["expert"], profile="points")
            await driver.start("alice")
            assert await driver.play() is not None
            spawned = workers_of(proc.pid)
            assert sum("multiprocessing" in c for c in spawned) >= 2, spawned  # drawing + AI
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.terminate()
        exit_code, out, err = await finish(proc, tmp_path)
        gone = await group_gone(proc.pid)
    assert "Traceback" not in err + out, err
    assert exit_code == code, err
    assert gone, "a worker process outlived the bot by 20 s"


def health_check(db: Path) -> tuple[int, str]:
    import subprocess

    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT), "DATABASE_PATH": str(db)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot.health"],
        cwd=db.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, proc.stdout + proc.stderr


async def test_health_check_follows_the_connected_bot(tmp_path: Path) -> None:
    """The Docker HEALTHCHECK (`python -m bot.health`): unhealthy before the bot connects,
    healthy while it is connected, unhealthy again once it stopped."""
    from bot.discord_ui.client import PapluBot
    from tests.e2e.harness import settings

    db = tmp_path / "bot.sqlite3"
    assert health_check(db)[0] == 1
    async with (
        FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as fake,
        fake.running(PapluBot(settings(db))),
    ):
        await fake.wait_for_commands("rummy")
        await fake.wait_for(lambda: (tmp_path / ".heartbeat").exists())
        code, said = await asyncio.to_thread(health_check, db)
        assert code == 0 and "healthy" in said
    code, said = health_check(db)
    assert code == 1 and "no heartbeat" in said


def test_a_stale_heartbeat_is_unhealthy(tmp_path: Path) -> None:
    from bot import health

    path = health.heartbeat_path(tmp_path / "x.sqlite3")
    health.beat(path)
    assert health.problem(path) is None
    mtime = path.stat().st_mtime
    assert health.problem(path, now=mtime + health.STALE_AFTER - 1) is None
    assert "old" in (health.problem(path, now=mtime + health.STALE_AFTER + 1) or "")
