"""Computer levels: search depth, pruning and time budget, and how to explain them."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules import Rules

MIN_DEPTH, MAX_DEPTH = 1, 12
TIME_BUDGETS = (0.0, 0.5, 1.0, 2.0, 5.0, 10.0)
"""Seconds per move offered in the level select; 0 means no limit."""


@dataclass(frozen=True)
class Level:
    """How the computer searches: plies ahead, alpha-beta on/off, seconds per move."""

    depth: int = 4
    pruning: bool = True
    time_budget: float = 0.0  # 0: no limit

    @property
    def time_limit(self) -> float | None:
        return self.time_budget or None


PRESETS: dict[str, Level] = {
    "Easy": Level(2),
    "Medium": Level(4),
    "Hard": Level(6),
    "Expert": Level(8, time_budget=5.0),
}


def preset_name(level: Level) -> str | None:
    """Return the name of the preset equal to ``level``, if any."""
    for name, preset in PRESETS.items():
        if preset == level:
            return name
    return None


def worst_case_positions(rules: Rules, depth: int) -> int:
    """Positions a full minimax to ``depth`` visits from the empty board, at most.

    Under gravity every column stays open for the first ``rows`` plies, so it is
    ``b + b^2 + ... + b^depth`` with b = columns; without gravity each ply has one cell
    fewer: ``n + n(n-1) + ...``.
    """
    total, level = 0, 1
    for ply in range(depth):
        choices = rules.cols if rules.gravity else rules.cells - ply
        if choices <= 0:
            break
        level *= choices
        total += level
    return total


def describe(level: Level, rules: Rules) -> list[str]:
    """Sentences for the level select: what the setting means and what it costs."""
    depth = level.depth
    worst = worst_case_positions(rules, depth)
    plies = "move" if depth == 1 else "moves"
    lines = [f"The computer looks {depth} {plies} ahead (its own and yours), then judges the position."]
    if level.pruning:
        lines.append(
            f"Alpha-beta pruning skips branches that cannot change the choice: same move, "
            f"far fewer than the {worst:,} positions of the full tree."
        )
    else:
        lines.append(f"Depth {depth} without pruning: up to {worst:,} positions, every one visited.")
    if level.time_budget:
        lines.append(
            f"Time budget {level.time_budget:g} s: it deepens step by step and plays the deepest "
            f"search that finished in time."
        )
    else:
        lines.append("No time budget: it always finishes the full depth.")
    return lines
