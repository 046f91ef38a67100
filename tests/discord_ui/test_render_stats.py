"""Unit tests for `bot.discord_ui.screens.stats` (texts and embeds) and the stats custom ids."""

from __future__ import annotations

import re
from fractions import Fraction

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord_ui.screens import history as rh
from bot.discord_ui.screens import settings as rset
from bot.discord_ui.screens import stats as rs
from bot.storage import (
    DealHistoryRow,
    GuildSettings,
    HintLevel,
    LeaderboardRow,
    PlayerRank,
    PlayerStats,
    ProfileStats,
    RatingInfo,
    RatingPoint,
)
from cogs.league import (
    HH_TEMPLATE,
    LB_TEMPLATE,
    PERIOD_CHOICES,
    SORT_CHOICES,
    HistoryDownload,
    LeaderboardPager,
    LeagueCommands,
)
from cogs.server import FM_TEMPLATE, ForgetAnswer, ForgetConfirm, Server

BIG_ID = 2**63 - 1  # the largest snowflake a custom_id must still fit


def profile(name: str = "points", **kw: object) -> ProfileStats:
    base: dict[str, object] = dict(
        profile=name,
        matches_played=3,
        matches_won=1,
        deals_played=10,
        deals_won=4,
        avg_penalty_when_losing=Fraction(193, 7),
        drops_first=2,
        drops_middle=1,
        invalid_declarations=0,
        best_deal=Fraction(95, 2),
        worst_deal=Fraction(-80),
        net=Fraction(-5, 2),
        rating=RatingInfo(27.0, 6.0, 9.0, 3),
        rating_trend=-1.25,
    )
    base.update(kw)
    return ProfileStats(**base)  # type: ignore[arg-type]


def embed_size(embed: discord.Embed) -> int:
    return len(embed)


# ---- values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sort", "value", "shown"),
    [
        ("rating", 12.345, "12.3"),
        ("rating", -0.04, "-0.0"),
        ("matches_won", 7, "7"),
        ("deals_won", 0, "0"),
        ("net_chips", Fraction(15, 2), "+7½"),
        ("net_chips", Fraction(-1, 2), "-½"),
        ("net_chips", Fraction(1, 3), "+1/3"),
        ("net_chips", Fraction(0), "0"),
        ("win_rate", 0.5, "50.0%"),
        ("win_rate", 1.0, "100.0%"),
    ],
)
def test_board_value_units(sort: str, value: float | int | Fraction, shown: str) -> None:
    assert rs.board_value(sort, value) == shown


def test_games_unit_plurals() -> None:
    assert rs.games_unit("rating", 1) == "1 rated match"
    assert rs.games_unit("rating", 2) == "2 rated matches"
    assert rs.games_unit("matches_won", 0) == "0 matches"
    assert rs.games_unit("deals_won", 1) == "1 deal"
    assert rs.games_unit("win_rate", 12) == "12 deals"


def test_display_name_escapes_markdown_and_truncates() -> None:
    assert rs.display_name("**bold**") == "\\*\\*bold\\*\\*"
    assert rs.display_name("   ") == "(unknown)"
    long = rs.display_name("x" * 40)
    assert long.endswith("…") and len(long) == rs.NAME_WIDTH


# ---- leaderboard ----------------------------------------------------------------------------


def rows(n: int, start: int = 1) -> list[LeaderboardRow]:
    return [
        LeaderboardRow(start + i, 100 + i, f"player{i}", Fraction(100 - i, 2), 10) for i in range(n)
    ]


def test_leaderboard_marks_caller_on_page() -> None:
    page = rows(3)
    own = PlayerRank(2, 101, "player1", Fraction(99, 2), 10, 3)
    embed = rs.leaderboard_embed(
        page, profile="points", sort="net_chips", period="7d", page=0, own=own, owner_id=101
    )
    desc = embed.description or ""
    assert desc.splitlines()[1] == "**2.** player1 — +49½ (10 deals) ◀ you"
    assert "◀ you" not in desc.splitlines()[0]
    assert embed.title == "Leaderboard — Net chips · points · last 7 days"
    assert embed.fields[0].value == "**#2** of 3 — +49½ (10 deals)"
    assert embed.footer.text == "Page 1 of 1"


def test_leaderboard_own_rank_off_page_and_unranked() -> None:
    own = PlayerRank(42, 7, "me", 3, 5, 95)
    embed = rs.leaderboard_embed(
        rows(10), profile=None, sort="deals_won", period="all", page=0, own=own, owner_id=7
    )
    assert "◀ you" not in (embed.description or "")
    assert embed.fields[0].value == "**#42** of 95 — 3 (5 deals)"
    assert embed.footer.text == "Page 1 of 10"
    assert "all profiles · all time" in (embed.title or "")

    none = rs.leaderboard_embed(
        [], profile=None, sort="win_rate", period="30d", page=0, own=None, owner_id=7
    )
    assert none.description == "Nobody is ranked here yet."
    assert f"needs {rs.WIN_RATE_MIN_GAMES} deals" in (none.fields[0].value or "")
    assert "at least 5 deals" in (none.footer.text or "")
    later = rs.leaderboard_embed(
        [], profile=None, sort="rating", period="all", page=3, own=None, owner_id=7
    )
    assert later.description == "No players on this page."
    assert "play a game" in (later.fields[0].value or "")


def test_leaderboard_embed_fits_discord_limits_with_long_names() -> None:
    page = [LeaderboardRow(i + 1, i, "W" * 32, Fraction(-(10**12), 7), 10**6) for i in range(10)]
    embed = rs.leaderboard_embed(
        page, profile="classic", sort="net_chips", period="all", page=9999, own=None, owner_id=1
    )
    assert len(embed.description or "") <= 4096
    assert embed_size(embed) <= 6000


# ---- stats ----------------------------------------------------------------------------------


def test_sparkline() -> None:
    assert rs.sparkline([]) == ""
    assert rs.sparkline([5.0, 5.0]) == "▄▄"
    assert rs.sparkline([0.0, 1.0, 2.0]) == "▁▅█"


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=30))
def test_sparkline_one_char_per_value(values: list[float]) -> None:
    line = rs.sparkline(values)
    assert len(line) == len(values) and set(line) <= set("▁▂▃▄▅▆▇█")


def test_profile_field_is_exact_and_rounds_only_the_average() -> None:
    text = rs.profile_field(profile())
    assert "Matches: 3 played, 1 won (33%)" in text
    assert "Deals: 10 played, 4 won (40%)" in text
    assert "Avg penalty when losing: 27½" in text  # 193/7 = 27.57 -> nearest half
    assert "Drops: 2 first, 1 middle · wrong shows: 0" in text
    assert "Best deal +47½ · worst deal -80" in text
    assert "Net chips: -2½" in text
    assert "Rating: 9.0 (▼ 1.2 recently) · μ 27.0, σ 6.0 · 3 rated matches" in text
    bare = rs.profile_field(
        profile(
            avg_penalty_when_losing=None,
            best_deal=None,
            worst_deal=None,
            rating=None,
            rating_trend=None,
            matches_played=0,
            matches_won=0,
        )
    )
    assert "Avg penalty" not in bare and "Best deal" not in bare
    assert "Rating: unrated" in bare and "(—)" in bare


def test_stats_embed_orders_profiles_by_activity() -> None:
    stats = PlayerStats(
        1,
        2,
        {
            "deals": profile("deals", deals_played=1, matches_played=1),
            "points": profile("points"),
        },
        RatingInfo(30.0, 5.0, 15.0, 4),
    )
    trend = [RatingPoint(str(i), i, 25.0, 8.0, float(i), float(i - 1)) for i in range(5)]
    embed = rs.stats_embed("alice", stats, trend)
    assert [f.name for f in embed.fields] == ["points", "deals"]
    assert "Overall rating: 15.0" in (embed.description or "")
    assert "Trend: ▁▃▅▆█" in (embed.description or "")
    assert all(len(f.value or "") <= 1024 for f in embed.fields)
    empty = rs.stats_embed("bob", PlayerStats(1, 3, {}, None))
    assert "No games recorded" in (empty.description or "") and not empty.fields
    assert "unrated" in (empty.description or "")


# ---- history --------------------------------------------------------------------------------


def deal(
    outcome: str = "won", net: Fraction = Fraction(15, 2), profile: str = "pool101"
) -> DealHistoryRow:
    return DealHistoryRow(77, "abcd1234", 3, profile, 1_700_000_000, outcome, net)  # type: ignore[arg-type]


def test_history_line_and_option() -> None:
    # One convention per kind of score, as on the results message: chips are won or lost,
    # pool points are added to a total.
    assert rh.history_line(deal("won", Fraction(15, 2), "points")) == (
        "<t:1700000000:f> — points · table abcd1234 · deal 3 — **won** won 7½ chips"
    )
    assert rh.history_line(deal("won", Fraction(0))).endswith("**won** ±0")
    assert rh.history_line(deal("void", Fraction(0))).endswith("**void**")
    assert "**dropped (middle)** +20 points" in rh.history_line(
        deal("dropped_middle", Fraction(-20))
    )
    assert "lost 40 chips" in rh.history_line(deal("lost", Fraction(-40), "points"))
    opt = rh.history_option(deal("lost", Fraction(-12)))
    assert opt.label == "pool101 · table abcd1234 · deal 3"
    assert opt.description == "lost +12 points · 2023-11-14 22:13 UTC"
    assert rh.parse_deal_option(opt.value) == (77, "abcd1234", 3)
    assert rh.parse_deal_option("nonsense") is None


def test_history_embed_empty_and_full() -> None:
    assert "No deals recorded" in (rh.history_embed("x", []).description or "")
    full = rh.history_embed("x", [deal()] * 10)
    assert len((full.description or "").splitlines()) == 10
    assert "download" in (full.footer.text or "")


@pytest.mark.parametrize(
    ("match_id", "no", "name"),
    [
        ("abcd1234", 2, "hand-history-abcd1234-deal2.json"),
        ("../../etc/passwd", 1, "hand-history-etc_passwd-deal1.json"),
        ("", 1, "hand-history-table-deal1.json"),
    ],
)
def test_hand_history_filename_is_safe(match_id: str, no: int, name: str) -> None:
    assert rh.hand_history_filename(match_id, no) == name


# ---- settings -------------------------------------------------------------------------------


def test_settings_embed() -> None:
    default = rset.settings_embed(GuildSettings(1))
    values = {f.name: f.value for f in default.fields}
    assert values == {
        "Default profile": "points",
        "Turn timer": "60 s",
        "Tables may open in": "every channel",
        "Card images": "on (players may pick text only for their own hand)",
        "Hints": "full at new tables (arrangement, deadwood and when you can declare)"
        "\nRated games: any hint level",
        "Tables play": "in their own thread (the lobby stays in the channel)",
        "Tables speak": "English (the server's Discord language)",
        "Seasons": "off: one leaderboard for all time",
        "Tournament organisers": "Manage Server only",
    }
    # A server that chose nothing, whose Discord is in Hindi: its tables speak Hindi.
    follows = rset.settings_embed(GuildSettings(1), tables_speak="hi")
    assert follows.fields[-1].value == "हिन्दी (Hindi) (the server's Discord language)"
    chosen = rset.settings_embed(GuildSettings(1, language="hi"), tables_speak="hi")
    assert chosen.fields[-1].value == "हिन्दी (Hindi)"
    assert rset.setting_changed_text("language", "hi") == "New tables speak हिन्दी (Hindi)"
    assert rset.setting_changed_text("language", "server") == (
        "New tables speak the server's Discord language"
    )
    changed = rset.settings_embed(
        GuildSettings(
            1,
            "pool201",
            90,
            frozenset({30, 10}),
            card_images=False,
            hints=HintLevel.OFF,
            rated_hints_off=True,
            table_threads=False,
        ),
        ["Turn timer: 90 s"],
    )
    assert changed.description == "✓ Turn timer: 90 s"
    fields = {f.name: f.value for f in changed.fields}
    assert fields["Tables may open in"] == "<#10>, <#30>"
    assert fields["Card images"].startswith("off: text only")
    assert fields["Hints"].startswith("off at new tables (no help")
    assert "hints off only; a table with hints is played unrated" in fields["Hints"]
    assert fields["Tables play"] == "in the channel"


# ---- component ids --------------------------------------------------------------------------


def test_custom_ids_fit_and_match_their_templates() -> None:
    longest = max((*rs.PROFILE_NAMES, "any"), key=len)
    for sort in rs.SORTS:
        pager = LeaderboardPager(999_999, longest, sort, "30d", BIG_ID)
        assert len(pager.custom_id) <= 100
        assert re.fullmatch(LB_TEMPLATE, pager.custom_id)
    menu = HistoryDownload(BIG_ID, [rh.history_option(deal())])
    assert re.fullmatch(HH_TEMPLATE, menu.custom_id) and len(menu.custom_id) <= 100
    for answer in ForgetAnswer:
        button = ForgetConfirm(answer, BIG_ID, 2_000_000_000)
        assert re.fullmatch(FM_TEMPLATE, button.custom_id) and len(button.custom_id) <= 100
    assert set(LeagueCommands(None).dynamic_items()) == {  # type: ignore[arg-type]
        LeaderboardPager,
        HistoryDownload,
    }
    assert Server(None).dynamic_items() == (ForgetConfirm,)  # type: ignore[arg-type]
    assert all(not t.startswith(("rm:", "rs:")) for t in (LB_TEMPLATE, HH_TEMPLATE, FM_TEMPLATE))


def test_the_command_menus_offer_what_the_renderer_words() -> None:
    assert [c.value for c in SORT_CHOICES] == list(rs.SORTS)
    assert [c.value for c in PERIOD_CHOICES] == list(rs.PERIODS)


def test_pager_ids_on_first_page_are_distinct() -> None:
    """◀ on page 0 is disabled but still needs an id different from ▶ (Discord requires it)."""
    prev = LeaderboardPager(-1, "any", "rating", "all", 5)
    nxt = LeaderboardPager(1, "any", "rating", "all", 5)
    assert prev.custom_id != nxt.custom_id


# ---- in Hindi -------------------------------------------------------------------------------

#: Latin words a Hindi screen may still show: names, profile codes, table ids, hint levels
#: (what players type), a file format and the time zone of a menu's plain time.
CODES = {*rs.PROFILE_NAMES, "alice", "abcd1234", "full", "groups", "off", "JSON", "UTC"}


def english_words(shown: str) -> list[str]:
    """The Latin-letter words in `shown` (a word with its digits: pool101) that are not
    names or codes; the seeded names player0, player1, ... are names."""
    words = re.findall(r"[A-Za-z][A-Za-z0-9]+", shown)
    return [w for w in words if w not in CODES and not re.fullmatch(r"player\d+", w)]


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


def devanagari(shown: str) -> bool:
    return any("\u0900" <= c <= "\u097f" for c in shown)


def test_a_profile_field_in_hindi_has_no_english_left() -> None:
    shown = rs.profile_field(profile(), "hi")
    assert devanagari(shown) and english_words(shown) == [], english_words(shown)
    assert "मैच: 3 खेले, 1 जीते (33%)" in shown
    assert "बाज़ियाँ: 10 खेलीं, 4 जीतीं (40%)" in shown
    assert "हारने पर औसत अंक: 27½" in shown
    assert "कुल चिप्स: -2½" in shown
    assert "रेटिंग: 9.0 (हाल में ▼ 1.2) · μ 27.0, σ 6.0 · 3 रेटिंग वाले मैच" in shown
    one = rs.rating_text(RatingInfo(25.0, 8.0, 1.0, 1), None, "hi")
    assert one.endswith("1 रेटिंग वाला मैच"), one


def test_a_stats_card_and_a_board_in_hindi() -> None:
    stats = PlayerStats(1, 2, {"points": profile()}, RatingInfo(30.0, 5.0, 15.0, 4))
    card = embed_text(rs.stats_embed("alice", stats, (), "hi"))
    assert card.startswith("रमी आँकड़े — alice") and "कुल रेटिंग: 15.0" in card
    assert english_words(card) == [], english_words(card)
    english = embed_text(rs.stats_embed("alice", stats, (), "en"))
    assert {"Rummy", "Overall", "Matches", "Rating"} <= set(english_words(english))
    own = PlayerRank(2, 101, "player1", Fraction(99, 2), 1, 3)
    for sort in rs.SORTS:
        for period in rs.PERIODS:
            board = rs.leaderboard_embed(
                rows(3), profile=None, sort=sort, period=period, page=0, own=own, owner_id=101,
                locale="hi",
            )  # fmt: skip
            shown = embed_text(board)
            assert english_words(shown) == [], (sort, period, english_words(shown))
    board = rs.leaderboard_embed(
        rows(3), profile="points", sort="deals_won", period="7d", page=0, own=own, owner_id=101,
        locale="hi",
    )  # fmt: skip
    assert board.title == "लीडरबोर्ड — जीती बाज़ियाँ · points · पिछले 7 दिन"
    assert (board.description or "").splitlines()[1] == "**2.** player1 — 49 (10 बाज़ियाँ) ◀ आप"
    assert board.fields[0].name == "आपकी रैंक"
    assert board.fields[0].value == "3 में से **#2** — 49 (1 बाज़ी)"
    assert rs.pager_labels("hi") == ("◀ पिछला", "अगला ▶")
    empty = rs.leaderboard_embed(
        [], profile=None, sort="win_rate", period="all", page=0, own=None, owner_id=1, locale="hi"
    )
    assert "5 बाज़ियाँ चाहिए" in (empty.fields[0].value or "")
    assert "कम से कम 5 बाज़ियाँ" in (empty.footer.text or "")


def test_numbers_are_grouped_per_language() -> None:
    """Indian digit grouping in Hindi (12,34,567), thousands in English; halves kept."""
    big = Fraction(2_469_135, 2)
    assert rs.signed(big, "hi") == "+12,34,567½" and rs.signed(big, "en") == "+1,234,567½"
    assert rs.amount(Fraction(-1, 2), "hi") == "-½" and rs.amount(Fraction(10, 3)) == "10/3"
    assert rs.board_value("net_chips", Fraction(1_234_567), "hi") == "+12,34,567"
    assert rs.board_value("deals_won", 1_234_567, "en") == "1,234,567"
    assert rs.board_value("rating", 1234.56, "hi") == "1,234.6"
    assert rs.board_value("win_rate", 0.125, "hi") == "12.5%"
    assert rs.games_unit("deals_won", 100_000, "hi") == "1,00,000 बाज़ियाँ"
    assert rs.games_unit("deals_won", 1, "hi") == "1 बाज़ी"


def test_history_and_settings_in_hindi() -> None:
    line = rh.history_line(deal("won", Fraction(15, 2), "points"), "hi")
    assert line == "<t:1700000000:f> — points · टेबल abcd1234 · बाज़ी 3 — **जीत** 7½ चिप्स जीते"
    lost = rh.history_line(deal("lost", Fraction(-1), "points"), "hi")
    assert lost.endswith("**हार** 1 चिप हारे"), lost
    assert rh.history_line(deal("lost", Fraction(-1), "points")).endswith("lost 1 chip")
    assert rh.history_line(deal("dropped_middle", Fraction(-20)), "hi").endswith(
        "**ड्रॉप (बीच में)** +20 अंक"
    )
    opt = rh.history_option(deal("lost", Fraction(-12)), "hi")
    assert opt.label == "pool101 · टेबल abcd1234 · बाज़ी 3"
    assert opt.description == "हार +12 अंक · 2023-11-14 22:13 UTC"
    shown = embed_text(rh.history_embed("alice", [deal()] * 3, "hi"))
    assert english_words(shown) == [], english_words(shown)
    assert "हैंड-हिस्ट्री" in rh.hand_history_caption("abcd1234", 2, "hi")

    settings = GuildSettings(
        1, "pool201", 90, frozenset({30}), card_images=False, hints=HintLevel.OFF,
        rated_hints_off=True, table_threads=False, language="hi",
    )  # fmt: skip
    changes = [
        rset.setting_changed_text(what, value, "hi")
        for what, value in (("turn_timer", 90), ("hints", "groups"), ("table_threads", True))
    ]
    embed = rset.settings_embed(settings, changes, "hi")
    shown = embed_text(embed)
    # "हिन्दी (Hindi)": a language is named in its own words with its English name.
    shown = shown.replace("(Hindi)", "")
    assert english_words(shown.replace("/rummy settings", "").replace("Manage Server", "")) == []
    assert embed.description == (
        "✓ बारी का समय: 90 सेकंड\n✓ नई टेबलों पर हिंट: groups (सिर्फ़ जमावट)"
        "\n✓ टेबल अपने अलग थ्रेड में खेली जाएगी"
    )
    assert "<#30>" in shown


def test_forget_me_words_in_both_languages() -> None:
    for outcome in ("prompt", "done", "playing", "cancelled", "expired"):
        assert devanagari(rset.forget_text(outcome, "hi"))
        assert not devanagari(rset.forget_text(outcome, "en"))
    assert rset.forget_text("cancelled") == "Cancelled: nothing was deleted."
    assert [rset.forget_label(a, "hi") for a in (True, False)] == ["मेरे आँकड़े मिटाएँ", "रद्द करें"]
    assert [rset.forget_label(a) for a in (True, False)] == ["Delete my stats", "Cancel"]


def outside_catalogue(shown: str) -> str:
    """What is left of pseudo-locale text once every ⟦…⟧ piece (nested too) is taken out:
    only what did not come from the catalogue."""
    while True:
        cut = re.sub(r"⟦[^⟦⟧]*⟧", "", shown)
        if cut == shown:
            return shown
        shown = cut


def test_every_word_shown_comes_from_the_catalogue() -> None:
    """In the pseudo-locale every message is wrapped in ⟦ ⟧; what is left outside the
    brackets may be names, codes, numbers' signs and punctuation, never a word."""
    pseudo = "x-pseudo"
    stats = PlayerStats(1, 2, {"points": profile(), "deals": profile("deals")}, None)
    trend = [RatingPoint(str(i), i, 25.0, 8.0, float(i), float(i - 1)) for i in range(3)]
    own = PlayerRank(2, 101, "player1", Fraction(99, 2), 10, 30)
    screens = [
        embed_text(rs.stats_embed("alice", stats, trend, pseudo)),
        embed_text(rs.stats_embed("   ", PlayerStats(1, 3, {}, None), (), pseudo)),
        embed_text(rh.history_embed("alice", [deal(o) for o in sorted(rs.OUTCOMES)], pseudo)),
        embed_text(rh.history_embed("alice", [], pseudo)),
        rh.hand_history_caption("abcd1234", 2, pseudo),
        rh.history_placeholder(pseudo),
        *rs.pager_labels(pseudo),
        *(rset.forget_label(a, pseudo) for a in (True, False)),
        *(
            rset.forget_text(o, pseudo)
            for o in ("prompt", "done", "playing", "cancelled", "expired")
        ),
    ]
    option = rh.history_option(deal("lost", Fraction(-12)), pseudo)
    screens += [option.label, option.description or ""]
    for sort in rs.SORTS:
        for own_rank in (own, None):
            for page_rows, page in ((rows(3), 0), ([], 0), ([], 2)):
                screens.append(
                    embed_text(
                        rs.leaderboard_embed(
                            page_rows, profile=None, sort=sort, period="30d", page=page,
                            own=own_rank, owner_id=101, locale=pseudo,
                        )
                    )
                )  # fmt: skip
    for level, flags in (("full", True), ("groups", False), ("off", True)):
        settings = GuildSettings(
            1, "points", 60, None if flags else frozenset({5}), card_images=flags,
            hints=HintLevel(level), rated_hints_off=flags, table_threads=flags,
        )  # fmt: skip
        changes = [
            rset.setting_changed_text(what, value, pseudo)
            for what, value in (
                ("default_profile", "deals"), ("turn_timer", 30), ("all_channels", True),
                ("allowed", 5), ("removed", 5), ("card_images", flags), ("hints", level),
                ("rated_hints_off", flags), ("table_threads", flags),
            )
        ]  # fmt: skip
        screens.append(embed_text(rset.settings_embed(settings, changes, pseudo)))
    for screen in screens:
        left = outside_catalogue(screen)
        assert english_words(left) == [], (screen, left)
        assert "⟦" in screen
