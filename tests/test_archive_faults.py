"""Faults in the manner of SQLite's own crash and I/O-error tests: the archive's writer is
killed, or its write fails, at every write point of a game's life in turn
(``tests/archive_faults.py`` plays the runs, this test judges every one of them)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from game.archive.database import FILE_NAME
from game.archive.store import Archive
from tests.archive_faults import BEFORE, LIFE

ROOT = Path(__file__).resolve().parent.parent


def judge(run: dict) -> list[str]:
    """What is wrong with the folder a run left (nothing: an empty list)."""
    problems = []
    said = [line.split(" ", 1) for line in run["said"] if not line.startswith("points ")]
    acked = {float(at) for word, at in said if word == "ack"}
    lost = {float(at) for word, at in said if word == "lost"}
    if run["mode"] == "kill":
        if run["ended"] != -signal.SIGKILL:
            problems.append(f"ended {run['ended']}, not killed")
        expected = {at for at, _ in BEFORE} | acked
    else:
        if run["ended"] != 0:
            problems.append(f"an exception left the archive (exit {run['ended']})")
        if lost:
            problems.append(f"games kept nowhere at close: {sorted(lost)}")
        expected = {at for at, _ in BEFORE + LIFE}  # acknowledged or not, every game is kept
    folder = Path(run["folder"])
    check = sqlite3.connect(folder / FILE_NAME)
    try:
        integrity = check.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        check.close()
    if integrity != "ok":
        problems.append(f"integrity_check: {integrity}")
    archive = Archive.open(folder)  # takes in a recovery file left by the run
    try:
        if archive.warning is not None:
            problems.append(f"warning on the next open: {archive.warning}")
        stored = Counter(game.played_at for game in archive.games())
        missing = sorted(at for at in expected if stored[at] == 0)
        twice = sorted(at for at, count in stored.items() if count > 1)
        if missing:
            problems.append(f"games lost: {missing}")
        if twice:
            problems.append(f"games stored twice: {twice}")
        if archive.recovery_files():
            problems.append("a recovery file was not taken in")
    finally:
        archive.close()
    return [f"{run['mode']} at write point {run['point']}: {problem}" for problem in problems]


@pytest.fixture
def runs_folder(tmp_path):
    """A folder for the runs: in memory (tmpfs) where there is one, as the hundreds of
    syncs of the runs cost seconds on a disk and prove nothing more; else ``tmp_path``."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="connect4-faults-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_a_kill_or_an_io_error_at_every_write_point_loses_no_acknowledged_game(runs_folder):
    """Issue 32: the archive's crash test killed one writer once and faked one full disk
    inside SQLite.  Here every write point of a game's life (each write, sync, truncate
    and delete SQLite makes, the checkpoint at close included) is, in turn, a crash, an
    I/O error, and the start of a full disk; after each the archive passes
    integrity_check and holds every game acknowledged before (after an I/O error: every
    game, written or kept in the recovery file), each once."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.archive_faults", str(runs_folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((runs_folder / "runs.json").read_text())
    points = data["points"]
    kinds = Counter(kind for kind, _ in points)
    assert len(points) >= 30 and set(kinds) == {"write", "sync", "truncate", "delete"}, kinds
    runs = [run for run in data["runs"] if run["mode"] != "count"]
    assert Counter(run["mode"] for run in runs) == {"kill": len(points), "fail": len(points), "full": len(points)}
    problems = [problem for run in runs for problem in judge(run)]
    assert not problems, "\n".join(problems[:40])
    acknowledged = sum(line.startswith("ack ") for run in runs if run["mode"] == "kill" for line in run["said"])
    print(
        f"\n{len(points)} write points ({dict(kinds)}), {len(runs)} runs, {acknowledged} games acknowledged before a kill, 0 lost"
    )
