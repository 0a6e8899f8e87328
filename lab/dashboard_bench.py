"""How long the puzzle screen's dashboard takes to read, frame by frame.

    python -m lab.dashboard_bench [--attempts 10000 100000] [--seed 1]

Fills an archive in a temporary folder with seeded puzzle attempts of the shipped set (a
third of them stored before themes were kept, so their themes come from the set), then
reads the dashboard as the puzzle screen does (``DashboardRead.step`` with the screen's
budget each frame) and prints a table: frames, the processor time in all and per frame
(median and the most), and the wall time per frame (which a loaded machine stretches).
It asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from game.archive.puzzle_store import tally_pages
from game.archive.store import Archive
from game.learn.dashboard import READ_SECONDS, DashboardRead, themes_by_id
from game.learn.puzzle_set import shipped_puzzles
from game.puzzle_file import format_themes


def fill(archive: Archive, count: int, seed: int) -> None:
    """``count`` attempts of shipped puzzles, one transaction."""
    rng = random.Random(seed)
    puzzles = shipped_puzzles()
    with archive.connection:
        for number in range(count):
            puzzle = rng.choice(puzzles)
            themes = format_themes(puzzle.themes) if number % 3 else ""
            archive.connection.execute(
                "INSERT INTO puzzle_attempts (tried_at, puzzle, puzzle_rating, solved, hints, themes, seconds)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    1000.0 + number,
                    puzzle.id,
                    puzzle.rating,
                    int(rng.random() < 0.6),
                    int(rng.random() < 0.1),
                    themes,
                    9.0,
                ),
            )


def read(archive: Archive) -> tuple[int, list[float], list[float]]:
    """Frames, and each frame's processor and wall seconds, of one dashboard read."""
    reading = DashboardRead(tally_pages(archive), themes_by_id(shipped_puzzles()))
    cpu, wall = [], []
    while True:
        started, clock = time.process_time(), time.perf_counter()
        done = reading.step(READ_SECONDS)
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
        if done:
            return len(cpu), cpu, wall


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{'attempts':>9} {'frames':>7} {'CPU s':>7} {'CPU ms/frame (median, most)':>28} {'wall ms (median, most)':>23}"
    )
    for count in args.attempts:
        with tempfile.TemporaryDirectory() as folder:
            archive = Archive.open(Path(folder))
            fill(archive, count, args.seed)
            frames, cpu, wall = read(archive)
            archive.close()
        median = sorted(cpu)[len(cpu) // 2] * 1000
        wall_median = sorted(wall)[len(wall) // 2] * 1000
        print(
            f"{count:>9,} {frames:>7} {sum(cpu):>7.2f} {median:>19.1f}, {max(cpu) * 1000:>6.1f}"
            f" {wall_median:>14.1f}, {max(wall) * 1000:>6.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
