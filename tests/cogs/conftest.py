"""The feature slices' tests (one folder a slice, as `cogs/`) drive the real bot against the
fake Discord like the end-to-end suite, so they keep its check: a test that leaves a breach of
Discord's rules (or a 429) fails (`tests/e2e/conftest.py`)."""

from tests.e2e.conftest import discord_rules_kept

__all__ = ["discord_rules_kept"]
