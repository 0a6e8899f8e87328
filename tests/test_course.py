"""The course: its facts worked out again by the real AI, its checking, its progress in a
real archive, ``course --list``, and MCTS's replay and sentences (no window here;
``tests/test_course_window.py`` drives the screens)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from ai.mcts import mcts
from ai.mcts_table import BUDGETS
from ai.mcts_truth import mcts_truth
from ai.player import column_scores
from ai.search import search
from ai.search_types import MoveOrder
from ai.textbook_tree import alpha_beta
from game.app.tree.mcts_replay import MctsReplay, Phase
from game.app.tree.mcts_text import comparison_lines, node_lines, playout_moves_line, step_line
from game.archive.course_progress import course_progress, record_answer
from game.archive.database import MIGRATIONS
from game.archive.store import Archive
from game.board import Board
from game.learn.course import (
    LESSONS,
    MCTS_PLAYOUTS,
    MCTS_SEED,
    SMALL_TREE,
    CourseError,
    alpha_beta_skipped,
    check,
    lesson,
    list_lines,
    tree_minimax,
)
from game.learn.tree_builder import EXERCISES, ordered
from game.records import HUMAN, GameResult
from game.rules import Rules
from tests.test_cli import ROOT, assert_clean_error, run_process


def keeping_columns(board: Board) -> set[int]:
    """The columns that keep the position's exact outcome (the solver's)."""
    scores = column_scores(board.grid, board.rules, board.to_move)
    assert scores is not None
    best = max(score.pov(board.to_move) for score in scores.values())
    return {col for col, score in scores.items() if score.pov(board.to_move) == best}


def right_option(number: int) -> str:
    item = lesson(number)
    return item.exercise.options[min(item.exercise.right)]


# -- the facts each exercise checks, worked out again ------------------------------------------
def test_the_small_trees_answers_are_minimax_and_alpha_beta():
    assert tree_minimax(SMALL_TREE) == 3 and right_option(1) == "3"
    assert alpha_beta_skipped(SMALL_TREE) == [(1, 1), (1, 2)]  # the middle node's 4 and 6
    assert right_option(2) == "2"
    assert alpha_beta_skipped([[1, 2], [3, 4]]) == []  # the best last: nothing cut


def test_lesson_3_centre_first_visits_fewer_positions_than_left_to_right():
    board = Board.from_moves(lesson(3).moves)
    counts = {
        order: search(board.grid, board.rules, lesson(3).depth, order=order, to_move=board.to_move)
        for order in MoveOrder
    }
    left, centre, best = (counts[o].stats.nodes for o in MoveOrder)
    assert (left, centre, best) == (853, 335, 301)  # the numbers the explanation gives
    assert len({result.move for result in counts.values()}) == 1 and right_option(3) == "centre first"


def test_lesson_4_the_search_first_keeps_the_win_at_depth_3_and_stays_right():
    board = Board.from_moves(lesson(4).moves)
    keeping = keeping_columns(board)
    assert keeping == {3}
    kept = [search(board.grid, board.rules, depth, to_move=board.to_move).move in keeping for depth in range(1, 9)]
    assert kept == [False, False] + [True] * 6 and right_option(4) == "3"
    assert search(board.grid, board.rules, 1, to_move=board.to_move).move == 4  # "column 5" in the text


def test_lesson_5_the_heuristic_picks_a_losing_column_and_the_solver_the_winning_ones():
    item = lesson(5)
    board = Board.from_moves(item.moves)
    assert board.to_move == -1  # player 2, as the text says
    assert search(board.grid, board.rules, 1, to_move=board.to_move).move == 1  # the heuristic's column 2
    assert keeping_columns(board) == {0, 3} == set(item.exercise.right)


def test_lesson_6_only_the_centre_keeps_the_first_players_win():
    assert keeping_columns(Board()) == {3} == set(lesson(6).exercise.right)


def test_lesson_7_mcts_and_minimax_disagree_and_minimax_keeps_the_win():
    item = lesson(7)
    board = Board.from_moves(item.moves)
    found = mcts(board.grid, board.rules, MCTS_PLAYOUTS, to_move=board.to_move, seed=MCTS_SEED)
    minimax = search(board.grid, board.rules, item.depth, to_move=board.to_move)
    assert (found.move, minimax.move) == (2, 3)  # columns 3 and 4, as the explanation says
    assert keeping_columns(board) == {3} and right_option(7) == "no"


def test_lesson_8_plain_mcts_first_keeps_the_win_at_100000_playouts_and_the_solver_proves_nothing():
    item = lesson(8)
    board = Board.from_moves(item.moves)
    truth = mcts_truth([("lesson 8", board)], BUDGETS, seed=MCTS_SEED)
    position = truth.positions[0]
    assert position.keeping == [3]  # only column 4 keeps the win
    kept = [position.keeps(position.chosen["plain"][budget]) for budget in BUDGETS]
    assert kept == [False, False, False, True] and right_option(8) == "100,000"
    assert [position.chosen["plain"][budget] for budget in BUDGETS] == [2, 1, 4, 3]  # 3, 2, 5, 4 as it says
    assert position.chosen["solver"] == position.chosen["plain"]
    assert all(proved is None for proved in position.proved.values())


def test_lesson_9_best_first_leaves_alpha_beta_five_of_the_small_trees_nine_leaves():
    tree = EXERCISES[0].tree
    assert tree == tuple(tuple(leaves) for leaves in SMALL_TREE)  # the builder's first exercise is lesson 1's tree
    assert alpha_beta(ordered(tree, best_first=True)).leaves == 5 and right_option(9) == "5"
    assert alpha_beta(tree).leaves == 7 and alpha_beta(ordered(tree, best_first=False)).leaves == 9


# -- checking ------------------------------------------------------------------------------------
@pytest.mark.parametrize("item", LESSONS, ids=lambda item: item.key)
def test_every_right_answer_is_accepted_and_every_wrong_one_explained(item):
    exercise = item.exercise
    assert exercise.right and len(item.pages) in (1, 2, 3)
    for index in range(len(exercise.options)):
        verdict = check(item, index)
        assert verdict.right == (index in exercise.right)
        assert verdict.detail and verdict.said.startswith("Right." if verdict.right else "Not quite.")
        if not verdict.right and index in exercise.wrong_notes:
            assert verdict.detail == exercise.wrong_notes[index]
    with pytest.raises(CourseError, match="options 1 to"):
        check(item, len(exercise.options))


def test_lessons_are_numbered_in_order_with_lasting_keys():
    assert [item.number for item in LESSONS] == list(range(1, 10))
    assert len({item.key for item in LESSONS}) == 9
    with pytest.raises(CourseError, match="lessons 1 to 9"):
        lesson(10)


# -- progress in the archive -----------------------------------------------------------------------
def test_progress_is_kept_in_the_archive_file_and_a_solved_lesson_stays_solved(tmp_path):
    archive = Archive.open(tmp_path)
    assert course_progress(archive) == {}
    assert record_answer(archive, "minimax", right=False)
    assert record_answer(archive, "minimax", right=True)
    assert record_answer(archive, "minimax", right=False)  # a later wrong answer: still solved
    assert record_answer(archive, "mcts", right=False)
    archive.close()
    again = Archive.open(tmp_path)
    progress = course_progress(again)
    assert progress["minimax"].attempts == 3 and progress["minimax"].solved
    assert progress["mcts"].attempts == 1 and not progress["mcts"].solved
    again.close()


def test_an_archive_of_the_schema_before_the_course_is_upgraded_with_its_games(tmp_path):
    first = Archive.open(tmp_path)
    first.add_game(Rules(), [3, 3, 4, 4, 5, 5, 6], GameResult.FIRST, first=HUMAN, second="Easy")
    first.close()
    connection = sqlite3.connect(tmp_path / "games.sqlite3")  # back to schema 4, before the course's step
    for table in ("course_progress", "puzzle_attempts", "my_puzzles", "my_puzzle_games", "puzzle_runs"):
        connection.execute(f"DROP TABLE {table}")
    assert len(MIGRATIONS) == 7, "a later step's tables must be dropped here too"
    connection.execute("PRAGMA user_version = 4")
    connection.commit()
    connection.close()
    archive = Archive.open(tmp_path)
    assert archive.warning is None and len(archive.games()) == 1
    assert record_answer(archive, "exact", right=True) and course_progress(archive)["exact"].solved
    archive.close()


def test_a_read_only_archive_keeps_no_progress_and_says_so_by_returning_false():
    archive = Archive.in_memory()
    archive.writable = False
    assert not record_answer(archive, "minimax", right=True)
    assert course_progress(archive) == {}


# -- the command line ----------------------------------------------------------------------------------
def test_course_list_prints_the_lessons_one_a_line_without_loading_the_window():
    script = (
        "import sys\n"
        "from game.launcher import main\n"
        "code = main(['course', '--list'])\n"
        "assert 'pygame' not in sys.modules, 'course --list loaded pygame'\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT, env=english()
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == list_lines()
    assert len(list_lines()) == 9 and list_lines()[0].startswith("1. The game tree and minimax")


def english() -> dict[str, str]:
    return {**os.environ, "LANGUAGE": "en"}


def test_course_lesson_out_of_range_is_refused_in_one_line_without_a_window():
    proc = run_process("course", "--lesson", "10")
    assert_clean_error(proc, "there is no lesson 10: the course has lessons 1 to 9")


# -- MCTS's replay and sentences ---------------------------------------------------------------------
def test_the_replay_ends_on_the_searched_tree_and_counts_visits_as_they_came():
    board = Board.from_moves("44")
    found = mcts(board.grid, board.rules, 300, to_move=board.to_move, seed=1)
    replay = MctsReplay(found.tree)
    assert replay.current().phase is Phase.SELECTION and replay.visits_at() == {0: 0}
    replay.move(3)  # the first playout's back-up
    assert replay.current().phase is Phase.BACKUP and replay.visits_at() == {0: 1, 1: 1}
    replay.jump(start=False)
    final = replay.visits_at()
    assert final == {node.index: node.visits for node in found.tree.iter_nodes()}
    replay.move(-5)
    assert sum(1 for _ in replay.visits_at()) <= len(final)


def test_the_side_by_side_sentences_name_both_choices_and_the_referee():
    board = Board.from_moves("44")
    found = mcts(board.grid, board.rules, MCTS_PLAYOUTS, to_move=board.to_move, seed=MCTS_SEED)
    minimax = search(board.grid, board.rules, 6, to_move=board.to_move)
    exact = column_scores(board.grid, board.rules, board.to_move)
    lines = comparison_lines(found, minimax, exact, board.rules, board.to_move)
    assert lines[0].startswith("MCTS (5,000 playouts): column 3")
    assert lines[1].startswith("Minimax (depth 6): column 4")
    assert "They disagree." in lines
    assert "Referee: column 3 (MCTS) gives the exact result away." in lines
    assert "Referee: column 4 (Minimax) keeps the exact result." in lines
    child = found.tree.root.most_visited_child()
    assert child is not None
    said = node_lines(child, board.rules)
    assert said[0] == "After 3" and said[1] == f"Visits: {child.visits:,}" and "UCB" in said[3]
    replay = MctsReplay(found.tree)
    replay.move(2)
    assert step_line(replay.current(), board.rules, found.playouts, None).startswith("Playout 1 of 5,000: playout:")
    moves = replay.current().playout.moves
    listed = playout_moves_line(moves, board.rules)
    assert listed.startswith("Random moves: " + " ".join(str(m + 1) for m in moves[:3]))
    assert listed.endswith(" ...") == (len(moves) > 16)
