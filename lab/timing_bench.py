"""The level screen's promised times against measured ones: ``python -m lab.timing_bench``.

The level screen says how long a move to the chosen depth takes on this machine with
and without pruning, from a calibration (``ai.timing.calibrate``, as the window's worker
runs it at the first start) and the expected positions (``ai.cost``).  This script
calibrates the same way, then plays each depth (4 to 9 by default) with pruning off and
on from the empty board through the one decider (``ai.player.choose_move``, as the
worker plays a move) and prints the promise beside the measured search time (the
median of ``--repeats`` runs: CPU seconds, what the timing measures too, and wall
seconds, the time the player waits: the same on a quiet machine, longer by the load on a
busy one), the ratios and whether the CPU time is within a factor of two.  Not a timed test: a
table to read, with the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from ai.compiled import search_kernel
from ai.cost import expected_positions, search_seconds
from ai.levels import Level
from ai.player import choose_move
from ai.timing import calibrate
from game.rules import MAX, STANDARD, Rules
from lab.bench import machine

FACTOR = 2.0
"""What must hold: the promise within this factor of the measured time."""


def measured(rules: Rules, depth: int, pruning: bool, repeats: int) -> tuple[float, float, int]:
    """The median wall seconds and CPU seconds of the search, and its positions."""
    grid = np.zeros((rules.rows, rules.cols), dtype=np.int8)
    walls, cpus, nodes = [], [], 0
    for _ in range(repeats):
        cpu = time.process_time()
        answer = choose_move(
            Level(depth, pruning), grid, rules, MAX, should_stop=lambda: False, on_progress=lambda _: None
        )
        cpus.append(time.process_time() - cpu)
        assert answer.result is not None
        walls.append(answer.result.stats.seconds)
        nodes = answer.result.stats.total_nodes
    return statistics.median(walls), statistics.median(cpus), nodes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="4-9", help="first-last depth (default 4-9)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each search (median; default 3)")
    parser.add_argument("--board", default="6x7", help="ROWSxCOLS (default 6x7)")
    args = parser.parse_args(argv)
    first, last = (int(part) for part in args.depths.split("-"))
    rows, cols = (int(part) for part in args.board.lower().split("x"))
    rules = Rules(rows, cols) if (rows, cols) != (6, 7) else STANDARD
    search_kernel.LOADER.kernel()  # loaded before timing, as in the worker
    print(f"# lab.timing_bench on {machine()}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    started = time.process_time()
    calibration = calibrate()
    print(
        f"calibration ({time.process_time() - started:.2f} s CPU): {calibration.pass_seconds * 1000:.2f} ms a pass, "
        f"{calibration.full_rate:,.0f} positions/s without pruning, {calibration.pruned_rate:,.0f} with it, "
        f"{calibration.engine} search"
    )
    print(
        f"{'board':<5} {'depth':>5} {'pruning':>7} {'expected':>11} {'visited':>11} {'promised s':>10}"
        f" {'wall s':>9} {'CPU s':>9} {'CPU/promise':>11} {'wall/promise':>12}  CPU within {FACTOR:g}x"
    )
    misses = 0
    for depth in range(first, last + 1):
        for pruning in (False, True):
            promise = search_seconds(rules, depth, pruning, calibration)
            wall, cpu, nodes = measured(rules, depth, pruning, args.repeats)
            ratio, wall_ratio = cpu / promise, wall / promise
            ok = 1 / FACTOR <= ratio <= FACTOR
            misses += not ok
            print(
                f"{rows}x{cols:<3} {depth:>5} {'on' if pruning else 'off':>7} {expected_positions(rules, depth, pruning):>11,}"
                f" {nodes:>11,} {promise:>10.4f} {wall:>9.4f} {cpu:>9.4f} {ratio:>11.2f} {wall_ratio:>12.2f}  {'yes' if ok else 'NO'}"
            )
    print(f"\n{misses} of {2 * (last - first + 1)} outside a factor of {FACTOR:g}")
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
