#!/usr/bin/env python3
"""Connect Four: a minimax explorer you can play.

``python main.py`` opens the game window; ``python main.py --help`` lists the commands
(one-move, interactive, analyze, solve, demo).

On a machine without pygame-ce or numpy this file sets the game up first: it makes a
virtual environment ``.venv`` beside itself, installs ``requirements.txt`` into it and
runs itself again there (a system Python that refuses ``pip install`` is left alone).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
WINDOW_COMMANDS = {"demo"}


def _missing_modules() -> list[str]:
    missing = []
    for module, package in (("numpy", "numpy"), ("pygame", "pygame-ce")):
        try:
            __import__(module)
        except ImportError:
            missing.append(package)
    return missing


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _set_up_and_rerun(missing: list[str], argv: list[str]) -> int:
    """Install the requirements into .venv and run main.py again with that Python."""
    python = _venv_python()
    in_venv = Path(sys.prefix).resolve() == VENV.resolve()
    manual = (
        f"{'py' if os.name == 'nt' else 'python3'} -m venv .venv && "
        f"{python.relative_to(HERE)} -m pip install -r requirements.txt"
    )
    if in_venv or os.environ.get("CONNECT4_NO_SETUP"):
        print(f"Missing {', '.join(missing)}. Run, in {HERE}:\n  {manual}", file=sys.stderr)
        return 1
    print(f"First start: installing {', '.join(missing)} into {VENV} ...", file=sys.stderr)
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "-r", str(HERE / "requirements.txt")], check=True
        )
    except (subprocess.CalledProcessError, OSError) as error:
        hint = ""
        if sys.platform.startswith("linux"):
            hint = "\n(On Debian/Ubuntu first: sudo apt install python3-venv)"
        print(f"Setting up failed ({error}). Run, in {HERE}:\n  {manual}{hint}", file=sys.stderr)
        return 1
    return subprocess.call([str(python), str(HERE / "main.py"), *argv])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.path.insert(0, str(HERE))
    missing = _missing_modules()
    wants_window = not argv or argv[0] in WINDOW_COMMANDS
    if missing and (wants_window or "numpy" in missing):
        return _set_up_and_rerun(missing, argv)
    if not wants_window:
        from game.cli import main as cli_main

        return cli_main(argv)
    from game.app import launch

    return launch(argv)


if __name__ == "__main__":
    sys.exit(main())
