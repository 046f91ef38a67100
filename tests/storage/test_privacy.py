"""Forget-me (bot.storage.privacy)."""

from __future__ import annotations

import json

from bot.storage import (
    DELETED_NAME,
    Storage,
)
from bot.storage.privacy import FORGOTTEN_KEY, scrub
from tests.storage.helpers import NOW, F, G, deal, match, raw, seat, two_player_deal


async def test_forget_user(st: Storage) -> None:
    await st.results.record_deal_result(two_player_deal("m1", 1, 2, 10))
    await st.results.record_deal_result(two_player_deal("m2", 2, 1, 4))
    await st.results.record_deal_result(two_player_deal("x", 3, 1, 1, guild=G + 1))
    await st.results.record_match_result(match("m1", [(1, 1), (2, 2)]))
    await st.boards.leaderboard(
        G, sort="net_chips", period="7d", now=NOW
    )  # materialise period board
    before_2 = await st.boards.player_stats(G, 2)

    await st.privacy.forget_user(G, 1)

    assert (await st.boards.player_stats(G, 1)).profiles == {}
    assert await st.boards.recent_deals(G, 1) == []
    assert await st.boards.rating_history(G, 1) == []
    for period in ("all", "7d"):
        for sort in ("rating", "net_chips", "deals_won"):
            rows = await st.boards.leaderboard(G, sort=sort, period=period, now=NOW)  # type: ignore[arg-type]
            assert [r.user_id for r in rows] == [2], (sort, period)
    # the other player's results and stats are intact
    after_2 = await st.boards.player_stats(G, 2)
    assert after_2 == before_2
    (latest, *_rest) = await st.boards.recent_deals(G, 2)
    assert latest.net in (F(4), F(-10))
    # the forgotten seat is anonymised, not deleted
    names = {r[0] for r in await raw(st, "SELECT name FROM deal_seats WHERE guild_id = ?", (G,))}
    assert names == {"p2", DELETED_NAME}
    left = await raw(st, "SELECT COUNT(*) FROM deal_seats WHERE user_id = 1 AND guild_id = ?", (G,))
    assert left == [(0,)]
    # other guilds are untouched
    assert (await st.boards.player_stats(G + 1, 1)).profiles["points"].deals_played == 1
    # a rebuild afterwards does not resurrect the user
    await st.results.rebuild_summaries(G)
    assert await st.boards.player_rank(G, 1, sort="net_chips", now=NOW) is None


# ------------------------------------------------ documents that name the user

ME = 712345678901234567  # a Discord-sized id, as forget-me meets them
YOU = 798765432109876543
MY_NAME, YOUR_NAME = "Rani", "Vikram"


def _history(deal_no: int) -> str:
    """The shape of an engine hand history: seats with engine keys and names."""
    return json.dumps(
        {
            "deal_number": deal_no,
            "deal_seed": ME + 1,  # a number near the id is not the id
            "seats": [
                {"seat": 0, "player_id": f"u{ME}", "name": MY_NAME},
                {"seat": 1, "player_id": f"u{YOU}", "name": YOUR_NAME},
            ],
            "final": {"0": {"cards": ["Ra", "KS"]}, "1": {"cards": ["AH"]}},
        }
    )


def _state(table_id: str, host: int) -> str:
    """The shape of a saved table: seats, match players, votes, timeouts, a log."""
    return json.dumps(
        {
            "id": table_id,
            "host_id": host,
            "seats": [
                {"key": f"u{ME}", "name": MY_NAME, "user_id": ME, "ai": None},
                {"key": f"u{YOU}", "name": YOUR_NAME, "user_id": YOU, "ai": None},
            ],
            "match": {"players": [[f"u{ME}", MY_NAME], [f"u{YOU}", YOUR_NAME]], "seed": 5},
            "timeouts": {f"u{ME}": 1},
            "next_votes": [f"u{ME}"],
            "log": [
                f"{MY_NAME} drew from the stock",
                f"<@{ME}> timed out",
                "Rania waved",
                {"k": "took", "who": MY_NAME, "card": "KS"},
                {"k": "deal", "n": 1, "by": MY_NAME},
                {
                    "k": "seating_draw",
                    "tie_break": False,
                    "drawn": [[MY_NAME, "KS"], ["Rania", "4H"]],
                },
                {"k": "seats", "order": ["Rania", MY_NAME]},
            ],
        }
    )


async def _seed_documents(st: Storage) -> None:
    seats = [seat(ME, "won", 5, name=MY_NAME), seat(YOU, "lost", -5, 5, name=YOUR_NAME)]
    await st.results.record_deal_result(deal("m1", 1, seats, history=_history(1)))
    for table_id, status, host, channel in (
        ("t-done", "finished", ME, 1),
        ("t-open", "lobby", YOU, 2),
    ):
        await st.tables.save_table(
            table_id, guild_id=G, channel_id=channel, host_id=host, status="lobby",
            state_json=_state(table_id, host) if status == "finished" else '{"seats": []}',
            version=1,
        )  # fmt: skip
        await st.tables.commit_action(
            table_id, 2, _state(table_id, host) if status == "finished" else '{"seats": []}',
            json.dumps({"type": "join", "user": ME}),
        )  # fmt: skip
    await st.tables.close_table("t-done", "finished")


async def test_forget_me_takes_name_and_id_out_of_every_stored_document(st: Storage) -> None:
    await _seed_documents(st)
    assert await st.privacy.forget_user(G, ME)

    [mine] = await st.boards.recent_deals(G, YOU)
    text = await st.boards.hand_history(G, mine.deal_id)
    assert text is not None
    assert str(ME) not in text and MY_NAME not in text  # what the other player downloads
    doc = json.loads(text)
    assert doc["seats"][0] == {"seat": 0, "player_id": FORGOTTEN_KEY, "name": DELETED_NAME}
    assert doc["seats"][1]["name"] == YOUR_NAME and doc["final"]["0"]["cards"] == ["Ra", "KS"]
    assert doc["deal_seed"] == ME + 1

    [(host, state)] = await raw(
        st, "SELECT host_id, state_json FROM game_tables WHERE table_id = 't-done'"
    )
    assert (
        host == 0 and str(ME) not in str(state) and MY_NAME not in str(state).replace("Rania", "")
    )
    table = json.loads(str(state))
    assert table["seats"][0] == {
        "key": FORGOTTEN_KEY,
        "name": DELETED_NAME,
        "user_id": None,
        "ai": None,
    }
    assert table["match"]["players"][0] == [FORGOTTEN_KEY, DELETED_NAME]
    assert table["log"] == [
        f"{DELETED_NAME} drew from the stock",
        "<@0> timed out",
        "Rania waved",  # a longer word that contains the name is another word
        {"k": "took", "who": DELETED_NAME, "card": "KS"},  # a record: its name fields
        {"k": "deal", "n": 1, "by": DELETED_NAME},
        {"k": "seating_draw", "tie_break": False, "drawn": [[DELETED_NAME, "KS"], ["Rania", "4H"]]},
        {"k": "seats", "order": ["Rania", DELETED_NAME]},
    ]
    assert table["seats"][1]["user_id"] == YOU  # the other player is untouched
    events = await raw(st, "SELECT event_json FROM game_events")
    assert events and all(str(ME) not in str(e) for (e,) in events)  # open tables' too
    assert all(str(ME) not in str(r) for r in await raw(st, "SELECT * FROM deal_seats"))


async def test_forget_me_waits_while_an_open_table_has_the_user(st: Storage) -> None:
    await st.results.record_deal_result(two_player_deal("m1", ME, YOU, 10))
    await st.tables.save_table(
        "t", guild_id=G, channel_id=3, host_id=YOU, status="playing",
        state_json=_state("t", YOU), version=1,
    )  # fmt: skip
    assert not await st.privacy.forget_user(G, ME)
    assert len(await st.boards.recent_deals(G, ME)) == 1  # nothing changed
    await st.tables.close_table("t", "finished")
    assert await st.privacy.forget_user(G, ME)
    assert await st.boards.recent_deals(G, ME) == []


async def test_forget_me_again_cleans_histories_an_older_version_left(st: Storage) -> None:
    """Before this, forget-me anonymised seats but kept hand histories as they were."""
    seats = [seat(ME, "won", 5, name=MY_NAME), seat(YOU, "lost", -5, 5, name=YOUR_NAME)]
    await st.results.record_deal_result(deal("m1", 1, seats, history=_history(1)))
    await raw(
        st, "UPDATE deal_seats SET user_id = NULL, name = '(deleted)' WHERE user_id = ?", (ME,)
    )
    assert await st.privacy.forget_user(G, ME)
    [(text,)] = await raw(st, "SELECT hand_history FROM deals")
    assert str(ME) not in str(text) and MY_NAME not in str(text)


def test_small_numbers_are_not_taken_for_an_id() -> None:
    doc = {"seat": 2, "scores": {"2": "2"}, "seats": [{"key": "u2", "name": "two", "user_id": 2}]}
    assert scrub(doc, 2) == {
        "seat": 2,
        "scores": {"2": "2"},
        "seats": [{"key": FORGOTTEN_KEY, "name": DELETED_NAME, "user_id": None}],
    }


# ------------------------------------------------ every column accounted for


async def _live_columns(st: Storage) -> set[tuple[str, str]]:
    """Every (table, column) of the database as it stands, read from its own catalogue."""
    if st.dialect == "sqlite":
        tables = [
            str(t)
            for (t,) in await raw(
                st,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            )
        ]
        return {(t, str(c[1])) for t in tables for c in await raw(st, f"PRAGMA table_info({t})")}
    rows = await raw(
        st,
        "SELECT c.table_name, c.column_name FROM information_schema.columns AS c"
        " JOIN information_schema.tables AS t"
        " ON t.table_name = c.table_name AND t.table_schema = c.table_schema"
        " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'",
    )
    return {(str(t), str(c)) for t, c in rows}


async def test_every_column_of_the_schema_says_what_forget_me_does_with_it(st: Storage) -> None:
    """A migration that adds a table or a column fails here until `privacy.COLUMNS` says
    whether it can hold a player's id or name, and forget-me handles it."""
    from bot.storage.privacy import COLUMNS

    live = await _live_columns(st)
    registry = {(t, c) for t, cols in COLUMNS.items() for c in cols}
    missing = sorted(live - registry)
    assert not missing, f"columns forget-me knows nothing about: {missing}"
    # The registry names nothing that does not exist (PostgreSQL's `matches.recorded` stands
    # for SQLite's rowid, so SQLite lacks it).
    only_elsewhere = {("matches", "recorded")} if st.dialect == "sqlite" else set()
    assert registry - live == only_elsewhere


def test_what_forget_me_does_follows_the_registry() -> None:
    from bot.storage import privacy
    from bot.storage.privacy import COLUMNS, KEPT, SCRUBBED_DOCUMENTS, Handling

    by = {
        h: {(t, c) for t, cols in COLUMNS.items() for c, v in cols.items() if v is h}
        for h in Handling
    }
    assert set(KEPT) == by[Handling.KEPT], "every column kept says why"
    assert by[Handling.SCRUBBED] == set(SCRUBBED_DOCUMENTS) | {
        ("game_tables", "host_id"),
        ("tournaments", "organiser_id"),
    }
    for handling, tables in [
        (Handling.DELETED, privacy._PERSONAL_TABLES),
        (Handling.ANONYMISED, privacy._SEAT_TABLES),
    ]:
        assert {t for t, _c in by[handling]} == set(tables)
        for table in tables:  # the statements need these
            assert {"guild_id", "user_id"} <= set(COLUMNS[table])
    assert {t for t, c in by[Handling.ANONYMISED]} == {
        "deal_seats",
        "match_seats",
        "tournament_results",
    }
    # A column whose name says it is about a person cannot be waved through as "nothing".
    personal_names = [
        (t, c)
        for (t, c) in by[Handling.NONE]
        if "user" in c or c in ("name", "host_id") or c.endswith("_json")
    ]
    assert sorted(personal_names) == [
        ("schema_version", "name"),  # a migration's name
        ("tournaments", "messages_json"),  # Discord message ids, bookkeeping
        ("tournaments", "name"),  # the tournament's name, as its organiser gave it
    ]
