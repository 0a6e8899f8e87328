"""One thread for numpy's linear algebra, set before numpy is first imported (``game``'s
first import).

numpy's wheels bring OpenBLAS, which starts a thread per core as numpy is imported and
gives each its buffers: 30 ms of CPU on two cores, a quarter of numpy's import and a tenth
of a whole ``analyze`` question (``lab.startup_bench``), in every process: each command,
the window and its AI worker.  Nothing in the game does linear algebra (boards are small
integer arrays).  A person's own ``OPENBLAS_NUM_THREADS`` is kept.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
