"""Runs the AI away from the frame loop, in a worker process, and can stop it at once.

The frame loop submits a job and polls for messages each frame; it never waits.  A
shared counter says "every job up to N is cancelled": the search polls it every few
thousand nodes, so Undo, Restart, Menu and closing the window stop it within
milliseconds, and a result of a cancelled job is never delivered.

A recorded tree can hold millions of nodes; it travels in chunks of about a megabyte so
that taking it in never costs a frame more than a few milliseconds.  If a process cannot
be started (some sandboxes), a thread does the same work.  No pygame here.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import threading
import time
from array import array
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ai.search import SearchCancelled, SearchResult, search
from ai.tree import SearchTree
from game.rules import Mode, Rules

log = logging.getLogger(__name__)

CHUNK_BYTES = 1 << 18
POLL_BUDGET = 0.003  # seconds of tree intake per frame
PROGRESS_EVERY = 0.05  # seconds between two progress messages


@dataclass(frozen=True)
class SearchJob:
    """What to search: the position, the rules and the level."""

    grid: np.ndarray
    rules: Rules
    to_move: int
    depth: int
    pruning: bool = True
    time_limit: float | None = None
    record_tree: bool = True
    tree_budget: int = 1_000_000
    verdict_seconds: float = 0.0  # > 0: also try the exact solver for that long
    tag: str = "move"  # what the job is for: "move", "hint", "compare"


@dataclass(frozen=True)
class JobProgress:
    job_id: int
    depth: int
    completed_depth: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class JobResult:
    job_id: int
    job: SearchJob
    result: SearchResult
    verdict: str | None = None


@dataclass(frozen=True)
class TreeReady:
    """The recorded tree of an earlier result has arrived in full."""

    job_id: int
    tree: SearchTree


@dataclass(frozen=True)
class JobFailed:
    job_id: int
    message: str


def _perfect_play_verdict(job: SearchJob, should_stop) -> str | None:
    """The exact solver's verdict for the side to move, or None if out of time or rules."""
    from ai.solver import Solver, SolverError, SolverStopped, verdict_text

    rules = job.rules
    if rules.mode is not Mode.CLASSIC or not rules.gravity or job.verdict_seconds <= 0:
        return None
    deadline = time.perf_counter() + job.verdict_seconds
    try:
        solution = Solver(rules).solve_grid(
            job.grid, job.to_move, should_stop=lambda: should_stop() or time.perf_counter() > deadline
        )
    except (SolverStopped, SolverError):
        return None
    own = int((job.grid == job.to_move).sum())
    other = int((job.grid == -job.to_move).sum())
    return verdict_text(solution.score, own, other, rules.cells)


def serve(requests, replies, cancelled_upto) -> None:
    """The worker loop: take jobs until None, send progress, tree chunks and results."""
    while True:
        message = requests.get()
        if message is None:
            return
        job_id, job = message

        def should_stop(job_id: int = job_id) -> bool:
            return cancelled_upto.value >= job_id

        if should_stop():
            continue
        last = [0.0]

        def progress(report, job_id: int = job_id) -> None:
            now = time.perf_counter()
            if now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                replies.put(
                    (
                        "progress",
                        JobProgress(job_id, report.depth, report.completed_depth, report.nodes, report.seconds),
                    )
                )

        try:
            result = search(
                job.grid,
                job.rules,
                job.depth,
                pruning=job.pruning,
                record_tree=job.record_tree,
                time_limit=job.time_limit,
                to_move=job.to_move,
                should_stop=should_stop,
                on_progress=progress,
                tree_budget=job.tree_budget,
            )
            verdict = _perfect_play_verdict(job, should_stop) if job.verdict_seconds else None
            tree = result.tree
            raw = tree.data.tobytes() if tree is not None else b""
            chunks = (len(raw) + CHUNK_BYTES - 1) // CHUNK_BYTES if tree is not None else -1
            # The answer first, so the move can be played at once; the tree follows.
            replies.put(("result", job_id, replace(result, tree=None), verdict, chunks))
            for start in range(0, len(raw), CHUNK_BYTES):
                replies.put(("chunk", job_id, raw[start : start + CHUNK_BYTES]))
        except SearchCancelled:
            replies.put(("cancelled", job_id))
        except Exception as error:  # report, never kill the worker
            log.exception("search failed")
            replies.put(("error", job_id, f"{type(error).__name__}: {error}"))


class _Counter:
    """The thread backend's stand-in for a shared ``multiprocessing.Value``."""

    def __init__(self) -> None:
        self.value = 0


class AIWorker:
    """Owns the worker; started on the first job, stopped by ``shutdown``."""

    def __init__(self, use_process: bool = True):
        self.use_process = use_process
        self._started = False
        self._next_id = 0
        self.current: int | None = None  # the job whose messages are wanted
        self._incoming: dict[int, list] = {}  # job id -> [data, chunks still to come, result]
        self._jobs: dict[int, SearchJob] = {}

    # -- life cycle -----------------------------------------------------------------
    def _start(self) -> None:
        if self._started:
            return
        if self.use_process:
            try:
                context = multiprocessing.get_context("spawn")
                self._requests: Any = context.Queue()
                self._replies: Any = context.Queue()
                self._cancelled: Any = context.Value("q", 0, lock=False)
                self._process = context.Process(
                    target=serve,
                    args=(self._requests, self._replies, self._cancelled),
                    name="connect4-ai",
                    daemon=True,
                )
                self._process.start()
                self._started = True
                return
            except (OSError, RuntimeError, ValueError) as error:
                log.warning("cannot start the AI process (%s): using a thread", error)
        self.use_process = False
        self._requests = queue.Queue()
        self._replies = queue.Queue()
        self._cancelled = _Counter()
        self._thread = threading.Thread(
            target=serve, args=(self._requests, self._replies, self._cancelled), name="connect4-ai", daemon=True
        )
        self._thread.start()
        self._started = True

    def shutdown(self, timeout: float = 2.0) -> None:
        """Cancel everything and stop the worker (closing the window)."""
        if not self._started:
            return
        self._cancelled.value = self._next_id + 1_000_000
        self._requests.put(None)
        if self.use_process:
            self._process.join(timeout)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(1.0)
            for channel in (self._requests, self._replies):
                channel.cancel_join_thread()
                channel.close()
        else:
            self._thread.join(timeout)
        self._started = False

    def is_alive(self) -> bool:
        if not self._started:
            return False
        return self._process.is_alive() if self.use_process else self._thread.is_alive()

    # -- jobs -----------------------------------------------------------------------
    def submit(self, job: SearchJob) -> int:
        """Start ``job`` (cancelling the one under way); return its id."""
        self._start()
        self.cancel()
        self._next_id += 1
        self.current = self._next_id
        self._jobs = {key: value for key, value in self._jobs.items() if key in self._incoming}
        self._jobs[self.current] = job
        self._requests.put((self.current, job))
        return self.current

    def cancel(self) -> None:
        """Stop the current job; its messages will be ignored."""
        if self._started and self.current is not None:
            self._cancelled.value = self.current
        self.current = None

    def poll(self, budget: float = POLL_BUDGET) -> list[JobProgress | JobResult | TreeReady | JobFailed]:
        """Messages that have arrived for the current job and for trees on their way.

        Never blocks for long: tree chunks are taken in for about ``budget`` seconds per
        call, so a big tree costs a few milliseconds in each of several frames.
        """
        if not self._started:
            return []
        if self.use_process and self.current is not None and not self._process.is_alive():
            return [self._worker_died()]
        events: list[JobProgress | JobResult | TreeReady | JobFailed] = []
        deadline = time.perf_counter() + budget
        while time.perf_counter() < deadline:
            try:
                message = self._replies.get_nowait()
            except (queue.Empty, OSError, EOFError, ValueError):
                break
            kind, payload = message[0], message[1]
            job_id = payload.job_id if kind == "progress" else payload
            if kind == "chunk":
                incoming = self._incoming.get(job_id)
                if incoming is not None:
                    incoming[0].frombytes(message[2])
                    incoming[1] -= 1
                    if incoming[1] == 0:
                        del self._incoming[job_id]
                        events.append(TreeReady(job_id, self._make_tree(job_id, incoming[0], incoming[2])))
                continue
            if job_id != self.current:
                continue  # a cancelled or replaced job
            if kind == "progress":
                events.append(payload)
            elif kind == "result":
                _, _, result, verdict, chunks = message
                job = self._jobs[job_id]
                if chunks == 0:
                    result = replace(result, tree=self._make_tree(job_id, array("i"), result))
                elif chunks > 0:
                    self._incoming[job_id] = [array("i"), chunks, result]
                events.append(JobResult(job_id, job, result, verdict))
                self.current = None
            elif kind == "error":
                events.append(JobFailed(job_id, message[2]))
                self.current = None
            elif kind == "cancelled":
                self.current = None
        return events

    def _make_tree(self, job_id: int, data: array, result: SearchResult) -> SearchTree:
        job = self._jobs[job_id]
        return SearchTree(data, job.rules, np.array(job.grid), job.to_move, result.depth, job.pruning)

    @property
    def receiving(self) -> bool:
        """Tell whether a tree is still on its way."""
        return bool(self._incoming)

    def _worker_died(self) -> JobFailed:
        """The process ended under a job: report it and carry on with a thread."""
        job_id = self.current or 0
        log.warning("the AI process stopped (exit code %s): using a thread", self._process.exitcode)
        self.shutdown(timeout=0.1)
        self.use_process = False
        self.current = None
        return JobFailed(job_id, "the AI process stopped; the computer now thinks in a thread")

    def wait(self, timeout: float = 30.0) -> list:
        """Poll until the current job ends (for scripts and tests, not the frame loop)."""
        deadline = time.perf_counter() + timeout
        events: list = []
        while (self.current is not None or self._incoming) and time.perf_counter() < deadline:
            events += self.poll(budget=0.05)
            time.sleep(0.002)
        return events
