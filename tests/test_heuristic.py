"""The static evaluation's threat parity against the exact solver."""

from __future__ import annotations

import random

import pytest

from ai.bitboard import geometry
from ai.heuristic import first_player_rows, row_parity_masks
from ai.solver import Solver
from game.rules import Rules


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
