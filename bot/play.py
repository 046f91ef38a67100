"""Play a match in the terminal against AI seats: `python -m bot.play --profile points --ai hard`.

This is how a newcomer tries the game without Discord, and how a developer reproduces a rules
question: the same engine, the same observations and the same AI tiers as the bot, with a plain
text table. One human seat (you) plays against the AI seats named by `--ai`.

Cards are shown as on Discord (`7♥`, `10♠`, `🃏` a printed joker; `*` marks a wild card) and
typed with letters or symbols (`7H`, `10s`, `7♥`, `JK`). Your hand is shown grouped the way
the engine would arrange it (pure runs, runs, sets, then the rest: wild cards, pairs,
near-runs and loose cards when nothing is grouped yet), numbered so you can also pick a card
by its number, with its deadwood. Prompts:

* at the start of your turn: `s` draw from the stock, `d` take the top discard, `p` drop
  (pack; asks first, saying what it costs), `r` declare the dealt hand (hand rummy, where the
  rules allow it), `h` help, `q` leave the table (asks first);
* after drawing (the card you drew is named and marked `(new)`): a card (`7H` or its number)
  to throw it, `declare 7H` (or `! 7H`) to throw 7H and show the rest; a hint tells you when
  the engine sees a valid declaration.

Bad input never crashes the game: it prints what was wrong and asks again. Input may come from
a pipe, so tests drive a whole match through stdin; if the input ends, you leave the table
(counted as a drop, like closing the window at a real table) and the AI seats finish the match.
Ctrl-C stops the game at once. `--seed` makes the shuffles and the AI reproducible. After each
deal you played, a short review lists the moves where the expert AI would have played
differently and why (`--no-review` skips it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from .ai import TIERS, make_policy
from .ai.review import ReplayError, review_seat
from .clihelp import HelpFormatter
from .discord_ui.render.review import review_lines
from .engine.actions import Action, ActionKind
from .engine.arrange import arrangement
from .engine.cards import Card, CardParseError, Face, rank_name
from .engine.describe import amount
from .engine.errors import RummyError
from .engine.evaluate import Evaluation, evaluate_drawn
from .engine.match import Match, MatchPhase, Player, ScoreKind
from .engine.observation import Observation
from .engine.policy import Policy
from .engine.rules import PROFILES, Rules, get_profile, parse_options
from .engine.settlement import Basis, Charge
from .engine.states import EndReason, SeatState
from .table.advice import advise

_KIND = {"pure": "pure run", "impure": "run", "set": "set"}
_PART = {
    "wild": "wild",
    "pairs": "pairs",
    "near_runs": "near runs",
    "nothing": "loose",
    "unmatched": "loose",
}
_END = {
    EndReason.DECLARED: "declared",
    EndReason.HAND_RUMMY: "declared the dealt hand",
    EndReason.LAST_STANDING: "everyone else dropped out",
    EndReason.VOID: "the stock ran out",
}
_BASIS = {
    Basis.DEADWOOD: "deadwood",
    Basis.FIRST_DROP: "dropped before drawing",
    Basis.MIDDLE_DROP: "dropped",
    Basis.WRONG_SHOW: "wrong show",
    Basis.WRONG_SHOW_DROP: "wrong show (paid as a drop)",
    Basis.HAND_RUMMY_DROPPED: "had dropped (hand rummy)",
}
HELP = """\
How to play (docs/rules.md has the full rules):
  Make groups: runs (3+ cards of one suit in order: 4♥ 5♥ 6♥) and sets (3 or 4 of one rank in
  different suits). Wild cards (* and 🃏) stand in for any card. To declare you need every card
  in a group, with at least two runs, one of them pure (no wild card standing in).
At the start of your turn:
  s            draw the top card of the stock
  d            take the top card of the discard pile
  p            drop (pack): leave this deal for a fixed cost (asks first)
  r            declare the hand you were dealt, where the rules allow it
After drawing:
  7H or 7♥     throw that card (a number from the list works too: 5)
  declare 7H   throw 7H and show the rest (also: ! 7H)
Any time:
  h or help    this help
  q or quit    leave the table: it counts as a drop, the AI seats play on (asks first)
Cards: A 2 .. 10 J Q K with a suit S H D C (or ♠ ♥ ♦ ♣), any case; T is 10; JK is a printed
joker. Deadwood is what your unmatched cards would cost you if someone declared now."""


def card_text(c: Card, rules: Rules, wild_rank: int | None) -> str:
    """The one card notation of the terminal game: suit symbols, `*` on a wild card."""
    mark = "*" if rules.is_wild(c.face, wild_rank) and not c.face.is_joker else ""
    return c.face.pretty + mark


class InputEnded(Exception):
    """The input stream ran out: the human leaves the table."""


def arranged(obs: Observation) -> tuple[list[tuple[str, list[Card]]], str]:
    """The hand as the Discord hand view shows it, and a line about its deadwood.

    Sections are (label, cards): the engine's groups, then the unmatched cards (with 14 cards,
    the card the engine would throw last). A hand with no group yet is split as on Discord
    (`bot.engine.arrange`, the grouping every view shares): wild cards, pairs, near-runs,
    loose cards. The evaluation is the Discord view's own (`bot.table.advice.advise`)."""
    if not obs.hand:
        return [], ""
    advice = advise(obs)
    ev = advice.best
    drawn = advice.drawn
    sections = [
        (_KIND.get(p.kind) or _PART[p.kind], list(p.cards))
        for p in arrangement(drawn if drawn is not None else ev, obs.wild_rank)
    ]
    if drawn is not None:
        best = card_text(drawn.best_discard, obs.rules, obs.wild_rank)
        note = f"throwing {best} leaves deadwood {ev.deadwood}"
        note += " - you can declare!" if drawn.declarable else ""
    else:
        note = f"deadwood {ev.deadwood} (you would pay {ev.penalty} if someone declared now)"
    return sections, note


def show_hand(obs: Observation, out: TextIO) -> list[Card]:
    """Print the grouped hand with numbers and its deadwood; returns the cards in numbered
    order (the order a number typed at the prompt refers to)."""
    sections, note = arranged(obs)
    order: list[Card] = []
    for label, cards in sections:
        out.write(f"  {label:<10}" + " ".join(_numbered(c, order, obs) for c in cards) + "\n")
    if note:
        out.write(f"  {note[0].upper()}{note[1:]}.\n")
    return order


def _numbered(c: Card, order: list[Card], obs: Observation) -> str:
    order.append(c)
    text = card_text(c, obs.rules, obs.wild_rank)
    if obs.taken is not None and c.id == obs.taken.id:
        text += "(taken)"
    elif obs.drawn is not None and c.id == obs.drawn.id:
        text += "(new)"
    return f"{len(order)}:{text}"


class LeaveTable(Exception):
    """The human chose to leave (`q`, confirmed) or the input ran out."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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

    def confirm(self, question: str) -> bool:
        """A yes/no question; anything but y/yes is no (the safe answer)."""
        return self.ask(f"{question} [y/N] > ").strip().lower() in ("y", "yes")

    def card(self, c: Card) -> str:
        deal = self.match.deal
        return card_text(c, self.match.rules, None if deal is None else deal.wild_rank)

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
        ind = "none" if deal.indicator is None else deal.indicator.face.pretty  # not in play
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
        self.say(
            f"Stock {obs.stock_size} | top discard {self.card(top) if top else '-'} | {others}"
        )

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
            self._leave("Input ended: you leave the table (counted as a drop).")
        except LeaveTable as left:
            self._leave(left.reason)

    def _leave(self, why: str) -> None:
        self.say(why)
        self.human_left = True
        if self.match.phase is MatchPhase.PLAYING:
            self.match.apply(Action.leave(self.human))

    def _quit(self) -> None:
        """`q`: leave the table, after a confirmation (raises LeaveTable when confirmed)."""
        if self.confirm("Leave the table? It counts as a drop; the AI seats play on."):
            raise LeaveTable("You leave the table (counted as a drop).")
        self.say("You stay.")

    def _draw_phase(self, obs: Observation) -> None:
        kinds = {a.kind for a in obs.legal_actions}
        rummy = any(a.kind is ActionKind.DECLARE and a.card is None for a in obs.legal_actions)
        options = []
        if ActionKind.DRAW_STOCK in kinds:
            options.append("s=stock")
        if ActionKind.TAKE_DISCARD in kinds:
            top = obs.top_discard
            options.append(f"d=take {self.card(top) if top else '-'}")
        if ActionKind.DROP in kinds:
            options.append(f"p=drop (costs {obs.drop_cost})")
        if rummy:
            options.append("r=declare your dealt hand")
        options += ["h=help", "q=quit"]
        self.say("Your hand:")
        show_hand(obs, self.out)
        while True:
            choice = self.ask(f"Your turn: {', '.join(options)} > ").lower()
            action: Action | None = None
            if choice in ("h", "help", "?"):
                self.say(HELP)
                continue
            if choice in ("q", "quit"):
                self._quit()
                continue
            if choice in ("s", "stock") and ActionKind.DRAW_STOCK in kinds:
                action = Action.draw_stock(self.human)
            elif choice in ("d", "discard", "take") and ActionKind.TAKE_DISCARD in kinds:
                action = Action.take_discard(self.human)
            elif choice in ("p", "drop", "pack") and ActionKind.DROP in kinds:
                if not self.confirm(f"Drop out of this deal? It costs {obs.drop_cost} points."):
                    self.say("You stay in the deal.")
                    continue
                action = Action.drop(self.human)
            elif choice in ("r", "rummy") and rummy:
                action = Action.declare(self.human, None)
            if action is None:
                self.say(f"'{choice}' is not one of: {', '.join(options)}. Try again.")
                continue
            if self._apply(action):
                return

    def _discard_phase(self) -> None:
        obs = self.match.observation(self.human)
        drawn = obs.drawn
        if drawn is not None and obs.taken is not None and drawn.id == obs.taken.id:
            self.say(
                f"You took {self.card(drawn)} from the discard pile (it cannot go straight back)."
            )
        elif drawn is not None:
            self.say(f"You drew {self.card(drawn)} from the stock.")
        self.say("You now hold:")
        order = show_hand(obs, self.out)
        declares = [a for a in obs.legal_actions if a.kind is ActionKind.DECLARE]
        hint = ""
        ev = evaluate_drawn(list(obs.hand), obs.rules, obs.wild_rank, forbidden=obs.taken)
        if ev.declarable:
            best = ev.winning_discards[0]
            hint = (
                f" You can declare by throwing {self.card(best)}: type 'declare {best.face.code}'."
            )
        while True:
            raw = self.ask(
                f"Throw a card (like 7H, or its number 1-{len(order)}), "
                f"'declare <card>' to show, h=help, q=quit.{hint} > "
            )
            text = raw.strip()
            low = text.lower()
            if low in ("h", "help", "?"):
                self.say(HELP)
                continue
            if low in ("q", "quit"):
                self._quit()
                continue
            declare = False
            for prefix in ("declare ", "! ", "!"):
                if low.startswith(prefix):
                    declare, text = True, text[len(prefix) :].strip()
                    break
            card = self._pick(text, order, obs)
            if card is None:
                continue
            if declare:
                action = self._declaration(card, obs, declares)
                if action is None:
                    self.say(f"Throwing {self.card(card)} does not leave a valid declaration.")
                    continue
            else:
                if obs.taken is not None and card.id == obs.taken.id:
                    twin = next(
                        (c for c in obs.hand if c.face == card.face and c.id != card.id), None
                    )
                    if twin is None:
                        self.say("You may not throw the card you just took from the pile.")
                        continue
                    card = twin
                action = Action.discard(self.human, card.id)
            if self._apply(action):
                return

    def _declaration(self, card: Card, obs: Observation, declares: list[Action]) -> Action | None:
        """The declaration that throws `card`, or a copy of its face: two copies of 3♦ leave
        the same 13 faces whichever is thrown, but the engine lists each winning discard by
        one physical card, so the copy the player named (by its face, or by a number that
        points at the other copy) is matched by face. None when no copy of it wins."""
        exact = Action.declare(self.human, card.id)
        if exact in declares:
            return exact
        by_id = {c.id: c for c in obs.hand}
        for action in declares:
            thrown = by_id.get(action.card) if action.card is not None else None
            if thrown is not None and thrown.face == card.face:
                return action
        return None

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
        copies = [c for c in order if c.face == face]
        if not copies:
            self.say(f"You do not hold {face.pretty}.")
            return None
        # Prefer a copy that may be thrown (not the one just taken from the pile).
        free = [c for c in copies if obs.taken is None or c.id != obs.taken.id]
        return (free or copies)[0]

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
            self.say(f"Deal {result.number} is void ({_END[result.end]}): nobody pays.")
        elif result.winner is not None:
            who = m.players[result.winner].name
            self.say(f"Deal {result.number} won by {who} ({_END[result.end]}).")
        charges = {c.seat: c for c in result.charges}
        finals = deal.final_evaluations() if deal is not None else {}
        self.say(f"  {'player':<14}{'pays':>8}  {'why':<28}{'total':>8}   hand")
        for s, p in enumerate(m.players):
            ch = charges.get(s)
            pays = amount(ch.amount) if ch else "-"
            why = _why(ch) if ch else ("won" if s == result.winner else "")
            hand = ""
            if s in finals:
                hand = self._arrangement(finals[s])
            score = amount(m.scores[s])
            self.say(f"  {p.name:<14}{pays:>8}  {why:<28}{score:>8}   {hand}")

    def _arrangement(self, ev: Evaluation) -> str:
        parts = [
            _KIND.get(g.kind.value, g.kind.value) + " " + " ".join(self.card(c) for c in g.cards)
            for g in ev.groups
        ]
        if ev.leftover:
            parts.append("loose " + " ".join(self.card(c) for c in ev.leftover))
        return " | ".join(parts)

    def _review(self) -> None:
        """What the expert would have played differently in the human's deal (their own information
        only, see `bot.ai.review`), worded like the Discord "Review my play" answer."""
        if self.human_left or not self.review:
            return
        try:
            review = review_seat(self.match, self.human)
        except ReplayError as exc:
            self.say(f"(No review of this deal: {exc}.)")
            return
        self.say("")
        self.say("Review of your play:")
        for line in review_lines(review, None, self.card):
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


def _why(ch: Charge) -> str:
    """Why a seat pays, in words: "deadwood 23", "dropped before drawing", ..."""
    words = _BASIS.get(ch.basis, ch.basis.value.replace("_", " "))
    if ch.basis is Basis.DEADWOOD:
        words = f"deadwood {ch.base}"
    if ch.multiplier != 1:
        words += f", x{ch.multiplier}"
    if ch.rate != 1:
        words += f", at {amount(ch.rate)} rate"
    return words


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
        prog="python -m bot.play", description=__doc__, formatter_class=HelpFormatter
    )
    parser.add_argument("--profile", "--variant", dest="profile", default="points",
                        help=f"rules profile: {', '.join(PROFILES)}")  # fmt: skip
    parser.add_argument("--ai", default="medium",
                        help=f"AI seats, comma separated, from {', '.join(TIERS)}; "
                        "e.g. easy,hard for two opponents")  # fmt: skip
    parser.add_argument("--seed", type=int, default=None,
                        help="reproducible shuffles and AI (default: a fresh shuffle)")  # fmt: skip
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--option", action="append", default=[], metavar="NAME[=VALUE]",
                        help="house rule or match option, e.g. honor, no_reshuffle; may be "
                        "repeated (default: the profile's rules)")  # fmt: skip
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
    output = out or sys.stdout
    game = TerminalGame(match, policies, inp or sys.stdin, output)
    game.human = match.seat_of("human")
    game.review = not args.no_review
    try:
        return game.run()
    except KeyboardInterrupt:  # Ctrl-C: stop at once, no traceback
        output.write("\nStopped (Ctrl-C).\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
