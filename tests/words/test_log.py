"""The table log: stored as facts (`bot/engine/public_log.py`), worded when shown
(`bot/discord_ui/render/log.py`, `log.ftl`) in the reader's language."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.events import (
    DealEnded,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Dropped,
    Event,
    Left,
    Reshuffled,
    TimedOut,
    Took,
    Voided,
    WrongShow,
)
from bot.engine.match import Match
from bot.engine.public_log import KINDS, entry, is_entry, seating_entries
from bot.engine.rules import get_profile
from bot.engine.states import EndReason, OutReason
from bot.table.model import LOG_KEEP, Table, TableOptions
from bot.words.log import entry_text, log_lines

RULES = get_profile("pool101")
NAMES = ["Asha", "Bo", "🤖 Medium"]
K_H = Card(12, Face(13, 1))
SEVEN_S = Card(6, Face(7, 0))
DEVANAGARI = re.compile("[\u0900-\u097f]")
#: English words of the old stored sentences; none may be in a stored record.
ENGLISH = re.compile(r"\b(drew|stock|took|pile|discarded|dropped|left|declared|deals?|bot)\b")


def words(event: Event, locale: str = "en") -> str | None:
    record = entry(event, NAMES, RULES)
    return None if record is None else entry_text(record, locale)


def test_each_event_reads_as_before_in_english() -> None:
    """The Discord wording of each event (the old `describe` lines; a drop now names its
    unit, points here, chips at a points table)."""
    cases: list[tuple[Event, str | None]] = [
        (Dealt(1, 3), "Deal 3: Bo deals"),
        (Drew(0, K_H), "Asha drew from the stock"),
        (Took(1, K_H), "Bo took K♥ from the pile"),
        (Discarded(2, SEVEN_S), "🤖 Medium discarded 7♠"),
        (Dropped(0, OutReason.FIRST_DROP, (K_H,), False), "Asha dropped (20 points)"),
        (Dropped(0, OutReason.MIDDLE_DROP, (K_H,), False), "Asha dropped (40 points)"),
        (Left(1, OutReason.MIDDLE_DROP, (K_H,), False), "Bo left the table"),
        (Left(1), "Bo left the table"),
        (Declared(2, SEVEN_S), "🤖 Medium declared! 🎉"),
        (Declared(2, None), "🤖 Medium declared! 🎉"),
        (WrongShow(0, OutReason.WRONG_SHOW, (K_H,), False, SEVEN_S), "Asha made a wrong show"),
        (TimedOut(1, 1, False), None),  # the bot's throw for Bo says it
        (Discarded(1, SEVEN_S, auto=True), "⏰ Bo ran out of time; the bot threw 7♠ for them"),
        (Declared(1, SEVEN_S, auto=True), "⏰ Bo ran out of time; the bot declared for them! 🎉"),
        (TimedOut(1, 3, True), "⏰ Bo was dropped after 3 timeouts in a row"),
        (Reshuffled((K_H, SEVEN_S)), None),
        (Voided(), None),
        (DealEnded(EndReason.LAST_STANDING, 1), None),
    ]
    for event, expected in cases:
        assert words(event) == expected, event


def test_a_drop_is_priced_in_the_tables_unit_with_the_languages_plurals() -> None:
    chips = get_profile("points")  # a chips game
    record = entry(Dropped(0, OutReason.FIRST_DROP, (), False), NAMES, chips)
    assert record == {"k": "dropped", "who": "Asha", "cost": 20, "chips": True}
    assert entry_text(record, "en") == "Asha dropped (20 chips)"
    assert entry_text(record, "hi") == "Asha ने ड्रॉप किया (20 चिप्स)"
    assert entry_text({**record, "cost": 1, "chips": False}, "en") == "Asha dropped (1 point)"


def test_moves_made_for_a_timed_out_seat_are_said_once() -> None:
    for event in (
        Drew(0, K_H, auto=True),
        Took(0, K_H, auto=True),
        Dropped(0, OutReason.MIDDLE_DROP, (), False, auto=True),
        TimedOut(0, 1, False),
    ):
        assert entry(event, NAMES, RULES) is None


def test_a_record_never_holds_a_hidden_card() -> None:
    hidden = (K_H, SEVEN_S)
    for event in (
        Drew(0, K_H),
        Dropped(0, OutReason.FIRST_DROP, hidden, True),
        Left(0, OutReason.FIRST_DROP, hidden, False),
        WrongShow(0, OutReason.WRONG_SHOW, hidden, False, K_H),
    ):
        record = entry(event, NAMES, RULES)
        assert record is not None
        assert "KH" not in json.dumps(record) and "7S" not in json.dumps(record)
        for locale in ("en", "hi"):
            said = entry_text(record, locale) or ""
            assert "K♥" not in said and "7♠" not in said


_cards = st.builds(lambda i: Card(i, Face(i % 13 + 1, i % 4)), st.integers(0, 105))
_seat = st.integers(0, 2)
_reason = st.sampled_from(list(OutReason))
_events = st.one_of(
    st.builds(Dealt, _seat, st.integers(1, 30)),
    st.builds(Drew, _seat, _cards, st.booleans()),
    st.builds(Took, _seat, _cards, st.booleans()),
    st.builds(Discarded, _seat, _cards, st.booleans()),
    st.builds(Dropped, _seat, _reason, st.tuples(_cards), st.booleans(), st.booleans()),
    st.builds(Left, _seat, st.none() | _reason, st.tuples(_cards), st.booleans()),
    st.builds(Declared, _seat, st.none() | _cards, st.booleans()),
    st.builds(WrongShow, _seat, _reason, st.tuples(_cards), st.booleans(), st.none() | _cards),
    st.builds(TimedOut, _seat, st.integers(1, 9), st.booleans()),
)


@given(_events)
def test_every_record_is_json_facts_and_reads_in_every_language(event: Event) -> None:
    record = entry(event, NAMES, RULES)
    if record is None:
        return
    stored = json.loads(json.dumps(record))
    assert stored == record and is_entry(stored) and stored["k"] in KINDS
    values = {k: v for k, v in stored.items() if k != "k"}  # the kind is a code, not a word
    assert not ENGLISH.search(json.dumps(values, ensure_ascii=False)), stored
    english, hindi = entry_text(stored, "en"), entry_text(stored, "hi")
    assert english and hindi and DEVANAGARI.search(hindi) and not DEVANAGARI.search(english)


def test_the_seating_draw_is_facts_worded_when_shown() -> None:
    records = seating_entries(
        [{"a": "KS", "b": "KH"}, {"a": "4D", "b": "9C"}], [("b", "Bo"), ("a", "Asha")]
    )
    assert records == [
        {"k": "seating_draw", "tie_break": False, "drawn": [["Asha", "KS"], ["Bo", "KH"]]},
        {"k": "seating_draw", "tie_break": True, "drawn": [["Asha", "4D"], ["Bo", "9C"]]},
        {"k": "seats", "order": ["Bo", "Asha"]},
    ]
    assert log_lines(records, "en") == [
        "🎴 Seating draw: Asha K♠, Bo K♥",
        "🎴 Seating draw (tie-break): Asha 4♦, Bo 9♣",
        "🎴 Seats, highest card first: Bo → Asha; Asha deals (lowest)",
    ]
    assert all(DEVANAGARI.search(line) for line in log_lines(records, "hi"))


def _played_table() -> Table:
    """A stored table after a few moves (a stock draw, a throw, a take, a drop)."""
    table = Table("abcdefghij", 1, 2, 11, TableOptions("pool101", 3, 60))
    m = Match.create(["asha", "bo", "chand"], "pool101", seed=7)
    table.match = m
    table.log.extend(m.entries_since(0))
    for _ in range(2):
        seat = m.deal.turn  # type: ignore[union-attr]
        mark = m.event_count
        m.apply(Action(ActionKind.DRAW_STOCK, seat))
        m.apply(Action.discard(seat, m.deal.hands[seat][0].id))  # type: ignore[union-attr]
        table.log.extend(m.entries_since(mark))
    seat = m.deal.turn  # type: ignore[union-attr]
    mark = m.event_count
    m.apply(Action(ActionKind.TAKE_DISCARD, seat))
    m.apply(Action.discard(seat, m.deal.hands[seat][0].id))  # type: ignore[union-attr]
    m.apply(Action.drop(m.deal.turn))  # type: ignore[union-attr]
    table.log.extend(m.entries_since(mark))
    return table


def test_a_stored_tables_log_holds_no_sentences_and_reads_in_hindi() -> None:
    table = _played_table()
    state: dict[str, Any] = json.loads(table.to_json())
    log = state["log"]
    assert [r["k"] for r in log] == ["deal", "drew", "threw", "drew", "threw", "took", "threw",
                                     "dropped"]  # fmt: skip
    names = {"asha", "bo", "chand"}
    for record in log:
        for key, value in record.items():
            if key in ("who", "by"):
                assert value in names
            elif isinstance(value, str):
                assert key == "k" or (key == "card" and Face.parse(value).code == value)
    assert not ENGLISH.search(json.dumps([{k: v for k, v in r.items() if k != "k"} for r in log]))
    restored = Table.from_json(table.to_json())
    english = log_lines(restored.log, "en")
    hindi = log_lines(restored.log, "hi")
    assert english[1].endswith("drew from the stock") and len(hindi) == len(log)
    assert all(DEVANAGARI.search(line) for line in hindi), hindi
    assert not any(ENGLISH.search(line) for line in hindi), hindi
    assert "गड्डी से पत्ता उठाया" in hindi[1]


def test_a_table_saved_with_english_lines_loads_and_shows_its_moves() -> None:
    """A table saved before the log held facts: its English lines are dropped and the log is
    rebuilt from the match's record of the current deal, so it shows in any language."""
    table = _played_table()
    state = json.loads(table.to_json())
    facts = state["log"]
    state["log"] = ["Deal 1: chand deals", "asha drew from the stock"]
    old = Table.from_json(json.dumps(state))
    assert old.log == facts
    assert all(DEVANAGARI.search(line) for line in log_lines(old.log, "hi"))
    state["match"] = None  # a lobby: nothing to rebuild from
    state["status"] = "lobby"
    assert Table.from_json(json.dumps(state)).log == []


def test_the_saved_log_is_capped() -> None:
    table = _played_table()
    table.log = [{"k": "drew", "who": "asha"}] * (LOG_KEEP + 5)
    assert len(json.loads(table.to_json())["log"]) == LOG_KEEP


def test_an_unknown_record_is_left_out_not_shown_wrongly() -> None:
    assert log_lines([{"k": "drew", "who": "a"}, {"k": "juggled", "who": "a"}, "x"], "en") == [
        "a drew from the stock"
    ]
