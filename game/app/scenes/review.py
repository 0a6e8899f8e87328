"""The review of a game: the move list with classes, accuracy, turning points and the
evaluation graph; the board shows the position after the chosen ply, the move played
(dot) and the best move (ring), with the column scores the player faced.

The review is a job for the AI worker (``game.app.worker.ReviewJob``): each move's
review streams back to a progress bar, and the board and the move list can be stepped
through meanwhile.  On the standard board a mistake or a blunder says why under the
board (its refutation, ``MoveReview.why``: on two lines where one is too short, the last
line, the turning points, giving way) and the board marks the threats standing after it
(``game.app.explain_view``).  If another scene's job takes the worker, the review goes on where
it stopped once this scene is on top again.

Controls: Left/Right (or Up/Down) step a ply, Home/End the start/end, PageUp/PageDown
ten plies, click the graph or a row of the list; A the analysis board at this position;
L learn from the mistakes (each one again, judged by the exact solver); T the tree of a
search from the position where the shown move was played (at the player's depth: 6 for a
person); Ctrl+C copy the position; Esc back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pygame

from ai.explain.board import grid_threats
from ai.levels import Level
from ai.review import PERSON_DEPTH, GameReview, MoveClass, MoveReview, graph_height
from ai.search import SearchResult
from game.app.board_view import BoardLayout, BoardView, ColumnNote
from game.app.clipboard import board_game, share_key
from game.app.explain_view import draw_threats
from game.app.job_slot import JobSlot
from game.app.navigation import OpenAnalysis, OpenTree, RetryMistakes
from game.app.scene import Scene
from game.app.scenes import explain_text
from game.app.scenes.board_panel import draw_progress
from game.app.scenes.play_view import notes_from_scores
from game.app.scenes.review_text import graph_legend, header_texts, list_line, under_board_lines, why_line
from game.app.search_records import SearchRecord
from game.app.theme import Theme, draw_mark
from game.app.widgets import Button, click_buttons, display_size, toast_height, toast_strip_bottom
from game.app.worker_protocol import (
    JobFailed,
    JobPurpose,
    JobResult,
    ReviewJob,
    ReviewMove,
    ReviewResult,
    SearchJob,
    TreeReady,
    WorkerEvent,
)
from game.board import Board
from game.i18n import N_, _
from game.notation import format_move
from game.rules import MAX, MIN, Rules

DETAIL_ROWS = 4
"""Lines under the board: the move, its reason (or the best move), ..., the turning points."""
TREE_DEPTH_CAP = 8
"""The deepest search T runs for the tree of a reviewed position (a person's is 6)."""


@dataclass
class TreeSource:
    """What the tree overlay reads of the scene it opens over (as of a play scene): the
    searches to show, the levels they played as, the rules and the sides' names."""

    rules: Rules
    levels: dict[int, Level]
    searches: list[SearchRecord]
    names: dict[int, str]

    def side_name(self, side: int) -> str:
        return self.names.get(side) or _("Player {value}").format(value=1 if side == MAX else 2)


CLASS_MARKS = {MoveClass.MISTAKE: ("caution", "triangle"), MoveClass.BLUNDER: ("warning", "square")}
"""A class that changed the outcome: its palette colour and its mark on the graph (the
list says its name), so colour is never the only clue."""


@dataclass(frozen=True)
class ReviewLayout:
    """Where the parts of the review screen go in a window of a given size."""

    header: pygame.Rect
    board: pygame.Rect
    detail: pygame.Rect
    moves: pygame.Rect
    graph: pygame.Rect
    buttons: tuple[pygame.Rect, pygame.Rect, pygame.Rect]  # retry, analysis, back
    text: int  # font size of the body text
    heads: tuple[int, int, int]  # pixels from each header line to the next
    line: int  # from a detail line to the next
    row: int  # a row of the move list
    list_top: int  # the move list's first row, under its title and hint
    detail_text: float  # the size the detail's lines are drawn at (less than ``text`` where too wide)
    head_texts: tuple[float, float, float]  # the sizes the header's lines are drawn at


def review_layout(
    size: tuple[int, int],
    theme: Theme | None = None,
    detail: float | None = None,
    header: tuple[float, float, float] | None = None,
) -> ReviewLayout:
    """A pure function of the window size (and the ``theme``'s UI scale: its lines' heights;
    ``detail`` and ``header``: the sizes their lines are drawn at, by default the text's)."""
    w, h = size
    m = 12
    text = max(15, min(20, h // 34))

    def pitch(size: float, least: int, bold: bool = False) -> int:
        return least if theme is None else int(theme.pitch(size, least, bold))

    header = header or (text + 2, text, text - 2)
    heads = (pitch(header[0], text + 6, True), pitch(header[1], text + 4), pitch(header[2], text + 2))
    top = pygame.Rect(m, m, w - 2 * m, sum(heads))  # title, accuracy, how accuracy counts
    graph_h = max(110, min(200, int(h * 0.24)))
    strip = 0 if theme is None else toast_height(theme) - 4  # a toast's, under the graph
    graph = pygame.Rect(m, h - m - strip - graph_h, w - 2 * m, graph_h)
    side = max(190, min(300, int(w * 0.27)))
    moves = pygame.Rect(w - m - side, top.bottom + 6, side, graph.top - top.bottom - 14)
    detail = text if detail is None else detail
    line = text + 3 if theme is None else int(theme.pitch(detail, text + 3))
    detail_h = line * DETAIL_ROWS + 6
    detail_rect = pygame.Rect(m, graph.top - 8 - detail_h, moves.left - 2 * m, detail_h)
    board = pygame.Rect(m, top.bottom + 4, moves.left - 2 * m, detail_rect.top - top.bottom - 6)
    bw = max(90, min(150, side // 2 - 4))
    bh = text + 12 if theme is None else max(text + 12, theme.font(text).get_linesize() + 10)
    bh = min(bh, heads[0] + heads[1] - 4)  # beside the first two lines, above the third
    back = pygame.Rect(top.right - bw, top.top, bw, bh)
    analysis = pygame.Rect(back.left - bw - 8, top.top, bw, bh)
    retry = pygame.Rect(analysis.left - bw - 8, top.top, bw, bh)
    list_top = moves.top + 6 + pitch(text + 2, text + 4, True) + pitch(text - 2, text + 4)
    return ReviewLayout(
        top,
        board,
        detail_rect,
        moves,
        graph,
        (retry, analysis, back),
        text,
        heads,
        line,
        pitch(text, text + 4),
        list_top,
        detail,
        header,
    )


class ReviewScene(Scene):
    name = "review"

    def __init__(
        self,
        rules: Rules,
        moves: list[int],
        *,
        start: np.ndarray | None = None,
        start_to_move: int = MAX,
        names: dict[int, str] | None = None,
        depths: dict[int, int] | None = None,
        game_id: int | None = None,
        ply: int | None = None,
    ):
        super().__init__()
        self.rules = rules
        self.moves = list(moves)
        self.start = rules.empty_grid() if start is None else np.array(start, dtype=np.int8)
        self.start_to_move = start_to_move
        self.names = names or {}
        self.depths = depths or {}
        self.game_id = game_id
        self.ply = len(self.moves) if ply is None else max(0, min(ply, len(self.moves)))
        self.job = JobSlot(self)  # the review
        self.reviewed: list[MoveReview] = []  # streamed so far, in order
        self.failed: str | None = None  # why the review stopped for good
        self.review: GameReview | None = None
        self.saved = False
        self.view: BoardView | None = None
        self.buttons = [
            Button(N_("Retry mistakes"), self.open_retry, "L"),
            Button(N_("Analysis"), self.open_analysis, "A"),
            Button(N_("Back"), self.back, "Esc"),
        ]
        self._boards: dict[int, Board] = {}
        self.tree_job = JobSlot(self)  # the search T asked for, then its tree
        self.tree_result: SearchResult | None = None
        self.seen_done = -1  # the progress last drawn (-1: no review running)
        self.progress_moved = False
        self.tree_ply = 0

    # -- life cycle -------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.ask_review()

    def ask_review(self) -> None:
        """Ask the worker for the review, from the first move not reviewed yet."""
        if self.review is not None or self.failed is not None or not self.moves:
            return
        self.job.submit(
            ReviewJob(
                self.rules,
                tuple(self.moves),
                self.start,
                self.start_to_move,
                dict(self.depths),
                done=tuple(self.reviewed),
            )
        )

    def on_exit(self) -> None:
        self.job.cancel()
        self.tree_job.cancel()

    @property
    def reviewing(self) -> bool:
        """The review is asked for and not yet complete."""
        return self.job.id is not None

    def is_animating(self) -> bool:
        """Only while the progress bar moves."""
        return self.progress_moved

    def update(self, dt: float) -> None:
        done = len(self.reviewed) if self.reviewing else -1
        self.progress_moved = done != self.seen_done
        self.seen_done = done
        if self.tree_job.lost():
            self.tree_job.done()
        # Another job took the worker (the analysis board, say): go on where it stopped,
        # once T's search is not waiting for the worker (the review would cancel it).
        if self.job.lost() and self.tree_job.id is None:
            self.ask_review()

    def on_worker_event(self, event: WorkerEvent) -> None:
        if self.job.owns(event):
            self.take_review_event(event)
        elif self.tree_job.owns(event):
            self.take_tree_event(event)

    def take_review_event(self, event: WorkerEvent) -> None:
        if isinstance(event, ReviewMove):
            if event.review.ply == len(self.reviewed) + 1:
                self.reviewed.append(event.review)
        elif isinstance(event, ReviewResult):
            self.job.done()
            self.review = event.review
            self.store_summary()
        elif isinstance(event, JobFailed):
            self.job.done()
            self.failed = event.message
            self.app.show_toast(_("The review stopped: {message}").format(message=event.message), 5.0)

    def take_tree_event(self, event: WorkerEvent) -> None:
        if isinstance(event, JobResult) and event.answer.result is not None:
            self.tree_result = event.answer.result
            if not event.tree_follows:
                self.tree_job.done()
        elif isinstance(event, TreeReady) and self.tree_result is not None:
            self.tree_job.done()
            self.show_tree(replace(self.tree_result, tree=event.tree))
        elif isinstance(event, JobFailed):
            self.tree_job.done()
            self.app.show_toast(_("The search failed: {message}").format(message=event.message), 5.0)

    def store_summary(self) -> None:
        if self.game_id is None or self.review is None or self.saved:
            return
        self.saved = self.app.archive.set_review(self.game_id, self.review.summary())

    # -- positions --------------------------------------------------------------------
    def board_at(self, ply: int) -> Board:
        board = self._boards.get(ply)
        if board is None:
            board = Board(self.rules, self.start, self.start_to_move)
            for move in self.moves[:ply]:
                board.push(move)
            if len(self._boards) > 4:
                self._boards.clear()
            self._boards[ply] = board
        return board

    # -- actions --------------------------------------------------------------------
    def set_ply(self, ply: int) -> None:
        self.ply = max(0, min(len(self.moves), ply))

    def back(self) -> None:
        self.app.pop()

    def open_analysis(self) -> None:
        board = Board(self.rules, self.start, self.start_to_move, moves=self.moves[: self.ply])
        self.app.push(OpenAnalysis(board))

    def open_retry(self) -> None:
        """Learn from the mistakes: each of them again (``game.app.scenes.retry``)."""
        if self.review is None or not self.review.exact:
            why = _("once the review is done") if self.review is None else _("on the standard 6x7 board (exact review)")
            self.app.show_toast(_("Retrying the mistakes works {why}").format(why=why))
            return
        self.app.push(RetryMistakes(self.review, self.depths, self.names))

    def open_tree(self) -> None:
        """Search the position where the shown move was chosen, then open its tree."""
        if self.tree_job.id is not None:
            return
        ply = max(0, self.ply - 1) if self.moves else 0
        board = self.board_at(ply)
        if board.is_game_over():
            self.app.show_toast(_("The game is over here: no move to search"))
            return
        side = board.to_move
        depth = min(self.depths.get(side, PERSON_DEPTH), TREE_DEPTH_CAP, int((board.grid == 0).sum()))
        self.tree_ply = ply
        self.tree_result = None
        job = SearchJob(board.grid.copy(), self.rules, side, level=Level(depth), purpose=JobPurpose.COMPARE)
        self.tree_job.submit(job)
        self.app.show_toast(_("Searching move {ply} to depth {depth} for its tree...").format(ply=ply + 1, depth=depth))

    def show_tree(self, result: SearchResult) -> None:
        side = self.board_at(self.tree_ply).to_move
        level = Level(result.stats.depth)
        record = SearchRecord(self.tree_ply, side, JobPurpose.MOVE, result)
        names = {
            s: _("Player {value}").format(value=1 if s == MAX else 2) + (f" ({n})" if n else "")
            for s, n in ((MAX, self.names.get(MAX)), (MIN, self.names.get(MIN)))
        }
        source = TreeSource(self.rules, {MAX: level, MIN: level}, [record], names)
        self.app.hide_toast()
        self.app.push(OpenTree(source, 0))

    def status_line(self) -> str | None:
        """For spoken output: the move shown and, for a mistake the review explained, the
        reason's spoken form."""
        lines = under_board_lines(self.review, self.ply, len(self.moves), self.names)
        m = (
            self.review.moves[self.ply - 1]
            if self.review is not None and 0 < self.ply <= len(self.review.moves)
            else None
        )
        if m is None or m.why is None:
            return lines[0] if lines else None
        return f"{lines[0]} {explain_text.why_spoken(m.why, explain_text.player_names(self.names))}"

    def share(self, event: pygame.event.Event) -> None:
        """Ctrl+C, Ctrl+L, Ctrl+Shift+C: copy the shown position, its link, the game; P: play on."""
        shown = self.board_at(self.ply)
        share_key(self.app, event, shown, lambda: board_game(self.board_at(len(self.moves)), self.names, self.depths))

    def handle_event(self, event: pygame.event.Event) -> None:
        lay = self.layout(display_size())
        if event.type == pygame.KEYDOWN:
            key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
            steps = {
                pygame.K_LEFT: -1,
                pygame.K_UP: -1,
                pygame.K_RIGHT: 1,
                pygame.K_DOWN: 1,
                pygame.K_PAGEUP: -10,
                pygame.K_PAGEDOWN: 10,
            }
            letters = {pygame.K_a: self.open_analysis, pygame.K_t: self.open_tree, pygame.K_l: self.open_retry}
            if key == pygame.K_ESCAPE:
                self.back()
            elif (ctrl and key in (pygame.K_c, pygame.K_l)) or key == pygame.K_p:
                self.share(event)  # copy the moves, the link, the game; P play on
            elif key in steps:
                self.set_ply(self.ply + steps[key])
            elif key == pygame.K_HOME:
                self.set_ply(0)
            elif key == pygame.K_END:
                self.set_ply(len(self.moves))
            elif key in letters:
                letters[key]()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, lay.buttons, event):
                return
            ply = self.graph_ply_at(lay.graph, event.pos)
            if ply is not None:
                self.set_ply(ply)
                return
            row = self.list_ply_at(lay, event.pos)
            if row is not None:
                self.set_ply(row)
        elif event.type == pygame.MOUSEWHEEL:
            self.set_ply(self.ply - event.y)

    # -- the graph -------------------------------------------------------------------
    @staticmethod
    def plot_rect(graph: pygame.Rect) -> pygame.Rect:
        """The graph's drawing area inside its panel (labels on the left)."""
        return pygame.Rect(graph.left + 96, graph.top + 26, graph.width - 96 - 14, graph.height - 34)

    def ply_x(self, plot: pygame.Rect, ply: int) -> float:
        return plot.left + plot.width * ply / max(1, len(self.moves))

    def graph_ply_at(self, graph: pygame.Rect, pos: tuple[int, int]) -> int | None:
        """The ply of the graph point nearest to a click in the graph panel."""
        if not graph.collidepoint(pos):
            return None
        plot = self.plot_rect(graph)
        share = (pos[0] - plot.left) / max(1, plot.width)
        return max(0, min(len(self.moves), round(share * len(self.moves))))

    # -- the move list ---------------------------------------------------------------
    def list_rows(self, lay: ReviewLayout) -> tuple[int, int, int]:
        """(first ply shown, rows that fit, row height) of the move list."""
        row_h = lay.row
        top = lay.list_top
        fit = max(1, (lay.moves.bottom - 6 - top) // row_h)
        first = max(1, min(self.ply - fit // 2, len(self.moves) - fit + 1))
        return first, fit, row_h

    def list_ply_at(self, lay: ReviewLayout, pos: tuple[int, int]) -> int | None:
        if not lay.moves.collidepoint(pos):
            return None
        first, fit, row_h = self.list_rows(lay)
        index = (pos[1] - lay.list_top) // row_h
        if 0 <= index < fit and first + index <= len(self.moves):
            return first + index
        return None

    # -- drawing ---------------------------------------------------------------------
    def toast_bottom(self, size: tuple[int, int]) -> int | None:
        """Toasts go in the strip kept free under the graph, over none of the review."""
        return toast_strip_bottom(size)

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        lay = self.layout(surface.get_size())
        y = lay.header.top
        title_w = lay.buttons[0].left - lay.header.left - 10
        for index, line in enumerate(header_texts(self.review, self.names, len(self.reviewed), len(self.moves))):
            size = lay.head_texts[index]  # the UI scale's size, as far as the line fits
            color = theme.palette.muted if index == 2 else theme.palette.text
            bold = index == 0
            width = lay.header.width if index == 2 else title_w  # the third line is below the buttons
            theme.text(
                surface, theme.fit(line, size, width, bold=bold), size, (lay.header.left, y), bold=bold, color=color
            )
            y += lay.heads[index]
        for button, rect in zip(self.buttons, lay.buttons):
            button.draw(surface, theme, rect=rect)
        self.draw_board(surface, lay)
        self.draw_detail(surface, lay)
        self.draw_list(surface, lay)
        self.draw_graph(surface, lay)

    def draw_board(self, surface: pygame.Surface, lay: ReviewLayout) -> None:
        assert self.view is not None
        board = self.board_at(self.ply)
        layout = BoardLayout(self.rules, lay.board)
        explained = bool(why_line(self.review, self.ply, self.names))
        hint = None
        notes: list[ColumnNote | None] = []
        m = (
            self.review.moves[self.ply - 1]
            if self.review is not None and 0 < self.ply <= len(self.review.moves)
            else None
        )
        if m is not None:
            before = self.board_at(self.ply - 1)
            best = m.best_moves[0]
            if best != m.move:
                hint = before.cell_of(best)
            notes = self.notes_for(before, m.scores) if self.review is not None and self.review.exact else []
        self.view.draw(surface, layout, board.grid, last=board.last_cell(), hint=hint, notes=notes)
        if explained:  # a mistake or a blunder: the threats standing after it
            draw_threats(surface, self.app.theme, layout, board.grid, grid_threats(board.grid))

    def notes_for(self, before: Board, scores: dict[int, int]) -> list[ColumnNote | None]:
        """Each column's exact score as the player saw it (gravity boards)."""
        return notes_from_scores(scores, before, self.app.theme.palette)

    def layout(self, size: tuple[int, int]) -> ReviewLayout:
        """``review_layout`` for the detail's lines as they are now: where the UI scale makes
        them too wide they are drawn smaller, and their panel gives the rest to the board."""
        theme = self.app.theme
        lay = review_layout(size, theme)
        lines = under_board_lines(self.review, self.ply, len(self.moves), self.names)
        why = why_line(self.review, self.ply, self.names)  # wraps (below), never shrinks the others
        shrunk = [theme.shrink(line, lay.text, lay.detail.width) for line in lines if line != why]
        detail = min(shrunk, default=lay.text)
        title_w = lay.buttons[0].left - lay.header.left - 10
        header: list[float] = [lay.text + 2, lay.text, lay.text - 2]
        for index, line in enumerate(header_texts(self.review, self.names, len(self.reviewed), len(self.moves))):
            width = lay.header.width if index == 2 else title_w  # the third line is below the buttons
            header[index] = theme.shrink(line, header[index], width, bold=index == 0)
        return review_layout(size, theme, detail, (header[0], header[1], header[2]))

    def draw_detail(self, surface: pygame.Surface, lay: ReviewLayout) -> None:
        theme = self.app.theme
        y = lay.detail.top
        size = lay.detail_text  # one size for all of them
        for text, color in self.detail_rows(size, lay.detail.width):
            theme.text(surface, theme.fit(text, size, lay.detail.width), size, (lay.detail.left, y), color=color)
            y += lay.line

    def detail_rows(self, size: float, width: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The rows under the board and their colours: the lines of ``under_board_lines``, a
        mistake's reason wrapped onto two rows where it needs them (the last line gives way)."""
        p = self.app.theme.palette
        lines = under_board_lines(self.review, self.ply, len(self.moves), self.names)
        why = why_line(self.review, self.ply, self.names)
        rows: list[tuple[str, tuple[int, int, int]]] = []
        for index, line in enumerate(lines):
            if why and line == why:
                parts = self.app.theme.wrap(line, size, width)
                rows += [(" ".join(parts[1:]) if n else parts[0], p.text) for n in range(min(2, len(parts)))]
            else:
                rows.append((line, p.text if index == 0 else p.muted))
        return rows[:DETAIL_ROWS]

    def draw_list(self, surface: pygame.Surface, lay: ReviewLayout) -> None:
        theme = self.app.theme
        p = theme.palette
        pygame.draw.rect(surface, p.panel, lay.moves, border_radius=10)
        x = lay.moves.left + 10
        theme.text(surface, _("Moves"), lay.text + 2, (x, lay.moves.top + 6), bold=True)
        hint, size = theme.fitted(_("Left/Right step · P play on from here"), lay.text - 2, lay.moves.width - 20)
        hint_y = lay.moves.top + 6 + theme.pitch(lay.text + 2, lay.text + 4, bold=True)
        theme.text(surface, hint, size, (x, hint_y), color=p.muted)
        first, fit, row_h = self.list_rows(lay)
        top = lay.list_top
        room = lay.moves.width - row_h - 24
        rows = range(first, min(first + fit, len(self.moves) + 1))
        size = min((theme.shrink(self.list_text(ply), lay.text, room) for ply in rows), default=lay.text)  # one size
        for index in range(fit):
            ply = first + index
            if ply > len(self.moves):
                break
            y = top + index * row_h
            if ply == self.ply:
                pygame.draw.rect(
                    surface, p.hole, (lay.moves.left + 4, y - 1, lay.moves.width - 8, row_h), border_radius=4
                )
            if self.review is not None and ply <= len(self.review.moves):
                move_class = self.review.moves[ply - 1].move_class
                color = getattr(p, CLASS_MARKS[move_class][0]) if move_class in CLASS_MARKS else p.text
            else:
                color = p.muted
            self.app.theme.draw_disc(surface, (x + row_h // 2, y + row_h // 2 - 1), row_h * 0.36, self.side_of(ply))
            theme.text(surface, theme.fit(self.list_text(ply), size, room), size, (x + row_h + 4, y), color=color)

    def list_text(self, ply: int) -> str:
        """The move list's row for ``ply``: the move and its class once reviewed."""
        if self.review is not None and ply <= len(self.review.moves):
            return list_line(self.review, self.review.moves[ply - 1])
        side = self.board_at(0).to_move * (1 if ply % 2 else -1)
        player = _("P{number}").format(number=1 if side == MAX else 2)
        return f"{ply:>2}. {player} {self.move_text(ply - 1)}"

    def side_of(self, ply: int) -> int:
        return self.start_to_move if ply % 2 == 1 else -self.start_to_move

    def move_text(self, index: int) -> str:
        return format_move(self.moves[index], self.rules)

    def draw_graph(self, surface: pygame.Surface, lay: ReviewLayout) -> None:
        theme = self.app.theme
        p = theme.palette
        graph = lay.graph
        pygame.draw.rect(surface, p.panel, graph, border_radius=10)
        plot = self.plot_rect(graph)
        mid = plot.centery
        half = plot.height / 2
        small = max(13, lay.text - 3)
        # Bands: player 1 wins above, the draw line, player 2 wins below.
        top_band = pygame.Rect(plot.left, plot.top, plot.width, int(half * 0.5))
        low_band = pygame.Rect(plot.left, plot.bottom - int(half * 0.5), plot.width, int(half * 0.5))
        pygame.draw.rect(surface, _tint(p.player1, p.panel), top_band)
        pygame.draw.rect(surface, _tint(p.player2, p.panel), low_band)
        pygame.draw.line(surface, p.muted, (plot.left, mid), (plot.right, mid), 1)
        marks = ((_("P1 wins"), plot.top + half * 0.25), (_("draw"), mid), (_("P2 wins"), plot.bottom - half * 0.25))
        for text, yy in marks:
            theme.text(surface, text, small, (graph.left + 10, yy), color=p.muted, anchor="midleft")
        review = self.review
        x_now = self.ply_x(plot, self.ply)
        pygame.draw.line(surface, p.accent, (x_now, plot.top), (x_now, plot.bottom), 2)
        if review is not None and review.graph:
            points = [
                (self.ply_x(plot, i), mid - graph_height(v, exact=review.exact) * half)
                for i, v in enumerate(review.graph)
            ]
            if len(points) > 1:
                pygame.draw.lines(surface, p.text, False, points, 2)
            for m in review.moves:
                if m.move_class.keeps_outcome:
                    continue
                field, shape = CLASS_MARKS[m.move_class]
                draw_mark(surface, shape, getattr(p, field), points[m.ply], 6, p.text)
            if self.ply < len(points):
                pygame.draw.circle(surface, p.accent, points[self.ply], 5)
            legend = graph_legend(review)
            legend, fitted = theme.fitted(legend, small, plot.width - 8)
            theme.text(surface, legend, fitted, (plot.right, graph.top + 5), color=p.muted, anchor="topright")
        if self.reviewing:
            draw_progress(surface, theme, plot, len(self.reviewed), len(self.moves), small)


def _tint(color: tuple[int, int, int], base: tuple[int, int, int], share: float = 0.25) -> tuple[int, int, int]:
    return tuple(int(b + (c - b) * share) for c, b in zip(color, base))  # type: ignore[return-value]
