"""The minimax / alpha-beta search: values, tactics, pruning, tree, cancellation."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from ai.search import EXACT, LOWER, SearchCancelled, search
from ai.textbook import textbook_search
from ai.tree import LeafReason, format_tree
from ai.values import WIN
from game.board import Board
from game.rules import DIRECTIONS, MAX, MIN, Mode, Rules, runs_through
from tests.helpers import ALL_VARIANTS, CLASSIC_VARIANTS, random_board, variant_id

# A 4x4, connect-3, full-board position with three cells left: every leaf is a final
# score (1000 per point of difference), so the whole tree can be checked by hand.
#   . . . X      O to move (6 discs against 7); O already has 2 runs of three.
#   X O O X      O in col 2 -> X: col 1 gives -3000, col 3 gives -4000 -> X takes -3000.
#   X O X O      O in col 1 -> X in col 2 ends at -2000: already >= beta (-3000), so
#   O O X X      X's other move (col 3) is pruned; the same for O in col 3.
HAND_GRID = [[0, 0, 0, 1], [1, -1, -1, 1], [1, -1, 1, -1], [-1, -1, 1, 1]]
HAND_RULES = Rules(rows=4, cols=4, connect=3, mode=Mode.FULL_BOARD)


def test_hand_made_tree_has_the_known_values_and_cutoffs():
    grid = np.array(HAND_GRID, dtype=np.int8)
    full = search(grid, HAND_RULES, 3, pruning=False, record_tree=True, to_move=MIN)
    pruned = search(grid, HAND_RULES, 3, pruning=True, record_tree=True, to_move=MIN, iterative=False)
    for result in (full, pruned):
        assert result.value == -3000
        assert result.move == 1
        assert result.principal_variation == (1, 0, 2)
    assert full.stats.nodes == 3 + 6 + 6
    assert pruned.stats.nodes == 3 + 4 + 4
    assert full.move_values == {0: full.move_values[0], 1: full.move_values[1], 2: full.move_values[2]}
    assert {m: v.value for m, v in full.move_values.items()} == {0: -2000, 1: -3000, 2: -2000}
    # With pruning, the second and third root moves are only known to be >= -2000.
    assert pruned.move_values[1].kind == EXACT
    assert pruned.move_values[0] == pruned.move_values[2]
    assert pruned.move_values[0].kind == LOWER and pruned.move_values[0].value == -2000

    root = pruned.tree.root
    assert [c.move for c in root.children()] == [1, 0, 2]
    left, middle, right = root.children()
    assert [g.value for g in left.children()] == [-4000, -3000]
    assert middle.pruned_moves() == [2] and right.pruned_moves() == [0]
    assert middle.cutoff_reason() == "value 2000 >= beta -3000: 1 move not searched".replace("2000", "-2000", 1)
    leaves = [n for n in pruned.tree.iter_nodes() if n.is_leaf]
    assert all(n.leaf_reason is LeafReason.FULL for n in leaves)
    assert [n.move for n in pruned.tree.principal_variation()] == [1, 0, 2]


def _positions_for(rules: Rules, depth: int, rng: random.Random, count: int, max_tree: int):
    """Random positions of ``rules`` whose full tree to ``depth`` stays small."""
    found = 0
    for _ in range(count * 40):
        board = random_board(rules, rng, rng.randrange(0, rules.cells))
        if board.is_game_over():
            continue
        if len(board.legal_moves()) ** depth > max_tree:
            continue
        found += 1
        yield board
        if found == count:
            return


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=variant_id)
def test_pruning_on_and_off_give_the_same_value(rules, rng):
    checked = 0
    for depth in range(1, 7):
        for board in _positions_for(rules, depth, rng, count=6, max_tree=12_000):
            on = search(board.grid, rules, depth, pruning=True, to_move=board.to_move)
            off = search(board.grid, rules, depth, pruning=False, to_move=board.to_move)
            assert on.value == off.value, (board.moves_string(), depth)
            assert on.stats.nodes <= off.stats.nodes
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=variant_id)
def test_search_agrees_with_the_textbook_minimax(rules, rng):
    for depth in (1, 2, 3):
        for board in _positions_for(rules, depth, rng, count=4, max_tree=1500):
            expected = textbook_search(board, depth, pruning=False).value
            result = search(board.grid, rules, depth, pruning=False, to_move=board.to_move)
            assert result.value == expected, (board.moves_string(), depth)
            move_value = result.move_values[result.move].value
            assert move_value == expected


def _direction_of(board: Board, cell) -> tuple[int, int] | None:
    runs = runs_through(board.grid, cell, board.rules.connect)
    if not runs:
        return None
    run = sorted(runs[0])
    return (run[1][0] - run[0][0], run[1][1] - run[0][1])


def _tactical_positions(rules: Rules, rng: random.Random):
    """Positions where the side to move can win at once, by line direction and side.

    Returns {(direction, side): board}; the direction is that of the winning line.
    """
    found: dict = {}
    wanted = {(d, s) for d in DIRECTIONS for s in (MAX, MIN)}
    normal = {(1, -1): (-1, 1)}
    for _ in range(3000):
        board = random_board(rules, rng, rng.randrange(rules.connect * 2 - 2, rules.cells - 1))
        if board.is_game_over():
            continue
        for move in board.legal_moves():
            side = board.to_move
            cell = board.push(move)
            direction = _direction_of(board, cell)
            board.pop()
            if direction is None:
                continue
            direction = normal.get(direction, direction)
            key = (direction, side)
            if key in wanted and key not in found:
                found[key] = board.copy()
        if len(found) == len(wanted):
            break
    return found


def _winning_moves(board: Board) -> set[int]:
    wins = set()
    for move in board.legal_moves():
        board.push(move)
        if board.outcome() is not None and board.outcome().winner is not None:
            wins.add(move)
        board.pop()
    return wins


@pytest.mark.parametrize("rules", CLASSIC_VARIANTS, ids=variant_id)
def test_takes_an_immediate_win_at_every_depth(rules, rng):
    positions = _tactical_positions(rules, rng)
    # rows, columns and both diagonals, for both sides (where the board allows them)
    directions = {d for d, _ in positions}
    assert {(0, 1), (1, 0), (1, 1), (-1, 1)} <= directions
    assert {s for _, s in positions} == {MAX, MIN}
    for board in positions.values():
        wins = _winning_moves(board)
        for depth in range(1, 6):
            for pruning in (True, False) if depth <= 3 else (True,):
                result = search(board.grid, rules, depth, pruning=pruning, to_move=board.to_move)
                assert result.move in wins, (board.moves_string(), depth, pruning)
                assert result.value == board.to_move * (WIN - 1)  # the quickest win


def _block_positions(rules: Rules, rng: random.Random):
    """Positions where the side to move cannot win at once but must stop one threat.

    Returns {(direction of the threatened line, side to move): (board, blocking move)}.
    """
    found: dict = {}
    wanted = {(d, s) for d in DIRECTIONS for s in (MAX, MIN)}
    normal = {(1, -1): (-1, 1)}
    for _ in range(4000):
        board = random_board(rules, rng, rng.randrange(rules.connect * 2 - 2, rules.cells - 1))
        if board.is_game_over() or _winning_moves(board):
            continue
        opponent = Board(rules, board.grid, -board.to_move)
        threats = _winning_moves(opponent)
        if len(threats) != 1:
            continue
        (block,) = threats
        board.push(block)
        lost_anyway = bool(_winning_moves(board))  # the cell above the block is a threat too
        board.pop()
        if lost_anyway:
            continue
        cell = opponent.push(block)
        direction = normal.get(_direction_of(opponent, cell), _direction_of(opponent, cell))
        key = (direction, board.to_move)
        if key in wanted and key not in found:
            found[key] = (board, block)
        if len(found) == len(wanted):
            break
    return found


@pytest.mark.parametrize("rules", CLASSIC_VARIANTS, ids=variant_id)
def test_blocks_an_immediate_loss_at_depth_two_and_more(rules, rng):
    positions = _block_positions(rules, rng)
    assert {(0, 1), (1, 0), (1, 1), (-1, 1)} <= {d for d, _ in positions}
    assert {s for _, s in positions} == {MAX, MIN}
    for (direction, side), (board, block) in positions.items():
        for depth in range(2, 6):
            result = search(board.grid, rules, depth, to_move=board.to_move)
            assert result.move == block, (board.moves_string(), direction, side, depth)


def test_prefers_the_quicker_of_two_wins():
    # X can win at once in column 4 (vertical) or later elsewhere: it must win now.
    board = Board.from_moves("4142434")
    assert board.to_move == MIN
    board = Board.from_moves("414243")
    result = search(board.grid, board.rules, 6, to_move=board.to_move)
    assert result.move == 3 and result.value == WIN - 1
    assert result.principal_variation == (3,)


def test_delays_a_forced_loss():
    # . . . . . . .   O to move.  X threatens the diagonal at column 2; blocking it
    # . . . . . . .   only delays the loss (X wins two moves later), but a loss in four
    # X . . . . . O   plies beats a loss in two: O must block.
    # X . . . . X X
    # O O X O X O O
    # O X X X O O X
    board = Board.from_moves("2131354277761714566")
    for depth in (4, 6):
        result = search(board.grid, board.rules, depth, to_move=board.to_move)
        assert result.move == 1
        assert result.value == WIN - 4
        assert result.move_values[0].value >= WIN - 2 or result.move_values[0].kind != "exact"


def test_same_position_same_move():
    board = Board.from_moves("4453")
    first = search(board.grid, board.rules, 7, to_move=board.to_move)
    second = search(board.grid, board.rules, 7, to_move=board.to_move)
    assert first.move == second.move and first.value == second.value
    assert first.principal_variation == second.principal_variation


def test_should_stop_cancels_the_search():
    board = Board()
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 3

    with pytest.raises(SearchCancelled):
        search(board.grid, board.rules, 12, should_stop=stop)


def test_cancel_from_another_thread():
    board = Board()
    stop = threading.Event()
    outcome = {}
    started = threading.Event()

    def run():
        try:
            search(board.grid, board.rules, 14, should_stop=stop.is_set, on_progress=lambda p: started.set())
            outcome["result"] = "finished"
        except SearchCancelled:
            outcome["result"] = "cancelled"

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(30)
    stop.set()
    worker.join(30)
    assert not worker.is_alive()
    assert outcome["result"] == "cancelled"


def test_time_limit_returns_the_deepest_finished_pass():
    board = Board()
    progress = []
    result = search(board.grid, board.rules, 30, time_limit=0.3, on_progress=progress.append)
    assert not result.completed
    assert 1 <= result.depth < 30
    assert result.move in board.legal_moves()
    finished = [p.completed_depth for p in progress if p.completed_depth == p.depth]
    assert finished[: result.depth] == list(range(1, result.depth + 1))


def test_game_over_position_returns_no_move():
    board = Board.from_moves("1212121")
    result = search(board.grid, board.rules, 3)
    assert result.move is None and result.value == WIN


@pytest.mark.parametrize("pruning", [True, False])
def test_recorded_tree_matches_the_search(pruning):
    board = Board.from_moves("44435")
    result = search(board.grid, board.rules, 5, pruning=pruning, record_tree=True, to_move=board.to_move)
    tree = result.tree
    assert tree.is_complete
    assert len(tree) == result.stats.nodes + 1
    assert tree.root.value == result.value
    assert [n.move for n in tree.principal_variation()][:1] == [result.move]
    assert sum(1 for n in tree.iter_nodes() if n.is_leaf) == result.stats.leaves
    pruned_total = sum(n.pruned_count for n in tree.iter_nodes())
    assert (pruned_total > 0) == pruning
    # A cutoff is a window closing (alpha >= beta); on the last move it prunes nothing.
    closed = [n for n in tree.iter_nodes() if not n.is_leaf and n.alpha_out >= n.beta_out]
    assert result.stats.cutoffs == (len(closed) if pruning else 0)
    assert all(n in closed for n in tree.iter_nodes() if n.pruned_count)
    assert tree.nodes_per_ply()[0] == 1 and sum(tree.nodes_per_ply()) == len(tree)
    for node in tree.iter_nodes():
        children = node.children()
        if node.is_leaf:
            assert not children
            continue
        values = [c.value for c in children]
        assert node.value == (max(values) if node.is_max else min(values))
        assert all(c.is_max != node.is_max and c.ply == node.ply + 1 for c in children)
        assert node.subtree_size == 1 + sum(c.subtree_size for c in children)
        if pruning:
            assert node.alpha_in < node.beta_in
            # each child is searched with the window as it stood when it was entered
            alpha, beta = node.alpha_in, node.beta_in
            for child in children:
                assert (child.alpha_in, child.beta_in) == (alpha, beta)
                if node.is_max:
                    alpha = max(alpha, child.value)
                else:
                    beta = min(beta, child.value)
            assert (node.alpha_out, node.beta_out) == (alpha, beta)
            if node.pruned_count:
                assert alpha >= beta
                assert node.cutoff_reason().endswith("not searched")
    text = format_tree(tree, max_depth=2)
    assert text.splitlines()[0].startswith(f"root {tree.root.side_name} value=")
    assert tree.root.side_name == "MIN"  # five discs played: O to move
    assert ("cutoff" in text) == pruning


def test_tree_budget_counts_what_it_does_not_store():
    board = Board()
    result = search(board.grid, board.rules, 6, pruning=False, record_tree=True, tree_budget=5000)
    tree = result.tree
    assert len(tree) == 5000
    assert not tree.is_complete
    assert tree.counted == result.stats.nodes + 1 == 137_257
    assert tree.root.unstored == 137_257 - 5000
    assert "counted, not stored" in format_tree(tree, max_depth=1)


def test_tree_stays_compact():
    board = Board()
    result = search(board.grid, board.rules, 6, pruning=False, record_tree=True)
    assert result.tree.nbytes() / len(result.tree) <= 100


def test_depth_six_without_pruning_visits_the_whole_tree():
    result = search(Board().grid, Rules(), 6, pruning=False)
    assert result.stats.nodes == 7 + 7**2 + 7**3 + 7**4 + 7**5 + 7**6 == 137_256
    assert result.stats.cutoffs == 0


def test_every_variant_plays_a_whole_game_against_itself(rng):
    for rules in ALL_VARIANTS:
        board = Board(rules)
        while not board.is_game_over():
            result = search(board.grid, rules, 2, to_move=board.to_move)
            assert result.move in board.legal_moves()
            board.push(result.move)
        outcome = board.outcome()
        assert outcome is not None
        if rules.mode is Mode.FULL_BOARD:
            assert board.is_full()


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=variant_id)
def test_bitboards_round_trip_the_grid(rules, rng):
    from ai.bitboard import geometry

    board = random_board(rules, rng, rules.cells // 2)
    geo = geometry(rules)
    first, second = geo.from_grid(board.grid)
    assert np.array_equal(geo.to_grid(first, second), board.grid)
    assert (first | second) & ~geo.board_mask == 0
