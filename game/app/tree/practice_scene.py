"""Practice, "you are alpha-beta" (P in the tree overlay): see ``practice.py``.

The position is the one the tree overlay shows; one row per move of the root, with the
leaf values of the replies in the order the search tried them.  Type each answer and
press Enter: it is checked at once, a wrong one explained in one sentence.

Controls:
- digits, -, <=, >=, +W/-W and +F/-F (the W and F keys): type an answer, as the line under
  the answer says; Backspace: erase; Enter: check it
- Tab: start again at the next difficulty (minimax only, with pruning, with a bad move order)
- Esc or P: back to the tree
"""

from __future__ import annotations

import pygame

from ai.tree import SearchTree, fmt_bounded, fmt_tree_value
from game.app.scene import Scene
from game.app.tree.practice import Ask, Difficulty, Practice, build_practice, practice_asks
from game.app.tree.tree_fetch import TreeFetch
from game.app.widgets import dim
from game.app.worker_protocol import WorkerEvent
from game.board import Board
from game.i18n import _
from game.notation import format_move

ALLOWED = set("0123456789-+<>=wWfF")


class PracticeScene(Scene):
    is_overlay = True
    name = "practice"

    def __init__(self, tree: SearchTree, difficulty: Difficulty = Difficulty.PRUNING):
        super().__init__()
        self.board = Board(tree.rules, tree.grid, tree.to_move)
        self.start(difficulty)

    def start(self, difficulty: Difficulty) -> None:
        """Ask the worker for this difficulty's trees; the practice starts when they came."""
        self.difficulty = difficulty
        self.practice: Practice | None = None
        self.fetch = TreeFetch(self, practice_asks(self.board, difficulty))
        self.typed = ""
        self.feedback = _("Practice {value}: answer node by node, in the order the search finished them.").format(
            value=_(difficulty.value)
        )
        self.last_right: bool | None = None

    def on_exit(self) -> None:
        self.fetch.cancel()

    def update(self, dt: float) -> None:
        self.fetch.update()
        if self.practice is None and self.fetch.ready:
            tree, full = self.fetch.trees
            self.practice = build_practice(self.board, self.difficulty, tree, full)
        elif self.fetch.failed is not None and "failed" not in self.feedback:
            self.feedback = _("The practice's search failed: {failed}").format(failed=self.fetch.failed)

    def is_animating(self) -> bool:
        return self.practice is None and self.fetch.failed is None

    def on_worker_event(self, event: WorkerEvent) -> None:
        self.fetch.take(event)

    def submit(self, text: str) -> None:
        """Check ``text`` against the current question (the Enter key)."""
        if self.practice is None or self.practice.done or not text.strip():
            return
        right, sentence = self.practice.answer(text)
        self.last_right = right
        self.feedback = sentence
        if self.practice.done:
            self.feedback += _("  Done: {score}/{count}.").format(
                score=self.practice.score, count=len(self.practice.questions)
            )
        self.typed = ""

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        if key in (pygame.K_ESCAPE, pygame.K_p):
            self.app.pop()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit(self.typed)
        elif key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
        elif key == pygame.K_TAB:
            order = list(Difficulty)
            self.fetch.cancel()
            self.start(order[(order.index(self.difficulty) + 1) % len(order)])
        elif event.unicode and event.unicode in ALLOWED and len(self.typed) < 12:
            self.typed += event.unicode

    # -- drawing ----------------------------------------------------------------------
    def row_label(self, index: int) -> str:
        assert self.practice is not None
        node = self.practice.tree.node(index)
        assert node.move is not None
        return f"{format_move(node.move, self.practice.tree.rules)} ({node.side_name})"

    def draw(self, surface: pygame.Surface) -> None:
        dim(surface, 150)
        theme = self.app.theme
        p = theme.palette
        practice = self.practice
        w, h = surface.get_size()
        if practice is None:  # the trees are on their way from the worker
            waiting = self.fetch.failed or _("Practice {value}: recording the search to practise...").format(
                value=_(self.difficulty.value)
            )
            theme.text(surface, theme.fit(waiting, 18, w - 40), 18, (w // 2, h // 2), anchor="center")
            return
        tree = practice.tree
        margin = 12
        size = 16 if h < 700 else 19
        panel = pygame.Rect(margin, margin, w - 2 * margin, h - 2 * margin)
        pygame.draw.rect(surface, p.panel, panel, border_radius=6)
        pygame.draw.rect(surface, p.muted, panel, 1, border_radius=6)
        y: float  # moves down by line pitches at the UI scale
        x, y = panel.left + 12, panel.top + 10
        asked = len(practice.results)
        title = _("You are alpha-beta: {value}   score {score}/{asked}").format(
            value=_(practice.difficulty.value), score=practice.score, asked=asked
        )
        title, title_size = theme.fitted(title, size + 2, panel.width - 24, bold=True)
        theme.text(surface, title, title_size, (x, y), bold=True)
        y += theme.pitch(title_size, size + 8, bold=True)  # at any UI scale

        root = tree.root
        intro = _(
            "{side_name} to move at the root, depth 2; each row: a root move, then the values of the replies in the order the search tried them."
        ).format(side_name=root.side_name)
        for line in theme.wrap(intro, size - 2, panel.width - 24)[:2]:
            theme.text(surface, line, size - 2, (x, y), color=p.muted)
            y += theme.pitch(size - 2, size)
        y += 6
        # The question (wrapped, never cut), the answer being typed and the verdict, at the bottom.
        question = practice.question
        prompt = (
            _("Done. Tab practises again (next difficulty); Esc goes back.")
            if question is None
            else _("Q{number}/{count}: {prompt}").format(
                number=practice.at + 1, count=len(practice.questions), prompt=question.prompt
            )
        )
        prompt_size = theme.shrink(prompt, size, panel.width - 24, bold=True)
        asking = theme.wrap(prompt, prompt_size, panel.width - 24, bold=True)
        box_h = max(size + 8, theme.font(size).get_linesize() + 8)  # the answer typed in it
        below = len(asking) * theme.pitch(prompt_size, size + 6, True) + box_h + 6 + 3 * theme.pitch(size - 1, size + 2)
        bottom = panel.bottom - max(5 * (size + 6), below + 8)
        self.draw_rows(surface, pygame.Rect(x, y, panel.width - 24, bottom - y), size)
        y = bottom
        for line in asking:
            theme.text(surface, line, prompt_size, (x, y), bold=True)
            y += theme.pitch(prompt_size, size + 6, True)
        box = pygame.Rect(x, y, 160, box_h)
        pygame.draw.rect(surface, p.background, box, border_radius=4)
        pygame.draw.rect(surface, p.accent, box, 1, border_radius=4)
        theme.text(surface, self.typed + ("_" if question is not None else ""), size, (box.left + 6, box.top + 4))
        theme.text(
            surface,
            _("Enter checks   Tab next difficulty   Esc back"),
            size - 3,
            (box.right + 12, box.top + 5),
            color=p.muted,
        )
        y = box.bottom + 6
        color = p.text if self.last_right is None else (p.good if self.last_right else p.warning)
        for line in theme.wrap(self.feedback, size - 1, panel.width - 24)[:2]:
            theme.text(surface, line, size - 1, (x, y), color=color)
            y += theme.pitch(size - 1, size + 2)
        keys = _(
            "Values: digits and -; +F or -F (the F key): a forced win past the depth limit; +W or -W (the W key): "
            "a win; <= or >= before a value: a bound"
        )
        keys, keys_size = theme.fitted(keys, size - 3, panel.width - 24)
        theme.text(surface, keys, keys_size, (x, y + 2), color=p.muted)

    def draw_rows(self, surface: pygame.Surface, area: pygame.Rect, size: int) -> None:
        theme = self.app.theme
        p = theme.palette
        practice = self.practice
        assert practice is not None
        tree = practice.tree
        current = practice.question.node if practice.question is not None else None
        columns = max((len(row.cells) for row in practice.rows), default=1)
        label_w, value_w = 90, 80
        cell_w = max(40, (area.width - label_w - value_w) // max(1, columns))
        row_h = min(size + 14, max(size + 4, area.height // max(1, len(practice.rows) + 2)))
        y = area.top
        theme.text(surface, _("move"), size - 2, (area.left, y), color=p.muted)
        theme.text(surface, _("value"), size - 2, (area.left + label_w, y), color=p.muted)
        theme.text(surface, _("replies, in search order"), size - 2, (area.left + label_w + value_w, y), color=p.muted)
        y += row_h
        for row in practice.rows:
            node = tree.node(row.node)
            rect = pygame.Rect(area.left - 4, y - 3, area.width + 8, row_h - 2)
            if row.node == current:
                pygame.draw.rect(surface, p.accent, rect, 2, border_radius=4)
            theme.text(surface, self.row_label(row.node), size, (area.left, y))
            shown = node.is_leaf or practice.answered(row.node, Ask.VALUE)
            value = fmt_bounded(node.value, node.bound) if shown else "?"
            theme.text(surface, value, size, (area.left + label_w, y), bold=shown)
            cut_known = not tree.pruning or practice.answered(row.node, Ask.PRUNED)
            for column, cell in enumerate(row.cells):
                cx = area.left + label_w + value_w + column * cell_w
                skipped = cut_known and not cell.searched
                text = theme.fit(fmt_tree_value(cell.value), size - 1, cell_w - 6)
                drawn = theme.text(surface, text, size - 1, (cx, y), color=p.pruned if skipped else p.text)
                if skipped:
                    pygame.draw.line(surface, p.pruned, (drawn.left, drawn.centery), (drawn.right, drawn.centery), 2)
            y += row_h
        root = tree.root
        shown = practice.done or practice.answered(0, Ask.VALUE)
        root_text = _("root ({side_name}): {value}").format(
            side_name=root.side_name, value=fmt_bounded(root.value, root.bound) if shown else "?"
        )
        if current == 0:
            pygame.draw.rect(surface, p.accent, (area.left - 4, y - 3, area.width + 8, row_h - 2), 2, border_radius=4)
        theme.text(surface, root_text, size, (area.left, y), bold=True)
