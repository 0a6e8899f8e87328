"""The worker process's side of ``game.app.worker``: it works out each job and sends back
typed messages.  Only the worker process imports this module (the window starts the
process with ``worker._process_main``, which loads it there), so the exact solver, the
opening book and numba never load in the window's process.

Jobs: a ``SearchJob`` plays its level through ``ai.player.choose_move`` (the one
decider; a COMPARE job is a plain search for the tree overlay); a ``ReviewJob`` reviews a
game and streams each move's review; a ``DepthJob`` measures depth against truth; a
``TextbookJob`` records the textbook search's tree for the code walk and practice; an
``OwnPuzzlesJob`` finds and rates the player's own puzzles in their reviewed games; an
``ExplainJob`` explains a position's exact verdict (``ai.explain``); an ``MctsChartJob``
charts MCTS against the exact truth on one position.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from ai.answer import Answer, DecidedBy, Purpose
from ai.book import BookError, BookFile, book, early_scores
from ai.compiled import mcts_kernel, search_kernel, solver_kernel
from ai.compiled.kernel_file import forget_loader_pages, pure_python_forced
from ai.depth_truth import benchmark_boards, depth_truth
from ai.explain.explainer import ExplainError, explain, explain_move
from ai.levels import Level
from ai.mcts_truth import mcts_truth
from ai.perfect import shared_player
from ai.player import Asked, Thinking, choose_move, keep_tables_of, search_level, search_tree
from ai.reviewer import ReviewStopped, review_game
from ai.search import SearchCancelled, SearchProgress
from ai.solver import SolverStopped
from ai.textbook import textbook_search
from ai.timing import calibrate
from ai.tree import SearchTree
from game.app.memory import give_back_freed_memory
from game.app.worker_protocol import (
    CHUNK_BYTES,
    FAST_SOLVER_QUIET,
    PARENT_CHECK_EVERY,
    PROGRESS_EVERY,
    CalibrateJob,
    CalibrationResult,
    DepthJob,
    DepthResult,
    ExplainJob,
    ExplainResult,
    Job,
    JobCancelled,
    JobFailed,
    JobProgress,
    JobPurpose,
    JobRequest,
    JobResult,
    MctsChartJob,
    MctsChartResult,
    OwnPuzzlesJob,
    OwnPuzzlesResult,
    ReviewJob,
    ReviewMove,
    ReviewResult,
    SearchJob,
    TextbookJob,
    TreeChunk,
    TreeHeader,
    TreeSkipped,
    WorkerMessage,
    WorkerNote,
)
from game.board import Board
from game.i18n import _, set_language
from game.learn.own_puzzles import PuzzleSearchStopped, find_own_puzzles, with_themes
from game.rules import STANDARD, Rules

log = logging.getLogger(__name__)


def run_job(
    job_id: int,
    job: Job,
    send: Callable[[WorkerMessage], None],
    should_stop: Callable[[], bool],
    should_finish: Callable[[], bool] | None = None,
) -> None:
    """Work out one job and send its messages: progress, the answer, then the tree.
    ``should_stop`` cancels it; ``should_finish``: a move answers now (``ai.player.Thinking``)."""
    last = [0.0]
    cpu = time.process_time()

    def progress(report: SearchProgress) -> None:
        now = time.perf_counter()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            send(JobProgress(job_id, report.depth, report.completed_depth, report.nodes, report.seconds))

    # Nothing kept that the job's board cannot show: other boards' solver tables go back
    # (your own puzzles come from standard-board games; the timing plays on the standard board).
    keep_tables_of(STANDARD if isinstance(job, OwnPuzzlesJob | CalibrateJob) else job.rules)
    if isinstance(job, ReviewJob):
        _run_review(job_id, job, send, should_stop)
        return
    if isinstance(job, DepthJob):
        _run_depth(job_id, job, send, should_stop)
        return
    if isinstance(job, TextbookJob):
        _run_textbook(job_id, job, send)
        return
    if isinstance(job, OwnPuzzlesJob):
        _run_own_puzzles(job_id, job, send, should_stop)
        return
    if isinstance(job, ExplainJob):
        _run_explain(job_id, job, send, should_stop)
        return
    if isinstance(job, MctsChartJob):
        _run_mcts_chart(job_id, job, send, should_stop)
        return
    if isinstance(job, CalibrateJob):
        _run_calibration(job_id, send, should_stop)
        return
    try:
        if job.purpose is JobPurpose.PONDER:
            _ponder(job.grid, job.rules, job.to_move, should_stop)
            send(JobCancelled(job_id))  # pondering has no answer: it ends when it is stopped or done
            return
        if job.timed:  # a search whose time is shown: not beside a tree being recorded
            _TreeRecorder.of(send).wait_idle(should_stop)
        answer = _answer(job, should_stop, progress, should_finish)
    except (SearchCancelled, SolverStopped):
        send(JobCancelled(job_id))
        return
    except (EOFError, BrokenPipeError):  # the pipe to the window broke: the caller ends the worker
        raise
    except BookError as error:  # a damaged or missing book: one line, not a traceback
        log.warning("%s", _failure_text(error))
        send(JobFailed(job_id, _failure_text(error)))
        return
    except Exception as error:  # report, never kill the worker
        log.exception("search failed")
        send(JobFailed(job_id, _failure_text(error)))
        return
    result = answer.result
    tree = result.tree if result is not None else None
    if result is not None and tree is not None:
        answer = replace(answer, result=replace(result, tree=None))
    # A move or a hint searched without a tree (compiled): the Python search records the
    # same search's tree beside the next jobs (``_TreeRecorder``).
    later = tree is None and result is not None and job.record_tree and job.purpose is not JobPurpose.COMPARE
    # The answer first, so the move can be played at once; the tree follows.
    cpu = time.process_time() - cpu
    send(JobResult(job_id, job, answer, tree_follows=tree is not None or later, cpu_seconds=cpu))
    if tree is not None:
        send_tree(job_id, tree, send)
    elif later:
        _TreeRecorder.of(send).record(job_id, job, answer)
    if job.purpose is JobPurpose.MOVE and answer.move is not None and answer.decided_by.is_exact:
        # Think on the person's time: the next job (their move's answer) stops it at once.
        after = _grid_after(job.grid, job.rules, answer.move, job.to_move)
        try:
            _ponder(after, job.rules, -job.to_move, should_stop)
        except (SearchCancelled, SolverStopped):
            pass


def _answer(
    job: SearchJob,
    should_stop: Callable[[], bool],
    progress: Callable[[SearchProgress], None],
    should_finish: Callable[[], bool] | None = None,
) -> Answer:
    """The job's answer: the decider's for a move or a hint, a plain search to compare;
    a move a person may stop (``should_finish``) thinks through ``ai.player.Thinking``."""
    level = job.level
    if job.purpose is JobPurpose.COMPARE:
        result = search_level(
            level,
            job.grid,
            job.rules,
            to_move=job.to_move,
            # seed 0, ``choose_move``'s: a noisy level's own judgement
            asked=Asked(on_progress=progress, record_tree=job.record_tree, tree_budget=job.tree_budget),
            should_stop=should_stop,
        )
        return Answer(result.move, DecidedBy.SEARCH, level, result.value, result=result, nodes=result.stats.total_nodes)
    if job.purpose is JobPurpose.MOVE and should_finish is not None:
        board = Board(job.rules, job.grid, job.to_move)
        thinking = Thinking(
            level, board, None, should_stop=should_stop, should_finish=should_finish, on_report=progress
        )
        return thinking.run()
    purpose = Purpose.MOVE if job.purpose is JobPurpose.MOVE else Purpose.HINT
    # A bad opening book is the decider's to handle: it plays a stand-in and says so in
    # ``answer.note`` (``ai.player.level_here``); the screens only show the note.
    # No tree here: the compiled search answers at once, ``_TreeRecorder`` records the tree.
    return choose_move(
        level, job.grid, job.rules, job.to_move, purpose=purpose, should_stop=should_stop, on_progress=progress
    )


class _TreeRecorder:
    """Records the trees of answered moves and hints, one after another, in a thread of
    the worker: the Python search (``ai.player.search_tree``) runs the answer's search
    again, the same nodes, and its tree is sent as the answer's (a tree that would differ
    is never sent).  Meanwhile the worker takes the next jobs, whose compiled searches
    leave the interpreter to this thread."""

    PENDING = 3
    _recorders: dict[int, _TreeRecorder] = {}
    _lock = threading.Lock()

    def __init__(self, send: Callable[[WorkerMessage], None]):
        self.send = send
        self.busy = False  # a tree is being recorded
        self.tasks: queue.Queue[tuple[int, SearchJob, Answer]] = queue.Queue()
        threading.Thread(target=self._run, name="tree-recorder", daemon=True).start()

    @classmethod
    def of(cls, send: Callable[[WorkerMessage], None]) -> _TreeRecorder:
        """The recorder that sends through ``send`` (one per worker loop)."""
        with cls._lock:
            recorder = cls._recorders.get(id(send))
            if recorder is None or recorder.send is not send:
                recorder = cls._recorders[id(send)] = cls(send)
            return recorder

    def record(self, job_id: int, job: SearchJob, answer: Answer) -> None:
        """Record this answer's tree after those already waiting; past ``PENDING`` waiting
        (computer against computer outruns the Python search), the oldest is dropped:
        its search says "still arriving" instead of holding the CPU for minutes."""
        while self.tasks.qsize() >= self.PENDING:
            try:
                dropped, _, _ = self.tasks.get_nowait()
            except queue.Empty:
                break
            log.info("the tree of job %s is not recorded: newer ones came first", dropped)
            self.send(TreeSkipped(dropped))
        self.tasks.put((job_id, job, answer))

    def wait_idle(self, should_stop: Callable[[], bool]) -> None:
        """Return once no tree is being recorded or waits to be (the recording's Python
        search would share the processor and the interpreter with a timed search).

        Raises:
            SearchCancelled: ``should_stop`` returned True meanwhile.
        """
        while self.busy or not self.tasks.empty():
            if should_stop():
                raise SearchCancelled()
            time.sleep(PARENT_CHECK_EVERY / 5)

    def _run(self) -> None:
        while True:
            job_id, job, answer = self.tasks.get()
            self.busy = True
            try:
                tree = search_tree(answer, job.grid, job.rules, job.to_move, tree_budget=job.tree_budget)
                if tree is None:
                    self.send(TreeSkipped(job_id))
                else:
                    send_tree(job_id, tree, self.send)
                del tree  # sent: the window has it now
                give_back_freed_memory()
            except (EOFError, BrokenPipeError, OSError):  # the window is gone: nobody wants trees
                return
            except Exception:  # a tree is a courtesy: say it, keep the worker
                log.exception("recording the tree of job %s failed", job_id)
                self.send(TreeSkipped(job_id))
            finally:
                self.busy = False


def _failure_text(error: Exception) -> str:
    """One line naming what failed and, where there is one, the fix."""
    if isinstance(error, BookError):
        return _("the opening book cannot be used ({error}); reinstall bitbully-databases").format(error=error)
    if isinstance(error, OSError):
        return f"{error.strerror or error}" + (f": {error.filename}" if error.filename else "")
    return f"{type(error).__name__}: {error}"


def _grid_after(grid: np.ndarray, rules: Rules, move: int, side: int) -> np.ndarray:
    """The grid once ``side`` has played ``move`` (a column under gravity, else a cell)."""
    after = np.array(grid, dtype=np.int8)
    if rules.gravity:
        empty = np.flatnonzero(after[:, move] == 0)
        after[empty[-1], move] = side
    else:
        after.flat[move] = side
    return after


def _ponder(grid: np.ndarray, rules: Rules, to_move: int, should_stop: Callable[[], bool]) -> None:
    """Fill the perfect player's tables with answers to the person's likely replies."""
    shared_player().ponder(grid, rules, to_move, should_stop)


def send_tree(job_id: int, tree: SearchTree, send: Callable[[WorkerMessage], None]) -> None:
    """The tree's header, then its node data in chunks (a memoryview: no whole copy)."""
    raw = memoryview(tree.data).cast("B")
    chunks = (len(raw) + CHUNK_BYTES - 1) // CHUNK_BYTES
    hits = (
        None
        if tree.table_hits is None
        else tuple((index, hit.entry, hit.depth, hit.bound.value) for index, hit in sorted(tree.table_hits.items()))
    )
    header = TreeHeader(job_id, tree.grid, tree.rules, tree.to_move, tree.depth, tree.pruning, len(raw), chunks, hits)
    send(header)
    for index in range(chunks):
        send(TreeChunk(job_id, index, bytes(raw[index * CHUNK_BYTES : (index + 1) * CHUNK_BYTES])))


def serve(
    receive: Callable[[], JobRequest | None],
    send: Callable[[WorkerMessage], None],
    cancelled_upto: Any,
    parent_alive: Callable[[], bool] | None = None,
    finish_upto: Any = None,
) -> None:
    """The worker loop: take jobs until None and answer each (process or thread).

    ``cancelled_upto`` says every job up to its value is cancelled; ``finish_upto`` (where
    given) that the job of its value is to answer now with its best move so far."""
    checked = [time.perf_counter()]
    send = _one_at_a_time(send)  # the fast solver's notes come from another thread
    threading.Thread(target=_prepare_fast_solver, args=(send,), name="fast-solver-notes", daemon=True).start()

    while True:
        request = receive()
        if request is None:
            return
        job_id = request.job_id

        def should_stop(job_id: int = job_id) -> bool:
            if parent_alive is not None:
                now = time.perf_counter()
                if now - checked[0] > PARENT_CHECK_EVERY:
                    checked[0] = now
                    if not parent_alive():
                        os._exit(0)  # nobody is left to answer: a worker has nothing to save
            return bool(cancelled_upto.value >= job_id)

        def should_finish(job_id: int = job_id) -> bool:
            return finish_upto is not None and bool(finish_upto.value == job_id)

        if should_stop():
            continue
        run_job(job_id, request.job, send, should_stop, should_finish)
        forget_what_is_not_shown()


def forget_what_is_not_shown() -> None:
    """After a job, give back what it left and nothing shows: the pages of the books' files
    its searches read (the system's page cache keeps them) and the allocator's free pages
    (a recorded tree, a search's tables).  The solver's tables stay: Perfect's next move
    and its thinking on the person's time read them."""
    for which in BookFile:
        book(which).forget_pages()
    give_back_freed_memory()


def _one_at_a_time(send: Callable[[WorkerMessage], None]) -> Callable[[WorkerMessage], None]:
    """``send`` behind a lock: a pipe's messages must not interleave."""
    lock = threading.Lock()

    def locked(message: WorkerMessage) -> None:
        with lock:
            send(message)

    return locked


def _prepare_fast_solver(send: Callable[[WorkerMessage], None]) -> None:
    """Load the fast solver in the background (jobs use the Python solver until it is
    ready); meanwhile read the opening tables Perfect's first move needs (about 0.3 s,
    while the person is still on the title menu).  When the fast solver takes a while
    (compiling it: the first start), say so, and say when it is ready; a failure is said
    once too."""
    started = time.perf_counter()
    searching = search_kernel.LOADER.prepare_in_background()  # moves search in Python until it is loaded
    preparing = solver_kernel.LOADER.prepare_in_background()
    try:
        early_scores()  # both cached, and safe to ask from two threads at once
        book()
    except (BookError, OSError) as error:  # said by the jobs that need them
        log.debug("reading the opening tables ahead: %s", error)
    preparing.join(max(0.0, FAST_SOLVER_QUIET - (time.perf_counter() - started)))
    announced = preparing.is_alive()
    if announced:
        send(
            WorkerNote(
                _("{capitalize}: exact answers are slower until it is ready").format(
                    capitalize=solver_kernel.LOADER.status().capitalize()
                )
            )
        )
    preparing.join()
    playouts = mcts_kernel.LOADER.prepare_in_background()  # after the solver: numba compiles one kernel at a time
    if solver_kernel.LOADER.is_ready():
        if announced:
            seconds = time.perf_counter() - started
            send(
                WorkerNote(
                    _("The fast solver is ready ({seconds:.0f} s): exact answers are quick now").format(seconds=seconds)
                )
            )
    elif not pure_python_forced():
        send(WorkerNote(no_fast_solver_note()))
    searching.join()
    playouts.join()
    forget_loader_pages()  # every kernel is loaded: llvmlite's own pages are not needed (46 MB)


def no_fast_solver_note() -> str:
    """What the window says once when the fast solver cannot be used: in the lite program
    (no numba: by design, not a fault) what that means for the player, else what failed."""
    if importlib.util.find_spec("numba") is None:  # found, not imported
        return _(
            "This is the lite program, without the compiled solver: Perfect thinks longer past the opening "
            "book; everything else plays as usual."
        )
    return solver_kernel.LOADER.status().capitalize()


def process_main(
    requests: Connection, replies: Connection, cancelled_upto: Any, parent_pid: int, finish_upto: Any = None
) -> None:
    """The worker process: serve until told to stop, the pipe closes or the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is for the window, which stops us

    def parent_alive() -> bool:
        return os.getppid() == parent_pid

    def receive() -> JobRequest | None:
        while not requests.poll(PARENT_CHECK_EVERY):
            if not parent_alive():
                return None
        message = requests.recv()
        if not isinstance(message, JobRequest):
            return None
        set_language(message.language)  # the AI's notes in the window's language
        return message

    try:
        serve(receive, replies.send, cancelled_upto, parent_alive, finish_upto)
    except (EOFError, OSError):  # the window is gone: nobody to answer, nothing to save
        os._exit(0)  # at once, without the interpreter's slow tidy-up


def _run_review(
    job_id: int, job: ReviewJob, send: Callable[[WorkerMessage], None], should_stop: Callable[[], bool]
) -> None:
    """Review the game, sending each move's review as it is made, then the whole review."""
    total = len(job.moves)

    def on_move(move: Any) -> None:
        send(ReviewMove(job_id, move, move.ply, total))

    review = None
    with _job_reported(job_id, send, ReviewStopped, "review"):
        review = review_game(
            job.rules,
            list(job.moves),
            start=job.start,
            start_to_move=job.start_to_move,
            depths=dict(job.depths),
            should_stop=should_stop,
            player=shared_player() if job.rules == STANDARD else None,
            done=job.done,
            on_move=on_move,
        )
    if review is not None:
        send(ReviewResult(job_id, review))


@contextmanager
def _job_reported(
    job_id: int, send: Callable[[WorkerMessage], None], stopped: type[Exception], what: str
) -> Iterator[None]:
    """Run a job's body: ``stopped`` is sent as ``JobCancelled``, any other failure (a bad
    stored game, a damaged book) is logged and sent as ``JobFailed`` once, and the worker
    lives; a broken pipe to the window goes on to the caller, which ends the worker."""
    try:
        yield
    except stopped:
        send(JobCancelled(job_id))
    except (EOFError, BrokenPipeError):  # the window is gone: the caller ends the worker
        raise
    except Exception as error:
        log.warning("the %s failed: %s", what, error)
        send(JobFailed(job_id, _failure_text(error)))


def _run_depth(
    job_id: int, job: DepthJob, send: Callable[[WorkerMessage], None], should_stop: Callable[[], bool]
) -> None:
    """Depth against truth: this position first (sent at once), then the benchmark sample."""
    board = Board(job.rules, job.grid, job.to_move)
    bench = None
    # The worker's own solver, emptied: a second one's tables would be another 75 MB at the peak.
    player = shared_player()
    player.solver.clear()
    with _job_reported(job_id, send, SearchCancelled, "depth chart"):
        label = _("this position ({count} moves to choose from)").format(count=len(board.legal_moves()))
        current = depth_truth([board], label, should_stop=should_stop, player=player)
        if job.rules != STANDARD or not job.sample:  # the benchmark is the standard board's
            send(DepthResult(job_id, current, None, ""))
            return
        send(DepthResult(job_id, current, None, _("Picking the benchmark sample..."), final=False))
        player.solver.clear()
        boards = benchmark_boards(job.sample, player=player)
        player.solver.clear()

        def on_position(number: int, count: int) -> None:
            send(
                DepthResult(
                    job_id,
                    current,
                    None,
                    _("Measuring benchmark position {number}/{count}...").format(number=number + 1, count=count),
                    final=False,
                )
            )

        bench = depth_truth(
            boards,
            _("middle-game benchmark positions where a move can change the outcome"),
            should_stop=should_stop,
            on_position=on_position,
            player=player,
        )
    if bench is not None:
        send(DepthResult(job_id, current, bench, ""))


def _run_textbook(job_id: int, job: TextbookJob, send: Callable[[WorkerMessage], None]) -> None:
    """The textbook search's recorded tree (small by the caller's choice of depth)."""
    board = Board(job.rules, job.grid, job.to_move)
    try:
        result = textbook_search(board, job.depth, pruning=job.pruning, record_tree=True)
    except Exception as error:  # said once, the worker lives
        log.warning("the textbook search failed: %s", error)
        send(JobFailed(job_id, _failure_text(error)))
        return
    tree = result.tree
    answer = Answer(
        result.move, DecidedBy.SEARCH, Level(job.depth, job.pruning), result.value, nodes=result.stats.nodes
    )
    send(JobResult(job_id, job, answer, tree_follows=tree is not None))
    if tree is not None:
        send_tree(job_id, tree, send)


def _run_own_puzzles(
    job_id: int, job: OwnPuzzlesJob, send: Callable[[WorkerMessage], None], should_stop: Callable[[], bool]
) -> None:
    """The player's own puzzles in the reviewed games: found by the solver, rated by the levels."""
    with _job_reported(job_id, send, PuzzleSearchStopped, "puzzle search"):
        found, looked = find_own_puzzles(job.games, should_stop=should_stop)
        themed = tuple(with_themes(puzzle, should_stop=should_stop) for puzzle in job.unthemed)
        send(OwnPuzzlesResult(job_id, tuple(found), tuple(looked), themed))


def _run_explain(
    job_id: int, job: ExplainJob, send: Callable[[WorkerMessage], None], should_stop: Callable[[], bool]
) -> None:
    """The explanation of a position (or of one column of it), asked of this process's solver."""
    with _job_reported(job_id, send, SolverStopped, "explanation"):
        try:
            if job.move is None:
                found = explain(job.grid, job.to_move, rules=job.rules, should_stop=should_stop)
            else:
                found = explain_move(job.grid, job.to_move, job.move, rules=job.rules, should_stop=should_stop)
        except ExplainError as error:  # a position it does not take: said, not logged as a failure
            send(JobFailed(job_id, str(error)))
            return
        send(ExplainResult(job_id, job, found))


def _run_mcts_chart(
    job_id: int, job: MctsChartJob, send: Callable[[WorkerMessage], None], should_stop: Callable[[], bool]
) -> None:
    """MCTS against the truth on one position: each search said as it starts, then the chart."""
    board = Board(job.rules, job.grid, job.to_move)
    player = shared_player()  # the worker's own solver, emptied: a second one's tables would double the peak
    player.solver.clear()

    def on_step(done: int, total: int) -> None:
        said = _("Searching {done} of {total} (MCTS and MCTS-Solver at each budget)...")
        send(MctsChartResult(job_id, None, said.format(done=done + 1, total=total), final=False))

    with _job_reported(job_id, send, SearchCancelled, "MCTS chart"):
        truth = mcts_truth(
            [(_("this position"), board)],
            job.budgets,
            seed=job.seed,
            should_stop=should_stop,
            on_step=on_step,
            player=player,
        )
        send(MctsChartResult(job_id, truth, ""))


def _run_calibration(job_id: int, send: Callable[[WorkerMessage], None], should_stop: Callable[[], bool]) -> None:
    """Time this machine's search once the compiled kernels are ready (at the first start
    they compile in the background: a timing meanwhile would measure the Python search and
    a busy processor)."""
    with _job_reported(job_id, send, SearchCancelled, "timing"):
        for loader in (search_kernel.LOADER, solver_kernel.LOADER, mcts_kernel.LOADER):
            preparing = loader.prepare_in_background()
            while preparing.is_alive():
                preparing.join(PARENT_CHECK_EVERY)
                if should_stop():
                    raise SearchCancelled()
        send(CalibrationResult(job_id, calibrate(should_stop)))
