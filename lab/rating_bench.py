"""The player's rating at scale: ``python -m lab.rating_bench`` (headless, prints tables).

An archive with ``--attempts`` puzzle attempts (default 100,000, a seeded player of 1,500
against puzzles of 800-2,400, results drawn by the Elo expectation) and ``--games`` games
against Hard, written in one transaction.  Then:

- ``rating``: ``main.py rating --home DIR`` as a whole process, CPU and wall (the median of
  ``--repeat`` runs);
- the window: the real App (SDL's dummy driver, no worker started; its first frames, which
  make its fonts, on the options screen) on the title, frame by frame: the frames while the
  rating is replayed, then Past games opened and closed, a puzzle attempt stored and the
  title shown again, ``--returns`` times each; every frame's work (``App.step``), CPU and
  wall.

A benchmark, not a test: it prints and judges nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from game.app.loop import App
from game.app.scenes.options import OptionsScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.title import TitleScene
from game.archive.puzzle_store import PuzzleAttempt, record_attempt
from game.archive.store import Archive
from game.board import Board
from game.records import HUMAN, GameResult
from game.rules import STANDARD
from lab.bench import machine
from lab.startup_bench import run

ROOT = Path(__file__).resolve().parent.parent


def fill(home: Path, attempts: int, games: int, seed: int) -> None:
    """The archive of the bench: ``games`` games against Hard, then ``attempts`` attempts."""
    archive = Archive.open(home)
    moves = Board.from_moves("4455667").moves
    for number in range(games):
        result = GameResult.FIRST if number % 2 else GameResult.SECOND
        archive.add_game(STANDARD, moves, result, first=HUMAN, second="Hard", played_at=1_000.0 + number * 1_000)
    rng = random.Random(seed)
    rows = []
    for number in range(attempts):
        rating = rng.randrange(800, 2400)
        expected = 1 / (1 + 10 ** ((rating - 1500) / 400))
        rows.append((500_000.0 + number * 10, f"b{number:07d}", rating, int(rng.random() < expected)))
    archive.connection.execute("BEGIN")  # one transaction: the archive's connection commits each statement
    archive.connection.executemany(
        "INSERT INTO puzzle_attempts (tried_at, puzzle, puzzle_rating, solved, hints) VALUES (?, ?, ?, ?, 0)", rows
    )
    archive.connection.execute("COMMIT")
    archive.close()


def command_cpu(home: Path, repeat: int) -> tuple[float, float, str]:
    """(median CPU s, median wall s, what it printed) of ``main.py rating --home home``."""
    runs = [run([sys.executable, str(ROOT / "main.py"), "rating", "--home", str(home)]) for _ in range(max(1, repeat))]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2].strip()


def frames(home: Path, returns: int) -> list[tuple[str, list[float], list[float]]]:
    """(what, wall ms of each frame's work, CPU ms of each) in the real App on ``home``."""
    app = App((1024, 720), home=home, use_process=False)
    measured: dict[str, tuple[list[float], list[float]]] = {}

    def step(what: str) -> None:
        walls, cpus = measured.setdefault(what, ([], []))
        wall, cpu = time.perf_counter(), time.process_time()
        app.step([], 1 / 60)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)

    app.stack.push(OptionsScene())  # the App's first frames (its fonts and texts made): not the rating's
    for _ in range(2):
        app.step([], 1 / 60)
    app.stack.pop()
    title = TitleScene()
    app.stack.push(title)
    step("title, the rating replayed")
    while title.waiting:
        step("title, the rating replayed")
    for _ in range(returns):
        app.stack.push(PastGamesScene())
        for _ in range(3):
            step("past games opened and closed")
        app.stack.pop()
        step("past games opened and closed")
        record_attempt(app.archive, PuzzleAttempt(time.time(), "bench001", 1500, solved=True))
        app.stack.push(TitleScene())  # the title anew, as after a puzzle: it asks for the rating
        step("an attempt stored, the title again")
        step("an attempt stored, the title again")
    app.close()
    return [(what, walls, cpus) for what, (walls, cpus) in measured.items()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.rating_bench", description=__doc__)
    parser.add_argument("--attempts", type=int, default=100_000, help="puzzle attempts (default 100,000)")
    parser.add_argument("--games", type=int, default=200, help="games against a level (default 200)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the rating command (default 3)")
    parser.add_argument("--returns", type=int, default=5, help="returns to the title (default 5)")
    parser.add_argument("--seed", type=int, default=4, help="seed of the results (default 4)")
    args = parser.parse_args(argv)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    print(f"# lab.rating_bench on {machine()}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="connect4-rating-") as folder:
        home = Path(folder)
        fill(home, args.attempts, args.games, args.seed)
        cpu, wall, said = command_cpu(home, args.repeat)
        print(f"\n## rating, {args.attempts:,} attempts and {args.games} games: a whole process")
        print(f"CPU {cpu:.2f} s, wall {wall:.2f} s (median of {args.repeat}): {said}")
        print("\n## The window's frames (work of each App.step: wall and CPU, ms)")
        print(f"{'':38} {'frames':>6} {'median':>7} {'worst':>7} {'worst CPU':>9}")
        for what, walls, cpus in frames(home, args.returns):
            print(f"{what:38} {len(walls):6d} {statistics.median(walls):7.1f} {max(walls):7.1f} {max(cpus):9.1f}")
    print(f"\nload average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
