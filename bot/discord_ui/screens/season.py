"""What seasons look like: the post that closes one, `/rummy season`, a season board's heading,
the season part of `/rummy settings`, and the menus that pick a season or a time zone.

Pure functions of what the season layer (`bot.table.season`) and storage computed. Times are
Discord timestamps (`<t:…>`), which every reader sees in their own time and language; where
Discord shows no timestamps (a menu's labels) a date is written as an ISO date in the season's
own zone, the same in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

import discord

from bot.storage import SEASON_OFF, GuildSettings, LeaderboardRow, PlayerRank, SeasonRecord
from bot.table.league import ALL_TIME, CURRENT_SEASON, Setting
from bot.table.season import (
    SUGGESTED_ZONE,
    SeasonChange,
    SeasonFinal,
    SeasonOverview,
    zone,
    zone_names,
)
from bot.words import Locale, text

from .colour import COLOUR
from .stats import board_line, display_name

#: Discord offers at most 25 choices in an autocomplete menu.
MENU_SIZE = 25


def season_name(season: SeasonRecord, locale: Locale | None = None) -> str:
    return text(locale, "season-name", number=season.number)


def cadence_words(season: SeasonRecord, locale: Locale | None = None) -> str:
    return text(locale, "season-cadence", cadence=season.cadence)


def _end(season: SeasonRecord) -> str:
    """When the season ends (open) or ended, the boundary it was planned to end at, for a
    timestamp: as text, so no language groups its digits."""
    return str(season.ends_at)


def _start(season: SeasonRecord) -> str:
    return str(season.starts_at)


def board_heading(season: SeasonRecord, locale: Locale | None = None) -> str:
    """The line above a season board's players: which season, and its dates."""
    msg_id = "season-board-open" if season.open else "season-board-closed"
    return text(
        locale,
        msg_id,
        name=season_name(season, locale),
        cadence=cadence_words(season, locale),
        start=_start(season),
        end=_end(season),
    )


def season_key(number: int, locale: Locale | None = None) -> str:
    """The mark a season's final post carries (its footer), looked for after a restart."""
    return text(locale, "season-key", number=number)


def _names(rows: Iterable[LeaderboardRow], locale: Locale | None) -> str:
    return ", ".join(display_name(r.name, locale) for r in rows)


def final_embed(final: SeasonFinal, locale: Locale | None = None) -> discord.Embed:
    """A season's final standings, posted in the season channel in the server's language: its
    champion, its top players by season rating, and when and why it ended."""
    season = final.season
    name = season_name(season, locale)
    lines = [
        text(
            locale,
            "season-final-ended",
            ended=season.ended_by or "boundary",
            start=_start(season),
            end=_end(season),
        )
    ]
    champions = final.champions
    if champions:
        lines.append(text(locale, "season-final-champion", names=_names(champions, locale)))
    else:
        lines.append(text(locale, "season-final-no-champion"))
    embed = discord.Embed(
        title=text(locale, "season-final-title", name=name),
        description="\n".join(lines),
        colour=COLOUR,
    )
    if final.rows:
        standings = "\n".join(board_line(r, "rating", locale=locale) for r in final.rows)
        embed.add_field(
            name=text(locale, "season-final-standings"), value=standings[:1024], inline=False
        )
    footer = [
        text(locale, "season-final-ranked", ranked=final.ranked),
        season_key(season.number, locale),
    ]
    embed.set_footer(text=" · ".join(footer))
    return embed


def _place(place: PlayerRank | None, locale: Locale | None, placed: str, unplaced: str) -> str:
    if place is None:
        return text(locale, unplaced)
    return text(
        locale,
        placed,
        rank=place.rank,
        total=place.total,
        value=text(locale, "stats-rating-value", value=float(place.value)),
    )


def overview_embed(overview: SeasonOverview, locale: Locale | None = None) -> discord.Embed:
    """`/rummy season`: the open season and the player's place in it so far, the last one
    that ended, its champions and the player's final place (a private answer)."""
    embed = discord.Embed(title=text(locale, "season-overview-title"), colour=COLOUR)
    current, last = overview.current, overview.last
    if current is None and last is None:
        embed.description = text(locale, "season-overview-off")
        return embed
    if current is None:
        embed.description = text(locale, "season-overview-stopped")
    else:
        lines = [
            text(
                locale,
                "season-overview-current",
                name=season_name(current, locale),
                cadence=cadence_words(current, locale),
                end=_end(current),
            ),
            _place(
                overview.current_place,
                locale,
                "season-overview-place",
                "season-overview-unplaced",
            ),
        ]
        embed.add_field(
            name=text(locale, "season-overview-now"), value="\n".join(lines), inline=False
        )
    if last is not None:
        lines = [
            text(locale, "season-overview-last", name=season_name(last, locale), end=_end(last))
        ]
        if overview.last_champions:
            names = _names(overview.last_champions, locale)
            lines.append(text(locale, "season-overview-champions", names=names))
        lines.append(
            _place(
                overview.last_place,
                locale,
                "season-overview-final-place",
                "season-overview-not-in-last",
            )
        )
        embed.add_field(
            name=text(locale, "season-overview-before"), value="\n".join(lines), inline=False
        )
    embed.set_footer(text=text(locale, "season-overview-footer"))
    return embed


# ---- /rummy settings -----------------------------------------------------------------------


def settings_field(
    settings: GuildSettings, season: SeasonRecord | None, locale: Locale | None = None
) -> tuple[str, str]:
    """The season part of the settings embed: the plan, the zone, the open season's end and
    where its standings go."""
    name = text(locale, "season-settings-field")
    if settings.season == SEASON_OFF:
        return name, text(locale, "season-settings-off")
    lines = [
        text(
            locale,
            "season-settings-plan",
            plan=settings.season,
            zone=settings.time_zone or "UTC",
        )
    ]
    if season is not None:
        lines.append(
            text(locale, "season-settings-now", name=season_name(season, locale), end=_end(season))
        )
    if settings.season_channel_id is None:
        lines.append(text(locale, "season-settings-no-channel"))
    else:
        lines.append(
            text(locale, "season-settings-channel", channel=str(settings.season_channel_id))
        )
    return name, "\n".join(lines)


def _changed_plan(value: object, locale: Locale | None) -> str:
    return text(locale, "season-changed-plan", plan=str(value))


def _changed_zone(value: object, locale: Locale | None) -> str:
    return text(locale, "season-changed-zone", zone=str(value))


def _changed_channel(value: object, locale: Locale | None) -> str:
    return text(locale, "season-changed-channel", channel=str(value))


def _changed_started(value: object, locale: Locale | None) -> str:
    assert isinstance(value, SeasonRecord)
    return text(locale, "season-changed-started", name=season_name(value, locale), end=_end(value))


def _changed_ended(value: object, locale: Locale | None) -> str:
    assert isinstance(value, SeasonRecord)
    name = season_name(value, locale)
    if value.channel_id is None:
        return text(locale, "season-changed-ended", name=name)
    return text(locale, "season-changed-ended-posted", name=name, channel=str(value.channel_id))


def _changed_replanned(value: object, locale: Locale | None) -> str:
    assert isinstance(value, SeasonRecord)
    return text(
        locale, "season-changed-replanned", name=season_name(value, locale), end=_end(value)
    )


#: The settings facts about seasons (`bot.table.league`, `bot.table.season`), and their words.
CHANGED: dict[str, Callable[[object, Locale | None], str]] = {
    Setting.SEASON: _changed_plan,
    Setting.TIME_ZONE: _changed_zone,
    Setting.SEASON_CHANNEL: _changed_channel,
    SeasonChange.STARTED: _changed_started,
    SeasonChange.ENDED: _changed_ended,
    SeasonChange.REPLANNED: _changed_replanned,
}


def changed_text(what: str, value: object, locale: Locale | None = None) -> str | None:
    """One line of what a settings change did to the seasons; None for another setting."""
    words = CHANGED.get(what)
    return None if words is None else words(value, locale)


# ---- menus ---------------------------------------------------------------------------------


def _ended_on(season: SeasonRecord) -> str:
    """The day a season ended, as an ISO date in its own zone (a menu shows no timestamps)."""
    return datetime.fromtimestamp(season.ends_at, zone(season.time_zone)).date().isoformat()


def season_choices(
    seasons: Sequence[SeasonRecord], typed: str, locale: Locale | None = None
) -> list[tuple[str, str]]:
    """(label, value) of the boards `/rummy leaderboard season:` offers, matching what was
    typed: the current season, all time, then each season that ended, newest first."""
    current = [s for s in seasons if s.open]
    out = [(text(locale, "season-pick-current", name=season_name(s, locale)), CURRENT_SEASON)
           for s in current]  # fmt: skip
    out.append((text(locale, "season-pick-all"), ALL_TIME))
    for season in seasons:
        if season.open:
            continue
        label = text(
            locale,
            "season-pick-past",
            name=season_name(season, locale),
            cadence=cadence_words(season, locale),
            date=_ended_on(season),
        )
        out.append((label, str(season.number)))
    wanted = typed.strip().casefold()
    found = [
        (label, value) for label, value in out if wanted in label.casefold() or wanted == value
    ]
    return [(label[:100], value) for label, value in found[:MENU_SIZE]]


def zone_choices(typed: str) -> list[str]:
    """Time zone names matching what was typed (any part of the name, any case), India's
    first when it matches: an autocomplete menu's worth."""
    wanted = typed.strip().casefold().replace(" ", "_")
    names = sorted(n for n in zone_names() if wanted in n.casefold())
    if SUGGESTED_ZONE in names:
        names.remove(SUGGESTED_ZONE)
        names.insert(0, SUGGESTED_ZONE)
    return names[:MENU_SIZE]
