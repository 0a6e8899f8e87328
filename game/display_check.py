"""Whether the window can be seen here: the check made before the window opens (by
``game.launcher`` and ``open``).

The standard library only: main.py reads this file by its path before set-up, when
importing the ``game`` package would fail (it needs numpy, which is not installed yet).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

try:
    from game.i18n import _
except ImportError:  # read by main.py before set-up: the messages in English

    def _(message: str) -> str:
        return message


def display_problem(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why the window could not be seen here, or None: on Linux and the BSDs, with no
    DISPLAY or WAYLAND_DISPLAY and no SDL_VIDEODRIVER chosen, SDL would draw into an
    invisible off-screen window and the game would look hung."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win", "darwin", "cygwin")):
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY") or environ.get("SDL_VIDEODRIVER"):
        return None
    return _(
        "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set). Start it from a desktop session, or without one try: python main.py demo --out screenshots (or python main.py --help for the terminal commands)"
    )
