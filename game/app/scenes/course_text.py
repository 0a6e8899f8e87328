"""The course screen's sentences: pure functions of the lesson, the page and the progress
(``game.learn.course`` holds the lessons), tested without pygame."""

from __future__ import annotations

from game.archive.course_progress import LessonProgress
from game.i18n import _
from game.learn.course import LESSONS, TOOL_NAMES, Lesson


def lesson_heading(lesson: Lesson) -> str:
    """ "Lesson 2 of 7: Alpha-beta pruning"."""
    return _("Lesson {number} of {count}: {title}").format(
        number=lesson.number, count=len(LESSONS), title=_(lesson.title)
    )


def page_label(page: int, lesson: Lesson) -> str:
    """Where the reader is: "Page 1 of 2", or "Exercise" on the last page."""
    if page >= len(lesson.pages):
        return _("Exercise")
    return _("Page {page} of {pages}").format(page=page + 1, pages=len(lesson.pages))


def progress_word(progress: LessonProgress | None) -> str:
    """A lesson's state in words (never only a colour): solved, tried, or new."""
    if progress is None or progress.attempts == 0:
        return _("new")
    if progress.solved:
        return _("solved")
    return _("tried")


def index_line(lesson: Lesson, progress: LessonProgress | None) -> str:
    """One row of the course's list: "3. Move order: solved"."""
    return _("{number}. {title}: {state}").format(
        number=lesson.number, title=_(lesson.title), state=progress_word(progress)
    )


def course_summary(progress: dict[str, LessonProgress]) -> str:
    """ "2 of 7 lessons solved"."""
    solved = sum(1 for lesson in LESSONS if lesson.key in progress and progress[lesson.key].solved)
    return _("{solved} of {count} lessons solved").format(solved=solved, count=len(LESSONS))


def tool_label(lesson: Lesson) -> str:
    """The button that opens the lesson's screen: "Try it: the depth chart"."""
    return _("Try it: {tool}").format(tool=_(TOOL_NAMES[lesson.tool]))


def keys_line(answer_keys: tuple[str, ...] | None) -> str:
    """The keys of the lesson screen; ``answer_keys``: the exercise's (None: a page of text)."""
    if answer_keys:
        return _("{first}..{last} answer · H hint · O try it · Left/Right pages · Esc lessons").format(
            first=answer_keys[0], last=answer_keys[-1]
        )
    return _("Right next page · Left back · O try it · Esc lessons")
