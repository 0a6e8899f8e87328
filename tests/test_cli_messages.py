"""Messages a student meets in the command line: plain words, one line, no traceback
(issue 17's list: odd digits, long names, a silent ``solve``, ``connectx`` overwriting)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest

from game.cli import matches, options, solving
from tests.test_cli import ROOT, assert_clean_error, run


def run_on_a_terminal(command: str, *, typed: bytes) -> tuple[str, str]:
    """Run ``main.py command`` with a terminal for its input, type ``typed`` (end with
    Ctrl+D, b"\\x04"), and return its (stdout, stderr) once it exits with 0."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "main.py", command],
        cwd=ROOT,
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(follower)
    os.write(leader, typed)
    out, err = proc.communicate(timeout=120)
    os.close(leader)
    assert proc.returncode == 0, err
    return out, err


@pytest.mark.parametrize("text", ["²", "③", "4²", "٣"])
def test_digits_that_are_not_ascii_are_refused_in_words(text):
    ran = run("solve", stdin=text + "\n")
    assert_clean_error(ran, "is not a column")


def test_a_column_past_the_board_says_it_does_not_exist():
    ran = run("solve", stdin="9\n")
    assert_clean_error(ran, "character 1 '9': column 9 does not exist on a 7-column board (columns are 1..7)")


def test_an_output_name_over_255_bytes_is_refused_in_one_line(tmp_path):
    board = ROOT / "tests" / "data" / "maxconnect4" / "empty_lf.txt"
    ran = run("one-move", str(board), str(tmp_path / ("a" * 300 + ".txt")), "2")
    assert_clean_error(ran, "is 304 bytes long; a file name can be at most 255 bytes")
    ran = run("connectx", "--out", str(tmp_path / ("é" * 200)))
    assert_clean_error(ran, "is 400 bytes long")


def test_one_move_help_says_what_each_argument_is():
    ran = run("one-move", "--help")
    assert "the board file to read" in ran.stdout
    assert "the file to write the position after the move to" in ran.stdout
    assert "how many plies (discs) the computer looks ahead" in ran.stdout


def test_counts_of_one_are_singular():
    assert options.plural(1, "node") == "1 node"
    assert options.plural(2_000, "node") == "2,000 nodes"
    assert options.plural(1, "leaf", "leaves") == "1 leaf"
    ran = run("analyze", "4", "--depth", "1", "--rows", "4", "--cols", "4", "--connect", "3")
    assert ran.returncode == 0
    assert re.search(r"\b1 nodes\b|\b1 leaves\b|\b1 cutoffs\b", ran.stdout) is None


@pytest.mark.slow
def test_solve_on_a_terminal_says_what_it_waits_for():
    out, err = run_on_a_terminal("solve", typed=b"44\n\x04")
    assert err.splitlines()[0] == solving.SOLVE_PROMPT
    assert out.split()[0] == "44"


def test_solve_reports_progress_on_a_long_line_without_a_time_limit(monkeypatch):
    monkeypatch.setattr(solving, "PROGRESS_SECONDS", 0.0)  # every poll reports: the line need not be slow
    ran = run("solve", "--rows", "5", "--cols", "6", stdin="3\n")
    assert ran.returncode == 0, ran.stderr
    progress = [line for line in ran.stderr.splitlines() if line.startswith("solve: line 1 (3):")]
    assert progress and "positions searched" in progress[-1]
    assert ran.stdout.split()[0] == "3"


def test_connectx_does_not_overwrite_an_existing_main_py_unless_forced(tmp_path):
    target = tmp_path / "main.py"
    target.write_text("my own agent\n")
    ran = run("connectx", "--out", str(tmp_path))
    assert_clean_error(ran, "already exists: give --force to overwrite it")
    assert target.read_text() == "my own agent\n"
    ran = run("connectx", "--out", str(tmp_path), "--force")
    assert ran.returncode == 0 and "def agent(" in target.read_text()


def test_a_digit_on_a_board_of_letter_columns_says_the_columns_are_letters():
    ran = run("analyze", "4453", "--cols", "12")
    assert_clean_error(ran, "'4' is not a column (columns are the letters a..l)")


def test_solve_progress_counts_one_line_in_the_singular(monkeypatch):
    monkeypatch.setattr(solving, "PROGRESS_SECONDS", 0.0)  # a progress line after every line
    ran = run("solve", stdin="4453\n")
    assert ran.returncode == 0, ran.stderr
    assert "solve: 1 line in" in ran.stderr, ran.stderr


def test_an_argument_holding_a_newline_still_gets_a_one_line_error():
    ran = run("solve", "1234567", "4453\n2")
    assert ran.returncode == 2
    assert ran.stderr.count("\n") == 1 and "unrecognized arguments: 4453 2" in ran.stderr, ran.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "4", "--level", "depth:" + "1" * 4301],
        ["analyze", "4", "--level", "x" * 4301],
        ["review", "x" * 4301],
        ["match", "x" * 4301, "beginner"],
    ],
)
def test_an_error_never_echoes_thousands_of_characters(args):
    """A 4,301-character level name or game came back in an error line of 4,400."""
    ran = run(*args)
    assert ran.returncode == 2
    assert ran.stderr.count("\n") == 1 and len(ran.stderr) <= 400, len(ran.stderr)


@pytest.mark.slow
def test_the_engine_on_a_terminal_says_what_it_waits_for():
    """'main.py engine' typed at a terminal waited in silence, as if hung."""
    out, err = run_on_a_terminal("engine", typed=b"isready\n\x04")
    assert err.splitlines()[0] == matches.ENGINE_PROMPT
    assert out.split() == ["readyok"]
