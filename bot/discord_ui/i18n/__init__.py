"""Player-facing words in the reader's language: the catalogue (`catalogue.py`, Fluent files
under `locales/`), the slash-command translator (`translator.py`) and who reads which language.

A private answer follows the user's own choice or Discord language (`interaction.locale`);
a public message follows the server's (`/rummy settings language:`, else
`interaction.guild_locale`), fixed for a table when it opens. Either way a language without a
catalogue folder reads English.
"""

from __future__ import annotations

from typing import Any

from .catalogue import PSEUDO, SOURCE, Catalogue, CatalogueError, catalogue, text

__all__ = [
    "PSEUDO",
    "SOURCE",
    "Catalogue",
    "CatalogueError",
    "catalogue",
    "server_locale",
    "text",
    "user_locale",
]


def user_locale(interaction: Any) -> str:
    """The catalogue language of the user behind an interaction (for their private answers):
    the one they chose with `/rummy language` (the client's `languages`, see
    `bot.discord_ui.languages`), else their Discord client's."""
    chosen = getattr(getattr(interaction, "client", None), "languages", None)
    user = getattr(interaction, "user", None)
    tag = chosen.of(user.id) if chosen is not None and user is not None else None
    return catalogue().resolve(tag or getattr(interaction, "locale", None))


def server_locale(interaction: Any, chosen: str | None = None) -> str:
    """The catalogue language of the public messages of the server an interaction came from:
    the one the server chose (`/rummy settings language:`, passed as `chosen`), else the
    server's Discord language when there is a catalogue for it, else English (so in a DM)."""
    return catalogue().resolve(chosen or getattr(interaction, "guild_locale", None))
