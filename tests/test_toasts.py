"""Issue 52, item 4: a toast never covers a control or the board's column names.

The first-start toast covered Quit on the title, the S toast covered columns 2-6 of the
board, the "solver ready" toast covered the joiner's columns and the chat line.  Every
screen is drawn with a toast over it (``App.draw_toast``, the one place toasts are put:
``game.app.toast``), in English, German and Spanish at 100 % and 200 % text, and the
toast's box is checked against the rectangles of the screen's controls: those the scene
says it keeps clear, and, for the screens the issue names, the ones measured here
independently (the title's buttons, the board's grid and column names, the chat line).
"""

from __future__ import annotations

import pygame
import pytest

from ai.levels import Level
from game.app.board_view import BoardLayout
from game.app.navigation import HostGame
from game.app.scenes.course import CourseScene
from game.app.scenes.network import NetworkMenuScene
from game.app.scenes.network_form import JoinFormScene
from game.app.scenes.network_table import NetworkTableScene
from game.app.scenes.play import PlayScene
from game.app.scenes.title import TitleScene
from game.app.toast import place_toast
from game.net.client import Client
from game.net.events import Welcome
from game.net.host import HostSettings
from game.rules import Rules
from tests.test_i18n_layout import every_scene, in_every_language
from tests.test_network_window import next_event
from tests.ui import drawn_texts, step, wait_until

TOASTS = (
    "Solver ready",
    "The first start compiles the fast search: a minute at most, the game plays meanwhile.",
)
"""A short toast and a long one (the first start's: it covered Quit)."""
NO_CONTROLS = frozenset({"how to play", "code"})
"""The pages with nothing to click on: keys only (a click anywhere goes back)."""


def toast_boxes(app) -> list[tuple[str, pygame.Rect, list[pygame.Rect]]]:
    """Draw the screen with each toast: the toast's box and the controls drawn under it."""
    surface = pygame.display.get_surface()
    boxes = []
    for text in TOASTS:
        app.draw()
        controls = list(app.theme.controls)
        boxes.append((text, app.draw_toast(surface, text), controls))
    return boxes


def covered_controls(app, scrolls: bool = False) -> tuple[list[str], list[str]]:
    """The controls a toast covers on the screen on top (a measure for ``every_scene``)."""
    problems = []
    for text, box, controls in toast_boxes(app):
        if not controls and app.stack.top.name not in NO_CONTROLS:
            problems.append(f"{app.stack.top.name} said it keeps nothing clear")
        hit = box.collidelist(controls)
        if hit >= 0:
            problems.append(f"{text[:20]!r} at {box} covers {controls[hit]}")
    return problems, []


@pytest.mark.parametrize("size, scale", [((800, 600), 100), ((1024, 720), 200)], ids=["800x600", "1024x720-200"])
def test_no_toast_covers_a_control_on_any_screen(make_app, size, scale):
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    found = every_scene(app, covered_controls)
    problems = {(lang, scene): out for lang, scenes in found.items() for scene, (out, _cut) in scenes.items() if out}
    assert not problems, problems
    found = {"en": {}, "de": {}, "es": {}}
    for scene in (NetworkMenuScene(), JoinFormScene(), CourseScene()):
        app.stack.reset(scene)
        step(app, 2)
        in_every_language(app, found, type(scene).__name__, measure=covered_controls)
    problems = {(lang, scene): out for lang, scenes in found.items() for scene, (out, _cut) in scenes.items() if out}
    assert not problems, problems


@pytest.mark.parametrize("size, scale", [((800, 600), 100), ((900, 700), 200), ((1280, 800), 100)])
def test_the_first_start_toast_leaves_every_title_button_free(make_app, size, scale):
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    app.stack.reset(TitleScene())
    step(app, 2)
    buttons = [button.rect for button in app.stack.top.buttons]
    assert any(button.label == "Quit" for button in app.stack.top.buttons)
    for text, box, _controls in toast_boxes(app):
        assert box.collidelist(buttons) < 0, (text, box, buttons)


@pytest.mark.parametrize("scale", [100, 200])
def test_the_toast_leaves_the_board_and_its_column_names_free(make_app, scale):
    """The S toast covered columns 2-6: the board, with its column names under it."""
    app = make_app((800, 600))
    app.settings.ui_scale, app.theme.scale = scale, scale / 100
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.reset(play)
    step(app, 2)
    grid = play.layout_board(pygame.display.get_surface()).grid_rect
    names = [rect for text, rect in drawn_texts(app) if text in "1234567" and rect.top >= grid.top - 40]
    assert len(names) >= 7
    for text, box, _controls in toast_boxes(app):
        assert not box.colliderect(grid), (text, box, grid)
        assert box.collidelist(names) < 0, (text, box, names)


def test_the_solver_ready_toast_leaves_the_joiners_board_and_chat_free(make_app):
    app = make_app((800, 600))
    app.push(HostGame(HostSettings(code="reef-lamp-oak", name="Alice", address="127.0.0.1", port=0)))
    step(app, 2)
    scene = app.stack.top
    assert isinstance(scene, NetworkTableScene)
    assert wait_until(app, lambda: scene.game.host is not None, 20)
    bob = Client(*scene.game.host.where, "reef-lamp-oak", "Bob")
    bob.start()
    try:
        next_event(bob.events, Welcome)
        assert wait_until(app, lambda: scene.game.table is not None and len(scene.game.table.names) == 2, 10)
        layout = scene.layout(pygame.display.get_surface().get_size())
        grid = BoardLayout(scene.game.table.rules, layout.board).grid_rect
        chat = [rect for text, rect in drawn_texts(app) if text == "Tab: chat"]
        assert chat
        for text, box, _controls in toast_boxes(app):
            assert not box.colliderect(grid) and box.collidelist(chat) < 0, (text, box, grid, chat)
    finally:
        bob.close()


def test_a_toast_goes_where_no_control_is_and_stays_there():
    """The one place rule, alone: the nearest free place to the usual one; kept while it
    stays free; where every place covers a control, the one covering least."""
    size, box = (400, 300), (200, 30)
    quit_button = pygame.Rect(100, 230, 200, 40)
    place = place_toast(size, box, 260, [quit_button], [])
    assert not place.colliderect(quit_button) and place.bottom <= quit_button.top
    assert place_toast(size, box, 200, [pygame.Rect(0, 0, 10, 10)], [], kept=place.bottom) == place
    board = pygame.Rect(0, 40, 400, 256)
    moved = place_toast(size, box, 260, [board], [], kept=place.bottom)
    assert not moved.colliderect(board)
    everywhere = [pygame.Rect(0, y, 400, 28) for y in range(0, 300, 30)]
    squeezed = place_toast(size, box, 150, everywhere, [])
    assert squeezed.height == 30  # still a whole toast: the least covering place
