"""What a search costs before it runs: tree sizes, this machine's speed, in one place.

The level select, the play screen's progress line and the command line all estimate a
search's work here, so they quote the same numbers.  A level itself is defined by work
(depth, nodes), never by these estimates or by wall time.

Speed: ``Calibration`` is what a short timing of the search on this machine measured
(``ai.timing.calibrate``, run by the window's worker at the first start and kept with the
settings): a fixed cost a search pays whatever its size, and the positions a second
with pruning off and on.  A time is ``passes * pass_seconds + positions / rate`` (with
pruning the search deepens one pass a ply; without, it makes one pass); the positions are
the full tree's without pruning (exact from the empty board) and a rough count with it
(``pruned_tree_positions``).  ``lab/timing_bench.py`` prints the promise beside the
measured time at depths 4 to 9.  Without a calibration the one fixed figure below stands in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.i18n import _, number
from game.rules import MAX_DEPTH, MIN_DEPTH, Rules

NODES_PER_SECOND = 750_000
"""Positions a second the Python search visits without pruning on one core (measured with
``python -m lab.bench``: depth 6 from the empty 6x7 board, 137,257 nodes in 0.175 s on a
2-core AMD EPYC).  Only turns a node count into a rough time where no calibration is known."""
PRUNED_OVER_MINIMAL = 3
"""Alpha-beta with best-first order visits about this many times the Knuth-Moore minimal
tree (measured from 4453 and the empty board at depths 8-14, all passes counted; from
the empty 6x7 and 7x8 boards at depths 4-10 the count is 0.55-1.0 times the real one)."""
FELT_SECONDS = 1.0
"""A move that takes this long is felt: the player waits for it."""
BLINK_SECONDS = 0.3
"""A move quicker than this hides in the blink of an eye (and in the disc's fall)."""
ENGINES = ("compiled", "python")
"""Which search a calibration timed: the compiled passes (numba) or the Python ones."""


@dataclass(frozen=True)
class Calibration:
    """This machine's search speed, as a short timing measured it.

    ``pass_seconds``: what each pass of a search costs whatever its size (setting it up,
    starting it); ``full_rate`` and ``pruned_rate``: positions a second beyond that, with pruning off
    and on; ``engine``: which search was timed (``ENGINES``); ``version``: the game's
    version that timed it (another version times again)."""

    pass_seconds: float
    full_rate: float
    pruned_rate: float
    engine: str
    version: str

    def is_sane(self) -> bool:
        """Whether the figures can be true of a real machine (a settings file can say anything)."""
        return (
            all(
                isinstance(v, float) and math.isfinite(v) for v in (self.pass_seconds, self.full_rate, self.pruned_rate)
            )
            and 0.0 <= self.pass_seconds < 10.0
            and 1_000.0 <= self.full_rate <= 1e10
            and 1_000.0 <= self.pruned_rate <= 1e10
            and self.engine in ENGINES
            and isinstance(self.version, str)
            and 0 < len(self.version) <= 40
        )


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


def expected_positions(rules: Rules, depth: int, pruning: bool, open_moves: int | None = None) -> int:
    """The positions a search to ``depth`` is expected to visit (all its passes): the full
    tree without pruning, the rough alpha-beta count (never above the full tree) with it."""
    worst = full_tree_positions(rules, depth, open_moves)
    if not pruning:
        return worst
    moves = open_moves if open_moves is not None else (rules.cols if rules.gravity else rules.cells)
    return min(worst, pruned_tree_positions(depth, moves))


def seconds_for(
    positions: int, calibration: Calibration | None = None, *, pruning: bool = False, passes: int = 1
) -> float:
    """About how long visiting ``positions`` in ``passes`` passes takes: at this machine's
    measured speed where a calibration is known, else at ``NODES_PER_SECOND``."""
    if calibration is None:
        return positions / NODES_PER_SECOND
    rate = calibration.pruned_rate if pruning else calibration.full_rate
    return passes * calibration.pass_seconds + positions / rate


def search_seconds(
    rules: Rules, depth: int, pruning: bool, calibration: Calibration | None, open_moves: int | None = None
) -> float:
    """About how long a search to ``depth`` takes on this machine (from the empty board,
    or from a position with ``open_moves`` moves): with pruning it deepens a pass a ply."""
    positions = expected_positions(rules, depth, pruning, open_moves)
    return seconds_for(positions, calibration, pruning=pruning, passes=depth if pruning else 1)


def felt_depth(rules: Rules, calibration: Calibration) -> int | None:
    """The least depth at which a move without pruning is felt (``FELT_SECONDS``) while
    one with it is still quick; None when no depth is (a very fast machine, a tiny board)."""
    for depth in range(MIN_DEPTH, MAX_DEPTH + 1):
        if search_seconds(rules, depth, False, calibration) >= FELT_SECONDS:
            return depth
    return None


def duration_text(seconds: float) -> str:
    """Say a duration the way a person would: "0.12 ms", "4.1 ms", "0.04 s", "2.9 s", "40 s", "5 min",
    "4.5 hours", "3 days" (in the language in use: it goes inside a translated sentence)."""
    if seconds < 0.0095:
        milliseconds = seconds * 1000
        return _("{milliseconds} ms").format(milliseconds=number(milliseconds, ".2f" if milliseconds < 0.95 else ".1f"))
    if seconds < 10:
        spec = ".3f" if seconds < 0.095 else (".2f" if seconds < 0.995 else ".1f")
        return _("{seconds} s").format(seconds=number(seconds, spec))
    if seconds < 90:
        return _("{seconds:.0f} s").format(seconds=seconds)
    if seconds < 90 * 60:
        return _("{minutes:.0f} min").format(minutes=seconds / 60)
    if seconds < 48 * 3600:
        return _("{hours:.1f} hours").format(hours=seconds / 3600)
    if seconds < 365 * 86400:
        return _("{days:.0f} days").format(days=seconds / 86400)
    return _("more than a year")


def speed_text(calibration: Calibration | None = None) -> str:
    """The speed the estimates assume, for the sentence that quotes one."""
    rate = calibration.full_rate if calibration is not None else NODES_PER_SECOND
    return _("{count:,} positions a second").format(count=round(rate))


def time_lines(rules: Rules, depth: int, calibration: Calibration | None) -> list[str]:
    """The level screen's sentences on time: how long a move to ``depth`` takes here with
    and without pruning, where that was measured, and the depth at which it is felt."""
    if calibration is None:
        return [_("Timing this computer's search (about a second, once): the time a move takes follows.")]
    off, on = (search_seconds(rules, depth, pruning, calibration) for pruning in (False, True))
    lines = [
        _(
            "On this computer a move to depth {depth} from the empty board takes about {off} without pruning "
            "({off_positions:,} positions) and {on} with alpha-beta (about {on_positions:,})."
        ).format(
            depth=depth,
            off=duration_text(off),
            on=duration_text(on),
            off_positions=expected_positions(rules, depth, False),
            on_positions=expected_positions(rules, depth, True),
        ),
        _(
            "Measured at the first start, in CPU time (a busy computer takes longer): {full:,} positions a "
            "second without pruning, {pruned:,} with it, {overhead} a pass ({engine} search)."
        ).format(
            full=round(calibration.full_rate),
            pruned=round(calibration.pruned_rate),
            overhead=duration_text(calibration.pass_seconds),
            engine=_("compiled") if calibration.engine == "compiled" else _("Python"),
        ),
    ]
    felt = felt_depth(rules, calibration)
    if felt is None:
        return lines
    felt_off, felt_on = (search_seconds(rules, felt, pruning, calibration) for pruning in (False, True))
    said = {"off": duration_text(felt_off), "on": duration_text(felt_on), "felt": felt}
    if depth < felt:
        lines.append(
            _(
                "The difference is felt from depth {felt}: {off} without pruning against {on} with it. "
                "Below that both hide in the disc's fall."
            ).format(**said)
        )
    elif search_seconds(rules, depth, True, calibration) < BLINK_SECONDS:
        lines.append(_("Here the difference is felt: seconds without pruning against a blink with it."))
    return lines
