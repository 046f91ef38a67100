"""AI players: policies that see only a seat's `Observation` (see `bot.engine.policy`).

`make_policy(tier, seed)` is how the bot and the simulator get a player for an AI seat. Tiers
register themselves in `bot.engine.policy.POLICIES` when `bot.ai.policies` is imported.
"""

from __future__ import annotations

import contextlib
import random

from bot.engine.policy import POLICIES, Policy

with contextlib.suppress(ImportError):  # the tiers module registers easy/medium/hard
    import bot.ai.policies  # noqa: F401


def make_policy(tier: str, seed: int | None = None) -> Policy:
    """A fresh policy of `tier` (falls back to the random player only if the tier is unknown)."""
    factory = POLICIES.get(tier) or POLICIES["random"]
    return factory(random.Random(seed))
