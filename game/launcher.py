"""Where a command goes, for ``python main.py`` and the installed ``connect4`` and
``connect4-gui`` scripts.

No arguments opens the window; ``demo`` runs the headless demo through the real scenes;
``--version`` is answered here, ``install-desktop`` and ``uninstall-desktop`` by
``game.desktop``; anything else is a command of ``game.cli``, whose table imports only the
chosen command's module.  The window, the demo and the desktop installer are imported only
when they are asked for, so a plain command never loads pygame."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from game.cli.commands import Command
from game.cli.main import import_command
from game.cli.main import main as cli_main
from game.display_check import display_problem
from game.version import __version__

WINDOW_COMMANDS = (
    Command(
        "open",
        "open the window on a game: a game file, a move string, a ?pos= link or a board file",
        "game.app.open_command",
    ),
    Command(
        "depth-chart",
        "chart how often each search depth keeps the exact outcome, and its nodes (PNG)",
        "game.app.depth_chart_command",
    ),
    Command(
        "mcts-chart",
        "chart how often MCTS (plain and MCTS-Solver) keeps the exact outcome, per budget of playouts",
        "game.app.mcts_chart_command",
    ),
    Command(
        "course",
        "a course in game-tree search: --list prints the lessons, --lesson N opens one",
        "game.app.course_command",
    ),
)
"""The commands that need the window's package, added here to the command line's table
(``game.cli`` sits below the window and names none of its modules)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the window, the demo or a subcommand; return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not args:
        problem = display_problem()
        if problem:
            print(f"{_program()}: {problem}", file=sys.stderr)
            return 1
        from game.app.loop import launch  # pygame and the window: only when it opens

        _python_takes_ctrl_c()
        return launch()
    if args[0] == "--version":
        print(version_text())
        return 0
    if args[0] in ("install-desktop", "uninstall-desktop"):
        from game.desktop.install import main as desktop_main  # its icons and files: only for these two

        _python_takes_ctrl_c()
        return desktop_main(args, _program())
    if args[0] == "demo":
        from game.app.demo import main as demo_main  # pygame and the scenes: only for the demo

        _python_takes_ctrl_c()
        return demo_main(args[1:])
    if args[0] in ("host", "join") and "--terminal" not in args and not {"-h", "--help"} & set(args):
        from game.app.network_command import main as network_window  # pygame: only for the window

        _python_takes_ctrl_c()
        return network_window(args)
    import_command(args, WINDOW_COMMANDS)  # its imports take a while: Ctrl+C still ends the start quietly
    _python_takes_ctrl_c()
    return cli_main(args, more=WINDOW_COMMANDS)


def _python_takes_ctrl_c() -> None:
    """The command's modules are imported: main.py's quiet exit on Ctrl+C during the start
    (``_quiet_exit``) ends, and Ctrl+C is Python's KeyboardInterrupt again, which each
    command catches and says.  (Started otherwise, Python's handler was never replaced.)"""
    if getattr(signal.getsignal(signal.SIGINT), "during_start", False):
        signal.signal(signal.SIGINT, signal.default_int_handler)


def gui_main() -> int:
    """The ``connect4-gui`` script (a gui-script: no console window on Windows).

    Where there is no console (``pythonw``), what the game would print goes to
    ``connect4-gui.log`` in the temporary folder instead of nowhere.
    """
    if sys.stdout is None or sys.stderr is None:
        import tempfile  # only without a console: a command never pays its import

        log = open(Path(tempfile.gettempdir()) / "connect4-gui.log", "a", encoding="utf-8")  # noqa: SIM115
        sys.stdout = sys.stdout or log
        sys.stderr = sys.stderr or log
    return main(sys.argv[1:])


def version_text() -> str:
    """``connect4 0.3.0`` (the program's name as it was started)."""
    return f"{_program()} {__version__}"


def _program() -> str:
    name = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else ""
    return name if name in ("connect4", "connect4-gui") else "main.py"


if __name__ == "__main__":
    sys.exit(main())
