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
