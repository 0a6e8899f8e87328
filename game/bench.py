"""Frame times while the AI searches: ``python -m game.bench`` (headless, prints a table).

The play scene runs at 60 frames per second (SDL dummy driver) while the computer
searches depth 8 without pruning on the empty 6x7 board (about 6.7 million nodes) in the
worker process, recording its tree as the game does, and the tree is taken in at the end.
It reports the work per frame (events, update, draw) and the interval between frames.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--pruning", action="store_true", help="search with alpha-beta (default: without)")
    parser.add_argument("--limit", type=float, default=60.0, help="stop after this many seconds")
    args = parser.parse_args(argv)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from ai.bench import machine
    from game.app import FPS, App
    from game.levels import Level
    from game.scenes.play import PlayScene

    app = App(home=Path(tempfile.mkdtemp(prefix="connect4-bench-")))
    play = PlayScene(app.settings.rules(), Level(args.depth, pruning=args.pruning), "computer", first="computer")
    app.stack.push(play)
    work: list[float] = []
    intervals: list[float] = []
    clock = pygame.time.Clock()
    started = time.perf_counter()
    last = started
    searching_frames = 0  # frames drawn while the search ran
    while time.perf_counter() - started < args.limit:
        dt = clock.tick(FPS) / 1000.0
        now = time.perf_counter()
        intervals.append(now - last)
        last = now
        app.step([], dt)
        pygame.display.flip()
        work.append(time.perf_counter() - now)
        searching_frames += play.thinking
        arrived = play.searches and play.searches[-1].result.tree is not None
        if arrived and play.drop is None:  # the move was played and its whole tree taken in
            break
    total = time.perf_counter() - started
    record = play.searches[-1] if play.searches else None
    app.close()

    print(f"# game.bench on {machine()}")
    what = f"depth {args.depth} {'with' if args.pruning else 'without'} pruning, 6x7, tree recorded"
    if record is None:
        print(f"The search ({what}) did not finish within {args.limit:.0f} s; figures cover that time.")
    else:
        stats = record.result.stats
        tree = record.result.tree
        print(f"Search: {what}: {stats.nodes:,} nodes in {stats.seconds:.1f} s in the worker; "
              f"{len(tree) if tree else 0:,} nodes of tree taken in; {len(work)} frames in {total:.1f} s, "
              f"{searching_frames} of them during the search")
    rows = [("work per frame", work), ("frame interval", intervals[1:])]
    print(f"{'':16} {'median ms':>10} {'p95 ms':>8} {'worst ms':>9} {'frames >50 ms':>14}")
    for name, values in rows:
        print(f"{name:16} {statistics.median(values) * 1000:10.2f} {percentile(values, 0.95) * 1000:8.2f} "
              f"{max(values) * 1000:9.2f} {sum(v > 0.05 for v in values):14d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
