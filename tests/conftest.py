"""Test setup: headless SDL (no window, no sound card) before anything imports pygame."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

DATA = Path(__file__).resolve().parent / "data"
POSITIONS = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def positions_dir() -> Path:
    """The benchmark positions with exact scores (shared with ``ai.lab.bench``)."""
    return POSITIONS


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261121)


@pytest.fixture
def app(tmp_path):
    """The real App, headless, with its settings in a temporary folder."""
    from game.app.loop import App

    application = App((900, 700), home=tmp_path / "home")
    yield application
    application.close()
