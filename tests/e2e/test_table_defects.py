"""Defects found in play (issue 21), each through the fake Discord as players meet them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.words.log import log_lines
from tests.e2e.harness import (
    CARD_RE,
    Say,
    Strategy,
    TableDriver,
    act,
    answered,
    deadwood_of,
    embed_field,
    fast_turn_clock,
    footer,
    forge_interaction,
    game_env,
    is_match_over,
    label_starting,
    labels,
    open_hand,
    results_deal,
    select_options,
    send_forged,
)
from tests.fakediscord import FakeDiscord, StoredMessage

TWO = ["alice", "bob"]


async def test_the_winning_hand_is_shown_when_the_declaration_ends_the_match(
    tmp_path: Path,
) -> None:
    """ "Your winning hand is below", with nothing below, whenever a declaration ended the
    match: the declarer's view lost its embed and picture."""
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None
        declared = [
            fake.message(i) for i in driver.views.values() if "You declared!" in fake.render(i)
        ]
        assert len(declared) == 1, [fake.render(i) for i in driver.views.values()]
        view = declared[0]
        assert view.embeds, "the declarer's view has no hand in it"
        assert "Deal 1 is over" in fake.render(view.id)
        assert any(kind in fake.render(view.id) for kind in ("Run:", "Set:", "Pure run"))
        assert any(name.startswith("hand-") for name in view.attachment_names)
        assert not any(c.get("type") == 2 for c in view.iter_components()), "live controls"


async def test_a_bystander_may_look_at_the_table(tmp_path: Path) -> None:
    """`/rummy table` from someone not at the table was refused; they now get their own
    private copy of it, and the public table message stays where it is."""
    async with game_env(tmp_path, [*TWO, "carol"], 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="points")
        await driver.start("alice")
        await driver.play(stop_after=2)
        # What players see of the last move (its ping) follows its commit in the background.
        await env.bot.tables.effects.settled()
        await fake.settle(quiet=0.3)
        before = [m.id for m in fake.public_messages("general")]
        look = await fake.slash("carol", "general", "rummy table")
        await look.wait()
        assert look.ephemeral and look.message is not None, look
        shown = fake.render(look.message.id)
        assert "not playing" in shown and "stock" in shown.lower(), shown
        assert look.message.embeds
        assert not any(c.get("type") == 2 for c in look.message.iter_components())
        assert [m.id for m in fake.public_messages("general")] == before  # nothing re-posted
        assert not fake.message(lobby.id).deleted


async def test_a_hand_without_groups_reads_alike_in_text_picture_and_menu(
    tmp_path: Path,
) -> None:
    """A hand without melds: the text grouped "Wild cards / Pairs / Fits nothing yet", the
    picture drew one "Unmatched" row in suit order, and the discard menu followed the picture;
    pairs were listed in suit order ("5♠ 8♠ 5♦ 8♦"). Now all three read alike, cluster by
    cluster, and each pair is shown as a pair. (Seed 4 deals both players no group.)"""
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await fake.settle(quiet=0.3)
        presenter = env.bot.presenter
        pictures: list[Any] = []
        run = presenter.images.run

        async def capture(picture: Any) -> Any:
            pictures.append(picture)
            return await run(picture)

        presenter.images.run = capture  # type: ignore[method-assign]
        table = env.table()
        user = next(u for u in TWO if table.engine_seat(fake.user(u).id) == table.current_turn())
        seat = table.engine_seat(fake.user(user).id)
        view = await open_hand(fake, user)
        view = await act(fake, user, view, label="Draw from stock")
        presenter.images.run = run  # type: ignore[method-assign]
        fields = [(f["name"], f["value"]) for e in view.embeds for f in e.get("fields") or []]
        names = [name for name, _ in fields]
        assert "Pairs (half a set)" in names and "Unmatched" not in names, fake.render(view)
        # What the text lists, cluster by cluster (" · " separates the pairs, the near-runs).
        text = [CARD_RE.findall(chunk) for _, value in fields for chunk in value.split(" · ")]
        pairs = dict(fields)["Pairs (half a set)"].split(" · ")
        assert len(pairs) >= 2, pairs
        for pair in pairs:  # each shown pair is cards of one rank
            ranks = {c[:-1] for c in CARD_RE.findall(pair)}
            assert len(ranks) == 1 and len(CARD_RE.findall(pair)) >= 2, pairs
        # What the picture on the message draws: its boxes, left to right, row by row.
        drawn = [p for p in pictures if p.name.startswith(f"hand-1-{seat}")]
        assert drawn, [p.name for p in pictures]
        scene = drawn[-1].scene
        boxes = [[c.face.pretty for c in s.cards] for s in scene.sections]
        assert boxes == text, (boxes, text)
        placed = sorted(scene.cards, key=lambda pc: (pc.row, pc.x))
        flat = [c for cluster in text for c in cluster]
        assert [pc.face.pretty for pc in placed] == flat
        # And the discard menu lists the cards in that same order.
        menu = [o["label"].rstrip("*") for o in select_options(view, "Discard a card")]
        assert menu == flat, (menu, flat)
        await env.bot.tables.lobby.cancel(table, fake.user("alice").id, True)


async def test_a_slow_turn_mentions_the_player_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow turn gave two notifications: the turn ping, then a separate "15 seconds left"
    mention. Now the player is mentioned once per turn (Discord notifies the mentions of a new
    message, never of an edit), and still sees the warning. The turn clock runs 15x faster."""
    users = [*TWO, "carol"]
    async with game_env(tmp_path, users, seed=3) as env:
        fake = env.fake
        fast_turn_clock(monkeypatch, env.bot, 15.0, fake)
        driver = TableDriver(fake, users, silent={"carol"})  # carol never plays
        await driver.open("alice", profile="points", turn_timer=30)
        await driver.start("alice")

        def timeouts() -> int:
            return sum(
                1 for line in log_lines(env.table().log, "en") if line.startswith("⏰ carol")
            )

        await driver.play(until=lambda: timeouts() >= 2)
        carol = fake.user("carol").id
        turns = timeouts() + (env.table().current_turn() == env.table().engine_seat(carol))
        public = [m for m in fake.server.messages.values() if not m.ephemeral]
        notified = [m for m in public if carol in m.notified]
        assert 2 <= len(notified) <= turns, [m.content for m in notified]
        # ...and the warning was there to read, on the message that mentioned her.
        warned = [m for m in notified if "15 seconds left" in m.text()]
        assert len(warned) >= 2, [m.text() for m in notified]
        for name in TWO:  # the others were pinged no more than once a turn either
            uid = fake.user(name).id
            assert sum(uid in m.notified for m in public) <= driver.turns + 1
        await env.bot.tables.lobby.cancel(env.table(), fake.user("alice").id, True)


def _next_deal_live(msg: StoredMessage) -> bool:
    return any(
        c.get("type") == 2 and c.get("label") == "Next deal" and not c.get("disabled")
        for c in msg.iter_components()
    )


def _old_results(fake: FakeDiscord) -> list[StoredMessage]:
    """Every results message but the last deal's (whose match ended)."""
    return [m for m in fake.public_messages("general") if results_deal(m) and not is_match_over(m)]


def _check_retired(fake: FakeDiscord) -> None:
    """Each earlier results message was edited once, when the deal after it began: its
    button gone and its text saying that deal has started; "Review my play" stays."""
    old = _old_results(fake)
    assert old, "the match had one deal only"
    for m in old:
        number = results_deal(m)
        assert not _next_deal_live(m), fake.render(m.id)
        assert "presses" not in m.content and f"Deal {number + 1} has started" in m.content  # type: ignore[operator]
        assert len(m.edits) == 1, m.edits  # one edit, once
        assert "Review my play" in labels(m)


async def test_old_results_lose_their_next_deal_button(tmp_path: Path) -> None:
    """Old results kept a live "Next deal" button and "Next deal starts when everyone
    presses Next deal (or in 20 s)" for the rest of the match. A press on such a button,
    from a client that still shows it, gets a short private answer and changes nothing."""
    async with game_env(tmp_path, TWO, 7, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="pool101")
        await driver.start("alice")

        def second_deal() -> bool:
            m = env.table().match
            return m is not None and m.deal is not None and m.deal.number >= 2 and not m.deal.over

        await driver.play(until=second_deal)
        first = next(m for m in fake.public_messages("general") if results_deal(m) == 1)
        await fake.wait_for(lambda: not _next_deal_live(fake.message(first.id)))
        # alice's client still shows the button it had before the edit: she presses it.
        shown = first.edits[0] if first.edits else first.snapshot()
        old_id = next(
            c["custom_id"]
            for row in shown["components"]
            for c in row.get("components", [])
            if c.get("label") == "Next deal"
        )
        table = env.table()
        version = table.version
        press = await send_forged(fake, forge_interaction(fake, "alice", first, old_id))
        await answered(fake, press)
        answer = fake.render(press.message.id) if press.message else ""
        assert press.ephemeral and "started" in answer, answer
        assert table.version == version and table.next_votes == []
        final = await driver.play()
        assert final is not None
        await fake.settle(quiet=0.3)
        _check_retired(fake)


async def test_a_restart_between_deals_leaves_no_live_button(tmp_path: Path) -> None:
    """The bot restarts while deal 1's results wait for "Next deal": the button there works
    after the restart, and once deal 2 starts the new process (which never posted those
    results) takes it away like any other."""
    from bot.discord_ui.client import PapluBot
    from tests.e2e.harness import TOKEN, scripted_pace, settings
    from tests.fakediscord import FakeDiscord as Fake

    async with Fake(users=TWO, channels=["general"], token=TOKEN) as fake:
        db = tmp_path / "bot.sqlite3"
        first = PapluBot(settings(db, 7, next_deal_delay=60.0))
        scripted_pace(fake, client=first)
        async with fake.running(first):
            await fake.wait_for_commands("rummy")
            driver = TableDriver(fake, TWO, click_next=False)
            await driver.open("alice", profile="pool101")
            await driver.start("alice")
            await driver.play(until=lambda: bool(_old_results(fake)))
            await fake.settle(quiet=0.3)
        assert [_next_deal_live(m) for m in _old_results(fake)] == [True]
        second = PapluBot(settings(db, 7, next_deal_delay=60.0))
        second.budget.share = first.budget.share
        async with fake.running(second):
            await fake.wait_for_commands("rummy")
            await fake.settle(quiet=0.3)
            final = await TableDriver(fake, TWO).play()
            assert final is not None
            await fake.settle(quiet=0.3)
            _check_retired(fake)
            assert await fake.wait_idle() == []


async def test_the_table_comes_back_below_the_results_when_the_next_deal_starts(
    tmp_path: Path,
) -> None:
    """Issue 21, the table stays in view: a deal's results are posted below the table
    message; when the next deal starts, the table is posted again at the bottom and the
    old message deleted, so players never scroll up to play. Once per deal, not per move."""
    users = ["alice", "bob"]
    async with game_env(tmp_path, users, 7, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, users)
        lobby = await driver.open("alice", profile="pool101")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None
        results = [m for m in fake.public_messages("general") if results_deal(m) is not None]
        assert len(results) >= 2
        general = fake.channel("general").id

        def ever_a_table(m: StoredMessage) -> bool:
            """It showed the table's "Your hand" button at some point of its life."""
            shown = json.dumps([m.components, m.edits], default=str)
            return '"label": "Your hand"' in shown

        tables = [
            m
            for m in fake.server.messages.values()
            if m.channel_id == general and not m.ephemeral and not m.notified and ever_a_table(m)
        ]  # (a turn ping carries "Your hand" too, and mentions its player)
        assert lobby.id in [m.id for m in tables]
        live = [m for m in tables if not m.deleted]
        assert len(live) == 1, [(m.id, m.deleted) for m in tables]  # one table message
        # One table message per deal: the lobby's, then one posted as each later deal began.
        assert len(tables) == len(results)
        order = [m.id for m in sorted(fake.server.messages.values(), key=lambda m: m.id)]
        for n, table_msg in enumerate(sorted(tables, key=lambda m: m.id)[1:], start=1):
            # Posted after deal n's results, i.e. below them.
            assert order.index(table_msg.id) > order.index(results[n - 1].id)
        await env.finish()


class WatchDeclare(Strategy):
    """Plays like `Strategy`, and notes every view that offered the Declare button: the
    button, the hand's footer and the winning entries of the discard menu."""

    def __init__(self) -> None:
        self.seen: list[tuple[dict[str, Any], str, list[dict[str, Any]]]] = []

    def choose(self, view: StoredMessage, say: Say | None = None) -> tuple[str, Any] | None:
        label = label_starting(view, "Declare —")
        if label is not None:
            (button,) = [c for c in view.iter_components() if c.get("label") == label]
            winning = [o for o in select_options(view, "Discard a card…") if deadwood_of(o) < 0]
            self.seen.append((button, footer(view), winning))
        return super().choose(view) if say is None else super().choose(view, say)


async def test_declare_throws_the_card_the_hand_suggests(tmp_path: Path) -> None:
    """Defect 2: the footer said "Discarding 10♥ leaves deadwood 0 — you can declare!" and
    the picture marked 10♥, while the button read "Declare — discard 5♥" and threw it (the
    first winning card by id). Seed 6 deals a hand where six discards declare and the
    suggested Q♦ is not the first of them by id."""
    async with game_env(tmp_path, TWO, 6, next_deal_delay=60.0) as env:
        fake = env.fake
        watch = WatchDeclare()
        driver = TableDriver(fake, TWO, strategy=watch)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None and watch.seen
        button, foot, winning = watch.seen[-1]
        suggested = re.search(r"Discarding (\S+) leaves deadwood 0", foot)
        assert suggested is not None, foot
        face = suggested.group(1)
        assert button["label"] == f"Declare — discard {face}"
        (shown,) = [o for o in winning if o["label"] == face]
        assert button["custom_id"].endswith(f":declare:{shown['value']}")
        # The case that went wrong: the first winning card by id is another card.
        assert len(winning) > 1 and min(int(o["value"]) for o in winning) != int(shown["value"])

        got = await fake.click("alice", fake.message(final.id), label="Hand history")
        await got.wait()
        (sent,) = [m for m in got.messages if m.attachments]
        (name,) = sent.attachment_names
        history = json.loads(sent.attachment_data[name])
        declared = [e for e in _entries(history) if e.get("action") == "declare"]
        assert len(declared) == 1 and declared[0]["card_id"] == int(shown["value"]), declared


def _entries(obj: Any) -> list[dict[str, Any]]:
    """Every dictionary inside a hand history, wherever the format nests them."""
    if isinstance(obj, dict):
        return [obj, *(e for v in obj.values() for e in _entries(v))]
    if isinstance(obj, list):
        return [e for v in obj for e in _entries(v)]
    return []


async def test_a_new_deals_table_lists_only_its_own_moves(tmp_path: Path) -> None:
    """Defect 5: a new deal's table listed the last deal's moves ("Bob took 7♠ from the pile
    … Alice declared! 🎉") among its recent actions. Every version of each deal's table
    message, from its first, begins its recent actions with that deal's own first line."""
    async with game_env(tmp_path, TWO, 7, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="pool101")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None
        deals = results_deal(final)
        assert deals is not None and deals >= 2
        general = fake.channel("general").id

        def table_messages() -> list[StoredMessage]:
            return sorted(
                (
                    m
                    for m in fake.server.messages.values()
                    if m.channel_id == general
                    and not m.ephemeral
                    and not m.notified
                    and any("Deal" in (embed_field(v, "Recent") or "") for v in _versions(m))
                ),
                key=lambda m: m.id,
            )

        # One table message per deal (the lobby's, then reposts). What players see of the last
        # move follows its commit in the background: on a busy machine the last table edit
        # may land after the results the driver stopped at.
        await fake.wait_for(
            lambda: len(table_messages()) >= deals,
            message=lambda: f"{len(table_messages())} table messages for {deals} deals",
        )
        tables = table_messages()
        assert len(tables) == deals
        for number, msg in enumerate(tables, start=1):
            versions = [v for v in _versions(msg) if embed_field(v, "Recent")]
            first = (embed_field(versions[0], "Recent") or "").splitlines()
            assert first and first[0].startswith(f"Deal {number}:"), (number, first)
            for v in versions:
                lines = (embed_field(v, "Recent") or "").splitlines()
                assert not any(line.startswith(f"Deal {number - 1}:") for line in lines)
                if any(line.startswith(f"Deal {number}:") for line in lines):
                    assert lines[0].startswith(f"Deal {number}:"), (number, lines)


def _versions(msg: StoredMessage) -> list[StoredMessage]:
    """The message as it was at each edit, oldest first, then as it is."""
    return [*(StoredMessage(**{**vars(msg), **snap}) for snap in msg.edits), msg]
