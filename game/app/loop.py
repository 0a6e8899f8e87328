"""The pygame application: one window, one loop, one scene stack, one router.

The ``App`` is the ``SceneHost`` every scene sees (``game.app.scene``): toasts, speech,
settings, theme, sounds, the worker's jobs, the archive, the clock and navigation.  A
scene asks to go somewhere with a typed request (``game.app.navigation``); the App
hands it to the router (``game.app.router.scene_for``), which builds the scene, and
pushes, replaces or resets the stack with it between frames.

``App.step(events, dt)`` is the whole loop body (events, update, scene changes, draw),
so a test or the headless demo can run single frames.  A frame is drawn only when
something changed (an event, a scene change, a toast) or moves (a scene that
``is_animating``); while nothing happens the loop sleeps until the next event, so an
idle window costs next to no CPU.  Global keys: F11 full screen,
F12 screenshot.  Closing the window cancels any search and saves the settings.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pygame

from game.app.archive_link import close_archive, open_archive
from game.app.icon_files import make_icon
from game.app.navigation import BackToTitle, Request, ShowCourse
from game.app.open_game import PASTE_SCENES, open_dropped, open_pasted, show_opened
from game.app.rating_keeper import RatingKeeper
from game.app.router import scene_for
from game.app.scene import Scene, SceneStack
from game.app.settings import FILE_NAME, Settings, read_settings, save_settings
from game.app.sound import Sounds, quiet_stderr
from game.app.speech import Speech
from game.app.theme import Theme
from game.app.timing_keeper import TimingKeeper
from game.app.toast import place_toast
from game.app.widgets import TOAST_SIZE
from game.app.worker import AIWorker, JobOwner
from game.app.worker_protocol import Job, WorkerLost, WorkerNote
from game.archive.store import Archive
from game.desktop.install import APP_ID
from game.i18n import N_, _, catalog_problem, set_language
from game.learn.rating import PlayerRating
from game.sources import Source

log = logging.getLogger(__name__)

TITLE = N_("Connect Four")
"""The window's title and class: what a task bar shows (not ``main.py``)."""
APP_FOLDER = "connect4"
DEFAULT_SIZE = (1024, 720)
MIN_SIZE = (480, 400)
FPS = 60
IDLE_FPS = 30  # while nothing moves: input is looked at 30 times a second, nothing drawn
RATING_STEP_SECONDS = 0.02
"""What a frame spends on replaying the rating, while one is under way (``RatingKeeper.step``)."""


def preference_folder() -> Path:
    """Where settings and screenshots live (``CONNECT4_HOME`` overrides it, for tests).

    One folder, ``connect4`` (``~/.local/share/connect4`` on Linux); the settings of
    earlier versions, in the doubled ``connect4/connect4``, are moved up once.
    """
    override = os.environ.get("CONNECT4_HOME")
    if override:
        return Path(override)
    try:
        folder = Path(pygame.system.get_pref_path("", APP_FOLDER))
    except (pygame.error, AttributeError):
        return Path.home() / ".connect4"
    _move_up_doubled_folder(folder)
    return folder


def _move_up_doubled_folder(folder: Path) -> None:
    """Take the settings from ``folder/connect4`` (the old doubled path) if there are none here."""
    old = folder / APP_FOLDER / FILE_NAME
    new = folder / FILE_NAME
    if old.is_file() and not new.exists():
        try:
            os.replace(old, new)
        except OSError as error:
            log.warning("cannot move %s to %s: %s", old, new, error)


def name_the_window() -> None:
    """Tell SDL the app's name and window class before it starts, so a task bar and the
    desktop entry of ``install-desktop`` find the window: X11 WM_CLASS "Connect Four"
    (the entry's StartupWMClass), Wayland app id ``game.desktop.install.APP_ID`` (the entry's name)."""
    # ``import pygame`` already set the X11 class to the script's name (main.py,
    # __main__.py, connect4) when DISPLAY is set: that guess is replaced, a user's own kept.
    guessed = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    hints = {"SDL_VIDEO_X11_WMCLASS": TITLE, "SDL_VIDEO_WAYLAND_WMCLASS": APP_ID, "SDL_APP_NAME": TITLE}
    for hint, name in hints.items():
        if os.environ.get(hint, guessed) == guessed:
            os.environ[hint] = name


FRAMEBUFFER_ACCELERATION = "SDL_FRAMEBUFFER_ACCELERATION"


def present_without_opengl() -> None:
    """Let SDL show the window's surface without OpenGL, unless the person chose otherwise.

    The game draws every frame in software; SDL would present that surface through OpenGL,
    loading Mesa's whole stack (libLLVM and a DRI driver: 63 MB more in the window's process
    under X, and 6.4 ms of CPU a frame with Mesa's software renderer against 1.8 ms without,
    docs/benchmarks.md "A real window").  Read by SDL when the window's surface is made.
    """
    os.environ.setdefault(FRAMEBUFFER_ACCELERATION, "0")


class App:
    """Owns the window, the settings, the sounds, the AI worker and the scene stack."""

    def __init__(self, size: tuple[int, int] | None = None, *, home: Path | None = None, use_process: bool = True):
        """Open the window at ``size``, or at the size it had when it was last closed."""
        name_the_window()
        present_without_opengl()
        with quiet_stderr():  # SDL's audio back ends complain on fd 2 without a sound card
            pygame.init()
        self.home = home or preference_folder()
        self.settings_path = self.home / FILE_NAME
        report = read_settings(self.settings_path)
        self.settings: Settings = report.settings
        size = size or self.settings.window_size
        set_language(self.settings.language)
        pygame.display.set_caption(_(TITLE))
        pygame.display.set_icon(make_icon())
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.theme = Theme(self.settings.theme, scale=self.settings.ui_scale, motion=self.settings.motion)
        self.sounds = Sounds(self.settings.sound)
        self.speech = Speech(self.settings.speech)
        self.worker = AIWorker(use_process=use_process)
        self.timing = TimingKeeper(self)  # this machine's search speed, timed once when the worker is idle
        self.stack = SceneStack(self)
        self.clock = pygame.time.Clock()
        self.running = True
        self.closed = False
        self.time = 0.0  # seconds of animation since start
        self.toast: tuple[str, float] | None = None  # a short message and when it ends
        self._toast_place: tuple[tuple[str, int, int], int] = (("", 0, 0), 0)  # (its text and window, its bottom)
        self.fullscreen = False
        self._windowed_size = size
        self.dirty = True  # something changed since the last frame was drawn
        self.drew = False  # the last step drew a frame (the loop flips only then)
        self._archive: Archive | None = None  # opened on first use
        self._rating_keeper: RatingKeeper | None = None  # made on the first ``rating()``
        if report.warning:  # said once, in the log and on screen
            log.warning("%s: %s", self.settings_path, report.warning)
            self.show_toast(report.notice or report.warning, 8.0)
        if problem := catalog_problem():  # the player's language cannot be read: English, said
            self.show_toast(problem, 8.0)

    # -- the loop -------------------------------------------------------------------
    def run(self, seconds: float | None = None) -> None:
        """Run until the last scene is popped or the window closes (or SIGTERM/SIGHUP),
        or for ``seconds`` (benchmarks)."""
        previous = self._end_on_signals()
        deadline = None if seconds is None else time.perf_counter() + seconds
        worker_started = False
        try:
            while self.running and (deadline is None or time.perf_counter() < deadline):
                # Idle (nothing drawn last frame): look for input less often, draw nothing.
                # (Clock.tick sleeps; pygame.event.wait would poll and cost more.)
                dt = min(self.clock.tick(FPS if self.drew or self.dirty else IDLE_FPS) / 1000.0, 0.1)
                self.step(pygame.event.get(), dt)
                if self.drew:
                    pygame.display.flip()
                    if not worker_started:  # the first frame is on screen: the worker's turn
                        worker_started = True
                        self.start_worker()
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
            self.close()

    def start_worker(self) -> None:
        """Start the AI worker (the first frame is on screen); it times this machine's
        search when it is first idle, if no timing is kept (``TimingKeeper``)."""
        self.worker.start()
        self.timing.wanted = True

    def _end_on_signals(self) -> dict[int, Any]:
        """SIGTERM and SIGHUP (a closed terminal) end the game as closing the window does:
        the search stops, the tally is saved.  Returns the handlers they replaced."""
        if threading.current_thread() is not threading.main_thread():
            return {}
        previous: dict[int, Any] = {}
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None:
                previous[number] = signal.signal(number, lambda *_: self.quit())
        return previous

    def step(self, events: list[pygame.event.Event], dt: float) -> bool:
        """One frame: events, update, scene changes, draw (if needed).  Returns False once quitting."""
        self.time += dt
        if events or self.stack.has_pending():
            self.dirty = True
        for event in events:
            if event.type == pygame.QUIT:
                self.quit()
                return False
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.toggle_fullscreen()
                continue
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F12:
                self.save_screenshot()
                continue
            if event.type == pygame.DROPFILE or _is_paste(event, self.stack.top):
                open_dropped(self, event.file) if event.type == pygame.DROPFILE else open_pasted(self)
                break  # the rest of the events belong to the game just opened
            if event.type == pygame.VIDEORESIZE and not self.fullscreen:
                self._windowed_size = (max(event.w, MIN_SIZE[0]), max(event.h, MIN_SIZE[1]))
                self.settings.window_size = self._windowed_size  # saved on close
            top = self.stack.top
            if top is not None:
                top.handle_event(event)
            if self.stack.has_pending():
                break  # the rest of the events belong to the next scene
        self.poll_worker()
        self.timing.tend(dt)
        keeper = self._rating_keeper
        if keeper is not None and keeper.replaying and keeper.step(RATING_STEP_SECONDS):
            self.dirty = True  # a rating the screens were waiting for
        # A scene that stops moving in this update still needs this frame: its last one.
        moving = any(scene.is_animating() for scene in self.stack.visible())
        top = self.stack.top
        if top is not None:
            top.update(dt)
        if self.stack.has_pending():
            self.dirty = True
        if self.speech.enabled and top is not None:
            self.speak(top.status_line(), follow=True)
        else:
            self.speech.tend()  # spoken output switched off: cut-off voices still end
        self.stack.apply_pending()
        if not self.stack.scenes:
            self.quit()
            return False
        if self.toast is not None and self.time >= self.toast[1]:
            self.toast = None  # the toast's time is up: draw once more without it
            self.dirty = True
        self.drew = self.dirty or moving or any(scene.is_animating() for scene in self.stack.visible())
        if self.drew:
            self.draw()
            self.dirty = False
        return self.running

    def draw(self) -> None:
        """Draw every visible scene and the toast (only where the toast goes is kept)."""
        surface = display_surface()
        surface.fill(self.theme.palette.background)
        for scene in self.stack.visible():
            self.theme.begin_frame()  # what the scene on top keeps clear counts, not what it covers
            scene.draw(surface)
        if self.toast is not None and self.time < self.toast[1]:
            self.draw_toast(surface, self.toast[0])

    def draw_toast(self, surface: pygame.Surface, text: str) -> pygame.Rect:
        """A short message in a box, in the one place ``game.app.toast`` finds for it: clear
        of every control, the board's column names and the chat line.  Returns its box."""
        w, h = surface.get_size()
        text, size = self.theme.fitted(text, TOAST_SIZE, w - 60)  # the UI scale gives way before the words
        width, height = self.theme.font(size).size(text)
        usual = h - max(44, int(h * 0.085)) - 16
        top = self.stack.top
        bottom = top.toast_bottom((w, h)) if top is not None else None
        if bottom is not None:  # the scene keeps a place for it (the tree overlay: above its bottom panel)
            usual = bottom
        kept = self._toast_place[1] if self._toast_place[0] == (text, w, h) else None
        box = place_toast((w, h), (width + 24, height + 14), usual, self.theme.controls, self.theme.words, kept)
        self._toast_place = ((text, w, h), box.bottom)
        p = self.theme.palette
        pygame.draw.rect(surface, p.text, box, border_radius=8)
        self.theme.text(surface, text, size, box.center, color=p.panel, anchor="center")
        return box

    def poll_worker(self) -> None:
        """Hand what the AI worker sent to the scene that asked (once per frame).

        A scene that has left the stack no longer hears about its jobs."""
        for owner, event in self.worker.poll():
            if isinstance(event, (WorkerLost, WorkerNote)):
                self.show_toast(event.message, 5.0)
            elif owner is self.timing:
                self.timing.on_worker_event(event)
            elif owner is not None and any(owner is scene for scene in self.stack.scenes):
                owner.on_worker_event(event)
                self.dirty = True

    # -- services for scenes (the SceneHost) -------------------------------------------
    @property
    def archive(self) -> Archive:
        """The game archive in the preference folder, opened on first use."""
        if self._archive is None:
            self._archive = open_archive(self)
        return self._archive

    def rating(self) -> PlayerRating | None:
        """The player's rating, kept by a ``RatingKeeper`` of the archive (the first time it
        is asked, a replay starts that the frames step; None until it ends)."""
        if self._rating_keeper is None:
            self._rating_keeper = RatingKeeper(self.archive)
        return self._rating_keeper.refresh()

    def push(self, target: Request | Scene) -> None:
        """Put the scene ``target`` asks for over the top one (between frames)."""
        scene = self._scene(target)
        if scene is not None:
            self.stack.push(scene)

    def pop(self) -> None:
        """Take the top scene off (between frames); the last one off quits."""
        self.stack.pop()

    def replace(self, target: Request | Scene) -> None:
        """Put the scene ``target`` asks for in place of the top one (between frames)."""
        scene = self._scene(target)
        if scene is not None:
            self.stack.replace(scene)

    def reset(self, target: Request | Scene) -> None:
        """Take every scene off, then put the one ``target`` asks for (between frames)."""
        scene = self._scene(target)
        if scene is not None:
            self.stack.reset(scene)

    def _scene(self, target: Request | Scene) -> Scene | None:
        """The scene itself, or the one the router builds for a request (None: nothing to show)."""
        return target if isinstance(target, Scene) else scene_for(target, self)

    def submit(self, job: Job, owner: JobOwner) -> int:
        """Start ``job`` for ``owner``, a scene (cancelling the one under way); return its id."""
        return self.worker.submit(job, owner=owner)

    def show_toast(self, text: str, seconds: float = 2.5, *, spoken: bool = True) -> None:
        """Show ``text`` for ``seconds`` over the scenes (and say it, with spoken output on)."""
        self.toast = (text, self.time + seconds)
        self.dirty = True
        if spoken:
            self.speak(text)

    def hide_toast(self) -> None:
        """Take the toast away (the question it asked is answered)."""
        self.toast = None

    def speak(self, text: str | None, *, follow: bool = False) -> None:
        """Say ``text`` with spoken output on (``follow``: only if it changed since the
        last status line said); the note that no voice exists is shown once."""
        note = self.speech.follow(text) if follow else self.speech.say(text or "")
        if note:
            self.show_toast(note, 6.0, spoken=False)

    def save_settings(self) -> None:
        save_settings(self.settings, self.settings_path)

    def save_screenshot(self, path: Path | str | None = None) -> Path | None:
        """Save what the window shows as PNG (F12); return the path, or None on failure."""
        if path is None:
            folder = self.home / "screenshots"
            path = folder / time.strftime("connect4-%Y%m%d-%H%M%S.png")
            counter = 1
            while Path(path).exists():
                path = folder / time.strftime(f"connect4-%Y%m%d-%H%M%S-{counter}.png")
                counter += 1
        path = Path(path)
        self.draw()  # what the state shows now, even if no frame was due
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(display_surface(), str(path))
        except (pygame.error, OSError) as error:
            self.show_toast(_("Could not save the screenshot: {error}").format(error=error))
            return None
        self.show_toast(_("Screenshot saved: {path}").format(path=path))
        return path

    def toggle_fullscreen(self) -> None:
        try:
            if self.fullscreen:
                pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)
            else:
                self._windowed_size = display_surface().get_size()
                pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            self.fullscreen = not self.fullscreen
        except pygame.error as error:
            self.show_toast(_("Full screen is not available: {error}").format(error=error))

    def quit(self) -> None:
        """Stop at the end of this frame (the window was closed or Quit chosen)."""
        self.running = False
        self.worker.cancel()

    def close(self) -> None:
        """Release everything: stop the AI, save settings, close the window (once)."""
        if self.closed:
            return
        self.closed = True
        self.stack.close()  # before the archive closes: a scene may keep its game there as it leaves
        self.worker.shutdown()
        self.speech.close()
        self.save_settings()
        if self._archive is not None:
            close_archive(self._archive)  # games kept in memory are written now, or never
            self._archive = None
            self._rating_keeper = None
        self.theme.close()  # each font holds its font file open
        pygame.quit()


def _is_paste(event: pygame.event.Event, top: Scene | None) -> bool:
    """Ctrl+V where the scene does not paste a position itself: it opens what is pasted."""
    return (
        event.type == pygame.KEYDOWN
        and event.key == pygame.K_v
        and bool(event.mod & pygame.KMOD_CTRL)
        and top is not None
        and top.name in PASTE_SCENES
    )


def display_surface() -> pygame.Surface:
    """The window's surface (there is one from ``App.__init__`` on)."""
    surface = pygame.display.get_surface()
    if surface is None:
        raise pygame.error("no window is open")
    return surface


def launch(opened: Source | None = None, *, request: Request | None = None, home: Path | None = None) -> int:
    """Open the game window on the title menu (and over it the game ``opened``, from
    ``main.py open``, or the scene ``request`` asks for: ``main.py course --lesson N``,
    ``main.py host``) and run it until it is closed; ``home``: another data folder."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app = App(home=home)
    except pygame.error as error:
        print(
            _(
                "main.py: cannot open a window ({error}). Without a display, try: python main.py demo --out screenshots"
            ).format(error=error),
            file=sys.stderr,
        )
        return 1
    app.push(BackToTitle())
    if opened is not None:
        show_opened(app, opened)
    if request is not None:
        app.push(request)
    try:
        app.run()
    except KeyboardInterrupt:
        app.close()
    return 0


def launch_course(number: int | None = None) -> int:
    """``main.py course [--lesson N]``: the window on the course (lesson ``number``)."""
    return launch(request=ShowCourse(number))
