"""Rendering for leaderboards, player stats, deal history and server settings.

Pure functions: they take rows the storage layer already computed and return embeds or strings,
so the cog stays a thin parse-call-render layer and every wording choice is unit-testable
without Discord. Money is exact (`fractions.Fraction`), written as the game writes it (7½, 10/3),
so a 7½ on the results screen is a 7½ on the leaderboard too.

Every word comes from the catalogue (`locales/*/stats.ftl`), in the language the caller
passes: the server's for what is posted in a channel (leaderboard, stats card), the reader's
own for private answers (history, settings, forget-me). Counts go to Fluent as numbers, so
plurals and digit grouping follow the language (Hindi writes 12,34,567); exact amounts are
written here, their whole parts grouped the same way.

Names come from storage (the name the player had at their last recorded deal) rather than
mentions: they read the same for people who have since left the server, and they never ping.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from fractions import Fraction

import discord

from bot.engine.rules import PROFILES
from bot.engine.states import ScoreKind
from bot.storage import (
    DealHistoryRow,
    GuildSettings,
    LeaderboardRow,
    PlayerRank,
    PlayerStats,
    ProfileStats,
    RatingInfo,
    RatingPoint,
)
from bot.table import league
from bot.words import Locale, text
from bot.words.cards import hint_level_words
from bot.words.languages import language_label

from .colour import COLOUR

#: Players on one leaderboard page; ten lines keep the embed readable on a phone.
PAGE_SIZE = 10
#: Deals a player needs in the period to be ranked by win rate (one lucky deal is not a rate).
WIN_RATE_MIN_GAMES = league.WIN_RATE_MIN_GAMES  # the rule lives with the league service
#: Longest player name shown; Discord names can be 32 chars of display name plus decorations.
NAME_WIDTH = 24

PROFILE_NAMES = tuple(PROFILES)  # the engine's presets, in their table order
#: What a board can be ranked by (worded by `stats-sort`), in the command's menu order.
SORTS = ("rating", "matches_won", "deals_won", "net_chips", "win_rate")
#: The time windows of a board, each with its words.
PERIODS: dict[str, str] = {
    "all": "stats-period-all",
    "30d": "stats-period-30d",
    "7d": "stats-period-7d",
}
#: Deal outcomes as storage records them (worded by `stats-outcome`); an unknown one is
#: shown as its code.
OUTCOMES = frozenset(
    {"won", "lost", "dropped_first", "dropped_middle", "invalid_declaration", "void"}
)
_SPARK = "▁▂▃▄▅▆▇█"


# ---- numbers -------------------------------------------------------------------------------


def number(n: int, locale: Locale | None = None) -> str:
    """A whole number in the reader's digit grouping (1,234,567; Hindi 12,34,567)."""
    return text(locale, "stats-number", n=int(n))


def amount(x: Fraction | int, locale: Locale | None = None) -> str:
    """An exact amount as people read it, digits grouped per language: 15/2 is 7½, never
    rounded; other fractions stay fractions (10/3)."""
    x = Fraction(x)
    sign = "-" if x < 0 else ""
    a = abs(x)
    if a.denominator == 1:
        return sign + number(a.numerator, locale)
    if a.denominator == 2:
        whole = a.numerator // 2
        return sign + (number(whole, locale) if whole else "") + "½"
    return f"{sign}{number(a.numerator, locale)}/{number(a.denominator, locale)}"


def signed(x: Fraction | int, locale: Locale | None = None) -> str:
    """An amount with its sign, for score changes: +7½, -40, 0."""
    return ("+" if x > 0 else "") + amount(x, locale)


def _plural_n(x: Fraction) -> int | float:
    """An amount as the number a plural selector reads (whole amounts as integers, so CLDR
    sees `1` and not `1.0`)."""
    return int(x) if x.denominator == 1 else float(x)


# ---- leaderboard ---------------------------------------------------------------------------


def profile_label(profile: str | None, locale: Locale | None = None) -> str:
    """``None`` is the all-profiles board; say so instead of showing nothing."""
    return text(locale, "stats-all-profiles") if profile is None else profile


def display_name(name: str, locale: Locale | None = None) -> str:
    """A stored name made safe for an embed: markdown escaped (a name like ``**x**`` must not
    restyle the board), shortened, and never empty (a name can be missing for old rows)."""
    name = name.strip() or text(locale, "stats-unknown-player")
    if len(name) > NAME_WIDTH:
        name = name[: NAME_WIDTH - 1] + "…"
    return discord.utils.escape_markdown(name)


def board_value(sort: str, value: float | int | Fraction, locale: Locale | None = None) -> str:
    """The number a board is sorted by, in the unit people expect for it."""
    if sort == "rating":
        return text(locale, "stats-rating-value", value=float(value))
    if sort == "win_rate":
        return text(locale, "stats-rate-value", value=float(value))
    if sort == "net_chips":
        return signed(Fraction(value), locale)
    return number(int(value), locale)


def games_unit(sort: str, games: int, locale: Locale | None = None) -> str:
    """What ``games`` counts on this board (see `LeaderboardRow`), with its plural."""
    if sort == "rating":
        return text(locale, "stats-games-rated", n=games)
    if sort == "matches_won":
        return text(locale, "stats-games-matches", n=games)
    return text(locale, "stats-games-deals", n=games)


def board_title(profile: str | None, sort: str, period: str, locale: Locale | None = None) -> str:
    return text(
        locale,
        "stats-board-title",
        sort=text(locale, "stats-sort", sort=sort),
        profile=profile_label(profile, locale),
        period=text(locale, PERIODS[period]),
    )


def board_line(
    row: LeaderboardRow | PlayerRank, sort: str, *, me: bool = False, locale: Locale | None = None
) -> str:
    line = text(
        locale,
        "stats-board-line",
        rank=row.rank,
        name=display_name(row.name, locale),
        value=board_value(sort, row.value, locale),
        games=games_unit(sort, row.games, locale),
    )
    return text(locale, "stats-board-me", line=line) if me else line


def own_rank_line(own: PlayerRank | None, sort: str, locale: Locale | None = None) -> str:
    """The caller's line, shown even when their rank is on another page."""
    if own is None:
        if sort == "win_rate":
            return text(locale, "stats-own-unranked-rate", min=WIN_RATE_MIN_GAMES)
        return text(locale, "stats-own-unranked")
    return text(
        locale,
        "stats-own-rank",
        rank=own.rank,
        total=own.total,
        value=board_value(sort, own.value, locale),
        games=games_unit(sort, own.games, locale),
    )


def leaderboard_embed(
    rows: Sequence[LeaderboardRow],
    *,
    profile: str | None,
    sort: str,
    period: str,
    page: int,
    own: PlayerRank | None,
    owner_id: int,
    locale: Locale | None = None,
) -> discord.Embed:
    """One page of a board plus the caller's own rank line (in a field, so it stays visible
    whichever page is shown). Posted in the channel: `locale` is the server's."""
    if rows:
        lines = [board_line(r, sort, me=r.user_id == owner_id, locale=locale) for r in rows]
        description = "\n".join(lines)
    elif page == 0:
        description = text(locale, "stats-board-empty")
    else:
        description = text(locale, "stats-board-empty-page")
    embed = discord.Embed(
        title=board_title(profile, sort, period, locale), description=description, colour=COLOUR
    )
    embed.add_field(
        name=text(locale, "stats-your-rank"), value=own_rank_line(own, sort, locale), inline=False
    )
    if own is not None:
        pages = max(1, -(-own.total // PAGE_SIZE))
        footer = [text(locale, "stats-board-page-of", page=page + 1, pages=pages)]
    else:
        footer = [text(locale, "stats-board-page", page=page + 1)]
    if sort == "win_rate":
        footer.append(text(locale, "stats-board-min-deals", min=WIN_RATE_MIN_GAMES))
    if sort == "rating":
        footer.append(text(locale, "stats-board-rating-rule"))
    embed.set_footer(text=" · ".join(footer))
    return embed


def pager_labels(locale: Locale | None = None) -> tuple[str, str]:
    """The ◀ and ▶ buttons under a board, in the board's language."""
    return text(locale, "stats-board-previous"), text(locale, "stats-board-next")


# ---- stats ---------------------------------------------------------------------------------


def sparkline(values: Sequence[float]) -> str:
    """A one-line trend (▁▂▅█) of the last ratings; flat input gives a flat line."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        return _SPARK[3] * len(values)
    top = len(_SPARK) - 1
    return "".join(_SPARK[round((v - lo) / (hi - lo) * top)] for v in values)


def rating_head(ordinal: float, trend: float | None, locale: Locale | None = None) -> str:
    """The rating, with the way it has moved lately when that is known."""
    shown = text(locale, "stats-rating-value", value=ordinal)
    if trend is None:
        return shown
    if abs(trend) < 0.05:
        return text(locale, "stats-trend-steady", ordinal=shown)
    msg_id = "stats-trend-up" if trend > 0 else "stats-trend-down"
    return text(locale, msg_id, ordinal=shown, change=abs(trend))


def rating_text(
    rating: RatingInfo | None, trend: float | None = None, locale: Locale | None = None
) -> str:
    if rating is None:
        return text(locale, "stats-unrated")
    return text(
        locale,
        "stats-rating",
        head=rating_head(rating.ordinal, trend, locale),
        mu=rating.mu,
        sigma=rating.sigma,
        matches=rating.matches,
    )


def win_pct(won: int, played: int, locale: Locale | None = None) -> str:
    if not played:
        return text(locale, "stats-no-rate")
    return text(locale, "stats-win-pct", rate=won / played)


def profile_field(p: ProfileStats, locale: Locale | None = None) -> str:
    """One profile's numbers; kept well under the 1024-char field limit."""
    lines = [
        text(
            locale,
            "stats-matches",
            played=p.matches_played,
            won=p.matches_won,
            pct=win_pct(p.matches_won, p.matches_played, locale),
        ),
        text(
            locale,
            "stats-deals",
            played=p.deals_played,
            won=p.deals_won,
            pct=win_pct(p.deals_won, p.deals_played, locale),
        ),
    ]
    if p.avg_penalty_when_losing is not None:
        average = amount(_round_half(p.avg_penalty_when_losing), locale)
        lines.append(text(locale, "stats-avg-penalty", value=average))
    lines.append(
        text(
            locale,
            "stats-drops",
            first=p.drops_first,
            middle=p.drops_middle,
            wrong=p.invalid_declarations,
        )
    )
    if p.best_deal is not None and p.worst_deal is not None:
        lines.append(
            text(
                locale,
                "stats-best-worst",
                best=signed(p.best_deal, locale),
                worst=signed(p.worst_deal, locale),
            )
        )
    lines.append(text(locale, "stats-net", net=signed(p.net, locale)))
    rating = rating_text(p.rating, p.rating_trend, locale)
    lines.append(text(locale, "stats-rating-line", rating=rating))
    return "\n".join(lines)


def _round_half(x: Fraction) -> Fraction:
    """Averages are the one place an exact fraction would read badly (e.g. 193/7), so show
    them to the nearest half, which `amount` prints as 27½. Totals are never rounded."""
    if x.denominator in (1, 2):
        return x
    return Fraction(round(x * 2), 2)


def stats_embed(
    name: str, stats: PlayerStats, trend: Sequence[RatingPoint] = (), locale: Locale | None = None
) -> discord.Embed:
    """A player's card: overall rating (with a sparkline of recent changes) and one field per
    profile played, most played first. Posted in the channel: `locale` is the server's."""
    embed = discord.Embed(
        title=text(locale, "stats-title", name=display_name(name, locale)), colour=COLOUR
    )
    desc = [text(locale, "stats-overall", rating=rating_text(stats.overall_rating, None, locale))]
    if len(trend) >= 2:
        desc.append(text(locale, "stats-trend", spark=sparkline([p.ordinal for p in trend])))
    if not stats.profiles:
        desc.append(text(locale, "stats-no-games"))
    embed.description = "\n".join(desc)
    ordered = sorted(
        stats.profiles.values(), key=lambda p: (-p.deals_played - p.matches_played, p.profile)
    )
    for p in ordered[:24]:
        embed.add_field(name=p.profile, value=profile_field(p, locale), inline=False)
    return embed


# ---- history -------------------------------------------------------------------------------


def utc_time(ts: int) -> str:
    """Plain UTC time for places Discord does not render ``<t:…>`` (select descriptions)."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def deal_title(row: DealHistoryRow, locale: Locale | None = None) -> str:
    return text(
        locale, "stats-deal-title", profile=row.profile, table=row.match_id, deal=row.deal_no
    )


def outcome_text(outcome: str, locale: Locale | None = None) -> str:
    return text(locale, "stats-outcome", outcome=outcome) if outcome in OUTCOMES else outcome


def deal_score(row: DealHistoryRow, locale: Locale | None = None) -> str:
    """The deal's effect in its own kind of score, worded as on the results message: chips
    are won or lost; pool and deals points are added to a total. Starts with a space (it
    follows the outcome), or is empty for a void deal."""
    if row.outcome == "void":
        return ""
    chips = row.profile not in PROFILES or PROFILES[row.profile].chips
    kind = ScoreKind.NET if chips else ScoreKind.PENALTY
    delta = Fraction(row.net if chips else -row.net)  # storage keeps points as a negative net
    if not delta:
        return " " + text(locale, "stats-score-even")
    n = _plural_n(abs(delta))
    if kind is ScoreKind.NET:
        msg_id = "stats-score-won" if delta > 0 else "stats-score-lost"
        return " " + text(locale, msg_id, chips=amount(abs(delta), locale), n=n)
    return " " + text(locale, "stats-score-points", points=signed(delta, locale), n=n)


def hints_note(hints: str, locale: Locale | None = None) -> str:
    """ " · hints off" after a result played with less than full hints; nothing otherwise
    (full hints are the default, and every result stored before hint levels had them)."""
    if hints == "full":
        return ""
    return " · " + text(locale, "stats-hints-note", hints=hints)


def history_line(row: DealHistoryRow, locale: Locale | None = None) -> str:
    return text(
        locale,
        "stats-history-line",
        time=str(row.finished_at),
        deal=deal_title(row, locale),
        result=outcome_text(row.outcome, locale),
        score=deal_score(row, locale),
        hints=hints_note(str(row.hints), locale),
    )


def history_embed(
    name: str, rows: Sequence[DealHistoryRow], locale: Locale | None = None
) -> discord.Embed:
    """A player's recent deals (a private answer: `locale` is the reader's)."""
    embed = discord.Embed(
        title=text(locale, "stats-history-title", name=display_name(name, locale)), colour=COLOUR
    )
    if rows:
        embed.description = "\n".join(history_line(r, locale) for r in rows)
        embed.set_footer(text=text(locale, "stats-history-footer"))
    else:
        embed.description = text(locale, "stats-history-empty")
    return embed


def history_placeholder(locale: Locale | None = None) -> str:
    return text(locale, "stats-history-placeholder")


def deal_option_value(row: DealHistoryRow) -> str:
    """``deal_id:match_id:deal_no``: the id opens the hand history, the other two name the
    downloaded file, so the click needs no extra lookup (≤ 100 chars: table ids are short)."""
    return f"{row.deal_id}:{row.match_id}:{row.deal_no}"[:100]


def parse_deal_option(value: str) -> tuple[int, str, int] | None:
    """Inverse of `deal_option_value`; None for anything else."""
    m = re.fullmatch(r"(\d{1,19}):(.{0,80}):(\d{1,6})", value)
    if m is None:
        return None
    return int(m[1]), m[2], int(m[3])


def history_option(row: DealHistoryRow, locale: Locale | None = None) -> discord.SelectOption:
    """A menu entry for downloading one deal (labels ≤ 100, descriptions ≤ 100 chars)."""
    description = text(
        locale,
        "stats-history-option",
        result=outcome_text(row.outcome, locale),
        score=deal_score(row, locale),
        time=utc_time(row.finished_at),
    )
    return discord.SelectOption(
        label=deal_title(row, locale)[:100],
        value=deal_option_value(row),
        description=description[:100],
    )


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def hand_history_caption(match_id: str, deal_no: int, locale: Locale | None = None) -> str:
    """The private message a hand-history file comes with."""
    return text(locale, "stats-hand-history-caption", table=match_id, deal=deal_no)


def hand_history_filename(match_id: str, deal_no: int) -> str:
    """A safe attachment name: ids come from storage, but a filename must never carry a path
    separator or spaces whatever an id looks like."""
    safe = _UNSAFE.sub("_", match_id).strip("_") or "table"
    return f"hand-history-{safe[:40]}-deal{deal_no}.json"


# ---- settings ------------------------------------------------------------------------------


def channels_text(allowed: frozenset[int] | None, locale: Locale | None = None) -> str:
    if allowed is None:
        return text(locale, "stats-every-channel")
    return ", ".join(f"<#{c}>" for c in sorted(allowed))


def hint_words(level: str, locale: Locale | None = None) -> str:
    """What a hint level shows a player about their own hand (the lobby's words for it)."""
    return hint_level_words(level, locale)[1]


def settings_embed(
    settings: GuildSettings,
    changes: Sequence[str] = (),
    locale: Locale | None = None,
    tables_speak: str | None = None,
) -> discord.Embed:
    """The server's settings (a private answer to a manager: `locale` is the reader's;
    `tables_speak` the language a table opened now would speak)."""
    embed = discord.Embed(title=text(locale, "stats-settings-title"), colour=COLOUR)
    if changes:
        embed.description = "\n".join(f"✓ {c}" for c in changes)
    embed.add_field(
        name=text(locale, "stats-settings-profile"), value=settings.default_profile, inline=True
    )
    embed.add_field(
        name=text(locale, "stats-settings-timer"),
        value=text(locale, "stats-seconds", seconds=settings.turn_timer),
        inline=True,
    )
    embed.add_field(
        name=text(locale, "stats-settings-channels"),
        value=channels_text(settings.allowed_channel_ids, locale)[:1024],
        inline=False,
    )
    images = "stats-images-on" if settings.card_images else "stats-images-off"
    embed.add_field(
        name=text(locale, "stats-settings-images"), value=text(locale, images), inline=False
    )
    level = str(settings.hints)
    rated = "stats-rated-hints-off" if settings.rated_hints_off else "stats-rated-any"
    hints = text(locale, "stats-hints-at-new", level=level, words=hint_words(level, locale))
    embed.add_field(
        name=text(locale, "stats-settings-hints"),
        value=f"{hints}\n{text(locale, rated)}",
        inline=False,
    )
    threads = "stats-threads-on" if settings.table_threads else "stats-threads-off"
    embed.add_field(
        name=text(locale, "stats-settings-threads"), value=text(locale, threads), inline=False
    )
    speaks = language_label(tables_speak or settings.language or "en")
    if settings.language is None:
        speaks = text(locale, "stats-language-server", language=speaks)
    embed.add_field(name=text(locale, "stats-settings-language"), value=speaks, inline=False)
    embed.set_footer(text=text(locale, "stats-settings-footer"))
    return embed


def forget_text(outcome: str, locale: Locale | None = None) -> str:
    """The answer to a forget-me click: ``prompt``, ``done``, ``playing`` (nothing deleted
    while a game runs), ``cancelled`` or ``expired``."""
    msg_id = {
        "prompt": "stats-forget-prompt",
        "done": "stats-forget-done",
        "playing": "stats-forget-playing",
        "cancelled": "stats-forget-cancelled",
        "expired": "stats-forget-expired",
    }[outcome]
    return text(locale, msg_id)


def forget_label(action: str, locale: Locale | None = None) -> str:
    """The confirm (``yes``) or cancel (``no``) button under the forget-me prompt."""
    return text(locale, "stats-forget-yes" if action == "yes" else "stats-forget-no")


def setting_changed_text(what: str, value: object, locale: Locale | None = None) -> str:
    """One line of what a settings change did (facts from `bot.table.league`)."""
    if what == "default_profile":
        return text(locale, "stats-changed-profile", profile=str(value))
    if what == "turn_timer":
        return text(locale, "stats-changed-timer", seconds=value)
    if what == "all_channels":
        return text(locale, "stats-changed-all-channels")
    if what == "allowed":
        return text(locale, "stats-changed-allowed", channel=str(value))
    if what == "removed":
        return text(locale, "stats-changed-removed", channel=str(value))
    if what == "card_images":
        return text(locale, "stats-changed-images-on" if value else "stats-changed-images-off")
    if what == "hints":
        level = str(value)
        return text(locale, "stats-changed-hints", level=level, words=hint_words(level, locale))
    if what == "rated_hints_off":
        return text(locale, "stats-changed-rated-off" if value else "stats-rated-any")
    if what == "table_threads":
        return text(locale, "stats-changed-threads-on" if value else "stats-changed-threads-off")
    if what == "language":
        if value == "server":
            return text(locale, "stats-changed-language-server")
        return text(locale, "stats-changed-language", language=language_label(str(value)))
    return f"{what}: {value}"  # a setting this module does not know yet: its raw name
