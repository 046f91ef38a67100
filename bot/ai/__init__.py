"""AI players: policies that see only a seat's `Observation` (see `bot.engine.policy`).

`make_policy(tier, seed)` is how the bot, the simulator and the terminal game get a player for
an AI seat. Importing this package registers the tiers (`easy`, `medium`, `hard`, defined in
`bot.ai.policies`) in `bot.engine.policy.POLICIES` beside the engine's `random` player.
"""

from __future__ import annotations

import random

from bot.ai import policies as _policies  # noqa: F401  (registers the tiers)
from bot.engine.policy import POLICIES, Policy

TIERS = ("easy", "medium", "hard")


def make_policy(tier: str, seed: int | None = None) -> Policy:
    """A fresh policy of `tier` seeded with `seed`; raises ValueError for an unknown tier.

    An unknown tier is a bug in the caller (the lobby offers only the listed tiers), so it is
    refused loudly rather than quietly replaced by a weaker player."""
    factory = POLICIES.get(tier)
    if factory is None:
        raise ValueError(f"unknown AI tier {tier!r} (choose one of {', '.join(sorted(POLICIES))})")
    return factory(random.Random(seed))
