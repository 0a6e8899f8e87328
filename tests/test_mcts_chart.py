"""MCTS against the truth (``ai.mcts_truth``, ``main.py mcts-chart``): seeded, and refereed right.

The chart's shares must be what the exact solver says of the columns it lists (worked out
here again, column by column, with the solver itself), two runs with one seed must print
the same, and bad input gets one line.
"""

from __future__ import annotations

import json

import pygame
import pytest

from ai.mcts import mcts
from ai.solver import Solver
from game.board import Board
from game.launcher import WINDOW_COMMANDS
from game.rules import Rules
from tests.test_cli import Ran, assert_clean_error
from tests.test_cli import run as run_main


def run_cli(*args: str) -> Ran:
    """``main.py ARGS`` in this process, with the window's commands (``mcts-chart`` is one)."""
    return run_main(*args, more=WINDOW_COMMANDS)


POSITIONS = ("44", "4453", "56377543127623374272", "334455")
BUDGETS = "100,1000,10000"


def exact_sign(solver: Solver, board: Board, column: int) -> int:
    """The outcome (1, 0, -1) of ``column`` for the side to move, by the exact solver."""
    after = board.copy()
    after.push(column)
    outcome = after.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else 1
    score = -solver.solve_moves(after.moves).score
    return (score > 0) - (score < 0)


def test_the_chart_is_seeded_and_its_shares_are_the_solvers_verdict_on_its_columns():
    first = run_cli("mcts-chart", *POSITIONS, "--playouts", BUDGETS, "--seed", "4", "--json")
    again = run_cli("mcts-chart", *POSITIONS, "--playouts", BUDGETS, "--seed", "4", "--json")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout  # the same seed, the same chart
    data = json.loads(first.stdout)
    assert data["budgets"] == [100, 1000, 10000] and data["seed"] == 4
    solver = Solver(Rules())
    kept = {(budget, variant): 0 for budget in data["budgets"] for variant in ("plain", "solver")}
    for position, source in zip(data["positions"], POSITIONS):
        board = Board.from_moves(source)
        assert position["source"] == source and position["moves"] == source
        outcomes = {column: exact_sign(solver, board, column) for column in board.legal_moves()}
        best = max(outcomes.values())
        assert position["keeping"] == [str(c + 1) for c, sign in sorted(outcomes.items()) if sign == best]
        for budget in data["budgets"]:
            for variant in ("plain", "solver"):
                chosen = position[variant][str(budget)]
                keeps = outcomes[int(chosen["move"]) - 1] == best
                assert chosen["keeps"] is keeps
                kept[(budget, variant)] += keeps
            found = mcts(board.grid, board.rules, budget, to_move=board.to_move, seed=4)
            assert position["plain"][str(budget)]["move"] == str(found.move + 1)  # the search itself, seeded
    for row in data["rows"]:
        assert row["judged"] == len(POSITIONS)
        assert row["plain_kept"] == kept[(row["playouts"], "plain")]
        assert row["solver_kept"] == kept[(row["playouts"], "solver")]


def test_the_table_says_each_budget_and_each_positions_columns_and_the_png_is_drawn(tmp_path):
    target = tmp_path / "mcts.png"
    ran = run_cli("mcts-chart", "44", "334455", "--playouts", "100,2000", "--out", str(target))
    assert ran.returncode == 0, ran.stderr
    assert "MCTS against the truth: 2 positions, seed 0" in ran.stdout
    assert "2,000" in ran.stdout and "44: keeping 4; plain" in ran.stdout
    assert "Chart written to" in ran.stdout
    image = pygame.image.load(str(target))
    assert image.get_size() == (1000, 620)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("44", "--playouts", "0,100"), "1 to 1,000,000"),
        (("44", "--playouts", "1e3"), "whole numbers"),
        (("44", "--playouts", ",".join(str(10 * n) for n in range(1, 11))), "at most 8"),
        (("44", "--out", "chart.txt"), ".png"),
        (("4455667",), "already over"),
        (("44", "--out", "/no/such/folder/x.png"), "does not exist"),
    ],
)
def test_bad_input_gets_one_line(args, fragment):
    assert_clean_error(run_cli("mcts-chart", *args), fragment)


def test_a_position_off_the_standard_board_is_charted_but_not_judged():
    ran = run_cli("mcts-chart", "33", "--rows", "5", "--cols", "5", "--playouts", "100", "--json")
    assert ran.returncode == 0, ran.stderr
    data = json.loads(ran.stdout)
    position = data["positions"][0]
    assert position["exact"] is None and "off the standard board" in position["why_not_judged"]
    assert position["plain"]["100"]["keeps"] is None and data["rows"][0]["judged"] == 0
