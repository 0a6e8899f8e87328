"""The opening books read by ai.book, checked against the exact solver (facts, not trust)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.book import BookFile, OpeningBook, book, huffman_key, position_of_key, standard_geometry
from ai.solver import SolveLimit, Solver
from game.rules import Rules

CLOSE_FINISH = 90
"""Distance-book codes at or beyond +/-90 end within 10 plies: quick for a plain solver."""


def _sample(which: BookFile, count: int, seed: int, keep=lambda value: True) -> list[tuple[int, int, int]]:
    opening_book = book(which)
    rng = random.Random(seed)
    chosen: list[tuple[int, int, int]] = []
    while len(chosen) < count:
        entry = opening_book.entry(rng.randrange(len(opening_book)))
        if keep(entry[2]):
            chosen.append(entry)
    return chosen


@pytest.mark.slow
def test_distance_book_scores_match_the_plain_solver():
    """200 12-disc entries that end soon, solved without any book."""
    solver = Solver(Rules(), use_book=False)
    entries = _sample(BookFile.PLY_12_DISTANCES, 200, 1, keep=lambda value: abs(value) >= CLOSE_FINISH)
    for first, second, _ in entries:
        expected = solver.solve_bits(first, first | second).score  # first player to move
        assert book().score(first, second) == expected


@pytest.mark.slow
def test_eight_ply_book_outcomes_match_the_solver():
    """120 8-disc entries (draws and losses) and 30 absent positions (first-player wins),
    solved exactly by the solver searching down to the 12-ply book."""
    solver = Solver(Rules())
    eight = book(BookFile.PLY_8)
    for first, second, _ in _sample(BookFile.PLY_8, 120, 2):
        exact = solver.solve_bits(first, first | second).score
        assert eight.score(first, second) == (exact > 0) - (exact < 0)
    geo = standard_geometry()
    rng = random.Random(3)
    absent = 0
    while absent < 30:  # random 8-disc positions the book does not list
        first = second = mask = 0
        for ply in range(8):
            col = rng.randrange(7)
            bit = (mask + (1 << (col * geo.height))) & (((1 << 6) - 1) << (col * geo.height))
            if ply % 2 == 0:
                first |= bit
            else:
                second |= bit
            mask |= bit
        if mask.bit_count() != 8 or geo.line_starts(first) or geo.line_starts(second):
            continue
        if eight.stored_value(first, second) is not None:
            continue
        absent += 1
        assert eight.score(first, second) == 1
        assert solver.solve_bits(first, mask, limit=SolveLimit(weak=True)).score == 1


def test_packed_12_ply_book_agrees_with_the_distance_book():
    packed = book(BookFile.PLY_12)
    for first, second, _ in _sample(BookFile.PLY_12_DISTANCES, 300, 4):
        exact = book().score(first, second)
        assert exact is not None
        assert packed.score(first, second) == (exact > 0) - (exact < 0)


def test_the_packages_documented_examples():
    """The two 12-ply-dist examples of the package's documentation (71: win in 29 plies)."""
    geo = standard_geometry()
    win_in_29 = np.array(
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0],
            [0, 1, 0, -1, 0, 0, 0],
            [0, -1, 0, 1, 0, -1, 0],
            [0, 1, 0, -1, 0, 1, 0],
            [0, -1, 0, 1, 0, -1, 0],
        ],
        dtype=np.int8,
    )
    first, second = geo.from_grid(win_in_29)
    assert book().score(first, second) == 1  # the 21st disc (ply 41) wins: 22 - 21
    lose_in_12 = np.array(
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 1, 1, 0, 0, 0],
            [0, 0, -1, -1, 0, 0, 0],
            [0, 1, -1, 1, 0, 0, 0],
            [0, 1, 1, -1, 0, -1, -1],
        ],
        dtype=np.int8,
    )
    first, second = geo.from_grid(lose_in_12)
    assert book().score(first, second) == -10  # the opponent's 12th disc wins: -(22 - 12)


def test_mirror_images_have_the_same_score():
    geo = standard_geometry()
    for first, second, _ in _sample(BookFile.PLY_12_DISTANCES, 50, 5):
        grid = geo.to_grid(first, second)
        mirror_first, mirror_second = geo.from_grid(grid[:, ::-1])
        assert book().score(mirror_first, mirror_second) == book().score(first, second)


def test_keys_round_trip():
    for first, second, _ in _sample(BookFile.PLY_12_DISTANCES, 50, 6):
        code, length = huffman_key(first, second)
        assert position_of_key(code, length) == (first, second)


def test_a_book_loads_only_when_first_asked():
    fresh = OpeningBook(BookFile.PLY_8)
    assert fresh._records is None
    assert len(fresh) == 34515
    assert fresh._records is not None


@pytest.mark.slow
def test_early_table_matches_a_search_one_disc_deeper():
    """The table holds every position of up to ``EARLY_PLIES`` discs (one per mirror pair)
    and the solver reads it (no node searched); each sampled entry of its last disc count
    is the best of its columns, solved one disc deeper (past the table: the search down to
    the 12-ply book)."""
    from ai.book import EARLY_FILE, EARLY_PLIES
    from ai.book_check import early_positions
    from game.board import Board

    solver = Solver(Rules())
    lines = [line.split() for line in EARLY_FILE.read_text().splitlines() if line.strip()]
    assert [moves.strip("-") for moves, _ in lines] == early_positions(EARLY_PLIES)
    last = [(moves, int(score)) for moves, score in lines if len(moves) == EARLY_PLIES]
    for moves, score in random.Random(9).sample(last, 12):
        board = Board.from_moves(moves)
        read = solver.solve_grid(board.grid, board.to_move)
        assert (read.score, read.nodes) == (score, 0), moves
        best = -99
        for col in board.legal_moves():
            child = board.copy()
            child.push(col)
            if child.is_game_over():  # a win with this disc: 22 minus the winner's discs
                best = max(best, (42 + 1 - board.ply) // 2)
                continue
            best = max(best, -solver.solve_grid(child.grid, child.to_move).score)
        assert best == score, moves


def test_the_default_book_is_the_shared_distance_book():
    """``book()`` and ``book(BookFile.PLY_12_DISTANCES)`` were two objects (two mappings,
    two checks), and ``book_problems`` never heard of the first one's refusal."""
    from ai.book import BookFile, book

    assert book() is book(BookFile.PLY_12_DISTANCES)
