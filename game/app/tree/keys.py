"""The tree overlay's keys: which key runs which of the scene's actions.

The arrows (navigation) and Esc/T (close) are handled by the scene itself; the Controls
list in ``scene.py``'s docstring says what each key does.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ai.tree import SearchTree
from game.app.navigation import OpenMctsTree, Practise, ShowCodeWalk, ShowDepthChart
from game.app.scene import SceneHost
from game.app.tree.overlay import TreeOverlay
from game.app.tree.practice import why_not_practice
from game.board import Board
from game.i18n import _
from game.learn.course import MCTS_PLAYOUTS


def key_actions(scene: TreeOverlay) -> dict[int, Callable[[], None]]:
    """The overlay's keys and what each does (with a tree shown)."""
    return {
        pygame.K_RETURN: lambda: scene.focus(scene.selected),
        pygame.K_KP_ENTER: lambda: scene.focus(scene.selected),
        pygame.K_BACKSPACE: scene.back_up,
        pygame.K_f: scene.fit,
        pygame.K_c: scene.toggle_compare,
        pygame.K_l: scene.toggle_legend,
        pygame.K_o: scene.toggle_orders,
        pygame.K_SPACE: scene.toggle_play,
        pygame.K_PERIOD: scene.replay_forward,
        pygame.K_COMMA: scene.replay_back,
        pygame.K_HOME: lambda: scene.replay_jump(start=True),
        pygame.K_END: lambda: scene.replay_jump(start=False),
        pygame.K_s: scene.next_speed,
        pygame.K_e: scene.export,
        pygame.K_d: lambda: scene.app.push(ShowDepthChart(scene.known_tree)),
        pygame.K_p: lambda: open_practice(scene.app, scene.known_tree),
        pygame.K_k: lambda: scene.app.push(ShowCodeWalk(scene.known_tree)),
        pygame.K_m: lambda: open_mcts(scene.app, scene.known_tree),
        pygame.K_x: scene.stop_replay,
        pygame.K_LEFTBRACKET: lambda: scene.switch_record(-1),
        pygame.K_RIGHTBRACKET: lambda: scene.switch_record(1),
        pygame.K_PLUS: lambda: scene.zoom(1.25),
        pygame.K_EQUALS: lambda: scene.zoom(1.25),
        pygame.K_KP_PLUS: lambda: scene.zoom(1.25),
        pygame.K_MINUS: lambda: scene.zoom(0.8),
        pygame.K_KP_MINUS: lambda: scene.zoom(0.8),
    }


def open_practice(app: SceneHost, tree: SearchTree) -> None:
    """P in the tree overlay: practise on its position, or say in a toast why not."""
    reason = why_not_practice(Board(tree.rules, tree.grid, tree.to_move))
    if reason is not None:
        app.show_toast(reason, 5.0)
        return
    app.push(Practise(tree))


def open_mcts(app: SceneHost, tree: SearchTree) -> None:
    """M in the tree overlay: Monte Carlo tree search beside this search, on its position."""
    board = Board(tree.rules, tree.grid, to_move=tree.to_move)
    if board.is_game_over():
        app.show_toast(_("The game is over here: no move to search"), 4.0)
        return
    app.push(OpenMctsTree(board, MCTS_PLAYOUTS, max(1, tree.depth)))  # lesson 7's budget
