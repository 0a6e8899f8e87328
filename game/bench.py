"""``python -m game.bench``: the window's benchmarks (frame times, idle CPU), in ``game.app.bench``.

This entry stays outside ``game/app/`` so the command is short; importing it loads no pygame.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    from game.app.bench import main

    sys.exit(main())
