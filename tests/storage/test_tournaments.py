"""`storage.tournaments` on both backends: one transaction per change (state, event, notes, the
tables a round opens, the places), versions, the outbox, leases, stats, forget-me (0013)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.storage import (
    Storage,
    StorageIntegrityError,
    VersionConflictError,
)
from bot.storage.tournaments import NewTable, PlaceRow, TournamentNote, lease_key
from tests.storage.helpers import G, raw

T = "tour000001"


async def _create(s: Storage, tid: str = T, channel: int = 5) -> None:
    await s.tournaments.create(
        tid,
        guild_id=G,
        channel_id=channel,
        organiser_id=7,
        name="Saturday night",
        status="registration",
        state_json='{"v":1}',
        version=1,
        start_at=1000.0,
        now=10.0,
    )


def _table(table_id: str, channel: int = 5, round_no: int = 1) -> NewTable:
    return NewTable(table_id, G, channel, 7, "playing", "{}", 1, 99.0, round_no)


async def test_a_round_is_seated_with_its_tables_in_one_transaction(st: Storage) -> None:
    await _create(st)
    await st.tournaments.commit(
        T,
        2,
        '{"v":2}',
        '{"type":"start"}',
        status="running",
        name="Saturday night",
        start_at=1000.0,
        notes=[TournamentNote("round_seated", 1)],
        tables=[_table("tab1"), _table("tab2")],
    )
    record = await st.tournaments.load(T)
    assert record is not None and (record.version, record.status) == (2, "running")
    # The tables are ordinary open tables, linked to the tournament and its round, and the
    # channel's one-open-table rule leaves them out (they share the tournament's channel).
    tables = {t.table_id: t for t in await st.tables.load_open_tables()}
    assert set(tables) == {"tab1", "tab2"}
    assert tables["tab1"].tournament_id == T and tables["tab1"].tournament_round == 1
    assert await st.tournaments.table_statuses(T) == {"tab1": "playing", "tab2": "playing"}
    await st.tables.save_table(
        "plain", guild_id=G, channel_id=5, host_id=1, status="lobby", state_json="{}", version=1
    )
    with pytest.raises(StorageIntegrityError):  # an ordinary table: still one a channel
        await st.tables.save_table(
            "plain2", guild_id=G, channel_id=5, host_id=1, status="lobby", state_json="{}",
            version=1,
        )  # fmt: skip
    pending = await st.tournaments.pending(T)
    assert [(n.kind, n.round_no) for n in pending] == [("round_seated", 1)]


async def test_a_failing_round_leaves_nothing_behind(st: Storage) -> None:
    await _create(st)
    await st.tables.save_table(
        "taken", guild_id=G, channel_id=9, host_id=1, status="lobby", state_json="{}", version=1
    )
    with pytest.raises(StorageIntegrityError):  # the second table's id is taken: all fails
        await st.tournaments.commit(
            T, 2, "{}", "{}", status="running", name="x", start_at=1.0,
            notes=[TournamentNote("round_seated", 1)], tables=[_table("new1"), _table("taken")],
        )  # fmt: skip
    record = await st.tournaments.load(T)
    assert record is not None and record.version == 1 and record.status == "registration"
    assert await st.tournaments.pending(T) == []
    assert await st.tournaments.table_statuses(T) == {}


async def test_versions_only_go_forward_and_a_closed_tournament_takes_nothing(
    st: Storage,
) -> None:
    await _create(st)
    await st.tournaments.commit(T, 2, "{}", "{}", status="check_in", name="x", start_at=1.0)
    with pytest.raises(VersionConflictError):
        await st.tournaments.commit(T, 2, "{}", "{}", status="check_in", name="x", start_at=1.0)
    await st.tournaments.commit(T, 3, "{}", "{}", status="cancelled", name="x", start_at=1.0)
    with pytest.raises(VersionConflictError):
        await st.tournaments.commit(T, 4, "{}", "{}", status="running", name="x", start_at=1.0)
    assert await st.tournaments.load_open() == []


async def test_notes_are_marked_once_and_never_revived(st: Storage) -> None:
    await _create(st)
    note = TournamentNote("left_out", 0, '{"users":[1]}')
    await st.tournaments.commit(
        T, 2, "{}", "{}", status="running", name="x", start_at=1.0, notes=[note]
    )
    assert await st.tournaments.mark(T, "left_out")
    assert not await st.tournaments.mark(T, "left_out")
    await st.tournaments.commit(
        T, 3, "{}", "{}", status="running", name="x", start_at=1.0, notes=[note]
    )
    assert await st.tournaments.pending() == []
    with pytest.raises(ValueError):
        await st.tournaments.commit(
            T, 4, "{}", "{}", status="running", name="x", start_at=1.0,
            notes=[TournamentNote("nonsense", 0)],  # type: ignore[arg-type]
        )  # fmt: skip


async def test_places_are_stats_and_forget_me_anonymises_them(st: Storage) -> None:
    await _create(st)
    await st.tournaments.commit(
        T, 2, "{}", "{}", status="finished", name="Saturday night", start_at=1.0,
        places=[PlaceRow("u42", 42, "ann", 1, 3), PlaceRow("u43", 43, "ben", 2, 3),
                PlaceRow("e1", None, "🤖 Easy 1", 3, 2)],
        guild_id=G, players=3,
    )  # fmt: skip
    stats = await st.tournaments.player_stats(G, 42)
    assert (stats.played, stats.won, stats.best) == (1, 1, 1)
    assert (stats.last_name, stats.last_place, stats.last_players) == ("Saturday night", 1, 3)
    assert (await st.tournaments.player_stats(G, 99)).played == 0
    assert [p.name for p in await st.tournaments.places(T)] == ["ann", "ben", "🤖 Easy 1"]
    assert await st.privacy.forget_user(G, 42)
    assert (await st.tournaments.player_stats(G, 42)).played == 0
    assert [p.user_id for p in await st.tournaments.places(T)] == [None, 43, None]


async def test_messages_and_leases(st: Storage) -> None:
    await _create(st)
    await st.tournaments.set_messages(T, {"register": 123456789012345678})
    record = await st.tournaments.load(T)
    assert record is not None and record.messages == {"register": 123456789012345678}
    assert await st.tournaments.orphans(now=50.0) == [(T, G)]
    assert await st.leases.claim_table(lease_key(T), "me", 60.0, now=50.0)
    assert await st.tournaments.orphans(now=60.0) == []
    assert await st.tournaments.orphans(now=111.0) == [(T, G)]  # the lease ran out
    assert not await st.leases.claim_table(lease_key(T), "other", 60.0, now=60.0)
    assert [r.tournament_id for r in await st.tournaments.recent(G)] == [T]


async def test_the_organiser_role_setting(st: Storage) -> None:
    assert (await st.settings.get_settings(G)).organiser_role_id is None
    changed = await st.settings.update_settings(G, organiser_role_id=555000111222333444)
    assert changed.organiser_role_id == 555000111222333444
    changed = await st.settings.update_settings(G, turn_timer=45)
    assert changed.organiser_role_id == 555000111222333444 and changed.turn_timer == 45
    assert (await st.settings.update_settings(G, organiser_role_id=None)).organiser_role_id is None


async def test_0013_applies_after_0011_without_0012(tmp_path: Path) -> None:
    """Migration numbers may have gaps (a sibling feature takes 0012): 0013 applies to a
    database at 0011 whichever merges first."""
    path = tmp_path / "old.db"
    async with await Storage.open(path, migrate_to=11) as old:
        assert await old.schema_version() == 11
    async with await Storage.open(path) as s:
        assert await s.schema_version() >= 13
        await _create(s)
        assert (await s.tournaments.load(T)) is not None


async def test_forget_me_waits_for_an_open_tournament_and_scrubs_a_closed_one(st: Storage) -> None:
    user = 123456789012345678
    state = json.dumps(
        {"entrants": [{"key": f"u{user}", "name": "ann", "user_id": user}], "draw": [f"u{user}"]}
    )
    await st.tournaments.create(
        T, guild_id=G, channel_id=5, organiser_id=7, name="x", status="check_in",
        state_json=state, version=1, start_at=1.0,
    )  # fmt: skip
    assert not await st.privacy.forget_user(G, user), "an open tournament still needs them"
    await st.tournaments.commit(T, 2, state, "{}", status="finished", name="x", start_at=1.0)
    assert await st.privacy.forget_user(G, user)
    record = await st.tournaments.load(T)
    assert record is not None and str(user) not in record.state_json
    assert "ann" not in record.state_json


async def test_forget_me_takes_the_user_out_of_a_tournaments_log_notes_and_places(
    st: Storage,
) -> None:
    """Everything a tournament keeps besides its state: its event log (registering, checking
    in), its notes (who was left out), and the final places, whose entrant keys named the user
    (two forgotten players of one tournament keep distinct rows)."""
    ann, ben, cat = 123456789012345678, 223456789012345678, 323456789012345678
    state = json.dumps({"entrants": [{"key": f"u{ann}", "name": "Ann", "user_id": ann}]})
    await st.tournaments.create(
        T, guild_id=G, channel_id=5, organiser_id=7, name="x", status="registration",
        state_json=state, version=1, start_at=1.0,
    )  # fmt: skip
    log = [{"type": "register", "user": u} for u in (ann, ben, cat)]
    for version, event in enumerate(log, start=2):
        await st.tournaments.commit(
            T, version, state, json.dumps(event), status="registration", name="x", start_at=1.0
        )  # fmt: skip
    left_out = TournamentNote("left_out", 0, json.dumps({"users": [ann, cat]}))
    await st.tournaments.commit(
        T, 5, state, '{"type":"start"}', status="running", name="x", start_at=1.0,
        notes=[left_out],
    )  # fmt: skip
    places = [
        PlaceRow(f"u{ann}", ann, "Ann", 1, 2),
        PlaceRow(f"u{ben}", ben, "Ben", 2, 2),
        PlaceRow(f"u{cat}", cat, "Cat", 3, 1),
    ]
    await st.tournaments.commit(
        T, 6, state, '{"type":"round_done","round":2}', status="finished", name="x",
        start_at=1.0, places=places, guild_id=G, players=3,
    )  # fmt: skip
    assert await st.privacy.forget_user(G, ann)
    assert await st.privacy.forget_user(G, cat)

    events = [str(r[0]) for r in await raw(st, "SELECT event_json FROM tournament_events")]
    notes = [str(r[0]) for r in await raw(st, "SELECT payload_json FROM tournament_outbox")]
    kept = await raw(st, "SELECT entrant, user_id, name FROM tournament_results ORDER BY place")
    for who in (ann, cat):
        assert not any(str(who) in doc for doc in events + notes), who
        assert all(str(who) not in str(row) for row in kept), who
    assert any(str(ben) in doc for doc in events), "another player's log is untouched"
    assert [(str(e), u, n) for e, u, n in kept] == [
        ("u0.1", None, "forgotten player"),
        (f"u{ben}", ben, "Ben"),
        ("u0.2", None, "forgotten player"),
    ]
    assert [p.place for p in await st.tournaments.places(T)] == [1, 2, 3]
