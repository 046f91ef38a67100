"""Discord's documented payload limits for messages, components, embeds and commands.

Discord answers a payload that breaks these with ``400 Invalid Form Body`` (code 50035).  The fake
server does the same *and* records a violation, because a bot that relies on discord.py's partial
client-side checks would otherwise only fail in production.

Discord's API document (`openapi.py`) encodes some of these as schema keywords (a custom_id's
``maxLength``, a row's ``maxItems``) but not the rest: the 2,000 characters of a bot's content
(the document allows 4,000, a Nitro user's limit), the 6,000 characters of a message's embeds
together, five action rows, a select alone in its row, unique custom_ids, the rules of command
names in every locale. Both are checked on every request, so a limit the document has is
checked twice, once by each, and each check has its own violation kind.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .models import FLAG_COMPONENTS_V2

MAX_CONTENT = 2000
#: A message nonce: an integer or a string of at most 25 characters.
MAX_NONCE = 25
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_PLACEHOLDER = 150
MAX_OPTION_TEXT = 100
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
MAX_V2_COMPONENTS = 40
MAX_CHOICES = 25  # of a command option, and of an autocomplete answer
MAX_CHOICE_TEXT = 100  # a choice's name (in every locale) and a string choice's value
MAX_COMMAND_TEXT = 100  # a command's or option's description (in every locale)
MAX_CHAT_COMMANDS = 100
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_FILES = 10  # attachments uploaded with one message
MAX_UPLOAD_BYTES = 25 * 1024 * 1024  # per file, without boosts

SELECT_TYPES = (3, 5, 6, 7, 8)
MAX_COMMAND_NAME = 32
#: The locales Discord accepts as keys of `name_localizations` / `description_localizations`
#: (Discord's "Locales" reference); any other key is refused with 400 Invalid Form Body.
DISCORD_LOCALES = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)


def _name_char(char: str) -> bool:
    """Discord's command-name alphabet, ``[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]``: Python's
    ``re`` has no ``\\p{...}``, so letters and numbers by Unicode category, and the Devanagari
    and Thai blocks whole (their vowel signs are marks, not letters)."""
    if char in "-_" or unicodedata.category(char)[0] in "LN":
        return True
    return "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"


def valid_name(name: Any, *, chat_input: bool = True) -> bool:
    """A command or option name as Discord's API reference allows it: 1-32 characters of
    its alphabet, and for chat-input commands and their options lowercase where the letters
    have a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_COMMAND_NAME:
        return False
    if not all(_name_char(c) for c in name):
        return False
    return not chat_input or name == name.lower()


def _check_interactive(comp: dict[str, Any], where: str, errors: list[str]) -> None:
    """Checks shared by buttons and selects wherever they sit (v1 rows or v2 layouts)."""
    ctype = comp.get("type")
    custom_id = comp.get("custom_id")
    if custom_id is not None and not 1 <= len(str(custom_id)) <= MAX_CUSTOM_ID:
        errors.append(f"{where}: custom_id must be 1-{MAX_CUSTOM_ID} chars ({len(str(custom_id))})")
    if ctype == 2:
        label = comp.get("label")
        if label is not None and len(label) > MAX_LABEL:
            errors.append(f"{where}: button label longer than {MAX_LABEL} chars ({len(label)})")
        style = comp.get("style")
        if style == 5:
            if not comp.get("url"):
                errors.append(f"{where}: link button without url")
        elif style != 6 and not custom_id:
            errors.append(f"{where}: non-link button without custom_id")
        if not label and not comp.get("emoji"):
            errors.append(f"{where}: button needs a label or an emoji")
    elif ctype in SELECT_TYPES:
        if not custom_id:
            errors.append(f"{where}: select menu without custom_id")
        placeholder = comp.get("placeholder")
        if placeholder is not None and len(placeholder) > MAX_PLACEHOLDER:
            errors.append(f"{where}: placeholder longer than {MAX_PLACEHOLDER} chars")
        if ctype == 3:
            options = comp.get("options") or []
            if not options:
                errors.append(f"{where}: string select without options")
            if len(options) > MAX_SELECT_OPTIONS:
                errors.append(f"{where}: {len(options)} select options (max {MAX_SELECT_OPTIONS})")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                errors.append(f"{where}: duplicate select option values")
            for opt in options:
                for key in ("label", "value", "description"):
                    if opt.get(key) is not None and len(str(opt[key])) > MAX_OPTION_TEXT:
                        errors.append(f"{where}: option {key} longer than {MAX_OPTION_TEXT}")
        max_values = comp.get("max_values", 1)
        min_values = comp.get("min_values", 1)
        if min_values > max_values:
            errors.append(f"{where}: min_values > max_values")
        if ctype == 3 and max_values > len(comp.get("options") or []):
            errors.append(f"{where}: max_values exceeds the number of options")


def validate_components(components: list[dict[str, Any]], flags: int) -> list[str]:
    """Return human-readable problems with a message's ``components`` array."""
    errors: list[str] = []
    custom_ids: list[str] = []

    def collect(items: list[dict[str, Any]]) -> None:
        for comp in items:
            if comp.get("custom_id") is not None:
                custom_ids.append(str(comp["custom_id"]))
            collect(comp.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    collect([comp[key]])

    collect(components)
    if len(set(custom_ids)) != len(custom_ids):
        errors.append("components: duplicate custom_id within one message")

    if flags & FLAG_COMPONENTS_V2:
        count = 0

        def walk(items: list[dict[str, Any]], path: str) -> None:
            nonlocal count
            for i, comp in enumerate(items):
                count += 1
                where = f"{path}[{i}]"
                _check_interactive(comp, where, errors)
                walk(comp.get("components") or [], where)
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]], where + ".accessory")

        walk(components, "components")
        if count > MAX_V2_COMPONENTS:
            errors.append(f"components: {count} components (max {MAX_V2_COMPONENTS})")
        return errors

    if len(components) > MAX_ROWS:
        errors.append(f"components: {len(components)} action rows (max {MAX_ROWS})")
    for r, row in enumerate(components):
        where = f"components[{r}]"
        if row.get("type") != 1:
            errors.append(f"{where}: top-level component must be an action row (type 1)")
            continue
        children = row.get("components") or []
        if not children:
            errors.append(f"{where}: empty action row")
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        buttons = [c for c in children if c.get("type") == 2]
        if selects and len(children) > 1:
            errors.append(f"{where}: a select menu must be alone in its action row")
        if len(buttons) > MAX_ROW_BUTTONS:
            errors.append(f"{where}: {len(buttons)} buttons (max {MAX_ROW_BUTTONS})")
        for c, comp in enumerate(children):
            if comp.get("type") not in (2, *SELECT_TYPES):
                errors.append(f"{where}.components[{c}]: type {comp.get('type')} not allowed here")
            _check_interactive(comp, f"{where}.components[{c}]", errors)
    return errors


def validate_embeds(embeds: list[dict[str, Any]]) -> list[str]:
    """Return problems with an ``embeds`` array (per-field limits and the 6000-char total)."""
    errors: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"embeds: {len(embeds)} embeds (max {MAX_EMBEDS})")
    total = 0

    def measure(value: Any, limit: int, where: str) -> None:
        nonlocal total
        if value is None:
            return
        text = str(value)
        total += len(text)
        if len(text) > limit:
            errors.append(f"{where}: {len(text)} chars (max {limit})")

    for i, emb in enumerate(embeds):
        w = f"embeds[{i}]"
        measure(emb.get("title"), MAX_EMBED_TITLE, f"{w}.title")
        measure(emb.get("description"), MAX_EMBED_DESCRIPTION, f"{w}.description")
        measure((emb.get("footer") or {}).get("text"), MAX_FOOTER, f"{w}.footer.text")
        measure((emb.get("author") or {}).get("name"), MAX_AUTHOR_NAME, f"{w}.author.name")
        fields = emb.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            errors.append(f"{w}.fields: {len(fields)} fields (max {MAX_EMBED_FIELDS})")
        for j, fld in enumerate(fields):
            measure(fld.get("name"), MAX_FIELD_NAME, f"{w}.fields[{j}].name")
            measure(fld.get("value"), MAX_FIELD_VALUE, f"{w}.fields[{j}].value")
            if not fld.get("name") or not fld.get("value"):
                errors.append(f"{w}.fields[{j}]: name and value must be non-empty")
    if total > MAX_EMBED_TOTAL:
        errors.append(f"embeds: {total} characters in total (max {MAX_EMBED_TOTAL})")
    return errors


def validate_message(
    payload: dict[str, Any], *, creating: bool, has_files: bool = False, flags: int | None = None
) -> list[str]:
    """Validate a message create/edit body.  ``creating`` also rejects empty messages."""
    errors: list[str] = []
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        errors.append(f"content: {len(str(content))} chars (max {MAX_CONTENT})")
    use_flags = flags if flags is not None else int(payload.get("flags") or 0)
    if payload.get("components") is not None:
        errors.extend(validate_components(payload["components"], use_flags))
    if payload.get("embeds") is not None:
        errors.extend(validate_embeds(payload["embeds"]))
    if use_flags & FLAG_COMPONENTS_V2 and (payload.get("content") or payload.get("embeds")):
        errors.append("components v2 messages cannot have content or embeds")
    nonce = payload.get("nonce")
    if nonce is not None and len(str(nonce)) > MAX_NONCE:
        errors.append(f"nonce: {len(str(nonce))} chars (max {MAX_NONCE})")
    if creating and not (
        content or payload.get("embeds") or payload.get("components") or has_files
    ):
        errors.append("Cannot send an empty message (50006)")
    return errors


def validate_files(sizes: list[int]) -> list[str]:
    """Uploads of one request: at most 10 files, each within the upload limit."""
    errors: list[str] = []
    if len(sizes) > MAX_FILES:
        errors.append(f"files: {len(sizes)} uploads (max {MAX_FILES})")
    errors.extend(
        f"files[{i}]: {size} bytes (max {MAX_UPLOAD_BYTES})"
        for i, size in enumerate(sizes)
        if size > MAX_UPLOAD_BYTES
    )
    return errors


def validate_choices(choices: list[dict[str, Any]]) -> list[str]:
    """An autocomplete answer (interaction callback type 8): at most 25 choices, each named
    1-100 characters in every locale, a string value at most 100 characters."""
    errors: list[str] = []
    if len(choices) > MAX_CHOICES:
        errors.append(f"{len(choices)} autocomplete choices (max {MAX_CHOICES})")
    for i, choice in enumerate(choices):
        _check_choice(choice, f"choices[{i}]", errors)
    return errors


def _check_choice(choice: dict[str, Any], where: str, errors: list[str]) -> None:
    if not 1 <= len(str(choice.get("name", ""))) <= MAX_CHOICE_TEXT:
        errors.append(f"{where}: name must be 1-{MAX_CHOICE_TEXT} chars")
    value = choice.get("value")
    if isinstance(value, str) and len(value) > MAX_CHOICE_TEXT:
        errors.append(f"{where}: value longer than {MAX_CHOICE_TEXT} chars ({len(value)})")
    check_localizations({**choice, "type": "choice"}, where, errors)


def validate_modal(data: dict[str, Any]) -> list[str]:
    """A modal (interaction callback type 9): a custom_id, a title of at most 45 characters,
    one to five top-level components, custom_ids within limits and unique."""
    errors: list[str] = []
    custom_id = str(data.get("custom_id") or "")
    if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        errors.append(f"custom_id must be 1-{MAX_CUSTOM_ID} chars ({len(custom_id)})")
    title = str(data.get("title") or "")
    if not 1 <= len(title) <= MAX_MODAL_TITLE:
        errors.append(f"title must be 1-{MAX_MODAL_TITLE} chars ({len(title)})")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= MAX_MODAL_COMPONENTS:
        errors.append(f"{len(comps)} top-level components (need 1-{MAX_MODAL_COMPONENTS})")
    ids: list[str] = []

    def walk(items: list[dict[str, Any]], path: str) -> None:
        for i, comp in enumerate(items):
            where = f"{path}[{i}]"
            cid = comp.get("custom_id")
            if cid is not None:
                ids.append(str(cid))
                if not 1 <= len(str(cid)) <= MAX_CUSTOM_ID:
                    errors.append(f"{where}: custom_id must be 1-{MAX_CUSTOM_ID} chars")
            walk(comp.get("components") or [], where + ".components")
            if isinstance(comp.get("component"), dict):
                walk([comp["component"]], where + ".component")

    walk(comps, "components")
    if len(set(ids)) != len(ids):
        errors.append("components: duplicate custom_id within one modal")
    return errors


def validate_commands(
    commands: list[dict[str, Any]], *, partial: bool = False, whole_set: bool = False
) -> list[str]:
    """Command definitions being synced: each one (``partial``: an edit, checking only the
    fields it sets), and for a whole set (bulk overwrite) unique names per type and at most
    100 chat-input commands."""
    errors = [e for cmd in commands for e in validate_command(cmd, partial=partial)]
    if whole_set:
        names = [(c.get("type", 1), c.get("name")) for c in commands]
        if len(set(names)) != len(names):
            errors.append("duplicate command names")
        if sum(1 for c in commands if c.get("type", 1) == 1) > MAX_CHAT_COMMANDS:
            errors.append(f"more than {MAX_CHAT_COMMANDS} chat-input commands")
    return errors


def validate_command(cmd: dict[str, Any], *, partial: bool = False) -> list[str]:
    """An application command definition being synced: names (1-32, lowercase for chat
    input), descriptions (1-100), at most 25 options and 25 choices each, in every locale.
    ``partial`` (an edit) checks only the fields present."""
    errors: list[str] = []
    name = cmd.get("name", "")
    ctype = cmd.get("type", 1)
    where = f"command {name!r}"
    if ctype == 1:
        if (not partial or "name" in cmd) and not valid_name(name):
            errors.append(f"{where}: invalid chat-input command name")
        desc = cmd.get("description", "")
        if (not partial or "description" in cmd) and not 1 <= len(desc) <= MAX_COMMAND_TEXT:
            errors.append(f"{where}: description must be 1-{MAX_COMMAND_TEXT} chars")

    def check_options(options: list[dict[str, Any]], path: str) -> None:
        if len(options) > 25:
            errors.append(f"{path}: more than 25 options")
        seen_optional = False
        for opt in options:
            opath = f"{path}.{opt.get('name')}"
            check_localizations(opt, opath, errors)
            if not valid_name(opt.get("name", ""), chat_input=ctype == 1):
                errors.append(f"{opath}: invalid option name")
            if not 1 <= len(opt.get("description", "")) <= MAX_COMMAND_TEXT:
                errors.append(f"{opath}: description must be 1-{MAX_COMMAND_TEXT} chars")
            if opt.get("type") in (1, 2):
                check_options(opt.get("options") or [], opath)
                continue
            if opt.get("required"):
                if seen_optional:
                    errors.append(f"{opath}: required option after an optional one")
            else:
                seen_optional = True
            if len(opt.get("choices") or []) > MAX_CHOICES:
                errors.append(f"{opath}: more than {MAX_CHOICES} choices")
            for choice in opt.get("choices") or []:
                _check_choice(choice, f"{opath}.choice[{choice.get('value')!r}]", errors)
            if opt.get("choices") and opt.get("autocomplete"):
                errors.append(f"{opath}: choices and autocomplete are exclusive")

    check_localizations(cmd, where, errors, chat_input=ctype == 1)
    check_options(cmd.get("options") or [], where)
    return errors


def check_localizations(
    item: dict[str, Any], where: str, errors: list[str], *, chat_input: bool = True
) -> None:
    """Discord's rules for a command's, option's or choice's localizations: known locale keys,
    names that obey the name rule (lowercase for chat input), descriptions of 1-100 chars."""
    for field in ("name_localizations", "description_localizations"):
        values = item.get(field) or {}
        if not isinstance(values, dict):
            errors.append(f"{where}: {field} must be an object")
            continue
        for locale, value in values.items():
            if locale not in DISCORD_LOCALES:
                errors.append(f"{where}: {field} has an unknown locale {locale!r}")
            if not isinstance(value, str) or not 1 <= len(value) <= MAX_COMMAND_TEXT:
                errors.append(f"{where}: {field}[{locale}] must be 1-{MAX_COMMAND_TEXT} chars")
            elif (
                field == "name_localizations"
                and item.get("type") != "choice"
                and not valid_name(value, chat_input=chat_input)
            ):
                errors.append(f"{where}: {field}[{locale}] is not a valid name")
