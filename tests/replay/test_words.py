"""The results in words (`bot/words/results.py`, what a replay page says at a deal's end) are the
results message's words: same sentences, same numbers, in every language. The Discord side
still words them with its own functions (`bot/discord_ui/render/results.py`), so both are
compared on real deals and on every kind of charge."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.discord_ui.render import hand as discord_hand
from bot.discord_ui.render import results as discord
from bot.engine.cards import Card, Face
from bot.engine.evaluate import Evaluation
from bot.engine.events import WrongShow
from bot.engine.replay import DealReplay
from bot.engine.settlement import Basis, Charge
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
def test_every_charge_score_and_standing_reads_the_same(lang: str) -> None:
    capped = Evaluation(False, 84, 80)
    for basis in Basis:
        for rate in (Fraction(1), Fraction(1, 2), Fraction(2)):
            for multiplier in (1, 2):
                base = 80 if basis is Basis.DEADWOOD else 40
                charge = Charge(1, basis, base, rate, multiplier, base * rate * multiplier)
                for ev in (None, capped):
                    mine = words.charge_text(charge, ev, lang)
                    assert mine == discord.charge_text(charge, ev, lang)
    for delta in (Fraction(15, 2), Fraction(-40), Fraction(0), Fraction(3)):
        for kind in ScoreKind:
            mine = words.score_change(delta, kind, lang)
            assert mine == discord.score_change(delta, kind, lang)
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
def test_wild_cards_in_groups_read_the_same(lang: str) -> None:
    wild_three = Card(0, Face(3, 0))
    joker = Card(1, Face(0, 0))
    run = (Card(2, Face(7, 1)), joker, Card(3, Face(9, 1)), wild_three)
    a_set = (Card(4, Face(8, 1)), Card(5, Face(8, 2)), joker)
    for kind, cards in (("impure", run), ("set", a_set), ("pure", run[:1])):
        assert words.group_text(kind, cards, 3, lang) == discord.group_text(kind, cards, 3, lang)
        assert words.wild_roles(kind, cards, 3, lang) == discord.wild_roles(kind, cards, 3, lang)
    assert words.wild_roles("impure", run, 3, lang)  # the joker and the 3 stand in for cards
