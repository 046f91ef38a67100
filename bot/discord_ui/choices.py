"""The fixed menus of the slash commands' options, shared by the slices that offer them.

Their names are Discord's base text in English; the catalogue's `choice-<value>` words them
for Discord's other languages (`translator.py`). Languages are the exception: each is named in
its own words, everywhere (`bot.words.languages`), and the list is the catalogue's folders.
"""

from __future__ import annotations

from discord import app_commands

from bot.engine.rules import PROFILES
from bot.table.league import FOLLOW_SERVER
from bot.words.cards import HINT_WORDS
from bot.words.languages import languages
from bot.words.rules import profile_blurb

#: `/rummy new profile:`, `/rummy rules`, `/rummy check`: each profile with what it is.
PROFILE_CHOICES = [
    app_commands.Choice(name=f"{name} — {profile_blurb(rules, None)}", value=name)
    for name, rules in PROFILES.items()
]
#: Leaderboards and server settings name a profile by its name alone.
PROFILE_NAME_CHOICES = [app_commands.Choice(name=p, value=p) for p in PROFILES]
DECLARATION_CHOICES = [
    app_commands.Choice(name="assisted — Declare only when verified", value="assisted"),
    app_commands.Choice(name="honor — any layout; wrong shows penalised", value="honor"),
]
HINT_CHOICES = [
    app_commands.Choice(name=f"{level} — {words}", value=level)
    for level, words in HINT_WORDS.items()
]
#: `/rummy language`: follow Discord, or one of the catalogue's languages.
FOLLOW_DISCORD = "auto"
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Follow my Discord", value=FOLLOW_DISCORD),
    *(app_commands.Choice(name=lang.label, value=str(lang.tag)) for lang in languages()),
]
#: `/rummy settings language:`: the server's own Discord language, or one the bot speaks.
SERVER_LANGUAGE_CHOICES = [
    app_commands.Choice(name="Follow the server's Discord language", value=FOLLOW_SERVER),
    *(app_commands.Choice(name=lang.label, value=str(lang.tag)) for lang in languages()),
]
