"""The static evaluation of a position that is not over, from MAX's point of view.

For each side it counts the *open windows*: sets of K cells in a line that hold none of
the opponent's discs, weighted sharply upward by how many own discs they hold.  A window
with K - 1 own discs is a threat (its empty cell completes a line), so threats carry
the largest weight.  A small centre bonus breaks ties toward the middle, where most
lines pass.  In FULL_BOARD mode completed runs are points already won and count
``POINT`` each.

Two terms make depth count (without them depth 2 and depth 8 chose alike, issue 8):

- **Tactics at the leaf** (CLASSIC): the side to move (the one with fewer discs, the
  first player on equal counts) wins at once if it has a playable threat; otherwise the
  other side wins if it has two playable threats, or a playable threat with another one
  right above it.  Such a leaf scores ``TACTICAL`` (far above any positional value, far
  below a proven ``WIN``), so a search no longer walks into a loss one ply past its
  horizon and sees a win one ply early.
- **Threat parity** (gravity): in the endgame columns fill up in turn until the last
  open column decides, and a player gets the cells of the rows whose turn is theirs
  there (``first_player_rows``): on 6x7 the first player's are the odd rows counting 1
  from the bottom, the second's the even ones (Allis); on 7x8 it is the other way round.
  A threat cell on a player's own parity is worth ``Weights.parity_good``, on the other
  parity ``Weights.parity_other``; a threat with an opponent's threat below it in its
  column is dead (that one comes first): it earns no parity value.

How much each term is worth is a ``Weights``, per rule set (``weights_for``).  Connect 4
and the variants without a fit use the weights above (1, 5 and 50 for a window of one,
two and three discs); connect 5 with gravity uses weights fitted to solved positions
(``lab.fit_weights``), where a threat window is worth little unless it is live and on
its owner's rows.

The evaluator is generated as straight-line code for the board's K and height: per
direction, the windows free of the opponent come from a doubling AND chain, and "at
least m own discs in the window" is built plane by plane (t_m |= t_(m-1) & plane).
Threat cells come from the geometry's generated ``threats``; everything is bitboard
shifts, ANDs and popcounts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from ai.bitboard import Geometry, run_starts_source
from game.rules import Mode, Rules

POINT = 1_000
"""FULL_BOARD: the value of one completed run (a point)."""
TACTICAL = 100_000
"""A leaf whose next moves are forced to a win: far above positions, below ``WIN``."""


@dataclass(frozen=True)
class Weights:
    """What the evaluation counts, and how much, for one rule set.

    ``tiers`` gives the extra value of an open window holding at least m own discs, for
    each counted m (a window with c discs is worth the sum of the tiers m <= c).  The
    parity terms count live threat cells (no opponent threat below them in the column)
    on the owner's good rows (``first_player_rows``) or on the other rows;
    ``dead_threat`` counts the threat cells that are not live, and ``good_threat`` is
    paid once for having any live threat on the good rows (one is all a zugzwang needs).
    """

    tiers: tuple[tuple[int, int], ...]
    centre: int  # per own disc in the centre column(s)
    parity_good: int
    parity_other: int
    dead_threat: int = 0
    good_threat: int = 0


GENERIC_WEIGHTS = Weights(tiers=((1, 1), (2, 4), (3, 45)), centre=3, parity_good=40, parity_other=12)
"""Connect 4's weights: a window of 1, 2 or 3 discs (a threat) is worth 1, 5 or 50, a live
threat cell on the owner's good rows 40 more, on the others 12, a centre disc 3.  Other
K without a fit shift the same tiers so that K - 1 discs is the threat."""

CONNECT5_WEIGHTS = Weights(tiers=((2, 5), (3, 9), (4, 2)), centre=0, parity_good=72, parity_other=3)
"""Connect 5 with gravity: the generic weights' own terms refitted to solved 7x8 positions
(``lab.fit_weights``: an ordered logistic regression of the exact outcome, the side to
move as a control, a two-disc window worth 5).  A window of 2, 3 or 4 discs is worth 5,
14 and 16: a threat window alone is worth hardly more than a window of three (the
generic weights: 1, 5 and 50); what a threat is worth is where it stands, +72 a live
threat cell on its owner's rows, +3 on the others (generic: 40 and 12); the centre
nothing.  Fitted on 1,277 positions of an earlier run of the same generator; on the
2,155 positions of ``ai/data/connect5_solved.txt``, which it never saw, it tells the
exact outcome better (held-out log-likelihood -0.911) than the generic weights (-0.972)
and than that sample's own refit (-0.938).  In the ladder it makes depth count on connect
5 (docs/strength.md, "The connect-5 weights")."""


def generic_weights(k: int) -> Weights:
    """Connect 4's weights with the tiers shifted so that K - 1 discs is the threat."""
    tiers = tuple(sorted((m, w) for m, w in zip(range(k - 1, 0, -1), (45, 4, 1)) if m >= 1))
    return replace(GENERIC_WEIGHTS, tiers=tiers)


def weights_for(rules: Rules) -> Weights:
    """The evaluation's weights for ``rules``: fitted for connect 5 with gravity (CLASSIC),
    the generic ones elsewhere."""
    if rules.connect == 5 and rules.gravity and rules.mode is Mode.CLASSIC:
        return CONNECT5_WEIGHTS
    return generic_weights(rules.connect)


def _side_source(own: str, other: str, k: int, directions: tuple[int, ...], weights: Weights) -> list[str]:
    """Source lines adding ``own``'s open-window value to ``s``."""
    tiers = dict(weights.tiers)
    top = max(tiers)
    lines = [f"    avail = board ^ {other}"]  # cells ``own`` may still fill
    for step in directions:
        # Windows of k cells all in ``avail``: where such a run starts.
        lines.append("    f = avail")
        lines += run_starts_source("f", step, k)
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


def first_player_rows(rules: Rules) -> int:
    """The row parity the first player gets at the end: 1 for the odd rows (counting 1 from
    the bottom), 0 for the even ones.

    When every other column is full, the discs already played before row ``r`` of the
    last open column are ``cells - rows - 1 + r``, and the first player moves on an even
    count: so the odd rows on 6x7 (35 + r) and the even ones on 7x8 (48 + r).  Solved
    7x8 endgames with one lone threat agree: the first player won 80 of 84 with it on an
    even row, 44 of 70 on an odd one."""
    return (rules.cells - rules.rows + 1) % 2


def row_parity_masks(geo: Geometry) -> tuple[int, int]:
    """(the first player's rows, the second player's rows) at the end, as bitboards."""
    firsts = 0
    lowest = 1 - first_player_rows(geo.rules)  # 0-based: row 1 is index 0
    for col in range(geo.rules.cols):
        for row in range(lowest, geo.rules.rows, 2):
            firsts |= 1 << (col * geo.height + row)
    return firsts, geo.board_mask ^ firsts


def _threat_source(geo: Geometry) -> list[str]:
    """Source lines computing threat cells and returning early on a forced leaf (CLASSIC)."""
    rules = geo.rules

    def stacked(playable_threats: str, all_threats: str) -> str:
        # Under gravity a playable threat with another right above it cannot be stopped.
        return f" or (({playable_threats} << 1) & {all_threats})" if rules.gravity else ""

    classic = rules.mode is Mode.CLASSIC
    lines = [
        "    mask = first | second",
        "    empty = board ^ mask",
        "    tf = threats(first, empty)",
        "    ts = threats(second, empty)",
    ]
    if rules.gravity:
        lines.append("    playable = (mask + bottom) & board")
    else:
        lines.append("    playable = empty")
    if classic:
        # The side to move: the one with fewer discs, the first player on equal counts.
        lines += [
            "    pf = tf & playable",
            "    ps = ts & playable",
            "    if first.bit_count() <= second.bit_count():",
            f"        if pf: return {TACTICAL}",
            f"        if (ps & (ps - 1)){stacked('ps', 'ts')}: return {-TACTICAL}",
            "    else:",
            f"        if ps: return {-TACTICAL}",
            f"        if (pf & (pf - 1)){stacked('pf', 'tf')}: return {TACTICAL}",
        ]
    return lines


def _fill_up_source(name: str, geo: Geometry) -> list[str]:
    """Source lines setting ``above_<name>``: every cell above a cell of ``name`` in its
    column (shift-and-OR doubling, each shift masked so no bit crosses into the next
    column)."""
    rows, height = geo.rules.rows, geo.height
    lines = [f"    x = {name} << 1"]
    step = 1
    while step < rows:
        keep = 0  # cells that stay inside their column when moved up by ``step``
        for col in range(geo.rules.cols):
            for row in range(rows - step):
                keep |= 1 << (col * height + row)
        lines.append(f"    x |= (x & {keep}) << {step}")
        step *= 2
    lines.append(f"    above_{name} = x & {geo.board_mask}")
    return lines


def _parity_source(geo: Geometry, weights: Weights) -> list[str]:
    """Source lines adding the threat parity to ``s`` (gravity only)."""
    lines: list[str] = []
    if geo.rules.gravity:
        firsts, seconds = row_parity_masks(geo)
        # A threat above an opponent threat in its column is dead: the opponent's threat
        # below is reached first and decides the column (Allis).
        lines += _fill_up_source("tf", geo) + _fill_up_source("ts", geo)
        lines += [
            "    live_f = tf & ~above_ts",
            "    live_s = ts & ~above_tf",
            f"    s += {weights.parity_good} * ((live_f & {firsts}).bit_count() - (live_s & {seconds}).bit_count())",
            f"    s += {weights.parity_other} * ((live_f & {seconds}).bit_count() - (live_s & {firsts}).bit_count())",
        ]
        if weights.dead_threat:
            lines.append(
                f"    s += {weights.dead_threat} * ((tf & above_ts).bit_count() - (ts & above_tf).bit_count())"
            )
        if weights.good_threat:
            lines.append(f"    s += {weights.good_threat} * (((live_f & {firsts}) != 0) - ((live_s & {seconds}) != 0))")
    return lines


@functools.lru_cache(maxsize=32)
def make_evaluator(geo: Geometry) -> Callable[[int, int], int]:
    """Return ``evaluate(first, second)``: the heuristic value for MAX (``first``)."""
    return build_evaluator(geo, weights_for(geo.rules))


def build_evaluator(geo: Geometry, weights: Weights) -> Callable[[int, int], int]:
    """Generate the evaluator of ``geo`` with ``weights`` (uncached: ``make_evaluator``
    keeps the one the game plays; ``lab.fit_weights`` builds one per term to read the
    terms' values)."""
    rules = geo.rules
    k = rules.connect
    centre = 0
    cols = rules.cols
    for col in {(cols - 1) // 2, cols // 2}:
        centre |= ((1 << rules.rows) - 1) << (col * geo.height)
    lines = ["def evaluate(first, second):"]
    lines += _threat_source(geo)
    lines.append("    s = 0")
    lines += _side_source("first", "second", k, geo.directions, weights)
    lines.append("    s = -s")
    lines += _side_source("second", "first", k, geo.directions, weights)
    lines.append(f"    s = -s + {weights.centre} * ((first & {centre}).bit_count() - (second & {centre}).bit_count())")
    if rules.mode is Mode.FULL_BOARD:
        lines.append(f"    s += {POINT} * (points(first) - points(second))")
    lines += _parity_source(geo, weights)
    lines.append("    return s")
    source = "\n".join(lines)
    namespace = {
        "board": geo.board_mask,
        "bottom": geo.bottom_mask,
        "points": lambda b: geo.line_starts(b).bit_count(),
        "threats": geo.threats,
    }
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
