"""The window's memory over many games: ``python -m game.app.memory_bench`` (headless).

The real App (SDL dummy drivers, the AI in its worker process) plays computer against
computer at fast levels, game after game through the game-over panel's "Play again",
with every frame drawn as the window draws it.  It prints the window process's resident
memory (RSS) every ``--every`` games and the growth after the warm-up: a leak shows as a
rising column (issue 17: 65 -> 112 MB over 200 games, from the rendered-text cache).

A benchmark, not a test: it prints a table and judges nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

FRAME = 1 / 20
"""Seconds of animation per stepped frame (drops finish in a few frames)."""


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux /proc; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.app.memory_bench", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--every", type=int, default=20, help="games between two rows (default 20)")
    parser.add_argument("--warmup", type=int, default=10, help="games before the baseline (default 10)")
    parser.add_argument("--size", default="1024x720", help="window size WxH (default 1024x720)")
    args = parser.parse_args(argv)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from ai.levels import Level
    from game.app.loop import App
    from game.app.scenes.game_over import GameOverScene
    from game.app.scenes.play import PlayScene
    from game.app.scenes.title import TitleScene
    from game.rules import Rules

    width, height = (int(value) for value in args.size.lower().split("x"))
    rng = random.Random(17)
    home = Path(tempfile.mkdtemp(prefix="connect4-memory-"))
    app = App((width, height), home=home)
    app.settings.sound = False
    app.stack.push(TitleScene())
    # Depths 1-3 on each side: quick, and different games (the levels' choices differ).
    play = PlayScene(Rules(), Level(rng.randint(1, 3)), "demo", level2=Level(rng.randint(1, 3)))
    app.stack.push(play)
    started = time.perf_counter()
    baseline: float | None = None
    print(f"# game.app.memory_bench: {args.games} computer-vs-computer games at {width}x{height}")
    print("| games | RSS MB | text cache KB | seconds |")
    print("|------:|-------:|--------------:|--------:|")
    games = frames = 0
    try:
        while games < args.games:
            app.step([], FRAME)
            frames += 1
            time.sleep(0.001)  # the worker process needs the core too
            if isinstance(app.stack.top, GameOverScene):
                games += 1
                play.levels = {1: Level(rng.randint(1, 3)), -1: Level(rng.randint(1, 3))}
                app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")], FRAME)
                if games == args.warmup:
                    baseline = rss_mb()
                if games % args.every == 0 or games == args.warmup:
                    print(
                        f"| {games} | {rss_mb():.1f} | {app.theme.text_bytes / 1024:,.0f} | "
                        f"{time.perf_counter() - started:.0f} |",
                        flush=True,
                    )
        end = rss_mb()
    finally:
        app.close()
    if baseline is not None:
        print(f"\nRSS after game {args.warmup}: {baseline:.1f} MB; after game {games}: {end:.1f} MB ", end="")
        print(f"(growth {end - baseline:+.1f} MB over {games - args.warmup} games, {frames:,} frames)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
