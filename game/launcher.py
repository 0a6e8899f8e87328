"""Where a command goes, for ``python main.py`` and the installed ``connect4`` script.

No arguments opens the window; ``demo`` runs the headless demo through the real scenes;
anything else is a command-line subcommand (``game.cli``), which never loads pygame.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the window, the demo or a subcommand; return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not args:
        from game.app.loop import launch

        return launch()
    if args[0] == "demo":
        from game.app.demo import main as demo_main

        return demo_main(args[1:])
    from game.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
