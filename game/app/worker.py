"""Runs the AI away from the frame loop, in a worker process, and can stop it at once.

One road: every piece of AI work the window asks for (moves, hints, column scores, the
review, the analysis board, comparisons, the depth chart, the code walk's and practice's
trees) is a job here.  This module is the window's side and stays light: the worker's
side (``game.app.worker_jobs``: the decider, the solver, the book, numba) is imported
only in the worker process (through ``game.app.worker_start``), so the window process
never loads the solver's core.  Neither side imports the other: what they say to each
other is ``game.app.worker_protocol``.

The frame loop submits a job and takes in what has arrived once per frame; it never
waits.  The messages both ways are frozen dataclasses of the protocol (``JobProgress``, ``JobResult``,
``ReviewMove``, ``ReviewResult``, ``DepthResult``, ``TreeHeader``, ``TreeChunk``,
``JobCancelled``, ``JobFailed``).  One job runs at a time: submitting one cancels the
job under way, and a scene whose job was cancelled that way asks again when it is on
top (``AIWorker.current`` tells it).

Transport: two one-way pipes.  ``Connection.send`` writes length-prefixed messages; on
the window's side a reader thread receives them (only after ``poll()``) and hands whole
messages to the frame loop through a ``queue.Queue``, so a worker that dies half-way
through a message can never block a frame: the reader sees the pipe close, and the
frame loop hears "the worker is gone" within a second.

Cancelling: a shared counter says "every job up to N is cancelled"; the search polls it
every few thousand nodes, so Undo, Restart, Menu and closing the window stop it within
milliseconds, and the result of a cancelled job is never delivered.  Finishing: a second
shared value names the job to answer now (``finish``: a person's Stop on a long move);
the move's search stops at the same checks and the best move found so far answers.  At the same checks
(and while idle) the worker asks whether its parent is still alive and exits if not.

Jobs: a MOVE, HINT or SCORES ``SearchJob`` plays its ``Level`` through
``ai.player.choose_move`` (the one decider, as in the CLI) and sends back its ``Answer``
(a hint's carries every column's exact score where the solver finds them); after a book
or solver move the worker ponders on the person's time until the next job; a COMPARE
job is a plain search with the level's settings, for the tree overlay.  A ``ReviewJob``
streams each move's review; a ``DepthJob`` answers in steps; a ``TextbookJob`` records
the textbook's tree.  A job that fails (a damaged book, say) answers ``JobFailed`` with
the cause in words, once; the worker lives on.

A recorded tree can hold a million nodes (44 MB): it is sent after the answer, with its
own ``TreeHeader``, in chunks of a quarter megabyte, and rebuilt in one place
(``TreeHeader.build``).  If the process cannot be started or dies, a thread does the
same work (said once).  No pygame here.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import threading
import time
from array import array
from multiprocessing.connection import Connection
from typing import Any, Protocol

from ai.tree import FIELDS
from game.app import worker_start
from game.app.worker_protocol import (
    CHUNK_BYTES,
    DepthResult,
    Job,
    JobProgress,
    JobRequest,
    JobResult,
    MctsChartResult,
    ReviewMove,
    TreeChunk,
    TreeHeader,
    TreeReady,
    TreeSkipped,
    WorkerEvent,
    WorkerLost,
    WorkerMessage,
    WorkerNote,
)
from game.i18n import _, language

log = logging.getLogger(__name__)

POLL_BUDGET = 0.003  # seconds of tree intake per frame
READER_POLL = 0.1  # seconds the reader thread waits on the pipe before checking for shutdown
INBOX_MESSAGES = 8  # messages read ahead of the frame loop (at most 2 MB of tree chunks)


class JobOwner(Protocol):
    """Who submitted a job: the App hands it the job's events (a ``Scene``)."""

    def on_worker_event(self, event: WorkerEvent) -> None: ...


class _WorkerGone:
    """Put by the reader thread when the worker's pipe closed."""


def _read_replies(replies: Connection, inbox: queue.Queue[WorkerMessage | _WorkerGone], stop: threading.Event) -> None:
    """The window's reader thread: whole messages into ``inbox``, then ``_WorkerGone``.

    ``inbox`` is bounded, so a tree waits in the worker, not in the window's memory,
    until the frame loop takes it in."""

    def hand_over(message: WorkerMessage | _WorkerGone) -> None:
        while not stop.is_set():
            try:
                inbox.put(message, timeout=READER_POLL)
                return
            except queue.Full:
                continue

    try:
        while not stop.is_set():
            if replies.poll(READER_POLL):
                hand_over(replies.recv())
    except Exception as error:  # EOF, a torn message, a closed pipe: the worker is gone
        log.debug("AI reply pipe closed: %s", error)
    hand_over(_WorkerGone())


class _Counter:
    """The thread backend's stand-in for a shared ``multiprocessing.Value``."""

    def __init__(self) -> None:
        self.value = 0


class _TreeIntake:
    """A tree on its way: its node data allocated once at the header's size (no growing
    and copying as chunks arrive), filled chunk by chunk at their offsets."""

    def __init__(self, header: TreeHeader):
        if header.nbytes % (FIELDS * 4) or header.nbytes < 0:
            raise ValueError(
                _("tree of job {job_id}: {nbytes} bytes is not a whole number of nodes").format(
                    job_id=header.job_id, nbytes=header.nbytes
                )
            )
        self.header = header
        self.data = array("i", [0]) * (header.nbytes // 4)
        self._bytes = memoryview(self.data).cast("B")
        self.received = 0

    def take(self, chunk: TreeChunk) -> None:
        start = chunk.index * CHUNK_BYTES
        end = start + len(chunk.data)
        if chunk.index >= self.header.chunks or end > self.header.nbytes:
            raise ValueError(
                _("tree of job {job_id}: chunk {index} lies outside its {nbytes} bytes").format(
                    job_id=chunk.job_id, index=chunk.index, nbytes=self.header.nbytes
                )
            )
        self._bytes[start:end] = chunk.data
        self.received += 1

    def release(self) -> array[int]:
        self._bytes.release()  # the array may be resized again once no view is held
        return self.data


# -- the window side --------------------------------------------------------------------
class AIWorker:
    """Owns the worker; started on the first job, stopped by ``shutdown``.

    ``submit(job, owner)`` starts a job (cancelling the one under way); ``poll()`` takes
    in what has arrived and returns ``(owner, event)`` pairs; the App hands each event
    to its owner if that scene is still on the stack.
    """

    def __init__(self, use_process: bool = True):
        self.use_process = use_process
        self._started = False
        self._next_id = 0
        self.current: int | None = None  # the job whose messages are wanted
        self._owners: dict[int, JobOwner | None] = {}  # jobs with messages still wanted
        self._jobs: dict[int, Job] = {}
        self._awaiting_tree: set[int] = set()  # answered jobs whose tree is still to come
        self._intake: dict[int, _TreeIntake] = {}
        self._inbox: queue.Queue[WorkerMessage | _WorkerGone] = queue.Queue()
        self._cancelled: Any = _Counter()
        self._finish: Any = _Counter()  # the job to answer now with its best move so far
        self._process: Any = None
        self._thread: threading.Thread | None = None
        self._requests: Connection | None = None
        self._thread_requests: queue.Queue[JobRequest | None] = queue.Queue()
        self._reader_stop = threading.Event()
        self.lost_message: str | None = None  # said once when the process died

    # -- life cycle -----------------------------------------------------------------
    def start(self) -> None:
        """Start the worker now, not on the first job: starting a process costs the
        window a frame of about 0.2 s, better spent while the title menu stands still."""
        self._start()

    def _start(self) -> None:
        if self._started:
            return
        if self.use_process:
            try:
                self._start_process()
                return
            except (OSError, RuntimeError, ValueError) as error:
                log.warning("cannot start the AI process (%s): using a thread", error)
        self._start_thread()

    def _start_process(self) -> None:
        context = multiprocessing.get_context("spawn")
        worker_requests, self._requests = context.Pipe(duplex=False)
        replies, worker_replies = context.Pipe(duplex=False)
        self._cancelled = context.Value("q", self._cancelled.value, lock=False)
        self._finish = context.Value("q", self._finish.value, lock=False)
        self._process = context.Process(
            target=worker_start.process_main,
            args=(worker_requests, worker_replies, self._cancelled, os.getpid(), self._finish),
            name="connect4-ai",
            daemon=True,
        )
        try:
            self._process.start()
        finally:
            worker_requests.close()  # the worker holds these ends now: a dead worker
            worker_replies.close()  # closes the pipe, which the reader sees at once
        self._inbox = queue.Queue(maxsize=INBOX_MESSAGES)
        self._reader_stop = threading.Event()
        reader = threading.Thread(
            target=_read_replies, args=(replies, self._inbox, self._reader_stop), name="connect4-ai-reader", daemon=True
        )
        reader.start()
        self._replies = replies
        self._reader = reader
        self.use_process = True
        self._started = True

    def _start_thread(self) -> None:
        """The fallback where no process can run: the same work in a thread of the window
        (said once), which then loads the solver after all."""
        self.use_process = False
        self._inbox = queue.Queue()
        self._thread_requests = queue.Queue()
        self._cancelled = _copy_counter(self._cancelled)
        self._finish = _copy_counter(self._finish)
        self._thread = threading.Thread(
            target=worker_start.serve_in_thread,
            args=(self._thread_requests.get, self._inbox.put, self._cancelled, self._finish),
            name="connect4-ai",
            daemon=True,
        )
        self._thread.start()
        self._started = True

    def _send(self, request: JobRequest | None) -> None:
        if self.use_process:
            assert self._requests is not None
            try:
                self._requests.send(request)
            except OSError as error:  # the worker is gone; the reader will say so
                log.debug("cannot send to the AI process: %s", error)
        else:
            self._thread_requests.put(request)

    def shutdown(self, timeout: float = 2.0) -> None:
        """Cancel everything and stop the worker (closing the window)."""
        if not self._started:
            return
        self._cancelled.value = self._next_id + 1_000_000
        self._send(None)
        if self.use_process:
            self._stop_process(timeout)
        elif self._thread is not None:
            self._thread.join(timeout)
        self._started = False
        self.current = None

    def _stop_process(self, timeout: float) -> None:
        """Stop reading first and close our end of the replies: a worker blocked sending
        a tree then fails at once (broken pipe) and ends, instead of waiting for a reader."""
        self._reader_stop.set()
        self._reader.join(1.0)
        self._replies.close()
        self._process.join(timeout)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(1.0)
        assert self._requests is not None
        self._requests.close()

    def is_alive(self) -> bool:
        if not self._started:
            return False
        if self.use_process:
            return bool(self._process.is_alive())
        return self._thread is not None and self._thread.is_alive()

    @property
    def pid(self) -> int | None:
        """The worker process's id (None for the thread backend)."""
        return self._process.pid if self._started and self.use_process else None

    # -- jobs -----------------------------------------------------------------------
    def submit(self, job: Job, owner: JobOwner | None = None) -> int:
        """Start ``job`` for ``owner`` (cancelling the one under way); return its id."""
        self._start()
        self.cancel()
        self._cancelled.value = self._next_id  # every earlier job, and any pondering after it, stops
        self._next_id += 1
        self.current = self._next_id
        self._owners[self.current] = owner
        self._jobs[self.current] = job
        self._send(JobRequest(self.current, job, language()))
        return self.current

    def cancelled_upto(self) -> int:
        """Every job with an id up to this one is cancelled (the worker stops it at its next check)."""
        return int(self._cancelled.value)

    def cancel(self) -> None:
        """Stop the current job; its messages will be ignored."""
        if self.current is not None:
            self._cancelled.value = self.current
            self._forget(self.current)
        self.current = None

    def finish(self) -> None:
        """Ask the current job (a computer's move) to answer now with the best move it has
        found so far (``ai.player.Thinking``); its answer comes as usual."""
        if self.current is not None:
            self._finish.value = self.current

    def _forget(self, job_id: int) -> None:
        if job_id not in self._awaiting_tree and job_id not in self._intake:
            self._owners.pop(job_id, None)
            self._jobs.pop(job_id, None)

    def poll(self, budget: float = POLL_BUDGET) -> list[tuple[JobOwner | None, WorkerEvent]]:
        """What has arrived, as ``(owner, event)``; never blocks.

        Tree chunks are taken in for about ``budget`` seconds per call, so a big tree
        costs a few milliseconds in each of several frames.
        """
        if not self._started:
            return []
        events: list[tuple[JobOwner | None, WorkerEvent]] = []
        deadline = time.perf_counter() + budget
        while time.perf_counter() < deadline:
            try:
                message = self._inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(message, _WorkerGone):
                events.append((None, self._worker_lost()))
                break
            event = self._take(message)
            if event is not None:
                events.append((self._owners.get(event.job_id), event))
                self._after(event)
        return events

    def _take(self, message: WorkerMessage) -> WorkerEvent | None:
        """Turn one message into an event for its owner, or None if nobody wants it."""
        job_id = message.job_id
        if isinstance(message, TreeHeader):
            if job_id in self._awaiting_tree:
                self._awaiting_tree.discard(job_id)
                try:
                    self._intake[job_id] = _TreeIntake(message)
                except ValueError as error:
                    log.warning("dropping a tree: %s", error)
                    self._forget(job_id)
                    return None
                return self._tree_progress(job_id)
            return None
        if isinstance(message, TreeChunk):
            intake = self._intake.get(job_id)
            if intake is None:
                return None
            try:
                intake.take(message)
            except ValueError as error:
                log.warning("dropping a tree: %s", error)
                del self._intake[job_id]
                self._forget(job_id)
                return None
            return self._tree_progress(job_id)
        if isinstance(message, WorkerNote):
            return message
        if isinstance(message, TreeSkipped):
            if job_id not in self._awaiting_tree:
                return None
            self._awaiting_tree.discard(job_id)
            return message
        if job_id != self.current:
            return None  # a cancelled or replaced job
        if isinstance(message, JobResult) and message.tree_follows:
            self._awaiting_tree.add(job_id)
        return message

    def _tree_progress(self, job_id: int) -> WorkerEvent | None:
        intake = self._intake[job_id]
        if intake.received < intake.header.chunks:
            return None
        del self._intake[job_id]
        try:
            return TreeReady(job_id, intake.header.build(intake.release()))
        except ValueError as error:
            log.warning("dropping a tree: %s", error)
            self._forget(job_id)
            return None

    def _after(self, event: WorkerEvent) -> None:
        """Book-keeping once an event is handed out: a job's last message ends it."""
        if isinstance(event, JobProgress | ReviewMove) or (isinstance(event, DepthResult) and not event.final):
            return
        if isinstance(event, MctsChartResult) and not event.final:
            return
        if event.job_id == self.current:
            self.current = None
        self._forget(event.job_id)

    def is_pending(self, job_id: int) -> bool:
        """Tell whether ``job_id`` still has messages to come: running, or its tree on the way."""
        return job_id == self.current or job_id in self._awaiting_tree or job_id in self._intake

    @property
    def receiving(self) -> bool:
        """Tell whether a tree is still on its way."""
        return bool(self._intake or self._awaiting_tree)

    def _worker_lost(self) -> WorkerLost:
        """The process ended: say so once, carry on in a thread, rerun the current job."""
        self._stop_process(timeout=0.5)  # reaps it, so its exit code is known
        exit_code = self._process.exitcode if self._process is not None else None
        message = _("The AI process stopped")
        message += _(" (exit code {exit_code})").format(exit_code=exit_code) if exit_code is not None else ""
        message += _("; the computer thinks in a thread now")
        log.warning("%s", message)
        self.lost_message = message
        self._awaiting_tree.clear()
        self._intake.clear()
        self._started = False
        self._start_thread()
        if self.current is not None:
            self._send(JobRequest(self.current, self._jobs[self.current], language()))
        for job_id in list(self._owners):
            if job_id != self.current:
                self._forget(job_id)
        return WorkerLost(message)

    def wait(self, timeout: float = 30.0) -> list[WorkerEvent]:
        """Poll until the current job ends (for scripts and tests, not the frame loop)."""
        deadline = time.perf_counter() + timeout
        events: list[WorkerEvent] = []
        while (self.current is not None or self.receiving) and time.perf_counter() < deadline:
            events += [event for _, event in self.poll(budget=0.05)]
            time.sleep(0.002)
        return events


def _copy_counter(shared: Any) -> _Counter:
    counter = _Counter()
    counter.value = int(shared.value)
    return counter
