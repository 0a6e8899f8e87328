"""How long the exact review of a whole game takes: ``python -m lab.review_bench``.

Plays ``--rounds`` games for each pairing of levels (the levels' own moves; the noisy
levels with the round's seed; a game played before is not played again), reviews each
with a fresh reviewer (cold tables) as the game does (its mistakes explained), and prints
a table: plies, the move string, seconds, and the slowest single position.  The solver in
use is whatever ``ai.solver`` provides (pure Python, or its compiled core where there is
one).

Then what explaining the mistakes costs (``MoveReview.why``, ``ai.explain.explain_move``
with the review's own solver, as the review does it): each game's mistakes and blunders,
the CPU time (user + system) of explaining them all, and per explanation the median and
the slowest, apart for the moves inside the opening book (at most ``BOOK_PLIES`` discs
before the move: the solver's column scores there come from the book, but the
explainer's proofs search positions past it) and past it.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ai.explain.explainer import explain_move
from ai.levels import PRESETS
from ai.perfect import PerfectPlayer
from ai.player import choose_move
from ai.review import GameReview
from ai.reviewer import review_game
from game.board import Board
from lab.bench import machine

PAIRINGS = (
    ("Medium", "Medium"),
    ("Hard", "Expert"),
    ("Perfect", "Perfect"),
    ("Easy", "Medium"),
    ("Beginner", "Hard"),
    ("Medium", "Hard"),
)
BOOK_PLIES = 12
"""The opening book answers positions with at most this many discs (``ai.book``)."""


def play(first: str, second: str, seed: int = 0) -> Board:
    """A game between two presets, each playing its own moves (the noisy ones with ``seed``)."""
    board = Board()
    while not board.is_game_over():
        level = PRESETS[first] if board.to_move == 1 else PRESETS[second]
        move = choose_move(level, board.grid, board.rules, board.to_move, seed=seed + board.ply).move
        assert move is not None  # the game is not over
        board.push(move)
    return board


def cpu() -> float:
    """CPU seconds of this process so far (user + system: the compiled solver runs in it)."""
    return time.process_time()


def explain_costs(review: GameReview, player: PerfectPlayer) -> list[tuple[int, float]]:
    """(discs before the move, CPU seconds) of explaining each mistake and blunder."""
    costs = []
    for m in review.moves:
        if m.move_class.keeps_outcome:
            continue
        board = review.board_at(m.ply - 1)
        started = cpu()
        explain_move(board.grid, board.to_move, m.move, solver=player.solver)
        costs.append((m.ply - 1, cpu() - started))
    return costs


def _ms(values: list[float]) -> str:
    if not values:
        return f"{'-':>7} {'-':>7}"
    return f"{statistics.median(values) * 1000:>6.1f}m {max(values) * 1000:>6.0f}m"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.review_bench", description=__doc__)
    parser.add_argument("--seed", type=int, default=0, help="the noisy levels' first seed (default 0)")
    parser.add_argument("--rounds", type=int, default=3, help="games per pairing, seeds from --seed on (default 3)")
    args = parser.parse_args(argv)
    print(machine())
    print(f"{'game':<18} {'plies':>5}  {'moves':<42}  {'review':>8}  {'slowest ply':>11}")
    games = []
    seen: set[str] = set()
    for first, second, seed in [(a, b, args.seed + n) for n in range(args.rounds) for a, b in PAIRINGS]:
        board = play(first, second, seed)
        if board.moves_string() in seen:  # a level without noise plays the same game again
            continue
        seen.add(board.moves_string())
        stamps: list[float] = []
        player = PerfectPlayer()
        started = time.perf_counter()
        review = review_game(
            board.rules,
            board.moves,
            player=player,
            on_progress=lambda done, total: stamps.append(time.perf_counter()),
        )
        seconds = time.perf_counter() - started
        steps = [b - a for a, b in zip([started, *stamps], stamps)]
        slowest = max(range(len(steps)), key=steps.__getitem__)
        name = f"{first} v {second}"
        print(
            f"{name:<18} {len(board.moves):>5}  {board.moves_string():<42}  {seconds:>7.2f}s"
            f"  {slowest + 1:>4} {steps[slowest]:>5.2f}s"
        )
        games.append((name, review, player))
    print()
    print("explaining the mistakes and blunders (CPU, the review's solver, tables warm from the review)")
    head = f"{'in the book':>15} {'past it':>15}"
    print(f"{'game':<18} {'mistakes':>8} {'all':>8}  {head}")
    print(f"{'':<18} {'':>8} {'':>8}  {'median   max':>15} {'median   max':>15}")
    book: list[float] = []
    past: list[float] = []
    for name, review, player in games:
        costs = explain_costs(review, player)
        inside = [seconds for discs, seconds in costs if discs <= BOOK_PLIES]
        outside = [seconds for discs, seconds in costs if discs > BOOK_PLIES]
        book += inside
        past += outside
        total = sum(seconds for _discs, seconds in costs)
        print(f"{name:<18} {len(costs):>8} {total:>7.2f}s  {_ms(inside):>15} {_ms(outside):>15}")
    print(
        f"{'all':<18} {len(book) + len(past):>8} {sum(book) + sum(past):>7.2f}s  {_ms(book):>15} {_ms(past):>15}"
        f"   ({len(book)} in the book, {len(past)} past it)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
