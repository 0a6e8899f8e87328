"""Headless demo: computer against computer through the real scenes, with screenshots.

``python main.py demo --out DIR`` needs no window (SDL's dummy driver).  It visits the
title menu, the options, the level select, plays a whole game computer against computer,
opens the tree overlay (with its code walk, practice and depth chart), plays a short
full-board game without gravity, asks for a hint against the computer in a middle game
(and why), explains that position on the analysis board (W), then shows the review of
the first game, the past games (the demo's games are in its archive) and the analysis
board, then a short game of two people with its mistakes retried (a wrong try,
a right one, the queue across games from Past games) and the opening explorer, saving
a PNG of each into DIR.  ``--home DIR`` keeps the settings and the archive there
(default: a temporary folder); ``--language de`` shows the window in German (or
``es``, ``en``).  ``--window`` draws the same tour on the display, each frame shown at
the demo's pace (60 a second), for a projector or to measure a real window's memory; at
the end it prints the peak resident memory of the window and of the AI worker.  Exit
code 0 on success.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pygame

from ai.levels import Level
from game.app.archive_link import review_request
from game.app.loop import App
from game.app.memory import peak_rss_mb
from game.app.router import scene_for
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.explorer import ExplorerScene
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.play import PlayScene
from game.app.scenes.retry import RetryScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.title import TitleScene
from game.app.settings import LANGUAGE_CHOICES, Opponent
from game.app.tree.code_scene import CodeWalkScene
from game.app.tree.codewalk import Line
from game.app.tree.depth_scene import DepthChartScene
from game.app.tree.practice_scene import PracticeScene
from game.board import Board
from game.display_check import display_problem
from game.i18n import set_language
from game.rules import Mode, Rules

FRAME = 1 / 60
WHY_GAME = "45221332233535552737766752"
"""A middle game where you (player 1) win by zugzwang: the hint's and Explain's position."""


SceneT = TypeVar("SceneT")


class Demo:
    """Drives an App frame by frame and saves screenshots."""

    def __init__(
        self,
        out: Path,
        depth: int,
        size: tuple[int, int],
        home: Path | None = None,
        language: str = "system",
        window: bool = False,
        fps: int = 60,
    ):
        self.window = window
        self.fps = fps  # --window: frames shown a second (0: as fast as they come)
        self.shown = 0  # frames put on the display (--window)
        self.started = (time.perf_counter(), time.process_time())
        if not window:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"  # read when the App starts SDL (pygame.init)
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self.home = home or Path(tempfile.mkdtemp(prefix="connect4-demo-"))
        self.app = App(size, home=self.home)
        level = replace(self.app.settings.level, depth=depth, pruning=True, node_budget=0)
        self.app.settings.level = self.app.settings.second_level = level
        self.app.settings.language = language
        set_language(language)
        self.saved: list[Path] = []

    def frames(self, count: int = 1, events: Iterable[pygame.event.Event] | None = None) -> None:
        for index in range(count):
            self.step(list(events or []) if index == 0 else [])

    def step(self, events: list[pygame.event.Event]) -> None:
        """One frame; with ``--window`` shown on the display and held to the demo's pace."""
        self.app.step(events, FRAME)
        if self.window:
            closed = pygame.event.get(pygame.QUIT)  # the window's own events: it stays responsive,
            pygame.event.clear()  # and a key pressed at the projector does not steer the tour
            if closed:
                raise RuntimeError("the window was closed")
            pygame.display.flip()
            self.shown += 1
            if self.fps:
                self.app.clock.tick(self.fps)

    def until(self, condition: Callable[[], object], timeout: float = 120.0) -> bool:
        deadline = time.perf_counter() + timeout
        while not condition():
            if time.perf_counter() > deadline or not self.app.running:
                return False
            self.step([])
            if not self.window:
                time.sleep(0.001)
        return True

    def key(self, key: int, mod: int = 0) -> None:
        self.frames(2, [pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)])

    def opened(self, key: int, kind: type[SceneT], failure: str) -> SceneT:
        """Press ``key`` and return the scene it opened, which must be a ``kind``."""
        self.key(key)
        top = self.app.stack.top
        if not isinstance(top, kind):
            raise RuntimeError(failure)
        return top

    def shot(self, name: str) -> None:
        path = self.app.save_screenshot(self.out / name)
        if path is None:
            raise RuntimeError(f"could not save {name}")
        self.app.toast = None
        self.saved.append(path)
        print(f"saved {path}")

    def run(self) -> int:

        app = self.app
        app.stack.push(TitleScene())
        self.frames(3)
        self.shot("01-title.png")
        app.stack.push(OptionsScene())
        self.frames(2)
        self.shot("02-options.png")
        self.key(pygame.K_ESCAPE)
        app.settings.opponent = Opponent.DEMO
        app.stack.push(LevelSelectScene())
        self.frames(2)
        self.shot("03-level-select.png")
        self.key(pygame.K_RETURN)  # Start: computer against computer
        play = app.stack.top
        assert isinstance(play, PlayScene), "the level select did not start a game"

        # A disc in mid-fall, a few moves in.
        if not self.until(lambda: len(play.match.moves) >= 5 and play.drop is not None and 1.5 < play.drop.y < 3.5):
            raise RuntimeError("the game did not get going")
        self.shot("04-game-falling.png")
        if self.until(lambda: (play.thinking and play.jobs.progress is not None) or play.outcome is not None):
            if play.outcome is None:
                self.shot("05-thinking.png")
        if not self.until(lambda: app.stack.top is not play and play.outcome is not None, timeout=600):
            raise RuntimeError("the game did not finish")
        self.frames(20)
        self.shot("06-game-over.png")
        self.key(pygame.K_ESCAPE)  # look at the board
        self.frames(10)
        self.shot("07-final-board.png")
        self.tree_shots(play)
        self.variant_shot()
        self.hint_shot()
        self.explain_shot()
        self.review_shots(play)
        self.retry_shots()
        self.opening_explorer_shots()
        return 0

    def review_shots(self, play: PlayScene) -> None:
        """The first game's review (at its last turning point with a proved reason, else its
        first), the past games, and the analysis board at the position the review shows."""
        self.app.stack.reset(TitleScene())
        review = scene_for(review_request(play), self.app)
        assert isinstance(review, ReviewScene)
        self.app.stack.push(review)
        self.frames(2)
        if not review.reviewing or not self.until(lambda: review.review is not None, timeout=300):
            raise RuntimeError("the review did not finish")
        points = review.review.turning_points if review.review is not None else ()
        proved = [m for m in points if m.why is not None and m.why.reason.proved]  # says why, marks threats
        shown = proved[-1] if proved else points[0] if points else None
        review.set_ply(shown.ply if shown is not None else len(review.moves) // 2)
        self.frames(2)
        self.shot("11-review.png")
        self.key(pygame.K_a)
        analysis = self.app.stack.top
        self.until(
            lambda: getattr(analysis, "answer", None) is not None or getattr(analysis, "no_scores_reason", None), 60
        )
        self.frames(2)
        self.shot("13-analysis.png")
        self.app.stack.reset(TitleScene())
        self.app.stack.push(PastGamesScene())
        self.frames(3)
        self.shot("12-past-games.png")

    def retry_shots(self) -> None:
        """Two people play 4455667 (both throw the game away once); its review's mistakes
        are retried: a wrong try, a right one; then Past games trains every stored one."""
        self.app.stack.reset(TitleScene())
        play = PlayScene(Rules(), Level(4), "human")
        self.app.stack.push(play)
        self.frames(2)
        for char in "4455667":
            play.try_human_move(int(char) - 1)
            self.until(lambda: play.drop is None, 10)
        if not self.until(lambda: isinstance(self.app.stack.top, GameOverScene), 20):
            raise RuntimeError("the two-player game did not end")
        self.key(pygame.K_v)
        review = self.app.stack.top
        if not isinstance(review, ReviewScene) or not self.until(lambda: review.review is not None, 120):
            raise RuntimeError("the two-player game's review did not finish")
        self.key(pygame.K_l)
        retry = self.app.stack.top
        if not isinstance(retry, RetryScene) or not self.until(lambda: retry.columns is not None, 60):
            raise RuntimeError("the retry got no exact scores")
        self.frames(2)
        self.shot("14-retry.png")
        self.key(pygame.K_1)  # 44 then 1: the win is thrown away
        self.until(lambda: retry.reply is not None and retry.why is not None, 60)  # its answer, and why
        self.frames(2)
        self.shot("15-retry-wrong.png")
        self.key(pygame.K_r)
        self.key(pygame.K_4)
        self.frames(2)
        self.shot("16-retry-right.png")
        self.app.stack.reset(TitleScene())
        self.app.stack.push(PastGamesScene())
        self.frames(2)
        self.key(pygame.K_m)
        queue = self.app.stack.top
        if not isinstance(queue, RetryScene) or not self.until(lambda: queue.columns is not None or queue.finished, 60):
            raise RuntimeError("Past games opened no queue of mistakes")
        self.frames(2)
        self.shot("17-retry-queue.png")

    def opening_explorer_shots(self) -> None:
        """The opening explorer from the title: the empty board, then two columns deeper."""

        self.app.stack.reset(TitleScene())
        explorer = ExplorerScene()
        self.app.stack.push(explorer)
        if not self.until(lambda: explorer.scores is not None or explorer.no_scores is not None, 60):
            raise RuntimeError("the explorer got no exact values")
        self.frames(2)
        self.shot("18-explorer.png")
        for key in (pygame.K_4, pygame.K_4):
            self.key(key)
            self.until(lambda: explorer.scores is not None or explorer.no_scores is not None, 60)
        self.frames(2)
        self.shot("19-explorer-deeper.png")

    def hint_shot(self) -> None:
        """You against the computer, in a middle game (``WHY_GAME``): a hint, its verdict in
        the status and on the board, and why (the explainer's reason) under them."""
        self.app.stack.reset(TitleScene())
        play = PlayScene(Rules(), Level(4), "computer")
        self.app.stack.push(play)
        self.frames(2)
        for char in WHY_GAME:
            play.match.play(int(char) - 1)
        self.frames(2)
        play.jobs.request_hint()
        if not self.until(lambda: play.jobs.hint is not None):
            raise RuntimeError("no hint came")
        if not self.until(lambda: play.jobs.shown_why() is not None, 60):
            raise RuntimeError("the hint's reason did not come")
        self.app.toast = None
        self.frames(2)
        self.shot("10-hint.png")

    def explain_shot(self) -> None:
        """The analysis board explaining the same position (W): the threats, the pairs and the
        columns played first drawn on the board, the reason beside it."""
        self.app.stack.reset(TitleScene())
        analysis = AnalysisScene(Board.from_moves(WHY_GAME))
        self.app.stack.push(analysis)
        self.frames(2)
        self.until(lambda: analysis.answer is not None or analysis.no_scores_reason is not None, 60)
        self.key(pygame.K_w)
        if not self.until(lambda: analysis.explanation is not None or analysis.why_note is not None, 60):
            raise RuntimeError("the explanation did not come")
        self.app.toast = None
        self.frames(2)
        self.shot("20-explain.png")

    def variant_shot(self) -> None:
        """A second, short game: full-board scoring on a 5x5 board without gravity."""
        self.app.stack.reset(TitleScene())
        rules = Rules(rows=5, cols=5, connect=3, gravity=False, mode=Mode.FULL_BOARD)
        play = PlayScene(rules, Level(3), "demo")
        self.app.stack.push(play)
        if not self.until(lambda: self.app.stack.top is not play and play.outcome is not None, timeout=300):
            raise RuntimeError("the full-board game did not finish")
        self.key(pygame.K_ESCAPE)  # look at the board
        self.frames(10)
        self.shot("09-full-board-no-gravity.png")

    def tree_shots(self, play: PlayScene) -> None:
        """Open the tree overlay on the game's last search (once the overlay exists)."""

        self.key(pygame.K_t)
        tree_scene = self.app.stack.top
        if tree_scene is play:
            return
        select = getattr(tree_scene, "demo_select", None)
        if select is not None:
            select()
        self.frames(5)
        self.shot("08-tree.png")
        self.explorer_shots()

    def explorer_shots(self) -> None:
        """From the tree overlay: the code walk (K), practice (P), depth against truth (D)."""
        walk = self.opened(pygame.K_k, CodeWalkScene, "K did not open the code walk")
        if not self.until(lambda: walk.ready, 60):
            raise RuntimeError("the worker sent no textbook tree")
        for _ in range(400):  # line by line up to the first cutoff
            if walk.step.kind is Line.CUTOFF:
                break
            self.key(pygame.K_RIGHT)
        self.shot("08b-tree-code.png")
        self.key(pygame.K_ESCAPE)
        practice = self.opened(pygame.K_p, PracticeScene, "P did not open the practice")
        if not self.until(lambda: practice.practice is not None, 60) or practice.practice is None:
            raise RuntimeError("the worker sent no practice trees")
        for number in range(3):
            question = practice.practice.question
            if question is not None:
                practice.submit(question.expected if number != 2 else "0")
        self.frames(2)
        self.shot("08c-tree-practice.png")
        self.key(pygame.K_ESCAPE)
        chart = self.opened(pygame.K_d, DepthChartScene, "D did not open the depth chart")
        if not self.until(lambda: chart.done, timeout=300):
            raise RuntimeError("the depth chart did not finish")
        self.frames(2)
        self.shot("08d-tree-depth-chart.png")
        self.key(pygame.K_ESCAPE)

    def peaks(self) -> str:
        """'peak memory: window 80 MB, AI worker 150 MB' (Linux's VmHWM; '' elsewhere)."""
        window = peak_rss_mb(os.getpid())
        worker = peak_rss_mb(self.app.worker.pid)
        if window is None:
            return ""
        said = f"peak memory: window {window:.0f} MB"
        return said + (f", AI worker {worker:.0f} MB" if worker is not None else "")

    def pace(self) -> str:
        """'frames: 9000 in 160 s (56 a second), window CPU 0.4 ms a frame' (--window)."""
        wall = time.perf_counter() - self.started[0]
        cpu = time.process_time() - self.started[1]
        rate = self.shown / wall if wall > 0 else 0.0
        per_frame = 1000 * cpu / self.shown if self.shown else 0.0
        return (
            f"frames: {self.shown} in {wall:.0f} s ({rate:.0f} a second), "
            f"window CPU {cpu:.1f} s ({per_frame:.1f} ms a frame)"
        )

    def close(self) -> None:
        self.app.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="main.py demo", description=__doc__)
    parser.add_argument("--out", required=True, help="folder for the PNG screenshots")
    parser.add_argument("--depth", type=int, default=7, help="search depth of both computers (default 7)")
    parser.add_argument("--size", default="1024x720", help="window size WxH (default 1024x720)")
    parser.add_argument("--home", help="folder for the demo's settings and game archive (default: a temporary one)")
    parser.add_argument(
        "--language", choices=LANGUAGE_CHOICES, default="system", help="the window's language (default: the system's)"
    )
    parser.add_argument(
        "--window", action="store_true", help="draw the tour on the display at the demo's pace (and say its memory)"
    )
    parser.add_argument(
        "--fps", type=int, default=60, help="with --window: frames a second (default 60; 0: as fast as they come)"
    )
    args = parser.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"main.py demo: error: --size must look like 1024x720, not {args.size!r}", file=sys.stderr)
        return 2
    if args.window:
        problem = display_problem()
        if problem:
            print(f"main.py demo: error: {problem}", file=sys.stderr)
            return 1
    home = Path(args.home) if args.home else None
    if args.fps < 0:
        print(f"main.py demo: error: --fps must be 0 or more, not {args.fps}", file=sys.stderr)
        return 2
    demo = Demo(Path(args.out), args.depth, (width, height), home, args.language, window=args.window, fps=args.fps)
    try:
        code = demo.run()
        if args.window:
            print(demo.pace())
            if demo.peaks():
                print(demo.peaks())
        return code
    except (RuntimeError, AssertionError) as error:
        print(f"main.py demo: error: {error}", file=sys.stderr)
        return 1
    finally:
        demo.close()
