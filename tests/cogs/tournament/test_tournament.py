"""A tournament night through the fake Discord: 14 players (eleven people and three AI players,
one deal a round: a round of several deals is played in `tests/table/test_tournaments.py`)
from registration to the final, with a twelfth person who registers and
never checks in, one who checks in and never plays (played for, then dropped after three
timeouts, as at any table), and the bot killed (SIGKILL) and started again in the middle of round 2.

The bot runs as its real entry point (`python -m bot`), so the kill is a crash: whatever was
stored goes on, and nothing is posted twice (each round's message, the final standings). The
people play only through what their own views show (`TableDriver`, one per table thread). At the
end the tournament's record (`/rummy tournament record`) is checked against the rules: one place
each, one winner, each seating reproducible from its revealed draw and salt.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.table import bracket
from bot.table.bracket import Advance
from tests.e2e.harness import (
    SCRIPTED_PACE,
    TOKEN,
    TableDriver,
    footer,
    labels,
    results_deal,
    scripted_pace,
)
from tests.fakediscord import (
    PERM_MEMBER_DEFAULT,
    PERM_THREADS,
    BotProcess,
    FakeChannel,
    FakeDiscord,
    StoredMessage,
)

PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
SLEEPY = "mallory"  # checks in, then never touches a card
GHOST = "oscar"  # registers, never checks in
USERS = [*PEOPLE, SLEEPY, GHOST]
AI_PLAYERS = 3
NAME = "Friday night"


def title_of(msg: StoredMessage) -> str:
    return " ".join(e.get("title") or "" for e in msg.embeds)


def round_messages(fake: FakeDiscord, number: int) -> list[StoredMessage]:
    """The channel's messages of round `number` (their footer names the round)."""
    mark = f"· round {number}"
    return [m for m in fake.public_messages("general") if footer(m).endswith(mark)]


def threads(fake: FakeDiscord, round_no: int) -> list[FakeChannel]:
    prefix = f"R{round_no} T"
    return sorted(
        (c for c in fake.server.channels.values() if c.is_thread and c.name.startswith(prefix)),
        key=lambda c: c.name,
    )


def over(fake: FakeDiscord, thread: FakeChannel) -> bool:
    return any(
        results_deal(m) is not None and "Match over" in footer(m)
        for m in fake.public_messages(thread.id)
    )


async def play_round(
    fake: FakeDiscord, round_no: int, tables: int, handled: set[int] | None = None
) -> None:
    """Every person plays their table of the round, each table in its thread at once."""
    await fake.wait_for(
        lambda: len(threads(fake, round_no)) == tables,
        60,
        message=lambda: f"round {round_no} has threads {threads(fake, round_no)}",
    )
    drivers = []
    for thread in threads(fake, round_no):
        if over(fake, thread):
            continue
        driver = TableDriver(fake, [*PEOPLE, SLEEPY], thread.id, silent={SLEEPY})
        driver.handled |= handled or set()
        drivers.append(driver.play(max_turns=600, timeout=120))
    await asyncio.gather(*drivers)


async def launch(fake: FakeDiscord, env: dict[str, str]) -> BotProcess:
    proc = await fake.launch("bot", env=env, timeout=60)
    await fake.wait_for_commands("rummy", timeout=30)
    return proc


async def test_a_tournament_night_with_a_crash_in_round_two(tmp_path: Path) -> None:
    env = {
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "DECK_SEED": "11",
        "AI_DELAY": "0",
        "NEXT_DEAL_DELAY": "2",
        "LOG_LEVEL": "WARNING",
        "FAKE_DISCORD_PACE": str(SCRIPTED_PACE),
    }
    permissions = PERM_MEMBER_DEFAULT | PERM_THREADS
    async with FakeDiscord(
        users=USERS, channels=["general"], token=TOKEN, bot_permissions=permissions
    ) as fake:
        # Scripted players act about ten times faster than people, and Discord's windows run
        # as fast (the 60-player load test keeps them at their real length).
        scripted_pace(fake)
        proc = await launch(fake, env)
        try:
            await registration(fake)
            # Round 1: 14 players at tables of up to 4, two going through from each.
            await play_round(fake, 1, tables=4)
            # Round 2: 8 players at two tables; the bot is killed once play has begun.
            await fake.wait_for(lambda: len(threads(fake, 2)) == 2, 90)
            two = threads(fake, 2)
            started = TableDriver(fake, [*PEOPLE, SLEEPY], two[0].id)
            await fake.wait_for(lambda: started._next_event() is not None, 60)
            assert await proc.kill() != 0
            mark = len(fake.server.request_log)
            proc = await launch(fake, env)
            await fake.wait_for(
                lambda: any(
                    method in ("PATCH", "POST") and path.startswith("/channels/")
                    for method, path, _ in fake.server.request_log[mark:]
                ),
                30,
                message="the restarted bot never resumed",
            )
            await play_round(fake, 2, tables=2)
            # The final: the four who went through, at one table.
            await fake.wait_for(lambda: len(threads(fake, 3)) == 1, 90)
            await play_round(fake, 3, tables=1)
            await fake.wait_for(
                lambda: any(
                    "final standings" in title_of(m) for m in fake.public_messages("general")
                ),
                60,
                message="no final standings",
            )
            await fake.settle(1.0)
            record = await the_record(fake)
            check(fake, record)
            violations = await fake.wait_idle()
            assert violations == [], "\n".join(map(str, violations)) + proc.log()
        finally:
            await proc.terminate()


async def registration(fake: FakeDiscord) -> None:
    """Everyone registers; check-in opens (the organiser brings the start closer); all but
    the ghost check in; three AI players are entered; the organiser starts it."""
    created = await fake.slash(
        "alice", "general", "rummy tournament create", name=NAME, seats=4, advance=2, deals=1,
        start_in=30, turn_timer=15, hints="off",
    )  # fmt: skip
    assert created.message is not None and not created.ephemeral
    board = created.message
    for user in USERS:
        r = await fake.click(user, fake.message(board.id), label="Register")
        assert r.ephemeral and "You are registered" in r.text, r
    again = await fake.click("bob", fake.message(board.id), label="Register")
    assert again.ephemeral and again.text == "You are already registered."
    stranger = await fake.slash("bob", "general", "rummy tournament start")
    assert stranger.ephemeral and "Only its organiser" in stranger.text
    moved = await fake.slash("alice", "general", "rummy tournament delay", minutes=5, timeout=30)
    assert moved.ephemeral and "The start is now" in moved.text
    await fake.wait_for(
        lambda: "I'm here" in labels(fake.message(board.id)), 10, message="no check-in"
    )
    for user in [*PEOPLE, SLEEPY]:
        r = await fake.click(user, fake.message(board.id), label="I'm here")
        assert r.ephemeral and "checked in" in r.text, r
    added = await fake.slash("alice", "general", "rummy tournament add-ai", count=AI_PLAYERS,
                             tier="easy", timeout=30)  # fmt: skip
    assert added.ephemeral and "3 AI players entered" in added.text
    started = await fake.slash("alice", "general", "rummy tournament start", timeout=60)
    assert started.ephemeral and started.text == "The tournament has started.", started
    await fake.wait_for(lambda: len(threads(fake, 1)) == 4, 60, message="no round-1 tables")


async def the_record(fake: FakeDiscord) -> dict[str, Any]:
    asked = await fake.slash("alice", "general", "rummy tournament record")
    await asked.wait(10)
    upload = next(u for u in reversed(fake.uploads) if u.filename.startswith("tournament-"))
    assert upload.visible_to == fake.user("alice").id, "the record is a private answer"
    record: dict[str, Any] = json.loads(upload.data)
    return record


def check(fake: FakeDiscord, record: dict[str, Any]) -> None:
    players = record["players"]
    assert record["status"] == "finished" and len(players) == 14
    ghost = f"u{fake.user(GHOST).id}"
    sleepy = f"u{fake.user(SLEEPY).id}"
    assert ghost not in players, "who never checked in is left out"
    assert sorted(record["places"]) == sorted(players), "one place each"
    assert [p for p, place in record["places"].items() if place == 1] == [record["winner"]]
    # The left-out player was told privately, once.
    told = [m for m in fake.dm_messages(GHOST) if NAME in m.content]
    assert len(told) == 1 and "did not check in" in told[0].content
    # Each round's seating is the one its revealed draw and salt give, under the stated rule.
    advance = Advance.from_dict(record["options"]["advance"])
    seats = record["options"]["seats"]
    rounds = record["rounds"]
    assert [len(r["tables"]) for r in rounds] == [4, 2, 1]
    for r in rounds:
        assert bracket.commit(r["number"], r["salt"], r["draw"]) == r["commitment"]
        tables = [[k for k in t["seats"] if k not in t["fillers"]] for t in r["tables"]]
        assert bracket.verify(r["commitment"], r["number"], r["salt"], r["draw"], seats, advance,
                              tables, r["byes"])  # fmt: skip
    # The sleeper was played for, then dropped after three timeouts, and went no further.
    first = next(t for t in rounds[0]["tables"] if sleepy in t["seats"])
    assert sleepy not in first["advanced"] and record["places"][sleepy] > 4
    thread = next(c for c in threads(fake, 1) if c.name == f"R1 T{first['number']} · {NAME}")
    results = [m for m in fake.public_messages(thread.id) if results_deal(m) is not None]
    assert any("after 3 timeouts in a row" in fake.render(m) for m in results)
    # Nothing announced twice, across the crash: one message a round, one final standings.
    for number in (1, 2, 3):
        assert len(round_messages(fake, number)) == 1, number
    finals = [m for m in fake.public_messages("general") if "final standings" in title_of(m)]
    picture = f"standings-{record['tournament']}.png"
    assert len(finals) == 1 and finals[0].attachment_names == [picture]
    # The round message was kept current while the round ran (edited, not reposted).
    assert all(len(m.edits) >= 1 for n in (1, 2) for m in round_messages(fake, n))
