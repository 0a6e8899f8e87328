"""What the tree overlay's placing, painting and keys see of its scene: ``TreeOverlay``.

``placing.py``, ``draw.py`` and ``keys.py`` are functions of the overlay's state; they
take the scene as this Protocol (the ``TreeScene`` implements it), so none of them
imports the scene.  ``placing.relayout`` writes the attributes below the panels
(``areas`` to ``view``); everything else is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from ai.search import SearchResult
from ai.tree import Node, SearchTree
from game.app.navigation import Searches
from game.app.scene import SceneHost
from game.app.search_records import SearchRecord
from game.app.tree.compare import OrderComparison, PruningComparison
from game.app.tree.detail import DetailScroll
from game.app.tree.layout import Placed, View
from game.app.tree.legend import LegendLayout
from game.app.tree.replay import Replay
from game.app.widgets import Button
from game.app.worker_protocol import JobProgress
from game.board import Board


@dataclass(frozen=True)
class Areas:
    """The overlay's panels, in window pixels."""

    header: pygame.Rect
    canvas: pygame.Rect
    detail: pygame.Rect
    bottom: pygame.Rect


class TreeOverlay(Protocol):
    """The tree overlay's state and actions, as its helpers use them."""

    areas: Areas
    button_rows: int
    comparison: PruningComparison | None
    crumbs: list[tuple[pygame.Rect, int]]
    detail_panel: DetailScroll
    drawn: list[Placed]
    legend: LegendLayout | None
    legend_page: bool
    per_ply: list[int]
    record_index: int
    replay: Replay | None
    root_moves: int
    selected_board: Board | None
    stub_moves: dict[int, list[int]]
    view: View

    @property
    def buttons(self) -> list[Button]: ...

    @property
    def compare_job(self) -> int | None: ...

    @property
    def compare_progress(self) -> JobProgress | None: ...

    @property
    def compare_result(self) -> SearchResult | None: ...

    @property
    def known_tree(self) -> SearchTree: ...

    @property
    def legend_open(self) -> bool | None: ...

    @property
    def orders(self) -> OrderComparison | None: ...

    @property
    def playing(self) -> bool: ...

    @property
    def record(self) -> SearchRecord: ...

    @property
    def selected(self) -> int: ...

    @property
    def speed_index(self) -> int: ...

    @property
    def tree(self) -> SearchTree | None: ...

    @property
    def app(self) -> SceneHost: ...

    @property
    def play(self) -> Searches: ...

    def show_search(self, index: int) -> None: ...

    def back_up(self) -> None: ...

    def banner(self) -> str | None: ...

    def cached(self, key: tuple[object, ...], make: Callable[[], Any]) -> Any: ...

    def close(self) -> None: ...

    def detail_lines(self, node: Node) -> list[str]: ...

    def export(self) -> None: ...

    def fit(self) -> None: ...

    def focus(self, index: int) -> None: ...

    def is_drawn(self, index: int) -> bool: ...

    def line(self) -> set[int]: ...

    def move_label(self, move: int | None) -> str: ...

    def next_speed(self) -> None: ...

    def node_text(self, index: int) -> str | None: ...

    def pruned_moves(self, index: int) -> list[int]: ...

    def relayout(self) -> None: ...

    def replay_back(self) -> None: ...

    def replay_forward(self) -> None: ...

    def replay_jump(self, start: bool) -> None: ...

    def select(self, index: int, *, follow: bool = True) -> None: ...

    def shows_cutoff(self, index: int) -> bool: ...

    def shows_legend(self) -> bool: ...

    def shows_line(self) -> bool: ...

    def stop_replay(self) -> None: ...

    def switch_record(self, delta: int) -> None: ...

    def toggle_compare(self) -> None: ...

    def toggle_legend(self) -> None: ...

    def toggle_orders(self) -> None: ...

    def toggle_play(self) -> None: ...

    def value_known(self, index: int) -> bool: ...

    def zoom(self, factor: float, around: tuple[float, float] | None = None) -> None: ...
