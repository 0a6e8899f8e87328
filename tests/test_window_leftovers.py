"""What a long session or a closed App leaves behind: rendered text, open font files,
and a window started where no one can see it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.app.scenes.title import TitleScene
from game.app.theme import TEXT_CACHE_BYTES, Theme
from game.display_check import display_problem
from tests.ui import step

pytestmark = pytest.mark.window
ROOT = Path(__file__).resolve().parent.parent


def open_font_files() -> list[str]:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.endswith((".ttf", ".otf")):
            found.append(target)
    return found


def test_rendered_text_is_capped_by_bytes_however_many_lines_change(app):
    theme = app.theme
    surface = pygame.display.get_surface()
    for number in range(6000):  # a search's progress line, a new text each update
        theme.text(surface, f"searching depth 9: {number:,} positions so far, {number / 10:.1f} s", 20, (0, 0))
    assert theme.text_bytes <= TEXT_CACHE_BYTES
    kept = theme.text_bytes
    for number in range(500):
        theme.text(surface, f"progress {number}", 20, (0, 0), cache=False)
    assert theme.text_bytes == kept  # lines drawn with cache=False are never kept


def test_a_line_in_use_stays_cached_while_others_come_and_go(app):
    theme = app.theme
    surface = pygame.display.get_surface()
    for number in range(3000):
        theme.text(surface, "Your move", 24, (0, 0))
        theme.text(surface, f"line {number}", 24, (0, 0))
    assert ("Your move", 24, theme.scale, False, theme.palette.text) in theme._texts


def test_closing_the_app_closes_its_font_files(tmp_path, make_app):
    before = len(open_font_files())
    for round_ in range(2):
        app = make_app((800, 600), home=tmp_path / str(round_))
        app.stack.push(TitleScene())
        step(app, 3)
        Theme.text(app.theme, pygame.display.get_surface(), "bold", 30, (0, 0), bold=True)
        assert len(open_font_files()) > before
        app.close()
        assert len(open_font_files()) == before


@pytest.mark.parametrize(
    ("environ", "platform", "problem"),
    [
        ({}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"SDL_VIDEODRIVER": "kmsdrm"}, "linux", False),
        ({}, "win32", False),
        ({}, "darwin", False),
    ],
)
def test_no_display_is_noticed_before_the_window_opens(environ, platform, problem):
    assert (display_problem(environ, platform) is not None) == problem


@pytest.mark.slow
def test_main_py_without_a_display_says_so_and_exits():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    proc = subprocess.run([sys.executable, "main.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.startswith("main.py: no display to open the window on")
    assert "python main.py demo --out screenshots" in proc.stderr and len(proc.stderr.splitlines()) == 1


@pytest.mark.slow
def test_main_py_without_a_display_says_so_before_setting_anything_up(tmp_path):
    """A first start on a server (no display, no packages yet): the no-display line comes
    at once, not after a minute of installing a window nobody can see."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["CONNECT4_NO_SETUP"] = "1"  # were set-up reached, it would only say what is missing
    # -S: no site-packages, so this Python lacks numpy and pygame, as a fresh system's does.
    proc = subprocess.run(
        [sys.executable, "-S", "main.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("main.py: no display to open the window on"), proc.stderr
    assert "Missing" not in proc.stderr
