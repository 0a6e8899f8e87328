"""The compiled playouts (``ai.compiled.mcts_kernel``) grow ``ai.mcts``'s Python tree, node for node.

The same seed must grow the same tree compiled and in Python: every node's parent, move,
visits, score, result and proof, and every playout's path, result and random moves, on
every kind of board the kernel takes, with and without MCTS-Solver and with either
playout policy.  Both draw from one generator (Marsaglia's xorshift128, checked against
its published sequence) and one logarithm made of basic arithmetic.  MCTS-Solver proves
the exact result of at least 90 % of endgame positions (at most 14 empty cells) within
200,000 playouts, and never a wrong one: the exact solver referees.
"""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

import pytest

from ai.compiled import mcts_kernel
from ai.compiled.kernel_file import PURE_PYTHON_ENV
from ai.compiled.mcts_kernel import rng_below, rng_next, seed_words, uct_log
from ai.mcts import PlayoutPolicy, Proved, mcts
from ai.solver import Solver
from game.board import Board
from game.rules import Mode, Rules
from tests.helpers import random_board

ENDGAMES = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions" / "Test_L3_R1"
RULES = {
    "6x7": Rules(),
    "7x8": Rules(rows=7, cols=8),
    "7x8-k5": Rules(rows=7, cols=8, connect=5),
    "5x5-k3": Rules(rows=5, cols=5, connect=3),
    "5x6-no-gravity": Rules(rows=5, cols=6, gravity=False),
    "6x7-full-board": Rules(mode=Mode.FULL_BOARD),
}
SWITCHES = [(False, PlayoutPolicy.RANDOM), (True, PlayoutPolicy.RANDOM), (True, PlayoutPolicy.TACTICAL)]


@pytest.fixture(scope="module", autouse=True)
def compiled():
    """The compiled playouts, loaded (or built) for this process."""
    saved = os.environ.pop(PURE_PYTHON_ENV, None)
    try:
        assert mcts_kernel.LOADER.prepare(), mcts_kernel.LOADER.status()
        yield
    finally:
        if saved is not None:
            os.environ[PURE_PYTHON_ENV] = saved


def both(board: Board, playouts: int, **options):
    """(compiled, Python) searches of ``board`` with the same seed and switches."""
    fast = mcts(board.grid, board.rules, playouts, to_move=board.to_move, **options)
    slow = mcts(board.grid, board.rules, playouts, to_move=board.to_move, compiled=False, **options)
    assert fast.compiled and not slow.compiled
    return fast, slow


def test_the_generator_is_marsaglias_xorshift128():
    words = [123456789, 362436069, 521288629, 88675123]  # the paper's starting words
    assert [rng_next(words, 0) for _ in range(4)] == [3701687786, 458299110, 2500872618, 3633119408]
    words = seed_words(7)
    draws = [rng_below(words, 0, 7) for _ in range(7000)]
    assert all(0 <= draw < 7 for draw in draws) and all(800 < draws.count(k) < 1200 for k in range(7))
    assert seed_words(7) != seed_words(8) and seed_words(-1) == seed_words(2**64 - 1)


def test_the_logarithm_of_ucb_is_the_natural_logarithm():
    for n in [*range(1, 5000), 65_535, 65_536, 1_000_000, 2**40 + 3]:
        assert uct_log(n) == pytest.approx(math.log(n), abs=1e-14)


@pytest.mark.parametrize("name", RULES)
@pytest.mark.parametrize("solver, policy", SWITCHES, ids=["plain", "solver", "solver-tactical"])
def test_the_kernel_grows_the_python_trees_node_for_node(name, solver, policy):
    rules = RULES[name]
    rng = random.Random(f"{name}-{solver}-{policy}")
    for plies in (0, rules.cells // 2):
        board = random_board(rules, rng, plies)
        fast, slow = both(board, 600, seed=rng.randrange(10**6), solver=solver, policy=policy)
        assert fast.tree.same_as(slow.tree) and len(fast.tree) > 1
        assert (fast.move, fast.playouts, fast.proved) == (slow.move, slow.playouts, slow.proved)
        assert fast.tree.playout(fast.playouts - 1) == slow.tree.playout(slow.playouts - 1)


def test_a_search_too_big_to_keep_its_moves_keeps_its_paths_and_results_alike():
    board = Board.from_moves("4453")
    fast, slow = both(board, 900, seed=3, keep_moves=False)
    assert fast.tree.same_as(slow.tree) and not fast.tree.moves_kept
    playout = fast.tree.playout(10)
    assert playout.moves == () and playout.path[0] == 0


def test_solver_proves_the_exact_result_of_endgames_and_never_a_wrong_one():
    """A seeded sample of the benchmark's endgames (1-14 empty cells), refereed by the exact solver."""
    lines = ENDGAMES.read_text().split("\n")
    sample = random.Random(50).sample([line.split()[0] for line in lines if line.strip()], 80)
    solver = Solver(Rules())
    right = 0
    for moves in sample:
        board = Board.from_moves(moves)
        assert board.rules.cells - board.ply <= 14
        score = solver.solve_moves(board.moves).score
        truth = Proved.WIN if score > 0 else Proved.LOSS if score < 0 else Proved.DRAW
        found = mcts(board.grid, board.rules, 200_000, to_move=board.to_move, seed=0, solver=True)
        assert found.proved in (truth, None), moves  # never a wrong one
        if found.proved is truth:
            right += 1
            assert found.completed and found.playouts <= 200_000
            chosen = next(child for child in found.root_children if child.move == found.move)
            assert chosen.proved_for(board.to_move) is truth  # the move keeps what was proved
    assert right >= 0.9 * len(sample)


def test_every_node_the_solver_proves_is_what_the_exact_solver_says():
    solver = Solver(Rules())
    for moves in ("52677675164321472411331752454", "12156756715535615116237724723"):
        board = Board.from_moves(moves)
        found = mcts(board.grid, board.rules, 20_000, to_move=board.to_move, seed=1, solver=True)
        checked = 0
        for node in found.tree.iter_nodes():
            if node.ply > 3 or node.proof is None or node.game_over is not None:
                continue
            score = solver.solve_moves(board.moves + node.path()).score
            exact = Proved.WIN if score > 0 else Proved.LOSS if score < 0 else Proved.DRAW
            assert node.proved_for(node.to_move) is exact, node.path()
            checked += 1
        assert checked >= 5


def test_the_python_solver_proves_as_the_kernel_does():
    board = Board.from_moves("2252576253462244111563365343671351441")
    fast, slow = both(board, 5000, seed=2, solver=True)
    assert fast.tree.same_as(slow.tree)
    assert slow.proved is Proved.LOSS and fast.playouts == slow.playouts < 5000


def test_plain_mcts_proves_nothing_and_plays_the_most_visited_move():
    board = Board.from_moves("2252576253462244111563365343671351441")
    found = mcts(board.grid, board.rules, 3000, to_move=board.to_move, seed=2)
    assert found.proved is None and found.playouts == 3000
    assert found.move == found.tree.root.most_visited_child().move


def wins_now(board: Board) -> set[int]:
    """The moves that win at once for the side to move."""
    found = set()
    for move in board.legal_moves():
        board.push(move)
        if board.outcome() is not None and board.outcome().winner is not None:
            found.add(move)
        board.pop()
    return found


def test_tactical_playouts_win_at_once_else_block_else_play_at_random():
    start = Board.from_moves("4453")
    found = mcts(start.grid, start.rules, 300, to_move=start.to_move, seed=4, policy=PlayoutPolicy.TACTICAL)
    blocked = 0
    for number in range(found.playouts):
        playout = found.tree.playout(number)
        board = start.copy()
        for move in found.tree.node(playout.path[-1]).path():
            board.push(move)
        for move in playout.moves:
            mine = wins_now(board)
            board.to_move = -board.to_move  # the opponent's wins at once, were it to move
            theirs = wins_now(board)
            board.to_move = -board.to_move
            if mine:
                assert move in mine
            elif theirs:
                assert move in theirs
                blocked += 1
            board.push(move)
    assert blocked > 0
