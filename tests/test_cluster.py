"""The match runner on a real Dask cluster (issue 32): every wait bounded, the games of a
dead worker played again, a clear line when the cluster is gone, and ``--cluster ""``
refused (Ctrl+C at any moment of a match: tests/test_match_interrupt.py)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from game.cli.main import main
from tests.dask_cluster import running_cluster

ROOT = Path(__file__).resolve().parent.parent


class Match:
    """``main.py match ...`` (or ``command``: ``tournament``) in its own process group; its
    stderr (the progress line and the notices) read as it comes, so a test can wait for a
    number of finished games."""

    def __init__(self, *argv: str, command: str = "match"):
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), command, *argv],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own group, as a terminal's foreground job
        )
        self.err = self.out = ""
        self.readers = [threading.Thread(target=self._read, args=(name,), daemon=True) for name in ("out", "err")]
        for reader in self.readers:
            reader.start()

    def _read(self, name: str) -> None:
        stream = self.process.stdout if name == "out" else self.process.stderr
        assert stream is not None
        for chunk in iter(lambda: stream.read(1), ""):
            setattr(self, name, getattr(self, name) + chunk)

    def games_done(self) -> int:
        found = re.findall(r"(\d+)/\d+ games", self.err)
        return int(found[-1]) if found else 0

    def wait_for_games(self, count: int, seconds: float = 90) -> None:
        deadline = time.monotonic() + seconds
        while self.games_done() < count:
            assert time.monotonic() < deadline and self.process.poll() is None, self.err
            time.sleep(0.1)

    def interrupt(self) -> None:
        os.killpg(self.process.pid, signal.SIGINT)  # what Ctrl+C sends: the whole foreground group

    def finish(self, seconds: float) -> tuple[str, float]:
        """Wait for the match at most ``seconds``; (its stdout, the seconds it took)."""
        started = time.monotonic()
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise AssertionError(f"the match did not end within {seconds:.0f} s: {self.err[-500:]}") from None
        took = time.monotonic() - started
        for reader in self.readers:
            reader.join(10)
        return self.out, took

    @property
    def code(self) -> int | None:
        return self.process.returncode


def test_an_empty_cluster_address_is_refused(capsys):
    """Issue 32: ``--cluster ""`` silently played the match on this machine."""
    assert main(["match", "depth:1", "depth:1", "--games", "2", "--cluster", ""]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "--cluster needs the address of a Dask scheduler" in captured.err


@pytest.mark.slow
def test_a_cluster_nobody_listens_on_fails_in_one_line_at_once():
    match = Match("depth:1", "depth:1", "--games", "2", "--cluster", "tcp://127.0.0.1:9")
    out, took = match.finish(30)
    assert match.code == 2 and out == "" and match.err.count("\n") == 1, match.err
    assert "cannot reach the cluster at tcp://127.0.0.1:9" in match.err
    print(f"\nrefused in {took:.1f} s: {match.err.strip()}")


@pytest.mark.slow
def test_dead_workers_games_are_played_again_and_a_cluster_without_workers_ends_the_match():
    """Issue 32: with its Dask workers dead, ``match --cluster`` waited silently for ever.
    One worker of two killed: the other plays its games again; then the last one killed:
    the match ends within 60 s, reporting the games played and why it stopped."""
    with running_cluster(2) as cluster:
        match = Match("depth:4", "depth:4", "--games", "40", "--cluster", cluster.address)
        match.wait_for_games(2)
        os.kill(cluster.workers[0], signal.SIGKILL)
        match.wait_for_games(match.games_done() + 2)  # the other worker plays on
        os.kill(cluster.workers[1], signal.SIGKILL)
        out, took = match.finish(60)
    assert match.code == 1, match.err
    assert "Traceback" not in match.err and "ERROR" not in match.err, match.err
    assert "a worker of the cluster left" in match.err
    assert re.search(r"Stopped after \d+ finished games: the cluster at \S+ has had no worker for \d+ s", out), out
    print(f"\nthe match ended {took:.1f} s after its last worker was killed")


@pytest.mark.slow
def test_a_cluster_whose_scheduler_dies_ends_the_match_with_a_clear_line_and_ctrl_c_exits_130():
    with running_cluster(1) as cluster:
        match = Match("depth:4", "depth:4", "--games", "40", "--cluster", cluster.address)
        match.wait_for_games(1)
        match.interrupt()  # Ctrl+C in the middle of a match on the cluster
        out, _ = match.finish(30)
        assert match.code == 130 and "Traceback" not in match.err, match.err
        assert "Stopped by the user after" in out
        match = Match("depth:4", "depth:4", "--games", "40", "--cluster", cluster.address)
        match.wait_for_games(1)
        os.killpg(cluster.scheduler.pid, signal.SIGKILL)  # the scheduler and its worker
        out, took = match.finish(60)
    assert match.code == 1, match.err
    assert "Traceback" not in match.err and "ERROR" not in match.err, match.err
    assert re.search(r"Stopped after \d+ finished games: lost the cluster at \S+", out), out
    print(f"\nthe match ended {took:.1f} s after its scheduler was killed")
