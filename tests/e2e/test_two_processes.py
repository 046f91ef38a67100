"""Two shard processes over one database: `python -m bot` twice, `SHARD_COUNT=2` with
`SHARD_IDS=0` and `SHARD_IDS=1`, on one fake Discord and one database (PostgreSQL, as in
production; SQLite too, one file shared by both). Both start at once on a fresh database, as
`docker compose up` starts them. Tables in both shards' guilds play full matches at the same
time, humans through the buttons of their views and an AI seat each.

Nothing is stepped on:

* each process identified only its own shard and was sent only its guilds' interactions;
* every REST call acting in a guild (a channel's messages, an interaction's answer) came from
  the process of that guild's shard (the fake tells processes apart by ``X-Fake-Client``);
* every open table's lease is held by its shard's process, and released when it finishes;
* each deal's result is recorded exactly once (rows in the shared database, one results
  message per deal), and `/rummy stats` in either guild, answered by its own process, counts
  exactly that guild's games;
* every interaction answered, no Discord rule broken, no error and no lease warning in either
  log.

A third process, misconfigured with both shards, starts while the matches run: it finds every
open table held by another process, says so in its log, and touches none of them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.engine.hints import HintLevel
from bot.storage import Storage
from bot.table import errors
from bot.words import text
from bot.words.refusals import refusal_text
from tests.e2e.harness import (
    SCRIPTED_PACE,
    TOKEN,
    TableDriver,
    embed_field,
    footer,
    results_deal,
    scripted_pace,
)
from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.driver import DEADLINE
from tests.postgres import postgres_schema, postgres_url_or_skip

# Guilds on shard 0 and shard 1 of 2: Discord's rule is (guild_id >> 22) % shard_count.
GUILD_0 = (2_000_000 << 22) + 7
GUILD_1 = (2_000_001 << 22) + 7
GUILDS = {0: GUILD_0, 1: GUILD_1}
USERS = ["alice", "bob", "carol", "dave"]
SEED = "11"
TIMEOUT = DEADLINE  # any one wait; generous, the machine may be loaded
# What a player reads when the process that got the click does not have the table.
REFUSED = [
    *(
        refusal_text(r, "en")
        for r in (
            errors.NoTableHere(),
            errors.TableClosed(),
            errors.WrongPlace(),
            errors.ChannelBusy(in_lobby=False),
        )
    ),
    text("en", "error-sorry"),
]


@dataclass(frozen=True)
class Game:
    """One table: where, who, which rules, how many deals the match has."""

    channel: str
    shard: int
    humans: tuple[str, str]
    options: dict[str, Any]
    deals: int


# The same humans play in both guilds at once: stats must not mix the guilds up.
GAMES = [
    Game(f"{kind}-{shard}", shard, humans, options, deals)
    for shard in (0, 1)
    for kind, humans, options, deals in (
        # Shard 1's points table plays with hints off (rated play): `/rummy check` is refused
        # to its players in either guild, by either process.
        (
            "points",
            ("alice", "bob"),
            {"profile": "points", "hints": "off"} if shard else {"profile": "points"},
            1,
        ),
        ("deals", ("carol", "dave"), {"profile": "deals", "deals": 2}, 2),
    )
]


@pytest.fixture(params=["postgres", "sqlite"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where both processes keep their data: a fresh PostgreSQL schema, or one SQLite file."""
    if request.param == "sqlite":
        yield str(tmp_path / "shared.sqlite3")
        return
    url = postgres_url_or_skip()
    async for schema_url in postgres_schema(url):
        yield schema_url


def logs(procs: dict[str, BotProcess]) -> str:
    return "".join(f"\n===== {name} log =====\n{p.log()[-6000:]}" for name, p in procs.items())


async def launch_together(
    fake: FakeDiscord, procs: dict[str, BotProcess], env: dict[str, str], shards: dict[str, str]
) -> None:
    """Start one process per entry of ``shards`` (client name -> SHARD_IDS) at once, and wait
    until each has identified and synced its commands."""
    for client, ids in shards.items():
        procs[client] = await fake.launch(
            "bot", env={**env, "SHARD_IDS": ids}, client=client, wait=False
        )

    def exited() -> str | None:
        dead = [n for n in shards if procs[n].process.returncode is not None]
        return f"{dead} exited during start-up" + logs(procs) if dead else None

    await fake.wait_for(
        lambda: {c for c, _ in fake.server.identified_by} >= set(shards),
        TIMEOUT,
        message=lambda: "the processes did not all identify" + logs(procs),
        abort=exited,
    )
    await fake.wait_for_commands("rummy", timeout=TIMEOUT)


async def check_is_refused_across_processes(fake: FakeDiscord) -> None:
    """Bob plays shard 1's hints-off table (and shard 0's full-hints one): `/rummy check`
    typed in either guild is refused, though shard 0's process does not hold the table that
    hides the ruling (it reads the open tables of the database). Carol, at full-hints tables
    only, gets her ruling from either process."""
    hidden = refusal_text(errors.RulingHidden(HintLevel.OFF), "en")
    hand = "4H 5H 6H 9S 10S JS 7C 7D 7S AC 2C 3C 4C"
    for channel in ("points-0", "points-1"):
        asked = await fake.slash("bob", channel, "rummy check", hand=hand, indicator="8D",
                                 timeout=TIMEOUT)  # fmt: skip
        await asked.wait(TIMEOUT)
        assert asked.ephemeral and asked.text == hidden, (channel, asked)
        other = await fake.slash("carol", channel, "rummy check", hand=hand, indicator="8D",
                                 timeout=TIMEOUT)  # fmt: skip
        await other.wait(TIMEOUT)
        assert other.ephemeral and other.text != hidden, other


async def stats_text(fake: FakeDiscord, user: str, channel: str) -> str:
    result = await fake.slash(user, channel, "rummy stats", timeout=TIMEOUT)
    await result.wait(TIMEOUT)
    return fake.render(result.message.id) if result.message else ""


def played(text: str, what: str) -> int:
    """“Matches: 1 played” / “Deals: 2 played” in a stats card (0 if absent)."""
    found = re.findall(rf"{what}: (\d+) played", text)
    return sum(int(n) for n in found)


async def count_results(storage: Storage) -> dict[str, dict[int, int]]:
    """Deal and match rows per guild, straight from the shared database."""

    out: dict[str, dict[int, int]] = {}
    async with storage._db.reading() as conn:
        for table in ("deals", "matches"):
            sql = f"SELECT guild_id, COUNT(*) FROM {table} GROUP BY guild_id"
            out[table] = {int(g): int(n) for g, n in await conn.fetchall(sql)}
        dupes = "SELECT match_id, deal_no FROM deals GROUP BY match_id, deal_no HAVING COUNT(*) > 1"
        assert await conn.fetchall(dupes) == []
    return out


async def test_two_shard_processes_share_one_database(tmp_path: Path, database: str) -> None:
    (tmp_path / "data").mkdir()  # a DATABASE_PATH's folder must exist (only ./data is made)
    env = {
        "DATABASE_URL": database,
        "DATABASE_PATH": str(tmp_path / "data" / "bot.sqlite3"),  # the command-sync marker
        "SHARD_COUNT": "2",
        "AI_DELAY": "0",
        "NEXT_DEAL_DELAY": "60",  # the players click “Next deal”
        "DECK_SEED": SEED,
        "LOG_LEVEL": "INFO",
        # The fake's windows run at the scripted players' pace (below); so does each bot.
        "FAKE_DISCORD_PACE": str(SCRIPTED_PACE),
    }
    owner = {GUILD_0: "shard-0", GUILD_1: "shard-1"}
    procs: dict[str, BotProcess] = {}
    # This test is about who acts, not how fast: a generous acknowledgement deadline keeps a
    # loaded machine from failing it (an interaction never answered still fails it).
    async with FakeDiscord(
        users=USERS, channels=[], guild_id=GUILD_0, token=TOKEN, ack_deadline=15.0
    ) as fake:
        scripted_pace(fake)
        fake.add_guild("Shard One Guild", GUILD_1)
        for game in GAMES:
            fake.add_channel(game.channel, guild_id=GUILDS[game.shard])
        try:
            await launch_together(fake, procs, env, {"shard-0": "0", "shard-1": "1"})
            assert sorted(fake.server.identified_by) == [("shard-0", [0, 2]), ("shard-1", [1, 2])]

            # Open and start every table at once, then look at the leases while they play.
            drivers = [TableDriver(fake, list(g.humans), g.channel) for g in GAMES]

            async def open_and_start(driver: TableDriver, game: Game) -> None:
                await driver.open(game.humans[0], ai=["medium"], **game.options)
                await driver.start(game.humans[0])

            await asyncio.gather(
                *(open_and_start(d, g) for d, g in zip(drivers, GAMES, strict=True))
            )
            table_ids: dict[str, int] = {}  # table id -> its shard
            async with await Storage.open_url(database) as storage:  # as an admin would
                for shard, guild in GUILDS.items():
                    open_tables = await storage.tables.load_open_tables(guild)
                    assert len(open_tables) == 2, (shard, open_tables)
                    for record in open_tables:
                        holder = await storage.leases.table_owner(record.table_id)
                        assert holder is not None, record.table_id
                        assert holder.owner.endswith(f":shards {shard} of 2"), holder
                        table_ids[record.table_id] = shard

            # A misconfigured third process (both shards) finds every table held and says
            # so; it comes up (connected, ready) while the matches go on, touching nothing.
            intruder = procs["intruder"] = await fake.launch(
                "bot", env={**env, "SHARD_IDS": "0-1"}, client="intruder", wait=False
            )

            async def intruder_says(text: str, count: int = 1) -> None:
                await fake.wait_for(
                    lambda: intruder.log().count(text) >= count,
                    TIMEOUT,
                    message=lambda: f"the intruder never logged {text!r}" + logs(procs),
                    abort=lambda: (
                        "the intruder exited" + logs(procs)
                        if intruder.process.returncode is not None
                        else None
                    ),
                )

            await intruder_says("is driven by another process", len(table_ids))
            await check_is_refused_across_processes(fake)

            async def play_one(driver: TableDriver) -> Any:
                final = await driver.play(timeout=TIMEOUT)
                assert final is not None
                return final

            *finals, _ = await asyncio.gather(
                *(play_one(d) for d in drivers), intruder_says("logged in as")
            )
            await procs.pop("intruder").terminate()
        except BaseException:
            for p in procs.values():
                await p.terminate()
            raise
        try:
            # Every match ran to its end in its own channel, one results message per deal.
            for game, final in zip(GAMES, finals, strict=True):
                results = [m for m in fake.public_messages(game.channel) if results_deal(m)]
                assert [results_deal(m) for m in results] == list(range(1, game.deals + 1))
                assert "Match over — winner:" in footer(final), game
                assert len((embed_field(final, "Standings") or "").splitlines()) == 3

            # Stats from the shared database, each guild's asked of its own process.
            for game in GAMES:
                text = await stats_text(fake, game.humans[1], game.channel)
                assert played(text, "Matches") == 1, (game, text)
                assert played(text, "Deals") == game.deals, (game, text)

            violations = await fake.wait_idle(timeout=TIMEOUT)
            assert violations == [], "\n".join(map(str, violations)) + logs(procs)
            # Nobody was told the table is elsewhere, closed, busy, or that something broke.
            for msg in fake.server.messages.values():
                said = msg.text()
                assert not any(r in said for r in REFUSED), said
        finally:
            codes = {name: await p.terminate() for name, p in procs.items()}

        server = fake.server
        # Each interaction went to its guild's process, and was answered.
        for rec in server.interactions.values():
            where = server.guild_of(server.channels[rec.channel_id])
            assert where is not None and rec.delivered_to == owner[where], (rec, where)
            assert rec.acknowledged, rec
        # Each guild's messages were posted, edited and answered by its own process only.
        acted: dict[str, set[int]] = {}
        for call in server.calls:
            in_guild = server.guild_of_call(call)
            if in_guild is not None:
                acted.setdefault(call.client or "?", set()).add(in_guild)
                assert call.client == owner[in_guild], call
        assert acted == {"shard-0": {GUILD_0}, "shard-1": {GUILD_1}}, acted

    async with await Storage.open_url(database) as storage:
        counts = await count_results(storage)
        per_guild = {
            g: sum(x.deals for x in GAMES if GUILDS[x.shard] == g) for g in GUILDS.values()
        }
        assert counts["deals"] == per_guild, counts
        assert counts["matches"] == {GUILD_0: 2, GUILD_1: 2}, counts
        for table_id in table_ids:  # finished: closed and handed back
            closed = await storage.tables.load_table(table_id)
            assert closed is not None and closed.status == "finished", closed
            assert await storage.leases.table_owner(table_id) is None

    # The intruder named each table and its holder, and touched nothing (see `acted`).
    held = intruder.log()
    assert "running shards [0, 1] of 2" in held
    for table_id, shard in table_ids.items():
        named = rf"table {table_id} is driven by another process \(\S+:shards {shard} of 2,"
        assert re.search(named, held), held
    assert not re.search(r"ERROR|Traceback", held), held
    problems = re.compile(r"ERROR|Traceback|driven by another process|lost table|took over")
    for name, text in {n: p.log() for n, p in procs.items()}.items():
        assert not problems.search(text), f"{name}:\n{text[-6000:]}"
        assert f"running shards [{name[-1]}] of 2" in text
    assert all(code == 0 for code in codes.values()), codes
