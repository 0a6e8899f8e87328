"""The level ``mcts:N`` in the window: chosen on the level screen, played through the worker."""

from __future__ import annotations

import pygame
import pytest

from ai.answer import DecidedBy
from ai.levels import PRESETS, describe, mcts_level
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.play import PlayScene
from game.app.scenes.play_text import answer_detail
from game.app.tree.mcts_scene import MctsScene
from game.board import Board
from game.rules import Rules
from tests.ui import click, open_tree_after, press, step, wait_until

pytestmark = pytest.mark.window


def test_the_level_screen_sets_monte_carlo_playouts_and_hides_the_minimax_rows(app):
    app.stack.push(LevelSelectScene())
    step(app, 2)
    scene = app.stack.top
    click(app, next(b for b in scene.presets if b.label == "Medium").rect.center)
    assert scene.selectors[0] is scene.playouts and scene.depth in scene.selectors
    scene.focus.focus(scene.focus.items.index(scene.playouts))
    press(app, pygame.K_RIGHT)
    assert app.settings.level == mcts_level(1000)
    assert scene.selectors == [scene.playouts, scene.mcts_solver, scene.mcts_tactics]  # the minimax rows go
    assert any("Monte Carlo tree search: 1,000 random games" in line for line in describe_lines(scene))
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RIGHT)
    assert app.settings.level == mcts_level(1000, solver=True)
    assert any("MCTS-Solver: a position whose result is certain" in line for line in describe_lines(scene))
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RIGHT)
    assert app.settings.level == mcts_level(1000, solver=True, tactics=True)
    press(app, pygame.K_UP)
    press(app, pygame.K_UP)
    press(app, pygame.K_RIGHT)  # more playouts keep the switches
    assert app.settings.level == mcts_level(5000, solver=True, tactics=True)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert not app.settings.level.is_mcts and scene.depth in scene.selectors
    click(app, next(b for b in scene.presets if b.label == "Perfect").rect.center)
    assert app.settings.level == PRESETS["Perfect"] and scene.selectors == []


def describe_lines(scene) -> list[str]:
    return describe(scene.level(), scene.app.settings.rules())


def test_an_mcts_level_plays_its_move_in_the_window_and_says_its_playouts(app):
    play = PlayScene(Rules(), mcts_level(2000), "computer", "computer")
    app.stack.push(play)
    step(app, 2)
    assert wait_until(app, lambda: play.match.board.ply == 1 and play.drop is None and not play.thinking, 60)
    report = play.jobs.report
    assert report is not None and report.answer.decided_by is DecidedBy.MCTS
    assert "2,000 playouts" in answer_detail(report)
    assert play.match.board.moves == [3]  # the empty board's most-visited column: the centre


def test_t_after_an_mcts_move_opens_its_tree_beside_minimax(app):
    play = PlayScene(Rules(), mcts_level(1000), "computer", "computer")
    app.stack.push(play)
    step(app, 2)
    assert wait_until(app, lambda: play.match.board.ply == 1 and play.drop is None and not play.thinking, 60)
    press(app, pygame.K_t, frames=2)
    scene = app.stack.top
    assert isinstance(scene, MctsScene) and scene.board.moves == [] and scene.playouts == 1000
    assert wait_until(app, lambda: scene.found is not None, 60)
    assert scene.found.move == play.match.board.moves[0]  # the same seed: the tree of the move played


def test_m_in_the_tree_overlay_opens_mcts_beside_the_same_search(app):
    tree_scene = open_tree_after(app, "4453", 4)
    press(app, pygame.K_m, frames=2)
    scene = app.stack.top
    assert isinstance(scene, MctsScene) and scene is not tree_scene
    assert (scene.board.grid == Board.from_moves("4453").grid).all() and scene.depth == 4
