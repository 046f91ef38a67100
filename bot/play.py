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
differently and why (`--no-review` skips it). `--lang hi` plays in Hindi: every word comes from
the bot's catalogue (`terminal.ftl`, and the table's own action lines and review), so the
terminal reads as the Discord table does; the typed commands and card codes stay the same.
`--history DIR` saves each finished deal's hand history there (docs/hand-history.md), the file
the Discord table's **Hand history** button gives: watch the deal again with
`python -m bot.replay FILE.json`, or check its shuffle with `python -m bot.engine verify`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bot.table.vocabulary import ENGLISH, Locale

from .ai import TIERS, AiTier, make_policy
from .ai.review import ReplayError, review_seat
from .clihelp import HelpFormatter
from .engine.actions import Action, ActionKind
from .engine.arrange import arrangement
from .engine.cards import Card, CardParseError, Face, rank_name
from .engine.describe import amount
from .engine.errors import RuleOptionError, RummyError
from .engine.evaluate import Evaluation, evaluate_drawn
from .engine.match import Match, MatchPhase, Player, ScoreKind
from .engine.observation import Observation
from .engine.policy import Policy
from .engine.rules import PROFILES, Rules, get_profile, parse_options
from .engine.settlement import Basis, Charge
from .engine.states import EndReason, SeatState
from .table.advice import advise
from .words import catalogue, text
from .words.log import log_lines
from .words.refusals import card_error_text, engine_error_text, rule_option_text
from .words.review import review_lines

_KIND = {"pure": "term-kind-pure", "impure": "term-kind-impure", "set": "term-kind-set"}
_PART = {
    "wild": "term-part-wild",
    "pairs": "term-part-pairs",
    "near_runs": "term-part-near-runs",
    "nothing": "term-part-loose",
    "unmatched": "term-part-loose",
}
_END = {
    EndReason.DECLARED: "term-end-declared",
    EndReason.HAND_RUMMY: "term-end-hand-rummy",
    EndReason.LAST_STANDING: "term-end-last-standing",
    EndReason.VOID: "term-end-void",
}
_BASIS = {
    Basis.DEADWOOD: "term-basis-deadwood",
    Basis.FIRST_DROP: "term-basis-first-drop",
    Basis.MIDDLE_DROP: "term-basis-middle-drop",
    Basis.WRONG_SHOW: "term-basis-wrong-show",
    Basis.WRONG_SHOW_DROP: "term-basis-wrong-show-drop",
    Basis.HAND_RUMMY_DROPPED: "term-basis-hand-rummy-dropped",
}


def card_text(c: Card, rules: Rules, wild_rank: int | None) -> str:
    """The one card notation of the terminal game: suit symbols, `*` on a wild card."""
    mark = "*" if rules.is_wild(c.face, wild_rank) and not c.face.is_joker else ""
    return c.face.pretty + mark


class InputEnded(Exception):
    """The input stream ran out: the human leaves the table."""


def arranged(
    obs: Observation, locale: Locale | None = None
) -> tuple[list[tuple[str, list[Card]]], str]:
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
        (text(locale, _KIND.get(p.kind) or _PART[p.kind]), list(p.cards))
        for p in arrangement(drawn if drawn is not None else ev, obs.wild_rank)
    ]
    if drawn is not None:
        best = card_text(drawn.best_discard, obs.rules, obs.wild_rank)
        msg_id = "term-note-declarable" if drawn.declarable else "term-note-drawn"
        note = text(locale, msg_id, card=best, deadwood=ev.deadwood)
    else:
        note = text(locale, "term-note", deadwood=ev.deadwood, penalty=ev.penalty)
    return sections, note


def show_hand(obs: Observation, out: TextIO, locale: Locale | None = None) -> list[Card]:
    """Print the grouped hand with numbers and its deadwood; returns the cards in numbered
    order (the order a number typed at the prompt refers to)."""
    sections, note = arranged(obs, locale)
    order: list[Card] = []
    for label, cards in sections:
        shown = " ".join(_numbered(c, order, obs, locale) for c in cards)
        # A label wider than the column (a longer word in another language) keeps a space.
        out.write(f"  {label:<10}" + ("" if len(label) < 10 else " ") + shown + "\n")
    if note:
        out.write(f"  {note}\n")
    return order


def _numbered(c: Card, order: list[Card], obs: Observation, locale: Locale | None = None) -> str:
    order.append(c)
    shown = card_text(c, obs.rules, obs.wild_rank)
    if obs.taken is not None and c.id == obs.taken.id:
        shown += text(locale, "term-mark-taken")
    elif obs.drawn is not None and c.id == obs.drawn.id:
        shown += text(locale, "term-mark-new")
    return f"{len(order)}:{shown}"


class LeaveTable(Exception):
    """The human chose to leave (`q`, confirmed) or the input ran out."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TerminalGame:
    """One match with a human at seat 0 and AI policies at the other seats."""

    def __init__(
        self,
        match: Match,
        ais: dict[int, Policy],
        inp: TextIO,
        out: TextIO,
        locale: Locale = ENGLISH,
    ) -> None:
        self.match = match
        self.locale = locale  # the catalogue language every line is worded in
        self.ais = ais
        self.inp = inp
        self.out = out
        self.human = 0
        self.printed_events = 0  # the match's event_count when the log was last printed
        self.human_left = False
        self.review = True  # print a review of the human's play after each deal
        self.history_dir: Path | None = None  # where each finished deal's history is saved
        self.started = time.strftime("%Y%m%d-%H%M%S")  # names this game's history files

    # -- io -----------------------------------------------------------------------------

    def t(self, msg_id: str, **args: object) -> str:
        """Message `msg_id` of the catalogue in this game's language."""
        return text(self.locale, msg_id, **args)

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")

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
                self._save_history()
                self._review()
        self._final()
        return 0

    def _deal_banner(self) -> None:
        m = self.match
        deal = m.deal
        assert deal is not None
        ind = (
            self.t("term-indicator-none")
            if deal.indicator is None
            else deal.indicator.face.pretty  # not in play
        )
        wr = deal.wild_rank
        if m.rules.nothing_wild:
            wild = self.t("term-wild-nothing")
        elif wr is None:
            wild = self.t("term-wild-jokers")
        else:
            wild = self.t("term-wild-rank", rank=rank_name(wr))
        self.say("")
        dealer = m.players[deal.dealer].name
        self.say(
            self.t("term-deal-banner", number=m.deal_number, profile=m.rules.name, dealer=dealer)
        )
        self.say(self.t("term-indicator", indicator=ind, wild=wild))
        self._print_events()

    def _print_events(self) -> None:
        """The public lines since the last call: the same facts and words the Discord table
        shows (`public_log` records, worded by `render/log.py`)."""
        m = self.match
        for line in log_lines(m.entries_since(self.printed_events), self.locale):
            self.say(f"  > {line}")
        self.printed_events = m.event_count

    def _status(self, obs: Observation) -> None:
        top = obs.top_discard
        others = ", ".join(
            self.t("term-seat", name=s.name, cards=s.cards)
            if s.status is SeatState.ACTIVE
            else self.t("term-seat-state", name=s.name, cards=s.cards, state=s.status.value)
            for s in obs.seats
            if s.seat != obs.seat
        )
        self.say("")
        shown = self.card(top) if top else "-"
        self.say(self.t("term-status", stock=obs.stock_size, top=shown, others=others))

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
            self._leave(self.t("term-input-ended"))
        except LeaveTable as left:
            self._leave(left.reason)

    def _leave(self, why: str) -> None:
        self.say(why)
        self.human_left = True
        if self.match.phase is MatchPhase.PLAYING:
            self.match.apply(Action.leave(self.human))

    def _quit(self) -> None:
        """`q`: leave the table, after a confirmation (raises LeaveTable when confirmed)."""
        if self.confirm(self.t("term-leave-ask")):
            raise LeaveTable(self.t("term-left"))
        self.say(self.t("term-stay"))

    def _draw_phase(self, obs: Observation) -> None:
        kinds = {a.kind for a in obs.legal_actions}
        rummy = any(a.kind is ActionKind.DECLARE and a.card is None for a in obs.legal_actions)
        options = []
        if ActionKind.DRAW_STOCK in kinds:
            options.append(self.t("term-opt-stock"))
        if ActionKind.TAKE_DISCARD in kinds:
            top = obs.top_discard
            options.append(self.t("term-opt-take", card=self.card(top) if top else "-"))
        if ActionKind.DROP in kinds:
            options.append(self.t("term-opt-drop", cost=obs.drop_cost))
        if rummy:
            options.append(self.t("term-opt-rummy"))
        options += [self.t("term-opt-help"), self.t("term-opt-quit")]
        self.say(self.t("term-your-hand"))
        show_hand(obs, self.out, self.locale)
        while True:
            choice = self.ask(self.t("term-your-turn", options=", ".join(options)) + " > ").lower()
            action: Action | None = None
            if choice in ("h", "help", "?"):
                self.say(self.t("term-help"))
                continue
            if choice in ("q", "quit"):
                self._quit()
                continue
            if choice in ("s", "stock") and ActionKind.DRAW_STOCK in kinds:
                action = Action.draw_stock(self.human)
            elif choice in ("d", "discard", "take") and ActionKind.TAKE_DISCARD in kinds:
                action = Action.take_discard(self.human)
            elif choice in ("p", "drop", "pack") and ActionKind.DROP in kinds:
                if not self.confirm(self.t("term-drop-ask", cost=obs.drop_cost)):
                    self.say(self.t("term-stay-in-deal"))
                    continue
                action = Action.drop(self.human)
            elif choice in ("r", "rummy") and rummy:
                action = Action.declare(self.human, None)
            if action is None:
                self.say(self.t("term-not-an-option", choice=choice, options=", ".join(options)))
                continue
            if self._apply(action):
                return

    def _discard_phase(self) -> None:
        obs = self.match.observation(self.human)
        drawn = obs.drawn
        if drawn is not None and obs.taken is not None and drawn.id == obs.taken.id:
            self.say(self.t("term-took", card=self.card(drawn)))
        elif drawn is not None:
            self.say(self.t("term-drew", card=self.card(drawn)))
        self.say(self.t("term-now-hold"))
        order = show_hand(obs, self.out, self.locale)
        declares = [a for a in obs.legal_actions if a.kind is ActionKind.DECLARE]
        hint = ""
        ev = evaluate_drawn(list(obs.hand), obs.rules, obs.wild_rank, forbidden=obs.taken)
        if ev.declarable:
            best = ev.winning_discards[0]
            hint = " " + self.t("term-hint-declare", card=self.card(best), code=best.face.code)
        while True:
            raw = self.ask(self.t("term-throw-prompt", count=len(order)) + f"{hint} > ")
            typed = raw.strip()
            low = typed.lower()
            if low in ("h", "help", "?"):
                self.say(self.t("term-help"))
                continue
            if low in ("q", "quit"):
                self._quit()
                continue
            declare = False
            for prefix in ("declare ", "! ", "!"):
                if low.startswith(prefix):
                    declare, typed = True, typed[len(prefix) :].strip()
                    break
            card = self._pick(typed, order, obs)
            if card is None:
                continue
            if declare:
                action = self._declaration(card, obs, declares)
                if action is None:
                    self.say(self.t("term-not-valid-declaration", card=self.card(card)))
                    continue
            else:
                if obs.taken is not None and card.id == obs.taken.id:
                    twin = next(
                        (c for c in obs.hand if c.face == card.face and c.id != card.id), None
                    )
                    if twin is None:
                        self.say(self.t("term-cannot-throw-taken"))
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

    def _pick(self, typed: str, order: list[Card], obs: Observation) -> Card | None:
        if not typed:
            self.say(self.t("term-type-card"))
            return None
        if typed.isdigit():
            i = int(typed)
            if 1 <= i <= len(order):
                return order[i - 1]
            # A number as typed (no digit grouping): the player reads back what they wrote.
            self.say(self.t("term-no-card-number", number=str(i), count=len(order)))
            return None
        try:
            face = Face.parse(typed)
        except CardParseError as exc:
            self.say(self.t("error-bad-card", detail=card_error_text(exc, self.locale)))
            return None
        copies = [c for c in order if c.face == face]
        if not copies:
            self.say(self.t("term-not-holding", card=face.pretty))
            return None
        # Prefer a copy that may be thrown (not the one just taken from the pile).
        free = [c for c in copies if obs.taken is None or c.id != obs.taken.id]
        return (free or copies)[0]

    def _apply(self, action: Action) -> bool:
        try:
            self.match.apply(action)
        except RummyError as exc:
            # Worded from the refusal's type and code, as on Discord.
            self.say(self.t("term-not-allowed", reason=engine_error_text(exc, self.locale)))
            return False
        return True

    # -- results ------------------------------------------------------------------------

    def _results(self) -> None:
        m = self.match
        result = m.results[-1]
        deal = m.deal
        self.say("")
        end = self.t(_END[result.end])
        if result.void:
            self.say(self.t("term-void", number=result.number, end=end))
        elif result.winner is not None:
            who = m.players[result.winner].name
            self.say(self.t("term-won", number=result.number, winner=who, end=end))
        charges = {c.seat: c for c in result.charges}
        finals = deal.final_evaluations() if deal is not None else {}
        player, pays_, why_, total, hand_ = (
            self.t(c)
            for c in ("term-col-player", "term-col-pays", "term-col-why", "term-col-total",
                      "term-col-hand")
        )  # fmt: skip
        self.say(f"  {player:<14}{pays_:>8}  {why_:<28}{total:>8}   {hand_}")
        for s, p in enumerate(m.players):
            ch = charges.get(s)
            pays = amount(ch.amount) if ch else "-"
            why = _why(ch, self.locale) if ch else ""
            if not ch and s == result.winner:
                why = self.t("term-why-won")
            hand = ""
            if s in finals:
                hand = self._arrangement(finals[s])
            score = amount(m.scores[s])
            self.say(f"  {p.name:<14}{pays:>8}  {why:<28}{score:>8}   {hand}")

    def _save_history(self) -> None:
        """Write the deal that just ended as a hand-history file (`--history DIR`)."""
        if self.history_dir is None:
            return
        number = len(self.match.results)
        path = self.history_dir / f"hand-history-terminal-{self.started}-deal{number}.json"
        history = self.match.hand_history(number)
        path.write_text(json.dumps(history, ensure_ascii=False, indent=1), encoding="utf-8")
        self.say(self.t("term-history-saved", path=str(path)))

    def _arrangement(self, ev: Evaluation) -> str:
        parts = [
            self.t(_KIND[g.kind.value]) + " " + " ".join(self.card(c) for c in g.cards)
            for g in ev.groups
        ]
        if ev.leftover:
            loose = self.t("term-part-loose")
            parts.append(loose + " " + " ".join(self.card(c) for c in ev.leftover))
        return " | ".join(parts)

    def _review(self) -> None:
        """What the expert would have played differently in the human's deal (their own information
        only, see `bot.ai.review`), worded like the Discord "Review my play" answer."""
        if self.human_left or not self.review:
            return
        try:
            review = review_seat(self.match, self.human)
        except ReplayError as exc:
            self.say(self.t("term-no-review", reason=str(exc)))
            return
        self.say("")
        self.say(self.t("term-review-head"))
        for line in review_lines(review, self.locale, self.card):
            self.say(f"  {line}")

    def _final(self) -> None:
        m = self.match
        self.say("")
        net = m.score_kind is ScoreKind.NET
        self.say(self.t("term-match-over-net" if net else "term-match-over-points"))
        for s, p in enumerate(m.players):
            self.say(f"  {p.name:<14}{amount(m.scores[s]):>10}")
        if m.winners:
            self.say(self.t("term-winner", names=", ".join(m.players[s].name for s in m.winners)))
        else:
            self.say(self.t("term-no-winner"))


def _why(ch: Charge, locale: Locale | None = None) -> str:
    """Why a seat pays, in words: "deadwood 23", "dropped before drawing", ..."""
    msg_id = _BASIS.get(ch.basis)
    words = (
        ch.basis.value.replace("_", " ") if msg_id is None else text(locale, msg_id, base=ch.base)
    )
    if ch.multiplier != 1:
        words = text(locale, "term-why-times", why=words, times=ch.multiplier)
    if ch.rate != 1:
        words = text(locale, "term-why-rate", why=words, rate=amount(ch.rate))
    return words


def build(profile: str, ais: Sequence[AiTier], seed: int | None, name: str,
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
    parser.add_argument("--name", default=None,
                        help="your name (default: You, in the game's language)")  # fmt: skip
    parser.add_argument("--option", action="append", default=[], metavar="NAME[=VALUE]",
                        help="house rule or match option, e.g. honor, no_reshuffle; may be "
                        "repeated (default: the profile's rules)")  # fmt: skip
    parser.add_argument("--no-review", action="store_true",
                        help="skip the review of your play after each deal")  # fmt: skip
    parser.add_argument("--history", type=Path, default=None, metavar="DIR",
                        help="save each finished deal's hand history in DIR, to watch again "
                        "with python -m bot.replay (default: not saved)")  # fmt: skip
    parser.add_argument("--lang", default="en", metavar="TAG",
                        help="the language of the game: "
                        f"{', '.join(catalogue().locales)} (default: en)")  # fmt: skip
    args = parser.parse_args(argv)
    locale = catalogue().resolve(args.lang)
    asked = [t.strip().lower() for t in args.ai.split(",") if t.strip()]
    if not asked or any(t not in TIERS for t in asked):
        parser.error(f"--ai takes tiers from {', '.join(TIERS)} (got {args.ai!r})")
    tiers = [AiTier(t) for t in asked]
    try:
        name = args.name or text(locale, "term-you")
        match, policies = build(args.profile, tiers, args.seed, name, args.option)
    except RuleOptionError as exc:  # worded from its code, in the game's language
        parser.error(rule_option_text(exc.problem, exc.params, locale))
    except ValueError as exc:
        parser.error(str(exc))
    # The human is whichever seat holds the "human" player (seating may move it).
    output = out or sys.stdout
    game = TerminalGame(match, policies, inp or sys.stdin, output, locale)
    game.human = match.seat_of("human")
    game.review = not args.no_review
    if args.history is not None:
        args.history.mkdir(parents=True, exist_ok=True)
        game.history_dir = args.history
    try:
        return game.run()
    except KeyboardInterrupt:  # Ctrl-C: stop at once, no traceback
        output.write("\n" + text(locale, "term-stopped") + "\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
