"""The course (title -> Learn): the list of lessons, then a lesson's pages, its board, its
exercise, and the existing screen it is tried on.

A lesson's text and its checking live in ``game.learn.course``; the sentences of this
screen in ``course_text``; progress in the archive (``game.archive.course_progress``).
The screens a lesson opens are the existing ones, reached through navigation requests:
the tree overlay, the code walk, practice and the depth chart on a search of the lesson's
position (a worker job: the window never searches), the analysis board, and MCTS beside
minimax.

Controls (the list): Up/Down choose, Enter or 1..9 open a lesson, Esc back.
Controls (a lesson): Right/Left (or PageDown/PageUp) next/previous page, O try it on its
screen, the key shown on an option answers it (its own digit, else a letter), H hint, Esc
back to the list; or click.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pygame

from ai.levels import Level
from ai.mcts_table import BUDGETS
from ai.search import SearchResult
from ai.tree import SearchTree
from game.app.job_slot import JobSlot
from game.app.navigation import (
    OpenAnalysis,
    OpenMctsTree,
    OpenTree,
    Practise,
    ShowCodeWalk,
    ShowDepthChart,
    ShowMctsChart,
    ShowTreeBuilder,
)
from game.app.scene import Scene
from game.app.scenes.course_draw import draw_board, draw_small_tree
from game.app.scenes.course_text import (
    course_summary,
    index_line,
    keys_line,
    lesson_heading,
    page_label,
    tool_label,
)
from game.app.search_records import SearchRecord
from game.app.widgets import Button, display_size
from game.app.worker_protocol import JobFailed, JobPurpose, JobResult, SearchJob, TreeReady, WorkerEvent
from game.archive.course_progress import LessonProgress, course_progress, record_answer
from game.board import Board
from game.i18n import N_, _
from game.learn.course import (
    LESSONS,
    MCTS_PLAYOUTS,
    MCTS_SEED,
    Lesson,
    Tool,
    Verdict,
    answer_for_key,
    check,
    option_keys,
    option_text,
)
from game.rules import MAX, Rules


@dataclass
class LessonSearch:
    """What the tree overlay reads of the lesson it opens over: one search of its position."""

    rules: Rules
    levels: dict[int, Level]
    searches: list[SearchRecord]
    names: dict[int, str] = field(default_factory=dict)

    def side_name(self, side: int) -> str:
        return _("Player {value}").format(value=1 if side == MAX else 2)


class CourseScene(Scene):
    """The course: its list of lessons (``number`` None) or lesson ``number``."""

    name = "course"

    def __init__(self, number: int | None = None):
        super().__init__()
        self.number = number
        self.page = 0
        self.verdict: Verdict | None = None
        self.chosen: int | None = None
        self.show_hint = False
        self.progress: dict[str, LessonProgress] = {}
        self.index_focus = 0
        self.search_result: SearchResult | None = None

    # -- state -------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.tree_job = JobSlot(self)
        self.progress = course_progress(self.app.archive)
        self.index_focus = (self.number or 1) - 1

    def on_exit(self) -> None:
        self.tree_job.cancel()

    def on_resume(self) -> None:
        self.app.dirty = True

    @property
    def lesson(self) -> Lesson | None:
        return None if self.number is None else LESSONS[self.number - 1]

    @property
    def on_exercise(self) -> bool:
        lesson = self.lesson
        return lesson is not None and self.page >= len(lesson.pages)

    def open_lesson(self, number: int) -> None:
        self.tree_job.cancel()
        self.number, self.page, self.verdict, self.chosen, self.show_hint = number, 0, None, None, False
        self.app.dirty = True

    def to_list(self) -> None:
        self.tree_job.cancel()
        self.index_focus = (self.number or 1) - 1
        self.number = None
        self.app.dirty = True

    def turn(self, step: int) -> None:
        lesson = self.lesson
        if lesson is None:
            return
        self.page = max(0, min(len(lesson.pages), self.page + step))
        self.app.dirty = True

    def answer(self, index: int) -> None:
        """Check option ``index`` of the exercise, say the verdict, keep it in the archive."""
        lesson = self.lesson
        if lesson is None or not 0 <= index < len(lesson.exercise.options):
            return
        self.page = len(lesson.pages)
        self.chosen = index
        self.verdict = check(lesson, index)
        record_answer(self.app.archive, lesson.key, right=self.verdict.right)
        self.progress = course_progress(self.app.archive)
        self.app.sounds.play("win" if self.verdict.right else "click")
        self.app.speak(self.verdict.said)
        self.app.dirty = True

    def hint(self) -> None:
        if self.lesson is not None:
            self.page = len(self.lesson.pages)
            self.show_hint = True
            self.app.dirty = True

    def board(self) -> Board:
        lesson = self.lesson
        return Board.from_moves(lesson.moves if lesson is not None else "")

    # -- the lesson's screen -------------------------------------------------------------------
    def try_it(self) -> None:
        """O: open the screen this lesson is tried on."""
        lesson = self.lesson
        if lesson is None:
            return
        board = self.board()
        if lesson.tool is Tool.ANALYSIS:
            self.app.push(OpenAnalysis(board))
            return
        if lesson.tool is Tool.MCTS_TREE:
            self.app.push(OpenMctsTree(board, MCTS_PLAYOUTS, lesson.depth))
            return
        if lesson.tool is Tool.MCTS_CHART:
            self.app.push(ShowMctsChart(board, BUDGETS, MCTS_SEED))
            return
        if lesson.tool is Tool.TREE_BUILDER:
            self.app.push(ShowTreeBuilder())
            return
        if self.tree_job.id is not None:
            return
        self.search_result = None
        job = SearchJob(
            board.grid.copy(), board.rules, board.to_move, level=Level(lesson.depth), purpose=JobPurpose.COMPARE
        )
        self.tree_job.submit(job)
        self.app.show_toast(_("Searching the lesson's position {depth} plies deep...").format(depth=lesson.depth))

    def on_worker_event(self, event: WorkerEvent) -> None:
        if not self.tree_job.owns(event):
            return
        if isinstance(event, JobResult) and event.answer.result is not None:
            self.search_result = event.answer.result
            if not event.tree_follows:
                self.tree_job.done()
        elif isinstance(event, TreeReady) and self.search_result is not None:
            self.tree_job.done()
            self.open_tool(replace(self.search_result, tree=event.tree), event.tree)
        elif isinstance(event, JobFailed):
            self.tree_job.done()
            self.app.show_toast(_("The search failed: {message}").format(message=event.message), 5.0)

    def open_tool(self, result: SearchResult, tree: SearchTree) -> None:
        """The search of the lesson's position is back: open the lesson's screen on it."""
        lesson = self.lesson
        if lesson is None:
            return
        self.app.hide_toast()
        opens: dict[Tool, Callable[[], None]] = {
            Tool.CODE_WALK: lambda: self.app.push(ShowCodeWalk(tree)),
            Tool.PRACTICE: lambda: self.app.push(Practise(tree)),
            Tool.DEPTH_CHART: lambda: self.app.push(ShowDepthChart(tree)),
        }
        if lesson.tool in opens:
            opens[lesson.tool]()
            return
        board = self.board()
        level = Level(lesson.depth)
        record = SearchRecord(len(board.moves), board.to_move, JobPurpose.MOVE, result)
        self.app.push(OpenTree(LessonSearch(board.rules, {MAX: level, -MAX: level}, [record]), 0))

    def update(self, dt: float) -> None:
        if self.tree_job.lost():
            self.tree_job.done()

    # -- input ---------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        size = display_size()
        if event.type == pygame.KEYDOWN:
            self.handle_key(event.key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons(size):
                if button.handle_event(event):
                    self.app.sounds.play("click")
                    self.app.dirty = True
                    return

    def handle_key(self, key: int) -> None:
        digit = key - pygame.K_1 if pygame.K_1 <= key <= pygame.K_9 else None
        if self.lesson is None:
            if key == pygame.K_ESCAPE:
                self.app.pop()
            elif key in (pygame.K_DOWN, pygame.K_UP):
                self.index_focus = (self.index_focus + (1 if key == pygame.K_DOWN else -1)) % len(LESSONS)
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.open_lesson(self.index_focus + 1)
            elif digit is not None and digit < len(LESSONS):
                self.open_lesson(digit + 1)
            self.app.dirty = True
            return
        if key == pygame.K_ESCAPE:
            self.to_list()
        elif key in (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_SPACE):
            self.turn(1)
        elif key in (pygame.K_LEFT, pygame.K_PAGEUP):
            self.turn(-1)
        elif key == pygame.K_o:
            self.try_it()
        elif key == pygame.K_h:
            self.hint()
        elif self.on_exercise and self.lesson is not None:
            chosen = answer_for_key(self.lesson.exercise, pygame.key.name(key))
            if chosen is not None:
                self.answer(chosen)

    # -- layout ----------------------------------------------------------------------------------
    def unit(self, size: tuple[int, int]) -> int:
        """The height of a button row at this window size."""
        return max(28, min(46, size[1] // 17))

    def buttons(self, size: tuple[int, int]) -> list[Button]:
        """Every clickable button of what is shown, placed for ``size``."""
        w, h = size
        row = self.unit(size)
        margin = max(12, w // 40)
        lesson = self.lesson
        if lesson is None:
            width = min(w - 2 * margin, int(620 * self.app.theme.scale))
            top = int(row * 3.2)
            gap = max(4, row // 4)
            room = (h - top - row * 2) // len(LESSONS)
            pitch = min(row + gap, room)
            buttons = []
            for index, item in enumerate(LESSONS):
                button = Button(
                    index_line(item, self.progress.get(item.key)),
                    functools.partial(self.open_lesson, item.number),
                    key_hint=str(item.number),
                )
                button.rect = pygame.Rect((w - width) // 2, top + index * pitch, width, pitch - gap)
                button.focused = index == self.index_focus
                buttons.append(button)
            back = Button(N_("Back"), self.app.pop, key_hint="Esc")
            back.rect = pygame.Rect((w - width) // 2, h - int(row * 1.4), width // 3, row)
            return [*buttons, back]
        bottom = h - int(row * 1.3)
        labels: list[tuple[str, Callable[[], None], str]] = [
            (N_("Lessons"), self.to_list, "Esc"),
            (N_("Previous"), lambda: self.turn(-1), "Left"),
            (N_("Next"), lambda: self.turn(1), "Right"),
            (tool_label(lesson), self.try_it, "O"),
        ]
        if self.on_exercise:
            labels.append((N_("Hint"), self.hint, "H"))
        widths = [1, 1, 1, 2.2] + ([0.8] if self.on_exercise else [])
        unit_width = (w - 2 * margin - (len(widths) - 1) * 8) / sum(widths)
        buttons = []
        x = float(margin)
        for (label, action, key), share in zip(labels, widths):
            button = Button(label, action, key_hint=key)
            button.rect = pygame.Rect(int(x), bottom, int(unit_width * share), row)
            x += unit_width * share + 8
            buttons.append(button)
        if self.on_exercise:
            buttons += self.option_buttons(size)
        return buttons

    def text_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The right-hand column: the page's text, or the exercise."""
        w, h = size
        row = self.unit(size)
        margin = max(12, w // 40)
        left = int(w * 0.42)
        return pygame.Rect(left, int(row * 2.2), w - left - margin, h - int(row * 2.2) - int(row * 1.6))

    def board_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The left-hand column: the board, and under it the small tree where the lesson has one."""
        w, _h = size
        margin = max(12, w // 40)
        area = self.text_area(size)
        return pygame.Rect(margin, area.top, area.left - 2 * margin, area.height)

    def option_buttons(self, size: tuple[int, int]) -> list[Button]:
        """The exercise's options: a row (or two) of buttons, each with the key that
        answers it (``option_keys``: its own digit, else a letter)."""
        lesson = self.lesson
        assert lesson is not None
        exercise = lesson.exercise
        area = self.text_area(size)
        row = self.unit(size)
        count = len(exercise.options)
        keys = option_keys(exercise)  # the key shown is the key that answers
        per_row = count if count <= 4 or area.width / count >= row * 2.2 else (count + 1) // 2
        if exercise.translate_options:  # words: one a row, each whole at any length
            per_row = 1
        width = (area.width - (per_row - 1) * 8) / per_row
        top = self.options_top(size)
        buttons = []
        for index in range(count):
            line, column = divmod(index, per_row)
            button = Button(option_text(exercise, index), functools.partial(self.answer, index), key_hint=keys[index])
            button.rect = pygame.Rect(
                int(area.left + column * (width + 8)), int(top + line * (row + 8)), int(width), row
            )
            button.focused = index == self.chosen
            buttons.append(button)
        return buttons

    def text_size(self, size: tuple[int, int]) -> int:
        return max(14, min(24, size[1] // 34))

    def options_top(self, size: tuple[int, int]) -> int:
        """Where the options start: under the question."""
        lesson = self.lesson
        assert lesson is not None
        theme = self.app.theme
        area = self.text_area(size)
        text = self.text_size(size)
        lines = theme.wrap(_(lesson.exercise.question), text, area.width, bold=True)
        return int(area.top + (len(lines) + 1.0) * theme.pitch(text, text * 1.25, bold=True))

    # -- drawing ---------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        size = surface.get_size()
        surface.fill(theme.palette.background)
        if self.lesson is None:
            self.draw_list(surface, size)
        else:
            self.draw_lesson(surface, size, self.lesson)

    def draw_list(self, surface: pygame.Surface, size: tuple[int, int]) -> None:
        theme = self.app.theme
        w, _h = size
        row = self.unit(size)
        theme.text(
            surface, _("Learn: game-tree search"), int(row * 1.0), (w / 2, row * 1.1), bold=True, anchor="center"
        )
        said = (
            course_summary(self.progress) + " · " + _("Enter or 1..{count} opens a lesson").format(count=len(LESSONS))
        )
        theme.text(surface, said, int(row * 0.5), (w / 2, row * 2.2), color=theme.palette.muted, anchor="center")
        for button in self.buttons(size):
            button.draw(surface, theme)  # (its own ring when focused)

    def draw_lesson(self, surface: pygame.Surface, size: tuple[int, int], lesson: Lesson) -> None:
        theme = self.app.theme
        p = theme.palette
        w, _h = size
        row = self.unit(size)
        margin = max(12, w // 40)
        heading, heading_size = theme.fitted(lesson_heading(lesson), row * 0.8, w - 2 * margin, bold=True)
        theme.text(surface, heading, heading_size, (margin, row * 0.5), bold=True)
        theme.text(surface, page_label(self.page, lesson), int(row * 0.5), (margin, row * 1.45), color=p.muted)
        keys = keys_line(option_keys(lesson.exercise) if self.on_exercise else None)
        keys_text, keys_size = theme.fitted(keys, row * 0.45, w * 0.55)
        theme.text(surface, keys_text, keys_size, (w - margin, row * 1.45), color=p.muted, anchor="topright")
        area = self.board_area(size)
        board_height = area.height * (0.55 if lesson.shows_small_tree else 1.0)
        drawn = draw_board(
            theme, surface, pygame.Rect(area.left, area.top, area.width, int(board_height)), self.board()
        )
        if lesson.shows_small_tree:  # under the board and the line under it
            top = max(area.top + int(board_height) + 8, drawn + 6)
            tree_rect = pygame.Rect(area.left, top, area.width, max(1, area.bottom - top))
            solved = self.verdict is not None and self.verdict.right
            draw_small_tree(theme, surface, tree_rect, solved=solved, show_cuts=lesson.key == "alpha-beta")
        text_area = self.text_area(size)
        text = self.text_size(size)
        if self.on_exercise:
            self.draw_exercise(surface, size, lesson, text_area, text)
        else:
            self.draw_paragraph(surface, _(lesson.pages[self.page]), text_area, text, p.text)
        for button in self.buttons(size):
            button.draw(surface, theme)  # (its own ring when focused)

    def draw_paragraph(
        self, surface: pygame.Surface, paragraph: str, area: pygame.Rect, size: int, color: tuple[int, int, int]
    ) -> float:
        """Draw ``paragraph`` wrapped into ``area`` (smaller where it would not fit); return the y after it."""
        theme = self.app.theme
        while size > 12 and len(theme.wrap(paragraph, size, area.width)) * theme.pitch(size, size * 1.3) > area.height:
            size -= 1
        y: float = area.top
        for line in theme.wrap(paragraph, size, area.width):
            theme.text(surface, line, size, (area.left, y), color=color)
            y += theme.pitch(size, size * 1.3)
        return y

    def draw_exercise(
        self, surface: pygame.Surface, size: tuple[int, int], lesson: Lesson, area: pygame.Rect, text: int
    ) -> None:
        theme = self.app.theme
        p = theme.palette
        y: float = area.top
        for line in theme.wrap(_(lesson.exercise.question), text, area.width, bold=True):
            theme.text(surface, line, text, (area.left, y), bold=True)
            y += theme.pitch(text, text * 1.25, bold=True)
        options = self.option_buttons(size)
        below = max(button.rect.bottom for button in options) + self.unit(size) // 2
        rest = pygame.Rect(area.left, below, area.width, area.bottom - below)
        if self.verdict is not None:
            word = _("Right") if self.verdict.right else _("Not yet")
            theme.text(
                surface,
                word,
                int(text * 1.1),
                (rest.left, rest.top),
                bold=True,
                color=p.good if self.verdict.right else p.warning,
            )
            rest = pygame.Rect(rest.left, rest.top + int(text * 1.8), rest.width, rest.height - int(text * 1.8))
            rest.top = int(self.draw_paragraph(surface, self.verdict.detail, rest, text, p.text) + text * 0.6)
        if self.show_hint and not (self.verdict is not None and self.verdict.right):
            hint = _("Hint: {hint}").format(hint=_(lesson.exercise.hint))
            self.draw_paragraph(
                surface, hint, pygame.Rect(rest.left, rest.top, rest.width, area.bottom - rest.top), text, p.accent
            )
