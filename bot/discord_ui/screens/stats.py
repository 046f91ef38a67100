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

from collections.abc import Sequence
from fractions import Fraction

import discord

from bot.engine.rules import PROFILES
from bot.storage import (
    LeaderboardRow,
    PlayerRank,
    PlayerStats,
    ProfileStats,
    RatingInfo,
    RatingPoint,
)
from bot.storage.tournaments import TournamentStats
from bot.table import league
from bot.words import Locale, text

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


def plural_n(x: Fraction) -> int | float:
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


def board_title(
    profile: str | None,
    sort: str,
    period: str,
    locale: Locale | None = None,
    when: str | None = None,
) -> str:
    """A board's title; `when` names its time span instead of the period (a season's name)."""
    return text(
        locale,
        "stats-board-title",
        sort=text(locale, "stats-sort", sort=sort),
        profile=profile_label(profile, locale),
        period=when or text(locale, PERIODS[period]),
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
    when: str | None = None,
    heading: str | None = None,
) -> discord.Embed:
    """One page of a board plus the caller's own rank line (in a field, so it stays visible
    whichever page is shown). Posted in the channel: `locale` is the server's. A season's
    board names the season in its title (`when`) and says its dates above the players
    (`heading`, see `screens.season`)."""
    if rows:
        lines = [board_line(r, sort, me=r.user_id == owner_id, locale=locale) for r in rows]
        description = "\n".join(lines)
    elif page == 0:
        description = text(locale, "stats-board-empty")
    else:
        description = text(locale, "stats-board-empty-page")
    if heading:
        description = f"{heading}\n\n{description}"
    embed = discord.Embed(
        title=board_title(profile, sort, period, locale, when),
        description=description,
        colour=COLOUR,
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
    name: str,
    stats: PlayerStats,
    trend: Sequence[RatingPoint] = (),
    locale: Locale | None = None,
    tournaments: TournamentStats | None = None,
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
    if tournaments is not None and tournaments.played:
        embed.add_field(
            name=text(locale, "tournament-history-title"),
            value=tournament_field(tournaments, locale),
            inline=False,
        )
    return embed


def tournament_field(t: TournamentStats, locale: Locale | None = None) -> str:
    """A player's tournaments: how many, won, their best place, and the last one."""
    best = "—" if t.best is None else number(t.best, locale)
    lines = [text(locale, "tournament-stats", played=t.played, won=t.won, best=best)]
    if t.last_name is not None:
        lines.append(
            text(
                locale,
                "tournament-stats-last",
                name=t.last_name,
                place=t.last_place or 0,
                players=t.last_players or 0,
            )
        )
    return "\n".join(lines)
