"""Test setup: headless SDL (no window, no sound card) before anything imports pygame."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# The tests read English words: the language of the game (game.i18n) and of the CLI in
# subprocesses, whatever the machine's locale.
os.environ["LANGUAGE"] = "en"

DATA = Path(__file__).resolve().parent / "data"
POSITIONS = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def positions_dir() -> Path:
    """The benchmark positions with exact scores (shared with ``lab.bench``)."""
    return POSITIONS


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261121)


WINDOW_FIXTURES = frozenset({"app", "make_app", "window_script"})
"""The fixtures that start the real App. Every test that uses one (even through another
fixture) is marked ``window``; no test builds ``App(`` itself (tests/test_house.py)."""

WINDOW_PRELUDE = """
import sys
from pathlib import Path
from game.app.loop import App as _App


def start_app(size=(640, 480), home=None):
    # The real App, headless; its home is the script's first argument unless given.
    return _App(size, home=Path(sys.argv[1] if home is None else home))
"""


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``window`` every test that starts the real App through a window fixture."""
    for item in items:
        if WINDOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.window)


@pytest.fixture
def make_app(tmp_path):
    """Build real Apps as ``App(...)`` would (size, home), headless; all closed at the end."""
    from game.app.loop import App

    built = []

    def make(*args, **kwargs):
        kwargs.setdefault("home", tmp_path / "home")
        built.append(App(*args, **kwargs))
        return built[-1]

    yield make
    for application in built:
        application.close()  # once: closing a closed App does nothing


@pytest.fixture
def app(make_app):
    """The real App, headless, with its settings in a temporary folder."""
    return make_app((900, 700))


@pytest.fixture
def window_script():
    """Turn a script body into one that runs the real App in a child process: the body
    calls ``start_app(size)`` (home: the script's first argument) or ``start_app(size, home)``."""
    return lambda body: WINDOW_PRELUDE + body
