"""The play search's transposition table (``search(..., table=True)``), a learner's switch.

With the table off the search visits exactly the nodes a search without any table does
(the textbook minimax of ``ai.textbook``, node for node); with it on, the same value and
move from at most as many nodes; ``hits <= probes``; and the recorded tree marks exactly
``hits`` nodes "from the table", each with the entry that answered it.  Seeded positions
of several rule sets.  (Compiled and Python passes agree with the table on and off:
tests/test_search_kernel.py.)
"""

from __future__ import annotations

import random

import pytest

from ai.levels import Level
from ai.search import MoveOrder, TableStats, search
from ai.textbook import textbook_search
from ai.tree import BoundKind, LeafReason, format_tree
from game.board import Board
from game.rules import STANDARD, Mode, Rules
from tests.helpers import random_board

RULE_SETS = [
    STANDARD,
    Rules(rows=7, cols=8),
    Rules(rows=5, cols=6, connect=3),
    Rules(mode=Mode.FULL_BOARD),
    Rules(rows=4, cols=4, connect=3, gravity=False),
]


def positions(rules: Rules, count: int, seed: int) -> list[Board]:
    """Seeded unfinished positions with a few discs on the board."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = random_board(rules, rng, rng.randrange(2, max(3, rules.cells // 3)))
        if not board.is_game_over():
            found.append(board)
    return found


def run(board: Board, depth: int, **options: object):
    return search(board.grid, board.rules, depth, to_move=board.to_move, **options)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_with_the_table_off_the_search_visits_the_nodes_of_a_search_without_one(rules):
    """The textbook search has no table: the same nodes and value, pruning on and off."""
    checked = 0
    for board in positions(rules, 3, seed=rules.cells):
        for depth in (1, 2, 3, 4):
            for pruning in (True, False):
                if not pruning and len(board.legal_moves()) ** depth > 5_000:
                    continue
                plain = textbook_search(board, depth, pruning=pruning)
                off = run(board, depth, pruning=pruning, table=False, order=MoveOrder.LEFT_TO_RIGHT, iterative=False)
                assert (off.value, off.stats.nodes) == (plain.value, plain.nodes), (board.moves_string(), depth)
                assert off.stats.table is None
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_with_the_table_on_the_same_value_and_move_from_no_more_nodes(rules):
    saved = 0
    for board in positions(rules, 4, seed=7 + rules.cells):
        for order in MoveOrder:
            for depth, pruning in ((4, False), (5, True), (7, True)):
                if not rules.gravity and depth > 4:
                    continue
                off = run(board, depth, pruning=pruning, order=order)
                on = run(board, depth, pruning=pruning, order=order, table=True)
                where = (board.moves_string(), order, depth, pruning)
                assert (on.move, on.value, on.stats.depth) == (off.move, off.value, off.stats.depth), where
                assert on.stats.nodes <= off.stats.nodes, where
                table = on.stats.table
                assert table is not None and table.hits <= table.probes, where
                assert table.cutoffs <= table.hits and (pruning or not table.cutoffs), where
                saved += off.stats.nodes - on.stats.nodes
    assert saved > 0  # the table saved something somewhere (depth 4 and more have transpositions)


def test_a_transposition_is_answered_from_the_table():
    """Depth 4 from the empty board without pruning: of the 343 ways to play three discs
    (4-3-3 and 3-3-4 give the same position), each position is searched once; the other
    orders are answered from the table, each saving its 7 leaves."""
    board = Board(STANDARD)
    positions_of_three = set()
    for a in range(7):
        for b in range(7):
            for c in range(7):
                three = Board.from_moves(f"{a + 1}{b + 1}{c + 1}")
                positions_of_three.add(three.grid.tobytes())
    distinct = len(positions_of_three)
    off = run(board, 4, pruning=False, iterative=False)
    on = run(board, 4, pruning=False, iterative=False, table=True)
    assert on.stats.table == TableStats(
        probes=7 + 49 + 343, hits=343 - distinct, stores=1 + 7 + 49 + distinct, cutoffs=0
    )
    assert off.stats.nodes - on.stats.nodes == (343 - distinct) * 7
    assert (on.value, on.move) == (off.value, off.move)


@pytest.mark.parametrize("pruning", [True, False])
def test_the_tree_marks_every_node_answered_from_the_table(pruning):
    board = positions(STANDARD, 1, seed=11)[0]
    depth = 6 if pruning else 4
    result = run(board, depth, pruning=pruning, table=True, record_tree=True)
    tree, table = result.tree, result.stats.table
    assert tree is not None and table is not None and tree.table
    assert tree.is_complete and len(tree) - 1 == result.stats.nodes
    marked = [node for node in tree.iter_nodes() if node.table_hit is not None]
    assert len(marked) == table.hits > 0
    assert sum(1 for node in marked if node.table_hit.is_cutoff) == table.cutoffs
    for node in marked:
        hit = node.table_hit
        assert node.leaf_reason is LeafReason.TABLE and not node.children()
        entry = tree.node(hit.entry)  # the node whose search stored it: the same position, searched
        assert entry.index < node.index and not entry.is_leaf
        assert (entry.board().grid == node.board().grid).all() and entry.path() != node.path()
        assert hit.depth == depth - node.ply
        if hit.bound is BoundKind.EXACT:
            assert node.value == entry.value
        elif hit.bound is BoundKind.LOWER:  # a table cutoff: the stored bound is outside the window
            assert node.value >= node.beta_in and node.bound is BoundKind.LOWER
        else:
            assert node.value <= node.alpha_in and node.bound is BoundKind.UPPER
    assert "entry of node" in format_tree(tree)


def test_a_search_without_the_table_marks_nothing():
    board = positions(STANDARD, 1, seed=11)[0]
    result = run(board, 5, record_tree=True)
    assert result.tree is not None and not result.tree.table and result.stats.table is None
    assert all(node.table_hit is None for node in result.tree.iter_nodes())


def test_the_worker_sends_the_table_hits_with_the_tree():
    """A level with the table: the window gets the answer's tree with every hit's entry."""
    from game.app.worker import AIWorker  # the window's worker: the road a shown tree takes
    from game.app.worker_protocol import JobResult, SearchJob, TreeReady
    from tests.test_worker import Owner, pump

    board = Board.from_moves("4453")
    worker = AIWorker(use_process=False)
    try:
        owner = Owner()
        worker.submit(SearchJob(board.grid.copy(), STANDARD, board.to_move, level=Level(6, table=True)), owner)
        pump(worker, lambda: worker.current is None and not worker.receiving)
        (answer,) = [e for e in owner.events if isinstance(e, JobResult)]
        (tree,) = [e.tree for e in owner.events if isinstance(e, TreeReady)]
        table = answer.answer.result.stats.table
        here = run(board, 6, table=True, record_tree=True).tree
        assert tree.table and table is not None and len(tree.table_hits) == table.hits > 0
        assert tree.table_hits == here.table_hits
    finally:
        worker.shutdown()
