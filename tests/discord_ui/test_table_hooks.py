"""Which lent token the table's edit goes through (`bot.discord_ui.table_hooks`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_ui.table_hooks import KEEP, MAX_AGE, PER_WINDOW, WINDOW, TableHooks


@dataclass
class Interaction:
    id: int


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def hooks() -> tuple[TableHooks, Clock]:
    clock = Clock()
    return TableHooks(clock=clock), clock


def test_no_token_means_the_channel() -> None:
    h, _ = hooks()
    assert h.pick("t", 50) is None
    h.lend("t", Interaction(1), 50)
    assert h.pick("t", None) is None  # the table has no message yet
    assert h.pick("other", 50) is None


def test_the_freshest_token_for_that_message() -> None:
    h, clock = hooks()
    h.lend("t", Interaction(1), 50)
    clock.now += 10
    h.lend("t", Interaction(2), 50)
    hook = h.pick("t", 50)
    assert hook is not None and hook.interaction.id == 2


def test_a_token_lent_twice_is_kept_once() -> None:
    h, _ = hooks()
    h.lend("t", Interaction(1), 50)
    h.lend("t", Interaction(1), 50)
    assert h.count("t") == 1


def test_a_token_for_an_older_message_is_dropped() -> None:
    """A table posted afresh: the old message's tokens cannot edit the new one."""
    h, _ = hooks()
    h.lend("t", Interaction(1), 50)
    assert h.pick("t", 60) is None
    assert h.count("t") == 0


def test_a_token_near_its_end_is_not_used() -> None:
    h, clock = hooks()
    h.lend("t", Interaction(1), 50)
    clock.now += MAX_AGE - 1
    assert h.pick("t", 50) is not None
    clock.now += 1
    assert h.pick("t", 50) is None
    assert h.count("t") == 0


def test_each_token_keeps_room_in_its_own_bucket() -> None:
    h, clock = hooks()
    a, b = Interaction(1), Interaction(2)
    h.lend("t", a, 50)
    h.lend("t", b, 50)
    for _ in range(PER_WINDOW):
        hook = h.pick("t", 50)
        assert hook is not None and hook.interaction is b
        h.used(hook.interaction)
    hook = h.pick("t", 50)  # b is full for now: the older token takes over
    assert hook is not None and hook.interaction is a
    for _ in range(PER_WINDOW):
        h.used(a)
    assert h.pick("t", 50) is None  # both full: the channel it is
    clock.now += WINDOW
    hook = h.pick("t", 50)
    assert hook is not None and hook.interaction is b


def test_a_hand_refresh_through_the_token_counts_too() -> None:
    h, _ = hooks()
    a = Interaction(1)
    h.lend("t", a, 50)
    for _ in range(PER_WINDOW):
        h.used(a)  # e.g. the player's hand follow-up edited through the same token
    assert h.pick("t", 50) is None
    h.used(Interaction(99))  # not a lent token: nothing to count, no error


def test_only_the_freshest_few_are_kept() -> None:
    h, clock = hooks()
    for i in range(KEEP + 3):
        clock.now += 1
        h.lend("t", Interaction(i), 50)
    assert h.count("t") == KEEP
    h.used(Interaction(0))  # forgotten: no effect
    hook = h.pick("t", 50)
    assert hook is not None and hook.interaction.id == KEEP + 2


def test_a_failed_token_is_not_tried_again() -> None:
    h, _ = hooks()
    a = Interaction(1)
    h.lend("t", a, 50)
    hook = h.pick("t", 50)
    assert hook is not None
    h.drop("t", hook)
    assert h.pick("t", 50) is None
    assert h.fallbacks == 1
    h.drop("t", hook)  # twice: counted once
    assert h.fallbacks == 1


def test_a_failed_token_takes_the_older_ones_with_it() -> None:
    h, clock = hooks()
    for i in range(3):
        clock.now += 1
        h.lend("t", Interaction(i), 50)
    middle = next(x for x in h._by_table["t"] if x.interaction.id == 1)
    h.drop("t", middle)
    assert h.count("t") == 1
    hook = h.pick("t", 50)
    assert hook is not None and hook.interaction.id == 2


def test_forget_a_table() -> None:
    h, _ = hooks()
    h.lend("t", Interaction(1), 50)
    h.lend("u", Interaction(2), 70)
    h.forget("t")
    assert h.count("t") == 0 and h.pick("t", 50) is None
    assert h.pick("u", 70) is not None
