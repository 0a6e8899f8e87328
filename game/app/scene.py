"""Scenes, the one interface through which they see the App, and the scene stack.

A scene is one screen (menu, play, overlay).  It sees the App only as a ``SceneHost``:
toasts and spoken output, the settings and saving them, the theme, sounds, the worker's
jobs, the archive, the clock, quit, and navigation.  To go elsewhere it hands the host a
typed request (``game.app.navigation``: ``OpenReview(...)``, ``BackToTitle()``), which
the App's router (``game.app.router``) turns into a scene; so no scene imports the loop
or another scene.

Scenes never change the stack while events are being dispatched: they *request* push,
pop, replace or reset, and the stack carries the requests out between frames.  Popping
the last scene quits the app.  An overlay scene (``is_overlay``) is drawn over the scene
beneath it, which stays visible.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pygame

from game.app.memory import give_back_freed_memory
from game.app.navigation import Request
from game.app.settings import Settings
from game.app.sound import Sounds
from game.app.speech import Speech
from game.app.theme import Theme
from game.app.worker import JobOwner
from game.app.worker_protocol import Job, WorkerEvent
from game.archive.store import Archive
from game.learn.rating import PlayerRating


class Jobs(Protocol):
    """The worker as a scene sees it: which job it works on, and stopping it."""

    @property
    def current(self) -> int | None: ...

    def is_pending(self, job_id: int) -> bool: ...

    def cancel(self) -> None: ...

    def finish(self) -> None:
        """Ask the current job (a computer's move) to answer now with its best move so far."""


class SceneHost(Protocol):
    """What a scene may use of the App (the ``App`` implements it)."""

    settings: Settings
    dirty: bool  # set: the next frame is drawn even if nothing moves

    @property
    def theme(self) -> Theme: ...

    @property
    def sounds(self) -> Sounds: ...

    @property
    def speech(self) -> Speech: ...

    @property
    def worker(self) -> Jobs: ...

    @property
    def archive(self) -> Archive: ...

    def rating(self) -> PlayerRating | None:
        """The player's rating with what the archive stored since it was last asked; None
        while it is first replayed, a few frames (``game.app.rating_keeper``)."""

    @property
    def home(self) -> Path: ...

    @property
    def time(self) -> float: ...

    def save_settings(self) -> None: ...

    def show_toast(self, text: str, seconds: float = 2.5, *, spoken: bool = True) -> None: ...

    def hide_toast(self) -> None: ...

    def speak(self, text: str | None, *, follow: bool = False) -> None: ...

    def submit(self, job: Job, owner: JobOwner) -> int: ...

    def quit(self) -> None: ...

    def push(self, target: Request | Scene) -> None: ...

    def pop(self) -> None: ...

    def replace(self, target: Request | Scene) -> None: ...

    def reset(self, target: Request | Scene) -> None: ...


class Scene:
    """Base class: override what the screen needs."""

    is_overlay = False
    name = "scene"

    def __init__(self) -> None:
        self.app: SceneHost = None  # type: ignore[assignment]  # set by the stack on push

    # lifecycle
    def on_enter(self) -> None:
        """Pushed onto the stack (the app is set)."""

    def on_exit(self) -> None:
        """Popped or replaced."""

    def on_pause(self) -> None:
        """Another scene was pushed over this one."""

    def on_resume(self) -> None:
        """The scene over this one was popped."""

    # frame
    def handle_event(self, event: pygame.event.Event) -> None:
        """React to one input event."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (only the top scene is updated)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; it must not change any state."""

    def toast_bottom(self, size: tuple[int, int]) -> int | None:
        """Where the bottom of a toast may go in a window of ``size``; None: the usual place."""
        return None

    def status_line(self) -> str | None:
        """The sentence the scene's status line shows now, for spoken output (None: none)."""
        return None

    def is_animating(self) -> bool:
        """Whether the scene moves on its own and needs frames while no input comes.

        The App draws only after a change or while a visible scene animates, so an idle
        window costs no CPU.  Most scenes are still (the default); moving ones say True.
        """
        return False

    def on_worker_event(self, event: WorkerEvent) -> None:
        """A message about a job this scene submitted (``SceneHost.submit``); dropped once the
        scene has left the stack."""


class SceneStack:
    """The scenes, bottom first, and the changes requested during this frame."""

    def __init__(self, app: SceneHost):
        self.app = app
        self.scenes: list[Scene] = []
        self._pending: list[Callable[[], None]] = []
        self._scenes_left = 0

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def __len__(self) -> int:
        return len(self.scenes)

    # requests (carried out by apply_pending)
    def push(self, scene: Scene) -> None:
        self._pending.append(lambda: self._push(scene))

    def pop(self) -> None:
        self._pending.append(self._pop)

    def replace(self, scene: Scene) -> None:
        def run() -> None:
            self._pop(resume=False)
            self._push(scene, pause_below=False)

        self._pending.append(run)

    def reset(self, scene: Scene) -> None:
        """Pop every scene and push ``scene`` (back to the title menu)."""

        def run() -> None:
            while self.scenes:
                self._pop(resume=False)
            self._push(scene)

        self._pending.append(run)

    def has_pending(self) -> bool:
        return bool(self._pending)

    def apply_pending(self) -> None:
        """Carry out the requested changes, in order (called between frames); when a
        scene has left, give the memory it freed back to the system."""
        left_before = self._scenes_left
        while self._pending:
            self._pending.pop(0)()
        if self._scenes_left != left_before:
            give_back_freed_memory()

    # the changes themselves
    def _push(self, scene: Scene, pause_below: bool = True) -> None:
        if self.scenes and pause_below:  # (a replaced scene's lower neighbour is paused already)
            self.scenes[-1].on_pause()
        scene.app = self.app
        self.scenes.append(scene)
        scene.on_enter()

    def _pop(self, resume: bool = True) -> None:
        if not self.scenes:
            return
        self.scenes.pop().on_exit()
        self._scenes_left += 1
        if resume and self.scenes:
            self.scenes[-1].on_resume()

    def close(self) -> None:
        """Take every scene off, each told it leaves (the window is closing: a scene that
        holds a thread or a socket lets it go)."""
        while self.scenes:
            self._pop(resume=False)
        self._pending.clear()

    def visible(self) -> list[Scene]:
        """The scenes to draw, bottom first: the top one and every one under overlays."""
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].is_overlay:
            start -= 1
        return self.scenes[max(start, 0) :]
