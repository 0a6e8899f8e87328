"""The AI worker without a window: typed messages, owners, cancelling, the tree's
journey, and carrying on in a thread when the process dies."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from ai.answer import DecidedBy
from ai.explain.explainer import explain
from ai.levels import Level
from ai.search import search
from game.app.worker import AIWorker
from game.app.worker_protocol import (
    ExplainJob,
    ExplainResult,
    JobFailed,
    JobProgress,
    JobPurpose,
    JobResult,
    SearchJob,
    TreeReady,
    WorkerEvent,
    WorkerLost,
)
from game.board import Board
from game.rules import MIN, Rules


class Owner:
    """Stands where a scene stands: it is handed its own jobs' events."""

    def __init__(self) -> None:
        self.events: list[WorkerEvent] = []

    def on_worker_event(self, event: WorkerEvent) -> None:
        self.events.append(event)


def pump(worker: AIWorker, until, timeout: float = 60.0) -> list[tuple[object, WorkerEvent]]:
    """Poll as the frame loop does, handing events to their owners, until ``until()``."""
    seen: list[tuple[object, WorkerEvent]] = []
    deadline = time.perf_counter() + timeout
    while not until():
        assert time.perf_counter() < deadline, f"timed out; seen {seen}"
        for owner, event in worker.poll():
            seen.append((owner, event))
            if owner is not None:
                owner.on_worker_event(event)
        time.sleep(0.002)
    return seen


def job_for(moves: str, depth: int, *, pruning: bool = True, level: Level | None = None, **options) -> SearchJob:
    """A job in the position of ``moves``: ``level``, else a plain depth-``depth`` level."""
    board = Board.from_moves(moves)
    return SearchJob(board.grid.copy(), Rules(), board.to_move, level=level or Level(depth, pruning=pruning), **options)


@pytest.fixture(params=[pytest.param(True, marks=pytest.mark.slow), False], ids=["process", "thread"])
def worker(request):
    ai = AIWorker(use_process=request.param)
    yield ai
    ai.shutdown()


def test_a_move_arrives_first_then_its_tree_equal_to_the_searched_one(worker):
    owner = Owner()
    job = job_for("4453", 5, pruning=False)
    job_id = worker.submit(job, owner)
    pump(worker, lambda: any(isinstance(e, TreeReady) for e in owner.events))
    kinds = [type(e) for e in owner.events if not isinstance(e, JobProgress)]
    assert kinds == [JobResult, TreeReady]
    answer, arrived = (e for e in owner.events if not isinstance(e, JobProgress))
    assert isinstance(answer, JobResult) and isinstance(arrived, TreeReady)
    assert answer.job_id == arrived.job_id == job_id and answer.job.purpose is JobPurpose.MOVE
    assert answer.result.tree is None  # the answer does not wait for the tree
    expected = search(job.grid, job.rules, 5, pruning=False, record_tree=True, to_move=job.to_move)
    assert answer.result.move == expected.move and answer.result.value == expected.value
    assert expected.tree is not None
    assert arrived.tree.data == expected.tree.data and len(arrived.tree) == len(expected.tree)
    assert np.array_equal(arrived.tree.grid, job.grid) and arrived.tree.pruning is False
    assert not worker.receiving and worker.current is None


def test_a_tree_of_many_chunks_arrives_whole(worker):
    owner = Owner()
    worker.submit(job_for("", 6, pruning=False), owner)
    pump(worker, lambda: any(isinstance(e, TreeReady) for e in owner.events))
    tree = next(e.tree for e in owner.events if isinstance(e, TreeReady))
    assert len(tree) == tree.counted > 100_000  # about 25 chunks of 256 KB
    assert tree.root.value == next(e.result.value for e in owner.events if isinstance(e, JobResult))


def test_a_cancelled_job_says_nothing_more_and_the_next_one_answers(worker):
    deep, quick = Owner(), Owner()
    worker.submit(job_for("", 12, pruning=False, record_tree=False), deep)
    pump(worker, lambda: any(isinstance(e, JobProgress) for e in deep.events))
    worker.cancel()
    assert worker.current is None
    heard = len(deep.events)
    worker.submit(job_for("44", 3, purpose=JobPurpose.HINT), quick)
    pump(worker, lambda: worker.current is None and not worker.receiving)
    assert len(deep.events) == heard
    assert [type(e) for e in quick.events if not isinstance(e, JobProgress)] == [JobResult, TreeReady]


def test_submitting_replaces_the_job_under_way(worker):
    first, second = Owner(), Owner()
    worker.submit(job_for("", 12, pruning=False, record_tree=False), first)
    worker.submit(job_for("4", 2, record_tree=False, purpose=JobPurpose.COMPARE), second)
    pump(worker, lambda: worker.current is None)
    assert not any(isinstance(e, JobResult) for e in first.events)
    (answer,) = [e for e in second.events if isinstance(e, JobResult)]
    assert answer.job.purpose is JobPurpose.COMPARE and not worker.receiving


def test_a_failing_search_is_reported_to_its_owner(worker):
    owner = Owner()
    bad = SearchJob(np.zeros((6, 7), dtype=np.int8), Rules(), MIN, level=Level(0))  # depth 0 is refused
    worker.submit(bad, owner)
    pump(worker, lambda: worker.current is None)
    (failure,) = owner.events
    assert isinstance(failure, JobFailed) and failure.message
    worker.submit(job_for("", 2), owner)  # the worker lives on
    pump(worker, lambda: any(isinstance(e, JobResult) for e in owner.events))


@pytest.mark.slow
def test_a_killed_process_is_said_once_and_a_thread_finishes_the_job():
    worker = AIWorker()
    try:
        owner = Owner()
        worker.submit(job_for("", 12, pruning=False, record_tree=False), owner)
        pump(worker, lambda: any(isinstance(e, JobProgress) for e in owner.events))
        pid = worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        started = time.perf_counter()
        seen = pump(worker, lambda: not worker.use_process, timeout=5)
        assert time.perf_counter() - started < 1.0, "a dead worker is noticed within a second"
        lost = [e for _, e in seen if isinstance(e, WorkerLost)]
        assert len(lost) == 1 and "thread" in lost[0].message and "-9" in lost[0].message
        # the deep job was handed to the thread; cancelling it still works
        assert worker.current is not None and worker.is_alive()
        worker.cancel()
        quick = Owner()
        worker.submit(job_for("4", 3), quick)
        pump(worker, lambda: worker.current is None and not worker.receiving, timeout=30)
        assert [type(e) for e in quick.events if not isinstance(e, JobProgress)] == [JobResult, TreeReady]
        assert not any(isinstance(e, WorkerLost) for _, e in worker.poll())  # said once
    finally:
        worker.shutdown()


LATE = "5273212553524744215772343433766165"  # 34 moves, 8 empty cells: solved at once


def test_a_level_plays_through_choose_move_as_everywhere_else(worker):
    from ai.levels import PRESETS
    from ai.player import choose_move

    board = Board.from_moves("4453")
    owner = Owner()
    job = SearchJob(board.grid.copy(), Rules(), board.to_move, level=PRESETS["Hard"])
    worker.submit(job, owner)
    pump(worker, lambda: worker.current is None and not worker.receiving)
    (answer,) = [e for e in owner.events if isinstance(e, JobResult)]
    expected = choose_move(PRESETS["Hard"], board.grid, Rules(), board.to_move)
    assert answer.answer.move == expected.move and answer.answer.value == expected.value
    assert answer.answer.decided_by is expected.decided_by is DecidedBy.SEARCH
    assert answer.answer.depth == PRESETS["Hard"].depth
    assert any(isinstance(e, TreeReady) for e in owner.events)  # the tree of the heuristic search


def test_the_perfect_level_answers_and_then_ponders_until_the_next_job(worker):
    from ai.levels import PRESETS

    board = Board.from_moves(LATE)
    owner = Owner()
    worker.submit(SearchJob(board.grid.copy(), Rules(), board.to_move, level=PRESETS["Perfect"]), owner)
    pump(worker, lambda: worker.current is None and not worker.receiving)
    (answer,) = [e for e in owner.events if isinstance(e, JobResult)]
    assert answer.answer.move in board.legal_moves() and answer.answer.decided_by is DecidedBy.SOLVER
    assert answer.answer.exact is not None and answer.result is None  # no search: no tree to show
    quick = Owner()  # the worker may be pondering now: a new job stops it and is answered
    worker.submit(job_for("4", 2, record_tree=False), quick)
    pump(worker, lambda: any(isinstance(e, JobResult) for e in quick.events))


def test_a_hint_carries_every_columns_exact_score_and_the_positions(worker):
    from ai.exact import ExactScore
    from ai.levels import PRESETS
    from ai.perfect import exact_column_scores

    board = Board.from_moves(LATE)
    owner = Owner()
    job = SearchJob(board.grid.copy(), Rules(), board.to_move, level=PRESETS["Medium"], purpose=JobPurpose.HINT)
    worker.submit(job, owner)
    pump(worker, lambda: worker.current is None and not worker.receiving)
    (answer,) = [e for e in owner.events if isinstance(e, JobResult)]
    expected = exact_column_scores(board.grid, Rules(), board.to_move, None)
    assert expected is not None and set(expected) == set(board.legal_moves())
    columns = answer.answer.column_scores
    assert columns == {col: ExactScore.from_score(score, board.grid, board.to_move) for col, score in expected.items()}
    best = max(expected.values())
    assert expected[answer.answer.move] == best  # the hint's move keeps the best exact score
    assert answer.answer.exact == columns[answer.answer.move]


def test_a_level_whose_solver_overrules_its_search_says_so(worker):
    """Hard at 26 empty cells: its 8-ply search prefers column 3, which throws the win
    away; the solver's column arrives, with a note for the play screen."""
    from ai.levels import PRESETS

    owner = Owner()
    worker.submit(job_for("3164444332677421", 8, level=PRESETS["Hard"]), owner)
    pump(worker, lambda: any(isinstance(e, JobResult) for e in owner.events))
    answer = next(e for e in owner.events if isinstance(e, JobResult))
    assert answer.answer.move in (1, 5)  # the two winning columns
    assert answer.answer.decided_by is DecidedBy.OVERRULED
    assert answer.answer.note == "the exact solver chose column 2: it keeps the win, the search's column 3 would not"
    assert answer.answer.exact is not None and answer.answer.exact.pov(answer.job.to_move) == 1


def test_trees_the_recorder_cannot_keep_up_with_are_said_skipped_never_awaited_for_good(worker):
    """Computer against computer: compiled answers come faster than the Python search
    records their trees; past three waiting, the oldest is skipped and the window told."""
    from ai.compiled import search_kernel
    from game.app.worker_protocol import TreeSkipped

    assert search_kernel.LOADER.kernel() is not None  # the compiled search answers (this process)
    owner = Owner()
    moves = ["", "4", "44", "443", "4435", "44352"]
    for moves_so_far in moves:  # each a full-width depth-6 tree without pruning (Python: about a second)
        job_id = worker.submit(job_for(moves_so_far, 6, pruning=False), owner)
        pump(worker, lambda job_id=job_id: any(isinstance(e, JobResult) and e.job_id == job_id for e in owner.events))
    pump(worker, lambda: not worker.receiving, timeout=120)
    answered = {e.job_id for e in owner.events if isinstance(e, JobResult)}
    treed = {e.job_id for e in owner.events if isinstance(e, TreeReady)}
    skipped = {e.job_id for e in owner.events if isinstance(e, TreeSkipped)}
    assert len(answered) == len(moves)
    assert skipped and not treed & skipped
    assert treed | skipped == answered  # every answer's tree arrived or was said skipped


def test_an_explanation_is_a_job_of_its_own_and_a_wrong_board_is_said(worker):
    """``ExplainJob``: the explanation arrives whole (the same as the explainer's here);
    a position it does not take comes back as one sentence."""
    owner = Owner()
    board = Board.from_moves("565467743237614662472111544623151")
    worker.submit(ExplainJob(board.grid.copy(), Rules(), board.to_move), owner)
    pump(worker, lambda: any(isinstance(e, ExplainResult) for e in owner.events))
    (answer,) = [e for e in owner.events if isinstance(e, ExplainResult)]
    assert answer.explanation == explain(board.grid, board.to_move)
    assert answer.explanation.reason.strategy is not None
    other = Board(Rules(rows=7, cols=8))
    worker.submit(ExplainJob(other.grid.copy(), other.rules, other.to_move), owner)
    pump(worker, lambda: any(isinstance(e, JobFailed) for e in owner.events))
    (failed,) = [e for e in owner.events if isinstance(e, JobFailed)]
    assert "standard board" in failed.message
