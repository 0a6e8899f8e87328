"""What a search costs before it runs: tree sizes and one measured speed, in one place.

The level select, the play screen's progress line and the command line all estimate a
search's work here, so they quote the same numbers.  A level itself is defined by work
(depth, nodes), never by these estimates or by wall time.
"""

from __future__ import annotations

from game.i18n import _
from game.rules import Rules

NODES_PER_SECOND = 750_000
"""Positions a second the Python search visits without pruning on one core (measured with
``python -m lab.bench``: depth 6 from the empty 6x7 board, 137,257 nodes in 0.175 s on a
2-core AMD EPYC).  Only turns a node count into a rough time."""
PRUNED_OVER_MINIMAL = 3
"""Alpha-beta with best-first order visits about this many times the Knuth-Moore minimal
tree (measured from 4453 and the empty board at depths 8-14, all passes counted)."""


def full_tree_positions(rules: Rules, depth: int, open_moves: int | None = None) -> int:
    """Positions a minimax without cutoffs visits to ``depth``, at most.

    ``b + b^2 + ... + b^depth`` with b the moves open now (``open_moves``; by default
    those of the empty board); without gravity each ply has one move fewer.
    """
    choices = open_moves if open_moves is not None else (rules.cols if rules.gravity else rules.cells)
    total, level = 0, 1
    for _ply in range(depth):
        if choices <= 0:
            break
        level *= choices
        total += level
        if not rules.gravity:
            choices -= 1
    return total


def pruned_tree_positions(depth: int, open_moves: int) -> int:
    """A rough count for alpha-beta: ``PRUNED_OVER_MINIMAL`` times the minimal tree's
    ``b^ceil(d/2) + b^floor(d/2) - 1`` leaves (b: the moves open now)."""
    b = max(1, open_moves)
    leaves: int = b ** ((depth + 1) // 2) + b ** (depth // 2) - 1  # int: the exponents are never negative
    return PRUNED_OVER_MINIMAL * leaves


def seconds_for(positions: int) -> float:
    """About how long visiting ``positions`` takes at ``NODES_PER_SECOND``."""
    return positions / NODES_PER_SECOND


def duration_text(seconds: float) -> str:
    """Say a duration the way a person would: "40 s", "5 min", "4.5 hours", "3 days"
    (in the language in use: it goes inside a translated sentence)."""
    if seconds < 90:
        return _("{seconds:.0f} s").format(seconds=seconds)
    if seconds < 90 * 60:
        return _("{minutes:.0f} min").format(minutes=seconds / 60)
    if seconds < 48 * 3600:
        return _("{hours:.1f} hours").format(hours=seconds / 3600)
    if seconds < 365 * 86400:
        return _("{days:.0f} days").format(days=seconds / 86400)
    return _("more than a year")


def speed_text() -> str:
    """The speed the estimates assume, for the sentence that quotes one."""
    return _("{count:,} positions a second").format(count=NODES_PER_SECOND)
