"""One question as a whole process, ours against the C++ solver BitBully: ``python -m lab.startup_bench``.

``main.py analyze MOVES --level perfect`` (the board, the depth-6 search, every column's
exact value and Perfect's move) against a whole process of BitBully that imports its
Python package, loads its 12-ply book and scores every column of the same position.
Positions are seeded random games just past the 12-ply book (13 plies, game not over).
The two run side by side, one after the other on each position, so a loaded machine
weighs on both alike; CPU is user + system time of the whole process (``wait4``), the
figure the issue compares, and wall time is printed beside it.

BitBully is never a dependency of the game: install it in a scratch environment of its
own (``python3 -m venv /tmp/bb-venv && /tmp/bb-venv/bin/pip install bitbully``) and name
its Python with ``--bitbully-python`` (default ``/tmp/bb-venv/bin/python``).

A benchmark, not a test: it prints a table and judges nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from game.board import Board

ROOT = Path(__file__).resolve().parent.parent
BITBULLY_SCRIPT = (
    "import sys\n"
    "from bitbully import BitBully, Board\n"
    "scores = BitBully('12-ply-dist').score_all_moves(Board.from_moves(sys.argv[1]))\n"
    "print(sorted(scores.items()))\n"
)
"""BitBully's whole question: its import, its book, its board and every column's score."""
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""Both as a player runs them: Python's bytecode caches written once (the warm-up) and read after."""


def positions(count: int, plies: int, seed: int) -> list[str]:
    """``count`` different seeded random games of ``plies`` moves that are not over (1-based columns)."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        board = Board()
        board.push_random(rng, plies)
        moves = board.moves_string()
        if board.outcome() is None and board.ply == plies and moves not in found:
            found.append(moves)
    return found


def run(command: list[str]) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stdout) of one whole process, measured with ``wait4``."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    out = process.stdout.read().decode()
    err = process.stderr.read().decode()
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])} failed ({process.returncode}): {err.strip()[-300:]}")
    return usage.ru_utime + usage.ru_stime, wall, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.startup_bench", description=__doc__)
    parser.add_argument("--positions", type=int, default=24, help="positions (default 24)")
    parser.add_argument("--plies", type=int, default=13, help="moves played in each (default 13: just past the book)")
    parser.add_argument("--seed", type=int, default=39, help="seed of the random games (default 39)")
    parser.add_argument("--bitbully-python", default="/tmp/bb-venv/bin/python", help="a Python with bitbully installed")
    args = parser.parse_args(argv)
    if not Path(args.bitbully_python).exists():
        print(f"lab.startup_bench: no {args.bitbully_python}: install bitbully in a scratch venv (see --help)")
        return 2
    ours = [sys.executable, str(ROOT / "main.py"), "analyze"]
    theirs = [args.bitbully_python, "-c", BITBULLY_SCRIPT]
    # One of each first, not counted: the kernel files and the page cache are warm for both.
    run([*ours, "4453", "--level", "perfect"])
    run([*theirs, "3342"])
    print(f"# lab.startup_bench: {args.positions} positions of {args.plies} plies (seed {args.seed}), whole processes")
    print("| position | ours CPU s | BitBully CPU s | ratio | ours wall s | BitBully wall s |")
    print("|:---------|-----------:|---------------:|------:|------------:|----------------:|")
    ratios: list[float] = []
    ours_cpu: list[float] = []
    theirs_cpu: list[float] = []
    for moves in positions(args.positions, args.plies, args.seed):
        cpu, wall, out = run([*ours, moves, "--level", "perfect"])
        if "Exact values for" not in out:
            raise RuntimeError(f"analyze {moves} printed no exact values")
        zero_based = "".join(str(int(char) - 1) for char in moves)
        bb_cpu, bb_wall, _out = run([*theirs, zero_based])
        ratios.append(cpu / bb_cpu)
        ours_cpu.append(cpu)
        theirs_cpu.append(bb_cpu)
        print(f"| {moves} | {cpu:.3f} | {bb_cpu:.3f} | {cpu / bb_cpu:.2f} | {wall:.2f} | {bb_wall:.2f} |", flush=True)
    print(
        f"\nmedian CPU: ours {statistics.median(ours_cpu):.3f} s, BitBully {statistics.median(theirs_cpu):.3f} s; "
        f"ratio median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
