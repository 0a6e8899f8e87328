"""Prove a newly written kernel file in a process of its own, before any process maps it.

``python -m ai.kernel_proof NAME PATH`` loads the kernel file at ``PATH`` (the
kernel ``NAME``: "solver", "search" or "mcts"), runs one small known position with it and
again with the pure-Python twin, and prints ``proven`` when both give the same answer (score
or move and value, and the same node count; for MCTS the same tree).  A file whose header is whole but whose code is
wrong ends this process (SIGSEGV, SIGABRT from LLVM, a wrong answer, or a loop the caller's
timeout ends), never the caller: ``kernel_file.save_proven`` marks a file proven only when
this printed ``proven`` and exited 0.  It lives beside the solver and the search it checks
against, not in the compiled wing, which they import.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ai.compiled import mcts_kernel, search_kernel, solver_kernel
from ai.compiled.kernel_file import PURE_PYTHON_ENV, KernelLoader, KernelSpec, key, read
from ai.mcts import PlayoutPolicy, mcts
from ai.search import search
from ai.solver import Solver
from game.board import Board
from game.notation import parse_moves
from game.rules import Rules

PROVEN = "proven"
"""What this process prints when the kernel answered as its Python twin."""
POSITION = "4453444335343"
"""A position past the opening book: the solver needs 23,292 nodes for it (0.2 s in
Python), the search to depth ``SEARCH_DEPTH`` a few hundred."""
SEARCH_DEPTH = 6
MCTS_PLAYOUTS = 300
"""Playouts of the MCTS probe (solver and tactical playouts on: every path of the kernel)."""


def _solver_answer() -> tuple[int, int]:
    solver = Solver(Rules())
    return solver.solve_moves(parse_moves(POSITION, Rules())).score, solver.nodes


def _search_answer() -> tuple[int | None, int, int]:
    board = Board.from_moves(POSITION)
    result = search(board.grid, board.rules, SEARCH_DEPTH, to_move=board.to_move)
    return result.move, result.value, result.stats.total_nodes


def _mcts_answer() -> tuple[object, ...]:
    board = Board.from_moves(POSITION)
    found = mcts(
        board.grid,
        board.rules,
        MCTS_PLAYOUTS,
        to_move=board.to_move,
        seed=1,
        solver=True,
        policy=PlayoutPolicy.TACTICAL,
    )
    tree = found.tree
    visits = tuple(node.visits for node in tree.iter_nodes())
    playouts = tuple(tree.playout(number) for number in range(found.playouts))
    return found.move, len(tree), visits, playouts


Probe = Callable[[], tuple[object, ...]]
PROBES: dict[str, tuple[KernelSpec[Any], KernelLoader[Any], Probe]] = {
    "solver": (solver_kernel.SPEC, solver_kernel.LOADER, _solver_answer),
    "search": (search_kernel.SPEC, search_kernel.LOADER, _search_answer),
    "mcts": (mcts_kernel.SPEC, mcts_kernel.LOADER, _mcts_answer),
}


def answers(spec: KernelSpec[Any], loader: KernelLoader[Any], probe: Probe, path: Path) -> tuple[object, object]:
    """(the kernel file's answer, the Python twin's) to the probe position."""
    loader.adopt(spec.loaded(read(path, key(spec.source()), proven=False), spec.args), path)
    compiled = probe()
    os.environ[PURE_PYTHON_ENV] = "1"  # the loader steps aside: the twin answers
    return compiled, probe()


def main(argv: list[str]) -> int:
    """Prove the kernel file ``argv[1]`` of kernel ``argv[0]``; 0 and ``proven`` when it is."""
    name, path = argv[0], Path(argv[1])
    spec, loader, probe = PROBES[name]
    compiled, python = answers(spec, loader, probe, path)
    if compiled != python:
        print(f"the {name} kernel answered {compiled}, its Python twin {python}")
        return 1
    print(PROVEN)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
