"""Rendering: exact amounts, rules text from the rules object, and no hidden card in public."""

from __future__ import annotations

import re
from fractions import Fraction

import discord
import pytest

from bot.discord_ui.screens.hand import hand_embed
from bot.discord_ui.screens.lobby import lobby_embed
from bot.discord_ui.screens.table import table_embed
from bot.engine.cards import Face, parse_cards
from bot.engine.match import Match
from bot.engine.rules import PROFILES, get_profile
from bot.table.advice import advise
from bot.words import cards as render
from bot.words.rules import rules_summary, ruling_text

CARD_TOKEN = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")


def embed_text(e: discord.Embed) -> str:
    parts = [e.title or "", e.description or "", e.footer.text or ""]
    for f in e.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


def embed_size(e: discord.Embed) -> int:
    return len(e)


def test_amounts_are_exact() -> None:
    assert render.amount(Fraction(15, 2)) == "7½"
    assert render.amount(Fraction(-15, 2)) == "-7½"
    assert render.amount(Fraction(1, 2)) == "½"
    assert render.amount(Fraction(40)) == "40"
    assert render.amount(Fraction(10, 3)) == "10/3"
    assert render.signed(Fraction(5)) == "+5"


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_rules_summary_comes_from_the_rules_object(name: str) -> None:
    rules = get_profile(name)
    text = rules_summary(rules)
    assert len(text) <= 2000
    assert f"{rules.first_drop}" in text and f"{rules.middle_drop}" in text
    if rules.deal_cap is None:
        assert "no cap" in text
    else:
        assert f"capped at {rules.deal_cap}" in text
    changed = rules.with_options(no_packing=True, joker_indicator_doubles=True)
    changed_text = rules_summary(changed)
    assert "No dropping" in changed_text and "doubles every payment" in changed_text


def test_ruling_text_for_the_paplu_example() -> None:
    rules = get_profile("paplu")
    cards = parse_cards("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C")
    text = ruling_text(cards, rules, Face.parse("8D"))
    assert "✅ A valid declaration." in text
    assert "Pure run: 4♥ 5♥ 6♥" in text
    assert "penalty if caught now: **0**" in text
    drawn = ruling_text(
        parse_cards("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C KD 4C"), rules, Face.parse("8D")
    )
    assert "Declarable: discard K♦" in drawn


@pytest.mark.parametrize(("profile", "players"), [("points", 2), ("paplu", 6), ("classic", 10)])
def test_public_table_never_shows_a_hand(profile: str, players: int) -> None:
    names = [f"player{i}" for i in range(players)]
    match = Match.create(names, profile, seed=3)
    view = match.public_view()
    embed = table_embed(view, match.rules, ["p1 drew from the stock"], 1.7e9)
    assert embed_size(embed) <= 6000
    shown = set(CARD_TOKEN.findall(embed_text(embed)))
    public = {render.card(view.top_discard), render.card(view.indicator)}
    assert shown <= public, f"hidden cards in the public table: {shown - public}"


def test_hand_view_shows_exactly_the_seats_cards() -> None:
    match = Match.create(["a", "b", "c"], "pool101", seed=11)
    for seat in range(3):
        obs = match.observation(seat)
        embed = hand_embed(obs, advise(obs), sort_by_suit=False, player_name="a")
        body = "\n".join(f.value or "" for f in embed.fields)
        shown = sorted(CARD_TOKEN.findall(body))
        assert shown == sorted(render.card(c) for c in obs.hand)
        by_suit = hand_embed(obs, advise(obs), sort_by_suit=True, player_name="a")
        body = "\n".join(f.value or "" for f in by_suit.fields)
        assert sorted(CARD_TOKEN.findall(body)) == shown


def test_by_suit_text_follows_the_picture_and_menu_order() -> None:
    """Sorted by suit, the text lists suits as the picture and the discard menu do: ♠ ♥ ♣ ♦
    (colours alternating), each low to high, jokers last."""
    from bot.images.layout import hand_order

    match = Match.create(["a", "b", "c", "d"], "paplu", seed=5)
    for seat in range(4):
        obs = match.observation(seat)
        by_suit = hand_embed(obs, advise(obs), sort_by_suit=True, player_name="a")
        names = [f.name or "" for f in by_suit.fields]
        suits = [n for n in names if n != "Jokers"]
        order = ["♠ Spades", "♥ Hearts", "♣ Clubs", "♦ Diamonds"]
        assert suits == [n for n in order if n in suits]
        body = "\n".join(f.value or "" for f in by_suit.fields)
        shown = CARD_TOKEN.findall(body)
        assert shown == [render.card(c) for c in hand_order(obs, sort_by_suit=True)]


def test_lobby_embed_lists_seats() -> None:
    rules = get_profile("deals").with_options(num_deals=3)
    e = lobby_embed(rules, [("alice", False), ("🤖 Hard", True)], "alice", 4, 45)
    text = embed_text(e)
    assert "alice" in text and "🤖 Hard" in text and "3 deals" in text
    assert "Seats (2/4)" in text


def test_the_rules_and_rulings_read_in_the_readers_language() -> None:
    """`/rummy rules`, help's last page and `/rummy check` in Hindi: the engine gives the
    numbers, the catalogue the words; English is what it was."""
    import re

    from bot.words.rules import PROFILE_IDS, profile_blurb

    devanagari = re.compile("[\u0900-\u097f]")
    assert set(PROFILE_IDS) == set(PROFILES)
    for rules in PROFILES.values():
        # The English blurb is the slash command's choice text and the hand history's line.
        assert profile_blurb(rules, "en") == rules.description
        assert devanagari.search(profile_blurb(rules, "hi"))
        hindi = rules_summary(rules, "hi")
        assert hindi.count("\n") == rules_summary(rules).count("\n")
        assert all(devanagari.search(line) for line in hindi.split("\n")[1:]), hindi
        assert f"{rules.middle_drop}" in hindi
    pool = rules_summary(get_profile("pool101"), "hi")
    assert "101 या ज़्यादा" in pool and "प्योर सीक्वेंस" in pool
    one = get_profile("classic").with_options(num_deals=1)
    assert "• Match: 1 deal; payments are transfers" in rules_summary(one)
    assert "1 बाज़ी;" in rules_summary(one, "hi")
    cards = parse_cards("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C")
    ruling = ruling_text(cards, get_profile("paplu"), Face.parse("8D"), "hi")
    assert "✅ यह सही डिक्लेयर है।" in ruling and "प्योर सीक्वेंस: 4♥ 5♥ 6♥" in ruling
