"""The table "depth against truth" fills (``ai.depth_truth`` measures it): per depth, how
many positions kept their exact outcome and what the search cost.  Data only, so the
window can draw a table its worker measured.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_DEPTH = 12
"""The deepest search measured."""
SAMPLE = 12
"""Benchmark positions in the chart by default."""


@dataclass(frozen=True)
class DepthRow:
    """One depth over the positions: how many kept the outcome of how many judged, mean nodes."""

    depth: int
    kept: int
    judged: int
    pruned_nodes: float | None  # mean over the positions searched to this depth (all passes)
    full_nodes: float | None  # None: over the cap (not run)

    @property
    def share(self) -> float | None:
        return self.kept / self.judged if self.judged else None


@dataclass(frozen=True)
class DepthTruth:
    label: str
    positions: int
    rows: tuple[DepthRow, ...]
    note: str = ""


def outcome_sign(score: int) -> int:
    """1, 0 or -1: the outcome an exact score states (a win, a draw, a loss)."""
    return (score > 0) - (score < 0)
