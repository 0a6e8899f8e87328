"""The archive's fault-injection runs (``tests/test_archive_faults.py`` checks them).

``python -m tests.archive_faults FOLDER`` plays the life of two games in a fresh process
for every write point SQLite makes in it (``tests/faulty_vfs.py``), three times over:

- ``kill``: the process is killed (SIGKILL) at write point N, before the write;
- ``fail``: write point N fails with an I/O error, once; the life goes on;
- ``full``: write point N and every later one fail (a disk that filled up).

A game's life: open the archive (two games from before, and the game another window
left unfinished), keep the game in progress after each move, store the finished game,
store its review summary; a second game the same way; close.  Each run starts from a
copy of the same archive in ``FOLDER/runs/<mode>-<N>`` and forks from this process (so
it starts in a millisecond, single-threaded); the child says on a pipe each game it was
told was stored (``ack``), each that waits (``wait``), each ``close`` could keep nowhere
(``lost``).  ``FOLDER/runs.json`` lists every run: its folder, mode, point, how the
process ended and what it said.  The test, not this script, judges the folders.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import sys
from pathlib import Path

from game.archive.store import Archive
from game.records import HUMAN, GameResult
from game.rules import Rules

RULES = Rules()
BEFORE = ((100.0, "4455667"), (200.0, "1122334"))
"""The games already stored when the life begins (played_at, moves)."""
LIFE = ((1000.0, "3344556"), (2000.0, "7766554"))
"""The games of the life."""


def _moves(text: str) -> list[int]:
    return [int(char) - 1 for char in text]


def make_start(folder: Path) -> None:
    """The archive every run starts from: two games, a game another window left."""
    archive = Archive.open(folder)
    for at, moves in BEFORE:
        archive.add_game(RULES, _moves(moves), GameResult.FIRST, first=HUMAN, second="Easy", played_at=at)
    archive.save_in_progress(RULES, _moves("444"), first=HUMAN, second="Hard")
    archive.close()
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite3"], list(folder.iterdir())


def life(folder: Path, say) -> int:
    """A session with two games; returns the write points it met (for the counting run)."""
    archive = Archive.open(folder)
    for at, text in LIFE:
        moves = _moves(text)
        for plies in range(1, len(moves)):
            archive.save_in_progress(RULES, moves[:plies], first=HUMAN, second="Easy")
        game_id = archive.add_game(
            RULES, moves, GameResult.FIRST, first=HUMAN, second="Easy", second_depth=2, played_at=at
        )
        say(f"{'ack' if game_id is not None else 'wait'} {at}")
        if game_id is not None:
            archive.set_review(game_id, {"accuracy": {"1": 1.0, "2": 0.5}})
    for record in archive.close():
        say(f"lost {record.played_at}")
    return 0


def run(folder: Path, **plan_options) -> dict:
    """One life in a forked child under a fault plan; what it said and how it ended."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never back into the caller
        code = 1
        try:
            os.close(read)
            from tests.faulty_vfs import FaultPlan, install

            plan = FaultPlan(**plan_options)
            install(plan)
            out = os.fdopen(write, "w", buffering=1)
            life(folder, lambda text: out.write(text + "\n"))
            out.write(f"points {len(plan.points)} {json.dumps(plan.points)}\n")
            out.close()
            code = 0
        except BaseException:  # an exception out of the archive: the run fails
            import traceback

            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as stream:
        said = stream.read().splitlines()
    _, status = os.waitpid(pid, 0)
    ended = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    return {"said": said, "ended": ended}


def main(folder: Path) -> None:
    start = folder / "start"
    make_start(start)
    counted = run(_copy(start, folder / "runs" / "count"))
    assert counted["ended"] == 0, counted
    points = json.loads(counted["said"][-1].split(" ", 2)[2])
    runs = [{"mode": "count", "point": 0, "folder": str(folder / "runs" / "count"), **counted}]
    for mode, options in (("kill", {}), ("fail", {}), ("full", {"persistent": True})):
        for point in range(1, len(points) + 1):
            target = _copy(start, folder / "runs" / f"{mode}-{point}")
            plan = {"kill_at": point} if mode == "kill" else {"fail_at": point, **options}
            runs.append({"mode": mode, "point": point, "folder": str(target), **run(target, **plan)})
    (folder / "runs.json").write_text(json.dumps({"points": points, "runs": runs}))


def _copy(start: Path, target: Path) -> Path:
    shutil.copytree(start, target)
    return target


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    logging.getLogger("game.archive.store").setLevel(logging.CRITICAL)  # hundreds of runs: the test says what matters
    main(Path(sys.argv[1]))
