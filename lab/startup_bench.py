"""Whole processes, ours against the C++ solver BitBully: ``python -m lab.startup_bench``.

Two questions, each asked of a whole process of each program, the two run side by side
(one after the other on the same input, so a loaded machine weighs on both alike):

- ``analyze``: ``main.py analyze MOVES --level perfect`` (the board, the depth-6 search,
  every column's exact value and Perfect's move) against a whole process of BitBully that
  imports its Python package, loads its 12-ply book and scores every column of the same
  position, on seeded random games just past the 12-ply book (13 plies, game not over).
- ``solve``: one ``main.py solve LIST`` process over a list of positions against one
  BitBully process that loads its book and scores each position of the list (``mtdf``,
  its table kept from one position to the next, as ``solve`` keeps its own), repeated;
  then the same list position by position inside one process of each (CPU and nodes of
  each position's solve, the scores checked equal).  The list: seeded random games of
  13 to 20 plies, 8 of each, that the ``analyze`` list does not hold (``--list FILE`` for
  another, one move string a line).

CPU is user + system time of the whole process (``wait4``), the figure the targets
compare, and wall time is printed beside it.  "ratio" is ours over BitBully's.

BitBully is never a dependency of the game: install it in a scratch environment of its
own (``python3 -m venv /tmp/bb-venv && /tmp/bb-venv/bin/pip install bitbully``) and name
its Python with ``--bitbully-python`` (default ``/tmp/bb-venv/bin/python``).

A benchmark, not a test: it prints tables and judges nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
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
BITBULLY_SOLVE = (
    "import sys, time\n"
    "from bitbully import BitBully, Board\n"
    "agent = BitBully('12-ply-dist')\n"
    "timed = len(sys.argv) > 2\n"
    "for line in open(sys.argv[1]):\n"
    "    moves = line.split()[0]\n"
    "    agent.reset_node_counter()\n"
    "    started = time.process_time()\n"
    "    score = agent.mtdf(Board.from_moves(''.join(str(int(c) - 1) for c in moves)))\n"
    "    extra = f' {time.process_time() - started:.6f} {agent.get_node_counter()}' if timed else ''\n"
    "    print(f'{moves} {score}{extra}')\n"
)
"""BitBully's ``solve``: its book loaded once, each line's score (``timed``: with its CPU and nodes)."""
OURS_TIMED = (
    "import sys, time\n"
    "from ai.solver import Solver, compact_table_slots\n"
    "from game.notation import parse_moves\n"
    "from game.rules import Rules\n"
    "solver = Solver(Rules(), table_slots=compact_table_slots(Rules()))\n"
    "for line in open(sys.argv[1]):\n"
    "    moves = line.split()[0]\n"
    "    started = time.process_time()\n"
    "    found = solver.solve_moves(parse_moves(moves, solver.rules))\n"
    "    print(f'{moves} {found.score} {time.process_time() - started:.6f} {found.nodes}')\n"
)
"""What ``solve`` does for each line (one solver for the list, its table), each line's CPU and nodes printed."""
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


def solve_list(seed: int, avoid: list[str]) -> list[str]:
    """The ``solve`` list: 8 seeded games of each of 13..20 plies, none of ``avoid``."""
    found: list[str] = []
    for plies in range(13, 21):
        found += [moves for moves in positions(8 + len(avoid), plies, seed + plies) if moves not in avoid][:8]
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


def bench_analyze(count: int, plies: int, seed: int, bitbully: str) -> list[str]:
    """The ``analyze`` table; returns its positions."""
    ours = [sys.executable, str(ROOT / "main.py"), "analyze"]
    theirs = [bitbully, "-c", BITBULLY_SCRIPT]
    # One of each first, not counted: the kernel files and the page cache are warm for both.
    run([*ours, "4453", "--level", "perfect"])
    run([*theirs, "3342"])
    print(f"\n## analyze --level perfect: {count} positions of {plies} plies (seed {seed}), whole processes")
    print("| position | ours CPU s | BitBully CPU s | ratio | ours wall s | BitBully wall s |")
    print("|:---------|-----------:|---------------:|------:|------------:|----------------:|")
    ratios: list[float] = []
    ours_cpu: list[float] = []
    theirs_cpu: list[float] = []
    chosen = positions(count, plies, seed)
    for moves in chosen:
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
        f"\nanalyze: median CPU ours {statistics.median(ours_cpu):.3f} s, BitBully {statistics.median(theirs_cpu):.3f} s;"
        f" ratio median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}"
    )
    return chosen


def _scores(out: str) -> dict[str, list[str]]:
    """Each printed line of a solve as {moves: the rest of its words}."""
    return {words[0]: words[1:] for words in (line.split() for line in out.splitlines()) if words}


def bench_solve(lines: list[str], repeat: int, bitbully: str) -> None:
    """One ``solve`` process over ``lines`` against one BitBully process, ``repeat`` times;
    then position by position inside one process of each."""
    with tempfile.TemporaryDirectory() as folder:
        listed = Path(folder) / "positions.txt"
        listed.write_text("".join(f"{moves} -\n" for moves in lines))  # benchmark lines: MOVES, then anything
        ours = [sys.executable, str(ROOT / "main.py"), "solve", str(listed)]
        theirs = [bitbully, "-c", BITBULLY_SOLVE, str(listed)]
        run(ours)  # warm-up, not counted
        run(theirs)
        print(f"\n## solve: one process over {len(lines)} positions, {repeat} runs each, alternating")
        print("| run | ours CPU s | BitBully CPU s | ratio | ours wall s | BitBully wall s |")
        print("|----:|-----------:|---------------:|------:|------------:|----------------:|")
        ratios: list[float] = []
        for number in range(repeat):
            cpu, wall, out = run(ours)
            bb_cpu, bb_wall, bb_out = run(theirs)
            ours_scores = {moves: rest[0] for moves, rest in _scores(out).items()}
            theirs_scores = {moves: rest[0] for moves, rest in _scores(bb_out).items()}
            if ours_scores != theirs_scores or len(ours_scores) != len(lines):
                raise RuntimeError("the two solvers' scores differ")
            ratios.append(cpu / bb_cpu)
            print(f"| {number + 1} | {cpu:.3f} | {bb_cpu:.3f} | {cpu / bb_cpu:.2f} | {wall:.2f} | {bb_wall:.2f} |")
        print(
            f"\nsolve process: ratio median {statistics.median(ratios):.2f} (runs: {len(ratios)}), worst {max(ratios):.2f}"
        )

        _cpu, _wall, out = run([sys.executable, "-c", OURS_TIMED, str(listed)])
        _cpu, _wall, bb_out = run([*theirs, "timed"])
    ours_lines, theirs_lines = _scores(out), _scores(bb_out)
    print("\n### position by position, inside one process of each (the solve alone: CPU ms, nodes)")
    print("| position | score | ours ms | BitBully ms | ratio | ours nodes | BitBully nodes |")
    print("|:---------|------:|--------:|------------:|------:|-----------:|---------------:|")
    ours_total = theirs_total = 0.0
    nodes_ours = nodes_theirs = 0
    ratios = []
    for moves in lines:
        score, ours_text, nodes = ours_lines[moves]
        bb_score, theirs_text, bb_nodes = theirs_lines[moves]
        if score != bb_score:
            raise RuntimeError(f"{moves}: ours {score}, BitBully {bb_score}")
        ours_ms, theirs_ms = float(ours_text) * 1000, float(theirs_text) * 1000
        ours_total += ours_ms
        theirs_total += theirs_ms
        nodes_ours += int(nodes)
        nodes_theirs += int(bb_nodes)
        ratio = f"{ours_ms / theirs_ms:.2f}" if theirs_ms >= 1 else "-"
        if theirs_ms >= 1:
            ratios.append(ours_ms / theirs_ms)
        print(f"| {moves} | {score} | {ours_ms:.2f} | {theirs_ms:.2f} | {ratio} | {int(nodes):,} | {int(bb_nodes):,} |")
    print(
        f"\nsolves alone: ours {ours_total:.0f} ms, BitBully {theirs_total:.0f} ms (ratio {ours_total / theirs_total:.2f});"
        f" nodes ours {nodes_ours:,}, BitBully {nodes_theirs:,} ({nodes_ours / max(nodes_theirs, 1):.2f});"
        f" per position (BitBully >= 1 ms, {len(ratios)}) median ratio "
        + (f"{statistics.median(ratios):.2f}" if ratios else "-")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.startup_bench", description=__doc__)
    parser.add_argument("--positions", type=int, default=24, help="analyze: positions (default 24)")
    parser.add_argument("--plies", type=int, default=13, help="analyze: moves played (default 13: just past the book)")
    parser.add_argument("--seed", type=int, default=39, help="seed of the random games (default 39)")
    parser.add_argument("--list", type=Path, help="solve: a file of move strings instead of the seeded list")
    parser.add_argument("--repeat", type=int, default=5, help="solve: whole-process runs of each (default 5)")
    parser.add_argument("--only", choices=("analyze", "solve"), help="run one of the two")
    parser.add_argument("--bitbully-python", default="/tmp/bb-venv/bin/python", help="a Python with bitbully installed")
    args = parser.parse_args(argv)
    if not Path(args.bitbully_python).exists():
        print(f"lab.startup_bench: no {args.bitbully_python}: install bitbully in a scratch venv (see --help)")
        return 2
    print(f"# lab.startup_bench; load average {', '.join(f'{load:.2f}' for load in os.getloadavg())}")
    analyzed: list[str] = []
    if args.only in (None, "analyze"):
        analyzed = bench_analyze(args.positions, args.plies, args.seed, args.bitbully_python)
    if args.only in (None, "solve"):
        if args.list is not None:
            lines = [line.split()[0] for line in args.list.read_text().splitlines() if line.split()]
        else:
            lines = solve_list(args.seed, analyzed or positions(args.positions, args.plies, args.seed))
        bench_solve(lines, args.repeat, args.bitbully_python)
    print(f"\nload average {', '.join(f'{load:.2f}' for load in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
