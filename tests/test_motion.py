"""Reduced motion: with motion off a whole game needs no animation frame."""

from __future__ import annotations

import pygame
import pytest

from ai.levels import Level
from game.app.animation import DiscDrop, make_drop
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.play import PlayScene
from game.rules import MAX, Rules
from tests.ui import FRAME, key_event

pytestmark = pytest.mark.window

WIN_IN_COLUMN_1 = [pygame.K_1, pygame.K_2, pygame.K_1, pygame.K_2, pygame.K_1, pygame.K_2, pygame.K_1]


def test_motion_setting_sets_the_drop():
    assert make_drop(5, 3, MAX, -1.0, "off") is None
    normal, fast = make_drop(5, 3, MAX, -1.0, "normal"), make_drop(5, 3, MAX, -1.0, "fast")
    assert isinstance(normal, DiscDrop) and isinstance(fast, DiscDrop)
    steps = {"normal": 0, "fast": 0}
    for name, drop in (("normal", normal), ("fast", fast)):
        while not drop.landed:
            drop.update(FRAME)
            steps[name] += 1
    assert steps["fast"] < steps["normal"] / 2


def choose_motion(app, motion: str) -> None:
    """Set the motion row of Options as a person would (Right until it says ``motion``)."""
    options = OptionsScene()
    app.stack.push(options)
    app.step([], FRAME)
    while app.settings.motion != motion:
        options.motion.step(1)
    app.stack.pop()
    app.step([], FRAME)


def play_a_game(app) -> tuple[PlayScene, int]:
    """Two people play a quick win in column 1; the number of frames drawn because
    something animated, until the result panel is up."""
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    app.step([], FRAME)
    moving = 0
    for key in WIN_IN_COLUMN_1:
        app.step([key_event(key)], FRAME)
        while play.drop is not None or (play.outcome is None and any(s.is_animating() for s in app.stack.visible())):
            moving += 1
            app.step([], FRAME)
            assert moving < 5000
    for _ in range(120):  # the result panel comes after a moment
        moving += any(s.is_animating() for s in app.stack.visible())
        app.step([], FRAME)
    assert play.outcome is not None and play.outcome.winner == MAX
    assert isinstance(app.stack.top, GameOverScene)
    return play, moving


def test_with_motion_off_a_whole_game_needs_no_animation_frame(app):
    choose_motion(app, "off")
    assert app.theme.still
    play, moving = play_a_game(app)
    assert moving == 0
    assert play.match.moves == [0, 1, 0, 1, 0, 1, 0]
    # The winning line is marked, steady: the same picture at any moment.
    app.stack.pop()
    app.step([], FRAME)
    app.draw()
    first = pygame.image.tobytes(pygame.display.get_surface(), "RGB")
    app.time += 0.37
    app.draw()
    assert pygame.image.tobytes(pygame.display.get_surface(), "RGB") == first


def test_with_motion_on_the_same_game_animates(app):
    _, moving = play_a_game(app)
    assert moving > 7 * 10  # each disc falls for a while, then the line pulses
