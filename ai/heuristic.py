"""The static evaluation of a position that is not over, from MAX's point of view.

For each side it counts the *open windows*: sets of K cells in a line that hold none of
the opponent's discs, weighted sharply upward by how many own discs they hold.  A window
with K - 1 own discs is a threat (its empty cell completes a line), so threats carry
the largest weight.  A small centre bonus breaks ties toward the middle, where most
lines pass.  In FULL_BOARD mode completed runs are points already won and count
``POINT`` each.

The evaluator is generated as straight-line code for the board's K and height: per
direction, the windows free of the opponent come from a doubling AND chain, and "at
least m own discs in the window" is built plane by plane (t_m |= t_(m-1) & plane).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import cast

from ai.bitboard import Geometry
from game.rules import Mode

POINT = 1_000
"""FULL_BOARD: the value of one completed run (a point)."""
CENTRE_WEIGHT = 3
"""Per own disc in the centre column(s)."""


def tier_weights(k: int) -> dict[int, int]:
    """Extra value of an open window holding at least m own discs, for each counted m.

    A window with c discs is worth the sum of the weights of the tiers m <= c:
    for K = 4: 1 disc -> 1, 2 discs -> 5, 3 discs (a threat) -> 50.
    """
    return {m: w for m, w in zip(range(k - 1, 0, -1), (45, 4, 1)) if m >= 1}


def _side_source(own: str, other: str, k: int, directions: tuple[int, ...]) -> list[str]:
    """Source lines adding ``own``'s open-window value to ``s``."""
    tiers = tier_weights(k)
    top = max(tiers)
    lines = [f"    avail = board ^ {other}"]  # cells ``own`` may still fill
    for step in directions:
        # Windows of k cells all in ``avail``: doubling AND chain.
        lines.append("    f = avail")
        length = 1
        while length * 2 <= k:
            lines.append(f"    f &= f >> {length * step}")
            length *= 2
        if k - length:
            lines.append(f"    f &= f >> {(k - length) * step}")
        # t{m}: windows whose first i+1 planes hold at least m own discs.
        lines.append(f"    t1 = {own}")
        for i in range(1, k):
            lines.append(f"    o = {own} >> {i * step}")
            for m in range(min(i + 1, top), 1, -1):
                if m == i + 1:
                    lines.append(f"    t{m} = t{m - 1} & o")
                else:
                    lines.append(f"    t{m} |= t{m - 1} & o")
            if i < k - 1:
                lines.append("    t1 |= o")
        lines.append("    s += " + " + ".join(f"{w} * (f & t{m}).bit_count()" for m, w in sorted(tiers.items())))
    return lines


@functools.lru_cache(maxsize=32)
def make_evaluator(geo: Geometry) -> Callable[[int, int], int]:
    """Return ``evaluate(first, second)``: the heuristic value for MAX (``first``)."""
    rules = geo.rules
    k = rules.connect
    centre = 0
    cols = rules.cols
    for col in {(cols - 1) // 2, cols // 2}:
        centre |= ((1 << rules.rows) - 1) << (col * geo.height)
    lines = ["def evaluate(first, second):", "    s = 0"]
    lines += _side_source("first", "second", k, geo.directions)
    lines.append("    s = -s")
    lines += _side_source("second", "first", k, geo.directions)
    lines.append(f"    s = -s + {CENTRE_WEIGHT} * ((first & {centre}).bit_count() - (second & {centre}).bit_count())")
    if rules.mode is Mode.FULL_BOARD:
        lines.append(f"    s += {POINT} * (points(first) - points(second))")
    lines.append("    return s")
    source = "\n".join(lines)
    namespace = {"board": geo.board_mask, "points": lambda b: geo.line_starts(b).bit_count()}
    exec(compile(source, "<generated evaluate>", "exec"), namespace)  # noqa: S102
    evaluate = cast(Callable[[int, int], int], namespace["evaluate"])
    evaluate.source = source  # type: ignore[attr-defined]  # for the curious reader
    return evaluate


@functools.lru_cache(maxsize=32)
def make_final_value(geo: Geometry) -> Callable[[int, int], int]:
    """Return the value of a full board: 0 in CLASSIC, the point difference in FULL_BOARD."""
    if geo.rules.mode is Mode.CLASSIC:
        return lambda first, second: 0
    line_starts = geo.line_starts
    return lambda first, second: POINT * (line_starts(first).bit_count() - line_starts(second).bit_count())
