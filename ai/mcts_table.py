"""The table "MCTS against the truth" fills (``ai.mcts_truth`` measures it): per position the
column each search chose at each budget and the exact verdict, per budget the shares.
Data only, so the window can draw a table its worker measured (and ``--json`` print it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ai.depth_table import outcome_sign
from game.board import Board
from game.notation import format_move

BUDGETS = (100, 1_000, 10_000, 100_000)
"""Playouts charted by default: a decade apart, the largest the budget of a strong level."""
VARIANTS = ("plain", "solver")
"""The two searches charted: UCT as the textbook has it, and MCTS-Solver."""


@dataclass(frozen=True)
class PositionTruth:
    """One position: its label, the exact score of every column (None where the solver did
    not prove them, ``why`` then says why), and the column each variant chose at each
    budget (``chosen[variant][budget]``), with what the solver variant proved there."""

    label: str
    board: Board
    exact: dict[int, int] | None
    why: str
    chosen: dict[str, dict[int, int | None]]
    proved: dict[int, str | None]

    def keeps(self, move: int | None) -> bool | None:
        """Whether ``move`` keeps the exact outcome (None: no exact outcome, or no move)."""
        if self.exact is None or move is None:
            return None
        return outcome_sign(self.exact[move]) == outcome_sign(max(self.exact.values()))

    @property
    def keeping(self) -> list[int]:
        """The columns that keep the exact outcome (none where it is not known)."""
        return [move for move in sorted(self.exact or {}) if self.keeps(move)]


@dataclass(frozen=True)
class BudgetRow:
    """One budget over the positions: how many each variant kept of those judged, and how
    many positions MCTS-Solver proved."""

    playouts: int
    kept: dict[str, int]
    judged: int
    proved: int

    def share(self, variant: str) -> float | None:
        return self.kept[variant] / self.judged if self.judged else None


@dataclass(frozen=True)
class MctsTruth:
    """The measure over all positions: a row per budget, and each position's choices."""

    seed: int
    budgets: tuple[int, ...]
    positions: tuple[PositionTruth, ...]

    @property
    def rows(self) -> tuple[BudgetRow, ...]:
        rows = []
        for budget in self.budgets:
            judged = [p for p in self.positions if p.exact is not None]
            kept = {variant: sum(bool(p.keeps(p.chosen[variant][budget])) for p in judged) for variant in VARIANTS}
            proved = sum(p.proved[budget] is not None for p in self.positions)
            rows.append(BudgetRow(budget, kept, len(judged), proved))
        return tuple(rows)

    @property
    def note(self) -> str:
        """Why some positions are not judged ("" when every one is)."""
        return "; ".join(sorted({p.why for p in self.positions if p.why}))


def truth_json(truth: MctsTruth) -> dict[str, Any]:
    """The measure as plain data: every position's chosen column at every budget, with the
    exact verdict of each, and the shares per budget."""
    positions = []
    for position in truth.positions:
        rules = position.board.rules

        def column(move: int | None, rules: Any = rules) -> str | None:
            return None if move is None else format_move(move, rules)

        positions.append(
            {
                "source": position.label,
                "moves": position.board.moves_string(),
                "exact": None
                if position.exact is None
                else {column(move): score for move, score in sorted(position.exact.items())},
                "keeping": [column(move) for move in position.keeping],
                "why_not_judged": position.why or None,
                **{
                    variant: {
                        str(budget): {"move": column(move), "keeps": position.keeps(move)}
                        for budget, move in position.chosen[variant].items()
                    }
                    for variant in VARIANTS
                },
                "proved": {str(budget): proved for budget, proved in position.proved.items()},
            }
        )
    return {
        "seed": truth.seed,
        "budgets": list(truth.budgets),
        "rows": [
            {
                "playouts": row.playouts,
                "judged": row.judged,
                **{f"{variant}_kept": row.kept[variant] for variant in VARIANTS},
                "solver_proved": row.proved,
            }
            for row in truth.rows
        ],
        "positions": positions,
    }
