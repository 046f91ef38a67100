"""Leaderboards, stats, history, server settings and forget-me (the `/rummy` stats commands).

Scaffold: the commands arrive with the storage integration; `Rummy` mixes this class in.
"""

from __future__ import annotations


class StatsCommands:
    """Mixed into the `Rummy` group cog so these commands live under `/rummy`."""
