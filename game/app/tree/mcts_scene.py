"""MCTS beside minimax: Monte Carlo tree search's tree on a position, replayed playout by
playout, and the minimax search of the same position beside it, the exact solver as referee.

The tree: the root at the top, each node's children under it (the path to the selected
node opened level by level), a node's size by its visits, the most-visited line ringed,
the selected node's visits, mean result and UCB in the detail panel.  Beside it, a column
table: MCTS's visits and mean, minimax's value and the exact verdict per column, then
which column each search chose, how many positions each looked at, and whether they
agree.  Both searches are worker jobs (MCTS, then minimax with the exact column scores);
the window never searches.  A search handed in (the move just played, T in a game) is
shown at once and not run again.  With MCTS-Solver on, proven nodes are framed by a square
and named (won, drawn, lost for the side that moved there), and the table says what the
solver proved of each column.

Controls:
- arrows: Up parent, Down most-visited child, Left/Right siblings (by column)
- Space: replay play/pause; , and .: one step back / forward; Home / End; X: leave the replay
- S: MCTS-Solver on / off (the search runs again); G: MCTS against the truth (chart)
- Esc: back
"""

from __future__ import annotations

import pygame

from ai.exact import ExactScore
from ai.levels import Level, mcts_level
from ai.mcts import MctsNode, MctsResult, PlayoutPolicy, Proved
from ai.mcts_table import BUDGETS
from ai.search import SearchResult
from game.app.job_slot import JobSlot
from game.app.navigation import ShowMctsChart
from game.app.scene import Scene
from game.app.tree.draw import draw_small_board
from game.app.tree.mcts_replay import MctsReplay, Phase
from game.app.tree.mcts_text import (
    comparison_lines,
    exact_word,
    node_lines,
    playout_moves_line,
    proved_word,
    step_line,
)
from game.app.worker_protocol import JobFailed, JobPurpose, JobResult, SearchJob, WorkerEvent
from game.board import Board
from game.i18n import _, number
from game.notation import format_move

Color = tuple[int, int, int]
REPLAY_STEPS_PER_SECOND = 6.0
"""Replay speed: phases a second (a playout has four)."""
SHOWN_PLIES = 4
"""Levels of the tree drawn below the root: the path to the selected node, opened."""


class MctsScene(Scene):
    """MCTS with ``playouts`` beside minimax ``depth`` plies deep on ``board``."""

    name = "mcts beside minimax"

    def __init__(self, board: Board, playouts: int, *, depth: int = 6, found: MctsResult | None = None):
        super().__init__()
        self.board = board.copy()
        self.playouts = playouts
        self.depth = depth
        self.given = found  # a search already run: shown, not run again
        self.solver = found is not None and found.tree.solver
        self.tactics = found is not None and found.tree.policy is PlayoutPolicy.TACTICAL
        self.found: MctsResult | None = None
        self.minimax: SearchResult | None = None
        self.exact: dict[int, ExactScore] | None = None
        self.selected = 0
        self.replay: MctsReplay | None = None
        self.playing = False
        self.clock = 0.0
        self.failed: str | None = None

    # -- the two searches ------------------------------------------------------------------
    def on_enter(self) -> None:
        self.job = JobSlot(self)
        if self.given is not None:
            self.take_answer(self.given)
        else:
            self.ask(self.mcts_level(), JobPurpose.MOVE)

    def mcts_level(self) -> Level:
        return mcts_level(self.playouts, solver=self.solver, tactics=self.tactics)

    def on_exit(self) -> None:
        self.job.cancel()

    def ask(self, level: Level, purpose: JobPurpose) -> None:
        board = self.board
        self.job.submit(
            SearchJob(board.grid.copy(), board.rules, board.to_move, level=level, purpose=purpose, record_tree=False)
        )

    def on_worker_event(self, event: WorkerEvent) -> None:
        if not self.job.owns(event):
            return
        if isinstance(event, JobResult):
            self.job.done()
            if event.answer.mcts is not None:
                self.take_answer(event.answer.mcts)
            else:
                self.minimax = event.answer.result
                self.exact = dict(event.answer.column_scores) if event.answer.column_scores else None
        elif isinstance(event, JobFailed):
            self.job.done()
            self.failed = event.message
        self.app.dirty = True

    def take_answer(self, found: MctsResult) -> None:
        """MCTS's search is here: show it, and ask for minimax beside it (once)."""
        self.found = found
        line = found.tree.best_line()
        self.selected = line[0].index if line else 0
        if self.minimax is None:
            self.ask(Level(self.depth), JobPurpose.HINT)  # minimax, and the exact column scores

    def update(self, dt: float) -> None:
        if self.job.lost():
            self.job.done()
            if self.found is None:
                self.ask(self.mcts_level(), JobPurpose.MOVE)
            elif self.minimax is None:
                self.ask(Level(self.depth), JobPurpose.HINT)
        if self.playing and self.replay is not None:
            self.clock += dt
            while self.clock >= 1 / REPLAY_STEPS_PER_SECOND:
                self.clock -= 1 / REPLAY_STEPS_PER_SECOND
                self.replay.move(1)
                if self.replay.step == self.replay.last_step:
                    self.playing = False
            self.app.dirty = True

    def is_animating(self) -> bool:
        return self.playing or self.job.id is not None

    # -- input ---------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        if key == pygame.K_ESCAPE:
            self.app.pop()
            return
        if key == pygame.K_g:
            self.app.push(ShowMctsChart(self.board, BUDGETS))
            return
        if key == pygame.K_s:  # MCTS-Solver on or off: the search runs again, minimax stays
            self.solver = not self.solver
            self.found, self.replay, self.playing, self.selected = None, None, False, 0
            self.ask(self.mcts_level(), JobPurpose.MOVE)
            self.app.dirty = True
            return
        if self.found is None:
            return
        tree = self.found.tree
        node = tree.node(self.selected)
        if key == pygame.K_UP and node.parent is not None:
            self.selected = node.parent.index
        elif key == pygame.K_DOWN:
            child = node.most_visited_child()
            if child is not None and node.ply < SHOWN_PLIES:
                self.selected = child.index
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and node.parent is not None:
            siblings = self.siblings(node)
            at = siblings.index(node.index) + (1 if key == pygame.K_RIGHT else -1)
            self.selected = siblings[at % len(siblings)]
        elif key == pygame.K_SPACE:
            if self.replay is None:
                self.replay = MctsReplay(tree)
            self.playing = not self.playing
        elif key in (pygame.K_PERIOD, pygame.K_COMMA):
            self.playing = False
            if self.replay is None:  # the replay starts at the first playout's selection
                self.replay = MctsReplay(tree)
            else:
                self.replay.move(1 if key == pygame.K_PERIOD else -1)
        elif key in (pygame.K_HOME, pygame.K_END) and self.replay is not None:
            self.replay.jump(start=key == pygame.K_HOME)
        elif key == pygame.K_x:
            self.replay, self.playing = None, False
        self.app.dirty = True

    def siblings(self, node: MctsNode) -> list[int]:
        parent = node.parent
        assert parent is not None
        return [child.index for child in sorted(parent.children(), key=lambda c: c.move or 0)]

    # -- what is shown -------------------------------------------------------------------------
    def shown_node(self) -> int:
        """The node the detail panel describes: the selected one, or during a replay, where
        the selected one does not exist yet, the node the playout reached."""
        replay = self.replay
        if replay is None or self.selected in replay.visits_at():
            return self.selected
        return replay.current().playout.path[-1] if replay.current().phase is not Phase.SELECTION else 0

    def visits_now(self) -> dict[int, int] | None:
        """Visits as of the replay's step (None: the whole search)."""
        return None if self.replay is None else self.replay.visits_at()

    def shown_levels(self) -> list[list[MctsNode]]:
        """The rows drawn: the root, then the children of each node on the path to the
        selected node (its own children too), by column."""
        assert self.found is not None
        tree = self.found.tree
        path = [tree.node(self.selected)]
        while path[-1].parent is not None:
            parent = path[-1].parent
            assert parent is not None
            path.append(parent)
        path.reverse()
        now = self.visits_now()
        rows = [[tree.root]]
        for node in path[:SHOWN_PLIES]:
            children = sorted(node.children(), key=lambda c: c.move or 0)
            if now is not None:
                children = [c for c in children if c.index in now]
            if not children:
                break
            rows.append(children)
        return rows

    def status_line(self) -> str | None:
        if self.found is None:
            if self.solver:
                return _("MCTS-Solver is playing up to {playouts:,} random games...").format(playouts=self.playouts)
            return _("MCTS is playing {playouts:,} random games...").format(playouts=self.playouts)
        return comparison_lines(self.found, self.minimax, self.exact, self.board.rules, self.board.to_move)[-1]

    # -- drawing -----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        surface.fill(p.background)
        w, h = surface.get_size()
        unit = max(14, min(22, h // 34))
        margin = max(10, w // 50)
        title = (
            _("MCTS-Solver beside minimax: {playouts:,} playouts against depth {depth}")
            if self.solver
            else _("MCTS beside minimax: {playouts:,} playouts against depth {depth}")
        ).format(playouts=self.playouts, depth=self.depth)
        shown, size = theme.fitted(title, unit * 1.3, w - 2 * margin, bold=True)
        theme.text(surface, shown, size, (margin, unit * 0.6), bold=True)
        keys = _(
            "Arrows: walk · Space: replay · , .: step · Home/End · X: leave replay · "
            "S: MCTS-Solver on/off · G: chart against the truth · Esc: back"
        )
        shown, size = theme.fitted(keys, unit * 0.8, w - 2 * margin)
        theme.text(surface, shown, size, (margin, h - unit * 1.4), color=p.muted)
        if self.failed is not None:
            theme.text(
                surface,
                _("The search failed: {message}").format(message=self.failed),
                unit,
                (margin, unit * 3),
                color=p.warning,
            )
            return
        if self.found is None:
            theme.text(surface, self.status_line() or "", unit, (margin, unit * 3), color=p.muted)
            return
        split = int(w * 0.55)
        tree_area = pygame.Rect(margin, int(unit * 2.6), split - 2 * margin, h - int(unit * 6.5))
        self.draw_tree(surface, tree_area, unit)
        self.draw_board(surface, pygame.Rect(tree_area.left, tree_area.top, int(tree_area.width * 0.24), 0), unit)
        panel = pygame.Rect(split, int(unit * 2.6), w - split - margin, h - int(unit * 4.5))
        self.draw_panel(surface, panel, unit)

    def draw_tree(self, surface: pygame.Surface, area: pygame.Rect, unit: int) -> None:
        theme = self.app.theme
        p = theme.palette
        assert self.found is not None
        tree = self.found.tree
        rows = self.shown_levels()
        now = self.visits_now()
        root_visits = max(1, tree.root.visits if now is None else max(now.get(0, 0), 1))
        line = {node.index for node in tree.best_line()}
        active: set[int] = set()
        if self.replay is not None:
            active = set(self.replay.current().playout.path)
        pitch = area.height / max(len(rows), 1)
        places: dict[int, tuple[float, float]] = {}
        biggest = min(pitch * 0.42, area.width / 16)
        for depth, row in enumerate(rows):
            y = area.top + pitch * (depth + 0.4)
            for index, node in enumerate(row):
                x = area.left + area.width * (index + 0.5) / len(row)
                places[node.index] = (x, y)
        for node_index, (x, y) in places.items():
            parent = tree.node(node_index).parent
            if parent is not None and parent.index in places:
                colour = p.accent if node_index in active else p.muted
                pygame.draw.line(surface, colour, places[parent.index], (x, y), 3 if node_index in active else 1)
        for node_index, (x, y) in places.items():
            node = tree.node(node_index)
            visits = node.visits if now is None else now.get(node_index, 0)
            radius = max(4.0, biggest * (visits / root_visits) ** 0.5)
            colour = p.max_node if node.is_max else p.min_node
            pygame.draw.circle(surface, colour, (round(x), round(y)), round(radius))
            if node_index in line:  # the most-visited line: a ring (and a word in the panel)
                pygame.draw.circle(surface, p.accent, (round(x), round(y)), round(radius + 4), 3)
            proved = node.proved_for(node.mover) if tree.solver else None
            if proved is not None:  # proven: a square frame, and the result under the move
                frame = pygame.Rect(0, 0, round(2 * radius + 10), round(2 * radius + 10))
                frame.center = (round(x), round(y))
                colour = p.good if proved is Proved.WIN else p.warning if proved is Proved.LOSS else p.muted
                pygame.draw.rect(surface, colour, frame, 2)
            if node_index == self.shown_node():
                pygame.draw.circle(surface, p.text, (round(x), round(y)), round(radius + 8), 2)
            label = node.label() if node.move is not None else ""
            if label:
                rect = theme.text(surface, label, unit * 0.8, (x, y + radius + 6), color=p.text, anchor="midtop")
                if proved is not None:
                    said = proved_word(proved)
                    theme.text(surface, said, unit * 0.6, (x, rect.bottom), color=p.text, anchor="midtop")
            if visits and radius > unit * 0.9:
                theme.text(surface, number(visits), unit * 0.7, (x, y), color=p.background, anchor="center")

    def draw_board(self, surface: pygame.Surface, area: pygame.Rect, unit: int) -> None:
        """The position searched, small, in the corner: rings for player 1, crosses for player 2."""
        theme = self.app.theme
        p = theme.palette
        cell = max(1, area.width // self.board.rules.cols)
        board = draw_small_board(surface, theme, self.board, area.topleft, cell, mark_last=False)
        said = _("player 1 (ring) to move") if self.board.to_move > 0 else _("player 2 (cross) to move")
        shown, size = theme.fitted(said, unit * 0.7, max(board.width, area.width))
        theme.text(surface, shown, size, (board.left, board.bottom + 3), color=p.muted)

    def panel_texts(self) -> tuple[list[tuple[str, Color]], list[tuple[str, Color]]]:
        """The panel's paragraphs above the column table (the node, the replay's step) and below it."""
        p = self.app.theme.palette
        assert self.found is not None
        tree = self.found.tree
        rules, to_move = self.board.rules, self.board.to_move
        node = tree.node(self.shown_node())
        replay = self.replay
        at = None
        if replay is not None:
            at = (replay.visits_at().get(node.index, 0), replay.mean_at(node.index), replay.ucb_at(node.index))
        above = [(line, p.text) for line in node_lines(node, rules, at)]
        if node.index in {n.index for n in tree.best_line()}:
            above.append((_("On the most-visited line (ringed): what MCTS expects."), p.text))
        if replay is not None:
            step = replay.current()
            expanded = step.playout.expanded
            expanded_move = tree.node(expanded).move if expanded is not None else None
            said = step_line(step, rules, tree.playouts, expanded_move)
            if step.phase is Phase.PLAYOUT:
                said += " · " + playout_moves_line(step.playout.moves, rules)
            above.append((said, p.accent if step.phase is not Phase.BACKUP else p.good))
        below = [(line, p.text) for line in comparison_lines(self.found, self.minimax, self.exact, rules, to_move)]
        return above, below

    def draw_panel(self, surface: pygame.Surface, area: pygame.Rect, unit: int) -> None:
        """The chosen node, the replay's step, the column table and the comparison, in a text
        size small enough for all of it to fit the panel (bigger UI scales shrink it first)."""
        theme = self.app.theme
        above, below = self.panel_texts()
        rows = len(Board(self.board.rules, self.board.grid, to_move=self.board.to_move).legal_moves()) + 1

        def height(size: float) -> float:
            lines = sum(len(theme.wrap(text, size, area.width)) for text, _colour in above + below)
            return lines * theme.pitch(size, size * 1.25) + rows * theme.pitch(size * 0.85, size * 1.2) + size * 2

        size = float(unit)
        while size > unit * 0.45 and height(size) > area.height:
            size -= 0.5
        y = self.draw_paragraphs(surface, area, float(area.top), above, size) + size * 0.5
        y = self.draw_columns(surface, area, y, size)
        self.draw_paragraphs(surface, area, y, below, size)

    def draw_paragraphs(
        self, surface: pygame.Surface, area: pygame.Rect, y: float, paragraphs: list[tuple[str, Color]], size: float
    ) -> float:
        """Draw ``paragraphs`` wrapped to the panel's width from ``y``; return the y below them."""
        theme = self.app.theme
        for text, colour in paragraphs:
            for part in theme.wrap(text, size, area.width):
                if y + theme.font(size).get_height() > area.bottom:
                    return y  # a tiny window: the rest gives way
                theme.text(surface, part, size, (area.left, y), color=colour)
                y += theme.pitch(size, size * 1.25)
        return y

    def draw_columns(self, surface: pygame.Surface, area: pygame.Rect, y: float, unit: float) -> float:
        """A row per column: MCTS's visits and mean (or, with the solver, what it proved),
        minimax's value, the exact verdict; the rows the two searches chose shaded and named
        where there is room (the comparison below names them too)."""
        theme = self.app.theme
        p = theme.palette
        assert self.found is not None
        rules, to_move = self.board.rules, self.board.to_move
        solver = self.found.tree.solver
        heads = [_("column"), _("MCTS visits"), _("mean, proof") if solver else _("mean"), _("minimax"), _("exact")]
        shares = (0.0, 0.13, 0.36, 0.55, 0.72)
        xs = [area.left + area.width * share for share in shares]
        widths = [area.width * (b - a) - 6 for a, b in zip(shares, (*shares[1:], 1.0))]
        size = unit * 0.85
        pitch = theme.pitch(size, unit * 1.2)
        for x, width, head in zip(xs, widths, heads):
            shown, fitted = theme.fitted(head, size, width, bold=True)
            theme.text(surface, shown, fitted, (x, y), color=p.muted, bold=True)
        y += pitch * 1.1
        children = {child.move: child for child in self.found.root_children}
        values = self.minimax.move_values if self.minimax is not None else {}
        replay = self.replay
        for move in Board(rules, self.board.grid, to_move=to_move).legal_moves():
            child = children.get(move)
            chosen = []
            if move == self.found.move:
                chosen.append("MCTS")
            if self.minimax is not None and move == self.minimax.move:
                chosen.append(_("minimax"))
            visits = 0 if child is None else child.visits
            mean = None if child is None else child.mean
            if replay is not None and child is not None:
                visits, mean = replay.visits_at().get(child.index, 0), replay.mean_at(child.index)
            proved = child.proved_for(to_move) if child is not None and solver else None
            shown_mean = "-" if mean is None else number(mean, ".2f")
            cells = [
                format_move(move, rules),
                number(visits),
                shown_mean if proved is None else proved_word(proved),
                str(values[move].value) if move in values else "-",
                exact_word(self.exact.get(move) if self.exact else None, to_move),
            ]
            if chosen:
                shade = pygame.Rect(area.left - 4, int(y - 2), area.width + 4, int(pitch))
                pygame.draw.rect(surface, p.panel, shade, border_radius=4)
            right = area.left
            for x, width, cell in zip(xs, widths, cells):
                shown, fitted = theme.fitted(cell, size, width)
                right = theme.text(surface, shown, fitted, (x, y)).right
            said = ", ".join(chosen)
            if chosen and theme.font(size * 0.85).size(said)[0] < area.right - right - 8:
                theme.text(surface, said, size * 0.85, (area.right, y), color=p.accent, anchor="topright")
            y += pitch
        return y + unit * 0.5
