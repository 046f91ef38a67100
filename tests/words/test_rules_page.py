"""Issue 39 item 14: a rules page never contradicts itself. A paplu `no_packing` table's page
listed the drop costs, "No dropping at this table." and that a wrong show "counts as a middle
drop (40)". Each line comes from the table's rules object; this renders the page for every
profile × house toggle (one at a time, and all together), in English and Hindi, and checks
what it says of dropping against what the rules allow, and the wrong show's cost against the
engine's."""

from __future__ import annotations

import pytest

from bot.engine.rules import HOUSE_TOGGLES, PROFILES, InvalidDeclaration, Rules
from bot.engine.settlement import OutReason, fixed_cost
from bot.words import text
from bot.words.rules import rules_summary


def prefix(locale: str, msg_id: str, var: str, **others: object) -> str:
    """The words of a message before its variable `var`."""
    return text(locale, msg_id, **{var: "§"}, **others).split("§")[0]


def variants() -> list[Rules]:
    out = []
    for base in PROFILES.values():
        for toggles in [(), *((t,) for t in HOUSE_TOGGLES), HOUSE_TOGGLES]:
            try:
                out.append(base.with_options(**dict.fromkeys(toggles, True)))
            except ValueError:
                continue  # a toggle this profile does not take
    return out


@pytest.mark.parametrize("locale", ["en", "hi"])
def test_every_rules_page_says_one_thing_of_dropping(locale: str) -> None:
    checked = 0
    for rules in variants():
        page = rules_summary(rules, locale)
        lines = page.splitlines()
        no_drop = text(locale, "rules-no-dropping")
        drop_head = prefix(locale, "rules-drop", "first", middle="", paid="")
        says_no_drop = no_drop in lines
        says_drop_costs = any(line.startswith(drop_head) for line in lines)
        assert says_no_drop != says_drop_costs, (rules.name, rules.no_packing, page)
        assert says_no_drop == (not rules.packing_allowed), (rules.name, page)
        # A wrong show's cost as the engine charges it, not named as a drop where none exists.
        reason = (
            OutReason.WRONG_SHOW
            if rules.invalid_declaration is InvalidDeclaration.PENALTY_OUT
            else OutReason.MIDDLE_DROP
        )
        cost = fixed_cost(rules, reason)
        head = prefix(locale, "rules-invalid", "invalid")
        invalid = next(line for line in lines if line.startswith(head))
        assert str(cost) in invalid, (rules.name, invalid)
        if not rules.packing_allowed:
            middle = text(locale, "rules-invalid-middle", middle=cost)
            assert middle not in invalid, (rules.name, invalid)
            dropped = text(locale, "rules-hand-rummy-double", dropped="X").split("X")[0]
            assert not any(dropped and dropped in line for line in lines[:-1]), page
        checked += 1
    assert checked >= 30
