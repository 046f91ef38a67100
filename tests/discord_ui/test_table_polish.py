"""What players trip over at the table: each answer says what happened and why."""

from __future__ import annotations

import random

import discord

from bot.discord_ui.screens.hand import hand_embed, structure, wrong_show_lines
from bot.discord_ui.screens.lobby import lobby_view
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import parse_cards
from bot.engine.events import WrongShow
from bot.engine.match import Match, Player
from bot.engine.observation import Observation
from bot.engine.rules import Rules, get_profile
from bot.engine.states import OutReason
from bot.table.advice import advise
from bot.table.outcomes import AddedAI, Played
from bot.words.refusals import added_ai_text, played_text


def _text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}: {f.value}" for f in embed.fields]
    parts.append(embed.footer.text or "")
    return "\n".join(parts)


def test_the_drawn_card_is_named_and_marked() -> None:
    m = Match.create([Player("a", "A"), Player("b", "B")], get_profile("points"), seed=4)
    assert m.deal is not None
    seat = m.deal.turn
    before = {c.id for c in m.deal.hands[seat]}
    m.apply(Action.draw_stock(seat))
    drawn = next(c for c in m.deal.hands[seat] if c.id not in before)
    obs = m.observation(seat)
    assert obs.drawn == drawn
    text = _text(hand_embed(obs, advise(obs), False, "A"))
    assert f"you drew {drawn.face.pretty}" in text
    assert f"{drawn.face.pretty}🆕" in text or f"{drawn.face.pretty}*🆕" in text
    assert played_text(Played(ActionKind.DRAW_STOCK, card=drawn), "en") == (
        f"You drew {drawn.face.pretty}."
    )
    other = m.observation(1 - seat)
    assert other.drawn is None  # nobody else learns it


def test_a_hand_without_groups_shows_pairs_and_near_runs() -> None:
    hand = list(parse_cards("7D 8D 7S 7H 2C 4C KS AS QH 9H 5D JK 10C"))
    parts = dict(structure(hand, wild_rank=None))
    show = {k: " ".join(c.face.pretty for c in v) for k, v in parts.items()}
    assert show["Wild cards"] == "🃏"
    assert show["Pairs (half a set)"] == "7♠ 7♥ 7♦"
    assert "2♣ 4♣" in show["Near-runs"] and "K♠ A♠" in show["Near-runs"]  # Q-K-A wraps
    assert "5♦" in show["Fits nothing yet"] or "8♦" in show["Near-runs"]
    assert sum(len(v) for v in parts.values()) == len(hand)


def test_a_wrong_show_says_what_was_wrong_and_what_it_costs() -> None:
    rules = get_profile("points").with_options(declaration_mode="honor", nothing_wild=True)
    shown = tuple(parse_cards("2S 4S 6H 8H 10C QC KD 3D 5D 7C 9S JH AH"))
    obs = _obs_for(rules)
    lines = "\n".join(wrong_show_lines(WrongShow(0, OutReason.WRONG_SHOW, shown, False, None), obs))
    assert "no pure run" in lines
    assert "two runs needed" in lines
    assert "fit no group" in lines
    assert str(rules.invalid_penalty) in lines


def _obs_for(rules: Rules) -> Observation:
    m = Match.create([Player("a", "A"), Player("b", "B")], rules, seed=1)
    return m.observation(0)


def test_a_full_lobby_offers_no_join_and_no_ai_menu() -> None:
    open_ids = [c.custom_id for c in lobby_view("abcdefghij", 3).children]  # type: ignore[attr-defined]
    full_ids = [c.custom_id for c in lobby_view("abcdefghij", 3, full=True).children]  # type: ignore[attr-defined]
    assert any(i.endswith(":join") for i in open_ids)
    assert any(i.endswith(":add_ai") for i in open_ids)
    assert not any(i.endswith((":join", ":add_ai")) for i in full_ids)
    assert any(i.endswith(":start") for i in full_ids)


def test_added_ai_wording() -> None:
    assert added_ai_text(AddedAI("easy", "🤖 Easy"), "en") == "Added an easy AI player (🤖 Easy)."
    assert added_ai_text(AddedAI("hard", "🤖 Hard"), "en") == "Added a hard AI player (🤖 Hard)."


def test_structure_keeps_every_card_once() -> None:
    rng = random.Random(3)
    deck = list(
        parse_cards(
            "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H 7H "
            "8H 9H 10H JH QH KH AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JK"
        )
    )
    for _ in range(200):
        hand = rng.sample(deck, 13)
        parts = structure(hand, wild_rank=rng.randint(1, 13))
        got = sorted(c.id for _, cs in parts for c in cs)
        assert got == sorted(c.id for c in hand)


def test_the_table_shows_every_action_since_the_last_turn() -> None:
    from bot.discord_ui.screens.table import recent_lines

    log = [f"P{i % 4} discarded {i}♠" for i in range(30)]
    lines = recent_lines(log, seats=4)
    assert lines == log[-9:]  # 3 other players x (draw + throw) fit easily, plus context
    long_log = ["x" * 300 for _ in range(10)]
    assert sum(len(line) + 1 for line in recent_lines(long_log, seats=6)) <= 1024


def test_a_timed_out_player_is_told_which_card_the_bot_threw() -> None:
    from functools import partial

    from bot.discord_ui.hands import timeout_note as _timeout_note
    from bot.table.autoplay import timeout_finish
    from bot.table.model import Seat, Table, TableOptions

    table = Table("abcdefghij", 1, 2, 11, TableOptions("points", 2, 60))
    table.seats = [Seat("u11", "A", user_id=11), Seat("u22", "B", user_id=22)]
    table.match = Match.create([Player("u11", "A"), Player("u22", "B")], get_profile("points"), 5)
    m = table.match
    assert m.deal is not None
    seat = m.deal.turn
    assert _timeout_note(table, m.observation(seat)) is None
    table.timeouts[m.players[seat].id] = 1
    m.apply_timeout(seat, [Action.draw_stock(seat)], 1, partial(timeout_finish, just_drew=True))
    thrown = m.deal.pile[-1]
    note = _timeout_note(table, m.observation(seat))
    assert note is not None
    assert f"the bot threw {thrown.face.pretty} for you" in note
    assert "2 more timeouts in a row" in note
    assert _timeout_note(table, m.observation(1 - seat)) is None


def test_results_show_the_cap_and_what_each_wild_card_stands_for() -> None:
    from fractions import Fraction

    from bot.discord_ui.screens.results import result_embed
    from bot.engine.evaluate import evaluate_hand
    from bot.engine.match import FinishedDeal
    from bot.engine.settlement import Basis, Charge, DealResult
    from bot.engine.states import EndReason, ScoreKind, SeatStatus
    from bot.words.results import group_text, score_change

    rules = get_profile("points")
    loser = evaluate_hand(
        parse_cards("KS KH QD QC JS JH 10D 10C 9S 9H 8D 8C 7S"), rules, wild_rank=None
    )
    assert loser.deadwood > 80 and loser.penalty == 80
    winner = evaluate_hand(
        parse_cards("AS 2S 3S 9H 10H JK QH 7C 7D 7S 4D 5D 6D"), rules, wild_rank=None
    )
    result = DealResult(
        1, 0, EndReason.DECLARED, 0,
        (Charge(1, Basis.DEADWOOD, 80, Fraction(1), 1, Fraction(80)),),
        {0: Fraction(80), 1: Fraction(-80)},
    )  # fmt: skip
    finished = FinishedDeal(
        result, {0: winner, 1: loser}, {0: SeatStatus.ACTIVE, 1: SeatStatus.ACTIVE}, {}, {}
    )
    embed = result_embed(finished, ["A", "B"], ["A: +80 chips"], True, ["A"], ScoreKind.NET, None)
    text = _text(embed)
    assert f"deadwood {loser.deadwood}, capped at 80" in text
    assert "🃏 as J♥" in text
    assert "A (won 80 chips)" in text and "B (lost 80 chips)" in text
    # An impure run with a wild-rank card standing in at the top; a set with a joker.
    run = parse_cards("QH KH 3S")
    assert group_text("impure", run, wild_rank=3) == "Q♥ K♥ 3♠* as A♥"
    triple = parse_cards("7C 7D JK")
    assert group_text("set", triple, wild_rank=None) == "7♣ 7♦ 🃏 as a 7"
    assert score_change(Fraction(7), ScoreKind.PENALTY) == "+7 points"


def test_after_declaring_the_player_sees_the_winning_hand() -> None:
    from bot.engine.policy import RandomPolicy

    for seed in range(40):
        m = Match.create([Player("a", "A"), Player("b", "B")], get_profile("points"), seed=seed)
        policy = RandomPolicy(random.Random(seed))
        while m.finished_deal() is None:
            assert m.deal is not None
            m.apply(policy.act(m.observation(m.deal.turn)))
        finished = m.finished_deal()
        assert finished is not None
        winner = finished.result.winner
        if winner is None or winner not in finished.evaluations:
            continue
        obs = m.observation(winner)
        text = _text(hand_embed(obs, advise(obs), False, "A", finished=finished))
        assert "You declared!" in text or "won this deal" in text
        ev = finished.evaluations[winner]
        for g in ev.groups:
            assert g.cards[0].face.pretty in text
        assert "no cards right now" not in text
        return
    raise AssertionError("no deal was won by a seat with a hand")


def test_a_busy_channel_says_who_can_close_the_table() -> None:
    from bot.table.errors import ChannelBusy
    from bot.words.refusals import refusal_text

    for in_lobby in (True, False):
        text = refusal_text(ChannelBusy(in_lobby), "en")
        assert "host" in text and "Manage Server" in text and "/rummy cancel" in text
