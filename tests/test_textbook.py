"""The textbook minimax (ai.textbook) and the fast search (ai.search) are the same function."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.search import MoveOrder, search
from ai.textbook import textbook_search
from ai.values import WIN
from game.board import Board
from game.rules import MAX, MIN, Mode, Rules
from tests.helpers import ALL_VARIANTS, random_board, variant_id

# The hand-made full-board tree of test_search: O to move, three cells left.
HAND_GRID = [[0, 0, 0, 1], [1, -1, -1, 1], [1, -1, 1, -1], [-1, -1, 1, 1]]
HAND_RULES = Rules(rows=4, cols=4, connect=3, mode=Mode.FULL_BOARD)


def small_positions(rules: Rules, depth: int, rng: random.Random, count: int, max_tree: int = 3000):
    """Random unfinished positions whose full tree to ``depth`` stays small."""
    found = []
    for _ in range(count * 50):
        board = random_board(rules, rng, rng.randrange(0, rules.cells))
        if not board.is_game_over() and len(board.legal_moves()) ** depth <= max_tree:
            found.append(board)
            if len(found) == count:
                break
    return found


def test_the_hand_made_tree_gives_the_lecture_answer():
    board = Board(HAND_RULES, np.array(HAND_GRID, dtype=np.int8), MIN)
    full = textbook_search(board, 3, pruning=False)
    pruned = textbook_search(board, 3, pruning=True)
    assert (full.move, full.value) == (1, -3000) == (pruned.move, pruned.value)
    assert full.nodes == 3 + 6 + 6
    assert pruned.nodes < full.nodes


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=variant_id)
def test_fast_search_equals_the_textbook(rules, rng):
    checked = 0
    for depth in (1, 2, 3):
        for board in small_positions(rules, depth, rng, count=4):
            slow_full = textbook_search(board, depth, pruning=False)
            slow_pruned = textbook_search(board, depth, pruning=True)
            fast_full = search(board.grid, rules, depth, pruning=False, to_move=board.to_move, iterative=False)
            fast_pruned = search(board.grid, rules, depth, pruning=True, to_move=board.to_move)
            where = (board.moves_string(), depth)
            # Pruning never changes the value, in either implementation.
            assert slow_full.value == slow_pruned.value == fast_full.value == fast_pruned.value, where
            # Without pruning the order cannot matter: both visit the whole tree.
            assert fast_full.stats.nodes == slow_full.nodes, where
            assert slow_pruned.nodes <= slow_full.nodes
            checked += 1
    assert checked >= 6


def test_both_take_the_quickest_win():
    board = Board.from_moves("121212")  # player 1 to move: column 1 wins at once
    assert board.to_move == MAX
    slow = textbook_search(board, 3)
    assert slow.move == 0
    assert slow.value == WIN - 1
    fast = search(board.grid, board.rules, 3, to_move=board.to_move)
    assert (fast.move, fast.value) == (slow.move, slow.value)


def test_a_finished_game_has_no_move():
    board = Board.from_moves("1212121")
    assert board.is_game_over()
    assert textbook_search(board, 2).move is None


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=variant_id)
def test_the_textbook_records_the_fast_search_tree_node_for_node(rules, rng):
    checked = 0
    for depth in (1, 2, 3):
        for board in small_positions(rules, depth, rng, count=3):
            slow = textbook_search(board, depth, pruning=False, record_tree=True)
            fast = search(
                board.grid,
                rules,
                depth,
                pruning=False,
                record_tree=True,
                to_move=board.to_move,
                iterative=False,
                order=MoveOrder.LEFT_TO_RIGHT,
            )
            assert slow.tree is not None and fast.tree is not None
            # Every field of every node: parent, move, ply, side, value, windows, reasons, counts.
            assert slow.tree.data == fast.tree.data, (board.moves_string(), depth)
            assert slow.stats.nodes == fast.stats.nodes == len(slow.tree) - 1
            checked += 1
    assert checked >= 3


def test_with_pruning_the_recorded_tree_shows_the_cutoffs():
    board = Board.from_moves("4455")
    result = textbook_search(board, 4, pruning=True, record_tree=True)
    tree = result.tree
    assert tree is not None and tree.is_complete
    assert len(tree) - 1 == result.stats.nodes
    assert result.stats.cutoffs > 0
    assert any(node.pruned_count for node in tree.iter_nodes())
    assert tree.root.value == result.value
    # With the same move order the fast search finds the same tree.
    fast = search(board.grid, board.rules, 4, record_tree=True, iterative=False, order=MoveOrder.LEFT_TO_RIGHT)
    assert fast.tree is not None and fast.tree.data == tree.data
