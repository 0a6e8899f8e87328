"""Parallel matches (issue 19): the same games for any number of workers, external engines
one process per running game, a worker killed mid-match, Ctrl+C, SPRT, a Dask cluster."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ai.levels import PRESETS
from game.board import Board, Termination
from game.bots.players import LevelSpec, Side
from game.bots.runners import MatchPlan, play_match
from game.bots.statistics import GameRecord, Sprt, Verdict, pentanomial, sprt_prefix
from game.bots.tournament import PlayerChoice
from game.rules import Rules
from tests.test_hostile_engines import LEFTMOST, gone_soon, pids_in

ROOT = Path(__file__).resolve().parent.parent

PID_BOT = (
    LEFTMOST
    + """
import os, sys
open(os.path.join({folder!r}, f"{{os.getpid()}}.pid"), "w").write(str(os.getpid()))
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "position":
        position = words
    elif words and words[0] == "go":
        print(f"bestmove {{leftmost(position)}}", flush=True)
    elif words and words[0] == "quit":
        break
"""
)
"""The leftmost bot, leaving its process id in ``folder``."""


def pid_bot(folder: Path) -> str:
    path = folder / "pid_bot.py"
    path.write_text(PID_BOT.format(folder=str(folder)))
    return f"engine:{sys.executable} {path}"


def new_children(before: set) -> list:
    """This process's child processes started since ``before`` that are still alive."""
    return [p for p in multiprocessing.active_children() if p not in before]


def children_left(before: set, seconds: float = 10.0) -> list:
    """The children started since ``before`` still alive after ``seconds``: a pool's worker
    told to stop may take a moment to end on a loaded machine; one that never ends is left."""
    deadline = time.monotonic() + seconds
    while (left := new_children(before)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


class KillOneWorker:
    """A match's ``on_game``: after the first game, kill one of the workers started since
    ``before`` (SIGKILL), and note its pid in ``killed``."""

    def __init__(self, before: set) -> None:
        self.before = before
        self.killed: list[int] = []

    def __call__(self, game: GameRecord) -> None:
        if not self.killed:
            worker = new_children(self.before)[0]
            self.killed.append(worker.pid or 0)
            os.kill(worker.pid or 0, signal.SIGKILL)


def moves_of(outcome) -> list[tuple[int, ...]]:
    return [game.moves for game in outcome.result.games]


@pytest.mark.slow
def test_two_workers_play_the_same_games_as_one():
    before = set(multiprocessing.active_children())  # other tests' workers may live on
    # a move time far beyond what depth 3 needs: a busy machine never cuts a search short
    a, b = PlayerChoice("depth:3"), PlayerChoice("beginner", seed=4)
    one = play_match(a, b, MatchPlan(Rules(), games=6, movetime=10.0, seed=4), jobs=1)
    two = play_match(a, b, MatchPlan(Rules(), games=6, movetime=10.0, seed=4), jobs=2)
    assert moves_of(one) == moves_of(two)
    assert [g.number for g in two.result.games] == list(range(1, 7))
    assert (two.result.wins, two.result.draws, two.result.losses) == (
        one.result.wins,
        one.result.draws,
        one.result.losses,
    )
    assert not children_left(before)


@pytest.mark.slow
def test_external_engines_get_a_process_per_running_game_and_none_is_left(tmp_path):
    outcome = play_match(
        PlayerChoice("depth:2"), PlayerChoice(pid_bot(tmp_path)), MatchPlan(Rules(), games=4, movetime=2.0), jobs=2
    )
    assert outcome.result.wins == 4
    assert all(game.failure is None for game in outcome.result.games)
    bots = pids_in(tmp_path)
    assert len(bots) == 2  # one per worker, kept between its games
    assert all(gone_soon(pid) for pid in bots)


@pytest.mark.parametrize("kind", ["illegal", "crash"])
@pytest.mark.slow
def test_a_broken_engine_loses_every_game_in_a_parallel_match(tmp_path, kind):
    before = set(multiprocessing.active_children())  # other tests' workers may live on
    from tests.helpers import write_bot
    from tests.test_tournament import BROKEN_BOTS, EXPECTED_FAILURE

    bot = PlayerChoice("engine:" + write_bot(tmp_path, kind, BROKEN_BOTS[kind]))
    outcome = play_match(PlayerChoice("depth:2"), bot, MatchPlan(Rules(), games=4, movetime=1.0), jobs=2)
    assert outcome.result.wins == 4
    assert outcome.result.failures(Side.B)[EXPECTED_FAILURE[kind]] == 4
    assert not children_left(before)


@pytest.mark.slow
def test_a_worker_killed_mid_match_has_its_games_replayed_and_the_match_finishes():
    before = set(multiprocessing.active_children())  # other tests' workers may live on
    a, b = LevelSpec("Medium", PRESETS["Medium"], 1), LevelSpec("depth 2", PRESETS["Easy"], 1)
    kill_a_worker = KillOneWorker(before)

    notices: list[str] = []
    outcome = play_match(
        a, b, MatchPlan(Rules(), games=8, seed=2), jobs=2, on_game=kill_a_worker, notice=notices.append
    )
    assert kill_a_worker.killed
    assert len(notices) == 1 and notices[0].startswith("a worker process died: replaying unfinished games")
    assert outcome.unplayed == () and not outcome.interrupted
    reference = play_match(a, b, MatchPlan(Rules(), games=8, seed=2), jobs=1)
    assert moves_of(outcome) == moves_of(reference)
    assert not children_left(before)


@pytest.mark.slow
def test_a_dead_workers_engines_are_killed_even_if_they_outlive_their_input(tmp_path):
    """The engine sleeps on when its input ends (its worker is gone): the runner kills
    the process groups the dead worker had listed."""
    before = set(multiprocessing.active_children())
    path = tmp_path / "stubborn.py"
    path.write_text(
        PID_BOT.format(folder=str(tmp_path)).replace('elif words and words[0] == "quit":\n        break', "")
        + "import time\ntime.sleep(600)\n"
    )
    kill_a_worker = KillOneWorker(before)

    outcome = play_match(
        PlayerChoice("depth:3"),
        PlayerChoice(f"engine:{sys.executable} {path}"),
        MatchPlan(Rules(), games=6, movetime=2.0),
        jobs=2,
        on_game=kill_a_worker,
        notice=lambda text: None,
    )
    assert kill_a_worker.killed and len(outcome.result.games) == 6 and outcome.result.wins == 6
    bots = pids_in(tmp_path)
    assert len(bots) >= 3  # two first workers, then fresh ones after the death
    assert all(gone_soon(pid) for pid in bots)
    assert not children_left(before)


def start_long_match(folder: Path, *, output: int) -> subprocess.Popen:
    """Start ``main.py match`` of depth:5 against a bot that notes its pid in ``folder``,
    2 workers, in a process group of its own (as a terminal's foreground job), and wait (at
    most 60 s) until both workers' bots run.  100,000 games: on a loaded machine 1,000 of
    them were all over before the test's signal came."""
    command = [sys.executable, str(ROOT / "main.py"), "match", "depth:5", pid_bot(folder), "--games", "100000"]
    proc = subprocess.Popen([*command, "--jobs", "2"], stdout=output, stderr=output, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(pids_in(folder)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    return proc


@pytest.mark.slow
def test_ctrl_c_stops_the_match_reports_finished_games_and_leaves_no_process(tmp_path):
    proc = start_long_match(tmp_path, output=subprocess.PIPE)
    time.sleep(2.0)  # some games finish
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl+C sends: the whole foreground group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "Stopped by the user after" in out and "Match: depth:5 (A)" in out
    assert all(gone_soon(pid) for pid in pids_in(tmp_path))
    leftovers = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _cmdline_has(p, str(tmp_path))]
    assert not leftovers


def _cmdline_has(proc: Path, text: str) -> bool:
    try:
        return text in (proc / "cmdline").read_bytes().decode(errors="replace") and not gone_soon(int(proc.name), 5)
    except OSError:
        return False


# -- SPRT -------------------------------------------------------------------------------


def synthetic_pairs(win: float, draw: float, pairs: int, seed: int) -> dict[int, GameRecord]:
    """Game pairs with A winning each game with probability ``win`` and drawing with ``draw``."""
    rng = random.Random(seed)
    records = {}
    for number in range(1, 2 * pairs + 1):
        roll = rng.random()
        winner = Side.A if roll < win else (None if roll < win + draw else Side.B)
        first = Side.A if number % 2 else Side.B
        records[number] = GameRecord(number, "344", first, (), winner, Termination.LINE)
    return records


def test_sprt_accepts_h1_for_a_clearly_stronger_player():
    test = Sprt(0, 50)
    outcome = sprt_prefix(test, synthetic_pairs(0.60, 0.15, 2000, seed=1))  # about +90 Elo
    assert outcome.verdict is Verdict.H1
    assert outcome.llr >= test.bounds[1] and outcome.games < 1000


def test_sprt_accepts_h0_for_equal_players():
    test = Sprt(0, 50)
    outcome = sprt_prefix(test, synthetic_pairs(0.4, 0.2, 2000, seed=2))
    assert outcome.verdict is Verdict.H0
    assert outcome.llr <= test.bounds[0]


def test_sprt_bounds_and_pair_counts_are_those_of_fishtest():
    lower, upper = Sprt(0, 5).bounds
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    records = synthetic_pairs(0.5, 0.0, 3, seed=3)
    counts = pentanomial(list(records.values()))
    assert sum(counts) == 3
    assert Sprt(0, 5).llr([0, 0, 0, 0, 0]) == 0.0
    with pytest.raises(ValueError, match="elo0 < elo1"):
        Sprt(10, 0)


@pytest.mark.slow
def test_a_real_sprt_match_stops_when_the_answer_is_clear():
    test = Sprt(0, 300)
    medium, beginner = LevelSpec("Medium", PRESETS["Medium"], 5), LevelSpec("Beginner", PRESETS["Beginner"], 5)
    outcome = play_match(medium, beginner, MatchPlan(Rules(), games=60, seed=5), jobs=2, sprt=test)
    assert outcome.sprt is not None and outcome.sprt.verdict is Verdict.H1
    assert len(outcome.result.games) == outcome.sprt.games < 60
    assert outcome.result.score > 0.6


@pytest.mark.slow
def test_sprt_command_reports_the_verdict_llr_and_elo():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "match", "medium", "beginner", "--sprt", "0", "300"]
        + ["--games", "60", "--movetime", "2000", "--seed", "5"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "H1 accepted" in proc.stdout and "LLR: " in proc.stdout and "Ptnml(0-2)" in proc.stdout
    assert "Elo (pairs): +" in proc.stdout
    bad = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "match", "hard", "easy", "--sprt", "5", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "elo0 < elo1" in bad.stderr and "Traceback" not in bad.stderr


# -- a Dask cluster ---------------------------------------------------------------------


@pytest.mark.slow
def test_a_match_on_a_local_dask_cluster_plays_the_same_games_as_one_worker():
    distributed = pytest.importorskip("distributed")
    from game.bots.runners import client_executor

    a, b = PlayerChoice("depth:3"), PlayerChoice("beginner", seed=7)
    reference = play_match(a, b, MatchPlan(Rules(), games=4, movetime=10.0, seed=7), jobs=1)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        dashboard_address=None,  # in-process: no port opened
    ) as cluster:
        client = distributed.Client(cluster)
        executor, close = client_executor(client)
        try:
            outcome = play_match(a, b, MatchPlan(Rules(), games=4, movetime=10.0, seed=7), executor=executor)
        finally:
            close()
    assert moves_of(outcome) == moves_of(reference)
    for game in outcome.result.games:
        assert Board.from_moves(game.moves_string(Rules())).is_game_over()


@pytest.mark.slow
def test_the_strength_benchmark_plays_the_same_match_with_two_workers():
    from lab.strength import Contestant, match, move_times

    easy, beginner = Contestant("Easy", PRESETS["Easy"]), Contestant("Beginner", PRESETS["Beginner"])
    one = match(easy, beginner, Rules(), 4, seed=11, jobs=1)
    two = match(easy, beginner, Rules(), 4, seed=11, jobs=2)
    assert [g.moves for g in one.games] == [g.moves for g in two.games]
    times = move_times(two)
    assert sum(len(t) for t in times.values()) == sum(len(g.moves) - len(g.opening) for g in two.games)
    proc = subprocess.run(
        [sys.executable, "-m", "lab.strength", "--ladder", "--jobs", "0"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and "--jobs must be at least 1" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "lab.strength", "--ladder", "--openings", "-3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "--openings must be at least 1" in proc.stderr


class Unbuildable:
    """A player spec whose player cannot be built (a worker without the engine, say)."""

    name = "unbuildable"

    def __hash__(self) -> int:
        return 1

    def __call__(self):
        raise RuntimeError("no such engine on this worker")


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.slow
def test_a_game_that_cannot_be_played_stops_the_match_with_a_reason(jobs):
    before = set(multiprocessing.active_children())  # other tests' workers may live on
    outcome = play_match(PlayerChoice("depth:1"), Unbuildable(), MatchPlan(Rules(), games=4, movetime=1.0), jobs=jobs)
    assert outcome.error is not None and "no such engine on this worker" in outcome.error
    assert outcome.result.games == ()
    assert not children_left(before)


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
@pytest.mark.slow
def test_a_match_killed_alone_leaves_no_worker_and_no_engine_behind(tmp_path, stop):
    """SIGTERM or SIGKILL to the match process only (as ``kill PID`` does, not Ctrl+C to the
    group): its pool workers and their engines used to live on, orphaned."""
    proc = start_long_match(tmp_path, output=subprocess.DEVNULL)
    try:
        workers = _children_of(proc.pid)
        assert len(workers) >= 2
        os.kill(proc.pid, stop)
        proc.wait(timeout=60)
        assert all(gone_soon(pid, 15) for pid in workers)
        assert all(gone_soon(pid, 15) for pid in pids_in(tmp_path))
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the test's own clean-up, whatever happened
        except OSError:
            pass


@pytest.mark.slow
def test_a_stop_request_ends_the_match_as_ctrl_c_does():
    """The match CLI's signal handler also sets a flag the match asks about each second: a
    Ctrl+C still stops a match whose KeyboardInterrupt went astray. (A match started in the
    background by a non-interactive shell inherits SIGINT ignored: the command now installs
    its own handler.)"""
    asked = itertools.count()
    outcome = play_match(
        PlayerChoice("depth:2"),
        PlayerChoice("beginner", seed=1),
        MatchPlan(Rules(), games=400, seed=3),
        jobs=2,
        stop_requested=lambda: next(asked) >= 3,
    )
    assert outcome.interrupted
    assert len(outcome.result.games) < 400
