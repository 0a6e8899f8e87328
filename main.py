#!/usr/bin/env python3
"""Connect Four: a minimax explorer you can play.

``python main.py`` opens the game window; ``python main.py --help`` lists the commands
(one-move, interactive, analyze, solve, demo, ...).  ``game.launcher`` routes them.

On a machine without the game's packages this file sets the game up first: it makes a
virtual environment ``.venv`` beside itself, installs ``requirements.txt`` into it (the
run-time needs only) and runs itself again there.  Later starts use ``.venv`` directly and
run pip again only when ``requirements.txt`` has changed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
REQUIREMENTS = HERE / "requirements.txt"
STAMP = VENV / ".connect4-requirements"
"""Holds the hash of the requirements.txt that was last installed into .venv."""
RUNTIME_MODULES = (("numpy", "numpy"), ("bitbully_databases", "bitbully-databases"), ("pygame", "pygame-ce"))
WINDOW_ONLY = {"pygame-ce"}
WINDOW_COMMANDS = {"demo"}
"""Subcommands that drive the pygame window; game.launcher routes them (it cannot be
imported before set-up, since the game package needs numpy)."""


def _missing_packages(window: bool) -> list[str]:
    """The run-time packages this Python lacks (pygame-ce counts only for the window)."""
    missing = []
    for module, package in RUNTIME_MODULES:
        if package in WINDOW_ONLY and not window:
            continue
        if importlib.util.find_spec(module) is None:  # found, not imported: no side effects
            missing.append(package)
    return missing


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _requirements_hash() -> str:
    return hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()


def _set_up_and_rerun(missing: list[str], argv: list[str]) -> int:
    """Install the run-time requirements into .venv (once) and run main.py there."""
    python = _venv_python()
    manual = (
        f"{'py' if os.name == 'nt' else 'python3'} -m venv .venv && "
        f"{python.relative_to(HERE)} -m pip install -r requirements.txt"
    )
    if Path(sys.prefix).resolve() == VENV.resolve() or os.environ.get("CONNECT4_NO_SETUP"):
        print(f"Missing {', '.join(missing)}. Run, in {HERE}:\n  {manual}", file=sys.stderr)
        return 1
    try:
        if not python.exists():
            print(f"First start: installing {', '.join(missing)} into {VENV} ...", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        up_to_date = STAMP.exists() and STAMP.read_text().strip() == _requirements_hash()
        if not up_to_date:
            if STAMP.exists():
                print("requirements.txt changed: updating .venv ...", file=sys.stderr)
            subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)], check=True)
            STAMP.write_text(_requirements_hash() + "\n")
    except (subprocess.CalledProcessError, OSError) as error:
        hint = "\n(On Debian/Ubuntu first: sudo apt install python3-venv)" if sys.platform.startswith("linux") else ""
        print(f"Setting up failed ({error}). Run, in {HERE}:\n  {manual}{hint}", file=sys.stderr)
        return 1
    return subprocess.call([str(python), str(HERE / "main.py"), *argv])


def _display_problem() -> str | None:
    """game.launcher's ``display_problem``, read before set-up: the launcher needs only the
    standard library, but importing it through the ``game`` package would need numpy."""
    spec = importlib.util.spec_from_file_location("_connect4_launcher", HERE / "game" / "launcher.py")
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    problem: str | None = module.display_problem()
    return problem


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, str(HERE))
    missing = _missing_packages(window=not argv or argv[0] in WINDOW_COMMANDS)
    if missing and not argv:
        problem = _display_problem()  # say it now, not after installing a window nobody sees
        if problem:
            print(f"main.py: {problem}", file=sys.stderr)
            return 1
    if missing:
        return _set_up_and_rerun(missing, argv)
    from game.launcher import main as route

    return route(argv)


if __name__ == "__main__":
    sys.exit(main())
