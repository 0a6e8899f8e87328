"""Bounds: the recorded tree and ``analyze`` never state a bound as if it were exact.

After a cutoff a value is only a bound (``>=20``, ``<=30``); without pruning every value
is exact.  Checked against plain minimax on the same position and depth.
"""

from __future__ import annotations

import io
import re

from ai.search import search
from ai.tree import BoundKind, SearchTree, format_tree
from game.board import Board
from game.cli.main import main

MIDGAME = "4453"


def minimax_values(board: Board, depth: int) -> dict[tuple[int, ...], int]:
    """Every node's exact minimax value, by its path of moves, from a full search."""
    full = search(board.grid, board.rules, depth, pruning=False, record_tree=True, to_move=board.to_move)
    assert full.tree is not None and full.tree.is_complete
    return {tuple(node.path()): node.value for node in full.tree.iter_nodes()}


def pruned_tree(board: Board, depth: int) -> SearchTree:
    result = search(board.grid, board.rules, depth, pruning=True, record_tree=True, to_move=board.to_move)
    assert result.tree is not None
    return result.tree


def test_every_stored_value_is_what_its_bound_kind_says():
    board = Board.from_moves(MIDGAME)
    exact = minimax_values(board, 5)
    tree = pruned_tree(board, 5)
    kinds = {kind: 0 for kind in BoundKind}
    for node in tree.iter_nodes():
        true_value = exact[tuple(node.path())]
        kind = node.bound
        kinds[kind] += 1
        if kind is BoundKind.EXACT:
            assert node.value == true_value, node
        elif kind is BoundKind.LOWER:
            assert true_value >= node.value, node
            assert node.value_text.startswith(">=")
        else:
            assert true_value <= node.value, node
            assert node.value_text.startswith("<=")
    assert all(kinds.values()), kinds  # the position has cutoffs of both kinds
    # A node whose search stopped at a cutoff is always a bound, never exact.
    assert all(node.bound is not BoundKind.EXACT for node in tree.iter_nodes() if node.pruned_count)


def test_root_move_values_agree_with_the_tree_and_with_minimax():
    board = Board.from_moves(MIDGAME)
    exact = minimax_values(board, 5)
    result = search(board.grid, board.rules, 5, record_tree=True, to_move=board.to_move)
    assert result.tree is not None
    by_move = {child.move: child for child in result.tree.root.children()}
    for move, column in result.move_values.items():
        assert column.kind is by_move[move].bound
        true_value = exact[(move,)]
        if column.kind is BoundKind.EXACT:
            assert column.value == true_value
        elif column.kind is BoundKind.UPPER:
            assert true_value <= column.value
        else:
            assert true_value >= column.value


def test_without_pruning_no_value_is_a_bound():
    board = Board.from_moves(MIDGAME)
    result = search(board.grid, board.rules, 4, pruning=False, record_tree=True, to_move=board.to_move)
    assert all(column.kind is BoundKind.EXACT for column in result.move_values.values())
    assert result.tree is not None
    assert all(node.bound is BoundKind.EXACT for node in result.tree.iter_nodes())
    assert ">=" not in format_tree(result.tree) and "<=" not in format_tree(result.tree)


def test_depth_one_leaves_are_exact_even_after_a_better_move():
    # Depth 1: every root move is valued directly, so none is a bound, pruning or not.
    board = Board.from_moves(MIDGAME)
    result = search(board.grid, board.rules, 1, to_move=board.to_move)
    assert all(column.kind is BoundKind.EXACT for column in result.move_values.values())


def run_cli(*args: str) -> str:
    out = io.StringIO()
    assert main(list(args), stdout=out) == 0
    return out.getvalue()


def test_analyze_marks_bounds_in_the_move_values_and_the_tree():
    text = run_cli("analyze", MIDGAME, "--depth", "6", "--tree", "--tree-depth", "1")
    values_line = next(line for line in text.splitlines() if line.startswith("Move values:"))
    assert re.search(r"\d:<=", values_line)  # the moves refuted by a cutoff are upper bounds
    assert "only a bound" in text  # and the output says what that means
    tree_lines = [line for line in text.splitlines() if " MIN value" in line or " MAX value" in line]
    for line in tree_lines:
        if "cutoff:" in line:
            assert "value<=" in line or "value>=" in line, line  # a cutoff node never reads "value="
    board = Board.from_moves(MIDGAME)
    tree = pruned_tree(board, 6)
    bounded = sum(1 for child in tree.root.children() if child.bound is not BoundKind.EXACT)
    assert sum(1 for line in tree_lines[1:] if "value<=" in line or "value>=" in line) == bounded


def test_analyze_without_pruning_labels_no_value_as_a_bound():
    text = run_cli("analyze", MIDGAME, "--depth", "4", "--no-pruning", "--tree", "--tree-depth", "2")
    assert ">=" not in text and "<=" not in text
    assert "only a bound" not in text
    values_line = next(line for line in text.splitlines() if line.startswith("Move values:"))
    assert len(re.findall(r"\d:-?\d+", values_line)) == 7  # seven plain values
