"""``course [--list] [--lesson N]``: the course in game-tree search.

``--list`` prints the lessons, one a line (no window); ``--lesson N`` opens the window on
lesson N (a teacher starts a class there); without either, on the list of lessons.  A
command of the window's package, as ``open`` is (``game.launcher`` adds it to the command
line's table); the lessons themselves are ``game.learn.course``.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.display_check import display_problem
from game.learn.course import CourseError, lesson, list_lines


def add_course_arguments(course: argparse.ArgumentParser) -> None:
    """course [--list] [--lesson N]."""
    course.description = (
        "A course in game-tree search: nine lessons (minimax, alpha-beta, move order, depth, "
        "evaluation, exact solving, Monte Carlo tree search), each with a board, an exercise the "
        "game checks, and the screen to try it on. Progress is kept in the game archive."
    )
    course.add_argument("--list", action="store_true", help="print the lessons, one a line")
    course.add_argument("--lesson", type=int, metavar="N", help="open the window on lesson N")


def run_course(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """course: list the lessons, or open the window on one (checked first: a bad N is one line)."""
    if args.list:
        if args.lesson is not None:
            raise CliError("--list and --lesson: choose one")
        for line in list_lines():
            print(line, file=out)
        return 0
    if args.lesson is not None:
        try:
            lesson(args.lesson)
        except CourseError as error:
            raise CliError(f"--lesson: {error}") from None
    problem = display_problem()
    if problem:
        raise CliError(problem)
    from game.app.loop import launch_course  # pygame: loaded only once the lesson is known and can be shown

    return launch_course(args.lesson)


COMMANDS = {"course": CommandCode(add_course_arguments, run_course)}
