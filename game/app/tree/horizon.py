"""The horizon in the detail panel: what perfect play says about the selected node.

One try of the exact solver per (tree, node), on the frame after the selection settles
(so a jump's frame and the solver's never add up), within a frame's budget; the answers
are kept.  The wording is ``text.exact_verdict``'s.
"""

from __future__ import annotations

import logging
import time

from ai.solver import Solver, SolverError, SolverStopped
from ai.tree import LeafReason, Node, SearchTree
from game.app.tree.text import exact_verdict
from game.rules import Mode

log = logging.getLogger(__name__)

HORIZON_SECONDS = 0.012
"""Time the exact solver may take in one frame for the selected node (it looks at the
clock every ~15 ms, so a frame stays under ~30 ms)."""


class Horizon:
    """The exact verdicts found so far, and the solver that finds them."""

    def __init__(self, seconds: float = HORIZON_SECONDS):
        self.seconds = seconds
        self.known: dict[tuple[int, int], str | None] = {}  # per (tree, node): the verdict, None: none applies
        self._solver: Solver | None = None
        self._no_solver = False  # the solver cannot be built for these rules: say nothing
        self._settled: tuple[int, int] | None = None  # the (tree, node) selected last frame

    def get(self, tree: SearchTree, index: int) -> str | None:
        return self.known.get((id(tree), index))

    def is_due(self, tree: SearchTree, index: int) -> bool:
        """Tell whether ``index`` still waits for its try (the scene needs frames)."""
        return (id(tree), index) not in self.known

    def settle(self, tree: SearchTree, index: int) -> None:
        """Called each still frame with the selected node: try it once it stayed selected."""
        key = (id(tree), index)
        if key not in self.known and key == self._settled:
            self.known[key] = self.text(tree.node(index))
        self._settled = key

    def text(self, node: Node) -> str | None:
        """Compare the node's depth-limited value with the exact one, if the solver finds
        it within ``seconds``; None where it does not apply."""
        rules = node.tree.rules
        if rules.mode is not Mode.CLASSIC or not rules.gravity or node.leaf_reason in (LeafReason.WIN, LeafReason.FULL):
            return None
        if self._no_solver:
            return None
        if self._solver is None:
            # Without the opening book: a book look-up does not poll the clock, and the
            # solver must stop within the frame's budget.
            try:
                self._solver = Solver(rules, use_book=False)
            except (SolverError, OverflowError, ValueError, MemoryError) as error:
                # A solver that cannot be built (it once overflowed on boards past 64
                # bits, 7x9 and up): the panel then has no horizon line, the window lives.
                log.info("no exact solver for %s: %s", rules.describe(), error)
                self._no_solver = True
                return None
        board = node.board()
        deadline = time.perf_counter() + self.seconds
        try:
            solution = self._solver.solve_grid(
                board.grid, board.to_move, should_stop=lambda: time.perf_counter() > deadline
            )
        except SolverStopped:
            return f"Perfect play: not known within {self.seconds * 1000:.0f} ms"
        except SolverError:
            return None
        return exact_verdict(node, board, solution.score)
