"""The tree overlay's keys: which key runs which of the scene's actions.

The arrows (navigation) and Esc/T (close) are handled by the scene itself; the Controls
list in ``scene.py``'s docstring says what each key does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.app.tree.code_scene import CodeWalkScene
from game.app.tree.depth_scene import DepthChartScene
from game.app.tree.practice_scene import open_practice

if TYPE_CHECKING:
    from game.app.tree.scene import TreeScene


def key_actions(scene: TreeScene) -> dict[int, Callable[[], None]]:
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
        pygame.K_d: lambda: scene.app.stack.push(DepthChartScene(scene.known_tree)),
        pygame.K_p: lambda: open_practice(scene.app, scene.known_tree),
        pygame.K_k: lambda: scene.app.stack.push(CodeWalkScene(scene.known_tree)),
        pygame.K_x: scene.stop_replay,
        pygame.K_LEFTBRACKET: lambda: scene.switch_record(-1),
        pygame.K_RIGHTBRACKET: lambda: scene.switch_record(1),
        pygame.K_PLUS: lambda: scene.zoom(1.25),
        pygame.K_EQUALS: lambda: scene.zoom(1.25),
        pygame.K_KP_PLUS: lambda: scene.zoom(1.25),
        pygame.K_MINUS: lambda: scene.zoom(0.8),
        pygame.K_KP_MINUS: lambda: scene.zoom(0.8),
    }
