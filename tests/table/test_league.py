"""The league service's rules, without Discord: who may download a hand history, how a
settings change merges with what is stored, when forget-me expires, and boards that do
not exist."""

from __future__ import annotations

from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest

from bot.storage import DealRecord, DealSeatRecord, Storage
from bot.table import errors
from bot.table.league import FORGET_TTL, League, SettingsChange
from bot.table.scheduler import ManualClock

GUILD = 1000
ALICE, BOB, CAROL = 11, 22, 33


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "league.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def league(storage: Storage, clock: ManualClock) -> League:
    return League(storage, clock)


async def one_deal(storage: Storage) -> int:
    """Alice beat Bob in one deal; returns its id."""
    seats = [
        DealSeatRecord(ALICE, "alice", False, "won", Fraction(0), Fraction(20)),
        DealSeatRecord(BOB, "bob", False, "lost", Fraction(20), Fraction(-20)),
    ]
    record = DealRecord(GUILD, "tbl1", 1, "points", 1_700_000_000, '{"deal": 1}', seats)
    assert await storage.results.record_deal_result(record)
    rows = await storage.boards.recent_deals(GUILD, ALICE)
    return rows[0].deal_id


async def test_a_hand_history_is_for_the_deals_players_and_managers(
    league: League, storage: Storage
) -> None:
    deal_id = await one_deal(storage)
    assert await league.download(GUILD, ALICE, False, deal_id) == '{"deal": 1}'
    assert await league.download(GUILD, BOB, False, deal_id) == '{"deal": 1}'
    with pytest.raises(errors.HistoryPlayersOnly):
        await league.download(GUILD, CAROL, False, deal_id)
    assert await league.download(GUILD, CAROL, True, deal_id) == '{"deal": 1}'
    with pytest.raises(errors.HistoryPlayersOnly):  # another server's players: not theirs
        await league.download(GUILD + 1, ALICE, False, deal_id)


@pytest.mark.parametrize("deal_id", [0, -1, 2**63, 9999999999999999999])
async def test_a_tampered_deal_id_is_refused_not_a_crash(league: League, deal_id: int) -> None:
    with pytest.raises(errors.DealGone):
        await league.download(GUILD, ALICE, True, deal_id)


async def test_history_offers_only_what_the_asker_may_download(
    league: League, storage: Storage
) -> None:
    await one_deal(storage)
    own = await league.history(GUILD, ALICE, ALICE, False)
    assert len(own.rows) == 1 and own.downloadable == own.rows
    stranger = await league.history(GUILD, ALICE, CAROL, False)
    assert len(stranger.rows) == 1 and stranger.downloadable == []
    opponent = await league.history(GUILD, ALICE, BOB, False)
    assert opponent.downloadable == opponent.rows
    manager = await league.history(GUILD, ALICE, CAROL, True)
    assert manager.downloadable == manager.rows


async def test_settings_merge_with_what_is_stored(league: League) -> None:
    first = await league.change_settings(GUILD, SettingsChange(allow_channel=5))
    assert first.settings.allowed_channel_ids == frozenset({5})
    assert first.changed == [("allowed", 5)]
    second = await league.change_settings(GUILD, SettingsChange(allow_channel=6, turn_timer=45))
    assert second.settings.allowed_channel_ids == frozenset({5, 6})
    assert second.settings.turn_timer == 45
    third = await league.change_settings(GUILD, SettingsChange(remove_channel=5))
    assert third.settings.allowed_channel_ids == frozenset({6})
    nothing = await league.change_settings(GUILD, SettingsChange())
    assert nothing.changed == [] and nothing.settings == third.settings


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (SettingsChange(all_channels=True, allow_channel=5), errors.SettingsProblem.ALL_AND_LIST),
        (
            SettingsChange(allow_channel=5, remove_channel=5),
            errors.SettingsProblem.ALLOW_AND_REMOVE,
        ),
        (SettingsChange(default_profile="poker"), errors.SettingsProblem.UNKNOWN_PROFILE),
        (SettingsChange(remove_channel=5), errors.SettingsProblem.EVERY_CHANNEL_ALREADY),
    ],
)
async def test_impossible_settings_are_refused_and_change_nothing(
    league: League, storage: Storage, change: SettingsChange, problem: errors.SettingsProblem
) -> None:
    before = await storage.settings.get_settings(GUILD)
    with pytest.raises(errors.SettingsConflict) as refused:
        await league.change_settings(GUILD, change)
    assert refused.value.problem is problem
    assert await storage.settings.get_settings(GUILD) == before


async def test_the_last_allowed_channel_cannot_be_removed(league: League) -> None:
    await league.change_settings(GUILD, SettingsChange(allow_channel=5))
    with pytest.raises(errors.SettingsConflict) as last:
        await league.change_settings(GUILD, SettingsChange(remove_channel=5))
    assert last.value.problem is errors.SettingsProblem.LAST_CHANNEL
    with pytest.raises(errors.SettingsConflict) as missing:
        await league.change_settings(GUILD, SettingsChange(remove_channel=7))
    assert missing.value.problem is errors.SettingsProblem.NOT_ON_LIST and missing.value.params == {
        "channel": 7
    }


async def test_forget_me_expires_and_then_deletes(
    league: League, storage: Storage, clock: ManualClock
) -> None:
    await one_deal(storage)
    issued = int(clock.now())
    await clock.advance(FORGET_TTL + 1)
    assert await league.forget(GUILD, ALICE, issued) == "expired"
    assert len(await storage.boards.recent_deals(GUILD, ALICE)) == 1  # nothing deleted
    assert await league.forget(GUILD, ALICE, int(clock.now())) == "done"
    assert await storage.boards.recent_deals(GUILD, ALICE) == []


@pytest.mark.parametrize(
    ("profile", "sort", "period", "page"),
    [
        ("poker", "rating", "all", 0),
        (None, "luck", "all", 0),
        (None, "rating", "1y", 0),
        (None, "rating", "all", -1),
    ],
)
async def test_a_board_that_does_not_exist_is_refused(
    league: League, profile: str | None, sort: str, period: str, page: int
) -> None:
    with pytest.raises(errors.BadBoard):
        await league.leaderboard(GUILD, ALICE, page, profile, sort, period, page_size=10)


async def test_a_board_page_knows_whether_another_follows(league: League, storage: Storage) -> None:
    await one_deal(storage)
    page = await league.leaderboard(GUILD, ALICE, 0, None, "deals_won", "all", page_size=1)
    assert [r.user_id for r in page.rows] == [ALICE] and page.has_next
    assert page.own is not None and page.own.rank == 1
    last = await league.leaderboard(GUILD, ALICE, 1, None, "deals_won", "all", page_size=1)
    assert [r.user_id for r in last.rows] == [BOB] and not last.has_next


async def test_the_help_pointer_is_given_once_whatever_the_process(
    storage: Storage, clock: ManualClock
) -> None:
    """Two processes (two `League`s, each with its own memory, one database), a restart (a
    third): a first-timer is pointed to the help by exactly one of them, once; a player with
    a finished deal in the server is never pointed; each server points once."""
    await one_deal(storage)
    one, two = League(storage, clock), League(storage, clock)
    answers = [await one.point_to_help(GUILD, CAROL), await two.point_to_help(GUILD, CAROL)]
    answers += [await one.point_to_help(GUILD, CAROL), await two.point_to_help(GUILD, CAROL)]
    assert answers == [True, False, False, False]
    assert not await League(storage, clock).point_to_help(GUILD, CAROL)  # after a restart
    assert await two.point_to_help(GUILD + 1, CAROL)  # another server
    assert not await one.point_to_help(GUILD, ALICE)  # she has played here
