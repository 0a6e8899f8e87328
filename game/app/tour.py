"""A scripted visit of every scene, as a player drives them (keys, clicks, frames).

The memory benchmark repeats it and the one-road test runs it once: after it, the
window's process must not have loaded the solver, the book or numba, because every
piece of AI work on the way (moves, a hint, column scores, the review, the analysis
board, comparisons, the depth chart, the code walk, practice, the horizon) was a job
for the worker.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TypeVar

import pygame

from ai.levels import Level
from game.app.loop import App
from game.app.scene import Scene
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.explorer import ExplorerScene
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.help import HowToPlayScene
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.play import PlayScene
from game.app.scenes.retry import MistakesQueueScene, RetryScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.title import TitleScene
from game.app.tree.code_scene import CodeWalkScene
from game.app.tree.depth_scene import DepthChartScene
from game.app.tree.practice_scene import PracticeScene
from game.app.tree.scene import TreeScene
from game.i18n import _
from game.rules import Rules

S = TypeVar("S", bound=Scene)

FRAME = 1 / 30
"""Seconds of animation per stepped frame."""

SOLVER_MODULES = ("numba", "llvmlite", "ai.solver", "ai.compiled.solver_kernel", "ai.perfect", "ai.player", "ai.book")
"""What the window's process must never import: the exact solver, its compiled core, the
book, the decider that uses them, and numba; ``game.app.worker_jobs`` is the worker's."""


def loaded_solver_modules(modules: Iterable[str]) -> list[str]:
    """The names of ``modules`` that are ``SOLVER_MODULES`` (or the worker's side)."""
    banned = (*SOLVER_MODULES, "game.app.worker_jobs", "ai.reviewer", "ai.depth_truth")
    return sorted(name for name in modules if any(name == b or name.startswith(b + ".") for b in banned))


class Tour:
    """Drives ``app`` through every scene; ``seen`` names the scenes that were on top."""

    def __init__(self, app: App, timeout: float = 120.0):
        self.app = app
        self.timeout = timeout
        self.seen: list[str] = []

    # -- driving ------------------------------------------------------------------------
    def frames(self, count: int = 1) -> None:
        for _frame in range(count):
            self.app.step([], FRAME)
            self._note()

    def key(self, key: int, mod: int = 0, frames: int = 2) -> None:
        event = pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
        self.app.step([event], FRAME)
        self._note()
        self.frames(frames)

    def until(self, condition: Callable[[], bool], what: str) -> None:
        """Step frames until ``condition`` holds (the worker answers meanwhile)."""
        deadline = time.perf_counter() + self.timeout
        while not condition():
            if time.perf_counter() > deadline:
                raise TimeoutError(_("the tour waited too long for {what}").format(what=what))
            self.app.step([], FRAME)
            self._note()
            time.sleep(0.005)

    def push(self, scene: S, frames: int = 2) -> S:
        self.app.stack.push(scene)
        self.frames(frames)
        return scene

    def top(self, kind: type[S]) -> S:
        """The scene on top, which must be a ``kind``."""
        top = self.app.stack.top
        if not isinstance(top, kind):
            raise RuntimeError(
                _("the tour expected {name__} on top, found {name__2}").format(
                    name__=kind.__name__, name__2=type(top).__name__
                )
            )
        return top

    def _note(self) -> None:
        top = self.app.stack.top
        if top is not None and (not self.seen or self.seen[-1] != top.name):
            self.seen.append(top.name)

    # -- the visit ----------------------------------------------------------------------
    def run(self) -> list[str]:
        """Every scene once; returns the names of the scenes seen on top, in order."""
        self.app.stack.reset(TitleScene())
        self.frames(2)
        self.menus()
        play = self.game_against_the_computer()
        self.tree_overlay(play)
        self.key(pygame.K_ESCAPE)  # the pause menu
        self.key(pygame.K_ESCAPE)  # back to the game
        self.finish(play)
        self.review_and_analysis()
        self.mistakes_queue()
        self.app.stack.reset(TitleScene())
        self.frames(2)
        return self.seen

    def menus(self) -> None:
        for scene in (OptionsScene(), LevelSelectScene(), HowToPlayScene(), PastGamesScene()):
            self.push(scene)
            self.key(pygame.K_ESCAPE)

    def game_against_the_computer(self) -> PlayScene:
        """Two moves against depth 3, a hint (and why) and the column scores on."""
        play = PlayScene(Rules(), Level(3), "computer")
        self.push(play)

        def my_turn() -> bool:
            return play.drop is None and not play.thinking and play.match.to_move == play.human_side

        for key in (pygame.K_4, pygame.K_3):
            self.until(my_turn, _("the computer's move"))
            self.key(key)
        self.until(my_turn, _("the computer's move"))
        self.key(pygame.K_h)
        self.until(lambda: play.jobs.hint is not None, _("a hint"))
        self.until(lambda: not play.jobs.explaining, _("the hint's reason"))
        self.key(pygame.K_s)  # the column scores stay on the board
        self.until(lambda: play.jobs.purpose is None, _("the column scores"))
        return play

    def tree_overlay(self, play: PlayScene) -> None:
        """T, then the comparison (C), the move orders (O), the code walk (K), practice
        (P), and the depth chart on one benchmark position."""
        self.until(  # a tree let go for newer ones' (``KEPT_TREES``) came too
            lambda: all(r.result.tree is not None or r.tree_dropped for r in play.searches), _("the trees")
        )
        self.key(pygame.K_t)
        tree = self.top(TreeScene)
        self.key(pygame.K_c)
        self.until(lambda: tree.compare_job is None, _("the comparison"))
        self.key(pygame.K_o)
        self.until(lambda: tree.orders is None or not tree.orders.running, _("the move orders"))
        self.key(pygame.K_k)
        walk = self.top(CodeWalkScene)
        self.until(lambda: walk.ready or walk.fetch.failed is not None, _("the code walk"))
        self.key(pygame.K_RIGHT)
        self.key(pygame.K_ESCAPE)
        self.key(pygame.K_p)
        practice = self.top(PracticeScene)
        self.until(lambda: practice.practice is not None or practice.fetch.failed is not None, "practice")
        self.key(pygame.K_ESCAPE)
        assert tree.tree is not None
        chart = self.push(DepthChartScene(tree.tree, positions=1))
        self.until(lambda: chart.done, _("the depth chart"))
        self.key(pygame.K_ESCAPE)
        shown = tree.tree
        self.until(lambda: not tree.horizon.is_due(shown, tree.selected), _("the horizon line"))
        self.key(pygame.K_ESCAPE)

    def retry(self) -> None:
        """L: the review's mistakes again, one tried and judged (and its answer worked out)."""
        self.key(pygame.K_l)
        retry = self.top(RetryScene)
        self.until(lambda: retry.finished or retry.columns is not None or retry.no_scores is not None, _("the retry"))
        if retry.drill is not None and retry.no_scores is None:
            column = min(retry.board().legal_moves())
            self.key(pygame.K_1 + column)
            self.until(lambda: retry.verdict is not None and retry.job.id is None, _("the retry's judgement"))
        self.key(pygame.K_ESCAPE)

    def mistakes_queue(self) -> None:
        """Past games, then M: the queue of the stored games' mistakes."""
        self.push(PastGamesScene())
        self.key(pygame.K_m)
        queue = self.top(MistakesQueueScene)
        self.until(lambda: not queue.reviewing and queue.job.id is None, _("the queue of mistakes"))
        self.key(pygame.K_ESCAPE)
        self.key(pygame.K_ESCAPE)

    def finish(self, play: PlayScene) -> None:
        """The rest of the game: the person drops into the leftmost open column (the
        computer soon wins), to the result panel."""

        def over() -> bool:
            return isinstance(self.app.stack.top, GameOverScene)

        while not over():
            self.until(lambda: over() or (play.drop is None and not play.thinking), _("the computer's move"))
            self.frames(1)
            if not over() and play.outcome is None and play.match.to_move == play.human_side:
                column = min(play.match.board.legal_moves())
                self.key(pygame.K_1 + column)

    def review_and_analysis(self) -> None:
        """V: the review; A: the analysis board at its position, W its explanation, E the
        opening explorer there; L: the retry of the review's mistakes; T: a tree from the
        review."""
        self.key(pygame.K_v)
        review = self.top(ReviewScene)
        self.until(lambda: review.review is not None or review.failed is not None, _("the review"))
        review.set_ply(3)
        self.key(pygame.K_a)
        analysis = self.top(AnalysisScene)
        self.until(lambda: analysis.answer is not None or analysis.no_scores_reason is not None, _("the scores"))
        self.key(pygame.K_w)
        self.until(lambda: analysis.explanation is not None or analysis.why_note is not None, _("the explanation"))
        self.key(pygame.K_e)
        explorer = self.top(ExplorerScene)
        self.until(lambda: explorer.scores is not None or explorer.no_scores is not None, _("the explorer's values"))
        self.key(pygame.K_ESCAPE)
        self.key(pygame.K_ESCAPE)
        self.retry()
        self.key(pygame.K_t)
        self.until(lambda: self.app.stack.top is not review, _("the review's tree"))
        self.frames(2)
        self.key(pygame.K_ESCAPE)
        self.key(pygame.K_ESCAPE)
