"""`python -m bot.engine check` and `verify`: the engine's rulings from the command line.

`check` has two modes. With cards on the command line it prints one hand's ruling for a person
(`--profile`, `--variant` being its old name). Without, it reads JSON lines on stdin
(`{"hand", "indicator", "variant"}`, `profile` accepted for `variant`) and writes one JSON line
per input line, in order, so rule vectors and bug reports can be checked in bulk.

`verify HISTORY.json ...` rechecks downloaded hand histories against the shuffle commitment the
table showed (`fairness.verify`): it prints OK or what does not match, and exits 0 only when
every history checks out.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .cards import Card, CardParseError, Face, format_cards
from .evaluate import Evaluation, evaluate_drawn, evaluate_hand
from .fairness import SHOWN_CHARS, shown, verify
from .rules import PROFILES, Rules, get_profile


class LineError(ValueError):
    """A JSON line that cannot be ruled on; the message is shown to the user as is."""


def _ruling_fields(cards: list[Card], rules: Rules, indicator: Face) -> dict[str, Any]:
    wild_rank = rules.wild_rank(indicator)
    if len(cards) == 13:
        ev = evaluate_hand(cards, rules, wild_rank)
        return {
            "valid": ev.valid,
            "deadwood": ev.deadwood,
            "penalty": ev.penalty,
            "groups": [{"kind": g.kind.value, "cards": g.codes()} for g in ev.groups],
            "leftover": [c.code for c in ev.leftover],
        }
    if len(cards) == 14:
        drawn = evaluate_drawn(cards, rules, wild_rank)
        return {
            "declarable": drawn.declarable,
            "winning_discards": sorted({c.code for c in drawn.winning_discards}),
            "best_discard": drawn.best_discard.code,
        }
    raise LineError(f"a hand has 13 cards (or 14 after drawing), got {len(cards)}")


def rule_line(line: str) -> dict[str, Any]:
    """One input line to one output object (raises LineError with a clear message)."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LineError(f"not JSON: {exc.msg}") from None
    except RecursionError:
        # The C decoder recurses once per bracket; a line of 100k "[" exhausts the stack.
        raise LineError("not JSON we can read: nested too deeply") from None
    except ValueError as exc:
        # Python refuses to convert integers of more than 4,300 digits (CVE-2020-10735).
        raise LineError(f"not JSON we can read: a number too long ({exc})") from None
    if not isinstance(data, dict):
        raise LineError("each line must be a JSON object")
    if "variant" not in data and "profile" in data:  # the profile's newer name
        data = {**data, "variant": data["profile"]}
    missing = [k for k in ("hand", "indicator", "variant") if k not in data]
    if missing:
        raise LineError(f"missing field(s): {', '.join(missing)}")
    if not all(isinstance(data[k], str) for k in ("hand", "indicator", "variant")):
        raise LineError("hand, indicator and variant must be strings")
    try:
        rules = get_profile(data["variant"])
    except ValueError as exc:
        raise LineError(str(exc)) from None
    try:
        cards = rules.parse_hand(data["hand"])
        indicator = Face.parse(data["indicator"])
    except CardParseError as exc:
        raise LineError(str(exc)) from None
    out = {"hand": data["hand"], "indicator": data["indicator"], "variant": data["variant"]}
    out.update(_ruling_fields(cards, rules, indicator))
    return out


def run_lines(inp: TextIO, out: TextIO) -> int:
    """Rule on every line; returns the exit code (1 if any line failed).

    The contract is one output line per input line, so nothing a line holds may end the run:
    an unexpected exception becomes that line's error too (named by type, so a bug in the engine
    still shows), and the lines after it are ruled on as usual.
    """
    failed = False
    for raw in inp:
        if not raw.strip():
            continue
        try:
            result = rule_line(raw)
        except LineError as exc:
            failed = True
            result = {"error": str(exc)}
        except Exception as exc:  # see the docstring: one line, one answer
            failed = True
            result = {"error": f"internal error ({type(exc).__name__}): {exc}"}
        out.write(json.dumps(result) + "\n")
        out.flush()
    return 1 if failed else 0


def describe(ev: Evaluation, rules: Rules) -> str:
    """A readable ruling, for people."""
    lines = []
    for g in ev.groups:
        lines.append(f"  {g.kind.value:<7} {format_cards(g.cards, pretty=True)}")
    if ev.leftover:
        lines.append(f"  leftover {format_cards(ev.leftover, pretty=True)}")
    verdict = "VALID declaration" if ev.valid else "not a valid declaration"
    cap = "" if ev.penalty == ev.deadwood else f" (capped at {rules.deal_cap})"
    lines.append(f"{verdict}; deadwood {ev.deadwood}, penalty {ev.penalty}{cap}")
    return "\n".join(lines)


def run_human(cards_text: Sequence[str], variant: str, indicator_text: str, out: TextIO) -> int:
    try:
        rules = get_profile(variant)
        cards = rules.parse_hand(cards_text)
        indicator = Face.parse(indicator_text)
    except (CardParseError, ValueError) as exc:
        out.write(f"error: {exc}\n")
        return 1
    wild_rank = rules.wild_rank(indicator)
    wild = "nothing" if wild_rank is None else f"rank {Face(wild_rank, 0).code[:-1]}"
    out.write(f"{rules.name}, indicator {indicator.pretty}: printed jokers and {wild} wild\n")
    if len(cards) == 13:
        out.write(describe(evaluate_hand(cards, rules, wild_rank), rules) + "\n")
        return 0
    if len(cards) == 14:
        drawn = evaluate_drawn(cards, rules, wild_rank)
        if drawn.declarable:
            faces = ", ".join(sorted({c.face.pretty for c in drawn.winning_discards}))
            out.write(f"declarable: discard one of {faces}\n")
        else:
            out.write("not declarable with any discard\n")
        out.write(f"best discard: {drawn.best_discard.face.pretty}\n")
        out.write(describe(drawn.best, rules) + "\n")
        return 0
    out.write(f"error: a hand has 13 cards (or 14 after drawing), got {len(cards)}\n")
    return 1


def run_verify(paths: Sequence[Path], out: TextIO) -> int:
    """Verify each hand history; 0 when all match their commitments, else 1. A file that cannot
    be read counts as not verified: a player must never mistake it for a pass."""
    failed = False
    for path in paths:
        try:
            history = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            out.write(f"{path}: error: cannot read a hand history ({exc})\n")
            failed = True
            continue
        if not isinstance(history, dict):
            out.write(f"{path}: error: not a hand history (expected a JSON object)\n")
            failed = True
            continue
        result = verify(history)
        deal = f"deal {result.deal_number}"
        if result.ok and result.commitment is not None:
            out.write(f"{path}: OK: {deal}'s shuffle matches its commitment\n")
            out.write(
                f"  commitment {result.commitment}\n"
                f"  (the table showed its first {SHOWN_CHARS} characters: "
                f"{shown(result.commitment)}…)\n"
                f"  the dealt hands, indicator, opening discard and all {result.draws_checked} "
                "stock draws are the committed order's\n"
            )
            continue
        failed = True
        out.write(f"{path}: MISMATCH: {deal} does not match its shuffle commitment\n")
        for problem in result.problems:
            out.write(f"  - {problem}\n")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="rule on hands (JSON lines on stdin, or cards as args)")
    check.add_argument("cards", nargs="*",
                       help="13 or 14 cards, e.g. 4H 5H 6H 9S ... (default: read JSON lines "
                       "from stdin)")  # fmt: skip
    check.add_argument("--profile", "--variant", dest="profile", default="points",
                       choices=sorted(PROFILES), metavar="PROFILE",
                       help=f"rules profile: {', '.join(PROFILES)} "
                       "(default: %(default)s)")  # fmt: skip
    check.add_argument("--indicator", default=None,
                       help="the indicator (cut joker), e.g. 8D; required with cards "
                       "(default: none)")  # fmt: skip
    check_history = sub.add_parser(
        "verify", help="recheck hand histories against the shuffle commitment shown at the table"
    )
    check_history.add_argument("histories", nargs="+", type=Path, metavar="HISTORY.json")
    args = parser.parse_args(argv)
    if args.command == "verify":
        return run_verify(args.histories, sys.stdout)
    if args.cards and args.indicator is None:
        parser.error("--indicator is required with cards on the command line")
    try:
        if args.cards:
            return run_human(args.cards, args.profile, args.indicator, sys.stdout)
        return run_lines(_lenient(sys.stdin), sys.stdout)
    except BrokenPipeError:
        # The reader went away (`check < lines | head -1`): stop quietly. Point stdout at
        # devnull so the interpreter's final flush does not raise a second BrokenPipeError.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _lenient(stream: TextIO) -> TextIO:
    """Stdin that turns undecodable bytes into U+FFFD instead of raising mid-run.

    Under most UTF-8 locales Python decodes stdin strictly, and one bad byte would end the
    whole run; with replacement the line merely fails to parse as a card and gets its error.
    """
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")
    return stream
