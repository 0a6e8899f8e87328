"""Practice, "you are alpha-beta": answers checked against the recorded tree, score kept."""

from __future__ import annotations

from array import array

import pygame
import pytest

from ai.levels import Level
from ai.search import search
from ai.tree import BoundKind, SearchTree
from game.app.scenes.play import PlayScene
from game.app.search_records import SearchRecord
from game.app.tree.practice import Ask, Difficulty, build_practice, normalise, practice_asks
from game.app.tree.practice_scene import PracticeScene
from game.app.tree.tree_fetch import TreeAsk
from game.app.worker_jobs import run_job
from game.app.worker_protocol import JobPurpose, TreeChunk, TreeHeader
from game.board import Board
from tests.ui import FRAME, open_tree_after, press, step, wait_until

POSITION = "4453"


def type_answer(app, text: str) -> None:
    events = [pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=char, scancode=0) for char in text]
    events.append(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.step(events, FRAME)


def recorded(ask: TreeAsk) -> SearchTree:
    """The tree the worker sends for ``ask``: its job run here, the tree rebuilt from its chunks."""
    sent: list = []
    run_job(1, ask.job(), sent.append, lambda: False)
    header = next(m for m in sent if isinstance(m, TreeHeader))
    return header.build(array("i", b"".join(m.data for m in sent if isinstance(m, TreeChunk))))


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_the_expected_answers_are_the_recorded_trees(difficulty):
    board = Board.from_moves(POSITION)
    tree, full = (recorded(ask) for ask in practice_asks(board, difficulty))
    practice = build_practice(board, difficulty, tree, full)
    tree = practice.tree
    assert tree.pruning is (difficulty is not Difficulty.MINIMAX)
    for question in practice.questions:
        node = tree.node(question.node)
        if question.ask is Ask.VALUE:
            assert normalise(question.expected) == normalise(node.value_text)
        else:
            assert int(question.expected) == node.pruned_count
    # With pruning the tree has cutoffs to find (a practice worth doing).
    if tree.pruning:
        assert any(q.ask is Ask.PRUNED and q.expected != "0" for q in practice.questions)
        assert any(tree.node(q.node).bound is not BoundKind.EXACT for q in practice.questions)
    # Every row shows a value for every legal reply, searched or cut.
    for row in practice.rows:
        node = tree.node(row.node)
        assert node.is_leaf or len(row.cells) == len(node.board().legal_moves())


def open_practice(app) -> PracticeScene:
    open_tree_after(app, POSITION, 4)
    press(app, pygame.K_p, frames=2)
    scene = app.stack.top
    assert isinstance(scene, PracticeScene)
    assert wait_until(app, lambda: scene.practice is not None, 30)  # the worker records its trees
    return scene


def test_a_whole_practice_with_right_answers_scores_full(app):
    scene = open_practice(app)
    press(app, pygame.K_TAB)  # the next difficulty: with a bad move order
    assert wait_until(app, lambda: scene.practice is not None, 30)
    practice = scene.practice
    assert practice.difficulty is Difficulty.BAD_ORDER
    while not practice.done:
        type_answer(app, practice.questions[practice.at].expected)
        assert scene.last_right is True
    assert practice.score == len(practice.questions) == len(practice.results)
    assert "Done" in scene.feedback
    press(app, pygame.K_ESCAPE, frames=2)
    assert type(app.stack.top).__name__ == "TreeScene"


def test_a_wrong_answer_is_marked_and_explained_in_one_sentence(app):
    scene = open_practice(app)
    practice = scene.practice
    assert practice.difficulty is Difficulty.PRUNING
    cut = next(i for i, q in enumerate(practice.questions) if q.ask is Ask.PRUNED and q.expected != "0")
    for question in practice.questions[:cut]:
        type_answer(app, question.expected)
    question = practice.questions[cut]
    type_answer(app, "0")  # says nothing is cut where something is
    assert scene.last_right is False
    _, given, right = practice.results[-1]
    assert (given, right) == ("0", False)
    assert question.expected in scene.feedback and "stops" in scene.feedback and "cut" in scene.feedback
    assert practice.score == cut
    for question in practice.questions[cut + 1 :]:
        type_answer(app, question.expected)
    assert practice.done and practice.score == len(practice.questions) - 1


def test_bounds_are_read_however_they_are_typed():
    assert normalise(" <= 12") == normalise("=<12") == "<=12"
    assert normalise("+5") == normalise("=5") == "5"
    assert normalise("+w3") == "+W3" and normalise("-f") == "-F"


def test_a_position_too_wide_to_practise_says_why(app):
    import numpy as np

    from game.rules import Mode, Rules

    rules = Rules(rows=4, cols=5, connect=3, gravity=False, mode=Mode.FULL_BOARD)
    grid = np.zeros((4, 5), dtype=np.int8)
    result = search(grid, rules, 2, record_tree=True, to_move=1)
    play = PlayScene(rules, Level(2), "computer")
    play.searches.append(SearchRecord(0, 1, JobPurpose.MOVE, result))
    app.stack.push(play)
    step(app)
    press(app, pygame.K_t, frames=2)
    press(app, pygame.K_p, frames=2)
    assert type(app.stack.top).__name__ == "TreeScene"
    assert app.toast is not None and "at most 9 moves" in app.toast[0] and "20" in app.toast[0]
