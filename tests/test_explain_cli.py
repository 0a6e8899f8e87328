"""``main.py explain SOURCE [--json] [--move N]``: the verdict, its reason in words, the line
or the pairs drawn; one JSON object; bad input in one line with exit code 2."""

from __future__ import annotations

import json

import pytest

from ai.solver import Solver
from game.board import Board
from game.rules import STANDARD
from tests.test_cli import ROOT, assert_clean_error, run, run_process
from tests.test_explain_rules import TEXTBOOK

ODD_THREAT = TEXTBOOK["odd threat"]


def test_the_text_draws_the_pairs_and_says_the_verdict_and_why():
    ran = run("explain", ODD_THREAT)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("6 ") and lines[6] == "  a b c d e f g"
    assert "Player 2 (X) to move: player 1 (O) wins in" in ran.stdout
    assert "Why: Zugzwang: player 1 (O) answers every disc in the same column" in ran.stdout
    assert "c4, right under the threat at c5" in ran.stdout


def test_json_has_the_verdict_the_columns_the_reason_and_the_strategy_as_pairs():
    ran = run("explain", ODD_THREAT, "--json")
    assert ran.returncode == 0, ran.stderr
    data = json.loads(ran.stdout)
    board = Board.from_moves(ODD_THREAT)
    solver = Solver(STANDARD)
    scores = solver.analyze(*solver.position(board.grid, board.to_move)).complete()
    assert data["result"] == "loss" and data["score"] == max(scores.values())
    assert data["moves"] == sorted(col + 1 for col in scores)  # every column loses
    assert data["reason"]["kind"] == "zugzwang" and data["reason"]["proved"] is True
    assert data["reason"]["text"].startswith("Zugzwang: player 1 answers")
    assert data["line"] is None
    strategy = data["strategy"]
    assert strategy["side"] == 1 and strategy["after"] == [] and strategy["claim"] == "win"
    assert all(len(pair) == 2 and all(len(square) == 2 for square in pair) for pair in strategy["pairs"])
    assert ["c5", "c6"] in strategy["pairs"] and strategy["forced"] == ["c4"]
    assert {"player": 1, "square": "c5", "row": "odd"} in data["threats"]


def test_a_forced_line_is_given_in_1_based_columns():
    data = json.loads(run("explain", "2252576253462244111563365343671351441", "--json").stdout)
    assert data["reason"]["kind"] in ("forced_win", "double_threat", "wins_now")
    board = Board.from_moves("2252576253462244111563365343671351441")
    for column in data["line"]:
        board.push(column - 1)
    assert board.outcome() is not None and board.outcome().winner is not None


def test_a_move_that_throws_the_result_away_is_refuted():
    moves = "21334544433443316116666655"  # a draw; column 2 loses it
    board = Board.from_moves(moves)
    solver = Solver(STANDARD)
    scores = solver.analyze(*solver.position(board.grid, board.to_move)).complete()
    losing = next(col for col, score in scores.items() if score < 0)
    data = json.loads(run("explain", moves, "--move", str(losing + 1), "--json").stdout)
    assert data["move"] == {"column": losing + 1, "score": scores[losing]}
    assert data["reason"]["kind"] == "refutation" and data["reason"]["outcome"] == "win"
    assert data["reason"]["player"] == (2 if board.to_move == 1 else 1)
    assert data["reason"]["text"].startswith(f"Column {losing + 1} turns the draw into a loss.")
    text = run("explain", moves, "--move", str(losing + 1)).stdout
    assert f"Column {losing + 1} scores {scores[losing]}" in text and "Why: Column" in text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("4453", "--cols", "8"), "explanations are for the standard board only"),
        (("1212121",), "the game is over"),
        (("4444441", "--move", "4"), "--move 4: column 4 is full"),
        (("4453", "--move", "9"), "--move 9: column 9 is off the board"),
        (("44x3",), "cannot read 44x3"),
        (("d1d2", "--no-gravity"), "explanations are for the standard board only"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, fragment):
    assert_clean_error(run("explain", *args), fragment)


def test_explain_runs_as_a_student_would():
    proc = run_process("explain", ODD_THREAT, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Why:" in proc.stdout and "Traceback" not in proc.stderr
