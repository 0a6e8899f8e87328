"""One question on the command line loads only what it uses (issue 39, start-up at the floor).

``analyze MOVES --level perfect`` just past the opening book is the whole-process figure
``lab.startup_bench`` compares with the C++ solver BitBully: every module it imports and
every kernel it loads is paid for by each such process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.test_cli import ROOT

PAST_THE_BOOK = "2554576473734"
"""13 plies (the books end at 12): the exact solver runs."""

NOT_FOR_A_QUESTION = ("pygame", "numba", "multiprocessing", "game.app", "ai.reviewer")
"""The window, the compiler, process pools (only a build of the early table uses one), the window's package."""


def analyze_in_a_fresh_process() -> dict[str, object]:
    code = (
        "import io, json, sys\n"
        "from game.launcher import main\n"
        "out, sys.stdout = sys.stdout, io.StringIO()\n"
        f"code = main(['analyze', {PAST_THE_BOOK!r}, '--level', 'perfect'])\n"
        "printed, sys.stdout = sys.stdout.getvalue(), out\n"
        "from ai.compiled import search_kernel, solver_kernel\n"
        "import os, threading\n"
        "native = len(os.listdir('/proc/self/task')) - threading.active_count()\n"
        "print(json.dumps({'code': code, 'printed': printed, 'modules': sorted(sys.modules), 'native': native,\n"
        "    'kernels': {'solver': solver_kernel.LOADER.state, 'search': search_kernel.LOADER.state}}))\n"
    )
    env = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}  # as a shell starts it
    env_code = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert env_code.returncode == 0, env_code.stderr
    result: dict[str, object] = json.loads(env_code.stdout.strip().splitlines()[-1])
    return result


def test_a_question_past_the_book_loads_one_kernel_and_nothing_of_the_window():
    result = analyze_in_a_fresh_process()
    assert result["code"] == 0
    assert "Exact values for" in str(result["printed"]) and "Level perfect plays:" in str(result["printed"])
    modules = set(result["modules"])  # type: ignore[call-overload]
    loaded = sorted(m for m in modules if any(m == bad or m.startswith(bad + ".") for bad in NOT_FOR_A_QUESTION))
    assert loaded == []
    kernels = result["kernels"]
    assert isinstance(kernels, dict)
    assert kernels["search"] == "new", "the depth-6 search runs in Python: one kernel file is loaded, not two"
    assert result["native"] == 0, "numpy's OpenBLAS started threads of its own (a quarter of numpy's import)"
    assert kernels["solver"] in ("ready", "failed", "new")  # not ready only without numba, or CONNECT4_PURE_PYTHON
