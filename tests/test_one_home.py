"""One home for each concern: every column score comes from ``Solver.analyze``.

``tests/data/one_home.txt`` holds a seeded set of positions with the exact column scores
and every preset's move as the code answered them before ``Solver.analyze`` (commit
7ca6f41, see ``tests/data/make_one_home.py``): the one home changed no answer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ai.perfect
import ai.player
from ai.levels import PRESETS
from ai.player import choose_move, column_scores
from ai.solver import Solver, SolverStopped
from game.board import Board
from game.rules import STANDARD, Rules

DATA = Path(__file__).resolve().parent / "data" / "one_home.txt"
POSITIONS = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions"


def _per_child(solver: Solver, board: Board, *, weak: bool = False) -> dict[int, int]:
    """Every playable column's score the long way, centre first: a win with this disc, a
    full board, else the negation of solving the child (weak: a win now ends the look)."""
    current, mask = solver.position(board.grid, board.to_move)
    geo = solver.geo
    scores = {}
    for col in geo.centre_order:
        _, add, keep = geo.move_steps[col]
        bit = (mask + add) & keep
        if not bit:
            continue
        if geo.line_starts(current | bit):
            if weak:
                return {col: 1}
            scores[col] = (solver.cells + 1 - mask.bit_count()) // 2
        elif (mask | bit).bit_count() == solver.cells:
            scores[col] = 0
        else:
            scores[col] = -solver.solve_bits(current ^ mask, mask | bit, weak=weak).score
    return scores


def _random_boards(rules: Rules, count: int, seed: int, least: int) -> list[Board]:
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(rules)
        for _ in range(rng.randrange(least, rules.cells - 2)):
            board.push(rng.choice(board.legal_moves()))
            if board.is_game_over():
                break
        if not board.is_game_over():
            boards.append(board)
    return boards


def test_analyze_gives_the_per_child_solve():
    """The benchmark's end games (6x7, with the books) and random small boards."""
    lines = (POSITIONS / "Test_L3_R1").read_text().splitlines()[:25:3]
    cases = [(Rules(), Board.from_moves(line.split()[0])) for line in lines]
    for rules in (Rules(rows=4, cols=5), Rules(rows=5, cols=6, connect=4), Rules(rows=4, cols=4, connect=3)):
        cases += [(rules, board) for board in _random_boards(rules, 6, seed=rules.cells, least=2)]
    for rules, board in cases:
        solver = Solver(rules)
        for weak in (False, True):
            analysis = solver.analyze(*solver.position(board.grid, board.to_move), weak=weak)
            assert analysis.stopped is None
            assert analysis.complete() == _per_child(Solver(rules), board, weak=weak), (board.moves_string(), weak)


def test_analyze_bounds_the_children_by_the_books_score_at_twelve_discs():
    """At the book's 12 discs the parent's score bounds each child's solve: the same
    scores, never more nodes than without it."""
    board = Board.from_moves("444444333333")  # 12 discs, nobody has won
    solver = Solver(STANDARD)
    current, mask = solver.position(board.grid, board.to_move)
    assert solver.book_score(current, mask) is not None
    scores = solver.analyze(current, mask).complete()
    assert scores == _per_child(Solver(STANDARD), board)
    assert max(scores.values()) == solver.book_score(current, mask)


def test_an_analysis_cut_short_keeps_what_it_scored_and_says_why():
    board = Board.from_moves("4455")  # early: the columns take many nodes each
    solver = Solver(STANDARD, use_book=False)
    current, mask = solver.position(board.grid, board.to_move)
    analysis = solver.analyze(current, mask, node_limit=5_000)
    assert isinstance(analysis.stopped, SolverStopped) and "node budget" in str(analysis.stopped)
    assert len(analysis.scores) < len(board.legal_moves()) and analysis.nodes >= 5_000
    with pytest.raises(SolverStopped):
        analysis.complete()
    again = Solver(STANDARD, use_book=False).analyze(current, mask, node_limit=5_000)
    assert (again.scores, again.nodes) == (analysis.scores, analysis.nodes)  # the same stop on every machine


def _recorded() -> list[tuple[Board, str, dict[int, int] | None, dict[str, int]]]:
    """(board, its line, exact column scores or None, each preset's 0-based move)."""
    found = []
    for line in DATA.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        shape, moves, scores, *played = line.split()
        rows, cols = (int(part) for part in shape.split("x"))
        board = Board.from_moves("" if moves == "-" else moves, Rules(rows=rows, cols=cols))
        exact = None
        if scores != "none":
            exact = {int(col) - 1: int(score) for col, score in (part.split(":") for part in scores.split(","))}
        moves_by_level = {name: int(move) - 1 for name, move in (part.split(":") for part in played)}
        found.append((board, line, exact, moves_by_level))
    return found


def _fresh_tables() -> None:
    """No solver table carried over: a level's node budget ends where it did when recorded.
    (Not with ``monkeypatch``: it would keep every dropped table, 64 MB each, to undo.)"""
    ai.perfect._SHARED = None
    ai.player._SOLVERS.clear()


def _check_recorded(recorded: list[tuple[Board, str, dict[int, int] | None, dict[str, int]]]) -> None:
    for board, line, exact, moves_by_level in recorded:
        _fresh_tables()
        scores = column_scores(board.grid, board.rules, board.to_move)
        found = None if scores is None else {col: s.score(board.to_move, board.grid) for col, s in scores.items()}
        assert found == exact, line
        for name, move in moves_by_level.items():
            _fresh_tables()
            answer = choose_move(PRESETS[name], board.grid, board.rules, board.to_move)
            assert answer.move == move, (line, name)


def test_the_recorded_set_covers_both_boards_and_the_whole_game():
    recorded = _recorded()
    assert len(recorded) == 300
    discs = {(board.rules.rows, board.rules.cols): set() for board, *_ in recorded}
    for board, *_ in recorded:
        discs[(board.rules.rows, board.rules.cols)].add(board.ply)
    assert set(discs) == {(6, 7), (7, 8)}
    assert min(discs[(6, 7)]) < 5 and max(discs[(6, 7)]) > 30 and min(discs[(7, 8)]) < 5


def test_every_preset_plays_as_before_on_a_sample():
    """A tenth of the recorded set (the whole of it: the slow test below)."""
    _check_recorded(_recorded()[::10])


@pytest.mark.slow
def test_every_preset_plays_as_before_on_the_whole_set():
    _check_recorded(_recorded())
