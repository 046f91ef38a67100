"""What seasons look like on Discord (bot/discord_ui/screens/season.py): the final post, the
private overview, the settings field, the season board's heading and pager, and the menus."""

from __future__ import annotations

import re

from bot.discord_ui.screens import season as rseason
from bot.discord_ui.screens import settings as rset
from bot.storage import GuildSettings, LeaderboardRow, PlayerRank, SeasonRecord
from bot.table.season import SeasonFinal, SeasonOverview
from cogs.league import LB_TEMPLATE, LeaderboardPager

START, END = 1_710_700_200, 1_711_305_000  # a week, Monday to Monday in Kolkata
OPEN = SeasonRecord(1, 4, "weekly", "Asia/Kolkata", START, END)
CLOSED = SeasonRecord(
    1, 3, "weekly", "Asia/Kolkata", START - 604_800, START, START, "boundary", 55, None
)


def row(rank: int, user: int, name: str, value: float = 4.2, games: int = 3) -> LeaderboardRow:
    return LeaderboardRow(rank, user, name, value, games)


def test_the_final_post_names_the_champion_and_the_top_ten() -> None:
    rows = [row(1, 1, "asha", 6.5), *(row(i, i, f"p{i}", 5.0 - i / 10) for i in range(2, 11))]
    embed = rseason.final_embed(SeasonFinal(CLOSED, rows, 17))
    assert embed.title == "Season 3 is over!"
    assert "🏆 Champion: **asha**" in (embed.description or "")
    assert f"From <t:{CLOSED.starts_at}:d> to <t:{CLOSED.ends_at}:f>." in (embed.description or "")
    (standings,) = embed.fields
    assert standings.name == "Final standings (season rating)"
    assert (standings.value or "").splitlines()[0] == "**1.** asha — 6.5 (3 rated matches)"
    assert len((standings.value or "").splitlines()) == 10
    assert embed.footer.text == "17 players ranked · Season 3 · final standings"
    assert (embed.footer.text or "").endswith(rseason.season_key(3))


def test_a_final_post_without_rated_matches_says_why_and_ties_share_the_title() -> None:
    empty = rseason.final_embed(SeasonFinal(CLOSED, [], 0))
    assert "no champion" in (empty.description or "") and not empty.fields
    tied = rseason.final_embed(SeasonFinal(CLOSED, [row(1, 1, "a"), row(1, 2, "b*")], 2))
    assert "Champion: **a, b\\*" in (tied.description or ""), "names are escaped"
    hindi = rseason.final_embed(SeasonFinal(CLOSED, [row(1, 1, "asha")], 1), "hi")
    assert hindi.title == "सीज़न 3 ख़त्म हुआ!"
    assert (hindi.footer.text or "").endswith(rseason.season_key(3, "hi"))


def test_a_manager_ended_season_says_so() -> None:
    early = SeasonRecord(1, 2, "monthly", "UTC", START, END, END, "manager", None, None)
    embed = rseason.final_embed(SeasonFinal(early, [row(1, 1, "asha")], 1))
    assert "Ended early by a manager" in (embed.description or "")


def test_the_overview_shows_both_places() -> None:
    place = PlayerRank(2, 9, "me", 3.1, 4, 12)
    final = PlayerRank(1, 9, "me", 7.0, 6, 20)
    embed = rseason.overview_embed(SeasonOverview(OPEN, place, CLOSED, final, [row(1, 9, "me")]))
    fields = {f.name: f.value or "" for f in embed.fields}
    assert f"**Season 4** (weekly) ends <t:{END}:f>" in fields["This season"]
    assert "You are **#2** of 12 so far (season rating 3.1)." in fields["This season"]
    assert "Champion: me" in fields["Last season"]
    assert "You finished **#1** of 20 (season rating 7.0)." in fields["Last season"]
    unplaced = rseason.overview_embed(SeasonOverview(OPEN, None, None, None))
    assert "no rated match in it yet" in unplaced.fields[0].value  # type: ignore[operator]
    off = rseason.overview_embed(SeasonOverview(None, None, None, None))
    assert "has no seasons" in (off.description or "") and not off.fields


def test_the_settings_show_the_season() -> None:
    on = GuildSettings(1, season="weekly", time_zone="Asia/Kolkata", season_channel_id=55)
    fields = {f.name: f.value or "" for f in rset.settings_embed(on, season=OPEN).fields}
    assert fields["Seasons"] == (
        "weekly, ending Monday 00:00 (Asia/Kolkata time)\n"
        f"Season 4 ends <t:{END}:f>\n"
        "Final standings are posted in <#55>"
    )
    quiet = GuildSettings(1, season="monthly")
    value = {f.name: f.value or "" for f in rset.settings_embed(quiet).fields}["Seasons"]
    assert value.startswith("monthly, ending on the 1st at 00:00 (UTC time)")
    assert "not posted" in value
    assert rset.setting_changed_text("season_started", OPEN) == (
        f"Season 4 has begun; it ends <t:{END}:f>"
    )
    assert rset.setting_changed_text("season_ended", CLOSED) == (
        "Season 3 has ended; its final standings are being posted in <#55>"
    )
    assert rset.setting_changed_text("time_zone", "Asia/Kolkata") == (
        "Seasons end at midnight Asia/Kolkata time"
    )
    assert rset.setting_changed_text("season", "off").startswith("Seasons: off")


def test_a_season_board_says_which_season() -> None:
    assert rseason.board_heading(OPEN).startswith("Season 4 (weekly) began")
    assert rseason.board_heading(CLOSED).endswith(": final standings.")
    pager = LeaderboardPager(999_999, "pool201", "matches_won", "all", 2**63 - 1, season=10**9 - 1)
    assert len(pager.custom_id) <= 100 and pager.custom_id.endswith(":s999999999")
    found = re.fullmatch(LB_TEMPLATE, pager.custom_id)
    assert found is not None and found["season"] == "999999999"
    old = re.fullmatch(LB_TEMPLATE, "st:lb:1:any:rating:all:42")
    assert old is not None and old["season"] is None, "pagers from before seasons still page"


def test_the_menus() -> None:
    picks = rseason.season_choices([OPEN, CLOSED], "")
    assert picks == [
        ("Current season (Season 4)", "current"),
        ("All time", "all"),
        ("Season 3 (weekly, ended 2024-03-18)", "3"),
    ]
    assert rseason.season_choices([OPEN, CLOSED], "3") == [
        ("Season 3 (weekly, ended 2024-03-18)", "3")
    ]
    assert rseason.season_choices([], "") == [("All time", "all")]
    zones = rseason.zone_choices("")
    assert zones[0] == "Asia/Kolkata" and len(zones) == 25
    assert "Europe/London" in rseason.zone_choices("london")
    assert rseason.zone_choices("new york") == ["America/New_York"]
    assert rseason.zone_choices("no such place") == []
