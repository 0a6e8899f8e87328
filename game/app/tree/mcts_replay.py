"""MCTS replay, playout by playout: the tree as it stood at a step, and what the step did.

A replay step is one of the four phases of one playout (selection, expansion, the random
playout, back-up), so the playouts' ``4 * playouts`` steps walk the whole search.  The
tree at a step is worked out from the playouts the search kept (``ai.mcts.Playout``): a
node exists once the playout that expanded it has reached its expansion, and counts a
visit once a playout through it has reached its back-up.  No pygame here.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from ai.mcts import MctsTree, Playout
from game.rules import MAX


class Phase(enum.Enum):
    """The four steps of one playout, in order."""

    SELECTION = 0
    EXPANSION = 1
    PLAYOUT = 2
    BACKUP = 3


@dataclass(frozen=True)
class Step:
    """One replay step: the playout (0-based), its phase, and the playout itself."""

    number: int
    phase: Phase
    playout: Playout


class MctsReplay:
    """Steps through ``tree``'s playouts; ``visits_at`` says what the tree held then."""

    def __init__(self, tree: MctsTree):
        self.tree = tree
        self.step = 0  # 0 .. last_step
        self._cache: tuple[int, dict[int, int], dict[int, int]] | None = None

    @property
    def last_step(self) -> int:
        return max(0, 4 * self.tree.playouts - 1)

    def current(self) -> Step:
        number, phase = divmod(self.step, 4)
        return Step(number, Phase(phase), self.tree.playout(number))

    def move(self, steps: int) -> None:
        self.step = max(0, min(self.last_step, self.step + steps))

    def jump(self, *, start: bool) -> None:
        self.step = 0 if start else self.last_step

    def visits_at(self) -> dict[int, int]:
        """Every node that exists at this step, with its visits then (0: just expanded)."""
        return self._counted()[0]

    def mean_at(self, node: int) -> float | None:
        """``node``'s mean result at this step, for the side that moved into it (None: no visit yet)."""
        visits, points = self._counted()
        seen = visits.get(node, 0)
        return points.get(node, 0) / (2 * seen) if seen else None

    def ucb_at(self, node: int) -> float | None:
        """The UCB selection compared for ``node`` at this step (None: the root, or no visit yet)."""
        mean = self.mean_at(node)
        parent = self.tree.node(node).parent
        if mean is None or parent is None:
            return None
        visits = self.visits_at()
        return mean + self.tree.exploration * math.sqrt(math.log(visits[parent.index]) / visits[node])

    def _counted(self) -> tuple[dict[int, int], dict[int, int]]:
        """Visits and half points won (by the side that moved in) per node, at this step."""
        if self._cache is not None and self._cache[0] == self.step:
            return self._cache[1], self._cache[2]
        step = self.current()
        visits: dict[int, int] = {0: 0}
        points: dict[int, int] = {}
        for number in range(step.number + 1):
            playout = self.tree.playout(number)
            finished = number < step.number or step.phase is Phase.BACKUP
            if playout.expanded is not None and (number < step.number or step.phase is not Phase.SELECTION):
                visits.setdefault(playout.expanded, 0)
            if finished:
                for node in playout.path:
                    visits[node] = visits.get(node, 0) + 1
                    won = playout.result if self.tree.node(node).mover == MAX else 2 - playout.result
                    points[node] = points.get(node, 0) + won
        self._cache = (self.step, visits, points)
        return visits, points
