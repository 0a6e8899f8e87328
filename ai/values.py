"""The value scale, in one place: what a number means and how a person reads it.

Values are from MAX's side (player 1, the first mover): positive is good for MAX.
A won game is worth ``WIN`` minus the plies from the root to the winning disc, so the
quickest win and the slowest loss are preferred; everything with ``|v| <= WIN_ZONE``
below that is a heuristic judgement.  ``INF`` is the open end of an alpha-beta window.
"""

from __future__ import annotations

WIN = 1_000_000
"""The value of a win on the move; a win ``p`` plies away scores ``WIN - p``."""
WIN_ZONE = 1000
"""Values within this distance of ``WIN`` are forced wins (no game lasts 1000 plies)."""
INF = 1_000_000_000
"""Beyond every value: the open ends of the root's alpha-beta window."""


def is_win_value(value: int) -> bool:
    """Tell whether a value is a forced win or loss rather than a heuristic value."""
    return WIN - WIN_ZONE < abs(value) < INF


def plies_to_end(value: int) -> int:
    """For a win/loss value, the plies from the root to the end of the game."""
    return WIN - abs(value)


def fmt_value(value: int) -> str:
    """Show a value for a person: infinities as +inf/-inf, wins as ``+W5`` (win in 5 plies)."""
    if value >= INF:
        return "+inf"
    if value <= -INF:
        return "-inf"
    if is_win_value(value):
        return f"{'+' if value > 0 else '-'}W{plies_to_end(value)}"
    return str(value)
