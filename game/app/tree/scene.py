"""The tree overlay: walk, replay and compare the search the computer just did.

Opened over the play scene (which stays visible, dimmed) with T or the Tree button.
This module holds the overlay's state and input, and decides what is *known* and so may
be shown (during a replay: only what the search had found by that step); ``draw.py``
paints it, ``layout.py`` places the nodes, ``replay.py`` steps through the search.

Controls:
- click a node: select it; double-click or Enter: make it the view's root
- Backspace: back up one level (or click the path at the top)
- arrows: Up parent, Down first child, Left/Right siblings
- mouse wheel or +/-: zoom; drag: pan; F: fit the tree to the window
- [ and ]: the match's earlier / later searches
- C: run the same search with pruning switched the other way, and with the
  transposition table switched (C again cancels); a search with the table starts it at
  once, for the nodes the same search needs without the table
- O: rerun it with each move order (left to right, centre first, best first) to set
  the node counts beside the Knuth-Moore minimal tree (O again cancels)
- Space: replay play/pause; , and .: one step back / forward; Home / End; S: speed;
  X: leave the replay
- L: show or hide the legend
- Page Down / Page Up (or the wheel over it): scroll the detail panel, where its
  explanation is longer than the panel (big text)
- K: the textbook code beside a line-by-line replay (ai/textbook.py, small depths)
- P: practice, "you are alpha-beta", on this position's depth-2 tree
- D: depth against truth: how often each depth keeps the exact outcome, and its nodes
- M: Monte Carlo tree search beside this search, on its position (``mcts_scene``)
- E: export the tree as JSON and Graphviz DOT (to the preference folder's trees/)
- Esc or T: close; play goes on where it was
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from ai.levels import Level
from ai.search import SearchResult
from ai.tree import (
    END,
    Node,
    SearchTree,
)
from game.app.navigation import Searches
from game.app.scene import Scene
from game.app.search_records import SearchRecord
from game.app.tree.compare import OrderComparison, PruningComparison, compare_job
from game.app.tree.detail import DetailScroll
from game.app.tree.draw import detail_for, draw_overlay
from game.app.tree.export import export_to_folder
from game.app.tree.horizon import Horizon
from game.app.tree.keys import key_actions
from game.app.tree.layout import NODE, Placed, View
from game.app.tree.legend import LegendLayout
from game.app.tree.navigate import navigation_target, node_at, zoomed
from game.app.tree.placing import SPEEDS, areas_for, demo_select, relayout, toast_bottom, tree_buttons
from game.app.tree.replay import Replay
from game.app.tree.text import detail_lines, node_text
from game.app.widgets import Button
from game.app.worker_protocol import JobProgress, JobPurpose, WorkerEvent
from game.board import Board
from game.i18n import _
from game.notation import format_move

DOUBLE_CLICK = 0.4  # seconds


class TreeScene(Scene):
    is_overlay = True
    name = "tree"

    def __init__(self, play: Searches, record_index: int | None = None):
        super().__init__()
        self.play = play
        self.record_index = len(play.searches) - 1 if record_index is None else record_index
        self._record = play.searches[self.record_index]  # kept: Play again may clear the list
        self.view = View()
        self.selected = 0
        self.replay: Replay | None = None
        self.playing = False
        self.speed_index = 2
        self.step_clock = 0.0
        self.legend_open: bool | None = None  # None: shown where the canvas is tall enough
        self.legend: LegendLayout | None = None  # where the legend goes, when shown
        self.legend_page = False  # the legend is shown in place of the tree (no room for both)
        self.comparison: PruningComparison | None = None  # C: pruning switched, once asked for
        self.table_asked = False  # a search with the table: its comparison was started once
        self.orders: OrderComparison | None = None  # the move-order runs, once asked for
        self.drag_from: tuple[int, int] | None = None
        self.dragged = False
        self.last_click: tuple[int, float] | None = None
        # Computed in ``relayout`` (from ``update`` and before input), read by ``draw``.
        self.areas = areas_for((800, 600))
        self.drawn: list[Placed] = []
        self.crumbs: list[tuple[pygame.Rect, int]] = []
        self.detail_panel = DetailScroll()  # the detail panel's lines, placed, and its scroll
        self.stub_moves: dict[int, list[int]] = {}  # for each node with stubs drawn: its pruned moves
        self.selected_board: Board | None = None
        self.per_ply: list[int] = []  # stored nodes at each ply
        self.root_moves = 0  # legal moves at the root (the minimal tree's branching)
        self._cache: dict[
            tuple[object, ...], Any
        ] = {}  # per record: line, nodes per ply; per node: boards, pruned moves
        self.horizon = Horizon(self)  # what perfect play says about the selected node
        self.buttons: list[Button] = []
        self.button_rows = 1  # the bottom strip's rows of buttons (two where one is too narrow)

    # -- data -------------------------------------------------------------------------
    @property
    def record(self) -> SearchRecord:
        return self._record if self.is_stale() else self.play.searches[self.record_index]

    def is_stale(self) -> bool:
        """Tell whether the search shown is no longer the match's (Play again, a new game)."""
        searches = self.play.searches
        index = self.record_index
        return not (0 <= index < len(searches) and searches[index].result is self._record.result)

    @property
    def tree(self) -> SearchTree | None:
        return self.record.result.tree

    @property
    def known_tree(self) -> SearchTree:
        """The tree, for code that only runs once it has arrived."""
        tree = self.tree
        assert tree is not None, _("the tree of this search has not arrived")
        return tree

    def cached(self, key: tuple[object, ...], make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            if len(self._cache) > 4000:
                self._cache.clear()
            self._cache[key] = make()
        return self._cache[key]

    def line(self) -> set[int]:
        """The expected line (principal variation): the root and the nodes along it."""
        tree = self.known_tree
        line: set[int] = self.cached(("pv", id(tree)), lambda: {0} | {n.index for n in tree.principal_variation()})
        return line

    def pruned_moves(self, index: int) -> list[int]:
        tree = self.known_tree
        moves: list[int] = self.cached(("pruned", id(tree), index), lambda: tree.node(index).pruned_moves())
        return moves

    def record_level(self) -> Level:
        """The level the shown search played as: the mover's for a move, the opponent's
        without noise for a hint (as ``PlayScene.submit`` sets them)."""
        record = self.record
        levels = self.play.levels
        if record.purpose is JobPurpose.HINT:
            return replace(levels[-record.side], noise=0)
        return levels[record.side]

    def move_label(self, move: int | None) -> str:
        if move is None:
            return _("root")
        return format_move(move, self.play.rules)

    # -- what may be shown (during a replay: only what is known at its step) -------------
    def shows_line(self) -> bool:
        """The expected line is known once the search (or the replay) has finished."""
        return self.replay is None or self.replay.done

    def is_drawn(self, index: int) -> bool:
        """A node is drawn once the search has entered it."""
        return self.replay is None or self.replay.is_visited(index)

    def value_known(self, index: int) -> bool:
        return self.replay is None or self.replay.is_known(index)

    def shows_cutoff(self, index: int) -> bool:
        """The cutoff at ``index`` (cross, stubs, reason) shows from the step it happens."""
        replay = self.replay
        return replay is None or replay.is_known(index) or replay.cutoff == index

    def node_text(self, index: int) -> str | None:
        """The text under a node at this step (see ``text.node_text``)."""
        return node_text(self.known_tree, index, self.replay)

    def banner(self) -> str | None:
        """The cutoff reason shown by the selected node, once that cutoff has happened."""
        node = self.known_tree.node(self.selected)
        reason = node.cutoff_reason()
        if reason is None or not self.shows_cutoff(node.index):
            return None
        return reason

    def detail_lines(self, node: Node) -> list[str]:
        """What the detail panel says about ``node`` (see ``text.detail_lines``)."""
        horizon = self.horizon.get(node.tree, node.index)
        pruned = [self.move_label(m) for m in self.pruned_moves(node.index)] if node.pruned_count else []
        return detail_lines(node, self.replay, horizon, pruned)

    # -- life cycle -------------------------------------------------------------------
    def on_enter(self) -> None:
        self.buttons = tree_buttons(self)
        if pygame.display.get_surface() is not None:
            self.relayout()

    def on_resume(self) -> None:
        if self.is_stale():  # the game it showed is gone (issue 17: Play again under it)
            self.close()

    def on_exit(self) -> None:
        self.cancel_compare()
        self.cancel_orders()
        self.horizon.cancel()

    def close(self) -> None:
        self.app.pop()

    def show_search(self, index: int) -> None:
        """Show the match's search ``index`` from its start (a fresh view, no replay)."""
        self.record_index, self._record = index, self.play.searches[index]
        self.view, self.replay = View(), None

    def switch_record(self, delta: int) -> None:
        """Go to the match's previous (-1) or next (+1) search that has a tree."""
        searches = self.play.searches
        index = self.record_index + delta
        while 0 <= index < len(searches) and not searches[index].has_tree:  # book / solver answers
            index += delta
        if 0 <= index < len(searches) and index != self.record_index:
            self.cancel_compare()
            self.cancel_orders()
            self.orders = None
            self.record_index, self._record = index, searches[index]
            self.view, self.selected, self.replay, self.playing = View(), 0, None, False
            self.comparison, self.table_asked = None, False

    def toggle_legend(self) -> None:
        self.legend_open = not self.shows_legend()
        self.relayout()

    def shows_legend(self) -> bool:
        return bool(self.legend_open) if self.legend_open is not None else self.legend is not None

    # -- navigation -------------------------------------------------------------------
    def select(self, index: int, *, follow: bool = True) -> None:
        self.selected = index
        if follow:
            self.ensure_visible(index)

    def focus(self, index: int) -> None:
        """Make ``index`` the root of the view."""
        self.view = View(root=index)
        self.selected = index
        self.relayout()

    def back_up(self) -> None:
        parent = self.known_tree.node(self.view.root).parent
        if parent is not None:
            self.focus(parent.index)
            self.selected = self.view.root

    def fit(self) -> None:
        self.view = View(root=self.view.root)
        self.relayout()

    def ensure_visible(self, index: int) -> None:
        """Show ``index``: re-root the view on its parent if it is not drawn or off screen."""
        self.relayout()
        for item in self.drawn:
            if item.kind == NODE and item.index == index:
                if self.areas.canvas.inflate(-40, -40).collidepoint(item.x, item.y):
                    return
                break
        parent = self.known_tree.node(index).parent
        root = parent.index if parent is not None else index
        if self.replay is not None and root < self.replay.start:
            root = self.replay.start  # a replay of a subtree stays inside it
        self.view = View(root=root)
        self.relayout()

    def zoom(self, factor: float, around: tuple[float, float] | None = None) -> None:
        self.view = zoomed(self.view, self.areas.canvas, factor, around)
        self.relayout()

    def navigate(self, key: int) -> None:
        """Arrows: Up the parent, Down the child on the line, Left/Right the siblings."""
        tree = self.known_tree
        target = navigation_target(tree, self.selected, key)
        if target is not None:
            if target < self.view.root or target >= tree.field(self.view.root, END):
                parent = tree.node(target).parent
                self.focus(parent.index if parent is not None else target)
            self.select(target)

    def node_at(self, pos: tuple[int, int]) -> int | None:
        return node_at(self.drawn, pos, self.is_drawn)

    # -- replay -----------------------------------------------------------------------
    def ensure_replay(self) -> Replay:
        if self.replay is None:
            self.replay = Replay(self.known_tree, self.view.root)
        return self.replay

    def replay_forward(self) -> None:
        replay = self.ensure_replay()
        if replay.forward():
            self.follow_replay()
        else:
            self.playing = False

    def replay_back(self) -> None:
        replay = self.ensure_replay()
        replay.back()
        self.follow_replay()

    def replay_jump(self, start: bool) -> None:
        replay = self.ensure_replay()
        replay.seek(0 if start else replay.total_steps)
        self.playing = False
        self.follow_replay()

    def toggle_play(self) -> None:
        replay = self.ensure_replay()
        if replay.done:
            self.replay_jump(start=True)
        self.playing = not self.playing

    def next_speed(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)

    def follow_replay(self) -> None:
        replay = self.replay
        if replay is None:
            return
        current = replay.current
        if current is not None:
            self.select(current)
        else:  # before the first step or after the last: the search is at the root
            self.selected = replay.start
            self.fit()  # the whole replayed tree in view, not the last node's corner

    def stop_replay(self) -> None:
        self.replay, self.playing = None, False

    # -- compare ----------------------------------------------------------------------
    @property
    def compare_job(self) -> int | None:
        return self.comparison.job_id if self.comparison is not None else None

    @property
    def compare_progress(self) -> JobProgress | None:
        return self.comparison.progress if self.comparison is not None and self.comparison.running else None

    @property
    def compare_result(self) -> SearchResult | None:
        """The timed run with pruning switched, once both timed runs have finished."""
        return self.comparison.switched_result() if self.comparison is not None else None

    def toggle_compare(self) -> None:
        if self.compare_job is not None:
            self.cancel_compare()
            self.app.show_toast(_("Comparison cancelled"))
            return
        self.comparison = PruningComparison(self.app, self, compare_job(self.known_tree, self.record_level()))

    def compare_table_now(self) -> None:
        """A search with the table: C at once, once (the statistics say the nodes without it)."""
        if self.tree is not None and self.tree.table and self.comparison is None and not self.table_asked:
            self.table_asked = True
            self.toggle_compare()

    def cancel_compare(self) -> None:
        if self.comparison is not None and self.comparison.running:
            self.comparison.cancel()
            self.comparison = None

    def toggle_orders(self) -> None:
        """Rerun this search with each move order (pruning on), or stop doing so."""
        if self.orders is not None and self.orders.running:
            self.cancel_orders()
            self.app.show_toast(_("Move-order comparison cancelled"))
            return
        tree = self.known_tree
        noise = self.record_level().noise  # the same judgement as the search shown (same seed too)
        self.orders = OrderComparison(self.app, self, tree.grid, tree.rules, tree.to_move, tree.depth, noise=noise)

    def cancel_orders(self) -> None:
        if self.orders is not None:
            self.orders.cancel()

    def on_worker_event(self, event: WorkerEvent) -> None:
        """The comparisons' progress and answers (the App hands them over)."""
        if self.orders is not None and self.orders.take(event):
            return
        if self.horizon.take(event):
            return
        comparison = self.comparison
        if comparison is not None and comparison.take(event) and comparison.failed is not None:
            self.comparison = None
            self.app.show_toast(_("The comparison failed: {message}").format(message=comparison.failed))

    # -- frame ------------------------------------------------------------------------
    def is_animating(self) -> bool:
        """Frames are needed while the replay plays, a comparison runs, or the selected
        node's perfect-play try is still to come; otherwise only input redraws."""
        tree = self.tree
        horizon_due = tree is not None and not self.playing and self.horizon.is_due(tree, self.selected)
        comparing = self.compare_job is not None or (self.orders is not None and self.orders.running)
        return tree is None or self.playing or comparing or horizon_due

    def update(self, dt: float) -> None:
        if self.is_stale():
            self.close()
            return
        if self.playing and self.replay is not None and self.tree is not None:
            self.step_clock += dt * SPEEDS[self.speed_index]
            steps = int(self.step_clock)
            self.step_clock -= steps
            if steps:
                if self.replay.steps + steps >= self.replay.total_steps:
                    self.playing = False
                self.replay.seek(self.replay.steps + steps)
                self.follow_replay()
        self.compare_table_now()
        if self.tree is not None and not self.playing:
            # Asked only while the worker is idle: never at the cost of a move or a comparison.
            self.horizon.settle(self.tree, self.selected, worker_free=self.app.worker.current is None)
        self.relayout()

    def relayout(self) -> None:
        """Compute where everything goes for the window's size (``draw`` only reads it)."""
        relayout(self)
        self.detail_panel.update(detail_for(self), self.selected)

    def scroll_detail(self, pages: float) -> None:
        self.detail_panel.scroll(pages, self.app.theme.font(16).get_linesize())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.handle_key(event.key)
            return
        if self.tree is None:
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self.close()
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.relayout()
            for button in self.buttons:
                if button.handle_event(event):
                    return
            for rect, index in self.crumbs:
                if rect.inflate(8, 6).collidepoint(event.pos):
                    self.focus(index)
                    return
            if self.areas.canvas.collidepoint(event.pos):
                self.drag_from, self.dragged = event.pos, False
        elif event.type == pygame.MOUSEMOTION and self.drag_from is not None and event.buttons[0]:
            dx, dy = event.pos[0] - self.drag_from[0], event.pos[1] - self.drag_from[1]
            if self.dragged or abs(dx) + abs(dy) > 4:
                self.dragged = True
                self.view = View(self.view.root, self.view.zoom, self.view.pan_x + dx, self.view.pan_y + dy)
                self.drag_from = event.pos
                self.relayout()
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag_from is not None:
            if not self.dragged:
                self.click(event.pos)
            self.drag_from = None
        elif event.type == pygame.MOUSEWHEEL:
            if self.areas.detail.collidepoint(pygame.mouse.get_pos()):
                self.scroll_detail(-0.25 * event.y)
            else:
                self.zoom(1.25**event.y, pygame.mouse.get_pos())

    def click(self, pos: tuple[int, int]) -> None:
        index = self.node_at(pos)
        if index is None:
            return
        now = self.app.time
        if self.last_click and self.last_click[0] == index and now - self.last_click[1] < DOUBLE_CLICK:
            self.focus(index)
            self.last_click = None
            return
        self.last_click = (index, now)
        self.select(index, follow=False)

    def handle_key(self, key: int) -> None:
        if key in (pygame.K_ESCAPE, pygame.K_t):
            self.close()
            return
        if self.tree is None:
            return
        actions = key_actions(self)
        if key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT):
            self.navigate(key)
        elif key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):  # the layout is the last frame's
            self.scroll_detail(1 if key == pygame.K_PAGEDOWN else -1)
        elif key in actions:
            actions[key]()
        self.relayout()

    def toast_bottom(self, size: tuple[int, int]) -> int | None:
        """Toasts go above the bottom panel, over the tree, never over the panel's or the
        legend's words (``placing.toast_bottom``)."""
        return toast_bottom(self, size)

    def export(self) -> None:
        """E: write the tree as JSON and the subtree on screen as DOT to the preference
        folder; say where in a few words."""
        message = export_to_folder(self.known_tree, self.app.home / "trees", root=self.view.root)
        self.app.show_toast(message, 6.0)

    # -- drawing (see draw.py) ----------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        draw_overlay(self, surface)

    def demo_select(self) -> None:
        """For the headless demo: the biggest search of the match, a pruned branch selected."""
        demo_select(self)
