"""Trees you build in the real window: branches marked with clicks, values typed, the order
changed, and the textbook's alpha-beta's verdict on the screen."""

from __future__ import annotations

import pygame
import pytest

from ai.textbook_tree import alpha_beta
from game.app.scenes.tree_builder import TreeBuilderScene
from game.learn.tree_builder import EXERCISES, ExerciseKind
from tests.ui import click, drawn_texts, key_event, press, step

pytestmark = pytest.mark.window


def open_builder(app, exercise: int | None = None) -> TreeBuilderScene:
    app.stack.push(TreeBuilderScene(exercise, seed=5))
    step(app, 2)
    scene = app.stack.top
    assert isinstance(scene, TreeBuilderScene)
    return scene


def branch_point(scene: TreeBuilderScene, app, path) -> tuple[int, int]:
    """A point on the branch into ``path``, away from both nodes."""
    places = scene.places(app.screen.get_size())
    (x0, y0), (x1, y1) = places[path[:-1]], places[path]
    return round(x0 + (x1 - x0) * 0.6), round(y0 + (y1 - y0) * 0.6)


def shown(app) -> str:
    return " ".join(text for text, _rect in drawn_texts(app))


def test_clicking_the_cut_branches_and_enter_solves_the_textbooks_tree(app):
    scene = open_builder(app, 0)
    cuts = alpha_beta(EXERCISES[0].tree).cut
    assert cuts == {(1, 1), (1, 2)}
    click(app, branch_point(scene, app, (2, 1)))  # a wrong guess, then taken back
    assert scene.builder.marks == {(2, 1)}
    click(app, branch_point(scene, app, (2, 1)))
    for path in sorted(cuts):
        click(app, branch_point(scene, app, path))
    assert scene.builder.marks == cuts
    press(app, pygame.K_RETURN)
    assert scene.builder.exercise_done()
    text = shown(app)
    assert "Alpha-beta gives the root the value 3 and looks at 7 of the leaves." in text
    assert "Your marks are exactly its cuts." in text and "Exercise solved." in text


def test_a_leaf_takes_typed_values_and_the_order_moves_the_cuts(app):
    scene = open_builder(app)
    leaf = next(path for path in scene.places(app.screen.get_size()) if isinstance(scene.builder.node(path), int))
    places = scene.places(app.screen.get_size())
    click(app, (round(places[leaf][0]), round(places[leaf][1])))
    assert scene.selected == leaf
    for text in "-42":
        app.step([key_event(pygame.K_MINUS if text == "-" else pygame.K_0 + int(text), unicode=text)], 1 / 30)
    assert scene.builder.node(leaf) == -42
    app.step([key_event(pygame.K_BACKSPACE)], 1 / 30)
    assert scene.builder.node(leaf) == -4
    press(app, pygame.K_w)
    press(app, pygame.K_RETURN)
    worst = scene.builder.judgement.run.leaves
    press(app, pygame.K_o)
    assert scene.builder.judgement is None  # a new order: the old verdict no longer applies
    press(app, pygame.K_RETURN)
    assert scene.builder.judgement.run.leaves <= worst


def test_an_order_exercise_is_checked_and_a_refused_edit_is_said(app):
    number = next(n for n, e in enumerate(EXERCISES) if e.kind is ExerciseKind.ORDER and e.goal > 0)
    scene = open_builder(app, number)
    press(app, pygame.K_RETURN)
    assert scene.builder.exercise_done() is False and "Not yet: alpha-beta looked at 9 leaves" in shown(app)
    app.step([key_event(pygame.K_PLUS, unicode="+")], 1 / 30)  # the exercise's tree is given
    assert app.toast is not None and "gives the tree" in app.toast[0]
    scene.selected = (2,)
    press(app, pygame.K_COMMA)
    press(app, pygame.K_COMMA)  # the move worth 3 goes first
    assert scene.selected == (0,)
    press(app, pygame.K_RETURN)
    assert scene.builder.exercise_done() and "Exercise solved" in shown(app)


def test_depth_and_moves_a_node_reshape_the_tree_within_its_limits(app):
    scene = open_builder(app)
    for _ in range(2):
        press(app, pygame.K_d)
    assert scene.builder.depth == 4
    press(app, pygame.K_b)
    assert scene.branching == 4 and scene.builder.depth == 4
    assert sum(isinstance(scene.builder.node(p), int) for p in scene.places(app.screen.get_size())) <= 32
    press(app, pygame.K_ESCAPE)
    step(app, 2)
    assert app.stack.top is not scene
