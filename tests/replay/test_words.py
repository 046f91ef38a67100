"""The results in words (`bot/words/results.py`, what a replay page says at a deal's end) are the
results message's words: same sentences, same numbers, in every language. The Discord side's
results message (`bot/discord_ui/screens/results.py`) is built from the same functions; the
two are compared on real deals and on every kind of charge, so neither can drift."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.discord_ui.screens import hand as discord_hand
from bot.discord_ui.screens import results as discord
from bot.engine.cards import Card, Face
from bot.engine.events import WrongShow
from bot.engine.replay import DealReplay
from bot.engine.states import ScoreKind
from bot.table.model import Standing
from bot.words import results as words
from tests.replay.deals import scenarios

LANGS = ["en", "hi"]


@pytest.mark.parametrize("lang", LANGS)
def test_each_seat_and_the_end_read_as_the_results_message_says(lang: str) -> None:
    seats = shows = 0
    for played in scenarios().values():
        for history in played.histories:
            r = DealReplay(history)
            finished = r.finish()
            rank, rules = r.deal.wild_rank, r.rules
            names = [p.name for p in r.players]
            embed = discord.result_embed(
                finished, names, [], False, [], ScoreKind.NET, rank, locale=lang
            )
            assert words.end_text(finished.result, names, lang) == embed.description
            for seat in finished.status:
                lines = words.seat_lines(finished, seat, rank, 2, lang)
                assert lines == discord.seat_lines(finished, seat, rank, 2, lang)
                # Without the groups (the page draws them) the rest is the same lines' tail.
                rest = words.seat_lines(finished, seat, rank, 2, lang, groups=False)
                assert lines[len(lines) - len(rest) :] == rest
                seats += 1
            for show in (e for e in r.deal.events if isinstance(e, WrongShow)):
                assert words.wrong_show_problems(show, rules, rank, lang) == (
                    discord_hand.wrong_show_problems(show, rules, rank, lang)
                )
                shows += 1
    assert seats > 20 and shows >= 1


@pytest.mark.parametrize("lang", LANGS)
def test_the_standings_read_as_the_results_message_says(lang: str) -> None:
    standings = [
        Standing("Asha", Fraction(-15, 2), False, False, True),
        Standing("Ravi", Fraction(103), True, False, False),
        Standing("Meera", Fraction(12), False, True, False),
    ]
    for kind in ScoreKind:
        mine = [
            words.standing_line(
                s.name, s.score, kind, out=s.out, left=s.left, winner=s.winner, locale=lang
            )
            for s in standings
        ]
        assert mine == discord.standings_lines(standings, kind, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_wild_card_in_a_group_says_what_it_stands_for(lang: str) -> None:
    wild_three = Card(0, Face(3, 0))
    joker = Card(1, Face(0, 0))
    run = (Card(2, Face(7, 1)), joker, Card(3, Face(9, 1)), wild_three)
    roles = words.wild_roles("impure", run, 3, lang)
    assert set(roles) == {joker.id, wild_three.id}  # the joker and the 3 stand in for cards
    shown = words.group_text("impure", run, 3, lang)
    assert all(role in shown for role in roles.values())
    assert words.wild_roles("pure", run[:1], 3, lang) == {}
