"""The static evaluation: its threat parity against the exact solver, and its weights."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from ai.bitboard import geometry
from ai.heuristic import (
    TACTICAL,
    build_evaluator,
    first_player_rows,
    generic_weights,
    make_evaluator,
    row_parity_masks,
    weights_for,
)
from ai.solver import SolveLimit, Solver
from game.board import Board
from game.rules import Rules
from lab.fit_weights import as_vector, fit, load_positions, log_likelihood, term_values, unit_weights
from lab.fit_weights import main as fit_weights_main

SOLVED_CONNECT5 = Path(__file__).resolve().parent.parent / "ai" / "data" / "connect5_solved.txt"


def _last_column_threats(rules: Rules, seed: int) -> dict[int, list[int]]:
    """Games that filled every column but the last without a line, leaving the first
    player one threat there and the second none: the moves, by the threat's row (1 at the
    bottom), at least one of each parity."""
    geo = geometry(rules)
    rng = random.Random(seed)
    found: dict[int, list[int]] = {}
    while len({row % 2 for row in found}) < 2:
        discs = [0, 0]  # first, second
        mask = 0
        moves: list[int] = []
        for ply in range(rules.rows * (rules.cols - 1)):
            steps = list(geo.move_steps[:-1])  # every column but the last
            rng.shuffle(steps)
            for col, add, keep in steps:
                bit = (mask + add) & keep  # 0: the column is full
                if bit and not geo.line_starts(discs[ply % 2] | bit):
                    discs[ply % 2] |= bit
                    mask |= bit
                    moves.append(col)
                    break
            else:
                break  # every column is full or would finish a line: start again
        empty = geo.board_mask ^ mask
        threat = geo.threats(discs[0], empty)
        if len(moves) == rules.rows * (rules.cols - 1) and threat.bit_count() == 1 and not geo.threats(discs[1], empty):
            found[(threat.bit_length() - 1) % geo.height + 1] = moves
    return found


@pytest.mark.parametrize("rules", [Rules(), Rules(rows=7, cols=8)], ids=["6x7", "7x8"])
def test_a_lone_threat_in_the_last_column_wins_on_the_rows_the_evaluation_gives_its_owner(rules):
    """The zugzwang the parity term stands for: with one column left, the first player's
    threat wins exactly on the rows the evaluation counts as the first player's (odd on
    6x7, even on 7x8), and is blocked on the others."""
    geo = geometry(rules)
    firsts, _ = row_parity_masks(geo)
    solver = Solver(rules)
    for row, moves in _last_column_threats(rules, seed=1).items():
        to_move_first = len(moves) % 2 == 0
        score = solver.solve_moves(moves).score
        first_value = score if to_move_first else -score
        cell = 1 << ((rules.cols - 1) * geo.height + row - 1)
        owns_row = bool(firsts & cell)
        assert owns_row == (row % 2 == first_player_rows(rules))
        assert (first_value > 0) == owns_row, f"row {row}: first player's value {first_value}"
        assert first_value >= 0


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(rows=7, cols=8, connect=5), Rules(rows=6, cols=8, connect=5), Rules(connect=3)],
    ids=["6x7", "7x8 connect 5", "6x8 connect 5", "connect 3"],
)
def test_the_evaluation_is_its_terms_times_its_weights(rules, rng):
    """What ``lab.fit_weights`` relies on: each term read off its own evaluator, times the
    rule set's weights, gives the evaluation the search uses (quiet positions)."""
    geo = geometry(rules)
    evaluators = [build_evaluator(geo, weights) for weights in unit_weights(rules.connect)]
    evaluate = make_evaluator(geo)
    coefficients = as_vector(weights_for(rules), rules.connect)
    checked = 0
    while checked < 60:
        board = Board(rules)
        for _ in range(rng.randrange(4, rules.cells - 4)):
            moves = board.legal_moves()
            if board.is_game_over() or not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        first, second = geo.from_grid(board.grid)
        terms = [term(first, second) for term in evaluators]
        if abs(terms[0]) >= TACTICAL:
            continue
        assert sum(c * t for c, t in zip(coefficients, terms)) == evaluate(first, second)
        checked += 1


@pytest.mark.slow
def test_the_fit_finds_the_weights_that_made_the_outcomes():
    """Outcomes drawn from an ordered logistic model with known weights: the fit gets the
    weights back (the ratios within 15%), and scores them above a model that ignores one."""
    generator = np.random.default_rng(7)
    x = generator.normal(size=(4_000, 3)) * (1.0, 5.0, 0.5)
    true = np.array([1.0, -0.4, 3.0])
    z = x @ true + generator.logistic(size=len(x))
    y = np.where(z < -1.0, -1, np.where(z < 1.5, 0, 1))
    fitted, cuts = fit(x, y)
    assert np.allclose(fitted / fitted[0], true / true[0], rtol=0.15)
    assert cuts[0] < cuts[1]
    blind, blind_cuts = fit(x[:, :2], y)
    assert log_likelihood(x, y, fitted, cuts) > log_likelihood(x[:, :2], y, blind, blind_cuts)


CONNECT5 = Rules(rows=7, cols=8, connect=5)


@pytest.mark.slow
def test_the_connect5_weights_predict_solved_outcomes_better_than_the_generic_ones():
    """The fitted connect-5 weights are in use, and on the solved positions they were
    fitted to they tell the exact outcome better than connect 4's weights shifted to K
    (each evaluation's scale fitted on two thirds of the games, scored on the rest); a
    sample of the outcomes is re-solved, so the file tells the truth."""
    games = load_positions(SOLVED_CONNECT5, CONNECT5)
    x, y, numbers, to_move = term_values(CONNECT5, games)
    assert len(y) > 2_000
    held_out = numbers % 3 == 0
    scores = {}
    for name, weights in (("generic", generic_weights(5)), ("in use", weights_for(CONNECT5))):
        columns = np.column_stack([x @ as_vector(weights, 5), to_move])
        fitted, cuts = fit(columns[~held_out], y[~held_out])
        scores[name] = log_likelihood(columns[held_out], y[held_out], fitted, cuts)
    assert scores["in use"] > scores["generic"] + 0.02, scores
    solver = Solver(CONNECT5)
    late = [p for game in games for p in game if len(p.moves) >= 36][::25]
    assert len(late) >= 10
    for position in late:
        to_move = position.board(CONNECT5).to_move
        assert solver.solve_moves(list(position.moves), limit=SolveLimit(weak=True)).score * to_move == position.outcome


def test_a_bad_positions_file_is_refused_with_the_line_that_is_wrong(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("# 7x8 connect 5\n44:0 45:1\n4444444444:0\n")
    with pytest.raises(SystemExit) as stopped:
        fit_weights_main(["--positions", str(bad)])
    assert stopped.value.code == 2
    assert "line 3: '4444444444:0': column 4 is full" in capsys.readouterr().err
    few = tmp_path / "few.txt"
    few.write_text("44:0 45:1\n")
    assert fit_weights_main(["--positions", str(few)]) == 1
    assert "too few solved positions to fit (2)" in capsys.readouterr().err
