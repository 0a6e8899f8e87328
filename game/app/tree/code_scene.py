"""The code beside the replay (K in the tree overlay): ``maximize``/``minimize`` line by line.

The textbook search (``ai.textbook``) is run on the overlay's position by the AI worker,
recording its tree; ``codewalk.code_steps`` turns that tree into the lines Python executes, and this scene
steps through them: the source of ``ai/textbook.py`` (read at run time) on the left with
the executing line lit, the call stack on the right (every open call, root first, with
its window and value so far) and one sentence for what the line does.

Controls:
- Space: play/pause; Right or . : one line forward; Left or , : one line back
- Home / End: the first / last line; S: speed
- Esc or K: back to the tree
"""

from __future__ import annotations

import pygame

from ai.tree import SearchTree, fmt_tree_value
from game.app.scene import Scene
from game.app.tree.codewalk import CodeSource, CodeStep, code_steps, read_source, step_sentence
from game.app.tree.draw import draw_small_board
from game.app.tree.tree_fetch import TreeAsk, TreeFetch
from game.app.widgets import dim
from game.app.worker_protocol import WorkerEvent
from game.board import Board
from game.i18n import _
from game.notation import format_move

CODE_DEPTH = 4
"""The deepest textbook search stepped line by line."""
CODE_NODES = 5_000
"""The most leaves (branching ** depth) a stepped textbook search may have."""
SPEEDS = (2, 5, 15, 50, 200)
"""Lines per second while playing."""


def textbook_ask(tree: SearchTree) -> TreeAsk:
    """The textbook search of ``tree``'s root position (to ``CODE_DEPTH`` at most, and
    fewer plies where the lines would be too many to step)."""
    board = Board(tree.rules, tree.grid, tree.to_move)
    branching = max(2, len(board.legal_moves()))
    depth = min(tree.depth, CODE_DEPTH)
    while depth > 1 and branching**depth > CODE_NODES:
        depth -= 1
    return TreeAsk.of(board, depth, pruning=tree.pruning, textbook=True)


def textbook_title(shown: SearchTree, depth: int, nodes: int) -> str:
    """What ran, in words: the textbook's depth, pruning, order, and the nodes it visited."""
    said = (
        _("ai/textbook.py to depth {depth}, alpha-beta on, moves left to right")
        if shown.pruning
        else _("ai/textbook.py to depth {depth}, alpha-beta off, moves left to right")
    ).format(depth=depth)
    if depth < shown.depth:
        said += _(" (depth {depth} would be too many lines)").format(depth=shown.depth)
    return _("{said}: {nodes:,} nodes").format(said=said, nodes=nodes)


class CodeWalkScene(Scene):
    is_overlay = True
    name = "code"

    def __init__(self, tree: SearchTree):
        super().__init__()
        self.shown = tree  # the overlay's tree, whose position the textbook searches
        self.fetch = TreeFetch(self, [textbook_ask(tree)])
        self.tree: SearchTree = tree  # the textbook's tree once it came
        self.source: CodeSource = read_source()
        self.steps: list[CodeStep] = []
        self.at = 0
        self.playing = False
        self.speed_index = 1
        self.clock = 0.0
        self._boards: dict[int, Board] = {}  # the position at each node stepped through (for the panel)

    @property
    def title(self) -> str:
        """What ran, worded as drawn (in the language in use)."""
        if not self.steps:
            return _("recording the textbook search...")
        return textbook_title(self.shown, self.tree.depth, self.fetch.nodes[0])

    @property
    def ready(self) -> bool:
        """The textbook's tree came and its lines are known."""
        return bool(self.steps)

    def on_enter(self) -> None:
        self.fetch.update()

    def on_exit(self) -> None:
        self.fetch.cancel()

    def on_worker_event(self, event: WorkerEvent) -> None:
        if self.fetch.take(event) and self.fetch.ready and not self.steps:
            self.tree = self.fetch.trees[0]
            self.steps = code_steps(self.tree, self.source)
            self.seek(0)

    # -- moving -----------------------------------------------------------------------
    def seek(self, at: int) -> None:
        if not self.steps:
            return
        self.at = max(0, min(len(self.steps) - 1, at))
        if self.at == len(self.steps) - 1:
            self.playing = False
        index = self.step.node
        if index not in self._boards:  # worked out here, so that drawing only reads
            if len(self._boards) > 2000:
                self._boards.clear()
            self._boards[index] = self.tree.node(index).board()

    def is_animating(self) -> bool:
        return self.playing or (not self.ready and self.fetch.failed is None)

    def update(self, dt: float) -> None:
        self.fetch.update()
        if not self.playing:
            return
        self.clock += dt * SPEEDS[self.speed_index]
        lines = int(self.clock)
        self.clock -= lines
        if lines:
            self.seek(self.at + lines)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        if key in (pygame.K_ESCAPE, pygame.K_k):
            self.app.pop()
        elif not self.ready:
            return
        elif key == pygame.K_SPACE:
            self.playing = not self.playing and self.at < len(self.steps) - 1
            self.clock = 0.0
        elif key in (pygame.K_RIGHT, pygame.K_PERIOD):
            self.seek(self.at + 1)
        elif key in (pygame.K_LEFT, pygame.K_COMMA):
            self.seek(self.at - 1)
        elif key == pygame.K_HOME:
            self.seek(0)
        elif key == pygame.K_END:
            self.seek(len(self.steps) - 1)
        elif key == pygame.K_s:
            self.speed_index = (self.speed_index + 1) % len(SPEEDS)

    # -- what is shown ----------------------------------------------------------------
    @property
    def step(self) -> CodeStep:
        return self.steps[self.at]

    def frames(self) -> list[CodeStep]:
        """For each open call (root first), the latest step it executed: its locals now."""
        stack = self.step.stack
        latest: dict[int, CodeStep] = {self.step.node: self.step}
        wanted = set(stack) - {self.step.node}
        at = self.at - 1
        while wanted and at >= 0:
            step = self.steps[at]
            if step.node in wanted:
                latest[step.node] = step
                wanted.discard(step.node)
            at -= 1
        return [latest[index] for index in stack if index in latest]

    def stack_lines(self) -> list[str]:
        """One line per open call: the move, the function, its window and value so far."""
        lines = []
        for depth, frame in enumerate(self.frames()):
            node = self.tree.node(frame.node)
            move = _("root") if node.move is None else format_move(node.move, self.tree.rules)
            function = "maximize" if node.is_max else "minimize"
            value = "-" if frame.value is None else fmt_tree_value(frame.value)
            lines.append(
                _("{value}{move}: {function}  alpha {fmt_tree_value}  beta {fmt_tree_value2}  value {value2}").format(
                    value="  " * depth,
                    move=move,
                    function=function,
                    fmt_tree_value=fmt_tree_value(frame.alpha),
                    fmt_tree_value2=fmt_tree_value(frame.beta),
                    value2=value,
                )
            )
        return lines

    def shown_lines(self, rows: int) -> range:
        """The source lines to show in ``rows`` rows: both functions, or the running one."""
        source = self.source
        if source.last - source.first + 1 <= rows:
            return range(source.first, source.last + 1)
        is_max = self.tree.node(self.step.node).is_max
        lines = source.max_lines if is_max else source.min_lines
        first = min(lines.values()) - 2  # the decorator and the def
        last = max(lines.values())
        return range(first, min(last, first + rows - 1) + 1)

    # -- drawing ----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        dim(surface, 150)
        theme = self.app.theme
        p = theme.palette
        w, h = surface.get_size()
        margin = 12
        small = 15 if h < 700 else 17
        line = small * theme.scale  # a line grows with the UI scale, and the panels with it
        # The title: smaller (as far as the 100 % size) where it is too wide, else on two lines.
        title = _("The textbook code, line by line: {title}").format(title=self.title)
        title_size = theme.shrink(title, small, w - 2 * margin - 16, bold=True)
        titles = theme.wrap(title, title_size, w - 2 * margin - 16, bold=True) if self.ready else [""]
        title_step = theme.pitch(title_size, small, bold=True)  # as ``line`` at 100 %; closer where shrunk
        header = pygame.Rect(margin, margin, w - 2 * margin, int(min(2, len(titles)) * title_step + line + 16))
        footer = pygame.Rect(margin, h - margin - line - 12, w - 2 * margin, line + 12)
        code_w = int((w - 3 * margin) * min(0.7, 0.56 + 0.24 * (theme.scale - 1)))  # bigger text: wider code
        code = pygame.Rect(margin, header.bottom + 8, code_w, footer.top - header.bottom - 16)
        side = pygame.Rect(code.right + margin, code.top, w - code.right - 2 * margin, code.height)
        for rect in (header, code, side, footer):
            pygame.draw.rect(surface, p.panel, rect, border_radius=6)
            pygame.draw.rect(surface, p.muted, rect, 1, border_radius=6)
        if not self.ready:  # the textbook's tree is on its way from the worker
            waiting = self.fetch.failed or self.title
            theme.text(
                surface,
                theme.fit(_("The textbook code: {waiting}").format(waiting=waiting), small, header.width - 16),
                small,
                (header.left + 8, header.top + 6),
                bold=True,
            )
            return
        if len(titles) > 2:  # a very narrow window: the second line is cut
            titles = [titles[0], theme.fit(" ".join(titles[1:]), title_size, header.width - 16, bold=True)]
        y: float = header.top + 6
        for text in titles:
            theme.text(surface, text, title_size, (header.left + 8, y), bold=True)
            y += title_step
        sentence = _("Line {at:,}/{count:,}: {step_sentence}").format(
            at=self.at + 1, count=len(self.steps), step_sentence=step_sentence(self.tree, self.steps, self.at)
        )
        sentence, sentence_size = theme.fitted(sentence, small, header.width - 16)
        theme.text(surface, sentence, sentence_size, (header.left + 8, y + 2), color=p.accent)
        self.draw_code(surface, code, small)
        self.draw_stack(surface, side, small)
        keys = _("Space play/pause   Left/Right one line   Home/End   S speed   Esc back to the tree")
        state = (_("playing, {speed} lines/s") if self.playing else _("paused, {speed} lines/s")).format(
            speed=SPEEDS[self.speed_index]
        )
        said, said_size = theme.fitted(f"{keys}   ({state})", small, footer.width - 16)
        theme.text(surface, said, said_size, (footer.left + 8, footer.top + 6), color=p.muted)

    def draw_code(self, surface: pygame.Surface, area: pygame.Rect, size: float) -> None:
        theme = self.app.theme
        p = theme.palette
        both = self.source.last - self.source.first + 1
        if both * (size * theme.scale + 3) > area.height - 12 >= both * (14 * theme.scale + 3):
            size = 14  # both functions, a little smaller, rather than only the running one
        size = self.code_size(size, area.width - 24)
        font = theme.font(size)
        row = int(size * theme.scale + 3)
        rows = max(1, (area.height - 12) // row)
        indent = font.size("    ")[0] / 4
        number_w = font.size("000")[0] + 10
        y = area.top + 6
        for number in self.shown_lines(rows):
            text = self.source.lines[number - 1]
            if number == self.step.line:
                pygame.draw.rect(surface, p.glow, (area.left + 4, y - 1, area.width - 8, row), border_radius=3)
            theme.text(surface, str(number), size - 2, (area.left + 8, y + 1), color=p.muted)
            stripped = text.lstrip(" ")
            x = area.left + 8 + number_w + indent * (len(text) - len(stripped))
            running = number == self.step.line
            shown = theme.fit(stripped, size, area.right - x - 6, bold=running)  # measured as drawn
            color = p.text if not stripped.startswith(("#", '"""')) else p.muted
            theme.text(surface, shown, size, (x, y), color=color, bold=running)
            y += row

    def code_size(self, size: float, width: float) -> float:
        """The code's size: the widest line of both functions fits ``width`` (with its line
        number and indent), shrinking with a big UI scale, never below the 100 % size."""
        widest = max(
            range(self.source.first, self.source.last + 1),
            key=lambda number: self.app.theme.font(size).size(self.source.lines[number - 1])[0],
        )
        return self.app.theme.shrink("000  " + self.source.lines[widest - 1], size, width, bold=True)

    def draw_stack(self, surface: pygame.Surface, area: pygame.Rect, size: int) -> None:
        theme = self.app.theme
        p = theme.palette
        x, y = area.left + 8, float(area.top + 6)
        node = self.tree.node(self.step.node)
        board_moves = " ".join(format_move(m, self.tree.rules) for m in node.path()) or _("(the root)")
        lines = [
            (_("Current node"), True, p.text),
            (
                _("{side_name} to move after {board_moves}").format(side_name=node.side_name, board_moves=board_moves),
                False,
                p.text,
            ),
            (
                _("window: alpha {fmt_tree_value}, beta {fmt_tree_value2}").format(
                    fmt_tree_value=fmt_tree_value(self.step.alpha), fmt_tree_value2=fmt_tree_value(self.step.beta)
                ),
                False,
                p.accent,
            ),
            ("", False, p.text),
            (_("Call stack (root first)"), True, p.text),
        ]
        lines += [(line, False, p.text) for line in self.stack_lines()]
        line_h = size * theme.scale
        for text, bold, color in lines:
            # Smaller (as far as the 100 % size) where the UI scale makes a line too wide;
            # past that its words go on under it, indented, rather than being cut.
            text_size = theme.shrink(text, size, area.width - 16, bold)
            stripped = text.lstrip(" ")
            indent = theme.font(text_size, bold).size(text[: len(text) - len(stripped)])[0]
            wrapped = [stripped]  # as written (its double spaces too) where it fits
            if theme.font(text_size, bold).size(stripped)[0] > area.width - 16 - indent:
                wrapped = theme.wrap(stripped, text_size, area.width - 16 - indent, bold)
            for row, part in enumerate(wrapped):
                if y + line_h > area.bottom - 4:
                    return
                theme.text(surface, part, text_size, (x + indent, y), color=color, bold=bold)
                y += line_h + (4 if row == len(wrapped) - 1 else 0)
        # The position at the current node, as far as room allows.
        board = self._boards.get(node.index)
        if board is None:
            return
        rules = board.rules
        cell = int(min((area.width - 24) // rules.cols, (area.bottom - y - 20) // rules.rows, 34))
        if cell >= 8:
            draw_small_board(surface, theme, board, (x + 4, int(y) + 10), cell, mark_last=bool(node.path()))
