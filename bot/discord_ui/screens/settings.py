"""`/rummy settings` and `/rummy forget-me`: a server's settings, and forgetting a player.

Private answers to the manager or the player, in the reader's language; the facts come from
the league service (`bot.table.league`: how settings merge, what forget-me did).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.storage import GuildSettings, SeasonRecord
from bot.words import Locale, text
from bot.words.cards import hint_level_words
from bot.words.languages import language_label

from . import season as season_screen
from .colour import COLOUR


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
    season: SeasonRecord | None = None,
) -> discord.Embed:
    """The server's settings (a private answer to a manager: `locale` is the reader's;
    `tables_speak` the language a table opened now would speak; `season` the open one)."""
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
    embed.add_field(
        name=text(locale, "tournament-settings-organisers"),
        value=organisers_text(settings.organiser_role_id, locale),
        inline=False,
    )
    name, value = season_screen.settings_field(settings, season, locale)
    embed.add_field(name=name, value=value, inline=False)
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


def forget_label(confirm: bool, locale: Locale | None = None) -> str:
    """The confirm or the cancel button under the forget-me prompt."""
    return text(locale, "stats-forget-yes" if confirm else "stats-forget-no")


def setting_changed_text(what: str, value: object, locale: Locale | None = None) -> str:
    """One line of what a settings change did (facts from `bot.table.league`)."""
    seasons = season_screen.changed_text(what, value, locale)
    if seasons is not None:
        return seasons
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
    if what == "organiser_role":
        if not value:
            return text(locale, "tournament-changed-organisers-none")
        return text(locale, "tournament-changed-organisers", role=str(value))
    return f"{what}: {value}"  # a setting this module does not know yet: its raw name


def organisers_text(role_id: int | None, locale: Locale | None = None) -> str:
    """Who may run tournaments: Manage Server, and the server's organiser role if it has one."""
    if role_id is None:
        return text(locale, "tournament-organisers-managers")
    return text(locale, "tournament-organisers-role", role=str(role_id))
