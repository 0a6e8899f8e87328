"""Killed processes lose nothing and leave nothing running: the worker follows a killed
window out, a killed worker never freezes the window, SIGTERM saves the tally."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from ai.levels import Level
from game.app.scenes.play import PlayScene
from tests.ui import FRAME

pytestmark = pytest.mark.window

ROOT = Path(__file__).resolve().parent.parent
HANG_SECONDS = 20.0
"""How long a test waits before calling a process hung (a guard, not a speed limit)."""

# A window (SDL dummy drivers) whose computer starts a search that would run for hours;
# it prints the worker's pid once the search is under way.
UI_SCRIPT = """
import os, sys, time
from pathlib import Path
from ai.levels import Level
from game.app.scenes.play import PlayScene
app = start_app((640, 480))
app.settings.tally.update(wins=5, draws=2, losses=7)
play = PlayScene(app.settings.rules(), Level(12, pruning=False), "computer", first="computer")
app.stack.push(play)
while not play.thinking or app.worker.pid is None:
    app.step([], 1 / 60)
print(app.worker.pid, flush=True)
if sys.argv[2] == "run":
    app.run()
else:
    while True:
        app.step([], 1 / 60)
        time.sleep(1 / 60)
"""


@pytest.fixture
def start_window(window_script):
    """Start the window in its own process; give it and its worker's pid (the caller ends both)."""
    return lambda home, mode: _start_window(window_script(UI_SCRIPT), home, mode)


def _start_window(script: str, home: Path, mode: str) -> tuple[subprocess.Popen, int]:
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYTHONPATH=str(ROOT),
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(home), mode], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 60)
    line = process.stdout.readline() if ready else ""
    if not line.strip().isdigit():
        process.kill()
        process.wait(10)
        raise AssertionError(f"the window never started its search: {line!r}")
    return process, int(line)


def is_gone(pid: int) -> bool:
    """Exited (a zombie waiting for its new parent to reap it counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def wait_gone(pid: int, timeout: float) -> float | None:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if is_gone(pid):
            return time.perf_counter() - started
        time.sleep(0.02)
    return None


@pytest.mark.slow
def test_the_worker_exits_when_the_window_is_killed(tmp_path, start_window):
    window, worker_pid = start_window(tmp_path, "step")
    try:
        assert not is_gone(worker_pid)
    finally:
        window.kill()  # SIGKILL: no chance to stop the worker
        window.wait(10)
    seconds = wait_gone(worker_pid, HANG_SECONDS)
    if seconds is None:
        os.kill(worker_pid, signal.SIGKILL)
    assert seconds is not None, f"the orphaned worker ran on past {HANG_SECONDS:g} s"


@pytest.mark.slow
def test_sigterm_ends_the_game_with_the_tally_saved(tmp_path, start_window):
    window, worker_pid = start_window(tmp_path, "run")
    try:
        time.sleep(0.3)  # frames of the real loop with the search running
        window.send_signal(signal.SIGTERM)
        code = window.wait(HANG_SECONDS)  # a hang guard, not a speed test
    finally:
        if window.poll() is None:
            window.kill()
    assert code == 0
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["tally"] == {"wins": 5, "draws": 2, "losses": 7}
    assert wait_gone(worker_pid, HANG_SECONDS) is not None


def test_killing_the_worker_mid_tree_keeps_the_frames_coming_and_says_so(app):
    """A tree of 960,793 nodes (42 MB, 160 chunks) is on its way when the worker dies."""
    play = PlayScene(app.settings.rules(), Level(7, pruning=False), "computer", first="computer")
    app.stack.push(play)
    deadline = time.perf_counter() + 120
    while not play.searches:  # the answer has come; the tree follows it
        assert time.perf_counter() < deadline
        app.step([], FRAME)
        time.sleep(0.005)
    assert app.worker.receiving and play.searches[0].result.tree is None
    pid = app.worker.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    frames: list[float] = []
    started = time.perf_counter()
    while time.perf_counter() - started < 1.5:
        begin = time.perf_counter()
        app.step([], FRAME)
        pygame.display.flip()
        frames.append(time.perf_counter() - begin)
        time.sleep(0.005)
    # Frames keep coming (a blocked loop would make one); how fast is python -m lab.window_bench's
    # business, not a test's: under load a frame may take longer.
    assert len(frames) >= 3
    assert app.toast is not None and "AI process stopped" in app.toast[0] and "thread" in app.toast[0]
    assert play.searches[0].result.tree is None  # the torn tree was dropped, not half-built
    assert not app.worker.receiving and app.worker.is_alive() and not app.worker.use_process


@pytest.mark.slow
def test_no_sound_card_gives_one_line_not_the_alsa_flood(tmp_path, window_script):
    """SDL's ALSA back end writes its complaints to fd 2; the game says one line itself."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="alsa", PYGAME_HIDE_SUPPORT_PROMPT="1")
    script = window_script("start_app((640, 480)).close()\n")
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "ALSA lib" not in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 1  # "no sound (...)" where there is no card


def test_after_the_worker_dies_restart_and_quit_still_stop_the_threads_search(tmp_path, make_app):
    from tests.ui import press, wait_until

    app = make_app((800, 600), home=tmp_path)
    try:
        play = PlayScene(app.settings.rules(), Level(12, pruning=False), "computer", first="computer")
        app.stack.push(play)
        assert wait_until(app, lambda: play.thinking and app.worker.pid is not None, 30)
        os.kill(app.worker.pid, signal.SIGKILL)
        assert wait_until(app, lambda: not app.worker.use_process, 5)
        taken_over = app.worker.current
        assert play.thinking and taken_over is not None  # the thread took the search over
        press(app, pygame.K_r)  # Restart: the thread's search stops, a new one starts
        assert wait_until(app, lambda: play.thinking, 10) and play.match.moves == []
        assert app.worker.current not in (None, taken_over)
        # the one thread is free again: the new search runs (its progress arrives)
        assert wait_until(
            app, lambda: play.jobs.progress is not None and play.jobs.progress.job_id == app.worker.current, 10
        )
    finally:  # Quit: closing stops the thread's search at once
        started = time.perf_counter()
        app.close()
        assert time.perf_counter() - started < 2.5, "the thread's search stopped on Quit"
    assert not app.worker.is_alive()


def test_closing_while_a_tree_is_on_its_way_ends_at_once(app):
    """The worker blocked sending a 42 MB tree must not hold the window's exit up."""
    play = PlayScene(app.settings.rules(), Level(7, pruning=False), "computer", first="computer")
    app.stack.push(play)
    deadline = time.perf_counter() + 120
    while not play.searches:
        assert time.perf_counter() < deadline
        app.step([], FRAME)
        time.sleep(0.005)
    assert app.worker.receiving
    started = time.perf_counter()
    app.close()
    assert time.perf_counter() - started < 2.0 and not app.worker.is_alive()
