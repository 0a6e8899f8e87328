#!/usr/bin/env python3
"""Connect Four: a minimax explorer you can play.

``python main.py`` opens the game window; ``python main.py --help`` lists the commands
(one-move, interactive, analyze, solve, demo).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and not (argv[0] in ("demo",)):
        from game.cli import main as cli_main

        return cli_main(argv)
    from game.launcher import launch

    return launch(argv)


if __name__ == "__main__":
    sys.exit(main())
