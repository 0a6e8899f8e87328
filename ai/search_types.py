"""What a play search is asked and what it hands back, shared by its two passes.

``ai.search`` (the Python passes, the reference) and ``ai.compiled.search_kernel`` (the
same passes compiled) both build these values, so they live here, below both: neither
imports the other for them.  ``ai.search`` re-exports every name for its callers.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from ai.tree import BoundKind, SearchTree

CHECK_EVERY = 4096
"""Nodes between two looks at the clock, the node budget and the stop request (both
passes look at the same nodes, so a budget stops them at the same node)."""


class MoveOrder(enum.Enum):
    """In what order a node tries its moves (alpha-beta prunes more the better it is)."""

    LEFT_TO_RIGHT = "left to right"
    """Columns (cells) in reading order: what a naive program does."""
    CENTRE_FIRST = "centre first"
    """Centre columns first: more lines pass through them, so they are often best."""
    BEST_FIRST = "best first"
    """The previous pass's best move first, then the killer move, then by static value."""


@dataclass(frozen=True)
class PassSettings:
    """How every pass of one search searches: what ``ai.search`` hands its Python passes
    and ``ai.compiled.search_kernel`` alike, so both read the same named fields."""

    pruning: bool  # alpha-beta cutoffs on, or the full tree
    order: MoveOrder  # how each node orders its moves
    noise: int  # leaf values blurred by up to this much (0: exact judgement)
    context_seed: int  # the noise's seed: the caller's seed mixed with the root position
    table: bool = False  # the transposition table: positions met again answered from it


class SearchCancelled(Exception):
    """The caller asked the search to stop; it has no answer."""


class OutOfTime(Exception):
    """The time or node budget ran out in the middle of a pass (the deeper passes stop;
    the deepest finished one answers)."""


@dataclass(frozen=True)
class TableStats:
    """What the transposition table did in a pass (``ai.search``, "The transposition table").

    ``probes``: positions looked up (every inner position below the root); ``hits``:
    positions answered from the table, their subtree not searched again; ``cutoffs``: the
    hits answered by a stored bound alone (the bound lay outside the window), the rest
    were exact values; ``stores``: results written.  ``hits <= probes`` always."""

    probes: int
    hits: int
    stores: int
    cutoffs: int

    def as_dict(self) -> dict[str, int]:
        """``{"probes", "hits", "stores", "cutoffs"}``: what ``analyze --json`` writes."""
        return {"probes": self.probes, "hits": self.hits, "stores": self.stores, "cutoffs": self.cutoffs}


@dataclass(frozen=True)
class SearchStats:
    """What a search cost.  ``nodes`` counts positions below the root of the last pass."""

    depth: int
    nodes: int
    leaves: int
    cutoffs: int
    seconds: float
    total_nodes: int  # all iterative-deepening passes together
    table: TableStats | None = None  # the last pass's transposition table; None when it was off

    @property
    def nodes_per_second(self) -> float:
        return self.total_nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class ColumnValue:
    """A root move's value; with pruning some are only bounds (``kind`` LOWER/UPPER)."""

    value: int
    kind: BoundKind = BoundKind.EXACT


@dataclass(frozen=True)
class SearchResult:
    """The answer of ``ai.search.search``: the move, its value and how it was found."""

    move: int | None
    value: int
    principal_variation: tuple[int, ...]
    move_values: dict[int, ColumnValue]
    stats: SearchStats
    pruning: bool
    completed: bool = True  # False when a time budget stopped a deeper pass
    tree: SearchTree | None = field(default=None, repr=False, compare=False)
    proven: bool = False  # a forced win or loss inside the horizon ended the deepening early

    @property
    def depth(self) -> int:
        return self.stats.depth


@dataclass(frozen=True)
class SearchProgress:
    """A report during a search: a pass finished, or a periodic node count."""

    depth: int  # the pass under way (or just finished)
    completed_depth: int  # the deepest finished pass, 0 if none
    nodes: int  # nodes so far, all passes
    move: int | None  # the best move of the deepest finished pass
    value: int | None
    seconds: float


ProgressCallback = Callable[[SearchProgress], None]
