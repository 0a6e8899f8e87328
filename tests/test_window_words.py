"""The window as a new player sees it: buttons that stay put, words drawn whole, panels
and keys that come back (issue 32's rough edges, each reproduced here first)."""

from __future__ import annotations

import pygame
import pytest

from ai.levels import Level
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.title import TitleScene
from game.app.settings import Opponent
from game.rules import Rules
from tests.ui import click, press, settle, step

SIZES = [(800, 600), (1280, 800)]


def title_rects(app) -> dict[str, pygame.Rect]:
    title = app.stack.top
    assert isinstance(title, TitleScene)
    return {button.label: pygame.Rect(button.rect) for button in title.buttons}


@pytest.mark.parametrize("size", SIZES)
def test_the_title_buttons_stay_put_when_a_game_can_be_resumed(tmp_path, size, make_app):
    """After leaving a game "Resume the unfinished game" came in at the top and pushed every
    button down: a click meant for "Computer vs computer" resumed the old game."""
    app = make_app(size, home=tmp_path / "home")
    app.stack.push(TitleScene())
    step(app, 2)
    before = title_rects(app)
    aim = before["Computer vs computer"].center
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app, 2)
    for column in (3, 3, 4):
        play.try_human_move(column)
        settle(app, play)
    press(app, pygame.K_ESCAPE, frames=2)
    pause = app.stack.top
    assert isinstance(pause, PauseScene)
    click(app, next(b for b in pause.buttons if b.label == "Main menu").rect.center)
    step(app, 2)
    after = title_rects(app)
    assert any(label.startswith("Resume the unfinished game") for label in after)  # offered ...
    assert {label: rect for label, rect in after.items() if label in before} == before  # ... and nothing moved
    resume = next(rect for label, rect in after.items() if label.startswith("Resume"))
    assert all(not resume.colliderect(rect) for rect in before.values())
    click(app, aim)
    step(app)
    assert isinstance(app.stack.top, LevelSelectScene) and app.settings.opponent is Opponent.DEMO


def ink_gap(surface: pygame.Surface, rect: pygame.Rect, x: int) -> int:
    """The blank columns of the text in ``rect`` around column ``x`` (0: ink touches)."""
    background = surface.get_at((rect.left, rect.top))

    def ink(column: int) -> bool:
        for y in range(rect.top, rect.bottom):
            color = surface.get_at((column, y))
            if sum(abs(a - b) for a, b in zip(color[:3], background[:3])) > 40:  # any ink the eye sees
                return True
        return False

    widest = 0
    for start in range(x - 2, x + 3):
        if ink(start):
            continue
        left, right = start, start
        while left > rect.left and not ink(left - 1):
            left -= 1
        while right < rect.right - 1 and not ink(right + 1):
            right += 1
        widest = max(widest, right - left + 1)
    return widest


def computer_gaps(app) -> list[tuple[str, int, int]]:
    """Draw one frame; for every "computer" drawn, (text, the blank columns between "u" and
    "t", those between "p" and "u")."""
    drawn: list[tuple[str, int, bool, pygame.Rect]] = []
    original = app.theme.text

    def spy(surface, text, size, pos, **options):
        rect = original(surface, text, size, pos, **options)
        drawn.append((text, size, bool(options.get("bold")), rect))
        return rect

    app.theme.text = spy
    try:
        app.draw()
    finally:
        app.theme.text = original
    surface = pygame.display.get_surface()
    gaps = []
    for text, size, bold, rect in drawn:
        at = text.lower().find("computer")
        if at < 0:
            continue
        font = app.theme.font(size, bold)
        start = rect.left + font.size(text[:at])[0]
        u_t = start + font.size(text[at : at + 5])[0]  # between "compu" and "ter"
        p_u = start + font.size(text[at : at + 4])[0]  # between "comp" and "uter"
        gaps.append((text, ink_gap(surface, rect, u_t), ink_gap(surface, rect, p_u)))
    return gaps


@pytest.mark.parametrize("size", SIZES)
def test_computer_is_drawn_without_a_gap_in_the_title_and_the_pause_menu(tmp_path, size, make_app):
    """ "Compu ter": the default font's hinting left a gap between u and t at some sizes, as
    wide as a space, on the title's buttons and the pause menu's tally."""
    app = make_app(size, home=tmp_path / "home")
    app.stack.push(TitleScene())
    step(app, 2)
    gaps = computer_gaps(app)
    app.stack.push(PlayScene(Rules(), Level(2), "computer"))
    step(app, 2)
    press(app, pygame.K_ESCAPE, frames=2)
    assert isinstance(app.stack.top, PauseScene)
    gaps += computer_gaps(app)
    assert len(gaps) >= 3, gaps
    assert all(u_t <= p_u + 1 for _, u_t, p_u in gaps), gaps
