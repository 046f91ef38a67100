"""Small builders for engine tests: hands from notation, random hands with wild cards."""

from __future__ import annotations

import random

from bot.engine.cards import Card, Face, parse_cards
from bot.engine.rules import Rules, get_profile


def hand(text: str) -> list[Card]:
    return parse_cards(text, max_copies=3)


def wild(profile: str, indicator: str) -> tuple[Rules, int | None]:
    rules = get_profile(profile)
    return rules, rules.wild_rank(Face.parse(indicator))


def random_hand(rng: random.Random, rules: Rules, size: int = 13) -> tuple[list[Card], Face]:
    """A hand from a shuffled deck, sometimes skewed towards one suit and several wild cards."""
    deck = rules.build_deck(4)
    indicator = rng.choice(deck).face
    wild_rank = rules.wild_rank(indicator)
    mode = rng.random()
    if mode < 0.4:
        return rng.sample(deck, size), indicator
    suit = rng.randrange(4)
    wilds = [c for c in deck if rules.is_wild(c.face, wild_rank)]
    n_wild = min(len(wilds), rng.randint(2, 4)) if mode < 0.8 else 0
    chosen = rng.sample(wilds, n_wild)
    ids = {c.id for c in chosen}
    rest = [c for c in deck if c.id not in ids and (c.suit == suit or rng.random() < 0.3)]
    return chosen + rng.sample(rest, size - n_wild), indicator
