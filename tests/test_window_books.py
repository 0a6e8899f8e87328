"""The window with damaged opening books (issue 17 rerun): the Perfect level and the
analysis board never wait hours for a solve the book would have answered.

A copy of ``bitbully-databases`` with its values flipped is placed first on the path of a
child process (as in ``test_book_trust``); the subprocess timeouts are hang guards only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_book_trust import ROOT, _copy_package, _flip_values, _with_compiled_kernels

pytestmark = pytest.mark.window


@pytest.fixture(scope="module")
def flipped_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("flipped-window")
    _flip_values(_copy_package(site))
    return site


def _child(site: Path, cache: Path, code: str) -> dict:
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{ROOT}", XDG_CACHE_HOME=str(_with_compiled_kernels(cache)))
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
    )  # a hang guard: without the book the solve from one disc takes hours
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


MOVE_JOB = """
import json
import numpy as np
from ai.levels import PRESETS
from game.app.worker_protocol import JobFailed, JobPurpose, SearchJob
from game.app.worker_jobs import run_job
from game.board import Board
board = Board.from_moves("4")
sent = []
for purpose in (JobPurpose.MOVE, JobPurpose.HINT):
    job = SearchJob(board.grid.copy(), board.rules, board.to_move, level=PRESETS["Perfect"], purpose=purpose)
    run_job(1, job, sent.append, lambda: False)
print(json.dumps([[type(m).__name__, getattr(m, "message", None) or getattr(getattr(m, "answer", None), "note", "")]
                  for m in sent if type(m).__name__ in ("JobResult", "JobFailed")]))
"""


def test_perfect_with_a_damaged_book_plays_expert_at_once_and_says_why(flipped_site, tmp_path):
    """The decider owns the fallback: Perfect's move and hint come from Expert without the
    book, at once, and the answer's note names the book and the fix (the screen shows it)."""
    sent = _child(flipped_site, tmp_path, MOVE_JOB)
    assert [kind for kind, _ in sent] == ["JobResult", "JobResult"]
    assert all("book_12ply_distances.dat is damaged" in text and "reinstall" in text for _, text in sent)
    assert all("Expert plays for Perfect" in text for _, text in sent)


EXPERT_JOB = """
import json
from ai.levels import PRESETS
from game.app.worker_protocol import JobPurpose, SearchJob
from game.app.worker_jobs import run_job
from game.board import Board
board = Board.from_moves("4")
sent = []
job = SearchJob(board.grid.copy(), board.rules, board.to_move, level=PRESETS["Expert"], purpose=JobPurpose.MOVE)
run_job(1, job, sent.append, lambda: False)
print(json.dumps([[type(m).__name__, getattr(getattr(m, "answer", None), "move", None),
                   getattr(getattr(m, "answer", None), "note", None)] for m in sent]))
"""


def test_expert_the_stand_in_plays_without_a_damaged_book_and_says_so(flipped_site, tmp_path):
    """Expert knows the book up to 12 discs: with the book refused it searched a solve of
    hours instead (the window then had no move at all); now its search decides."""
    sent = _child(flipped_site, tmp_path, EXPERT_JOB)
    (result,) = [message for message in sent if message[0] == "JobResult"]
    _, move, note = result
    assert move is not None
    assert "book_12ply_distances.dat is damaged" in note


ANALYSIS = """
import json, time
from game.app.scenes.analysis import AnalysisScene
from game.board import Board
app = start_app((900, 700), home=%r)
scene = AnalysisScene(Board.from_moves("44"))
app.stack.push(scene)
deadline = time.time() + 60
while scene.answer is None and scene.no_scores_reason is None and time.time() < deadline:
    app.step([], 1 / 60)
    time.sleep(0.01)
lines = scene.status_lines()
busy = scene.job.id is not None
app.close()
print(json.dumps({"lines": lines, "busy": busy, "toast": app.toast[0] if app.toast else None}))
"""


@pytest.mark.slow
def test_the_analysis_board_says_the_book_is_damaged_instead_of_working_for_hours(
    flipped_site, tmp_path, window_script
):
    shown = _child(flipped_site, tmp_path / "cache", window_script(ANALYSIS % str(tmp_path / "home")))
    assert not shown["busy"]
    text = " ".join(shown["lines"])
    assert "working out" not in text  # the scores were proven without the book, or not: either way at once
    assert "book_12ply_distances.dat is damaged" in text and "reinstall bitbully-databases" in text
