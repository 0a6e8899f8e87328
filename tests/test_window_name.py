"""The window class is "Connect Four" however the game is started, with or without a
DISPLAY (``import pygame`` names it after the script when DISPLAY is set)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.app.loop import TITLE, name_the_window

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("script", ["main.py", "/usr/local/bin/connect4", "__main__.py"])
def test_pygames_guess_from_the_script_name_is_replaced(monkeypatch, script):
    monkeypatch.setattr(sys, "argv", [script])
    monkeypatch.setenv("SDL_VIDEO_X11_WMCLASS", os.path.basename(script))  # what import pygame set
    name_the_window()
    assert os.environ["SDL_VIDEO_X11_WMCLASS"] == TITLE
    assert os.environ["SDL_APP_NAME"] == TITLE


def test_a_class_the_user_chose_is_kept(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["main.py"])
    monkeypatch.setenv("SDL_VIDEO_X11_WMCLASS", "my-games")
    name_the_window()
    assert os.environ["SDL_VIDEO_X11_WMCLASS"] == "my-games"


@pytest.mark.parametrize("display", [":0", None])
@pytest.mark.slow
def test_a_started_app_names_its_window_with_and_without_display(tmp_path, display, window_script):
    script = window_script(
        "import os\n"
        "app = start_app((320, 240))\n"
        "import pygame\n"
        "print(os.environ['SDL_VIDEO_X11_WMCLASS'], '|', pygame.display.get_caption()[0])\n"
        "app.close()\n"
    )
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "SDL_VIDEO_X11_WMCLASS")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT), PYGAME_HIDE_SUPPORT_PROMPT="1")
    if display is not None:
        env["DISPLAY"] = display
    proc = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"{TITLE} | {TITLE}"
