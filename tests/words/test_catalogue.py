"""The catalogue stays whole: every English message has a Hindi one with the same variables, no
id is unused, the slash commands' English mirrors the cogs, and words follow the language's
rules (plurals, digit grouping) and fall back to English message by message."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

from bot.discord_ui.errors import UserError, message_for
from bot.discord_ui.translator import CatalogueTranslator, choice_id, command_id
from bot.engine import errors as engine
from bot.engine.rules import get_profile
from bot.table import errors as e
from bot.words import PSEUDO, Catalogue, CatalogueError, catalogue, refusals, text
from bot.words.catalogue import LOCALES_DIR
from bot.words.languages import language_label
from tests.conftest import PROJECT_ROOT
from tests.discord_ui.command_tree import rummy_group
from tests.fakediscord import limits

CAT = catalogue()
Opt = e.TableOptionProblem
TRANSLATED = [tag for tag in CAT.locales if tag != "en"]


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ftl.VariableReference) -> None:
        self.names.add(node.id.name)


def variables(node: ftl.BaseNode | None) -> set[str]:
    found = _Variables()
    if node is not None:
        found.visit(node)
    return found.names


def shapes(tag: str, msg_id: str) -> dict[str | None, set[str]]:
    """Each part of a message (the value: None; each attribute by name) with its variables."""
    message = CAT.message(tag, msg_id)
    assert message is not None
    parts: dict[str | None, set[str]] = {}
    if message.value is not None:
        parts[None] = variables(message.value)
    for attribute in message.attributes:
        parts[attribute.id.name] = variables(attribute.value)
    return parts


def test_both_languages_are_loaded() -> None:
    assert CAT.locales[0] == "en" and "hi" in CAT.locales
    assert len(CAT.ids("en")) > 100


@pytest.mark.parametrize("tag", TRANSLATED)
def test_every_message_is_translated_with_the_same_variables(tag: str) -> None:
    missing = sorted(CAT.ids("en") - CAT.ids(tag))
    assert not missing, f"{tag} lacks {missing}"
    extra = sorted(CAT.ids(tag) - CAT.ids("en"))
    assert not extra, f"{tag} has ids English does not: {extra}"
    for msg_id in sorted(CAT.ids("en")):
        assert shapes(tag, msg_id) == shapes("en", msg_id), msg_id


def test_hindi_is_hindi() -> None:
    """Not English copied over: every Hindi message that is a sentence has Devanagari."""
    untranslated = []
    for msg_id in sorted(CAT.ids("hi")):
        message = CAT.message("hi", msg_id)
        assert message is not None
        # A language's English name (`language-self.english`) is English by design.
        parts = [message.value, *(a.value for a in message.attributes if a.id.name != "english")]
        for part in parts:
            if part is None:
                continue
            words = "".join(
                el.value for el in part.elements if isinstance(el, ftl.TextElement)
            ).strip()
            letters = [c for c in words if c.isalpha()]
            if len(letters) >= 3 and not any("\u0900" <= c <= "\u097f" for c in letters):
                untranslated.append(msg_id)
    assert not untranslated, untranslated


# ---- no id unused, no id missing ---------------------------------------------------------


def _literals() -> set[str]:
    """Every string constant in the bot's code (bot/ and cogs/)."""
    found: set[str] = set()
    for root in ("bot", "cogs"):
        for path in (PROJECT_ROOT / root).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
    return found


def _tree_ids() -> set[str]:
    """The command and choice ids the translator asks for, from the real command tree."""
    group = rummy_group()
    ids = {command_id(group.qualified_name)}
    for command in group.walk_commands():
        ids.add(command_id(command.qualified_name))
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                ids.update(filter(None, (choice_id(c) for c in param.choices)))
    return ids


def test_no_catalogue_id_is_unused_and_none_is_missing() -> None:
    code = _literals()
    tree = _tree_ids()
    en = CAT.ids("en")
    spoken = {i for i in en if not i.startswith(("cmd-", "choice-"))}
    assert sorted(spoken - code) == [], "ids no code names (exact string literals)"
    assert sorted({i for i in en if i.startswith(("cmd-", "choice-"))} ^ tree) == []
    namespaces = {i.split("-", 1)[0] + "-" for i in spoken}
    named = {s for s in code if s.startswith(tuple(namespaces)) and s.replace("-", "").isalnum()}
    named = {s for s in named if s == s.lower() and " " not in s and s.count("-") >= 1}
    # Literals shaped like ids of a catalogue namespace must be ids (a typo fails here).
    looks_like_ids = {s for s in named if s.split("-", 1)[0] in ("refusal", "done", "error")}
    looks_like_ids |= {s for s in named if s.startswith(("engine-", "option-", "settings-"))}
    assert sorted(looks_like_ids - en) == []


def _tree_strings() -> list[tuple[str, str | None, str]]:
    """(message id, attribute, English) for every translated string of the command tree."""
    group = rummy_group()
    out = [(command_id(group.qualified_name), None, group.description)]
    for command in group.walk_commands():
        out.append((command_id(command.qualified_name), None, command.description))
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                out.append(
                    (command_id(command.qualified_name), param.display_name, param.description)
                )
                for choice in param.choices:
                    cid = choice_id(choice)
                    if cid is not None:
                        out.append((cid, None, choice.name))
    return out


def test_english_command_texts_mirror_the_cogs() -> None:
    """The cogs' descriptions are Discord's base text; the English catalogue must say the
    same, so a translator working from it translates what users really see."""
    for msg_id, attribute, english in _tree_strings():
        assert CAT.text("en", msg_id, attribute=attribute) == english, (msg_id, attribute)


# ---- the slash-command translator --------------------------------------------------------


async def test_the_synced_payload_carries_hindi_for_every_description() -> None:
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    tree.add_command(rummy_group())
    await tree.set_translator(CatalogueTranslator())
    (payload,) = [
        await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()
    ]  # type: ignore[arg-type]
    assert limits.validate_command(payload) == []
    assert payload["description_localizations"] == {"hi": CAT.text("hi", "cmd-rummy")}
    assert not payload.get("name_localizations"), "names stay as typed"
    seen = 0
    for sub in payload["options"]:
        assert sub["description_localizations"]["hi"] == CAT.text("hi", f"cmd-rummy-{sub['name']}")
        assert set(sub["description_localizations"]) == {"hi"}
        commands = [(f"cmd-rummy-{sub['name']}", sub)]
        if sub["type"] == 2:  # a subcommand group (`/rummy tournament`): its subcommands
            commands = [(f"cmd-rummy-{sub['name']}-{c['name']}", c) for c in sub["options"]]
            for msg_id, command in commands:
                assert command["description_localizations"]["hi"] == CAT.text("hi", msg_id)
        options = [(msg_id, opt) for msg_id, c in commands for opt in c.get("options", [])]
        for msg_id, opt in options:
            hindi = opt["description_localizations"]["hi"]
            assert hindi == CAT.text("hi", msg_id, attribute=opt["name"])
            assert not opt.get("name_localizations")
            for choice in opt.get("choices", []):
                if choice["value"] in CAT.locales:
                    # A language is named in its own words, in every language.
                    assert choice["name"] == language_label(choice["value"], CAT)
                    assert not choice.get("name_localizations")
                elif choice["name"] != choice["value"]:
                    assert choice["name_localizations"]["hi"] == CAT.text(
                        "hi", f"choice-{choice['value']}"
                    )
                else:
                    assert not choice.get("name_localizations"), "codes stay as they are"
            seen += 1
    assert seen > 20


async def test_a_language_without_a_message_gets_no_localization(tmp_path: Path) -> None:
    """Discord then shows the English base, rather than an English "translation"."""
    for tag in ("en", "pt"):
        (tmp_path / tag).mkdir()
    (tmp_path / "en" / "c.ftl").write_text("cmd-x = English\n", encoding="utf-8")
    (tmp_path / "pt" / "c.ftl").write_text("# nothing yet\n", encoding="utf-8")
    translator = CatalogueTranslator(Catalogue(tmp_path))

    class Cmd:
        qualified_name = "x"

    ctx = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description,
        Cmd(),  # type: ignore[arg-type]
    )
    s = app_commands.locale_str("English")
    assert await translator.translate(s, discord.Locale.brazil_portuguese, ctx) is None
    assert await translator.translate(s, discord.Locale.american_english, ctx) is None


# ---- language rules and fallback --------------------------------------------------------


def test_plurals_and_numbers_follow_each_language() -> None:
    assert text("en", "done-dropped", unit="points", cost=1) == "You dropped (1 point)."
    assert text("en", "done-dropped", unit="points", cost=2) == "You dropped (2 points)."
    assert text("en", "done-dropped", unit="chips", cost=100000) == "You dropped (100,000 chips)."
    # Hindi groups digits the Indian way (lakh, crore).
    assert text("hi", "done-dropped", unit="chips", cost=100000) == "आपने ड्रॉप किया (1,00,000 चिप्स)।"
    assert (
        text("hi", "refusal-too-soon", wait=5)
        == "टेबल अभी-अभी दोबारा दिखाई गई है; 5 सेकंड बाद कोशिश करें।"
    )


def test_a_discord_locale_finds_its_language_or_english(tmp_path: Path) -> None:
    for tag in ("en", "pt"):
        (tmp_path / tag).mkdir()
    (tmp_path / "en" / "m.ftl").write_text("a = A { $n }\nb = B\n", encoding="utf-8")
    (tmp_path / "pt" / "m.ftl").write_text("a = Á { $n }\n", encoding="utf-8")
    cat = Catalogue(tmp_path)
    assert cat.resolve(discord.Locale.brazil_portuguese) == "pt"
    assert cat.resolve("hi") == "en" and cat.resolve(None) == "en"
    assert cat.text("pt-BR", "a", {"n": 3}) == "Á 3"
    assert cat.text("pt-BR", "b") == "B", "a missing message is taken from English"
    with pytest.raises(CatalogueError):
        cat.text("pt", "nowhere")


def test_a_broken_file_fails_at_load(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "m.ftl").write_text("a = { $n\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match="not valid Fluent"):
        Catalogue(tmp_path)


def test_the_pseudo_locale_wraps_every_message() -> None:
    assert text(PSEUDO, "refusal-table-full") == "⟦This table is full.⟧"
    assert CAT.resolve(PSEUDO) == PSEUDO


def test_mentions_and_code_keep_their_shape() -> None:
    """No isolation marks around placeables: `<#id>` must stay a channel mention."""
    said = refusals.refusal_text(
        e.SettingsConflict(e.SettingsProblem.NOT_ON_LIST, channel=123456789), "hi"
    )
    assert said.startswith("<#123456789> ") and "\u2068" not in said


# ---- every refusal, in every language ---------------------------------------------------

REFUSALS: list[e.Refusal] = [
    e.NoTableHere(), e.TableClosed(), e.WrongPlace(), e.ChannelBusy(True), e.ChannelBusy(False),
    e.AlreadySeated(), e.TableFull(), e.NotSeated(), e.NotPlaying(),
    *(e.HostOnly(w) for w in e.LobbyAction), e.SeatedOrManagerOnly(), e.TooSoon(4),
    *(e.DropNotAllowed(r) for r in e.DropReason),
    e.HostOrManagerOnly(), *(e.AlreadyStarted(w) for w in e.LobbyAction),
    e.NotStarted(), e.NotEnoughPlayers("points", 2), e.UnknownTier(("easy",)), e.AlreadyLeft(),
    e.NotYourControls(), e.StaleView(), e.UnknownAction(), e.ChooseCard(), e.NoDealWaiting(),
    e.NotInMatch(), e.NotInDeal(), e.ReviewGone(), e.SaveFailed(), e.BadBoard(),
    e.HistoryPlayersOnly(), e.DealGone(), e.NotInvited(), e.NoSuchSeat(), e.NotAtLastTable(),
    e.BadOption(Opt.UNKNOWN_PROFILE, name="x"),
    e.BadOption(Opt.DECLARATION, choices=("assisted", "honor")),
    e.BadOption(Opt.HINTS, choices=("full", "groups", "off")),
    e.BadOption(Opt.DEALS_CHOICES, choices=(2, 3, 6)), e.BadOption(Opt.NO_DEALS, profile="points"),
    e.BadOption(Opt.NOT_POOL, profile="points"), e.BadOption(Opt.NOT_TARGET, profile="points"),
    e.BadOption(Opt.SEATS, profile="points", low=2, high=6, seats=9),
    e.BadOption(Opt.TURN_TIMER, low=15, high=600, value=9),
    e.BadOption(Opt.RULES, code=engine.OptionProblem.OUT_OF_RANGE, name="pool_limit", low=20,
                high=1000, value=1),
    e.BadOption(Opt.RULES, code=engine.OptionProblem.DEALS_OR_TARGET), e.BadOption(Opt.RULES),
    *(e.SettingsConflict(p, channel=5) for p in e.SettingsProblem),
    *(e.RuleRefused(cls()) for cls in (
        engine.UnknownSeat, engine.SeatNotActive, engine.NotYourTurn, engine.WrongPhase,
        engine.CardNotInHand, engine.CannotDiscardTakenCard, engine.EmptyPile,
        engine.PackingNotAllowed, engine.HandRummyNotAllowed, engine.InvalidDeclarationError,
        engine.BadArrangement, engine.MatchOver, engine.RummyError,
    )),
]  # fmt: skip


@pytest.mark.parametrize("tag", TRANSLATED)
def test_every_refusal_is_worded_in_every_language(tag: str) -> None:
    for refusal in REFUSALS:
        english = refusals.refusal_text(refusal, "en")
        said = refusals.refusal_text(refusal, tag)
        assert said and "{" not in said, (refusal, said)
        assert said != english, (refusal, said)


def test_the_english_words_did_not_change() -> None:
    """The move to the catalogue kept the sentences players (and other tests) know."""
    assert refusals.refusal_text(e.TooSoon(4), "en") == (
        "The table was just posted again; try in 4 s."
    )
    assert refusals.refusal_text(e.BadOption(Opt.DEALS_CHOICES, choices=(2, 3, 6)), "en") == (
        "Deals rummy is played over 2, 3, 6 deals."
    )
    pool = e.BadOption(
        Opt.RULES, code=engine.OptionProblem.OUT_OF_RANGE, name="pool_limit", low=20, high=1000,
        value=1,
    )  # fmt: skip
    assert refusals.refusal_text(pool, "en") == "`pool_limit` must be between 20 and 1,000, not 1."
    started = {w: refusals.refusal_text(e.AlreadyStarted(w), "en") for w in e.LobbyAction}
    assert started == {
        e.LobbyAction.JOIN: "The game has already started; you cannot join now.",
        e.LobbyAction.ADD_AI: "The game has already started; you cannot add an AI now.",
        e.LobbyAction.START: "The game has already started; you cannot start now.",
        e.LobbyAction.REMOVE: "The game has already started; you cannot do that now.",
        e.LobbyAction.HOST: "The game has already started; you cannot do that now.",
    }
    assert refusals.refusal_text(e.HostOnly(e.LobbyAction.ADD_AI), "en") == (
        "Only the host can add AI players."
    )
    assert refusals.refusal_text(e.DropNotAllowed(e.DropReason.TURN), "en") == (
        "You can drop only on your own turn, before you draw."
    )
    assert refusals.refusal_text(e.SettingsConflict(e.SettingsProblem.UNKNOWN_HINTS), "en") == (
        "Hints are full, groups or off."
    )
    assert (
        refusals.refusal_text(e.RuleRefused(engine.NotYourTurn()), "en") == "It is not your turn."
    )


def test_every_refusal_code_of_the_table_layer_has_its_words() -> None:
    """Each code a table refusal carries (an enum next to the refusal) has a message id, so
    a new code without words fails here rather than reaching a player as "not allowed"."""
    assert set(refusals.DROP_IDS) == set(e.DropReason)
    assert set(refusals.HOST_ONLY_IDS) == set(e.LobbyAction)
    assert set(refusals.SETTINGS_IDS) == set(e.SettingsProblem)
    # RULES carries the engine's own code, worded by `RULE_OPTION_IDS`.
    assert set(refusals.OPTION_IDS) == set(e.TableOptionProblem) - {Opt.RULES}
    for msg_id in [
        *refusals.DROP_IDS.values(),
        *refusals.HOST_ONLY_IDS.values(),
        *refusals.SETTINGS_IDS.values(),
        *refusals.OPTION_IDS.values(),
    ]:
        assert msg_id in CAT.ids("en"), msg_id
    # The values are the words' selector keys (and what logs print): unchanged by the enums.
    assert [w.value for w in e.LobbyAction] == ["join", "add_ai", "start", "remove", "host"]
    assert [r.value for r in e.DropReason] == ["rules", "out", "turn", "drawn"]


def test_every_setting_a_change_reports_has_its_words() -> None:
    from bot.discord_ui.screens.settings import setting_changed_text
    from bot.table.league import Setting

    samples = {Setting.TURN_TIMER: 60, Setting.HINTS: "off", Setting.LANGUAGE: "hi"}
    for tag in CAT.locales:
        for what in Setting:
            said = setting_changed_text(what, samples.get(what, 5), tag)
            assert said and "{" not in said and not said.startswith(f"{what}:"), (what, said)


REFUSAL_CODES = ("HostOnly", "DropNotAllowed", "AlreadyStarted", "BadOption", "SettingsConflict")


def test_the_table_layer_raises_refusals_with_codes_not_strings() -> None:
    calls = 0
    for path in (PROJECT_ROOT / "bot" / "table").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in (*REFUSAL_CODES, "_need_lobby"):
                continue
            calls += 1
            for arg in node.args:
                assert not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)), (
                    f"{path.name}:{node.lineno}: {name} with a string code"
                )
    assert calls >= 25


def test_every_engine_phase_reason_has_its_own_words() -> None:
    """Each `WrongPhase` code has an id, chosen by the code: the engine's English text (for
    logs and the terminal) plays no part in what a player reads."""
    assert set(refusals.WRONG_PHASE_IDS) == set(engine.PhaseReason), "give each code an id"
    for reason, msg_id in refusals.WRONG_PHASE_IDS.items():
        error = engine.WrongPhase(reason)
        assert str(error) == engine.PHASE_TEXT[reason]
        assert refusals.engine_error_text(error, "en") == engine.PHASE_TEXT[reason] + "."
        assert refusals.engine_error_text(error, "hi") == CAT.text("hi", msg_id)
        error.message = "reworded by a developer"  # the words do not depend on the text
        assert refusals.engine_error_text(error, "hi") == CAT.text("hi", msg_id)
    assert len(set(refusals.WRONG_PHASE_IDS.values())) == len(refusals.WRONG_PHASE_IDS)


def test_every_engine_phase_reason_the_engine_raises_is_a_code() -> None:
    """The engine raises `WrongPhase` (directly or via `_need_phase`) with a code, never text."""
    calls = 0
    for path in (PROJECT_ROOT / "bot" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in ("WrongPhase", "_need_phase"):
                continue
            calls += 1
            for arg in node.args:
                assert not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)), (
                    f"{path.name}:{node.lineno}: WrongPhase with a sentence"
                )
    assert calls >= 10


def test_every_rule_option_problem_has_its_words() -> None:
    """Every `OptionProblem` code has an id; a real refusal of the engine reaches the player
    in their language from its code and facts."""
    assert set(refusals.RULE_OPTION_IDS) == set(engine.OptionProblem)
    from bot.table.options import build_options

    with pytest.raises(e.BadOption) as refused:
        build_options("pool101", None, 60, None, {}, None, 1, None)
    assert refused.value.params["code"] is engine.OptionProblem.OUT_OF_RANGE
    said = refusals.refusal_text(refused.value, "hi")
    assert "`pool_limit`" in said and "1,000" in said and "बीच" in said, said
    with pytest.raises(ValueError) as forged:
        get_profile("points").with_options(first_drop="-3")
    assert isinstance(forged.value, engine.RuleOptionError)
    facts = forged.value
    assert refusals.rule_option_text(facts.problem, facts.params, "en") == (
        "`first_drop` cannot be negative, not -3."
    )


def test_user_errors_and_discord_checks_are_worded_per_reader() -> None:
    error = UserError("error-hand-size", count=12)
    assert message_for(error, "en") == "A hand has 13 cards (or 14 after drawing); you gave 12."
    assert message_for(error, "hi") == "हाथ में 13 पत्ते होते हैं (उठाने के बाद 14); आपने 12 दिए।"
    assert message_for(app_commands.NoPrivateMessage(), "hi") == CAT.text(
        "hi", "error-no-private-message"
    )
    assert message_for(ValueError("a bug"), "hi") is None


def test_the_catalogue_files_ship_with_the_package() -> None:
    """pyproject's package-data must cover every catalogue file (the image installs the
    package, so a file it misses is missing in production)."""
    import fnmatch
    import tomllib

    data = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())
    globs = data["tool"]["setuptools"]["package-data"]["bot.words"]
    package = LOCALES_DIR.parent
    for path in LOCALES_DIR.rglob("*.ftl"):
        rel = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(rel, g) for g in globs), rel


def test_a_huge_argument_is_cut_not_refused() -> None:
    """Fluent will not fill in a placeable over 1000 characters; an echo of user input is cut."""
    said = text("hi", "error-bad-card", detail="ZZZ" * 2000)
    assert said.startswith("ZZZ") and "…" in said and len(said) < 1100


def test_worded_messages_are_kept_but_never_mixed_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogue keeps what it worded (a refresh words the same labels again): a kept
    message is the one its language, id and arguments give, and the store stays bounded."""
    import importlib

    module = importlib.import_module("bot.words.catalogue")
    fresh = module.Catalogue()
    monkeypatch.setattr(module, "WORDED_KEEP", 50)
    for n in range(200):
        assert fresh.text("en", "table-cards", {"cards": n % 3}) == (
            "1 card" if n % 3 == 1 else f"{n % 3} cards"
        )
        assert fresh.text("hi", "table-cards", {"cards": n % 3}) == f"{n % 3} पत्ते"
        assert fresh.text("en", "lobby-seats", {"seated": n, "seats": 6}) == f"Seats ({n}/6)"
    assert len(fresh._worded) <= 50
    # A value that is not plain text or a number is worded each time, never kept.
    fresh.text("en", "lobby-seats", {"seated": True, "seats": 6})
    kept = [value for key in fresh._worded for _name, value in key[3:]]
    assert kept and not any(isinstance(value, bool) for value in kept)


def test_typed_cards_the_engine_cannot_read_are_worded_from_their_code() -> None:
    """`/rummy check` and the terminal word a `CardParseError` from its code and facts; the
    English is the engine's own text, the Hindi is Devanagari with the token unchanged."""
    from bot.engine.cards import CardParseError, CardProblem, Face, parse_faces

    assert set(refusals._CARD_IDS) == set(CardProblem)
    refused: list[CardParseError] = []
    for bad in ("ZZ", "", "AS AS AS", "JK JK JK"):
        with pytest.raises(CardParseError) as err:
            if bad in ("ZZ", ""):
                Face.parse(bad) if bad else parse_faces("")
            else:
                get_profile("points").parse_hand(bad)
        refused.append(err.value)
    assert [e.problem for e in refused] == [
        CardProblem.NOT_A_CARD, CardProblem.NO_CARDS, CardProblem.TOO_MANY, CardProblem.TOO_MANY,
    ]  # fmt: skip
    for error in refused:
        english = refusals.card_error_text(error, "en")
        assert english == str(error) or error.problem is CardProblem.NO_CARDS, english
        hindi = refusals.card_error_text(error, "hi")
        assert any("\u0900" <= ch <= "\u097f" for ch in hindi), hindi
    assert "'ZZ' कोई पत्ता नहीं है" in refusals.card_error_text(refused[0], "hi")
    assert "सिर्फ़ 2 प्रिंटेड जोकर" in refusals.card_error_text(refused[3], "hi")
