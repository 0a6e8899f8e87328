"""The tree overlay: walk, replay and compare the search the computer just did.

Opened over the play scene (which stays visible, dimmed) with T or the Tree button.

Controls:
- click a node: select it; double-click or Enter: make it the view's root
- Backspace: back up one level (or click the path at the top)
- arrows: Up parent, Down first child, Left/Right siblings
- mouse wheel or +/-: zoom; drag: pan; F: fit the tree to the window
- [ and ]: the match's earlier / later searches
- C: run the same search with pruning switched the other way (C again cancels)
- Space: replay play/pause; , and .: one step back / forward; Home / End; S: speed;
  X: leave the replay
- Esc or T: close; play goes on where it was
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ai.tree import END, LeafReason, SearchTree, minimal_tree
from ai.values import fmt_value
from game.app.scene import Scene
from game.app.scenes.menu import dim
from game.app.tree.layout import NODE, PRUNED, Placed, View, layout, path_to
from game.app.tree.replay import Replay
from game.app.widgets import Button, row_rects
from game.app.worker import JobFailed, JobProgress, JobPurpose, JobResult, SearchJob, WorkerEvent
from game.notation import format_move

if TYPE_CHECKING:
    from game.app.scenes.play import PlayScene, SearchRecord

SPEEDS = (1, 3, 10, 30, 100, 300, 1000, 3000)
DOUBLE_CLICK = 0.4  # seconds
REASONS = {
    LeafReason.DEPTH: "depth limit: valued by the heuristic",
    LeafReason.WIN: "the move completed a line: game won",
    LeafReason.FULL: "the board is full: game over",
}


class TreeScene(Scene):
    is_overlay = True
    name = "tree"

    def __init__(self, play: PlayScene, record_index: int | None = None):
        super().__init__()
        self.play = play
        self.record_index = len(play.searches) - 1 if record_index is None else record_index
        self.view = View()
        self.selected = 0
        self.drawn: list[Placed] = []
        self.replay: Replay | None = None
        self.playing = False
        self.speed_index = 2
        self.step_clock = 0.0
        self.compare_job: int | None = None
        self.compare_progress: JobProgress | None = None
        self.compare_result = None
        self.drag_from: tuple[int, int] | None = None
        self.dragged = False
        self.last_click: tuple[int, float] | None = None
        self.crumbs: list[tuple[pygame.Rect, int]] = []
        self._cache: dict = {}  # per record: pv, nodes per ply; per node: boards, pruned moves
        self.buttons: list[Button] = []

    # -- data -------------------------------------------------------------------------
    @property
    def record(self) -> SearchRecord:
        return self.play.searches[self.record_index]

    @property
    def tree(self) -> SearchTree | None:
        return self.record.result.tree

    def cached(self, key, make):
        if key not in self._cache:
            if len(self._cache) > 4000:
                self._cache.clear()
            self._cache[key] = make()
        return self._cache[key]

    def pv(self) -> set[int]:
        tree = self.tree
        return self.cached(("pv", id(tree)), lambda: {0} | {n.index for n in tree.principal_variation()})

    def pruned_moves(self, index: int) -> list[int]:
        tree = self.tree
        return self.cached(("pruned", id(tree), index), lambda: tree.node(index).pruned_moves())

    def move_label(self, move: int | None) -> str:
        if move is None:
            return "root"
        return format_move(move, self.play.rules)

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
            Button("Fit", self.fit),
            Button("Close", self.close),
        ]

    def on_exit(self) -> None:
        self.cancel_compare()

    def close(self) -> None:
        self.app.stack.pop()

    def switch_record(self, delta: int) -> None:
        index = max(0, min(len(self.play.searches) - 1, self.record_index + delta))
        if index != self.record_index:
            self.cancel_compare()
            self.record_index = index
            self.view, self.selected, self.replay, self.playing = View(), 0, None, False
            self.compare_result = None

    # -- navigation -------------------------------------------------------------------
    def select(self, index: int, *, follow: bool = True) -> None:
        self.selected = index
        if follow:
            self.ensure_visible(index)

    def focus(self, index: int) -> None:
        """Make ``index`` the root of the view."""
        self.view = View(root=index)
        self.selected = index

    def back_up(self) -> None:
        parent = self.tree.node(self.view.root).parent
        if parent is not None:
            self.focus(parent.index)
            self.selected = self.view.root

    def fit(self) -> None:
        self.view = View(root=self.view.root)

    def ensure_visible(self, index: int) -> None:
        """Show ``index``: re-root the view on its parent if it is not drawn or off screen."""
        canvas = self.canvas_rect(pygame.display.get_surface())
        for item in self.drawn:
            if item.kind == NODE and item.index == index:
                if canvas.inflate(-40, -40).collidepoint(item.x, item.y):
                    return
                break
        node = self.tree.node(index)
        parent = node.parent
        self.view = View(root=parent.index if parent is not None else index)
        self.drawn = self.layout(pygame.display.get_surface())

    def zoom(self, factor: float, around: tuple[float, float] | None = None) -> None:
        canvas = self.canvas_rect(pygame.display.get_surface())
        x = around[0] if around else canvas.centerx
        zoom = max(0.2, min(400.0, self.view.zoom * factor))
        real = zoom / self.view.zoom
        # Keep the world point under ``x`` where it is.
        pan_x = x - canvas.left - (x - canvas.left - self.view.pan_x) * real
        self.view = View(self.view.root, zoom, pan_x, self.view.pan_y)

    def navigate(self, key: int) -> None:
        tree = self.tree
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
                self.focus(tree.node(target).parent.index if tree.node(target).parent else target)
            self.select(target)

    def node_at(self, pos: tuple[int, int]) -> int | None:
        best, best_distance = None, 16.0**2
        for item in self.drawn:
            if item.kind == NODE:
                distance = (item.x - pos[0]) ** 2 + (item.y - pos[1]) ** 2
                if distance < best_distance:
                    best, best_distance = item.index, distance
        return best

    # -- replay -----------------------------------------------------------------------
    def ensure_replay(self) -> Replay:
        if self.replay is None:
            self.replay = Replay(self.tree, self.view.root)
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

    # -- compare ----------------------------------------------------------------------
    def toggle_compare(self) -> None:
        if self.compare_job is not None:
            self.cancel_compare()
            self.app.show_toast("Comparison cancelled")
            return
        tree = self.tree
        job = SearchJob(
            tree.grid,
            tree.rules,
            tree.to_move,
            tree.depth,
            pruning=not tree.pruning,
            record_tree=False,
            purpose=JobPurpose.COMPARE,
        )
        self.compare_job = self.app.submit(job, self)
        self.compare_progress = None
        self.compare_result = None

    def cancel_compare(self) -> None:
        if self.compare_job is not None and self.app.worker.current == self.compare_job:
            self.app.worker.cancel()
        self.compare_job = None
        self.compare_progress = None

    # -- frame ------------------------------------------------------------------------
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

    def update(self, dt: float) -> None:
        if self.playing and self.replay is not None and self.tree is not None:
            self.step_clock += dt * SPEEDS[self.speed_index]
            steps = int(self.step_clock)
            self.step_clock -= steps
            for _ in range(min(steps, 5000)):
                if not self.replay.forward():
                    self.playing = False
                    break
            if steps:
                self.follow_replay()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.handle_key(event.key)
            return
        if self.tree is None:
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self.close()
            return
        surface = pygame.display.get_surface()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.layout_buttons(surface)
            for button in self.buttons:
                if button.handle_event(event):
                    return
            for rect, index in self.crumbs:
                if rect.collidepoint(event.pos):
                    self.focus(index)
                    return
            if self.canvas_rect(surface).collidepoint(event.pos):
                self.drag_from, self.dragged = event.pos, False
        elif event.type == pygame.MOUSEMOTION and self.drag_from is not None and event.buttons[0]:
            dx, dy = event.pos[0] - self.drag_from[0], event.pos[1] - self.drag_from[1]
            if self.dragged or abs(dx) + abs(dy) > 4:
                self.dragged = True
                self.view = View(self.view.root, self.view.zoom, self.view.pan_x + dx, self.view.pan_y + dy)
                self.drag_from = event.pos
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
        actions = {
            pygame.K_RETURN: lambda: self.focus(self.selected),
            pygame.K_KP_ENTER: lambda: self.focus(self.selected),
            pygame.K_BACKSPACE: self.back_up,
            pygame.K_f: self.fit,
            pygame.K_c: self.toggle_compare,
            pygame.K_SPACE: self.toggle_play,
            pygame.K_PERIOD: self.replay_forward,
            pygame.K_COMMA: self.replay_back,
            pygame.K_HOME: lambda: self.replay_jump(start=True),
            pygame.K_END: lambda: self.replay_jump(start=False),
            pygame.K_s: self.next_speed,
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

    def stop_replay(self) -> None:
        self.replay, self.playing = None, False

    # -- geometry ---------------------------------------------------------------------
    def areas(self, surface: pygame.Surface) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
        """(header, canvas, detail panel, bottom panel)."""
        w, h = surface.get_size()
        margin = 12
        header = pygame.Rect(margin, margin, w - 2 * margin, 62)
        side = min(340, max(240, int(w * 0.3)))
        bottom_h = min(190, max(150, int(h * 0.26)))
        bottom = pygame.Rect(margin, h - margin - bottom_h, w - 2 * margin, bottom_h)
        detail = pygame.Rect(w - margin - side, header.bottom + 8, side, bottom.top - header.bottom - 16)
        canvas = pygame.Rect(margin, header.bottom + 8, detail.left - 2 * margin, bottom.top - header.bottom - 16)
        return header, canvas, detail, bottom

    def canvas_rect(self, surface: pygame.Surface) -> pygame.Rect:
        return self.areas(surface)[1]

    def layout(self, surface: pygame.Surface) -> list[Placed]:
        canvas = self.canvas_rect(surface)
        return layout(
            self.tree,
            self.view,
            (canvas.left + 10, canvas.top + 6, canvas.width - 20, canvas.height - 12),
            row_height=max(56, min(84, canvas.height / 5)),
        )

    def layout_buttons(self, surface: pygame.Surface) -> None:
        bottom = self.areas(surface)[3]
        strip = pygame.Rect(bottom.left + 10, bottom.bottom - 40, bottom.width - 20, 32)
        for button, rect in zip(self.buttons, row_rects(strip, len(self.buttons), 6)):
            button.rect = rect
        self.buttons[2].label = "Pause" if self.playing else "Play"
        self.buttons[5].label = f"x{SPEEDS[self.speed_index]}"
        self.buttons[6].label = "Cancel" if self.compare_job is not None else "Compare"

    # -- drawing ----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        dim(surface, 90)
        theme = self.app.theme
        p = theme.palette
        header, canvas, detail, bottom = self.areas(surface)
        for rect in (header, canvas, detail, bottom):  # opaque: the game shows around them
            pygame.draw.rect(surface, p.panel, rect, border_radius=6)
            pygame.draw.rect(surface, p.muted, rect, 1, border_radius=6)
        if self.tree is None:
            theme.text(surface, "The tree of this search is still arriving...", 26, canvas.center, anchor="center")
            return
        self.drawn = self.layout(surface)
        self.draw_header(surface, header)
        clip = surface.get_clip()
        surface.set_clip(canvas)
        self.draw_tree(surface)
        surface.set_clip(clip)
        self.draw_detail(surface, detail)
        self.draw_bottom(surface, bottom)

    def draw_header(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        theme = self.app.theme
        p = theme.palette
        record, tree = self.record, self.tree
        stats = record.result.stats
        who = self.play.side_name(record.side)
        who = who[0].lower() + who[1:] if who.startswith("The ") else who
        kind = "hint for" if record.tag == "hint" else "move of"
        count = len(self.play.searches)
        title = (
            f"Search {self.record_index + 1}/{count}: {kind} {who} at move {record.ply + 1} "
            f"- depth {tree.depth}, alpha-beta {'on' if tree.pruning else 'off'}, "
            f"{stats.nodes:,} nodes, {stats.seconds:.3f} s"
        )
        theme.text(
            surface, theme.fit(title, 22, rect.width - 20, bold=True), 22, (rect.left + 10, rect.top + 6), bold=True
        )
        x = rect.left + 10
        y = rect.top + 34
        self.crumbs = []
        label = theme.text(surface, "Path:", 18, (x, y), color=p.muted)
        x = label.right + 8
        for index in path_to(tree, self.view.root):
            text = self.move_label(tree.node(index).move)
            drawn = theme.text(surface, text, 18, (x, y), color=p.accent, bold=index == self.view.root)
            self.crumbs.append((drawn.inflate(8, 6), index))
            x = drawn.right + 6
            if index != self.view.root:
                x = theme.text(surface, ">", 18, (x, y), color=p.muted).right + 6
        hint = "[ ] other searches · Backspace up · Enter focus · F fit · Esc close"
        if theme.font(16).size(hint)[0] < rect.right - x - 30:
            theme.text(surface, hint, 16, (rect.right - 10, y + 2), color=p.muted, anchor="topright")
        if not tree.is_complete:
            note = f"Budget reached: {len(tree):,} of {tree.counted:,} nodes stored; '+N counted' marks the rest"
            theme.text(surface, note, 16, (rect.right - 10, rect.top + 8), color=p.player2, anchor="topright")

    def node_colors(self, index: int, is_max: bool) -> tuple:
        p = self.app.theme.palette
        color = p.max_node if is_max else p.min_node
        if self.replay is not None and not self.replay.is_visited(index):
            return p.pruned, True
        return color, False

    def draw_tree(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        tree = self.tree
        pv = self.pv()
        replay = self.replay
        size = 11
        # Edges first, then nodes over them.
        for item in self.drawn:
            if item.parent_xy is None:
                continue
            if item.kind == NODE:
                on_pv = item.index in pv and tree.field(item.index, 0) in pv
                faint = replay is not None and not replay.is_visited(item.index)
                color = p.glow if on_pv and not faint else (p.pruned if faint else p.muted)
                pygame.draw.line(surface, color, item.parent_xy, (item.x, item.y), 5 if on_pv else 1)
            elif item.kind == PRUNED:
                _dashed(surface, p.pruned, item.parent_xy, (item.x, item.y))
            else:
                pygame.draw.line(surface, p.pruned, item.parent_xy, (item.x, item.y - 10), 1)
        for item in self.drawn:
            if item.kind == NODE:
                self.draw_node(surface, item, size, item.index in pv)
            elif item.kind == PRUNED:
                x, y = item.x, item.y
                pygame.draw.circle(surface, p.pruned, (x, y), 6)
                if item.slot == 0:  # one cut mark on the first pruned edge of the group
                    arm = 6
                    mx, my = (
                        item.parent_xy[0] + (x - item.parent_xy[0]) * 0.6,
                        item.parent_xy[1] + (y - item.parent_xy[1]) * 0.6,
                    )
                    pygame.draw.line(surface, p.player2, (mx - arm, my - arm), (mx + arm, my + arm), 3)
                    pygame.draw.line(surface, p.player2, (mx - arm, my + arm), (mx + arm, my - arm), 3)
                moves = self.pruned_moves(item.index)
                if item.slot < len(moves):
                    theme.text(
                        surface, self.move_label(moves[item.slot]), 14, (x, y + 8), color=p.pruned, anchor="midtop"
                    )
            else:
                node = tree.node(item.index)
                stored_children = bool(node.children())
                text = f"+{item.count:,}" if stored_children or not node.unstored else f"+{item.count:,} counted"
                label = theme.font(14).size(text)
                box = pygame.Rect(0, 0, label[0] + 10, label[1] + 6)
                box.midtop = (item.x, item.y - 10)
                pygame.draw.rect(surface, p.panel, box, border_radius=4)
                pygame.draw.rect(surface, p.pruned, box, 1, border_radius=4)
                theme.text(surface, text, 14, box.center, color=p.muted, anchor="center")
        # The cutoff reason of the selected node, by its stubs.
        node = tree.node(self.selected)
        reason = node.cutoff_reason()
        if reason:
            for item in self.drawn:
                if item.kind == NODE and item.index == self.selected:
                    width, height = theme.font(16).size(reason)
                    box = pygame.Rect(0, 0, width + 12, height + 6)
                    box.midbottom = (item.x, item.y - 26)
                    box.clamp_ip(surface.get_clip())
                    pygame.draw.rect(surface, p.panel, box, border_radius=4)
                    pygame.draw.rect(surface, p.player2, box, 1, border_radius=4)
                    theme.text(surface, reason, 16, box.center, color=p.player2, anchor="center")
                    break

    def draw_node(self, surface: pygame.Surface, item: Placed, size: int, on_pv: bool) -> None:
        theme = self.app.theme
        p = theme.palette
        node = self.tree.node(item.index)
        is_max = node.is_max
        color, faint = self.node_colors(item.index, is_max)
        x, y = item.x, item.y
        if is_max:  # MAX: a triangle pointing up; MIN: pointing down
            points = [(x, y - size), (x - size, y + size * 0.8), (x + size, y + size * 0.8)]
        else:
            points = [(x, y + size), (x - size, y - size * 0.8), (x + size, y - size * 0.8)]
        if item.index == self.selected:
            pygame.draw.circle(surface, p.accent, (x, y), size + 9, 3)
        if self.replay is not None and self.replay.is_open(item.index):
            pygame.draw.circle(surface, p.glow, (x, y), size + 5, 2)
        if self.replay is not None and self.replay.cutoff == item.index:
            pygame.draw.circle(surface, p.player2, (x, y), size + 13, 3)
        pygame.draw.polygon(surface, color, points)
        pygame.draw.polygon(surface, p.glow if on_pv and not faint else p.text, points, 2 if on_pv else 1)
        if node.leaf_reason is LeafReason.WIN:
            pygame.draw.circle(surface, p.glow, (x, y), 3)
        theme.text(
            surface, self.move_label(node.move), 15, (x + size + 2, y - size - 4), color=p.text, anchor="bottomleft"
        )
        if self.replay is not None and self.replay.is_open(item.index):
            window = self.replay.window(item.index)
            text = f"[{fmt_value(window[0])}, {fmt_value(window[1])}]"
        elif faint:
            text = "?"
        else:
            text = fmt_value(node.value)
        theme.text(
            surface, text, 15, (x, y + size + 2), color=p.muted if faint else p.text, anchor="midtop", bold=on_pv
        )
        if node.unstored and node.children():
            theme.text(surface, f"+{node.unstored:,} counted", 13, (x + size + 2, y + 2), color=p.player2)

    def draw_detail(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        theme = self.app.theme
        p = theme.palette
        tree = self.tree
        node = tree.node(self.selected)
        x, y = rect.left + 12, rect.top + 10
        path = node.path()
        moves = " ".join(self.move_label(m) for m in path) or "(the position searched)"
        side = "MAX (player 1)" if node.is_max else "MIN (player 2)"
        theme.text(
            surface,
            f"{'Root' if node.move is None else 'Move ' + self.move_label(node.move)}: {side} to move",
            19,
            (x, y),
            bold=True,
        )
        y += 24
        for line in theme.wrap(f"Line: {moves}", 16, rect.width - 24)[:2]:
            theme.text(surface, line, 16, (x, y), color=p.muted)
            y += 18
        # The board at this node, small.
        board = self.cached(("board", id(tree), self.selected), node.board)
        rows, cols = board.rules.rows, board.rules.cols
        cell = max(6, min((rect.width - 24) // cols, int(rect.height * 0.36) // rows))
        grid_rect = pygame.Rect(x, y + 4, cell * cols, cell * rows)
        pygame.draw.rect(surface, p.board, grid_rect.inflate(6, 6), border_radius=4)
        last = board.last_cell()
        for r in range(rows):
            for c in range(cols):
                center = (grid_rect.left + (c + 0.5) * cell, grid_rect.top + (r + 0.5) * cell)
                value = int(board.grid[r, c])
                if value:
                    theme.draw_disc(surface, center, cell * 0.42, value)
                else:
                    pygame.draw.circle(surface, p.hole, center, cell * 0.42)
                if last == (r, c) and path:
                    pygame.draw.circle(surface, p.glow, center, cell * 0.46, 2)
        y = grid_rect.bottom + 12
        lines = self.detail_lines(node)
        for text in lines:
            for line in theme.wrap(text, 17, rect.width - 24):
                if y > rect.bottom - 20:
                    return
                theme.text(surface, line, 17, (x, y))
                y += 20

    def detail_lines(self, node) -> list[str]:
        """What the detail panel says about ``node``."""
        tree = self.tree
        lines = [f"Value: {fmt_value(node.value)}"]
        if tree.pruning:
            lines.append(f"Window in:  alpha {fmt_value(node.alpha_in)}, beta {fmt_value(node.beta_in)}")
            lines.append(f"Window out: alpha {fmt_value(node.alpha_out)}, beta {fmt_value(node.beta_out)}")
        if node.is_leaf:
            lines.append(f"Leaf: {REASONS.get(node.leaf_reason, '')}")
            if node.leaf_reason is LeafReason.DEPTH:
                lines.append(f"Heuristic value: {node.value}")
            return lines
        pruned = node.pruned_count
        lines.append(f"Subtree: {node.subtree_size:,} nodes")
        moves = f" ({' '.join(self.move_label(m) for m in self.pruned_moves(node.index))})" if pruned else ""
        lines.append(f"Children: {node.searched_count} searched, {pruned} pruned{moves}")
        reason = node.cutoff_reason()
        if reason:
            lines.append(f"Cutoff: {reason}")
        if node.unstored:
            lines.append(f"{node.unstored:,} nodes below were counted, not stored")
        return lines

    def draw_bottom(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        theme = self.app.theme
        p = theme.palette
        tree, result = self.tree, self.record.result
        stats = result.stats
        x, y = rect.left + 12, rect.top + 8
        # Nodes per ply: a small bar chart.
        per_ply = self.cached(("ply", id(tree)), tree.nodes_per_ply)
        chart = pygame.Rect(x, y, min(300, rect.width // 3), rect.height - 60)
        theme.text(surface, "Nodes per ply (stored)", 15, (chart.left, chart.top), color=p.muted)
        levels = per_ply[1:] or [0]
        bar_h = max(3, min(14, (chart.height - 20) // max(1, len(levels))))
        biggest = max(levels) or 1
        for ply, count in enumerate(levels, start=1):
            top = chart.top + 20 + (ply - 1) * (bar_h + 2)
            if top + bar_h > chart.bottom:
                break
            width = int((chart.width - 90) * count / biggest)
            pygame.draw.rect(
                surface, p.max_node if ply % 2 == 0 else p.min_node, (chart.left + 24, top, max(1, width), bar_h)
            )
            theme.text(surface, str(ply), 13, (chart.left, top), color=p.muted)
            theme.text(surface, f"{count:,}", 13, (chart.left + 28 + width, top), color=p.muted)
        # Totals and the comparison.
        tx = chart.right + 24
        legal = self.cached(("legal", id(tree)), lambda: len(tree.node(0).board().legal_moves()))
        minimal_nodes, minimal_leaves = minimal_tree(tree.depth, max(1, legal))
        lines = [
            f"Depth {stats.depth}, alpha-beta {'on' if tree.pruning else 'off'}: {stats.nodes:,} nodes "
            f"({stats.total_nodes:,} in all passes), {stats.leaves:,} leaves, {stats.cutoffs:,} cutoffs, "
            f"{stats.seconds:.3f} s",
            f"Knuth-Moore minimal tree (b={legal}, depth {tree.depth}): {minimal_nodes:,} nodes, "
            f"{minimal_leaves:,} leaves",
        ]
        if self.compare_job is not None:
            progress = self.compare_progress
            done = f"{progress.nodes:,} nodes, {progress.seconds:.1f} s" if progress else "starting"
            lines.append(f"Searching again with pruning {'off' if tree.pruning else 'on'}: {done} (C cancels)")
        elif self.compare_result is not None:
            other = self.compare_result.stats
            pair = [(tree.pruning, stats), (not tree.pruning, other)]
            on = next(s for flag, s in pair if flag)
            off = next(s for flag, s in pair if not flag)
            saving = off.nodes / on.nodes if on.nodes else 0
            lines.append(
                f"With alpha-beta: {on.nodes:,} nodes, {on.seconds:.3f} s  |  without: {off.nodes:,} nodes, "
                f"{off.seconds:.3f} s  ({saving:,.1f} x fewer nodes, same move "
                f"{'yes' if self.compare_result.value == result.value else 'no'})"
            )
        else:
            lines.append("C: run the same search with pruning switched, to compare nodes and time")
        if self.replay is not None:
            lines.append(f"Replay step {self.replay.steps:,}/{self.replay.total_steps:,}: {self.replay.message}")
        else:
            lines.append("Space: replay the search step by step (, . to step, S speed)")
        self.layout_buttons(surface)
        room = self.buttons[0].rect.top - 4
        for text in lines:
            for line in theme.wrap(text, 16, rect.right - tx - 12)[:2]:
                if y + 17 > room:
                    break
                theme.text(
                    surface,
                    line,
                    16,
                    (tx, y),
                    color=p.player2 if self.replay is not None and "Cutoff" in line else p.text,
                )
                y += 19
        for button in self.buttons:
            button.draw(surface, theme, size=16)

    # -- for the headless demo ----------------------------------------------------------
    def demo_select(self) -> None:
        """Show the biggest search of the match with a pruned branch selected."""
        candidates = [i for i, r in enumerate(self.play.searches) if r.result.tree is not None]
        if not candidates:
            return
        self.record_index = max(candidates, key=lambda i: len(self.play.searches[i].result.tree))
        self.view, self.replay = View(), None
        tree = self.tree
        for child in tree.root.children():
            if child.pruned_count:
                self.select(child.index, follow=False)
                return
        for node in tree.iter_nodes():
            if node.pruned_count and node.ply <= 3:
                parent = node.parent
                self.focus(parent.index if parent else node.index)
                self.select(node.index, follow=False)
                return


def _dashed(surface: pygame.Surface, color, start, end, dash: float = 5.0) -> None:
    x0, y0 = start
    x1, y1 = end
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    steps = int(length / dash)
    for i in range(0, steps, 2):
        a, b = i / steps, min(1.0, (i + 1) / steps)
        pygame.draw.line(
            surface, color, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), 1
        )
