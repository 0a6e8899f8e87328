"""One road to the AI: the window's process runs no AI and never loads the solver.

A scripted visit of every scene (``game.app.tour``: a game against the computer with a
hint and the column scores, the tree overlay with its comparison, move orders, code
walk, practice, depth chart and horizon line, the pause menu, the result panel, the
review, the analysis board, the opening explorer, the retry of the review's mistakes
and a tree from the review) runs in a fresh process; after
it, ``sys.modules`` holds neither numba nor the solver, its core, the book or the decider.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TOUR = """
import json, sys
from game.app.tour import Tour, loaded_solver_modules
if __name__ == "__main__":
    app = start_app((1024, 720))
    app.settings.sound = False
    seen = Tour(app).run()
    process = app.worker.use_process
    app.close()
    print(json.dumps({"seen": seen, "loaded": loaded_solver_modules(sys.modules), "process": process}))
"""


def test_a_visit_of_every_scene_loads_no_solver_in_the_window(window_script, tmp_path):
    script = tmp_path / "tour.py"
    script.write_text(window_script(TOUR))
    proc = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "home")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": ""},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    said = json.loads(proc.stdout.strip().splitlines()[-1])
    assert said["process"], "the AI ran in a thread of the window, not in its worker process"
    every = {
        "title",
        "options",
        "level select",
        "how to play",
        "past games",
        "play",
        "tree",
        "code",
        "practice",
        "depth chart",
        "pause",
        "game over",
        "review",
        "analysis",
        "explorer",
        "retry",
    }
    assert every <= set(said["seen"]), every - set(said["seen"])
    assert said["loaded"] == [], f"the window loaded {said['loaded'][:8]}"


def test_the_window_side_of_the_worker_imports_nothing_of_the_solver():
    """Importing every window module (as the App does) loads none of the solver's modules."""
    code = (
        "import importlib, pkgutil, sys, game.app\n"
        "from game.app.tour import loaded_solver_modules\n"
        "for m in pkgutil.walk_packages(game.app.__path__, 'game.app.'):\n"
        # the worker's side, the demo and the chart commands run in processes of their own
        "    if m.name not in ('game.app.worker_jobs', 'game.app.demo', 'game.app.depth_chart_command',\n"
        "                      'game.app.mcts_chart_command'):\n"
        "        importlib.import_module(m.name)\n"
        "print(loaded_solver_modules(sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "PATH": ""},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "[]"
