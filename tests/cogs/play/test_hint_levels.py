"""Hint levels end to end, through the fake Discord: what a player's private hand view shows
at `full`, `groups` and `off` (text, picture captions and the discard menu), the Declare
control that never tells a declarable hand below full hints (declaring is on honor there: a
wrong show costs), the hint level stored with every result, the server's default level and
its rule that only games with hints off are rated."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import bot.discord_ui.hand_parts
import bot.table.advice
from bot.images.paint import Picture
from tests.e2e.harness import (
    Env,
    act,
    eventually,
    footer,
    game_env,
    label_of,
    labels,
    open_hand,
    select_options,
)
from tests.fakediscord import StoredMessage

TWO = ["alice", "bob"]
#: Words that are evaluation: none may reach a view below full hints.
EVALUATION_WORDS = ("deadwood", "declare!", "suggested", "discard?", "valid declaration")
GROUP_NAMES = (
    *("Pure run", "Run", "Set", "Unmatched"),
    *("Wild cards", "Pairs", "Near-runs", "Fits nothing"),  # a hand without a group yet
)
SUITS = ("Spades", "Hearts", "Diamonds", "Clubs", "Jokers")


class Spy:
    """The hand pictures the presenter lays out and the observations the advice evaluates."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pictures: list[Picture] = []
        self.evaluated: list[Any] = []
        real_picture = bot.discord_ui.hand_parts.hand_picture
        real_advise = bot.table.advice.advise

        def picture(obs: Any, *args: Any, **kw: Any) -> Picture:
            out = real_picture(obs, *args, **kw)
            self.pictures.append(out)
            return out

        def advise(obs: Any) -> Any:
            self.evaluated.append(obs)
            return real_advise(obs)

        monkeypatch.setattr(bot.discord_ui.hand_parts, "hand_picture", picture)
        monkeypatch.setattr(bot.table.advice, "advise", advise)

    def captions(self) -> list[str]:
        """Every text on the last hand picture (its header, section labels and card tags)."""
        return [label.text for label in self.pictures[-1].scene.labels]


def on_turn(env: Env) -> str:
    table = env.table()
    seat = table.current_turn()
    assert seat is not None
    uid = table.seat_info(seat).user_id
    return str(env.fake.user(uid).name)


def field_names(msg: StoredMessage) -> list[str]:
    return [str(f.get("name", "")) for e in msg.embeds for f in e.get("fields") or []]


def assert_no_evaluation(view: StoredMessage, captions: list[str]) -> None:
    """Nothing the player reads says how good the hand is: text, menu labels and
    descriptions, and the picture's captions."""
    said = view.text().lower()
    for word in EVALUATION_WORDS:
        assert word not in said, (word, view.text())
    for label in captions:
        for word in EVALUATION_WORDS:
            assert word not in label.lower(), (word, captions)
    for placeholder in ("Discard a card", "Declare"):
        for option in select_options(view, placeholder):
            assert not option.get("description"), option
    assert not any(label.startswith("Declare —") for label in labels(view)), labels(view)
    assert "Declare (not yet possible)" not in labels(view)


@dataclass(frozen=True)
class LobbySeen:
    """The lobby message as the players saw it just before the host pressed Start (once the
    game starts, the same message shows the table, or is replaced by it)."""

    words: str

    def text(self) -> str:
        return self.words


async def open_table(env: Env, **options: Any) -> LobbySeen:
    fake = env.fake
    r = await fake.slash("alice", "general", "rummy new", profile="points", **options)
    assert r.message is not None and not r.ephemeral, r
    j = await fake.click("bob", fake.message(r.message.id), label="Join")
    assert j.ephemeral and "joined" in j.text, j
    await fake.wait_for(lambda: "bob" in fake.message(r.message.id).text())
    seen = LobbySeen(fake.message(r.message.id).text())
    s = await fake.click("alice", fake.message(r.message.id), label="Start")
    await s.wait()
    assert "started" in s.text, s
    # The table is shown after the change that started it (in the background): until then the
    # newest message with "Your hand" is the last match's, which a slow machine would click.
    await fake.wait_for(
        lambda: any(
            m.id >= r.message.id and label_of(m, "button-your-hand") is not None
            for m in fake.public_messages("general")
        ),
        60,
        message="the new table was never shown",
    )
    return seen


async def drawn_view(env: Env) -> tuple[str, StoredMessage]:
    """The player on turn opens their hand and draws from the stock (14 cards in hand)."""
    user = on_turn(env)
    view = await open_hand(env.fake, user)
    view = await act(env.fake, user, view, label="Draw from stock")
    assert "you drew" in view.text(), view.text()
    return user, view


async def drop_to_end(env: Env) -> None:
    """The player on turn drops (the next one, if this one has drawn already): at two seats
    that ends the match."""
    fake = env.fake
    user = on_turn(env)
    view = await open_hand(fake, user)
    if not any(label.startswith("Drop") for label in labels(view)):
        # Mid-turn: finish it with a discard; the next player drops.
        first = select_options(view, "Discard a card")[0]["value"]
        await act(fake, user, view, values=[first], placeholder="Discard a card…")
        user = on_turn(env)
        view = await open_hand(fake, user)
    drop = next(label for label in labels(view) if label.startswith("Drop"))
    view = await act(fake, user, view, label=drop)
    confirm = next(label for label in labels(view) if label.startswith("Confirm drop"))
    await act(fake, user, view, label=confirm)
    await fake.wait_for(lambda: env.table() is None, message=lambda: "the match did not end")


async def stored(env: Env, sql: str) -> list[tuple[Any, ...]]:
    async with env.bot.storage._db.session() as conn:
        return list(await conn.fetchall(sql))


async def test_full_hints_show_the_arrangement_deadwood_and_each_discard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    async with game_env(tmp_path, TWO, 4) as env:
        lobby = await open_table(env, hints="full")
        assert "Hints: full" in lobby.text().replace("**", "")
        _user, view = await drawn_view(env)
        assert "deadwood" in footer(view).lower(), footer(view)
        options = select_options(view, "Discard a card")
        assert options and all("leaves" in (o.get("description") or "") for o in options)
        assert any("deadwood" in c.lower() for c in spy.captions()), spy.captions()
        names = field_names(view)
        assert names and all(any(g in n for g in GROUP_NAMES) for n in names), names
        assert spy.evaluated
        await drop_to_end(env)
        await env.finish()


async def test_groups_show_the_arrangement_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    async with game_env(tmp_path, TWO, 4) as env:
        fake = env.fake
        lobby = await open_table(env, hints="groups")
        assert "Hints: groups (the arrangement only)" in lobby.text().replace("**", "")
        user, view = await drawn_view(env)
        # The arrangement: the engine's groups (or the parts of a hand without one).
        names = field_names(view)
        assert names and all(any(g in n for g in GROUP_NAMES) for n in names), names
        assert "Hints: groups only" in footer(view)
        assert_no_evaluation(view, spy.captions())
        assert "Your groups" in spy.captions()
        sections = spy.pictures[-1].scene.sections
        assert all(s.kind != "suit" for s in sections), sections
        # Assisted mode: Declare is a menu of every discard, like the discard menu.
        declare = [o["value"] for o in select_options(view, "Declare, discarding")]
        discard = [o["value"] for o in select_options(view, "Discard a card")]
        assert declare == discard and len(declare) == 14
        # The player may still sort by suit and back.
        view = await act(fake, user, view, label="Sort by suit")
        assert_no_evaluation(view, spy.captions())
        assert "Group by melds" in labels(view)
        await drop_to_end(env)
        await env.finish()


async def test_off_sorts_the_cards_and_evaluates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(monkeypatch)
    async with game_env(tmp_path, TWO, 4) as env:
        lobby = await open_table(env, hints="off")
        assert "Hints: off (no help: cards sorted by suit)" in lobby.text().replace("**", "")
        before = len(spy.evaluated)
        _user, view = await drawn_view(env)
        names = field_names(view)
        assert names and not any(g in n for n in names for g in GROUP_NAMES), names
        assert all(
            n.split()[-1] in ("Spades", "Hearts", "Diamonds", "Clubs", "Jokers") for n in names
        )
        assert "Hints are off" in footer(view)
        assert_no_evaluation(view, spy.captions())
        assert spy.captions()[0] == "Your cards by suit"
        assert {s.kind for s in spy.pictures[-1].scene.sections} == {"suit"}
        assert "Sort by suit" not in labels(view) and "Group by melds" not in labels(view)
        # A hand view at an `off` table is never evaluated (AI seats have their own minds).
        assert len(spy.evaluated) == before
        # Declaring is on honor below full hints: tests/cogs/play/test_rated_doors.py.
        await drop_to_end(env)
        await env.finish()


async def test_honor_mode_without_hints_makes_a_wrong_show_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Spy(monkeypatch)
    async with game_env(tmp_path, TWO, 4) as env:
        fake = env.fake
        lobby = await open_table(env, hints="off", declaration="honor")
        assert "a wrong show is penalised" in lobby.text()
        user, view = await drawn_view(env)
        first = select_options(view, "Declare, discarding")[0]["value"]
        seat = env.table().engine_seat(fake.user(user).id)
        r = await fake.select(user, view, [first], placeholder="Declare, discarding…")
        await r.wait()
        await fake.wait_for(lambda: env.table() is None, message=lambda: "no wrong show")
        # The result is stored by a job after the move that closed the table.
        seats = (
            "SELECT outcome, hints FROM deal_seats s JOIN deals d ON d.deal_id = s.deal_id"
            " ORDER BY s.seat"
        )
        record = await eventually(lambda: stored(env, seats))
        assert record[seat] == ("invalid_declaration", "off"), record
        await env.finish()


async def test_results_keep_the_hint_level_and_the_server_may_rate_hints_off_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Spy(monkeypatch)
    async with game_env(tmp_path, TWO, 4) as env:
        fake = env.fake
        refused = await fake.slash("bob", "general", "rummy settings", rated_hints_off=True)
        assert refused.ephemeral and "Manage Server" in refused.text, refused.text
        said = await fake.slash(
            "alice", "general", "rummy settings", hints="groups", rated_hints_off=True
        )
        assert said.ephemeral and "Hints at new tables: groups" in said.text, said.text
        assert "Rated games: hints off only" in said.text
        settings = await env.bot.storage.settings.get_settings(fake.guild_id)
        assert (settings.hints, settings.rated_hints_off) == ("groups", True)

        # No hints: option: the server's default; a table with hints is played unrated.
        lobby = await open_table(env)
        text = lobby.text().replace("**", "")
        assert "Hints: groups" in text and "Unrated" in text, text
        await drop_to_end(env)
        # Hints off: rated, and the lobby says nothing of being unrated.
        lobby = await open_table(env, hints="off")
        text = lobby.text().replace("**", "")
        assert "Hints: off" in text and "Unrated" not in text, text
        await drop_to_end(env)

        # The results say how each match was played, and which one moved no rating.
        finals = [m for m in fake.public_messages("general") if "Match over —" in footer(m)]
        assert len(finals) == 2, [footer(m) for m in finals]
        assert "hints groups" in footer(finals[0]) and "unrated" in footer(finals[0])
        assert "hints off" in footer(finals[1]) and "unrated" not in footer(finals[1])

        # The results are stored by jobs after each match's last move.
        async def both() -> list[tuple[Any, ...]]:
            found = await stored(env, "SELECT hints, rated FROM matches")
            return found if len(found) == 2 else []

        matches = await eventually(both)
        assert sorted(matches) == [("groups", 0), ("off", 1)], matches
        assert sorted(await stored(env, "SELECT hints FROM deals")) == [("groups",), ("off",)]
        # Only the hints-off match moved the two players' ratings.
        for name in TWO:
            stats = await env.bot.storage.boards.player_stats(fake.guild_id, fake.user(name).id)
            assert stats.overall_rating is not None and stats.overall_rating.matches == 1
            assert stats.profiles["points"].matches_played == 2

        # The history names the hint level of each deal played with less than full hints.
        hist = await fake.slash("alice", "general", "rummy history")
        assert hist.ephemeral and hist.message is not None
        said = hist.message.text()
        assert said.count("hints off") == 1 and said.count("hints groups") == 1, said
        await env.finish()
