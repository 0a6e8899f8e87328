"""The window's benchmarks: ``python -m lab.window_bench`` (headless, prints tables).

CPU while idle: the real loop (``App.run``) on the title menu and on the play screen
(your turn, nothing moving) for 10 s each, as a share of one core; for comparison the
title drawn every frame as the loop did before it learned to stay idle.

Frame times while the AI searches:

The play scene runs at 60 frames per second (SDL dummy driver) while the computer
searches depth 8 without pruning on the empty 6x7 board (about 6.7 million nodes) in the
worker process, recording its tree as the game does, and the tree is taken in at the end.
It reports the work per frame (events, update, draw) and the interval between frames.

Frames while a review runs: the review scene at 60 frames per second while the worker
reviews a 34-move game (the exact solver on every position), stepping through the game
with the arrow keys meanwhile, as a person would.

Drawing the screens that say why (``--only-why``): CPU per drawn frame of the play screen
with a hint and its reason, the analysis board with Explain on and the retry of a
mistake with its why, in English at 100 % and German at 200 % text, with ``Theme.wrap``
remembering its paragraphs and, for comparison, wrapping anew each time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pygame

from ai.levels import PRESETS, Level
from ai.search import search
from game.app.loop import FPS, App
from game.app.scene import Scene
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.play import PlayScene
from game.app.scenes.retry import RetryScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.title import TitleScene
from game.app.search_records import SearchRecord
from game.app.tree.scene import TreeScene
from game.app.worker_protocol import JobPurpose
from game.board import Board
from game.i18n import set_language
from game.learn.training import Drill
from game.rules import MIN, STANDARD, Rules
from lab.bench import machine


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--pruning", action="store_true", help="search with alpha-beta (default: without)")
    parser.add_argument("--limit", type=float, default=60.0, help="stop after this many seconds")
    parser.add_argument("--skip-search", action="store_true", help="skip the frames-while-searching benchmark")
    parser.add_argument("--idle-seconds", type=float, default=10.0, help="seconds of each idle CPU measurement")
    parser.add_argument("--only-idle", action="store_true", help="only the idle CPU benchmark")
    parser.add_argument("--only-review", action="store_true", help="only the frames-while-reviewing benchmark")
    parser.add_argument("--only-why", action="store_true", help="only the drawing of the screens that say why")
    args = parser.parse_args(argv)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"

    print(f"# lab.window_bench on {machine()}")
    if args.only_review:
        review_bench(args.limit)
        return 0
    if args.only_why:
        why_bench()
        return 0
    idle_bench(args.idle_seconds)
    if args.only_idle:
        return 0
    if not args.skip_search:
        search_bench(args)
    review_bench(args.limit)
    tree_bench()
    why_bench()
    return 0


def idle_cpu(make_scene: Callable[[], Scene], seconds: float) -> tuple[float, int]:
    """Run the real loop on one scene for ``seconds``; return (share of a core, frames drawn).

    Nothing happens meanwhile (no input), as when a person looks at the window and
    thinks.  CPU time is this process's (the AI worker is not started while idle).
    """

    app = App((1024, 720), home=Path(tempfile.mkdtemp(prefix="connect4-bench-")))
    app.stack.push(make_scene())
    app.step([], 1 / 60)  # the scene is in place and drawn once
    drawn = [0]
    draw = app.draw

    def counted_draw() -> None:
        drawn[0] += 1
        draw()

    app.draw = counted_draw  # type: ignore[method-assign]
    cpu, wall = time.process_time(), time.perf_counter()
    app.run(seconds)  # closes the app at the end
    return (time.process_time() - cpu) / (time.perf_counter() - wall), drawn[0]


def idle_bench(seconds: float) -> None:
    """CPU while idle on the title and on the play screen; and the window's own share
    while the computer searches in the worker (redrawn for each progress message only)."""

    class TitleDrawnEveryFrame(TitleScene):
        def is_animating(self) -> bool:
            return True

    rows = [
        ("title menu", TitleScene),
        ("play screen, your turn", lambda: PlayScene(Rules(), Level(4), "computer")),
        ("computer thinking (window)", lambda: PlayScene(Rules(), Level(12), "computer", "computer")),
        ("title, every frame drawn", TitleDrawnEveryFrame),
    ]
    print(f"\n## CPU while idle ({seconds:.0f} s each, no input, 1024x720)")
    print(f"{'':28} {'CPU % of a core':>16} {'frames drawn':>13}")
    for name, make in rows:
        share, frames = idle_cpu(make, seconds)
        print(f"{name:28} {share * 100:16.1f} {frames:13d}")


def report(rows: list[tuple[str, list[float]]]) -> None:
    print(f"{'':16} {'median ms':>10} {'p95 ms':>8} {'worst ms':>9} {'frames >50 ms':>14}")
    for name, values in rows:
        print(
            f"{name:16} {statistics.median(values) * 1000:10.2f} {percentile(values, 0.95) * 1000:8.2f} "
            f"{max(values) * 1000:9.2f} {sum(v > 0.05 for v in values):14d}"
        )


def search_bench(args: argparse.Namespace) -> None:
    """Frames of the play scene while the worker searches."""

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

    print("\n## Play scene while the computer searches")
    what = f"depth {args.depth} {'with' if args.pruning else 'without'} pruning, 6x7, tree recorded"
    if record is None:
        print(f"The search ({what}) did not finish within {args.limit:.0f} s; figures cover that time.")
    else:
        stats = record.result.stats
        tree = record.result.tree
        print(
            f"Search: {what}: {stats.nodes:,} nodes in {stats.seconds:.1f} s in the worker; "
            f"{len(tree) if tree else 0:,} nodes of tree taken in; {len(work)} frames in {total:.1f} s, "
            f"{searching_frames} of them during the search"
        )
    report([("work per frame", work), ("frame interval", intervals[1:])])


REVIEWED_GAME = "7422341735647741166133573473242566"
"""A 34-move game of the standard board (the second line of the end-game benchmark positions): the review's
solver works on every position."""


def review_bench(limit: float) -> None:
    """Frames of the review scene while the worker reviews a game."""

    app = App(home=Path(tempfile.mkdtemp(prefix="connect4-bench-")))
    began = time.perf_counter()
    app.worker.start()  # as the App does once its first frame is on screen
    start_ms = (time.perf_counter() - began) * 1000
    board = Board.from_moves(REVIEWED_GAME)
    review = ReviewScene(board.rules, board.moves)
    app.stack.push(review)
    work: list[float] = []
    intervals: list[float] = []
    clock = pygame.time.Clock()
    started = last = time.perf_counter()
    keys = (pygame.K_LEFT, pygame.K_LEFT, pygame.K_RIGHT)
    while (review.review is None and review.failed is None) and time.perf_counter() - started < limit:
        dt = clock.tick(FPS) / 1000.0
        now = time.perf_counter()
        intervals.append(now - last)
        last = now
        events = []
        if len(work) % 10 == 0:  # a key every sixth of a second: stepping through the game
            key = keys[len(work) // 10 % len(keys)]
            events.append(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        app.step(events, dt)
        pygame.display.flip()
        work.append(time.perf_counter() - now)
    total = time.perf_counter() - started
    done = review.review is not None
    app.close()
    print("\n## Review scene while the worker reviews a game")
    state = "reviewed" if done else f"not finished within {limit:.0f} s"
    print(f"{len(board.moves)} moves {state} in {total:.1f} s; {len(work)} frames, a key every 10 frames")
    slow = [f"{index} ({seconds * 1000:.0f} ms)" for index, seconds in enumerate(work) if seconds > 0.05]
    print(f"frames over 50 ms of work: {', '.join(slow) or 'none'}; the worker process started in {start_ms:.0f} ms")
    print("(frame 0 is the scene's first draw: its fonts and text measured for the first time)")
    report([("work per frame", work), ("... after frame 0", work[1:]), ("frame interval", intervals[1:])])


def tree_bench() -> None:
    """Frames of the tree overlay on a 137,257-node tree while zooming, panning, replaying."""

    app = App(home=Path(tempfile.mkdtemp(prefix="connect4-bench-")))
    play = PlayScene(app.settings.rules(), Level(6, pruning=False), "computer")
    result = search(play.match.board.grid, play.rules, 6, pruning=False, record_tree=True, to_move=MIN)
    play.searches.append(SearchRecord(0, MIN, JobPurpose.MOVE, result))
    app.stack.push(play)
    app.step([], 1 / 60)
    opened = time.perf_counter()
    app.stack.push(TreeScene(play))
    app.step([], 1 / 60)
    open_seconds = time.perf_counter() - opened
    scene = app.stack.top
    assert isinstance(scene, TreeScene), "the tree overlay did not open"
    actions: list[Callable[[], object]] = []
    for _ in range(30):  # to about 10 x
        actions.append(lambda: scene.zoom(1.08, (400, 300)))
    for _ in range(60):
        actions.append(
            lambda: scene.handle_event(
                pygame.event.Event(pygame.MOUSEMOTION, pos=(400, 300), rel=(9, 2), buttons=(1, 0, 0))
            )
        )
    actions.append(scene.fit)
    for _ in range(15):  # to about 3 x, where the most nodes are on screen
        actions.append(lambda: scene.zoom(1.08, (300, 300)))
    actions.append(scene.toggle_play)
    scene.speed_index = 7  # 3000 steps a second
    actions += [lambda: None] * 120

    def press(key: int) -> Callable[[], object]:
        return lambda: scene.handle_key(key)

    for key in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN, pygame.K_DOWN, pygame.K_RIGHT) * 8:
        actions.append(press(key))
    scene.drag_from = (400, 300)
    work: list[float] = []
    drawn: list[int] = []
    for action in actions:
        started = time.perf_counter()
        action()
        app.step([], 1 / 60)
        work.append(time.perf_counter() - started)
        drawn.append(len(scene.drawn))
    app.close()
    tree = result.tree
    assert tree is not None
    print(f"\n## Tree overlay on a {len(tree):,}-node tree (depth 6 without pruning)")
    print(
        f"opened in {open_seconds * 1000:.0f} ms; {len(work)} frames of zoom, drag, replay at 3000 steps/s and "
        f"arrow-key walks; items drawn per frame: median {statistics.median(drawn):.0f}, most {max(drawn)}"
    )
    report([("work per frame", work)])
    print(f"= {1 / percentile(work, 0.95):.0f} frames per second at the 95th percentile")


WHY_POSITION = "45221332233535552737766752"
"""A middle game where player 1 wins by zugzwang (the demo's hint and Explain position)."""
WHY_RETRY = "64446472544635565562652"
"""Before player 2's blunder in column 1 (a retry whose why is a checked strategy)."""


def why_bench(draws: int = 60) -> None:
    """CPU per drawn frame of the screens that say why, each drawn ``draws`` times once its
    explanation has come (the worker's work is not in it)."""

    def screens(app: App) -> list[tuple[str, Scene, Callable[[], bool]]]:
        play = PlayScene(Rules(), PRESETS["Hard"], "computer", "human")
        analysis = AnalysisScene(Board.from_moves(WHY_POSITION))
        before = Board.from_moves(WHY_RETRY)
        retry = RetryScene([Drill(STANDARD, tuple(before.moves), 0, "a benchmark")])
        return [
            ("play, hint + why", play, lambda: play.jobs.shown_why() is not None),
            ("analysis, Explain", analysis, lambda: analysis.explanation is not None),
            ("retry, a try's why", retry, lambda: retry.why is not None and retry.job.id is None),
        ]

    def ask(app: App, scene: Scene) -> None:
        key = {PlayScene: pygame.K_h, AnalysisScene: pygame.K_w, RetryScene: pygame.K_1}[type(scene)]
        if isinstance(scene, PlayScene):
            for move in Board.from_moves(WHY_POSITION).moves:
                scene.match.play(move)
        wait(app, lambda: not isinstance(scene, RetryScene | AnalysisScene) or ready_to_ask(scene))
        app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)], 1 / 60)

    print(f"\n## Drawing the screens that say why (CPU ms per frame drawn, {draws} frames each, 1024x720)")
    print(f"{'':22} {'language, text':>15} {'wrap remembered':>16} {'wrapped anew':>13}")
    for language, scale in (("en", 100), ("de", 200)):
        app = App((1024, 720), home=Path(tempfile.mkdtemp(prefix="connect4-bench-")))
        app.settings.ui_scale, app.theme.scale = scale, scale / 100
        set_language(language)
        for name, scene, arrived in screens(app):
            app.stack.reset(scene)
            app.step([], 1 / 60)
            ask(app, scene)
            if not wait(app, arrived):
                print(f"{name:22} {language + f', {scale} %':>15} {'no explanation within 120 s':>30}")
                continue
            remembered = draw_cpu(app, draws)
            wrap = app.theme.wrap
            app.theme.wrap = lambda text, size, width, bold=False: app.theme._wrap(text, size, width, bold)  # type: ignore[method-assign]
            anew = draw_cpu(app, draws)
            app.theme.wrap = wrap  # type: ignore[method-assign]
            print(f"{name:22} {language + f', {scale} %':>15} {remembered:16.2f} {anew:13.2f}")
        app.close()
    set_language("en")


def ready_to_ask(scene: RetryScene | AnalysisScene) -> bool:
    """The retry's column scores (or the analysis board's) have come: a try can be judged."""
    return scene.columns is not None if isinstance(scene, RetryScene) else scene.job.id is None


def wait(app: App, done: Callable[[], bool], seconds: float = 120.0) -> bool:
    """Step frames until ``done`` (False after ``seconds``)."""
    deadline = time.perf_counter() + seconds
    while not done():
        if time.perf_counter() > deadline:
            return False
        app.step([], 1 / 60)
        time.sleep(0.001)
    return True


def draw_cpu(app: App, draws: int) -> float:
    """Milliseconds of this process's CPU per ``App.draw``, over ``draws`` draws."""
    app.draw()  # the first draw renders the lines the others reuse
    cpu = time.process_time()
    for _ in range(draws):
        app.draw()
    return (time.process_time() - cpu) / draws * 1000


if __name__ == "__main__":
    sys.exit(main())
