"""A job run in a thread away from the frame loop: the review of a game, a position's
exact column scores.  The scene starts it, reads ``done``/``total``/``result`` each
frame, and ``cancel``s it when it leaves; the job polls ``should_stop``.

The exact solver's compiled core releases the GIL; the pure-Python parts share it
with the frame loop, which stays responsive because they check ``should_stop`` (and
give up the GIL) every few thousand nodes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class BackgroundTask(Generic[T]):
    """``run(should_stop, on_progress)`` in a daemon thread; its value lands in ``result``."""

    def __init__(self, run: Callable[[Callable[[], bool], Callable[[int, int], None]], T]):
        self._run = run
        self._stop = threading.Event()
        self.done = 0
        self.total = 0
        self.result: T | None = None
        self.error: BaseException | None = None
        self.finished = False
        self.thread = threading.Thread(target=self._main, name="background-task", daemon=True)

    def start(self) -> BackgroundTask[T]:
        self.thread.start()
        return self

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def _main(self) -> None:
        try:
            self.result = self._run(self._stop.is_set, self._progress)
        except BaseException as error:  # reported to the scene, never lost in a thread
            if not self._stop.is_set():
                log.warning("background task failed: %s", error)
            self.error = error
        finally:
            self.finished = True

    @property
    def running(self) -> bool:
        return not self.finished

    def cancel(self) -> None:
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end (tests, and the demo's screenshots)."""
        self.thread.join(timeout)
        return self.finished


def run_now(run: Callable[[Callable[[], bool], Callable[[int, int], None]], Any]) -> Any:
    """Run a task's function in this thread (for tools that need no frame loop)."""
    return run(lambda: False, lambda done, total: None)
