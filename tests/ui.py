"""Helpers to drive the real app headless: events, frames, waiting for the AI."""

from __future__ import annotations

import time

import pygame

from ai.levels import Level
from ai.search import search
from game.app.scenes.play import PlayScene
from game.app.search_records import SearchRecord
from game.app.tree.scene import TreeScene
from game.app.worker_protocol import JobPurpose
from game.board import Board
from game.rules import MIN, Rules

FRAME = 1 / 60


def key_event(key: int, mod: int = 0, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)


def press(app, key: int, mod: int = 0, frames: int = 1) -> None:
    app.step([key_event(key, mod)], FRAME)
    step(app, frames - 1)


def click(app, pos, button: int = 1) -> None:
    app.step(
        [
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
        ],
        FRAME,
    )
    app.step([pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)], FRAME)


def step(app, frames: int = 1) -> None:
    for _ in range(max(0, frames)):
        app.step([], FRAME)


def wait_until(app, condition, timeout: float = 60.0) -> bool:
    """Step frames (at most ``timeout`` real seconds) until ``condition()`` holds."""
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            return False
        app.step([], FRAME)
        time.sleep(0.001)
    return True


def settle(app, play, timeout: float = 10.0) -> None:
    """Let a falling disc land."""
    assert wait_until(app, lambda: play.drop is None, timeout)


def column_point(app, play, col: int) -> tuple[int, int]:
    """A point above ``col`` of the play scene's board."""
    layout = play.layout_board(pygame.display.get_surface())
    x, y = layout.center(0, col)
    return int(x), int(y)


def open_tree(app, rules: Rules, result, side: int = MIN, *, ply: int = 0) -> TreeScene:
    """A play scene holding ``result`` (searched after ``ply`` discs) as its last search,
    with the tree overlay open over it."""
    play = PlayScene(rules, Level(result.depth, result.pruning), "computer")
    play.searches.append(SearchRecord(ply, side, JobPurpose.MOVE, result))
    app.stack.push(play)
    step(app)
    press(app, pygame.K_t, frames=2)
    scene = app.stack.top
    assert isinstance(scene, TreeScene)
    return scene


def open_tree_after(app, moves: str, depth: int) -> TreeScene:
    """The tree overlay over a depth-``depth`` search, its tree recorded, of the position
    after ``moves``."""
    board = Board.from_moves(moves)
    result = search(board.grid, board.rules, depth, record_tree=True, to_move=board.to_move)
    return open_tree(app, board.rules, result, board.to_move, ply=len(board.moves))


def drawn_texts(app, scene=None) -> list[tuple[str, pygame.Rect]]:
    """Draw one frame (or only ``scene``, an overlay without what lies under it) and return
    every text the theme drew, with where it went."""
    drawn: list[tuple[str, pygame.Rect]] = []
    original = app.theme.text

    def spy(surface, text, size, pos, **options):
        rect = original(surface, text, size, pos, **options)
        drawn.append((text, rect))
        return rect

    app.theme.text = spy
    try:
        if scene is None:
            app.draw()
        else:
            scene.draw(pygame.display.get_surface())
    finally:
        app.theme.text = original
    return drawn
