"""The code beside the replay: each step's line and window are what the textbook runs."""

from __future__ import annotations

import inspect
import sys

import pytest

from ai import textbook
from ai.textbook import textbook_search
from game.app.tree.codewalk import Line, code_steps, read_source
from game.board import Board


def traced_run(board: Board, depth: int, pruning: bool) -> list[tuple[int, int, int, int | None, int]]:
    """Run the textbook under ``sys.settrace``: (line, alpha, beta, value, open calls) per line."""
    codes = {inspect.unwrap(f).__code__ for f in (textbook.maximize, textbook.minimize)}
    events: list[tuple[int, int, int, int | None, int]] = []
    calls = 0

    def trace(frame, event, arg):
        nonlocal calls
        if frame.f_code not in codes:
            return trace if event == "call" else None
        if event == "call":
            calls += 1
        elif event == "return":
            calls -= 1
        elif event == "line":
            local = frame.f_locals
            events.append((frame.f_lineno, local["alpha"], local["beta"], local.get("value"), calls))
        return trace

    sys.settrace(trace)
    try:
        textbook_search(board, depth, pruning=pruning)
    finally:
        sys.settrace(None)
    return events


@pytest.mark.parametrize("moves, depth, pruning", [("4453", 3, True), ("4453", 2, False), ("44336", 4, True)])
def test_every_replayed_line_and_window_is_what_the_textbook_ran(moves, depth, pruning):
    board = Board.from_moves(moves)
    tree = textbook_search(board, depth, pruning=pruning, record_tree=True).tree
    assert tree is not None
    replayed = [(s.line, s.alpha, s.beta, s.value, len(s.stack)) for s in code_steps(tree)]
    assert replayed == traced_run(board, depth, pruning)


def test_the_steps_show_each_kind_of_line_and_the_cutoff():
    board = Board.from_moves("44336")
    tree = textbook_search(board, 4, pruning=True, record_tree=True).tree
    assert tree is not None
    steps = code_steps(tree)
    assert {step.kind for step in steps} == set(Line)
    source = read_source()
    for step in steps:
        assert (
            source.lines[step.line - 1]
            .strip()
            .startswith(("value", "return", "for", "s.", "alpha", "beta", "if", "break"))
        )
    cut = next(step for step in steps if step.kind is Line.CUTOFF)
    assert cut.alpha >= cut.beta and tree.node(cut.node).pruned_count > 0
    assert steps[0].stack == (0,) and steps[-1].kind is Line.RETURN and steps[-1].value == tree.root.value


def test_k_opens_the_code_walk_whose_steps_follow_the_textbook(app):
    import pygame

    from game.app.tree.code_scene import CodeWalkScene
    from tests.ui import open_tree_after, press, wait_until

    open_tree_after(app, "44336", 6)
    press(app, pygame.K_k, frames=2)
    walk = app.stack.top
    assert isinstance(walk, CodeWalkScene)
    assert wait_until(app, lambda: walk.ready, 30)  # the worker records the textbook's tree
    assert walk.tree.depth == 4 and "depth 4" in walk.title and "depth 6" in walk.title  # capped, and says so
    source = read_source()
    assert walk.step.line == source.max_lines[Line.ENTER] or walk.step.line == source.min_lines[Line.ENTER]
    for _ in range(40):
        press(app, pygame.K_RIGHT)
    assert walk.at == 40
    frames = walk.frames()
    assert [frame.node for frame in frames] == list(walk.step.stack)
    assert len(walk.stack_lines()) == len(walk.step.stack)
    press(app, pygame.K_END)
    assert walk.step.kind is Line.RETURN and walk.step.value == walk.tree.root.value
    press(app, pygame.K_ESCAPE, frames=2)
    assert type(app.stack.top).__name__ == "TreeScene"
