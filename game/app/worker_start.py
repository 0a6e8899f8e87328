"""Where the worker's side starts: the one road from the window's modules to the solver.

``game.app.worker`` starts a process (or, where none can run, a thread) on one of these
functions; only then are ``game.app.worker_jobs`` and its modules (the decider, the
solver, the book, numba) imported, in the worker, so importing the window never loads them.
"""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from game.app.worker_protocol import JobRequest, WorkerMessage


def process_main(
    requests: Connection, replies: Connection, cancelled_upto: Any, parent_pid: int, finish_upto: Any = None
) -> None:
    """Serve in the worker process until told to stop."""
    from game.app import worker_jobs  # lazy: numba and the solver load in the worker process only

    worker_jobs.process_main(requests, replies, cancelled_upto, parent_pid, finish_upto)


def serve_in_thread(
    receive: Callable[[], JobRequest | None],
    send: Callable[[WorkerMessage], None],
    cancelled_upto: Any,
    finish_upto: Any = None,
) -> None:
    """Serve in a thread of the window, where no process can run (said once)."""
    from game.app import worker_jobs  # lazy: the fallback thread loads the solver only when it must

    worker_jobs.serve(receive, send, cancelled_upto, finish_upto=finish_upto)
