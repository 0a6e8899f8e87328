"""``python -m ai.compiled``: make every kernel ready now (load its file, or compile and
prove it), saying how long each took.  The first start's set-up (``main.py``) runs it after
installing the packages, so the first answer past the opening book does not wait for a
build; the game works without it (a kernel is built when first needed, and the Python
path answers meanwhile)."""

from __future__ import annotations

import sys
import time

from ai.compiled import mcts_kernel, search_kernel, solver_kernel


def main() -> int:
    """Prepare the solver's, the search's and the playouts' kernels; exit 1 where one is unavailable."""
    ready = True
    for loader in (solver_kernel.LOADER, search_kernel.LOADER, mcts_kernel.LOADER):
        started = time.monotonic()
        ready = loader.prepare() and ready
        print(f"  {loader.status()} ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)
    return 0 if ready else 1


if __name__ == "__main__":
    raise SystemExit(main())
