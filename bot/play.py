"""Play a match in the terminal against AI seats: `python -m bot.play --profile points --ai hard`.

This is how a newcomer tries the game without Discord, and how a developer reproduces a rules
question: the same engine, the same observations and the same AI tiers as the bot, with a plain
text table. One human seat (you, seat 1) plays against the AI seats named by `--ai`.

Your hand is always shown grouped the way the engine would arrange it (pure runs, runs, sets,
then loose cards), numbered so you can pick a card by its number or by its code (`7H`, `10S`,
`JK`). Prompts:

* at the start of your turn: `s` draw from the stock, `d` take the top discard, `p` drop
  (pack), `r` declare the dealt hand (hand rummy, where the rules allow it), `q` quit;
* after drawing: a card (`7H` or its number) to discard it, `declare 7H` (or `! 7H`) to throw
  7H and show the rest; a hint tells you when the engine sees a valid declaration.

Bad input never crashes the game: it prints what was wrong and asks again. Input may come from
a pipe, so tests drive a whole match through stdin; if the input ends, you leave the table
(counted as a drop, like closing the window at a real table) and the AI seats finish the match.
`--seed` makes the shuffles and the AI reproducible. After each deal you played, a short review
lists the moves where the expert AI would have played differently and why (`--no-review` skips it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from .ai import TIERS, make_policy
from .ai.review import ReplayError, review_seat
from .ai.review_text import review_lines
from .engine.actions import Action, ActionKind
from .engine.cards import Card, CardParseError, Face, rank_name
from .engine.describe import amount
from .engine.errors import RummyError
from .engine.evaluate import Evaluation, evaluate_drawn, evaluate_hand
from .engine.match import Match, MatchPhase, Player, ScoreKind
from .engine.observation import Observation
from .engine.policy import Policy
from .engine.rules import get_profile, parse_options
from .engine.states import SeatState

_KIND = {"pure": "pure run", "impure": "run", "set": "set"}


class InputEnded(Exception):
    """The input stream ran out: the human leaves the table."""


def arranged(obs: Observation) -> tuple[list[tuple[str, list[Card]]], list[Card]]:
    """The hand as the engine arranges it: (label, cards) groups, then loose cards.

    With 14 cards in hand the engine's best 13 are grouped and the card it would throw is shown
    last among the loose cards."""
    hand = list(obs.hand)
    if not hand:
        return [], []
    ev: Evaluation
    extra: list[Card] = []
    if len(hand) == 14:
        drawn = evaluate_drawn(hand, obs.rules, obs.wild_rank, forbidden=obs.taken)
        ev = drawn.best
        extra = [drawn.best_discard]
    else:
        ev = evaluate_hand(hand, obs.rules, obs.wild_rank)
    groups = [(_KIND.get(g.kind.value, g.kind.value), list(g.cards)) for g in ev.groups]
    return groups, list(ev.leftover) + extra


def show_hand(obs: Observation, out: TextIO) -> list[Card]:
    """Print the grouped hand with numbers; returns the cards in numbered order."""
    groups, loose = arranged(obs)
    order: list[Card] = []
    for label, cards in groups:
        out.write(f"  {label:<9}" + " ".join(_numbered(c, order, obs) for c in cards) + "\n")
    if loose:
        out.write("  loose    " + " ".join(_numbered(c, order, obs) for c in loose) + "\n")
    return order


def _numbered(c: Card, order: list[Card], obs: Observation) -> str:
    order.append(c)
    mark = "*" if obs.rules.is_wild(c.face, obs.wild_rank) else ""
    taken = "(taken)" if obs.taken is not None and c.id == obs.taken.id else ""
    return f"{len(order)}:{c.face.code}{mark}{taken}"


class TerminalGame:
    """One match with a human at seat 0 and AI policies at the other seats."""

    def __init__(self, match: Match, ais: dict[int, Policy], inp: TextIO, out: TextIO) -> None:
        self.match = match
        self.ais = ais
        self.inp = inp
        self.out = out
        self.human = 0
        self.printed_events = 0  # the match's event_count when the log was last printed
        self.human_left = False
        self.review = True  # print a review of the human's play after each deal

    # -- io -----------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise InputEnded()
        if not self.inp.isatty():
            self.out.write(line if line.endswith("\n") else line + "\n")  # echo piped input
        return line.strip()

    # -- main loop ----------------------------------------------------------------------

    def run(self) -> int:
        m = self.match
        self._deal_banner()
        while m.phase is not MatchPhase.OVER:
            if m.phase is MatchPhase.BETWEEN_DEALS:
                m.start_next_deal()
                self._deal_banner()
                continue
            deal = m.deal
            assert deal is not None
            seat = deal.turn
            if seat == self.human and not self.human_left:
                self._human_turn()
            else:
                policy = self.ais.get(seat)
                if policy is None:  # the human has left; their seat no longer plays
                    break
                m.apply(policy.act(m.observation(seat)))
            self._print_events()
            if m.phase is not MatchPhase.PLAYING:
                self._results()
                self._review()
        self._final()
        return 0

    def _deal_banner(self) -> None:
        m = self.match
        deal = m.deal
        assert deal is not None
        ind = "none" if deal.indicator is None else deal.indicator.face.code
        wr = deal.wild_rank
        wild = "printed jokers" + ("" if wr is None else f" and every {rank_name(wr)}")
        self.say("")
        self.say(
            f"=== Deal {m.deal_number} ({m.rules.name}) - dealer {m.players[deal.dealer].name}"
        )
        self.say(f"Indicator {ind}; wild: {wild if not m.rules.nothing_wild else 'nothing'}")
        self._print_events()

    def _print_events(self) -> None:
        """The public lines since the last call: the same words the Discord table shows."""
        m = self.match
        for text in m.lines_since(self.printed_events):
            self.say(f"  > {text}")
        self.printed_events = m.event_count

    def _status(self, obs: Observation) -> None:
        top = obs.top_discard
        others = ", ".join(
            f"{s.name} {s.cards} cards" + ("" if s.status is SeatState.ACTIVE else f" ({s.status})")
            for s in obs.seats
            if s.seat != obs.seat
        )
        self.say("")
        self.say(f"Stock {obs.stock_size} | top discard {top.face.code if top else '-'} | {others}")

    def _human_turn(self) -> None:
        m = self.match
        try:
            obs = m.observation(self.human)
            self._status(obs)
            self._draw_phase(obs)
            deal = m.deal
            if m.phase is MatchPhase.PLAYING and deal is not None and deal.turn == self.human:
                self._discard_phase()
        except InputEnded:
            self.say("Input ended: you leave the table (counted as a drop).")
            self.human_left = True
            if m.phase is MatchPhase.PLAYING:
                m.apply(Action.leave(self.human))

    def _draw_phase(self, obs: Observation) -> None:
        kinds = {a.kind for a in obs.legal_actions}
        rummy = any(a.kind is ActionKind.DECLARE and a.card is None for a in obs.legal_actions)
        options = []
        if ActionKind.DRAW_STOCK in kinds:
            options.append("s=stock")
        if ActionKind.TAKE_DISCARD in kinds:
            top = obs.top_discard
            options.append(f"d=discard ({top.face.code if top else '-'})")
        if ActionKind.DROP in kinds:
            options.append(f"p=drop (costs {obs.drop_cost})")
        if rummy:
            options.append("r=declare your dealt hand")
        options.append("q=quit")
        self.say("Your hand:")
        show_hand(obs, self.out)
        while True:
            choice = self.ask(f"Your turn: {', '.join(options)} > ").lower()
            action: Action | None = None
            if choice in ("s", "stock") and ActionKind.DRAW_STOCK in kinds:
                action = Action.draw_stock(self.human)
            elif choice in ("d", "discard", "take") and ActionKind.TAKE_DISCARD in kinds:
                action = Action.take_discard(self.human)
            elif choice in ("p", "drop", "pack") and ActionKind.DROP in kinds:
                action = Action.drop(self.human)
            elif choice in ("r", "rummy") and rummy:
                action = Action.declare(self.human, None)
            elif choice in ("q", "quit"):
                raise InputEnded()
            if action is None:
                self.say(f"'{choice}' is not one of: {', '.join(options)}. Try again.")
                continue
            if self._apply(action):
                return

    def _discard_phase(self) -> None:
        obs = self.match.observation(self.human)
        self.say("You now hold:")
        order = show_hand(obs, self.out)
        declares = [a for a in obs.legal_actions if a.kind is ActionKind.DECLARE]
        hint = ""
        ev = evaluate_drawn(list(obs.hand), obs.rules, obs.wild_rank, forbidden=obs.taken)
        if ev.declarable:
            hint = f" You can declare: type 'declare {ev.winning_discards[0].face.code}'."
        while True:
            raw = self.ask(
                f"Discard a card (code like 7H, or number 1-{len(order)}); "
                f"'declare <card>' to show.{hint} > "
            )
            text = raw.strip()
            declare = False
            low = text.lower()
            for prefix in ("declare ", "! ", "!"):
                if low.startswith(prefix):
                    declare, text = True, text[len(prefix) :].strip()
                    break
            card = self._pick(text, order, obs)
            if card is None:
                continue
            if obs.taken is not None and card.id == obs.taken.id:
                twin = next((c for c in obs.hand if c.face == card.face and c.id != card.id), None)
                if twin is None:
                    self.say("You may not throw the card you just took from the pile.")
                    continue
                card = twin
            if declare:
                action = Action.declare(self.human, card.id)
                if action not in declares:
                    self.say(f"Throwing {card.face.code} does not leave a valid declaration.")
                    continue
            else:
                action = Action.discard(self.human, card.id)
            if self._apply(action):
                return

    def _pick(self, text: str, order: list[Card], obs: Observation) -> Card | None:
        if not text:
            self.say("Type a card (e.g. 7H) or its number.")
            return None
        if text.isdigit():
            i = int(text)
            if 1 <= i <= len(order):
                return order[i - 1]
            self.say(f"There is no card number {i}; choose 1-{len(order)}.")
            return None
        try:
            face = Face.parse(text)
        except CardParseError as exc:
            self.say(str(exc))
            return None
        for c in order:
            if c.face == face:
                return c
        self.say(f"You do not hold {face.code}.")
        return None

    def _apply(self, action: Action) -> bool:
        try:
            self.match.apply(action)
        except RummyError as exc:
            self.say(f"Not allowed: {exc}")
            return False
        return True

    # -- results ------------------------------------------------------------------------

    def _results(self) -> None:
        m = self.match
        result = m.results[-1]
        deal = m.deal
        self.say("")
        if result.void:
            self.say(f"Deal {result.number} is void: nobody pays.")
        elif result.winner is not None:
            self.say(f"Deal {result.number} won by {m.players[result.winner].name} ({result.end}).")
        charges = {c.seat: c for c in result.charges}
        finals = deal.final_evaluations() if deal is not None else {}
        self.say(f"  {'seat':<14}{'pays':>8}{'basis':>14}{'total':>10}   hand")
        for s, p in enumerate(m.players):
            ch = charges.get(s)
            pays = amount(ch.amount) if ch else "-"
            basis = ch.basis.value if ch else ("winner" if s == result.winner else "")
            hand = ""
            if s in finals:
                ev = finals[s]
                parts = [" ".join(c.face.code for c in g.cards) for g in ev.groups]
                if ev.leftover:
                    parts.append("loose: " + " ".join(c.face.code for c in ev.leftover))
                hand = " | ".join(parts)
            score = amount(m.scores[s])
            self.say(f"  {p.name:<14}{pays:>8}{basis:>14}{score:>10}   {hand}")

    def _review(self) -> None:
        """What the expert would have played differently in the human's deal (their own information
        only, see `bot.ai.review`), worded like the Discord "Review my play" answer."""
        if self.human_left or not self.review:
            return
        try:
            review = review_seat(self.match, self.human)
        except ReplayError:
            return
        self.say("")
        self.say("Review of your play:")
        for line in review_lines(review, lambda c: c.face.code):
            self.say(f"  {line}")

    def _final(self) -> None:
        m = self.match
        self.say("")
        kind = "net chips" if m.score_kind is ScoreKind.NET else "penalty points"
        self.say(f"Match over ({kind}):")
        for s, p in enumerate(m.players):
            self.say(f"  {p.name:<14}{amount(m.scores[s]):>10}")
        if m.winners:
            self.say("Winner: " + ", ".join(m.players[s].name for s in m.winners))
        else:
            self.say("No winner.")


def build(profile: str, ais: Sequence[str], seed: int | None, name: str,
          options: Sequence[str] = ()) -> tuple[Match, dict[int, Policy]]:  # fmt: skip
    # `with_options` types the values ("honor" -> DeclarationMode.HONOR) or refuses them.
    rules = get_profile(profile).with_options(**parse_options(options))
    players = [Player("human", name)]
    for i, tier in enumerate(ais):
        players.append(
            Player(f"ai{i + 1}", f"🤖 {tier.capitalize()}" + (f" {i + 1}" if len(ais) > 1 else ""))
        )
    match = Match.create(players, rules, seed=seed)
    # The seating ceremony (paplu) may reorder the players: find the AI seats by id.
    policies: dict[int, Policy] = {}
    for s, p in enumerate(match.players):
        if p.id.startswith("ai"):
            tier = ais[int(p.id[2:]) - 1]
            policies[s] = make_policy(tier, None if seed is None else seed * 31 + s)
    return match, policies


def main(argv: Sequence[str] | None = None, inp: TextIO | None = None,
         out: TextIO | None = None) -> int:  # fmt: skip
    parser = argparse.ArgumentParser(
        prog="python -m bot.play",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--profile", default="points", help="rules profile (points, pool101, ...)")
    parser.add_argument(
        "--ai", default="medium", help=f"AI tiers, comma separated: {','.join(TIERS)}"
    )
    parser.add_argument("--seed", type=int, default=None, help="reproducible shuffles and AI")
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--option", action="append", default=[], metavar="NAME[=VALUE]",
                        help="house rule or match option, e.g. honor, no_reshuffle")  # fmt: skip
    parser.add_argument("--no-review", action="store_true",
                        help="skip the review of your play after each deal")  # fmt: skip
    args = parser.parse_args(argv)
    tiers = [t.strip().lower() for t in args.ai.split(",") if t.strip()]
    bad = [t for t in tiers if t not in TIERS]
    if not tiers or bad:
        parser.error(f"--ai takes tiers from {', '.join(TIERS)} (got {args.ai!r})")
    try:
        match, policies = build(args.profile, tiers, args.seed, args.name, args.option)
    except ValueError as exc:
        parser.error(str(exc))
    # The human is whichever seat holds the "human" player (seating may move it).
    game = TerminalGame(match, policies, inp or sys.stdin, out or sys.stdout)
    game.human = match.seat_of("human")
    game.review = not args.no_review
    return game.run()


if __name__ == "__main__":
    sys.exit(main())
