"""This machine's search speed, timed once in the worker and kept with the settings.

The level screen says how long a move takes here with and without pruning
(``ai.cost.time_lines``); that needs a timing of the search on this machine
(``ai.timing.calibrate``, about a second).  The App keeps one ``TimingKeeper``: once the
window is up (``App.start_worker``), it waits until the worker has been idle a moment,
then asks it for a ``CalibrateJob``, and keeps the answer in the settings.  It never
cancels another job: any job a screen asks for cancels the timing instead, and the
timing is asked again when the worker is idle.  A stored timing is used as it is; a
missing one, one the settings file could not vouch for (``game.app.settings``), or one
made by another version of the game is timed again.  A timing that fails is said in the
log and not retried this session (the screens then say the time is not known).
"""

from __future__ import annotations

import logging
from typing import Protocol

from game.app.settings import Settings
from game.app.worker import AIWorker
from game.app.worker_protocol import CalibrateJob, CalibrationResult, JobFailed, WorkerEvent
from game.version import __version__

log = logging.getLogger(__name__)

IDLE_BEFORE = 1.0
"""Seconds the worker must have been idle before the timing starts (a screen that has
just opened may be about to ask for something)."""


class TimingHost(Protocol):
    """What the keeper uses of the App."""

    settings: Settings
    dirty: bool

    @property
    def worker(self) -> AIWorker: ...

    def save_settings(self) -> None: ...


class TimingKeeper:
    """Asks for the timing when it is needed and the worker is idle; keeps its answer."""

    def __init__(self, app: TimingHost):
        self.app = app
        self.wanted = False  # set once the window is up (``App.start_worker``)
        self.failed = False
        self.job_id: int | None = None
        self.idle = 0.0

    @property
    def needed(self) -> bool:
        """No timing is known for this version of the game."""
        calibration = self.app.settings.calibration
        return calibration is None or calibration.version != __version__

    @property
    def running(self) -> bool:
        return self.job_id is not None and self.app.worker.is_pending(self.job_id)

    def tend(self, dt: float) -> None:
        """Each frame: ask for the timing once the worker has been idle ``IDLE_BEFORE``."""
        if not self.wanted or self.failed or not self.needed or self.running:
            return
        self.job_id = None  # done, or cancelled by another job: asked again when idle
        worker = self.app.worker
        if worker.current is not None or worker.receiving:
            self.idle = 0.0
            return
        self.idle += dt
        if self.idle >= IDLE_BEFORE:
            self.idle = 0.0
            self.job_id = worker.submit(CalibrateJob(), owner=self)

    def on_worker_event(self, event: WorkerEvent) -> None:
        if isinstance(event, CalibrationResult):
            self.job_id = None
            self.app.settings.calibration = event.calibration
            self.app.save_settings()
            self.app.dirty = True  # the level screen's times can be said now
        elif isinstance(event, JobFailed):
            self.job_id = None
            self.failed = True
            log.warning("timing the search failed: %s", event.message)
