"""The parts of a hand view kept per player (`hand_parts`) are what a fresh build would make.

A player's view is built for every table version; the embed's cards part and the picture's
scene are made again only when their key (what their makers read) or the advice changed. Over
whole deals of every seat, in both sort orders, every hint level and two languages, the kept
part always equals one made from scratch, and the others' moves find it kept."""

from __future__ import annotations

import random

import pytest

from bot.discord_ui.hand_parts import HandParts
from bot.discord_ui.screens.controls import as_seen
from bot.discord_ui.screens.hand import cards_part
from bot.discord_ui.screens.hand_controls import hand_view
from bot.engine.actions import ActionKind
from bot.engine.match import Match, Player
from bot.engine.rules import get_profile
from bot.images import hand_picture
from bot.table.advice import AdviceCache
from bot.words import Locale
from bot.words.pictures import captions


def _play(seed: int) -> list[Match]:
    """Every state of a three-seat pool match's deals (copies), moves picked at random."""
    players = [Player(f"u{i}", name) for i, name in enumerate(("Asha", "Bob", "Chitra"))]
    m = Match.create(players, get_profile("pool101"), seed=seed)
    rng = random.Random(seed)
    states = [m.copy()]
    for _ in range(120):
        if m.deal is None or m.phase.name != "PLAYING":
            break
        obs = m.observation(m.deal.turn)
        moves = [a for a in obs.legal_actions if a.kind is not ActionKind.DROP]
        if not moves:
            break
        m.apply(rng.choice(moves))
        states.append(m.copy())
    return states


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize(("sort", "hints"), [(False, "full"), (True, "full"), (False, "groups")])
@pytest.mark.parametrize("locale", [None, Locale("hi")])
def test_kept_parts_equal_fresh_ones(
    seed: int, sort: bool, hints: str, locale: Locale | None
) -> None:
    parts, advice = HandParts(), AdviceCache()
    kept_cards = kept_pictures = 0
    for m in _play(seed):
        for seat in range(3):
            obs = m.observation(seat)
            if obs.match_phase != "playing" or not obs.hand:
                continue
            key = ("t1", seat)
            adv = advice.get("t1", obs)
            before_cards = parts._cards.get(key)
            part = parts.cards(key, obs, adv, sort, hints, locale)
            assert part == cards_part(obs, adv, sort, hints, locale)
            kept_cards += before_cards is not None and before_cards[2] is part
            evaluation = adv.drawn if adv.drawn is not None else adv.best
            before_picture = parts._pictures.get(key)
            picture = parts.picture(key, obs, sort, evaluation, hints, locale)
            fresh = hand_picture(obs, sort, evaluation, hints, words=captions(locale))
            assert picture == fresh
            kept_pictures += before_picture is not None and before_picture[2] is picture
    # The others' moves (most of the states) found the seat's parts made already.
    assert kept_cards > 100 and kept_pictures > 100


def test_a_view_as_seen_leaves_the_version_out_of_game_ids_only() -> None:
    players = [Player(f"u{i}", name) for i, name in enumerate(("Asha", "Bob"))]
    m = Match.create(players, get_profile("points"), seed=5)
    assert m.deal is not None
    obs = m.observation(m.deal.turn)
    advice = AdviceCache().get("t1", obs)
    seen = as_seen(hand_view("tbl1", 7, obs, advice, False, card_images=True))
    later = as_seen(hand_view("tbl1", 8, obs, advice, False, card_images=True))
    assert seen == later  # the same controls a version later read the same
    ids = [c["custom_id"] for row in seen for c in row["components"]]
    assert ids and all(i.startswith(("rm:tbl1:*:", "rs:tbl1:*:")) for i in ids), ids
    other = as_seen(hand_view("tbl2", 7, obs, advice, False, card_images=True))
    assert other != seen  # another table's controls are other controls


def test_the_controls_dicts_are_what_discord_py_would_send() -> None:
    """`controls.Rows` sends component dicts built directly; they are written exactly as
    discord.py writes the same controls (a button with and without an emoji, disabled; a
    menu whose lines have a description or not)."""
    import discord

    from bot.discord_ui.screens.controls import button, menu, option

    cid = "rm:abcd:1:0:refresh"
    assert (
        button(cid, "Refresh", emoji="🔄")
        == discord.ui.Button(label="Refresh", custom_id=cid, emoji="🔄").to_component_dict()
    )
    green = discord.ButtonStyle.success
    assert (
        button(cid, "Declare", green, disabled=True)
        == discord.ui.Button(
            label="Declare", custom_id=cid, style=green, disabled=True
        ).to_component_dict()
    )
    lines = [option("7♠", "41", "leaves 20"), option("8♠", "42")]
    theirs = discord.ui.Select(
        custom_id="rs:abcd:1:0:discard",
        placeholder="Discard a card…",
        options=[
            discord.SelectOption(label="7♠", value="41", description="leaves 20"),
            discord.SelectOption(label="8♠", value="42"),
        ],
    )
    assert menu("rs:abcd:1:0:discard", "Discard a card…", lines) == theirs.to_component_dict()
