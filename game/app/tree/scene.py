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
- C: run the same search with pruning switched the other way (C again cancels)
- O: rerun it with each move order (left to right, centre first, best first) to set
  the node counts beside the Knuth-Moore minimal tree (O again cancels)
- Space: replay play/pause; , and .: one step back / forward; Home / End; S: speed;
  X: leave the replay
- L: show or hide the legend
- K: the textbook code beside a line-by-line replay (ai/textbook.py, small depths)
- P: practice, "you are alpha-beta", on this position's depth-2 tree
- D: depth against truth: how often each depth keeps the exact outcome, and its nodes
- E: export the tree as JSON and Graphviz DOT (to the preference folder's trees/)
- Esc or T: close; play goes on where it was
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pygame

from ai.levels import Level
from ai.search import SearchResult
from ai.solver import Solver, SolverError, SolverStopped, moves_to_end
from ai.tree import (
    BOUND_MEANING,
    END,
    FORCED_MEANING,
    BoundKind,
    LeafReason,
    Node,
    SearchTree,
    is_forced_value,
    nodes_text,
)
from ai.tree import fmt_tree_value as fmt_value  # names the heuristic's forced value +F / -F
from game.app.scene import Scene
from game.app.tree.code_scene import CodeWalkScene
from game.app.tree.compare import OrderComparison
from game.app.tree.depth_scene import DepthChartScene
from game.app.tree.draw import draw_overlay
from game.app.tree.export import export_to_folder
from game.app.tree.layout import NODE, PRUNED, Placed, View, layout, path_to
from game.app.tree.legend import LegendLayout, legend_layout
from game.app.tree.practice_scene import PracticeScene
from game.app.tree.replay import Replay
from game.app.tree.text import LEAF_WHY
from game.app.widgets import Button, row_rects
from game.app.worker import JobFailed, JobProgress, JobPurpose, JobResult, SearchJob, WorkerEvent
from game.board import Board
from game.notation import format_move
from game.rules import MAX, Mode

if TYPE_CHECKING:
    from game.app.scenes.play import PlayScene, SearchRecord

SPEEDS = (1, 3, 10, 30, 100, 300, 1000, 3000)
DOUBLE_CLICK = 0.4  # seconds
MIN_ROW = 46.0
"""Pixels between two rows of the tree, at least: a node, its value, the next node's label."""
TIGHT_ROW = 38.0
"""The least, beside the legend: the next row's node just clears its parent's value."""
DEEP_ROW = 24.0
"""The least of all: rows closer than ``TIGHT_ROW`` so that a deep tree's last row stays in view."""
HORIZON_SECONDS = 0.012
"""Time the exact solver may take in one frame for the selected node (it looks at the
clock every ~15 ms, so a frame stays under ~30 ms)."""


@dataclass(frozen=True)
class Areas:
    """The overlay's panels, in window pixels."""

    header: pygame.Rect
    canvas: pygame.Rect
    detail: pygame.Rect
    bottom: pygame.Rect


def areas_for(size: tuple[int, int]) -> Areas:
    w, h = size
    margin = 12
    header = pygame.Rect(margin, margin, w - 2 * margin, 62)
    side = min(340, max(240, int(w * 0.3)))
    bottom_h = min(190, max(150, int(h * 0.26)))
    bottom = pygame.Rect(margin, h - margin - bottom_h, w - 2 * margin, bottom_h)
    detail = pygame.Rect(w - margin - side, header.bottom + 8, side, bottom.top - header.bottom - 16)
    canvas = pygame.Rect(margin, header.bottom + 8, detail.left - 2 * margin, bottom.top - header.bottom - 16)
    return Areas(header, canvas, detail, bottom)


def row_pitch(height: float, rows: int, roomy: float) -> float:
    """Pixels between rows: ``roomy`` or more where every row fits so; else closer (down to
    ``DEEP_ROW``), so that the deepest row and its values stay on the canvas."""
    even = height / max(1, rows)
    if even >= roomy:
        return min(84.0, even)
    return max(DEEP_ROW, height / (rows + 0.3))  # the last row's value label hangs below it


class TreeScene(Scene):
    is_overlay = True
    name = "tree"

    def __init__(self, play: PlayScene, record_index: int | None = None):
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
        self.compare_job: int | None = None
        self.compare_progress: JobProgress | None = None
        self.compare_result: SearchResult | None = None
        self.orders: OrderComparison | None = None  # the move-order runs, once asked for
        self.drag_from: tuple[int, int] | None = None
        self.dragged = False
        self.last_click: tuple[int, float] | None = None
        # Computed in ``relayout`` (from ``update`` and before input), read by ``draw``.
        self.areas = areas_for((800, 600))
        self.drawn: list[Placed] = []
        self.crumbs: list[tuple[pygame.Rect, int]] = []
        self.stub_moves: dict[int, list[int]] = {}  # for each node with stubs drawn: its pruned moves
        self.selected_board: Board | None = None
        self.per_ply: list[int] = []  # stored nodes at each ply
        self.root_moves = 0  # legal moves at the root (the minimal tree's branching)
        self._cache: dict[tuple, Any] = {}  # per record: line, nodes per ply; per node: boards, pruned moves
        self._horizon: dict[tuple[int, int], str | None] = {}  # per (tree, node): the exact verdict
        self._solver: Solver | None = None
        self._settled: tuple[int, int] | None = None  # the (tree, node) selected last frame
        self.horizon_seconds = HORIZON_SECONDS
        self.buttons: list[Button] = []

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
        assert tree is not None, "the tree of this search has not arrived"
        return tree

    def cached(self, key: tuple, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            if len(self._cache) > 4000:
                self._cache.clear()
            self._cache[key] = make()
        return self._cache[key]

    def line(self) -> set[int]:
        """The expected line (principal variation): the root and the nodes along it."""
        tree = self.known_tree
        return self.cached(("pv", id(tree)), lambda: {0} | {n.index for n in tree.principal_variation()})

    def pruned_moves(self, index: int) -> list[int]:
        tree = self.known_tree
        return self.cached(("pruned", id(tree), index), lambda: tree.node(index).pruned_moves())

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
            return "root"
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
        """The text under a node: its value with its bound mark, the live window while
        the replay is inside it, or None when it is not drawn at this step."""
        if not self.is_drawn(index):
            return None
        tree = self.known_tree
        if self.replay is not None and not self.replay.is_known(index):
            frame = self.replay.frame(index)
            assert frame is not None
            if tree.pruning:
                return f"[{fmt_value(frame.alpha)}, {fmt_value(frame.beta)}]"
            return "..." if frame.best is None else f"best {fmt_value(frame.best)}"
        return tree.node(index).value_text

    def banner(self) -> str | None:
        """The cutoff reason shown by the selected node, once that cutoff has happened."""
        node = self.known_tree.node(self.selected)
        reason = node.cutoff_reason()
        if reason is None or not self.shows_cutoff(node.index):
            return None
        return reason

    def detail_lines(self, node: Node) -> list[str]:
        """What the detail panel says about ``node`` (at the replay's step, if any)."""
        tree = self.known_tree
        replay = self.replay
        if replay is not None and not replay.is_visited(node.index):
            return ["Not searched yet at this step of the replay."]
        if replay is not None and not replay.is_known(node.index):
            frame = replay.frame(node.index)
            assert frame is not None
            lines = ["Being searched at this step: its value is not known yet."]
            if tree.pruning:
                lines.append(f"Window now: alpha {fmt_value(frame.alpha)}, beta {fmt_value(frame.beta)}")
            best = "none yet" if frame.best is None else fmt_value(frame.best)
            plural = "" if frame.searched == 1 else "ren"
            lines.append(f"Best so far: {best} ({frame.searched} child{plural} searched)")
            return lines
        bound = node.bound
        lines = [f"Value: {node.value_text}"]
        if is_forced_value(node.value):
            lines.append(f"F: {FORCED_MEANING}")
        if bound is not BoundKind.EXACT:
            lines.append(f"This value is {BOUND_MEANING[bound]}.")
        if tree.pruning:
            lines.append(f"Window in:  alpha {fmt_value(node.alpha_in)}, beta {fmt_value(node.beta_in)}")
            lines.append(f"Window out: alpha {fmt_value(node.alpha_out)}, beta {fmt_value(node.beta_out)}")
        horizon = self._horizon.get((id(tree), node.index))
        if horizon:
            lines.append(horizon)
        if node.is_leaf:
            lines.append(f"Leaf: {LEAF_WHY.get(node.leaf_reason, '')}")
            if node.leaf_reason is LeafReason.DEPTH:
                lines.append(f"Heuristic value: {node.value:,}")
            return lines
        pruned = node.pruned_count
        lines.append(f"Subtree: {nodes_text(node.subtree_size)}")
        moves = f" ({' '.join(self.move_label(m) for m in self.pruned_moves(node.index))})" if pruned else ""
        lines.append(f"Children: {node.searched_count} searched, {pruned} pruned{moves}")
        reason = node.cutoff_reason()
        if reason:
            lines.append(f"Cutoff: {reason}")
        if node.unstored:
            lines.append(f"{nodes_text(node.unstored)} below counted, not stored")
        return lines

    # -- the horizon: what perfect play says about the selected node -----------------
    def horizon_text(self, node: Node) -> str | None:
        """Compare the node's depth-limited value with the exact one, if the solver finds
        it within ``HORIZON_SECONDS``; None where it does not apply."""
        tree = node.tree
        rules = tree.rules
        if rules.mode is not Mode.CLASSIC or not rules.gravity or node.leaf_reason in (LeafReason.WIN, LeafReason.FULL):
            return None
        if self._solver is None:
            # Without the opening book: a book look-up does not poll the clock, and the
            # solver must stop within the frame's budget.
            self._solver = Solver(rules, use_book=False)
        board = node.board()
        deadline = time.perf_counter() + self.horizon_seconds
        try:
            solution = self._solver.solve_grid(
                board.grid, board.to_move, should_stop=lambda: time.perf_counter() > deadline
            )
        except SolverStopped:
            return f"Perfect play: not known within {self.horizon_seconds * 1000:.0f} ms"
        except SolverError:
            return None
        depth = tree.depth - node.ply
        said = f"Depth {depth} says {node.value_text}" if depth > 0 else f"The heuristic says {node.value_text}"
        if solution.score == 0:
            return f"{said}; perfect play: a draw"
        own = int((board.grid == board.to_move).sum())
        opponent = int((board.grid == -board.to_move).sum())
        moves = moves_to_end(solution.score, own, opponent, rules.cells)  # the winner's own moves
        mover_wins = solution.score > 0
        winner = board.to_move if mover_wins else -board.to_move
        name = "MAX (player 1)" if winner == MAX else "MIN (player 2)"
        # In plies, as the tree's W values count (a ply: one disc, either side's).
        plies = 2 * moves - 1 if mover_wins else 2 * moves
        exact = f"{'+' if winner == MAX else '-'}W{node.ply + plies}"
        return f"{said}; perfect play: {exact}, {name} wins in {plies} pl{'y' if plies == 1 else 'ies'} from here"

    # -- life cycle -------------------------------------------------------------------
    def on_enter(self) -> None:
        self.buttons = [
            Button("|<", lambda: self.replay_jump(start=True)),
            Button("<", self.replay_back),
            Button("Play", self.toggle_play),
            Button(">", self.replay_forward),
            Button(">|", lambda: self.replay_jump(start=False)),
            Button("Speed", self.next_speed),
            Button("Compare", self.toggle_compare),
            Button("Orders", self.toggle_orders),
            Button("Legend", self.toggle_legend),
            Button("Fit", self.fit),
            Button("Close", self.close),
        ]
        if pygame.display.get_surface() is not None:
            self.relayout()

    def on_resume(self) -> None:
        if self.is_stale():  # the game it showed is gone (issue 17: Play again under it)
            self.close()

    def on_exit(self) -> None:
        self.cancel_compare()
        self.cancel_orders()

    def close(self) -> None:
        self.app.stack.pop()

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
            self.compare_result = None

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
        canvas = self.areas.canvas
        x = around[0] if around else canvas.centerx
        zoom = max(0.2, min(400.0, self.view.zoom * factor))
        real = zoom / self.view.zoom
        # Keep the world point under ``x`` where it is.
        pan_x = x - canvas.left - (x - canvas.left - self.view.pan_x) * real
        self.view = View(self.view.root, zoom, pan_x, self.view.pan_y)
        self.relayout()

    def navigate(self, key: int) -> None:
        tree = self.known_tree
        node = tree.node(self.selected)
        target = None
        if key == pygame.K_UP and node.parent is not None:
            target = node.parent.index
        elif key == pygame.K_DOWN:
            children = node.children()
            best = node.best_child()
            target = (best or children[0]).index if children else None
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and node.parent is not None:
            siblings = [c.index for c in node.parent.children()]
            position = siblings.index(node.index) + (1 if key == pygame.K_RIGHT else -1)
            if 0 <= position < len(siblings):
                target = siblings[position]
        if target is not None:
            if target < self.view.root or target >= tree.field(self.view.root, END):
                parent = tree.node(target).parent
                self.focus(parent.index if parent is not None else target)
            self.select(target)

    def node_at(self, pos: tuple[int, int]) -> int | None:
        best, best_distance = None, 16.0**2
        for item in self.drawn:
            if item.kind == NODE and self.is_drawn(item.index):
                distance = (item.x - pos[0]) ** 2 + (item.y - pos[1]) ** 2
                if distance < best_distance:
                    best, best_distance = item.index, distance
        return best

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
        current = self.replay.current if self.replay else None
        if current is not None:
            self.select(current)

    def stop_replay(self) -> None:
        self.replay, self.playing = None, False

    # -- compare ----------------------------------------------------------------------
    def toggle_compare(self) -> None:
        if self.compare_job is not None:
            self.cancel_compare()
            self.app.show_toast("Comparison cancelled")
            return
        tree = self.known_tree
        level = self.record_level()
        # Through the level's own player (``choose_move``), as the search itself was: the
        # same move order and the same seeded noise, only the pruning switched and no clock.
        job = SearchJob(
            tree.grid,
            tree.rules,
            tree.to_move,
            tree.depth,
            pruning=not tree.pruning,
            record_tree=False,
            purpose=JobPurpose.COMPARE,
            level=replace(
                level,
                depth=tree.depth,
                pruning=not tree.pruning,
                time_budget=0.0,
                perfect=False,
                book_discs=0,
                endgame_cells=0,
            ),
        )
        self.compare_job = self.app.submit(job, self)
        self.compare_progress = None
        self.compare_result = None

    def cancel_compare(self) -> None:
        if self.compare_job is not None and self.app.worker.current == self.compare_job:
            self.app.worker.cancel()
        self.compare_job = None
        self.compare_progress = None

    def toggle_orders(self) -> None:
        """Rerun this search with each move order (pruning on), or stop doing so."""
        if self.orders is not None and self.orders.running:
            self.cancel_orders()
            self.app.show_toast("Move-order comparison cancelled")
            return
        tree = self.known_tree
        noise = self.record_level().noise  # the same judgement as the search shown (same seed too)
        self.orders = OrderComparison(tree.grid, tree.rules, tree.to_move, tree.depth, noise=noise)

    def cancel_orders(self) -> None:
        if self.orders is not None:
            self.orders.cancel()

    def on_worker_event(self, event: WorkerEvent) -> None:
        """The compare job's progress and answer (the App hands them over)."""
        if isinstance(event, JobProgress) and event.job_id == self.compare_job:
            self.compare_progress = event
        elif isinstance(event, JobResult) and event.job_id == self.compare_job:
            self.compare_result = event.result
            self.compare_job = None
        elif isinstance(event, JobFailed) and event.job_id == self.compare_job:
            self.compare_job = None
            self.compare_progress = None
            self.app.show_toast(f"The comparison failed: {event.message}")

    # -- frame ------------------------------------------------------------------------
    def is_animating(self) -> bool:
        """Frames are needed while the replay plays, a comparison runs, or the selected
        node's perfect-play try is still to come; otherwise only input redraws."""
        tree = self.tree
        horizon_due = tree is not None and not self.playing and (id(tree), self.selected) not in self._horizon
        comparing = self.compare_job is not None or (self.orders is not None and self.orders.running)
        return tree is None or self.playing or comparing or horizon_due

    def update(self, dt: float) -> None:
        if self.is_stale():
            self.close()
            return
        if self.orders is not None:
            self.orders.poll()
        if self.playing and self.replay is not None and self.tree is not None:
            self.step_clock += dt * SPEEDS[self.speed_index]
            steps = int(self.step_clock)
            self.step_clock -= steps
            if steps:
                if self.replay.steps + steps >= self.replay.total_steps:
                    self.playing = False
                self.replay.seek(self.replay.steps + steps)
                self.follow_replay()
        if self.tree is not None and not self.playing:
            # One solver try per selected node, on the frame after the selection settles,
            # so a jump's frame and the solver's never add up.
            key = (id(self.tree), self.selected)
            if key not in self._horizon and key == self._settled:
                self._horizon[key] = self.horizon_text(self.tree.node(self.selected))
            self._settled = key
        self.relayout()

    def relayout(self) -> None:
        """Compute where everything goes for the window's size (``draw`` only reads it)."""
        surface = pygame.display.get_surface()
        if surface is None:
            return
        self.areas = areas_for(surface.get_size())
        tree = self.tree
        if tree is None:
            self.drawn, self.crumbs, self.legend = [], [], None
            self.layout_buttons()
            return
        canvas = self.areas.canvas
        rows = tree.depth - tree.node(self.view.root).ply + 1
        theme = self.app.theme
        legend = self.cached(("legend", canvas.size, tree.pruning), lambda: legend_layout(theme, canvas, tree))
        if self.legend_open is None:  # by default only where the tree keeps room to breathe
            roomy = (canvas.height - 20 - legend.box.height) / (tree.depth + 1) >= 56  # the whole tree's rows
            self.legend = legend if roomy else None
        else:
            self.legend = legend if self.legend_open else None
        height = canvas.height - 12 - (self.legend.box.height + 8 if self.legend is not None else 0)
        # Asked for where the tree's rows would not all fit beside it: the legend takes the canvas.
        self.legend_page = self.legend is not None and height < rows * TIGHT_ROW
        if self.legend_page:
            self.legend = self.cached(
                ("legend-page", canvas.size, tree.pruning), lambda: legend_layout(theme, canvas, tree, page=True)
            )
            height = canvas.height - 12
        self.drawn = (
            []
            if self.legend_page
            else layout(
                tree,
                self.view,
                (canvas.left + 10, canvas.top + 6, canvas.width - 20, max(60, height)),
                row_height=row_pitch(height, rows, MIN_ROW if self.legend is None else TIGHT_ROW),
                line=self.line(),
            )
        )
        self.crumbs = self.crumb_rects()
        # What draw needs beyond the tree, worked out here so that drawing changes nothing.
        self.stub_moves = {item.index: self.pruned_moves(item.index) for item in self.drawn if item.kind == PRUNED}
        self.selected_board = self.cached(("board", id(tree), self.selected), tree.node(self.selected).board)
        self.per_ply = self.cached(("ply", id(tree)), tree.nodes_per_ply)
        self.root_moves = self.cached(("legal", id(tree)), lambda: len(tree.root.board().legal_moves()))
        self.layout_buttons()

    def crumb_rects(self) -> list[tuple[pygame.Rect, int]]:
        """Where each node of the path to the view's root is written in the header."""
        theme = self.app.theme
        tree = self.known_tree
        header = self.areas.header
        x = header.left + 10 + theme.font(18).size("Path:")[0] + 8
        y = header.top + 34
        crumbs = []
        for index in path_to(tree, self.view.root):
            width, height = theme.font(18, bold=index == self.view.root).size(self.move_label(tree.node(index).move))
            crumbs.append((pygame.Rect(x, y, width, height), index))
            x += width + 6
            if index != self.view.root:
                x += theme.font(18).size(">")[0] + 6
        return crumbs

    def layout_buttons(self) -> None:
        bottom = self.areas.bottom
        strip = pygame.Rect(bottom.left + 10, bottom.bottom - 40, bottom.width - 20, 32)
        for button, rect in zip(self.buttons, row_rects(strip, len(self.buttons), 6)):
            button.rect = rect
        if len(self.buttons) == 11:
            self.buttons[2].label = "Pause" if self.playing else "Play"
            self.buttons[5].label = f"x{SPEEDS[self.speed_index]}"
            self.buttons[6].label = "Cancel" if self.compare_job is not None else "Compare"
            self.buttons[7].label = "Stop" if self.orders is not None and self.orders.running else "Orders"
            hide = (
                "No legend"
                if self.app.theme.font(16).size("No legend")[0] + 12 <= self.buttons[8].rect.width
                else "Legend"
            )
            self.buttons[8].label = "Legend" if not self.shows_legend() else hide

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
        actions: dict[int, Callable[[], None]] = {
            pygame.K_RETURN: lambda: self.focus(self.selected),
            pygame.K_KP_ENTER: lambda: self.focus(self.selected),
            pygame.K_BACKSPACE: self.back_up,
            pygame.K_f: self.fit,
            pygame.K_c: self.toggle_compare,
            pygame.K_l: self.toggle_legend,
            pygame.K_o: self.toggle_orders,
            pygame.K_SPACE: self.toggle_play,
            pygame.K_PERIOD: self.replay_forward,
            pygame.K_COMMA: self.replay_back,
            pygame.K_HOME: lambda: self.replay_jump(start=True),
            pygame.K_END: lambda: self.replay_jump(start=False),
            pygame.K_s: self.next_speed,
            pygame.K_e: self.export,
            pygame.K_d: lambda: self.app.stack.push(DepthChartScene(self.known_tree)),
            pygame.K_p: lambda: self.app.stack.push(PracticeScene(self.known_tree)),
            pygame.K_k: lambda: self.app.stack.push(CodeWalkScene(self.known_tree)),
            pygame.K_x: self.stop_replay,
            pygame.K_LEFTBRACKET: lambda: self.switch_record(-1),
            pygame.K_RIGHTBRACKET: lambda: self.switch_record(1),
            pygame.K_PLUS: lambda: self.zoom(1.25),
            pygame.K_EQUALS: lambda: self.zoom(1.25),
            pygame.K_KP_PLUS: lambda: self.zoom(1.25),
            pygame.K_MINUS: lambda: self.zoom(0.8),
            pygame.K_KP_MINUS: lambda: self.zoom(0.8),
        }
        if key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT):
            self.navigate(key)
        elif key in actions:
            actions[key]()
        self.relayout()

    def toast_bottom(self, size: tuple[int, int]) -> int | None:
        """Toasts go above the bottom panel, over the tree, never over the panel's words."""
        return areas_for(size).bottom.top - 6

    def export(self) -> None:
        """E: write the tree on screen as JSON and DOT to the preference folder; say where."""
        message = export_to_folder(self.known_tree, self.app.home / "trees")
        self.app.show_toast(message, 6.0)

    # -- drawing (see draw.py) ----------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        draw_overlay(self, surface)

    # -- for the headless demo ----------------------------------------------------------
    def demo_select(self) -> None:
        """Show the biggest search of the match with a pruned branch selected."""
        candidates = [i for i, r in enumerate(self.play.searches) if r.result.tree is not None]
        if not candidates:
            return
        self.record_index = max(candidates, key=lambda i: len(self.play.searches[i].result.tree or ()))
        self._record = self.play.searches[self.record_index]
        self.view, self.replay = View(), None
        tree = self.known_tree
        for child in tree.root.children():
            if child.pruned_count:
                self.select(child.index, follow=False)
                self.relayout()
                return
        for node in tree.iter_nodes():
            if node.pruned_count and node.ply <= 3:
                parent = node.parent
                self.focus(parent.index if parent else node.index)
                self.select(node.index, follow=False)
                return
        self.relayout()
