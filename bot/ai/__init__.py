"""AI players: policies that see only a seat's `Observation` (see `bot.engine.policy`).

`make_policy(tier, seed)` is how the bot, the simulator and the terminal game get a player for
an AI seat. Importing this package registers the tiers (`easy`, `medium`, `hard`, defined in
`bot.ai.policies`; `expert`, in `bot.ai.expert`) in `bot.engine.policy.POLICIES` beside the
engine's `random` player.

`AiTier` names the tiers, and `TIERS` lists them weakest first: lobbies, commands and tools
take them from here instead of spelling the names again. A tier is stored (a seat's `ai`, an
event) as its text value.
"""

from __future__ import annotations

import enum
import random

from bot.ai import expert as _expert  # noqa: F401  (registers the expert tier)
from bot.ai import policies as _policies  # noqa: F401  (registers the tiers)
from bot.engine.policy import POLICIES, Policy


class AiTier(enum.StrEnum):
    """An AI player's strength; the registered policy of the same name plays it."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


#: Every tier, weakest first.
TIERS: tuple[AiTier, ...] = tuple(AiTier)

_missing = [t for t in TIERS if t not in POLICIES]
if _missing:  # pragma: no cover - a tier named here but never registered is a bug
    raise RuntimeError(f"AI tiers without a policy: {', '.join(_missing)}")


def make_policy(tier: AiTier, seed: int | None = None) -> Policy:
    """A fresh policy of `tier` seeded with `seed`; raises ValueError for an unknown tier.

    The policy is found by the tier's name, so tests and tools may also name another
    registered policy (the engine's `random` player). An unknown name is a bug in the caller
    (the table layer parses a tier once, `bot.table.lobby.parse_tier`), so it is refused
    loudly rather than quietly replaced by a weaker player."""
    factory = POLICIES.get(tier)
    if factory is None:
        others = sorted(set(POLICIES) - set(TIERS))
        raise ValueError(
            f"unknown AI tier {tier!r} (choose one of {', '.join(TIERS)}; "
            f"also registered: {', '.join(others) or 'nothing else'})"
        )
    return factory(random.Random(seed))
