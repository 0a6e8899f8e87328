"""Bitboards for any rule set: the board as Python ints, and fast line arithmetic.

Layout (as in Pascal Pons' solver): column-major, ``H = rows + 1`` bits per column,
bit ``col * H + r`` is the cell ``r`` rows above the bottom.  The extra (sentinel) bit on
top of each column always stays 0 in a side's board, so a line shifted across a column
edge always meets a 0 and no wrap-around test is needed, for every direction and K.

Line tests are generated as straight-line Python source for the board's K and height,
because a loop over directions and offsets costs several times more per call than the
handful of shifts and ANDs it wraps, and these run at every node of the search.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.rules import MAX, MIN, Rules


@dataclass(frozen=True)
class Geometry:
    """Precomputed masks and functions for one rule set."""

    rules: Rules
    height: int  # bits per column: rows + 1
    board_mask: int  # every playable cell
    bottom_mask: int  # the bottom cell of every column
    directions: tuple[int, ...]  # bit distance of one step: vertical, horizontal, 2 diagonals
    move_steps: tuple[tuple[int, int, int], ...]  # (move id, add, keep) per move, see below
    centre_order: tuple[int, ...]  # move ids, centre first (ties: left of centre first)
    line_starts: Callable[[int], int]  # bitboard -> lowest cell of every K-run in it
    threats: Callable[[int, int], int]  # (own, empty) -> empty cells completing a K-run
    cell_bits: tuple[int, ...]  # bit of each cell index row * cols + col

    # move_steps: the bit a move fills is ``(mask + add) & keep`` (0 if not playable).
    # Under gravity add = the column's bottom bit, keep = the column: adding carries
    # through the filled cells to the first empty one.  Without gravity add = keep = the
    # cell's bit: an empty cell gives that bit, a full one carries away and gives 0.

    def bit(self, row: int, col: int) -> int:
        """Return the bit of the cell at ``(row, col)``, row 0 at the top."""
        return 1 << (col * self.height + (self.rules.rows - 1 - row))

    def from_grid(self, grid: np.ndarray) -> tuple[int, int]:
        """Return ``(MAX's board, MIN's board)`` of a numpy grid."""
        first = second = 0
        rows, cols = grid.shape
        for row in range(rows):
            for col in range(cols):
                value = grid[row, col]
                if value == MAX:
                    first |= self.bit(row, col)
                elif value == MIN:
                    second |= self.bit(row, col)
        return first, second

    def to_grid(self, first: int, second: int) -> np.ndarray:
        """Return the numpy grid of two side boards."""
        grid = self.rules.empty_grid()
        for row in range(self.rules.rows):
            for col in range(self.rules.cols):
                bit = self.bit(row, col)
                if first & bit:
                    grid[row, col] = MAX
                elif second & bit:
                    grid[row, col] = MIN
        return grid


def run_starts_source(var: str, step: int, k: int) -> list[str]:
    """Source lines that keep in ``var`` only the lowest cell of each run of k of its cells
    in direction ``step``.

    Runs are built by doubling: runs of 2 from runs of 1, of 4 from 2, then the rest
    from an overlap (a run of L at i and one at i + r make a run of L + r when r <= L).
    """
    lines = []
    length = 1
    while length * 2 <= k:
        lines.append(f"    {var} &= {var} >> {length * step}")
        length *= 2
    if k - length:
        lines.append(f"    {var} &= {var} >> {(k - length) * step}")
    return lines


def _line_starts_source(k: int, directions: tuple[int, ...]) -> str:
    """Source of ``line_starts(p)``: the lowest cell of every run of k in ``p``."""
    lines = ["def line_starts(p):", "    r = 0"]
    for step in directions:
        lines.append("    m = p")
        lines += run_starts_source("m", step, k)
        lines.append("    r |= m")
    lines.append("    return r")
    return "\n".join(lines)


def _threats_source(k: int, directions: tuple[int, ...], vertical_only_up: bool) -> str:
    """Source of a function giving the empty cells that would complete a K-run of ``p``.

    For the gap at position j of a window: the k - 1 other cells must be own, that is
    the AND of ``p`` shifted by -j..-1 and 1..k-1-j steps.  Prefix and suffix ANDs are
    shared between gap positions.  Under gravity a vertical run can only be completed on
    top, so only that gap position is generated.
    """
    lines = ["def threats(p, empty):", "    r = 0"]
    for index, step in enumerate(directions):
        below = [f"(p << {i * step})" for i in range(1, k)]  # own disc i steps below/left
        above = [f"(p >> {i * step})" for i in range(1, k)]  # own disc i steps above/right
        if vertical_only_up and index == 0:
            lines.append("    r |= " + " & ".join(below))
            continue
        lines.append(f"    b1 = {below[0]}")
        lines.append(f"    a1 = {above[0]}")
        for i in range(2, k):
            lines.append(f"    b{i} = b{i - 1} & {below[i - 1]}")
            lines.append(f"    a{i} = a{i - 1} & {above[i - 1]}")
        gaps = []
        for j in range(k):  # j own cells below the gap, k - 1 - j above it
            parts = ([f"b{j}"] if j else []) + ([f"a{k - 1 - j}"] if k - 1 - j else [])
            gaps.append(" & ".join(parts))
        lines.append("    r |= " + " | ".join(gaps))
    lines.append("    return r & empty")
    return "\n".join(lines)


def _compile(source: str, name: str) -> Callable[..., int]:
    namespace: dict[str, Callable[..., int]] = {}
    exec(compile(source, f"<generated {name}>", "exec"), namespace)  # noqa: S102
    return namespace[name]


@functools.lru_cache(maxsize=32)
def geometry(rules: Rules) -> Geometry:
    """Return the (cached) geometry of ``rules``."""
    rows, cols, k = rules.rows, rules.cols, rules.connect
    height = rows + 1
    board_mask = bottom_mask = 0
    for col in range(cols):
        column = ((1 << rows) - 1) << (col * height)
        board_mask |= column
        bottom_mask |= 1 << (col * height)
    directions = (1, height, height - 1, height + 1)
    cell_bits = tuple(1 << (col * height + rows - 1 - row) for row in range(rows) for col in range(cols))

    centre = (cols - 1) / 2
    col_order = sorted(range(cols), key=lambda c: (abs(c - centre), c))
    if rules.gravity:
        move_steps = tuple((col, 1 << (col * height), ((1 << rows) - 1) << (col * height)) for col in range(cols))
        centre_order = tuple(col_order)
    else:
        centre_row = (rows - 1) / 2
        move_steps = tuple((i, bit, bit) for i, bit in enumerate(cell_bits))
        centre_order = tuple(
            sorted(
                range(rows * cols),
                key=lambda i: (
                    abs(i % cols - centre) + abs(i // cols - centre_row),
                    abs(i % cols - centre),
                    -(i // cols),
                    i % cols,
                ),
            )
        )

    line_starts = _compile(_line_starts_source(k, directions), "line_starts")
    threats = _compile(_threats_source(k, directions, rules.gravity), "threats")
    return Geometry(
        rules=rules,
        height=height,
        board_mask=board_mask,
        bottom_mask=bottom_mask,
        directions=directions,
        move_steps=move_steps,
        centre_order=centre_order,
        line_starts=line_starts,
        threats=threats,
        cell_bits=cell_bits,
    )


def fits_compiled(rules: Rules) -> bool:
    """Whether the compiled search can take this board: a position's bits (a sentinel row
    on each column) in one 64-bit word, so its discs are below bit 63 (7x8 and 8x7 are the
    largest boards; keys past 2**63 wrap in ``ai.compiled.solver_kernel.slot_and_check``)."""
    height = rules.rows + 1
    return rules.cols * height <= 64 and (height + 1) * (rules.connect - 1) < 63
