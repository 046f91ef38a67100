"""“Review my play” on the results message: a private review for a player of that deal, a
refusal for anyone else, and the review is still there after the next deal has started."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import TableDriver, game_env, labels, results_deal

TWO = ["alice", "bob"]


def _answer(result: object) -> str:
    texts = [m.text() for m in getattr(result, "messages", [])]
    return "\n".join(texts)


async def test_review_button_answers_players_privately_and_refuses_others(
    tmp_path: Path,
) -> None:
    async with game_env(tmp_path, [*TWO, "carol"], 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None
        results = [m for m in fake.public_messages("general") if results_deal(m) is not None]
        assert results
        msg = results[-1]
        assert "Review my play" in labels(msg)

        # The wait is generous: the analysis is a second or two of CPU, on a shared machine.
        result = await fake.click("alice", msg, label="Review my play", timeout=60)
        await result.wait(timeout=60)
        assert result.deferred  # acknowledged at once; the analysis runs in a worker thread
        assert result.ephemeral
        text = _answer(result)
        assert "Deal 1" in text and "moves" in text, text
        assert result.message is not None
        assert result.message.visible_to == fake.user("alice").id

        other = await fake.click("carol", msg, label="Review my play", timeout=60)
        await other.wait(timeout=60)
        assert other.ephemeral
        assert "did not play that deal" in _answer(other)
        await env.finish()
