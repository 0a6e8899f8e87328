"""A real Dask cluster on loopback for the cluster tests: a scheduler in one process and
each worker in a process of its own, without a nanny (a killed worker stays dead).

``python -m tests.dask_cluster N`` prints ``ADDRESS PID...`` (the scheduler's address
and the worker processes) once the N workers have joined, then serves until killed.
``running_cluster(n)`` starts it for a test and kills every process at the end.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class RunningCluster:
    address: str
    scheduler: subprocess.Popen
    workers: list[int]


@contextlib.contextmanager
def running_cluster(workers: int = 2) -> Iterator[RunningCluster]:
    """A scheduler and ``workers`` worker processes on 127.0.0.1, all gone afterwards."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the workers unpickle the match's tasks
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "tests.dask_cluster", str(workers)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own group: the workers go with it
    )
    try:
        assert scheduler.stdout is not None
        line = scheduler.stdout.readline().split()
        assert line, "the cluster did not start"
        yield RunningCluster(line[0], scheduler, [int(pid) for pid in line[1:]])
    finally:
        with contextlib.suppress(OSError):
            os.killpg(scheduler.pid, signal.SIGKILL)
        scheduler.wait()


def main(workers: int) -> None:
    import distributed

    cluster = distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", scheduler_port=0, dashboard_address=None
    )
    command = [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address]
    command += ["--no-nanny", "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"]
    started = [subprocess.Popen(command, stderr=subprocess.DEVNULL) for _ in range(workers)]
    client = distributed.Client(cluster)
    client.wait_for_workers(workers, timeout=120)
    print(cluster.scheduler_address, *(p.pid for p in started), flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main(int(sys.argv[1]))
