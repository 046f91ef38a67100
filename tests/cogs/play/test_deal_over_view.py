"""Issue 39, items 11 and 12: what a player's own hand view shows once a deal is over, played
through the fake Discord.

11. In every multi-deal match the "Deal N is over" view listed the 13 cards in its text while
    its picture read "You hold no cards right now" (the winner's "Your winning hand is below"
    too). The picture now draws the same cards, arranged as the text lists them, from the
    seat's own facts only: the hand it held at the end, or the cards it dropped with.
12. A wrong show answered "see below why, and what it costs" above a view that said neither
    when the show ended the deal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.engine.events import Dropped, WrongShow
from bot.images import Picture
from bot.words import text
from bot.words.results import wrong_show_problems
from tests.e2e.harness import (
    CARD_RE,
    ENGLISH,
    Env,
    Say,
    Strategy,
    TableDriver,
    game_env,
    has_select,
    label_starting,
    results_deal,
    select_options,
)
from tests.fakediscord import StoredMessage

TWO = ["alice", "bob"]
NO_CARDS = text("en", "pic-no-cards")


def capture_pictures(env: Env) -> dict[bytes, Picture]:
    """Every picture the bot draws from now on, by the bytes it uploads."""
    worker = env.bot.presenter.images
    run = worker.run
    drawn: dict[bytes, Picture] = {}

    async def capture(picture: Picture, *args: Any, **kw: Any) -> Any:
        image = await run(picture, *args, **kw)
        drawn[image.data] = picture
        return image

    worker.run = capture  # type: ignore[method-assign]
    return drawn


def listed_cards(msg: StoredMessage) -> list[str]:
    """The cards the view's text lists, field by field, in order."""
    return [
        card
        for e in msg.embeds
        for f in e.get("fields") or []
        for card in CARD_RE.findall(str(f.get("value", "")))
    ]


def picture_on(msg: StoredMessage, drawn: dict[bytes, Picture]) -> Picture:
    refs = msg.embed_attachment_refs
    assert refs, f"the view shows no picture:\n{msg.text()}"
    data = msg.attachment_data[refs[0]]
    assert data in drawn, "the picture on the view was not drawn by this test's bot"
    return drawn[data]


def check_deal_over_view(
    msg: StoredMessage, drawn: dict[bytes, Picture], deal: int, own: set[int]
) -> None:
    """The view of a finished deal: its picture draws exactly the cards the text lists, in the
    same order, and they are the seat's own (`own`: card ids)."""
    shown = msg.text()
    assert f"Deal {deal} is over" in shown, shown
    picture = picture_on(msg, drawn)
    scene = picture.scene
    assert NO_CARDS not in [label.text for label in scene.labels], shown
    placed = sorted(scene.cards, key=lambda pc: (pc.row, pc.x))
    assert [pc.face.pretty for pc in placed if pc.face is not None] == listed_cards(msg), shown
    assert {pc.card_id for pc in placed} == own


class DropFirst(Strategy):
    """`who` drops at their first turn (pressing Drop, then confirming its cost)."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.user = ""

    def choose(self, view: StoredMessage, say: Say = ENGLISH) -> tuple[str, Any] | None:
        if self.user == self.who:
            for prefix in ("Confirm drop", "Drop ("):
                label = label_starting(view, prefix)
                if label is not None:
                    return ("click", label)
        return super().choose(view, say)


class Driver(TableDriver):
    """Tells its strategy whose view it is choosing for."""

    async def take_turn(self, user: str, ping: StoredMessage | None = None) -> None:
        if isinstance(self.strategy, DropFirst | NeverDeclare):
            self.strategy.user = user
        await super().take_turn(user, ping)


def deal_over(env: Env, driver: TableDriver, number: int) -> bool:
    return any(results_deal(m) == number for m in env.fake.public_messages(driver.channel))


async def play_first_deal(env: Env, driver: TableDriver, **options: Any) -> Any:
    """Open, start and play deal 1 of a match; nobody presses Next deal. Returns the table."""
    await driver.open("alice", **options)
    await driver.start("alice")
    await driver.play(until=lambda: deal_over(env, driver, 1))
    return env.last_table()


async def final_views(env: Env, driver: TableDriver, deal: int) -> dict[str, StoredMessage]:
    """Each player's open hand view, once it shows the deal's end."""
    fake = env.fake
    views = {}
    for user in driver.humans:
        vid = driver.views[user]
        await fake.wait_for(
            lambda vid=vid: f"Deal {deal} is over" in fake.render(vid),
            30,
            message=lambda vid=vid: fake.render(vid),
        )
        views[user] = fake.message(vid)
    return views


@pytest.mark.parametrize("profile", ["deals", "paplu", "pool101"])
async def test_the_finished_deal_shows_each_players_own_final_hand(
    tmp_path: Path, profile: str
) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        drawn = capture_pictures(env)
        driver = Driver(env.fake, TWO, click_next=False)
        table = await play_first_deal(env, driver, profile=profile)
        deal = table.match.deal
        views = await final_views(env, driver, 1)
        for user, view in views.items():
            seat = table.engine_seat(env.fake.user(user).id)
            check_deal_over_view(view, drawn, 1, {c.id for c in deal.hands[seat]})
        winner = table.match.results[-1].winner
        declarer = next(u for u in TWO if table.engine_seat(env.fake.user(u).id) == winner)
        # The declarer was told "Your winning hand is below": it is, in words and picture.
        said = [snap["content"] or "" for snap in views[declarer].edits]
        assert any("Your winning hand is below" in c for c in [*said, views[declarer].content])


async def test_a_dropped_player_sees_the_cards_they_dropped_with(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        drawn = capture_pictures(env)
        driver = Driver(env.fake, TWO, strategy=DropFirst("bob"), click_next=False)
        table = await play_first_deal(env, driver, profile="pool101")
        deal = table.match.deal
        views = await final_views(env, driver, 1)
        bob = table.engine_seat(env.fake.user("bob").id)
        drop = next(e for e in deal.events if isinstance(e, Dropped))
        assert drop.seat == bob and not deal.hands[bob]
        check_deal_over_view(views["bob"], drawn, 1, {c.id for c in drop.cards})
        alice = table.engine_seat(env.fake.user("alice").id)
        check_deal_over_view(views["alice"], drawn, 1, {c.id for c in deal.hands[alice]})


class NeverDeclare(Strategy):
    """Draws and throws, never declares: the stock runs out. With `wrong`, that player
    declares (honor mode) on their first turn whatever they hold: a wrong show."""

    def __init__(self, wrong: str | None = None) -> None:
        self.wrong = wrong
        self.user = ""

    def choose(self, view: StoredMessage, say: Say = ENGLISH) -> tuple[str, Any] | None:
        honor = say("menu-declare")
        if (
            self.user == self.wrong
            and has_select(view, honor)
            and has_select(view, say("menu-discard"))
        ):
            option = select_options(view, honor)[0]
            return ("select", (honor, option["value"]))
        choice = super().choose(view, say)
        if choice is not None and choice[0] == "click" and choice[1].startswith("Declare"):
            options = select_options(view, say("menu-discard"))
            return ("select", (say("menu-discard"), options[0]["value"]))
        if choice is not None and choice[0] == "select" and choice[1][0] == honor:
            options = select_options(view, say("menu-discard"))
            return ("select", (say("menu-discard"), options[0]["value"]))
        return choice


async def test_a_void_deal_shows_each_players_own_hand(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        drawn = capture_pictures(env)
        driver = Driver(env.fake, TWO, strategy=NeverDeclare(), click_next=False)
        await driver.open("alice", profile="paplu")
        await driver.start("alice")
        # A short stock (the rest set aside, still part of the deal): it runs out in a few
        # turns, and paplu voids the deal.
        deal = env.table().match.deal
        deal.set_aside.extend(deal.stock[4:])
        del deal.stock[4:]
        await driver.play(until=lambda: deal_over(env, driver, 1))
        table = env.last_table()
        deal = table.match.deal  # each change works on a copy: the deal as it ended
        assert table.match.results[-1].void
        views = await final_views(env, driver, 1)
        for user, view in views.items():
            seat = table.engine_seat(env.fake.user(user).id)
            assert "the deal is void" in view.text(), view.text()
            check_deal_over_view(view, drawn, 1, {c.id for c in deal.hands[seat]})


async def test_a_wrong_show_that_ends_the_deal_says_why_and_what_it_cost(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        drawn = capture_pictures(env)
        driver = Driver(env.fake, TWO, strategy=NeverDeclare(wrong="bob"), click_next=False)
        table = await play_first_deal(env, driver, profile="pool101", declaration="honor")
        deal = table.match.deal
        show = next(e for e in deal.events if isinstance(e, WrongShow))
        bob = table.engine_seat(env.fake.user("bob").id)
        assert show.seat == bob
        views = await final_views(env, driver, 1)
        view = views["bob"]
        shown = view.text()
        # The public results give the reason; bob's own view gives the same, and the cost.
        results = next(m for m in env.fake.public_messages(driver.channel) if results_deal(m) == 1)
        problems = wrong_show_problems(show, table.match.rules, deal.wild_rank, "en")
        assert problems and all(p in results.text() for p in problems), results.text()
        assert all(p in shown for p in problems), shown
        charge = table.match.results[-1].charge(bob)
        assert charge is not None
        assert f"It cost you {charge.amount} points." in shown, shown
        # ... and the cards shown, as the engine ruled on them, in the text and the picture.
        check_deal_over_view(view, drawn, 1, {c.id for c in show.shown})
