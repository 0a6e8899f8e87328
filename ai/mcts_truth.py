"""MCTS against the truth: how often does Monte Carlo tree search keep the exact outcome?

For each position and each budget of playouts, MCTS chooses a column twice, plain (UCT as
the textbook has it) and as MCTS-Solver, with the same seed; the exact solver
(``ai.depth_truth.exact_outcome``, the hints' budget of solver positions) says whether that
column keeps the position's game-theoretic outcome (a win stays a win, a draw a draw).
Beside it: how many positions the solver proved within the budget.  Seeded and counted in
work (playouts), so two runs give the same table on every machine.  ``should_stop`` is
polled between (and during) the searches; the table it fills is ``ai.mcts_table``'s.  No
pygame here: ``game.app.mcts_chart`` draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ai.depth_truth import exact_outcome
from ai.mcts import mcts
from ai.mcts_table import BUDGETS, VARIANTS, MctsTruth, PositionTruth
from ai.perfect import PerfectPlayer
from game.board import Board


def mcts_truth(
    boards: Sequence[tuple[str, Board]],
    budgets: Sequence[int] = BUDGETS,
    *,
    seed: int = 0,
    should_stop: Callable[[], bool] = lambda: False,
    on_step: Callable[[int, int], None] | None = None,
    player: PerfectPlayer | None = None,
) -> MctsTruth:
    """Measure each (label, board) at each budget (see the module docstring).

    ``on_step(done, total)`` is told before each search; ``player`` is the exact solver to
    ask (a new one by default; the AI worker passes its own).

    Raises:
        SearchCancelled: ``should_stop`` returned True.
    """
    player = player or PerfectPlayer()
    total, done = len(boards) * len(budgets) * len(VARIANTS), 0
    positions = []
    for label, board in boards:
        exact, why = exact_outcome(player, board, should_stop)
        chosen: dict[str, dict[int, int | None]] = {variant: {} for variant in VARIANTS}
        proved: dict[int, str | None] = {}
        for budget in budgets:
            for variant in VARIANTS:
                if on_step is not None:
                    on_step(done, total)
                done += 1
                found = mcts(
                    board.grid,
                    board.rules,
                    budget,
                    to_move=board.to_move,
                    seed=seed,
                    solver=variant == "solver",
                    keep_moves=False,
                    should_stop=should_stop,
                )
                chosen[variant][budget] = found.move
                if variant == "solver":
                    proved[budget] = None if found.proved is None else found.proved.value
        positions.append(PositionTruth(label, board, exact, why, chosen, proved))
    return MctsTruth(seed, tuple(budgets), tuple(positions))
