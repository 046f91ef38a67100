"""The shuffle commitment in Discord: its short form on the public table from the deal's start,
the salt only in the results, both within embed limits."""

from __future__ import annotations

import json
import random

from bot.discord_ui.screens.results import result_embed
from bot.discord_ui.screens.table import table_embed
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import RandomPolicy


def test_the_table_footer_shows_the_commitment_but_not_the_salt() -> None:
    m = Match.create(["ann", "bob", "cat"], "points")
    view = m.public_view()
    deal = m.deal
    assert deal is not None and deal.salt is not None and view.commitment is not None
    for note in (None, "Match over. Start another with /rummy new."):
        embed = table_embed(view, m.rules, ["ann drew from the stock"], 1.7e9, note)
        footer = embed.footer.text or ""
        assert f"Deal 1 shuffle commitment: {view.commitment[:16]}… (sha256)" in footer
        assert (note or "Your hand") in footer
        assert deal.salt not in json.dumps(embed.to_dict())
        assert len(embed) <= 6000


def test_the_results_reveal_the_salt_and_how_to_verify() -> None:
    m = Match.create([f"player{i}" for i in range(10)], "classic")
    policy = RandomPolicy(random.Random(4))
    while m.phase is MatchPhase.PLAYING:
        assert m.deal is not None
        m.apply(policy.act(m.observation(m.deal.turn)))
    finished = m.finished_deal()
    assert finished is not None
    history = finished.history
    names = [p.name for p in m.players]
    embed = result_embed(finished, names, ["x: 0"] * 10, False, [], m.score_kind, None)
    shuffle = next(f for f in embed.fields if f.name == "Shuffle")
    assert history["shuffle"]["salt"] in (shuffle.value or "")
    assert history["shuffle"]["commitment"][:16] in (shuffle.value or "")
    assert "python -m bot.engine verify" in (shuffle.value or "")
    assert len(embed) <= 6000


def test_results_without_a_commitment_have_no_shuffle_field() -> None:
    m = Match.create(["a", "b"], "points", seed=2)
    state = m.to_dict()
    del state["deal"]["salt"]  # a deal started before commitments existed
    m = Match.from_dict(state)
    policy = RandomPolicy(random.Random(2))
    while m.phase is MatchPhase.PLAYING:
        assert m.deal is not None
        m.apply(policy.act(m.observation(m.deal.turn)))
    finished = m.finished_deal()
    assert finished is not None
    embed = result_embed(finished, ["a", "b"], [], False, [], m.score_kind, None)
    assert all(f.name != "Shuffle" for f in embed.fields)
    view = m.public_view()
    footer = table_embed(view, m.rules, [], None).footer.text or ""
    assert "commitment" not in footer
