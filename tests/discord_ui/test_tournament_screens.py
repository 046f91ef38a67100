"""What a tournament shows, without Discord: every refusal worded in every language, the
registration, round and final messages within Discord's limits at 60 and 200 players, the
status a player reads, and the record that lets anyone check each seating."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.discord_ui.screens import tournament as screen
from bot.engine.hints import HintLevel
from bot.table import bracket
from bot.table.bracket import Advance, AdvanceKind, SeatResult
from bot.table.errors import TournamentProblem, TournamentRefused
from bot.table.tournament_model import (
    Entrant,
    Tournament,
    TournamentFormat,
    TournamentOptions,
    TournamentStatus,
)
from bot.table.tournament_rounds import finish, next_players, seat_round
from bot.table.vocabulary import Locale
from bot.words import catalogue, refusals
from bot.words.tournament import OPTION_IDS
from tests.fakediscord import limits

LANGUAGES = [Locale(tag) for tag in catalogue().locales]


def tournament(players: int, seats: int = 6, seed: int = 3) -> Tournament:
    options = TournamentOptions(
        "Saturday night", TournamentFormat.POINTS, 2, seats, Advance(AdvanceKind.TOP, 2),
        1_800_000_000.0, 200, 30, False, HintLevel.OFF, True, Locale("en"),
    )  # fmt: skip
    t = Tournament("tour123456", 1, 2, 3, options, seed=seed)
    for i in range(players):
        t.entrants.append(Entrant(f"u{10**17 + i}", f"player {i:03d}", 10**17 + i, checked_in=True))
    return t


def play_out(t: Tournament) -> None:
    """Every round seated and given results, to the final (no tables are run)."""
    t.status = TournamentStatus.RUNNING
    players = [e.key for e in t.entrants]
    while True:
        seat_round(t, players, 1_800_000_000.0)
        r = t.rounds[-1]
        for slot in r.tables:
            slot.results = [
                SeatResult(k, Fraction(40 - 10 * i), draw=r.draw.index(k))
                for i, k in enumerate(slot.seats)
            ]
            slot.advanced = [] if r.final else bracket.qualifiers(slot.results, t.options.advance)
        r.done = True
        if r.final:
            finish(t)
            return
        players = next_players(r, t)


@pytest.mark.parametrize("tag", LANGUAGES)
def test_every_tournament_refusal_is_worded(tag: Locale) -> None:
    facts: dict[str, object] = {"cap": 60, "opens": "1800000000", "minimum": 2, "count": 1}
    for problem in TournamentProblem:
        if problem is TournamentProblem.BAD_OPTION:
            continue
        said = refusals.refusal_text(TournamentRefused(problem, **facts), tag)
        assert said and "{" not in said, (problem, said)
        if tag != "en":
            assert said != refusals.refusal_text(TournamentRefused(problem, **facts), "en")
    for option in [*OPTION_IDS, "?"]:
        bad = TournamentRefused(
            TournamentProblem.BAD_OPTION, option=option, low=1, high=6, value="9",
            choices="2, 3, 6", format="pool101",
        )  # fmt: skip
        said = refusals.refusal_text(bad, tag)
        assert said and "{" not in said and "Unknown" not in said, (option, said)
    ranged = TournamentRefused(TournamentProblem.BAD_OPTION, option="chip_line", low=-1000,
                               high=1000, value="5000")  # fmt: skip
    assert "5000" in refusals.refusal_text(ranged, tag)


@pytest.mark.parametrize("players", [60, 200])
@pytest.mark.parametrize("tag", LANGUAGES)
def test_the_messages_keep_within_discords_limits(players: int, tag: Locale) -> None:
    t = tournament(players)
    t.options = TournamentOptions.from_dict({**t.options.to_dict(), "language": tag})
    t.status = TournamentStatus.CHECK_IN
    embed = screen.register_embed(t, tag).to_dict()
    assert limits.validate_embeds([embed]) == [], embed
    view = screen.register_view(t, tag)
    assert view is not None and len(view.children) == 3  # Register, Unregister, I'm here
    play_out(t)
    for r in t.rounds:
        shown = screen.round_embed(t, r, {}, tag).to_dict()
        assert limits.validate_embeds([shown]) == [], shown
        assert r.commitment in shown["description"]  # the commitment leads the message
    final = screen.final_embed(t, tag, "standings.png").to_dict()
    assert limits.validate_embeds([final]) == []
    assert screen.register_view(t, tag) is None  # no buttons once it has started


def test_the_status_a_player_reads() -> None:
    t = tournament(13)
    first = t.entrants[0]
    assert "registered" in screen.own_text(t, first.user_id or 0, {}, Locale("en"))
    play_out(t)
    winner = t.entrant(t.winner or "")
    assert winner is not None and winner.user_id is not None
    said = screen.own_text(t, winner.user_id, {}, Locale("en"))
    assert said == "Your final place: 1 of 13."
    assert screen.own_text(t, 42, {}, Locale("en")) == "You are not in this tournament."
    rows = screen.picture_rows(t)
    assert rows[0].winner and rows[0].place == "1"
    assert sum(len(r.names.split(", ")) for r in rows) == 13


def test_the_record_reproduces_every_seating() -> None:
    t = tournament(61)
    play_out(t)
    record = json.loads(screen.record_json(t))
    assert sorted(record["players"]) == sorted(record["places"])
    advance = Advance.from_dict(record["options"]["advance"])
    for r in record["rounds"]:
        tables = [[k for k in x["seats"] if k not in x["fillers"]] for x in r["tables"]]
        assert bracket.verify(
            r["commitment"], r["number"], r["salt"], r["draw"], 6, advance, tables, r["byes"]
        )
