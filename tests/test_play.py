"""The terminal game, driven through stdin: a whole match, bad input, leaving, hand rummy."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from bot.play import main

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], text: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, io.StringIO(text), out)
    return code, out.getvalue()


def test_full_points_match_through_stdin() -> None:
    """Draw from the stock and throw card 1 every turn until the match ends."""
    code, out = run(["--profile", "points", "--ai", "easy", "--seed", "4"], "s\n1\n" * 200)
    assert code == 0
    assert "Match over" in out
    assert "Input ended" not in out
    assert "Deal 1" in out


def test_bad_input_reprompts_with_a_clear_message() -> None:
    text = "x\nstock\n99\nZZ\nQX\n" + "s\n1\n" * 200
    code, out = run(["--profile", "points", "--ai", "medium", "--seed", "2"], text)
    assert code == 0
    assert "'x' is not one of" in out
    assert "There is no card number 99" in out
    assert "'ZZ' is not a card" in out
    assert "Match over" in out


def test_input_ending_leaves_the_table() -> None:
    code, out = run(["--profile", "points", "--ai", "hard", "--seed", "1"], "s\n")
    assert code == 0
    assert "Input ended: you leave the table" in out
    assert "Match over" in out


def test_multi_seat_pool_match_to_the_end() -> None:
    """Pool 101 with two AI seats: several deals until one player is left."""
    code, out = run(
        ["--profile", "pool101", "--ai", "easy,medium", "--seed", "3"], "p\n" + "s\n1\n" * 2000
    )
    assert code == 0
    assert "Match over" in out
    assert "Deal 2" in out


def test_paplu_seating_and_declare_command() -> None:
    code, out = run(
        ["--profile", "paplu", "--ai", "easy", "--seed", "8"], "declare 2S\n" * 3 + "s\n1\n" * 600
    )
    assert code == 0
    assert "Match over" in out


def test_unknown_tier_is_refused() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.play", "--ai", "grandmaster"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "--ai takes tiers" in proc.stderr


def test_module_runs_from_a_pipe() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.play", "--ai", "easy", "--seed", "5"],
        cwd=ROOT,
        input="s\n1\n" * 200,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Match over" in proc.stdout
