"""How often the explainer proves its reason, and what an explanation costs: ``python -m lab.explain_bench``.

Plays seeded games between the levels from the balanced openings (``game.bots.openings``:
three plies each), each side its preset's own moves (the noisy ones with the game's
seed; Expert and Perfect through the opening book), and keeps every position with at
most 16 empty cells before the game ended (``--most-empty`` and ``--least-empty`` choose
others).  Each is explained (``ai.explain.explainer``) in a shuffled order, as the worker
would: with this process's shared solver, its tables kept between positions ("warm");
``--cold`` empties them before each explanation; ``--pure-python`` explains with a
solver in plain Python (what runs without numba).

Prints the share of each kind of reason, the share with a proved reason (wins now, only
move, double threat, a forced line of at most 7 plies, or a checked strategy), by result,
and the CPU time (user + system of this process: the compiled solver runs in it) per
explanation: median, 90th percentile, maximum.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter

from ai.explain.explainer import explain
from ai.explain.explanation import ReasonKind
from ai.levels import PRESETS
from ai.player import choose_move, shared_solver
from ai.solver import Solver
from game.board import Board
from game.bots.openings import STANDARD_OPENINGS
from game.rules import STANDARD
from lab.bench import machine

PAIRINGS = (
    ("Easy", "Medium"),
    ("Medium", "Hard"),
    ("Hard", "Expert"),
    ("Expert", "Perfect"),
    ("Perfect", "Perfect"),
    ("Medium", "Expert"),
    ("Easy", "Hard"),
)
"""Who plays whom, round and round (the colours swapped every other game)."""
MOST_EMPTY = 16
"""Positions with at most this many empty cells are explained (``--most-empty``)."""


def play(first: str, second: str, opening: str, seed: int) -> Board:
    """A game between two presets from an opening, each move with the game's seed."""
    board = Board.from_moves(opening)
    while not board.is_game_over():
        level = PRESETS[first] if board.to_move == 1 else PRESETS[second]
        move = choose_move(level, board.grid, board.rules, board.to_move, seed=seed + board.ply).move
        assert move is not None  # the game is not over
        board.push(move)
    return board


def positions(games: int, seed: int, most: int = MOST_EMPTY, least: int = 1) -> list[tuple[str, str]]:
    """(pairing, move string) of every position with ``least`` to ``most`` empty cells of
    ``games`` seeded games, each once, in a seeded shuffled order."""
    rng = random.Random(seed)
    found: dict[str, str] = {}
    for number in range(games):
        first, second = PAIRINGS[number % len(PAIRINGS)]
        if number % 2:
            first, second = second, first
        game = play(first, second, rng.choice(STANDARD_OPENINGS), rng.randrange(1_000_000))
        moves = game.moves_string()
        for ply in range(STANDARD.cells - most, min(len(moves), STANDARD.cells - least + 1)):
            found.setdefault(moves[:ply], f"{first} v {second}")
    order = sorted(found)
    rng.shuffle(order)
    return [(found[moves], moves) for moves in order]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.explain_bench", description=__doc__)
    parser.add_argument("--games", type=int, default=70, help="games to play (default 70)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings, the games and the order (default 1)")
    parser.add_argument("--cold", action="store_true", help="empty the solver's tables before each explanation")
    parser.add_argument(
        "--most-empty", type=int, default=MOST_EMPTY, help=f"empty cells at most (default {MOST_EMPTY})"
    )
    parser.add_argument("--least-empty", type=int, default=1, help="empty cells at least (default 1)")
    parser.add_argument(
        "--pure-python", action="store_true", help="explain with a solver of its own in plain Python (no numba)"
    )
    args = parser.parse_args(argv)
    print(f"machine: {machine()}; load {os.getloadavg()[0]:.2f} (1 min) at the start")
    started = time.perf_counter()
    sample = positions(args.games, args.seed, args.most_empty, args.least_empty)
    cells = f"{args.least_empty} to {args.most_empty}"
    print(f"{len(sample)} positions with {cells} empty cells from {args.games} games (seed {args.seed}),")
    tables = "emptied before each" if args.cold else "kept (warm)"
    solver_kind = "plain Python" if args.pure_python else "compiled where numba is there"
    print(f"played in {time.perf_counter() - started:.0f} s; solver {solver_kind}, tables {tables}")
    solver = Solver(STANDARD, pure_python=True) if args.pure_python else shared_solver(STANDARD)
    kinds: Counter[ReasonKind] = Counter()
    by_result: Counter[tuple[int, bool]] = Counter()
    seconds = []
    for _, moves in sample:
        board = Board.from_moves(moves)
        if args.cold:
            solver.clear()
        before = time.process_time()
        explanation = explain(board.grid, board.to_move, solver=solver)
        seconds.append(time.process_time() - before)
        kinds[explanation.reason.kind] += 1
        by_result[explanation.result, explanation.proved] += 1
    total = len(sample)
    print(f"\n{'reason':<18} {'positions':>9} {'share':>7}")
    for kind in ReasonKind:
        if kind is not ReasonKind.REFUTATION:
            print(f"{kind.value:<18} {kinds[kind]:>9} {kinds[kind] / total:>7.1%}")
    proved = sum(count for kind, count in kinds.items() if kind is not ReasonKind.NO_SIMPLE_REASON)
    print(f"{'proved':<18} {proved:>9} {proved / total:>7.1%}")
    print(f"\n{'result (side to move)':<22} {'positions':>9} {'proved':>7}")
    for result, word in ((1, "win"), (0, "draw"), (-1, "loss")):
        count = by_result[result, True] + by_result[result, False]
        share = by_result[result, True] / count if count else 0.0
        print(f"{word:<22} {count:>9} {share:>7.1%}")
    seconds.sort()
    ninety = seconds[int(0.9 * (len(seconds) - 1))]
    print(
        f"\nCPU per explanation: median {statistics.median(seconds) * 1000:.1f} ms, "
        f"90th percentile {ninety * 1000:.1f} ms, max {seconds[-1] * 1000:.0f} ms"
    )
    print(f"load {os.getloadavg()[0]:.2f} (1 min) at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
