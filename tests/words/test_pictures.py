"""The pictures' words as the Discord side fills them from the catalogue
(`bot.words.pictures.captions`): every language gives every caption, each template uses
only the slots the layout fills, Hindi is Devanagari, a locale finds its language."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import discord
import pytest

from bot.images.captions import BASIS_CODES, OUT_CODES, SLOTS, STATUS_CODES, text_fields
from bot.words import PSEUDO, catalogue
from bot.words.pictures import captions
from tests.conftest import PROJECT_ROOT

LANGUAGES = catalogue().locales


@pytest.mark.parametrize("tag", [*LANGUAGES, PSEUDO])
def test_every_template_uses_only_the_slots_the_layout_fills(tag: str) -> None:
    words = captions(tag)
    for field in text_fields():
        value = getattr(words, field)
        assert value.strip(), (tag, field)
        used = {name for _lit, name, _spec, _conv in string.Formatter().parse(value) if name}
        assert used == SLOTS.get(field, frozenset()), (tag, field, value)
        filled = words.fill(value, **dict.fromkeys(used, "7"))
        assert "{" not in filled and "}" not in filled, (tag, field, filled)
    assert set(words.status) == set(STATUS_CODES)
    assert set(words.basis) == set(BASIS_CODES)
    assert set(words.out) == set(OUT_CODES)
    assert words.code(words.out, "some_new_reason") == "some new reason"  # readable fallback


def test_hindi_captions_are_devanagari_with_no_english_word() -> None:
    hi, en = captions("hi"), captions("en")
    for field in text_fields():
        value = re.sub(r"\{\w+\}", "", getattr(hi, field))
        assert not re.search(r"[A-Za-z]", value), (field, value)
        assert value != getattr(en, field), field
    for table in ("status", "basis", "out"):
        for code, value in getattr(hi, table).items():
            assert not re.search(r"[A-Za-z]", value), (table, code, value)
            assert any("\u0900" <= c <= "\u097f" for c in value), (table, code, value)


def test_a_locale_finds_its_captions() -> None:
    assert captions(discord.Locale.hindi).tag == "hi"
    assert captions("hi").fill(captions("hi").plate_score, score="22") == "स्कोर 22"
    assert captions(discord.Locale.american_english).tag == "en"
    assert captions(None).tag == "en"
    assert captions("fr").tag == "en"  # no French catalogue: English
    assert captions("hi") is captions(discord.Locale.hindi)  # worded once per language
    pseudo = captions(PSEUDO)
    assert pseudo.kind_set == "⟦Set⟧"


def test_the_gallery_command_writes_every_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.words.pictures import main

    assert main(["gallery", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.split()
    for tag in LANGUAGES:
        suffix = "" if tag == "en" else f"-{tag}"
        for name in ("hand-drawn", "table-6-seats", "results"):
            path = tmp_path / f"{name}{suffix}.png"
            assert path.is_file() and str(path) in printed


def test_bot_images_holds_none_of_the_words() -> None:
    """No caption is written into `bot/images` itself: every one comes from the catalogue."""
    english = captions("en")
    words = [re.sub(r"\{\w+\}", "", getattr(english, f)).strip() for f in text_fields()]
    words += [*english.status.values(), *english.basis.values(), *english.out.values()]
    words = [w for w in words if sum(c.isalpha() for c in w) >= 3]
    assert len(words) > 40
    literals: set[str] = set()
    for path in (PROJECT_ROOT / "bot" / "images").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value.strip())
            elif isinstance(node, ast.JoinedStr):  # an f-string's literal parts
                for part in node.values:
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        literals.add(part.value.strip())
    # The engine's codes (a status, a basis) and the captions' own field and slot names are
    # identifiers that happen to be English words, not captions.
    identifiers = {*STATUS_CODES, *BASIS_CODES, *OUT_CODES, *SLOTS, *text_fields()}
    identifiers |= {slot for slots in SLOTS.values() for slot in slots}
    assert sorted((set(words) & literals) - identifiers) == []
