"""“Review my play” on the results message: a private review for a player of that deal, a
refusal for anyone else, and the review is still there after the next deal has started."""

from __future__ import annotations

import re
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


ALL_SAME = re.compile(
    r"Deal 1: you made (\d+) moves?, and the expert AI would have played"
    r" (?:it|every one of them) the same way\."
)
SOME_CHANGED = re.compile(
    r"Deal 1: you made (\d+) moves?; the expert AI would have played (\d+) of them the same"
    r" way and (\d+) differently\."
)


async def test_the_reviews_counts_match_the_moves_it_lists(tmp_path: Path) -> None:
    """Issue 39 item 15, as a player read it: "the expert AI would have played 4 of them the
    same way" (4 moves of 4) above "the moves the expert would change were close calls". The
    head counts the moves played the same way and differently, and what follows accounts for
    every one of those changed: the items listed, and how many more were left out and why."""
    async with game_env(tmp_path, TWO, 7, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        assert await driver.play() is not None
        results = [m for m in fake.public_messages(driver.channel) if results_deal(m)]
        forms = set()
        for user in TWO:
            result = await fake.click(user, results[-1], label="Review my play", timeout=60)
            await result.wait(timeout=60)
            lines = _answer(result).splitlines()
            items = [line for line in lines if line.startswith("Turn ")]
            if ALL_SAME.fullmatch(lines[0]):
                forms.add("all the same")
                assert lines == lines[:1], lines  # nothing about moves it would change
                continue
            head = SOME_CHANGED.fullmatch(lines[0])
            assert head is not None, lines
            moves, same, changed = (int(n) for n in head.groups())
            assert same + changed == moves and changed >= 1, lines
            if not items:
                forms.add("none listed")
                assert "close call" in lines[1], lines
                assert changed == 1 or f"{changed} " in lines[1], lines
            elif len(items) == changed:
                forms.add("all listed")
                assert lines[1] == ("It is below." if changed == 1 else f"All {changed} are below.")
            else:
                forms.add("some listed")
                listed, rest = len(items), changed - len(items)
                assert f"{'one' if listed == 1 else listed} that mattered most" in lines[1]
                assert f"the other {'one' if rest == 1 else rest} " in lines[1], lines
        # Seed 7: bob played his 4 moves as the expert would have (the "4 of 4").
        assert "all the same" in forms, forms
        await env.finish()
