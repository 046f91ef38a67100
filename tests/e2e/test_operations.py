"""The operator's jobs on databases that real games filled (README, "Operating it").

* `paplu-bot backup` while the bot runs: the copy is restored in another folder and the bot's
  own storage opens it and reads the same leaderboard.
* `paplu-bot migrate-data`: a server played on SQLite (a match, a server setting, a player's
  language, a lobby still open) moves to PostgreSQL. Every table is checked row for row, a
  second copy into the now full database is refused (and `--force` replaces it), then the bot
  runs on PostgreSQL: it restores the lobby, the match is played on it, and its results are
  recorded beside the copied ones (new ids after the copied ones, leaderboards that add up).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Any

import asyncpg

from bot.discord_ui.client import PapluBot
from bot.storage import Storage
from tests.e2e.harness import (
    SCRIPTED_PACE,
    TOKEN,
    TableDriver,
    game_env,
    label_of,
    scripted_pace,
    settings,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.driver import REPO_ROOT
from tests.postgres import postgres_schema, postgres_url_or_skip

TWO = ["alice", "bob"]


async def paplu_bot(*args: str, cwd: Path) -> tuple[int, str, str]:
    """`paplu-bot ARGS` as an operator runs it, beside the running bot (this event loop keeps
    serving the bot while the command runs)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 300)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def boards(storage: Storage, guild_id: int) -> dict[str, list[Any]]:
    """What players read of a server's standing: every leaderboard of the match's profile."""
    out: dict[str, list[Any]] = {}
    for sort in ("rating", "matches_won", "deals_won", "net_chips", "win_rate"):
        rows = await storage.boards.leaderboard(guild_id, "pool101", sort=sort, min_games=1)  # type: ignore[arg-type]
        out[sort] = [(r.rank, r.user_id, r.name, r.value, r.games) for r in rows]
    week = await storage.boards.leaderboard(guild_id, "pool101", sort="deals_won", period="7d")
    out["deals_won, 7 days"] = [(r.rank, r.user_id, r.name, r.value, r.games) for r in week]
    return out


async def test_a_backup_taken_while_the_bot_runs_restores(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 7, next_deal_delay=60.0) as env:
        driver = TableDriver(env.fake, TWO)
        await driver.open("alice", profile="pool101")
        await driver.start("alice")
        assert await driver.play() is not None
        await env.fake.settle(0.3)
        guild = env.fake.guild_id
        live = await boards(env.bot.storage, guild)
        assert live["matches_won"], "the match is on the leaderboard"
        # The bot is running (connected, its database open, recent commits in the WAL).
        (tmp_path / "backups").mkdir()
        code, out, err = await paplu_bot(
            "backup", str(tmp_path / "backups"), "--database", str(tmp_path / "bot.sqlite3"),
            cwd=tmp_path,
        )  # fmt: skip
        assert code == 0, err
        assert "integrity ok" in out
        (made,) = list((tmp_path / "backups").iterdir())
        assert made.name.startswith("paplu-") and made.suffix == ".sqlite3"
        assert not list((tmp_path / "backups").glob("*-wal")), "the backup stands alone"

    # Restored: the backup becomes another bot's database file.
    restored = tmp_path / "restored" / "paplu.sqlite3"
    restored.parent.mkdir()
    shutil.copy(made, restored)
    storage = await Storage.open_url(restored)
    try:
        assert await boards(storage, guild) == live
        history = await storage.boards.recent_deals(guild, env.fake.user("alice").id)
        assert len(history) == 2  # pool101 seed 7: two deals
    finally:
        await storage.close()


# ---- SQLite to PostgreSQL ---------------------------------------------------------------------


def sqlite_rows(path: Path) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every table of the SQLite file but `schema_version`: its columns and its rows (with
    `matches`' rowid, which PostgreSQL keeps as `recorded`)."""
    out = {}
    with contextlib.closing(sqlite3.connect(path)) as conn:
        tables = [
            t
            for (t,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
            if t != "schema_version"
        ]
        for table in tables:
            cols = [c[1] for c in conn.execute(f"PRAGMA table_info({table})")]
            select = ", ".join(cols) + (", rowid" if table == "matches" else "")
            rows = conn.execute(f"SELECT {select} FROM {table}").fetchall()
            out[table] = (cols + (["recorded"] if table == "matches" else []), rows)
    return out


async def postgres_rows(
    url: str, columns: dict[str, list[str]]
) -> dict[str, list[tuple[Any, ...]]]:
    conn = await asyncpg.connect(url)
    try:
        names = {
            r[0]
            for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        }
        assert names - {"schema_version"} == set(columns), "the same tables on both sides"
        return {
            table: [tuple(r) for r in await conn.fetch(f"SELECT {', '.join(cols)} FROM {table}")]
            for table, cols in columns.items()
        }
    finally:
        await conn.close()


def same_rows(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    """Equal as sets of rows, a REAL and a DOUBLE PRECISION compared as numbers."""

    def key(row: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(float(v) if isinstance(v, float) else v for v in row)

    return sorted(map(key, a), key=repr) == sorted(map(key, b), key=repr)


async def test_a_server_moves_from_sqlite_to_postgres_and_plays_on(tmp_path: Path) -> None:
    base = postgres_url_or_skip()
    db = tmp_path / "bot.sqlite3"
    async for url in postgres_schema(base):
        async with FakeDiscord(users=TWO, channels=["general", "later"], token=TOKEN) as fake:
            guild = fake.guild_id
            alice, bob = fake.user("alice").id, fake.user("bob").id

            # ---- played on SQLite
            first = PapluBot(settings(db, 7, next_deal_delay=60.0))
            scripted_pace(fake, client=first)
            async with fake.running(first):
                await fake.wait_for_commands("rummy")
                driver = TableDriver(fake, TWO)
                await driver.open("alice", profile="pool101")
                await driver.start("alice")
                assert await driver.play() is not None
                changed = await fake.slash("alice", "general", "rummy settings", card_images=False)
                assert changed.ephemeral
                chose = await fake.slash("bob", "general", "rummy language", language="hi")
                assert chose.ephemeral
                # A lobby left open when the bot stops: a live table, copied too.
                lobby = TableDriver(fake, TWO, channel="later")
                lobby.languages["bob"] = "hi"  # he reads his own views in Hindi now
                await lobby.open("alice", profile="points")
                await fake.settle(0.3)
                before = await boards(first.storage, guild)
            assert fake.violations == []

            # ---- moved (the bot is stopped: it handed its tables back)
            code, out, err = await paplu_bot(
                "migrate-data", "--from", str(db), "--to", url, cwd=tmp_path
            )
            assert code == 0, err
            assert "every count verified" in out
            source = sqlite_rows(db)
            for table, (_cols, rows) in source.items():
                assert f"  {table:<20} {len(rows):>10,}" in out, (table, out)
            for filled in (
                "deals", "deal_seats", "matches", "match_seats", "player_names", "player_totals",
                "ratings", "rating_history", "period_board", "guild_settings", "user_preferences",
                "game_tables", "game_events", "announcements",
            ):  # fmt: skip
                assert source[filled][1], f"the game left nothing in {filled}"
            copied = await postgres_rows(url, {t: cols for t, (cols, _rows) in source.items()})
            for table, (_cols, rows) in source.items():
                assert same_rows(rows, copied[table]), table

            # Into a database that holds data: refused, nothing changed; --force replaces it.
            code, out, err = await paplu_bot(
                "migrate-data", "--from", str(db), "--to", url, cwd=tmp_path
            )
            assert code == 2 and "already holds data" in err and "--force" in err
            assert await postgres_rows(url, {t: c for t, (c, _r) in source.items()}) == copied
            code, out, err = await paplu_bot(
                "migrate-data", "--from", str(db), "--to", url, "--force", cwd=tmp_path
            )
            assert code == 0, err
            assert "(replaced" in out
            assert await postgres_rows(url, {t: c for t, (c, _r) in source.items()}) == copied

            # ---- played on PostgreSQL: the open lobby is restored and played through
            second = PapluBot(settings(tmp_path / "pg-side.sqlite3", 7, database_url=url))
            second.budget.share *= SCRIPTED_PACE
            async with fake.running(second):
                await fake.wait_for_commands("rummy")
                assert second.storage.dialect == "postgres"
                assert await boards(second.storage, guild) == before
                settings_now = await second.storage.settings.get_settings(guild)
                assert settings_now.card_images is False
                assert (await second.storage.preferences.languages()).get(bob) == "hi"
                table = second.tables.registry.by_channel.get(fake.channel("later").id)
                assert table is not None, "the open lobby came over"
                lobby.lobby = fake.message(lobby.lobby.id)  # type: ignore[union-attr]
                assert label_of(lobby.lobby, "button-start") is not None
                await lobby.start("alice")
                assert await lobby.play() is not None
                await fake.settle(0.3)
                assert second.tables.effects.pending() == 0, "every result recorded"
                after = await boards(second.storage, guild)
                assert after == before, "a points match changes no pool101 board"
                stats = await second.storage.boards.player_stats(guild, alice)
            assert fake.violations == []

        conn = await asyncpg.connect(url)
        try:
            deals = await conn.fetch("SELECT deal_id, match_id FROM deals ORDER BY deal_id")
            old_ids = [r[0] for (r) in source["deals"][1]]
            assert len(deals) == len(old_ids) + 1, "the new match's deal is recorded"
            assert deals[-1][0] == max(old_ids) + 1, "its id follows the copied ones"
            matches = await conn.fetch("SELECT recorded FROM matches ORDER BY recorded")
            assert [r[0] for r in matches][-1] == len(source["matches"][1]) + 1
            pending = await conn.fetchval(
                "SELECT COUNT(*) FROM announcements WHERE delivered_at IS NULL"
            )
            assert pending == 0
        finally:
            await conn.close()
        # The stats read both worlds: the pool101 match copied over and the points one.
        assert set(stats.profiles) >= {"pool101", "points"}
