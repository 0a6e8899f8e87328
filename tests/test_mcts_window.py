"""The level ``mcts:N`` in the window: chosen on the level screen, played through the worker."""

from __future__ import annotations

import pygame
import pytest

from ai.answer import DecidedBy
from ai.levels import PRESETS, describe, mcts_level
from ai.mcts import Proved, mcts
from ai.mcts_table import BUDGETS
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.play import PlayScene
from game.app.scenes.play_text import answer_detail
from game.app.tree.mcts_chart_scene import MctsChartScene
from game.app.tree.mcts_scene import MctsScene
from game.app.tree.mcts_text import comparison_lines, node_lines
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


def test_t_after_an_mcts_move_opens_the_tree_of_that_move_at_once_and_its_button_is_live(app):
    """Issue 52: the Tree button was drawn grey after an MCTS move, and T ran the search again."""
    play = PlayScene(Rules(), mcts_level(1000), "computer", "human")
    app.stack.push(play)
    step(app, 2)
    press(app, pygame.K_4)
    assert wait_until(app, lambda: play.match.board.ply == 2 and play.drop is None and not play.thinking, 60)
    assert play.button_states()["tree"] and play.buttons["tree"].enabled
    played = play.jobs.report.answer.mcts
    press(app, pygame.K_t, frames=2)
    scene = app.stack.top
    assert isinstance(scene, MctsScene) and scene.playouts == 1000
    assert (scene.board.grid == Board.from_moves("4").grid).all()
    assert scene.found is played  # shown at once: no search run again
    assert scene.found.move == play.match.board.moves[1]
    assert wait_until(app, lambda: scene.minimax is not None, 60)  # minimax beside it, from the worker
    assert scene.found is played


def test_s_in_mcts_beside_minimax_runs_mcts_solver_and_marks_what_it_proved(app):
    board = Board.from_moves("2252576253462244111563365343671351441")  # player 2 to move loses
    app.stack.push(MctsScene(board, 5000))
    step(app)
    scene = app.stack.top
    assert wait_until(app, lambda: scene.found is not None and scene.minimax is not None, 60)
    assert scene.found.proved is None and not scene.found.tree.solver
    plain = scene.found
    press(app, pygame.K_s)  # on a quiet machine MCTS-Solver can answer within these frames
    assert scene.solver
    assert wait_until(app, lambda: scene.found is not None and scene.found is not plain, 60)
    assert scene.found.tree.solver and scene.found.proved is Proved.LOSS and scene.found.playouts < 5000
    lines = comparison_lines(scene.found, scene.minimax, scene.exact, board.rules, board.to_move)
    assert any("MCTS-Solver proved the position" in line for line in lines)
    assert "MCTS-Solver proved it: player 1 wins from here with perfect play" in node_lines(
        scene.found.tree.root, board.rules
    )
    step(app, 2)  # drawn with its proven nodes


def test_g_charts_mcts_against_the_truth_in_the_worker(app):
    app.stack.push(MctsScene(Board.from_moves("44"), 1000))
    step(app)
    scene = app.stack.top
    assert wait_until(app, lambda: scene.found is not None, 60)
    press(app, pygame.K_g, frames=2)
    chart = app.stack.top
    assert isinstance(chart, MctsChartScene) and chart.budgets == BUDGETS
    assert wait_until(app, lambda: chart.finished, 120)
    truth = chart.truth
    assert truth is not None and truth.rows[-1].judged == 1
    board = Board.from_moves("44")
    for budget in BUDGETS:  # the worker's searches are the seeded searches
        found = mcts(board.grid, board.rules, budget, to_move=board.to_move, seed=0)
        assert truth.positions[0].chosen["plain"][budget] == found.move
    assert truth.positions[0].keeping == [3]  # only the centre keeps player 1's win
    press(app, pygame.K_g, frames=2)
    assert app.stack.top is scene


def test_m_in_the_tree_overlay_opens_mcts_beside_the_same_search(app):
    tree_scene = open_tree_after(app, "4453", 4)
    press(app, pygame.K_m, frames=2)
    scene = app.stack.top
    assert isinstance(scene, MctsScene) and scene is not tree_scene
    assert (scene.board.grid == Board.from_moves("4453").grid).all() and scene.depth == 4
