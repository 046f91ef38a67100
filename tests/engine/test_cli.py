"""The `python -m bot.engine check` contract: JSON lines in, JSON lines out, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT_ROOT


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", "check", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=120,
    )


def test_json_lines_thirteen_and_fourteen_cards() -> None:
    lines = [
        {"hand": "4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C", "indicator": "8D", "variant": "paplu"},
        {
            "hand": "4h 5h 6h 9s ts jk 7c 7d 7s ac 2c 3c kd 4c",
            "indicator": "8d",
            "variant": "paplu",
        },
    ]
    proc = run_cli(stdin="".join(json.dumps(x) + "\n" for x in lines))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 2
    first, second = out
    assert first["hand"] == lines[0]["hand"] and first["variant"] == "paplu"
    assert first["valid"] is True and first["deadwood"] == 0 and first["penalty"] == 0
    assert sorted(g["kind"] for g in first["groups"]) == ["impure", "pure", "pure", "set"]
    assert sorted(c for g in first["groups"] for c in g["cards"]) == sorted(
        lines[0]["hand"].split()
    )
    assert first["leftover"] == []
    assert second["declarable"] is True
    assert second["winning_discards"] == ["KD"]
    assert second["best_discard"] == "KD"


def test_bad_lines_get_errors_and_processing_continues() -> None:
    good = {
        "hand": "AS 2S 3S 4H 5H 6H 7D 8D 9D JC QC KC KD",
        "indicator": "2C",
        "variant": "points",
    }
    stdin = "\n".join(
        [
            "this is not json",
            json.dumps({"hand": "1S 2S 3S", "indicator": "AS", "variant": "points"}),
            json.dumps({"hand": "AS 2S", "indicator": "AS", "variant": "points"}),
            json.dumps({"hand": "AS 2S 3S", "indicator": "AS"}),
            json.dumps({**good, "variant": "gin"}),
            json.dumps({**good, "hand": "7H 7H 7H 2C 3C 4C 5C 6C 8C 9C 10C JC QC"}),
            json.dumps(good),
        ]
    )
    proc = run_cli(stdin=stdin)
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 7
    assert all("error" in o for o in out[:6])
    assert "1S" in out[1]["error"]
    assert "13 cards" in out[2]["error"]
    assert "variant" in out[3]["error"]
    assert "gin" in out[4]["error"]
    assert "7H" in out[5]["error"]
    assert out[6]["valid"] is False and out[6]["deadwood"] == 10


def test_all_rule_vectors_through_the_cli(vectors_path: Path) -> None:
    text = vectors_path.read_text()
    proc = run_cli(stdin=text)
    assert proc.returncode == 0, proc.stdout[-500:]
    for line, result in zip(text.splitlines(), proc.stdout.splitlines(), strict=True):
        expected = json.loads(line)
        got = json.loads(result)
        for key in ("valid", "deadwood", "penalty", "declarable"):
            if key in expected:
                assert got[key] == expected[key], line
        if "winning_discards" in expected:
            assert got["winning_discards"] == sorted(expected["winning_discards"]), line


def test_human_mode() -> None:
    proc = run_cli(
        "--variant", "paplu", "--indicator", "8D",
        *["4H", "5H", "6H", "9S", "10S", "JK", "7C", "7D", "7S", "AC", "2C", "3C", "4C"],
    )  # fmt: skip
    assert proc.returncode == 0
    assert "VALID declaration" in proc.stdout
    assert "4♥ 5♥ 6♥" in proc.stdout
    bad = run_cli("--variant", "paplu", "--indicator", "8D", "ZZ")
    assert bad.returncode == 1 and "ZZ" in bad.stdout


# ---- hostile input: one bad line never costs the lines after it ------------------------------

GOOD = {"hand": "AS 2S 3S 4H 5H 6H 7D 8D 9D JC QC KC KD", "indicator": "2C", "variant": "points"}


def test_deep_nesting_and_huge_numbers_get_their_own_error_lines() -> None:
    stdin = "\n".join(
        [
            "[" * 100_000,  # RecursionError inside the JSON decoder
            '{"hand": ' + "[" * 100_000 + "]" * 100_000 + "}",
            '{"hand": ' + "9" * 5000 + "}",  # over Python's int-conversion digit limit
            json.dumps(GOOD),
        ]
    )
    proc = run_cli(stdin=stdin)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 4
    assert all("error" in o for o in out[:3])
    assert "nested" in out[0]["error"] and "nested" in out[1]["error"]
    assert "number" in out[2]["error"]
    assert out[3]["valid"] is False and out[3]["deadwood"] == 10


def test_undecodable_bytes_are_an_error_line_not_a_crash() -> None:
    # A UTF-8 locale other than C.UTF-8 decodes stdin strictly; force that here.
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot.engine", "check"],
        input=b'{"hand": "\xff\xfe"}\n' + json.dumps(GOOD).encode() + b"\n",
        capture_output=True,
        cwd=PROJECT_ROOT,
        env=env,
        timeout=120,
    )
    assert b"Traceback" not in proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 2 and "error" in out[0] and out[1]["deadwood"] == 10


def test_closed_stdout_ends_quietly(tmp_path: Path) -> None:
    """`check < lines | head -1`: the reader goes away; no traceback, no hang."""
    lines = tmp_path / "lines.jsonl"
    lines.write_text((json.dumps(GOOD) + "\n") * 3000)  # far more output than a pipe buffers
    with lines.open("rb") as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot.engine", "check"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=PROJECT_ROOT,
        )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    assert json.loads(first)["deadwood"] == 10
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_more_printed_jokers_than_the_deck_holds_is_refused() -> None:
    """Two decks hold 2 printed jokers: a third is refused, by name, in both modes."""
    three = "JK JK JK 2S 3S 4S 5H 6H 7H 8C 9C 10C KD"
    lines = [
        {"hand": three, "indicator": "8D", "variant": "points"},
        {"hand": three.replace("JK JK JK", "JK KH JK"), "indicator": "8D", "variant": "points"},
    ]
    proc = run_cli(stdin="".join(json.dumps(x) + "\n" for x in lines))
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert "JK" in first["error"] and "2" in first["error"], first
    assert second["valid"] is True
    human = run_cli("--variant", "points", "--indicator", "8D", *three.split())
    assert human.returncode == 1 and "JK" in human.stdout and "VALID" not in human.stdout


# ---- --profile, as in bot.play and bot.simulate (--variant kept) ----------------------------

HAND = ["4H", "5H", "6H", "9S", "10S", "JK", "7C", "7D", "7S", "AC", "2C", "3C", "4C"]


def test_profile_and_its_old_name_variant_rule_alike() -> None:
    new = run_cli("--profile", "paplu", "--indicator", "8D", *HAND)
    old = run_cli("--variant", "paplu", "--indicator", "8D", *HAND)
    assert new.returncode == old.returncode == 0
    assert new.stdout == old.stdout and new.stdout.startswith("paplu,")
    points = run_cli("--profile", "points", "--indicator", "8D", *HAND)
    assert points.stdout.startswith("points,")


def test_json_lines_accept_profile_for_variant() -> None:
    line = {"hand": " ".join(HAND), "indicator": "8D"}
    proc = run_cli(stdin=json.dumps({**line, "profile": "paplu"}) + "\n")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["valid"] is True


def test_help_names_every_option() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.engine", "check", "--help"],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "--profile PROFILE, --variant PROFILE" in proc.stdout
    assert "(default: points)" in proc.stdout and "--indicator" in proc.stdout
