"""Defects found in play (issue 21), each through the fake Discord as players meet them."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import TableDriver, game_env

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
