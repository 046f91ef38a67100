"""The catalogue of player-facing text: Fluent files per language, English as the fallback.

Why Fluent (`fluent.runtime`) and not gettext through Babel: a Fluent message is keyed by a
stable id, not by its English sentence, so fixing an English typo does not orphan every
translation; its variables are named (`{ $wait }`), so a check can compare them per message;
plurals are a selector the *translation* writes with its own language's categories (Hindi
counts 0 and 1 as `one`, English only 1), resolved by Babel's CLDR rules, and numbers are
formatted the same way (`NUMBER`, Indian digit grouping `1,00,000` in Hindi). A translator
edits plain text files; there is no compile step (`.po` → `.mo`) and nothing generated to keep
in sync. Terms (`-joker = जोकर`) let one language keep its glossary in one place.

Layout: `locales/<tag>/*.ftl`, one folder per language, named by its BCP 47 tag (`en`, `hi`,
or `pt-BR` where a region matters). Every folder is loaded; a new folder is a new language,
with no code. `en` is the source: every message exists there first.

Which language a reader gets: the requested Discord locale (`hi`, `en-GB`, `pt-BR`) if a
folder has exactly that tag, else its language part (`pt`), else English; and message by
message, an id the chosen language lacks is taken from English, so a half-translated
language still shows whole sentences.

The pseudo-locale (`PSEUDO`): English wrapped in ⟦ ⟧. Shown to a test client, any text
*without* the brackets did not come from the catalogue.
"""

from __future__ import annotations

import logging
import os
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast as ftl
from fluent.syntax import parse

from bot.table.vocabulary import ENGLISH, Locale

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).with_name("locales")
#: A folder of language folders loaded beside the built-in ones: to try a translation on a
#: running bot without installing it (and how the tests add a language with no code change).
EXTRA_ENV = "PAPLU_EXTRA_LOCALES"
SOURCE = ENGLISH
#: Not a real language: English wrapped in ⟦ ⟧, for tests that look for text outside the
#: catalogue. Its tag is in the private-use range, so no Discord client ever sends it.
PSEUDO = Locale("x-pseudo")

Args = Mapping[str, Any]


class CatalogueError(Exception):
    """A broken catalogue file, or a message that is asked for but missing in English."""


class Catalogue:
    """Every language's messages, loaded once; `text` picks the language and fills them in."""

    def __init__(self, root: Path = LOCALES_DIR, extra: Path | None = None) -> None:
        """Load every language folder of `root`, then those of `extra` (a translator's folder
        outside the package: a language there is added, or replaces the built-in one)."""
        self.root = root
        self._bundles: dict[str, FluentBundle] = {}
        self._sources: dict[str, dict[str, ftl.Message]] = {}
        self._worded: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        folders = {p.name: p for p in root.iterdir() if p.is_dir()}
        if extra is not None:
            if not extra.is_dir():
                raise CatalogueError(f"{EXTRA_ENV}={extra}: not a folder")
            folders.update((p.name, p) for p in extra.iterdir() if p.is_dir())
        for tag, folder in sorted(folders.items()):
            self._load(tag, sorted(folder.glob("*.ftl")))
        if SOURCE not in self._bundles:
            raise CatalogueError(f"{root} has no {SOURCE!r} folder")

    def _load(self, tag: str, files: Iterable[Path]) -> None:
        # Isolation marks (U+2068/U+2069 around each placeable) are for mixing right-to-left
        # text; in Discord they would also break mentions (`<#id>`) and `code` spans.
        bundle = FluentBundle([tag], use_isolating=False)
        messages: dict[str, ftl.Message] = {}
        for path in files:
            source = path.read_text(encoding="utf-8")
            resource = parse(source)
            for entry in resource.body:
                if isinstance(entry, ftl.Junk):
                    raise CatalogueError(
                        f"{path}: not valid Fluent: {(entry.content or '')[:60]!r}"
                    )
                if isinstance(entry, ftl.Message):
                    if entry.id.name in messages:
                        raise CatalogueError(f"{path}: {entry.id.name} is defined twice")
                    messages[entry.id.name] = entry
            bundle.add_resource(FluentResource(source))
        self._bundles[tag] = bundle
        self._sources[tag] = messages

    # ---- what is there ------------------------------------------------------------------

    @property
    def locales(self) -> tuple[Locale, ...]:
        """The languages with a folder, the source first."""
        return (SOURCE, *sorted(Locale(t) for t in self._bundles if t != SOURCE))

    def ids(self, tag: str = SOURCE) -> frozenset[str]:
        return frozenset(self._sources.get(tag, {}))

    def message(self, tag: str, msg_id: str) -> ftl.Message | None:
        """The parsed message (for checks: its variables, its attributes)."""
        return self._sources.get(tag, {}).get(msg_id)

    def resolve(self, locale: object) -> Locale:
        """The catalogue language for a Discord locale (`discord.Locale`, its value, or None):
        the exact tag, else its language, else the source."""
        tag = str(getattr(locale, "value", locale) or SOURCE)
        if tag == PSEUDO or tag in self._bundles:
            return Locale(tag)
        language = tag.split("-")[0]
        return Locale(language if language in self._bundles else SOURCE)

    def has(self, tag: str, msg_id: str, attribute: str | None = None) -> bool:
        """Whether language `tag` itself (no fallback) has this message (or attribute)."""
        message = self.message(tag, msg_id)
        if message is None:
            return False
        return attribute is None or any(a.id.name == attribute for a in message.attributes)

    # ---- words --------------------------------------------------------------------------

    def text(
        self, locale: object, msg_id: str, args: Args | None = None, *, attribute: str | None = None
    ) -> str:
        """Message `msg_id` (or one of its attributes) in the reader's language, its variables
        filled in; from English where that language lacks it."""
        tag = self.resolve(locale)
        key: tuple[Any, ...] | None = None
        if not args or all(type(v) in CACHEABLE for v in args.values()):
            key = (tag, msg_id, attribute, *sorted((args or {}).items()))
            worded = self._worded.get(key)
            if worded is not None:
                self._worded.move_to_end(key)
                return worded
        worded = self._text(tag, msg_id, args, attribute)
        if key is not None:
            self._worded[key] = worded
            if len(self._worded) > WORDED_KEEP:
                self._worded.popitem(last=False)
        return worded

    def _text(self, tag: str, msg_id: str, args: Args | None, attribute: str | None) -> str:
        if tag == PSEUDO:
            return f"⟦{self.text(SOURCE, msg_id, args, attribute=attribute)}⟧"
        for candidate in (tag, SOURCE) if tag != SOURCE else (SOURCE,):
            if self.has(candidate, msg_id, attribute):
                return self._format(candidate, msg_id, attribute, args or {})
        raise CatalogueError(f"no message {msg_id!r}{'.' + attribute if attribute else ''}")

    def _format(self, tag: str, msg_id: str, attribute: str | None, args: Args) -> str:
        bundle = self._bundles[tag]
        message = bundle.get_message(msg_id)
        pattern = message.attributes[attribute] if attribute else message.value
        if pattern is None:
            raise CatalogueError(f"{tag}/{msg_id} has no value")
        value, errors = bundle.format_pattern(pattern, {k: _fit(v) for k, v in args.items()})
        if errors:
            # A missing variable: show the sentence anyway (with Fluent's `{$name}` marker),
            # but say so, as the placeholder check in the tests should have caught it.
            log.error("catalogue %s/%s: %s", tag, msg_id, errors)
        return str(value)


#: How many worded messages are kept. The same few hundred (a button label, "13 cards", a
#: seat's line) are worded again at every refresh of every table and hand view, and
#: Fluent's number and plural formatting costs about 30 µs a message: a table refresh
#: words some 25. Only plain arguments (text, numbers) make a key.
WORDED_KEEP = 8192
CACHEABLE = frozenset({str, int, float, Fraction})  # not bool: True and 1 are one key

#: Fluent refuses a placeable longer than this (and shows `{???}` instead of the message).
MAX_PLACEABLE = 1000


def _fit(value: Any) -> Any:
    """A text argument cut to what Fluent accepts: an echo of user input (a bad card token)
    can be any length, and a cut echo still names what was wrong."""
    if isinstance(value, str) and len(value) > MAX_PLACEABLE:
        return value[: MAX_PLACEABLE - 1] + "…"
    return value


@cache
def catalogue() -> Catalogue:
    """The bot's catalogue, loaded at first use (and checked whole then: a broken file fails
    the start, not the first player who would have read it)."""
    extra = os.environ.get(EXTRA_ENV)
    return Catalogue(extra=Path(extra) if extra else None)


def text(locale: object, msg_id: str, **args: Any) -> str:
    """`msg_id` in the language of `locale` (a `discord.Locale`, a tag, or None for English)."""
    return catalogue().text(locale, msg_id, args)
