"""Big text: at 150 % on 1280x800 every scene keeps its text whole and inside the window.

The UI scale is one mechanism: every font size passes through ``Theme.font``.  The test
draws each scene (the tree and the code walk included) and measures every text the theme
draws against the window, and every text a box had to shorten (``Theme.fit``'s ellipsis).
"""

from __future__ import annotations

import pygame
import pytest

from ai.levels import Level
from ai.search import search
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.help import HowToPlayScene
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.title import TitleScene
from game.app.tree.codewalk import Line
from game.board import Board
from game.rules import Rules
from tests.ui import drawn_texts, key_event, open_tree, press, step, wait_until

pytestmark = pytest.mark.window


def measure(app, scrolls: bool = False) -> list[str]:
    """Draw one frame; every text cut short or drawn outside the window (for a page that
    ``scrolls``, outside its width)."""
    theme, problems = app.theme, []
    window = pygame.display.get_surface().get_rect()
    fit, text = theme.fit, theme.text

    def spy_fit(line, size, width, bold=False):
        shown = fit(line, size, width, bold)
        if shown != line:
            problems.append(f"cut: {line!r} -> {shown!r}")
        return shown

    def spy_text(surface, line, size, pos, **options):
        rect = text(surface, line, size, pos, **options)
        inside = rect.left >= 0 and rect.right <= window.right if scrolls else window.contains(rect)
        if surface is pygame.display.get_surface() and line.strip() and not inside:
            problems.append(f"outside the window: {line!r} at {rect}")
        return rect

    theme.fit, theme.text = spy_fit, spy_text
    try:
        app.draw()
    finally:
        del theme.fit, theme.text
    return problems


@pytest.fixture
def big(make_app):
    app = make_app((1280, 800))
    app.settings.ui_scale = 150
    app.theme.scale = 1.5
    return app


def two_players_won(app) -> PlayScene:
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app)
    for key in "1212121":
        app.step([key_event(pygame.K_0 + int(key))], 1 / 60)
        wait_until(app, lambda: play.drop is None, 5)
    return play


def test_menus_and_the_game_keep_their_text_whole_at_150(big):
    app = big
    assert app.theme.font(20).get_height() > 1.4 * type(app.theme)().font(20).get_height()
    seen = {}
    for scene in (TitleScene(), OptionsScene(), LevelSelectScene(), HowToPlayScene(), PastGamesScene()):
        app.stack.reset(scene)
        step(app, 2)
        seen[scene.name] = measure(app, scrolls=scene.name == "how to play")
        if scene.name == "how to play":  # a long page at a big scale: it scrolls to its end
            for _ in range(20):
                press(app, pygame.K_DOWN)
            drawn = {text: rect for text, rect in drawn_texts(app)}
            assert pygame.display.get_surface().get_rect().contains(drawn["save a screenshot"])
    app.stack.reset(TitleScene())
    step(app)
    play = two_players_won(app)
    seen["play"] = measure(app)
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 5)
    seen["game over"] = measure(app)
    app.stack.pop()
    step(app)
    app.stack.push(PauseScene(play))
    step(app, 2)
    seen["pause"] = measure(app)
    assert not any(seen.values()), {name: found for name, found in seen.items() if found}


def test_the_tree_and_the_code_walk_keep_their_text_whole_at_150(big):
    app = big
    board = Board.from_moves("44336")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    open_tree(app, board.rules, result, board.to_move)
    step(app)
    seen = {"tree": measure(app)}
    press(app, pygame.K_k, frames=2)
    walk = app.stack.top
    assert wait_until(app, lambda: walk.ready, 30)
    walk.seek(next(i for i, line in enumerate(walk.steps) if line.kind is Line.CUTOFF))  # the longest line
    step(app)
    seen["code walk"] = measure(app)
    assert not any(seen.values()), {name: found for name, found in seen.items() if found}


@pytest.mark.parametrize("size", [(800, 600), (1024, 720)], ids=["800x600", "1024x720"])
def test_the_tree_overlay_keeps_its_lines_whole_at_200(make_app, size):
    """At 200 % the overlay's lines shrink (not below the 100 % size) or wrap rather than
    being cut: the title and the detail heading, the cutoff banner (it lost its last words
    at two lines), the chart's title (it ran under the totals); the panels' lines stay
    apart and a sentence is shown whole or not at all."""
    app = make_app(size)
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    board = Board.from_moves("44336")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    tree = open_tree(app, board.rules, result, board.to_move)
    tree.demo_select()  # a node with a cutoff: the banner shows its reason
    step(app)
    assert tree.banner() and not measure(app)
    drawn = drawn_texts(app, tree)  # the overlay's own words, not the game's under it
    areas = tree.areas
    node = tree.known_tree.node(tree.selected)
    said = f"Cutoff at {tree.move_label(node.move)}: {tree.banner()}"
    left = areas.canvas.left + 12  # the banner's lines, in the canvas's corner
    banner = [text for text, rect in drawn if rect.left == left and len(text) > 2 and text in said]
    assert " ".join(banner) == said
    for panel in (areas.header, areas.detail, areas.bottom):
        lines = [rect for _text, rect in drawn if panel.colliderect(rect)]
        assert all(panel.contains(rect) for rect in lines), panel
        assert not [(a, b) for i, a in enumerate(lines) for b in lines[i + 1 :] if a.colliderect(b)], panel
