"""The post-deal review: flags known blunders, uses only the seat's own information, replays
a finished deal into exactly the observations the seat had, and shows up in the terminal game."""

from __future__ import annotations

import io
import random
import re

from bot.ai import make_policy
from bot.ai.review import (
    Decision,
    MoveKind,
    Reason,
    ReplayError,
    Review,
    review,
    seat_decisions,
)
from bot.engine.actions import Action
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation
from bot.play import main
from bot.words.review import review_lines, suggestion_lines
from tests.ai.test_equity import HOPELESS, _pool
from tests.ai.test_tiers import _obs_for


def _throw(obs: Observation, code: str) -> Action:
    card = next(c for c in obs.hand if c.face.code == code)
    return Action.discard(obs.seat, card.id)


def test_a_missed_declaration_comes_first() -> None:
    obs = _obs_for("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 4C KD", "QD", draw="3C")
    r = review([Decision(obs, _throw(obs, "2C"))])
    assert r is not None and r.moves == 1 and r.agreed == 0
    (s,) = r.suggestions
    assert s.kind is MoveKind.DECLARE
    assert Reason.MISSED_DECLARATION in s.reasons
    assert s.better.kind.value == "declare"
    assert "valid declaration" in "\n".join(review_lines(r))


def test_breaking_a_pure_run_is_flagged_with_the_numbers() -> None:
    obs = _obs_for("7H 8H 9H 4S 5S 6S 3C JK 2D 2C 2S 9C KC", "10D", draw="JD")
    r = review([Decision(obs, _throw(obs, "8H"))])
    assert r is not None
    (s,) = r.suggestions
    assert s.kind is MoveKind.DISCARD
    assert s.played_card is not None and s.played_card.face.code == "8H"
    assert s.better_card is not None and s.better_card.face.code in {"KC", "JD", "9C"}
    assert s.gain >= 0.5
    assert s.better_figures.chips > s.played_figures.chips
    assert s.better_figures.distance <= s.played_figures.distance
    assert Reason.CLOSER in s.reasons or Reason.FEWER_POINTS in s.reasons
    text = "\n".join(review_lines(r, None, lambda c: c.face.code))
    assert "you threw 8H" in text and "chips better" in text
    assert "deadwood" not in text and "unseen" not in text


def test_the_review_reads_in_hindi_line_for_line() -> None:
    """A Hindi reader gets the same review in Hindi: the same lines, the same figures and
    cards, and none of the English sentences."""
    obs = _obs_for("7H 8H 9H 4S 5S 6S 3C JK 2D 2C 2S 9C KC", "10D", draw="JD")
    r = review([Decision(obs, _throw(obs, "8H"))])
    assert r is not None and r.suggestions
    english = review_lines(r, "en", lambda c: c.face.code)
    hindi = review_lines(r, "hi", lambda c: c.face.code)
    assert len(hindi) == len(english)
    for en, hi in zip(english, hindi, strict=True):
        assert re.search("[\u0900-\u097f]", hi), hi  # Devanagari
        assert sorted(re.findall(r"\d+|[2-9TJQKA]{1,2}[SHDC]", en)) == sorted(
            re.findall(r"\d+|[2-9TJQKA]{1,2}[SHDC]", hi)
        ), (en, hi)
    assert "8H" in hindi[2] and "you threw" not in "\n".join(hindi)
    assert review_lines(None, "hi")[0] != review_lines(None, "en")[0]


def test_a_good_move_is_not_flagged() -> None:
    obs = _obs_for("7H 8H 9H 4S 5S 6S 3C JK 2D 2C 2S 9C KC", "10D", draw="JD")
    r = review([Decision(obs, _throw(obs, "KC"))])
    assert r is not None and r.suggestions == ()


def _play_deal(seed: int) -> tuple[Match, list[Decision], list[Decision]]:
    """A medium-vs-easy deal. Seat 0's decisions are recorded twice: as played, and as seen
    from a copy of the match whose hidden cards (the other hand and the stock) were shuffled."""
    match = Match.create(["A", "B"], "points", seed=seed)
    policies = [make_policy("medium", seed), make_policy("easy", seed + 1)]
    live: list[Decision] = []
    shuffled: list[Decision] = []
    rng = random.Random(seed)
    while match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        seat = deal.turn
        obs = match.observation(seat)
        action = policies[seat].act(obs)
        if seat == 0:
            live.append(Decision(obs, action))
            twin = Match.from_dict(match.to_dict())
            tdeal = twin.deal
            assert tdeal is not None
            hidden = list(tdeal.hands[1]) + tdeal.stock
            rng.shuffle(hidden)
            tdeal.hands[1], tdeal.stock = (
                hidden[: len(tdeal.hands[1])],
                hidden[len(tdeal.hands[1]) :],
            )
            shuffled.append(Decision(twin.observation(0), action))
        match.apply(action)
    return match, live, shuffled


def test_review_uses_only_the_seats_own_information() -> None:
    match, live, shuffled = _play_deal(3)
    assert seat_decisions(match, 0) == live  # the replay rebuilds exactly what the seat saw
    assert review(shuffled, seed=5) == review(live, seed=5)  # hidden cards change nothing
    r = review(seat_decisions(match, 0), seed=5)
    assert r is not None and r.seat == 0 and r.moves == len(live)


def test_no_review_while_a_deal_is_played() -> None:
    match = Match.create(["A", "B"], "points", seed=1)
    try:
        seat_decisions(match, 0)
    except ReplayError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a deal in play has nothing to review")


def test_the_terminal_game_prints_the_review_after_a_deal() -> None:
    out = io.StringIO()
    code = main(
        ["--profile", "points", "--ai", "easy", "--seed", "4"], io.StringIO("s\n1\n" * 200), out
    )
    assert code == 0
    text = out.getvalue()
    assert "Review of your play:" in text
    assert "the expert AI would have played" in text


def _play_unseeded(
    profile: str, players: int, rng_seed: int, drop_chance: float
) -> tuple[Match, dict[int, list[Decision]]]:
    """One unseeded deal (the OS generator shuffles, as in the terminal game without --seed)
    between random players; every seat's decisions recorded as played."""
    from bot.engine.policy import RandomPolicy

    match = Match.create([f"P{i}" for i in range(players)], profile, seed=None)
    rng = random.Random(rng_seed)
    policies = [RandomPolicy(rng, drop_chance=drop_chance) for _ in range(players)]
    live: dict[int, list[Decision]] = {s: [] for s in range(players)}
    while match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        obs = match.observation(deal.turn)
        action = policies[deal.turn].act(obs)
        live[deal.turn].append(Decision(obs, action))
        match.apply(action)
    return match, live


def test_an_unseeded_deal_replays_into_what_each_seat_saw() -> None:
    """No seed: the replay lays out the recorded deck order, and follows the shuffles made
    during the deal (first drops shuffled under the stock in paplu, reshuffled piles in
    pool101) through the recorded draws. Each seat's rebuilt decisions are exactly its own."""
    from bot.engine.events import Dropped, Reshuffled

    seen: set[str] = set()
    for i in range(16):
        # paplu, 3-5 players dropping often: first drops go under the stock. pool101, two
        # players who never drop: random play seldom declares, so the stock runs out.
        if i % 2:
            match, live = _play_unseeded("paplu", 3 + i % 3, i, 0.15)
        else:
            match, live = _play_unseeded("pool101", 2, i, 0.0)
        deal = match.deal
        assert deal is not None and deal.seed is None
        for e in deal.events:
            if isinstance(e, Dropped) and e.to_stock_bottom:
                seen.add("dropped under the stock")
            if isinstance(e, Reshuffled):
                seen.add("reshuffled")
        for seat, decisions in live.items():
            assert seat_decisions(match, seat) == decisions, (i, seat)
    assert seen == {"dropped under the stock", "reshuffled"}, seen


# ---- consistency over many finished deals --------------------------------------------------


def _finished(seed: int, tiers: tuple[str, str], profile: str = "points") -> Match:
    match = Match.create(["Ann", "Bob"], profile, seed=seed)
    policies = [make_policy(tiers[0], seed), make_policy(tiers[1], seed + 1)]
    while match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        seat = deal.turn
        match.apply(policies[seat].act(match.observation(seat)))
    return match


def _check_consistent(r: Review) -> None:
    # The head's counts and the items listed come from this one review, and add up.
    assert r.unlisted >= 0 and r.agreed + len(r.suggestions) + r.unlisted == r.moves
    for tag in ("en", "hi"):
        words = review_lines(r, tag, lambda c: c.face.code)
        assert len(words) == (1 if r.changed == 0 else 2) + sum(
            len(suggestion_lines(s, tag, lambda c: c.face.code, r.chips)) for s in r.suggestions
        ), words
    turns = [s.turn for s in r.suggestions]
    assert turns == sorted(turns), "items out of turn order"
    assert len(r.suggestions) <= 5
    for s in r.suggestions:
        bo, po = s.better_figures, s.played_figures
        assert s.gain >= 0.5, "a suggestion that is not better"
        if po.match is not None and bo.match is not None:
            # a pool drop, judged by the chance of winning the match (whole percent)
            assert s.kind is MoveKind.DROP
            assert bo.match > po.match and s.gain == bo.match - po.match
        elif Reason.MISSED_DECLARATION not in s.reasons:
            # the figure the choice was made on: the better move never shows a worse one
            assert bo.chips > po.chips
            assert s.gain == round(bo.chips - po.chips, 1)
        if Reason.CLOSER in s.reasons:
            assert bo.distance < po.distance
        if Reason.FEWER_POINTS in s.reasons:
            assert bo.points < po.points
        lines = suggestion_lines(s, None, lambda c: c.face.code)
        text = "\n".join(lines)
        for word in ("deadwood", "unseen", "useful draws", "distance", "hard "):
            assert word not in text, (word, text)
        for line in lines:
            m = re.search(r"about (\d+)% after dropping, about (\d+)% playing on", line)
            if m:
                drop, play = (int(x) for x in m.groups())
                assert abs(drop - play) == s.gain, line
            m = re.search(r"about (\S+) chips better for you", line, re.IGNORECASE)
            if m:
                assert float(m.group(1)) == s.gain >= 0, line
            m = re.search(r"left (\d+) fewer points .* \((\d+) instead of (\d+)\)", line)
            if m:
                fewer, b, p = (int(x) for x in m.groups())
                assert fewer > 0 and fewer == p - b, line
        assert "about -" not in text and "less)" not in text


def test_the_review_is_consistent_over_many_finished_deals() -> None:
    shown = 0
    for seed in range(16):
        tiers = ("easy", "medium") if seed % 2 else ("medium", "hard")
        match = _finished(seed, tiers)
        for seat in (0, 1):
            r = review(seat_decisions(match, seat), seed=seed)
            if r is None:  # the other seat went out before this one moved
                continue
            _check_consistent(r)
            shown += len(r.suggestions)
    assert shown >= 8  # the test must look at real suggestions, not empty reviews


def test_at_most_five_moves_costliest_kept_in_turn_order() -> None:
    match = _finished(5, ("easy", "medium"))
    decisions = seat_decisions(match, 0)
    full = review(decisions, seed=1, limit=50)
    short = review(decisions, seed=1)
    assert full is not None and short is not None
    assert len(short.suggestions) == min(5, len(full.suggestions))
    if len(full.suggestions) > 5:
        cut = sorted(s.gain for s in full.suggestions)[-5]
        assert all(s.gain >= cut for s in short.suggestions)


def test_the_review_of_pool_matches_is_consistent_deal_after_deal() -> None:
    """Heads-up pool101 matches reviewed after every deal, as the totals grow: the drops
    are judged by the chance of winning the match, and every figure still agrees."""
    by_match = 0
    for seed in range(4):
        match = Match.create(["Ann", "Bob"], "pool101", seed=100 + seed)
        policies = [make_policy("medium", seed), make_policy("hard", seed + 1)]
        deals = 0
        while match.phase is not MatchPhase.OVER and deals < 6:
            if match.phase is MatchPhase.BETWEEN_DEALS:
                match.start_next_deal()
            while match.phase is MatchPhase.PLAYING:
                deal = match.deal
                assert deal is not None
                match.apply(policies[deal.turn].act(match.observation(deal.turn)))
            deals += 1
            for seat in (0, 1):
                r = review(seat_decisions(match, seat), seed=seed)
                if r is None:
                    continue
                _check_consistent(r)
                by_match += sum(1 for s in r.suggestions if s.played_figures.match is not None)
    assert by_match >= 1  # at least one drop judged by the match was looked at


def test_a_pool_drop_that_ends_the_match_is_named() -> None:
    """At 85 of 101, a first drop (20) puts the player out: the review says so, with the
    chance of winning the match that playing on kept, in English and in Hindi."""
    obs = _pool(_obs_for(HOPELESS, "KD"), 85, 30)
    drop = next(a for a in obs.legal_actions if a.kind.value == "drop")
    r = review([Decision(obs, drop)])
    assert r is not None
    (s,) = r.suggestions
    assert s.kind is MoveKind.DROP and s.better.kind.value != "drop"
    assert Reason.DROP_ENDS_MATCH in s.reasons and Reason.HAND_WORTH_PLAYING in s.reasons
    assert s.played_figures.match == 0
    assert s.better_figures.match is not None and s.gain == s.better_figures.match >= 1
    english = "\n".join(suggestion_lines(s, "en"))
    assert "out of the match" in english
    assert f"about 0% after dropping, about {s.better_figures.match}% playing on" in english
    hindi = "\n".join(suggestion_lines(s, "hi"))
    assert "मैच से बाहर" in hindi and f"{s.better_figures.match}%" in hindi


def test_a_drop_review_speaks_in_the_tables_one_unit() -> None:
    """Issue 39 item 15: "Dropping cost 20 points … About 8.5 chips better" at a chips table.
    Every amount of the review is in the table's unit, stated on its line: chips at points
    rummy (the drop cost too), and the counts in the head match the items listed."""
    obs = _obs_for("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 4C KD", "QD")  # one card from out
    assert obs.rules.chips
    drop = next(a for a in obs.legal_actions if a.kind.value == "drop")
    r = review([Decision(obs, drop)])  # dropped: playing on was better
    assert r is not None
    (s,) = r.suggestions
    assert s.kind is MoveKind.DROP
    lines = review_lines(r, None, lambda c: c.face.code)
    assert "1 move; the expert AI would have played 0 of them" in lines[0], lines
    assert lines[1] == "It is below."  # the one move it would change: listed
    amounts = [line for line in lines[3:] if re.search(r"\d", line)]
    assert amounts, lines
    for line in amounts:
        assert "points" not in line, line
        for m in re.finditer(r"\d+(?:\.\d)?", line):
            assert line[m.end() :].startswith(" chips"), (m.group(), line)
