"""Hostile input through every CLI command, in-process: malformed board files, move
strings, options and stdin bytes.  Every case ends with a clean one-line error (exit
code 2) or an answer (exit code 0), never a traceback, and the input file unchanged.

Seeded and derandomized (the same cases every run), a few hundred cases in all; depths
stay small so each case is quick (huge depths have their own test in test_cli.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.board import Board
from game.board_file import format_board_text
from game.rules import Rules
from tests.test_cli import Ran, run

FUZZ = settings(
    max_examples=50,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

GOOD_BOARD = b"0000000\n0000000\n0000000\n0000000\n0002000\n0011200\n1\n"

# Board files: a good one with bytes replaced, cut, repeated; random lines; junk.
board_lines = st.lists(st.text(alphabet="0123 \t", max_size=14), min_size=0, max_size=14).map(
    lambda lines: "\n".join(lines).encode()
)


@st.composite
def mutated_board(draw) -> bytes:
    data = bytearray(draw(st.sampled_from([GOOD_BOARD, GOOD_BOARD.replace(b"\n", b"\r\n"), GOOD_BOARD * 3])))
    for _ in range(draw(st.integers(0, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["replace", "delete", "insert"]))
        byte = draw(st.sampled_from(list(b"0123\n\r \x00\xff9a")))
        if action == "replace":
            data[at] = byte
        elif action == "delete":
            del data[at]
        else:
            data.insert(at, byte)
    return bytes(data)


@st.composite
def legal_board(draw) -> bytes:
    """A position reached by legal moves, written as a board file (LF or CRLF)."""
    board = Board(Rules())
    for move in draw(st.lists(st.integers(0, 6), max_size=41)):
        if board.is_legal(move) and not board.is_game_over():
            board.push(move)
            if board.is_game_over():
                board.pop()
    text = format_board_text(board.grid, board.to_move)
    return (text.replace("\n", "\r\n") if draw(st.booleans()) else text).encode()


board_bytes = st.one_of(legal_board(), legal_board(), mutated_board(), board_lines, st.binary(max_size=300))

# Small depths as text, and text that is not a depth at all (argparse's int() takes "٣").
# Mostly sound values, so most cases reach the board and the search; some are not.
depths = st.sampled_from(["1", "2"] * 6 + ["0", "-1", "-99", "abc", "", "1.5", "0x2", "٣", "0_1", " 2"])
sizes = st.sampled_from([None] * 12 + ["0", "-1", "4", "5", "6", "7", "8", "12", "99", "x"])
connects = st.sampled_from([None] * 8 + ["2", "3", "4", "7"])
rule_options = st.tuples(sizes, sizes, connects, st.booleans(), st.booleans())


def options(rows: str | None, cols: str | None, connect: str | None, no_gravity: bool, full_board: bool) -> list[str]:
    chosen = []
    for name, value in (("--rows", rows), ("--cols", cols), ("--connect", connect)):
        if value is not None:
            chosen += [name, value]
    chosen += ["--no-gravity"] * no_gravity + ["--mode", "full-board"] * full_board
    return chosen


# Move strings: columns, cells, separators and characters that are none of those.
move_strings = st.one_of(
    st.text(alphabet="1234567 ,", max_size=45),
    st.text(alphabet="0123456789abcdefghlmxyz ,;-./\t\n\\é\x00", max_size=60),
    st.text(max_size=30),
)

# Lines for ``solve`` that are never short legal move strings (an early position can
# take the exact solver a long time; that is the solver's benchmark, not this test's).
solve_junk = st.text(alphabet="089mnxyz!#\x00é\t ,;", max_size=40)
solve_stdin = st.one_of(
    st.lists(solve_junk, max_size=5).map(lambda lines: "\n".join(lines).encode()),
    st.binary(max_size=200).filter(lambda data: not any(chr(c) in "1234567abcdefghijkl" for c in data)),
    st.just(b"527321255352474421577234343376616576\n"),  # 36 moves: solved at once
)
interactive_stdin = st.one_of(
    st.lists(st.text(alphabet="1234567q xé", max_size=3), max_size=12).map(lambda lines: "\n".join(lines).encode()),
    st.binary(max_size=100),
)


def assert_clean(done: Ran, *inputs: tuple[Path, bytes]) -> None:
    assert done.returncode in (0, 2), (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    if done.returncode == 2:
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "error" in lines[0], done.stderr
    for path, before in inputs:
        assert path.read_bytes() == before, f"{path.name} was changed"


@FUZZ
@given(board=board_bytes, depth=depths, rules=rule_options, no_pruning=st.booleans())
def test_one_move_with_any_board_file(board, depth, rules, no_pruning):
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.txt"
        source.write_bytes(board)
        args = ["one-move", str(source), str(Path(folder) / "out.txt"), depth, *options(*rules)]
        assert_clean(run(*args, *["--no-pruning"] * no_pruning), (source, board))


@FUZZ
@given(board=board_bytes, depth=depths, rules=rule_options, first=st.sampled_from(["computer-next", "human-next"]))
def test_interactive_with_any_board_file_and_stdin(board, depth, rules, first):
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.txt"
        source.write_bytes(board)
        args = ["interactive", str(source), first, depth, "--dir", folder, *options(*rules)]
        assert_clean(run(*args, stdin=b"4\n3\nq\n"), (source, board))


@FUZZ
@given(stdin=interactive_stdin, depth=st.sampled_from(["1", "2"]), rules=rule_options)
def test_interactive_with_any_stdin_bytes(stdin, depth, rules):
    with tempfile.TemporaryDirectory() as folder:
        args = ["interactive", str(Path(folder) / "new.txt"), "human-next", depth, "--dir", folder, *options(*rules)]
        assert_clean(run(*args, stdin=stdin))


@pytest.mark.slow
@FUZZ
@given(position=move_strings, depth=depths, rules=rule_options, tree=st.booleans())
def test_analyze_with_any_move_string(position, depth, rules, tree):
    args = ["analyze", position, "--depth", depth, *options(*rules), *["--tree"] * tree]
    with tempfile.TemporaryDirectory() as folder:
        assert_clean(run(*args, cwd=Path(folder)))


@FUZZ
@given(board=board_bytes, rules=rule_options, time_limit=st.sampled_from([None, "0.5", "0", "-1", "nan", "inf", "x"]))
def test_analyze_with_any_board_file(board, rules, time_limit):
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "position.txt"
        source.write_bytes(board)
        args = ["analyze", str(source), "--depth", "2", *options(*rules)]
        args += ["--time-limit", time_limit] if time_limit is not None else []
        assert_clean(run(*args), (source, board))


@FUZZ
@given(stdin=solve_stdin, from_file=st.booleans(), weak=st.booleans())
def test_solve_with_any_stdin_or_file(stdin, from_file, weak):
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "lines.txt"
        source.write_bytes(stdin)
        args = ["solve", *[str(source)] * from_file, *["--weak"] * weak]
        assert_clean(run(*args, stdin=b"" if from_file else stdin), (source, stdin))


# The bot commands: protocol lines and stray bytes for ``engine``, options for ``match``
# and ``connectx`` (a match that runs is one short game between quick levels).
engine_stdin = st.one_of(
    st.lists(
        st.one_of(
            st.sampled_from(["uci", "isready", "position startpos moves 3 3", "go movetime 20", "quit", "stop"]),
            st.sampled_from(["settings field_columns 7", "settings your_botid 1", "action move 100"]),
            st.text(alphabet="abcdegimnoprstuvw0123456789 \t", max_size=30),
        ),
        max_size=6,
    ).map(lambda lines: "\n".join(lines).encode()),
    st.binary(max_size=120),
)


@FUZZ
@given(stdin=engine_stdin, level=st.sampled_from(["Easy", "Beginner", "nonsense", ""]))
def test_engine_with_any_stdin(stdin, level):
    done = run("engine", "--level", level, stdin=stdin)
    assert done.returncode in (0, 2), (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout


@pytest.mark.slow
@FUZZ
@given(
    players=st.tuples(*[st.sampled_from(["Easy", "Beginner", "nonsense", "engine:", "engine:/no/such/bot"])] * 2),
    games=st.sampled_from(["1", "0", "-1", "x", "99999999999999999999"]),
    movetime=st.sampled_from(["50", "0", "-5", "x"]),
    rules=rule_options,
)
def test_match_with_any_options(players, games, movetime, rules):
    runs = games == "1" and movetime == "50" and not any(p.startswith("engine:") for p in players)
    if runs:
        rules = (None, None, None, False, False)  # a real game: the standard board keeps it short
    with tempfile.TemporaryDirectory() as folder:
        args = ["match", *players, "--games", games if not runs else "1", "--movetime", movetime]
        assert_clean(run(*args, *options(*rules), "--pgn", str(Path(folder) / "games.pgn"), cwd=Path(folder)))


@FUZZ
@given(out=st.sampled_from(["sub", "a/b/c", "file.txt", ""]), level=st.sampled_from([None, "Easy", "nonsense"]))
def test_connectx_with_any_options(out, level):
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "file.txt").write_text("keep me")
        args = ["connectx", "--out", str(Path(folder) / out) if out else ""] + (["--level", level] if level else [])
        assert_clean(run(*args, cwd=Path(folder)), (Path(folder) / "file.txt", b"keep me"))


tournament_players = st.sampled_from(["depth:1", "Beginner", "beginner", "nonsense", "engine:", "mcts:0", "depth:2"])
opening_bytes = st.one_of(
    st.lists(st.text(alphabet="12345678# \tx\x00é", max_size=12), max_size=4).map(
        lambda lines: "\n".join(lines).encode()
    ),
    st.binary(max_size=60),
)


@pytest.mark.slow
@FUZZ
@given(
    players=st.lists(tournament_players, min_size=0, max_size=3),
    games=st.sampled_from(["1", "0", "-1", "x", "99999999999999999999"]),
    anchor=st.sampled_from([None, "depth:1", "nobody", ""]),
    gauntlet=st.booleans(),
    openings=st.one_of(st.none(), opening_bytes),
    rules=rule_options,
)
def test_tournament_with_any_options(players, games, anchor, gauntlet, openings, rules):
    """Issue 51: any players, numbers, anchor and openings file: a table or one clean line."""
    with tempfile.TemporaryDirectory() as folder:
        args = ["tournament", *players, "--games-per-pair", games, "--jobs", "1", "--movetime", "50"]
        args += ["--anchor", anchor] * (anchor is not None) + ["--gauntlet"] * gauntlet + options(*rules)
        inputs = []
        if openings is not None:
            (Path(folder) / "openings.txt").write_bytes(openings)
            args += ["--openings", "openings.txt"]
            inputs.append((Path(folder) / "openings.txt", openings))
        assert_clean(run(*args, "--pgn", "games.pgn", cwd=Path(folder)), *inputs)
