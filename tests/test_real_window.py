"""The demo's whole tour drawn in a real X window (Xvfb): what a player's session costs.

SDL's dummy driver, which the other window tests use, never loads what a real display
does (SDL presents the window through OpenGL unless told otherwise: Mesa's libLLVM and a
DRI driver, 63 MB).  ``main.py demo --window --fps 0`` draws the same tour on the display
as fast as the frames come and prints both processes' peak resident memory (issue 39:
the window at most 100 MB, the AI worker at most 200 MB).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_cli import ROOT

WINDOW_PEAK_MB = 100
WORKER_PEAK_MB = 200


@pytest.fixture
def x_display() -> Iterator[str]:
    """A fresh Xvfb server (Debian package xvfb) on a free display number: ":N"."""
    xvfb = shutil.which("Xvfb")
    assert xvfb is not None, "Xvfb is missing: apt-get install xvfb (.ci/run installs it)"
    read, write = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as said:
            number = said.readline().strip()  # Xvfb writes its display number once it is ready
        assert number.isdigit(), "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow  # the demo's tour in a process
def test_the_demo_tour_in_a_real_window_stays_within_its_memory(x_display, tmp_path):
    env = {name: value for name, value in os.environ.items() if not name.startswith("SDL_")}
    env["DISPLAY"] = x_display  # a real X display: SDL's x11 driver, not the dummy one
    env["SDL_AUDIODRIVER"] = "dummy"
    out = tmp_path / "shots"
    command = [sys.executable, "main.py", "demo", "--window", "--fps", "0", "--depth", "2"]
    done = subprocess.run(
        [*command, "--out", str(out), "--home", str(tmp_path / "home")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    saved = [Path(line.removeprefix("saved ")) for line in done.stdout.splitlines() if line.startswith("saved ")]
    assert len(saved) >= 20 and all(path.is_file() and path.stat().st_size > 0 for path in saved)
    peaks = re.search(r"peak memory: window (\d+) MB, AI worker (\d+) MB", done.stdout)
    assert peaks is not None, done.stdout[-2000:]
    window, worker = int(peaks[1]), int(peaks[2])
    assert window <= WINDOW_PEAK_MB, f"the window's process peaked at {window} MB"
    assert worker <= WORKER_PEAK_MB, f"the AI worker peaked at {worker} MB"
    assert re.search(r"frames: \d+ in", done.stdout), "the frames were drawn on the display"
