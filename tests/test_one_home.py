"""One home for each concern: every column score comes from ``Solver.analyze``, and the
decider alone falls back when the opening book is bad (front ends show its note).

``tests/data/one_home.txt`` holds a seeded set of positions with the exact column scores
and every preset's move as the code answered them before ``Solver.analyze`` (commit
7ca6f41, see ``tests/data/make_one_home.py``): the one home changed no answer."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import ai.book
import ai.perfect
import ai.player
from ai.answer import DecidedBy, Purpose
from ai.levels import PRESETS
from ai.player import BAD_BOOK_NOTE, choose_move, column_scores
from ai.solver import SolveLimit, Solver, SolverStopped
from game.board import Board
from game.bots.notes import NotesSaid
from game.rules import STANDARD, Rules
from tests.test_book_trust import _with_compiled_kernels

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
            scores[col] = -solver.solve_bits(current ^ mask, mask | bit, limit=SolveLimit(weak=weak)).score
    return scores


def _random_boards(rules: Rules, count: int, seed: int, least: int) -> list[Board]:
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(rules)
        board.push_random(rng, rng.randrange(least, rules.cells - 2))
        if not board.is_game_over():
            boards.append(board)
    return boards


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_analyze_gives_the_per_child_solve():
    """The benchmark's end games (6x7, with the books) and random small boards."""
    lines = (POSITIONS / "Test_L3_R1").read_text().splitlines()[:25:3]
    cases = [(Rules(), Board.from_moves(line.split()[0])) for line in lines]
    for rules in (Rules(rows=4, cols=5), Rules(rows=5, cols=6, connect=4), Rules(rows=4, cols=4, connect=3)):
        cases += [(rules, board) for board in _random_boards(rules, 6, seed=rules.cells, least=2)]
    for rules, board in cases:
        solver = Solver(rules)
        for weak in (False, True):
            analysis = solver.analyze(*solver.position(board.grid, board.to_move), limit=SolveLimit(weak=weak))
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
    analysis = solver.analyze(current, mask, limit=SolveLimit(nodes=5_000))
    assert isinstance(analysis.stopped, SolverStopped) and "node budget" in str(analysis.stopped)
    assert len(analysis.scores) < len(board.legal_moves()) and analysis.nodes >= 5_000
    with pytest.raises(SolverStopped):
        analysis.complete()
    again = Solver(STANDARD, use_book=False).analyze(current, mask, limit=SolveLimit(nodes=5_000))
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


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_every_preset_plays_as_before_on_a_sample():
    """A tenth of the recorded set.  The whole set (300 positions, 1,800 moves) was checked
    when the column scores found their one home (7.5 minutes then) and again once the play
    search was compiled (5 minutes), too long for every CI run;
    ``_check_recorded(_recorded())`` checks it again."""
    _check_recorded(_recorded()[::10])


# -- the bad-book fallback: the decider's, said in its answer's note ------------------------
@pytest.fixture
def damaged_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every opening book of this process is one damaged file (not a whole number of
    records); fresh solver tables and verdict cache; the real books again afterwards."""
    path = tmp_path / "book_12ply_distances.dat"
    path.write_bytes(b"damaged")
    monkeypatch.setenv("XDG_CACHE_HOME", str(_with_compiled_kernels(tmp_path / "cache")))
    monkeypatch.setattr(ai.book, "book_path", lambda which: path)
    _fresh_tables()
    ai.book._shared_book.cache_clear()
    yield path
    ai.book._shared_book.cache_clear()
    _fresh_tables()  # nor a solver that has seen the damaged book


def _book_note(answer_note: str | None) -> None:
    assert answer_note is not None
    assert answer_note.count("the opening book cannot be used") == 1, answer_note  # said once
    assert "book_12ply_distances.dat is damaged" in answer_note and "reinstall bitbully-databases" in answer_note


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_perfect_plays_expert_without_a_bad_book_and_says_so_once(damaged_book):
    board = Board.from_moves("4453")
    for purpose in (Purpose.MOVE, Purpose.HINT):
        answer = choose_move(PRESETS["Perfect"], board.grid, board.rules, board.to_move, purpose=purpose)
        _book_note(answer.note)
        assert "Expert plays for Perfect" in answer.note
        assert answer.level.book_discs == 0 and not answer.level.perfect
        assert answer.decided_by is not DecidedBy.BOOK


@pytest.mark.slow  # a process or seconds of solving: out of the quick lane, in the full run
def test_a_level_that_knows_the_openings_plays_without_a_bad_book(damaged_book):
    expert = PRESETS["Expert"]
    board = Board.from_moves("44535")
    answer = choose_move(expert, board.grid, board.rules, board.to_move)
    _book_note(answer.note)
    assert answer.level == replace(expert, book_discs=0) and answer.decided_by is DecidedBy.SEARCH
    assert answer.note.endswith(BAD_BOOK_NOTE.split("): ", 1)[1].format(stand_in="the level plays without it"))


def test_no_note_where_the_level_would_not_use_the_book(damaged_book):
    opening = Board.from_moves("4453")
    assert choose_move(PRESETS["Medium"], opening.grid, opening.rules, opening.to_move).note is None
    late = Board.from_moves((POSITIONS / "Test_L2_R1").read_text().split()[0])  # past the book: the solver
    assert late.ply > 12
    answer = choose_move(PRESETS["Perfect"], late.grid, late.rules, late.to_move)
    assert answer.note is None and answer.decided_by is DecidedBy.SOLVER


@pytest.mark.slow  # a process or seconds of solving: out of the quick lane, in the full run
def test_a_bad_book_is_said_by_the_answer_of_a_clock_too(damaged_book):
    """Under an outside clock (engine, ConnectX) even a fallback answer says it."""
    board = Board.from_moves("4453")
    for seconds in (0.3, 3.0):
        answer = choose_move(PRESETS["Perfect"], board.grid, board.rules, board.to_move, movetime=seconds)
        _book_note(answer.note)


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_the_front_ends_show_the_deciders_note(damaged_book, monkeypatch, capsys):
    from game.bots import connectx
    from game.bots.engine import Engine
    from game.cli import main as cli

    out, log = io.StringIO(), io.StringIO()
    Engine(out, level="perfect", log=log).run(["position 3 3 4 2", "go movetime 3000"])
    notes = [line for line in log.getvalue().splitlines() if "note:" in line]
    assert out.getvalue().count("bestmove") == 1 and len(notes) == 1
    _book_note(notes[0])

    analyzed = io.StringIO()
    assert cli.main(["analyze", "4453", "--depth", "2", "--level", "perfect"], stdout=analyzed) == 0
    played = [line for line in analyzed.getvalue().splitlines() if line.startswith("Level perfect plays:")]
    _book_note(played[0])

    monkeypatch.setenv("CONNECT4_CONNECTX_LEVEL", "perfect")
    monkeypatch.setattr(connectx, "_NOTES_SAID", NotesSaid())
    capsys.readouterr()
    board = Board.from_moves("4453")
    cells = [0 if v == 0 else (1 if v == 1 else 2) for v in board.grid.flatten().tolist()]
    for _ in range(2):
        connectx.agent({"board": cells, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 5})
    notes = [line for line in capsys.readouterr().err.splitlines() if "note:" in line]
    assert len(notes) == 1
    _book_note(notes[0])
