"""One kind of job a scene keeps asking the worker for: asked, in flight, or lost.

The worker runs one job at a time, so another scene's job (the analysis board pushed
over a review, say) cancels this one.  A scene keeps a ``JobSlot`` per kind of job,
asks ``lost()`` in its ``update`` (only the top scene is updated) and asks again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.app.worker_protocol import Job, WorkerEvent

if TYPE_CHECKING:  # a type only: practice's sentences (through tree_fetch) stay without pygame
    from game.app.scene import Scene


class JobSlot:
    """The id of the job a scene asked for, while its answer is wanted."""

    def __init__(self, scene: Scene):
        self.scene = scene
        self.id: int | None = None

    def submit(self, job: Job) -> None:
        """Ask the worker (cancelling whatever it was doing)."""
        self.id = self.scene.app.submit(job, self.scene)

    def owns(self, event: WorkerEvent) -> bool:
        """Tell whether ``event`` is about this slot's job."""
        return self.id is not None and event.job_id == self.id

    @property
    def running(self) -> bool:
        return self.id is not None and self.scene.app.worker.current == self.id

    def lost(self) -> bool:
        """Asked, not answered, and nothing more to come: another job took the worker."""
        return self.id is not None and not self.scene.app.worker.is_pending(self.id)

    def done(self) -> None:
        """The answer arrived (or is no longer wanted): nothing is awaited."""
        self.id = None

    def cancel(self) -> None:
        """Stop the job if it is still running; forget it either way."""
        if self.running:
            self.scene.app.worker.cancel()
        self.id = None
