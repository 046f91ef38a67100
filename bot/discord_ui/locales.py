"""Who reads which language: the catalogue language (`bot.words`) of an interaction's user and
of its server.

A private answer follows the user's own choice or Discord language (`interaction.locale`);
a public message follows the server's (`/rummy settings language:`, else
`interaction.guild_locale`), fixed for a table when it opens. Either way a language without a
catalogue folder reads English.
"""

from __future__ import annotations

from bot.words import Locale, catalogue

from .interaction import Interaction

__all__ = ["server_locale", "user_locale"]


def user_locale(interaction: Interaction) -> Locale:
    """The catalogue language of the user behind an interaction (for their private answers):
    the one they chose with `/rummy language` (the client's `languages`, see
    `bot.discord_ui.languages`), else their Discord client's."""
    chosen = getattr(getattr(interaction, "client", None), "languages", None)
    user = getattr(interaction, "user", None)
    tag = chosen.of(user.id) if chosen is not None and user is not None else None
    return catalogue().resolve(tag or getattr(interaction, "locale", None))


def server_locale(interaction: Interaction, chosen: str | None = None) -> Locale:
    """The catalogue language of the public messages of the server an interaction came from:
    the one the server chose (`/rummy settings language:`, passed as `chosen`), else the
    server's Discord language when there is a catalogue for it, else English (so in a DM)."""
    return catalogue().resolve(chosen or getattr(interaction, "guild_locale", None))
