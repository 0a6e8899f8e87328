"""The window's memory over many games and every scene: ``python -m lab.memory_bench``.

The real App (SDL dummy drivers, the AI in its worker process) plays computer against
computer at fast levels, game after game; after each game it opens the review (V) and,
at a position of the game, the analysis board (A), then "Play again".  Every
``--tour-every`` games it also visits every scene (``game.app.tour``: hints, the tree
overlay, the code walk, practice, the depth chart, ...).  Every frame is drawn as the
window draws it.  It prints the window process's resident memory (RSS) every ``--every``
games, its peak, and the growth after the warm-up: a leak shows as a rising column, and
a solver loaded in the window (numba alone is 200 MB) as a jump.

``--display`` draws on the real display (``DISPLAY``, e.g. Xvfb) instead of SDL's dummy
driver, each frame presented as the window presents it: what a player's session costs
(SDL's presentation path is only loaded there); the last lines then give the peak of the
window and of the AI worker process too.

``--session`` plays a player's long session instead: ten games against the presets from
Beginner to Perfect on 6x7 and Expert and Perfect on 7x8 (the person's moves made by a
depth-2 search, as a beginner's), each reviewed (V) and looked at on the analysis board
(A), the opening explorer at the analysis board's position (E), then a network game (the
window hosts on 127.0.0.1 through its network screen, a joiner of ``game.net.client``
answers: seven moves, the host's four in a column), five puzzle attempts and Past games
with the rating graph.  It prints the window's and the worker's resident
memory after each step (Linux's ``/proc``) and their peaks (VmHWM) at the end.

A benchmark, not a test: it prints a table and judges nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import pygame

from ai.levels import PRESETS, Level
from game.app.loop import App
from game.app.memory import peak_rss_mb, rss_mb
from game.app.navigation import HostGame
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.explorer import ExplorerScene
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.network_table import NetworkTableScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.play import PlayScene
from game.app.scenes.puzzles import PuzzlesScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.title import TitleScene
from game.app.tour import Tour, loaded_solver_modules
from game.learn.puzzle_words import Source
from game.net.client import Client
from game.net.host import HostSettings
from game.rules import Rules

FRAME = 1 / 20
"""Seconds of animation per stepped frame (drops finish in a few frames)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.memory_bench", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--every", type=int, default=20, help="games between two rows (default 20)")
    parser.add_argument(
        "--warmup",
        type=int,
        default=30,
        help="games before the baseline (default 30: past the first visit of every scene, whose fonts "
        "and texts are made once)",
    )
    parser.add_argument("--size", default="1024x720", help="window size WxH (default 1024x720)")
    parser.add_argument("--tour-every", type=int, default=25, help="games between two visits of every scene")
    parser.add_argument("--display", action="store_true", help="draw on the real display (DISPLAY), not SDL's dummy")
    parser.add_argument("--session", action="store_true", help="a player's long session (see above), not the loop")
    args = parser.parse_args(argv)
    if not args.display:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    width, height = (int(value) for value in args.size.lower().split("x"))
    rng = random.Random(17)
    home = Path(tempfile.mkdtemp(prefix="connect4-memory-"))
    app = App((width, height), home=home)
    app.settings.sound = False
    if args.display:
        present_each_frame(app)
    tour = Tour(app, timeout=300)
    if args.session:
        try:
            return session(app, tour, rng)
        finally:
            app.close()

    def new_game() -> PlayScene:
        """Depths 1-3 on each side: quick, and different games (the levels' choices differ)."""
        app.stack.reset(TitleScene())
        play = PlayScene(Rules(), Level(rng.randint(1, 3)), "demo", level2=Level(rng.randint(1, 3)))
        app.stack.push(play)
        return play

    play = new_game()
    started = time.perf_counter()
    baseline: float | None = None
    peak = 0.0
    print(f"# lab.memory_bench: {args.games} computer-vs-computer games at {width}x{height},")
    print(f"# each reviewed and analysed; every scene visited every {args.tour_every} games")
    print("| games | RSS MB | peak MB | text cache KB | seconds |")
    print("|------:|-------:|--------:|--------------:|--------:|")
    games = 0
    try:
        while games < args.games:
            tour.until(lambda: isinstance(app.stack.top, GameOverScene), "the end of a game")
            games += 1
            review_and_analyse(tour, rng)
            peak = max(peak, rss_mb())
            if games % args.tour_every == 0:
                tour.run()
                peak = max(peak, rss_mb())
                play = new_game()
            else:
                play.levels = {1: Level(rng.randint(1, 3)), -1: Level(rng.randint(1, 3))}
                tour.key(pygame.K_RETURN)  # Play again
            if games == args.warmup:
                baseline = rss_mb()
            if games % args.every == 0 or games == args.warmup:
                print(
                    f"| {games} | {rss_mb():.1f} | {peak:.1f} | {app.theme.text_bytes / 1024:,.0f} | "
                    f"{time.perf_counter() - started:.0f} |",
                    flush=True,
                )
        end = rss_mb()
        loaded = loaded_solver_modules(sys.modules)
        worker_peak = peak_rss_mb(app.worker.pid)
    finally:
        app.close()
    if baseline is not None:
        print(f"\nRSS after game {args.warmup}: {baseline:.1f} MB; after game {games}: {end:.1f} MB ", end="")
        print(f"(growth {end - baseline:+.1f} MB over {games - args.warmup} games); peak {peak:.1f} MB")
    print(f"Solver modules in the window's process: {', '.join(loaded[:5]) or 'none'}")
    driver = "dummy driver" if not args.display else f"display {os.environ.get('DISPLAY', '?')}"
    print(f"Peak (VmHWM, {driver}): window {peak_rss_mb(os.getpid()) or 0:.1f} MB, AI worker ", end="")
    print(f"{worker_peak:.1f} MB" if worker_peak is not None else "not measured")
    return 0


def present_each_frame(app: App) -> None:
    """Put every frame the tour steps on the display, as ``App.run`` does after each step."""
    step = app.step

    def step_and_present(events: list[pygame.event.Event], dt: float) -> bool:
        drew = step(events, dt)
        pygame.event.pump()
        pygame.display.flip()
        return drew

    app.step = step_and_present  # type: ignore[method-assign]


SESSION = (
    ("6x7", "Beginner"),
    ("6x7", "Easy"),
    ("6x7", "Medium"),
    ("6x7", "Hard"),
    ("6x7", "Expert"),
    ("6x7", "Perfect"),
    ("6x7", "Expert"),
    ("6x7", "Perfect"),
    ("7x8", "Expert"),
    ("7x8", "Perfect"),
)
"""The session's games: (board, the computer's preset)."""


def session(app: App, tour: Tour, rng: random.Random) -> int:
    """A player's long session (the module's docstring), memory printed after each step."""

    def row(what: str) -> None:
        worker = rss_mb(app.worker.pid) if app.worker.pid else 0.0
        peaks = peak_rss_mb(os.getpid()) or 0.0, (peak_rss_mb(app.worker.pid) if app.worker.pid else None) or 0.0
        print(
            f"| {what} | {rss_mb():.1f} | {worker:.1f} | {peaks[0]:.1f} | {peaks[1]:.1f} | "
            f"{time.perf_counter() - started:.0f} |",
            flush=True,
        )

    started = time.perf_counter()
    print("# lab.memory_bench --session: a player's long session (peaks: VmHWM so far)")
    print("| after | window RSS MB | worker RSS MB | window peak MB | worker peak MB | seconds |")
    print("|:------|--------------:|--------------:|---------------:|---------------:|--------:|")
    for number, (board, preset) in enumerate(SESSION, start=1):
        rules = Rules() if board == "6x7" else Rules(rows=7, cols=8)
        app.stack.reset(TitleScene())
        tour.frames(2)
        person = Level(2)  # a beginner's moves, first in every other game
        first, second = (PRESETS[preset], person) if number % 2 else (person, PRESETS[preset])
        play = PlayScene(rules, first, "demo", level2=second)
        tour.push(play)
        tour.until(lambda: isinstance(app.stack.top, GameOverScene), "the end of a game")
        review_and_analyse(tour, rng, explore=True)
        row(f"game {number} against {preset} on {board}, reviewed and analysed")
    app.stack.reset(TitleScene())
    tour.frames(2)
    network_game(app, tour)
    row("a network game, hosted on 127.0.0.1")
    app.stack.reset(TitleScene())
    tour.frames(2)
    puzzles = tour.push(PuzzlesScene(Source.FOR_YOU))
    for _attempt in range(5):
        tour.until(lambda: puzzles.puzzle is not None, "a puzzle")
        tour.key(pygame.K_1 + rng.randrange(7))  # a column: right or wrong, the attempt is kept
        tour.until(lambda: puzzles.verdict_job.id is None, "the verdict")
        tour.key(pygame.K_n)
    row("five puzzle attempts")
    past = tour.push(PastGamesScene())
    tour.key(pygame.K_g)
    tour.until(lambda: past.rated is not None, "the rating")
    row("past games and the rating graph")
    worker = peak_rss_mb(app.worker.pid)
    print(f"\nPeak (VmHWM): window {peak_rss_mb(os.getpid()) or 0:.1f} MB, AI worker ", end="")
    print(f"{worker:.1f} MB" if worker is not None else "not measured")
    print(f"Solver modules in the window's process: {', '.join(loaded_solver_modules(sys.modules)[:5]) or 'none'}")
    return 0


NETWORK_CODE = "reef-lamp-oak"
"""The session's network game's join code."""


def network_game(app: App, tour: Tour) -> None:
    """A network game as a player hosts one: the window's network screen hosts on
    127.0.0.1, a joiner (the real client, ``game.net.client``, on a real socket) joins;
    the host plays column 1 four times, the joiner column 2 between: the host's line ends
    it and the window keeps the game in the archive."""
    app.push(HostGame(HostSettings(code=NETWORK_CODE, name="Alice", address="127.0.0.1", port=0)))
    tour.frames(2)
    game = tour.top(NetworkTableScene).game
    tour.until(lambda: game.host is not None, "the network host")
    assert game.host is not None
    joiner = Client(*game.host.where, NETWORK_CODE, "Bob")
    joiner.start()
    try:
        for _move in range(3):
            tour.until(lambda: game.table is not None and game.to_play, "the host's turn")
            assert game.table is not None
            ply = game.table.board.ply
            tour.key(pygame.K_1)
            tour.until(lambda: game.table is not None and game.table.board.ply > ply, "the host's move")
            joiner.play(1, ply + 1)
        tour.until(lambda: game.to_play, "the joiner's move")
        tour.key(pygame.K_1)
        tour.until(lambda: game.kept, "the network game kept")
    finally:
        joiner.close()


def review_and_analyse(tour: Tour, rng: random.Random, *, explore: bool = False) -> None:
    """From the result panel: the review (V) to its end, the analysis board (A) at a
    random position of the game until its scores come, then back to the panel."""

    tour.key(pygame.K_v)
    review = tour.top(ReviewScene)
    tour.until(lambda: review.review is not None or review.failed is not None, "the review")
    review.set_ply(rng.randrange(len(review.moves)))
    tour.key(pygame.K_a)
    analysis = tour.top(AnalysisScene)
    if analysis.rules == Rules():  # off the standard board the analysis board has no exact scores
        tour.until(lambda: analysis.answer is not None or analysis.no_scores_reason is not None, "the scores")
    if explore and analysis.rules == Rules():  # the opening explorer at this position
        tour.key(pygame.K_e)
        explorer = tour.top(ExplorerScene)
        tour.until(lambda: explorer.scores is not None or explorer.no_scores is not None, "the explorer's values")
        tour.key(pygame.K_ESCAPE)
    tour.key(pygame.K_ESCAPE)
    tour.key(pygame.K_ESCAPE)


if __name__ == "__main__":
    raise SystemExit(main())
