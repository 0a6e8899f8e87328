"""A match's games on a Dask cluster, with every wait bounded.

``connect(address)`` reaches the scheduler (``tcp://host:8786``) and returns a ``Cluster``:
a ``concurrent.futures`` executor that ``game.bots.runners.play_match`` submits games to, as it
does to its own worker processes.  Dask's ``distributed`` is an optional extra (``pip
install .[cluster]``); it is imported only here, and only when a cluster is used.

What can go wrong, and how long it may take:

- An empty address is refused at once; an address where nothing listens is refused
  after one TCP connection attempt (refused at once, or ``CONNECT_SECONDS``); a
  scheduler that does not answer within ``CONNECT_SECONDS`` likewise.
- A worker that dies: the scheduler plays its games again on the other workers (Dask
  reruns the tasks of a lost worker); ``health`` says it once on the notice stream.  A
  game whose workers keep dying (Dask's ``KilledWorker``) is given up, as the local
  runner gives one up (``game.bots.runners``).
- No worker at all for ``NO_WORKER_SECONDS`` (all killed, none started): the match
  stops, its finished games reported, and says why.
- The scheduler gone (killed, the network down): its connection closes, or it does not
  answer for ``LOST_SECONDS``: the match stops the same way.
- Closing (the players on the workers, then the client) takes at most ``CLOSE_SECONDS``
  each, and never raises.

Dask's own log lines (and the tracebacks they carry) are silenced: the match says in one
line what happened.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import socket
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

CONNECT_SECONDS = 10.0
ASK_SECONDS = 5.0
"""How long one question to the scheduler (its workers) may take."""
NO_WORKER_SECONDS = 15.0
LOST_SECONDS = 10.0
CLOSE_SECONDS = 5.0
EXAMPLE_ADDRESS = "tcp://127.0.0.1:8786"


class ClusterError(ValueError):
    """The cluster cannot be used; the message says why in one line."""


def check_address(address: str) -> str:
    """The scheduler's address without surrounding spaces (``ClusterError`` if empty)."""
    text = address.strip()
    if not text:
        raise ClusterError(f"--cluster needs the address of a Dask scheduler, such as {EXAMPLE_ADDRESS}")
    return text


def _probe(address: str) -> None:
    """Refuse at once an address where nothing listens (Dask retries until its timeout)."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp":
        return  # tls://, ucx://, inproc://: left to Dask
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        raise ClusterError(f"cannot reach the cluster at {address}: its port is not a number") from None
    if not host or port is None:
        raise ClusterError(f"cannot reach the cluster at {address}: it needs a host and a port, as {EXAMPLE_ADDRESS}")
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise ClusterError(f"cannot reach the cluster at {address}: {reason.lower()}") from None


def quiet_dask() -> None:
    """Silence Dask's logging (its errors arrive with tracebacks): the match says what
    went wrong in one line.  Dask's configuration gives some of its loggers a level of
    their own, and ``distributed`` a handler: each is turned off."""
    silent = logging.CRITICAL + 1
    families = ("distributed", "tornado", "asyncio")
    names = [name for name in logging.root.manager.loggerDict if name.split(".")[0] in families]
    for name in (*families, *names):
        logger = logging.getLogger(name)
        logger.setLevel(silent)
        for handler in logger.handlers:
            handler.setLevel(silent)


def connect(address: str) -> Cluster:
    """The cluster whose scheduler is at ``address``.

    Raises:
        ClusterError: no address, nothing listening there, or no answer in time.
        ImportError: Dask's ``distributed`` is not installed.
    """
    address = check_address(address)
    from distributed import Client  # only now: the cluster is an optional extra

    open_client: Callable[..., Any] = Client  # its __init__ has no annotations: say what it returns
    quiet_dask()
    _probe(address)
    try:
        client = open_client(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"cannot reach the cluster at {address}: {error}") from None
    return Cluster(client, address)


class Cluster(cf.Executor):
    """The executor of a connected Dask client, and the cluster's health."""

    def __init__(self, client: Any, address: str):
        self.client = client
        self.address = address
        self._executor: cf.Executor = client.get_executor()
        self._workers: int | None = None
        self._no_worker_since: float | None = None
        self._silent_since: float | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to stop here: ``close`` lets the client go."""

    def health(self) -> tuple[str | None, list[str]]:
        """(why the match must stop, or None; notices), asked about once a second.  A
        question to the scheduler takes at most ``ASK_SECONDS``."""
        now = time.monotonic()
        notes: list[str] = []
        if self.client.status in ("closing", "closed"):
            return f"lost the cluster at {self.address}: the connection to its scheduler closed", notes
        try:
            workers = len(self.client.nthreads(callback_timeout=ASK_SECONDS))
        except Exception:  # no answer: the scheduler is gone, or the network
            self._silent_since = self._silent_since or now
            if now - self._silent_since >= LOST_SECONDS:
                return (
                    f"lost the cluster at {self.address}: its scheduler has not answered for {LOST_SECONDS:.0f} s",
                    notes,
                )
            return None, notes
        self._silent_since = None
        if self._workers is not None and workers < self._workers:
            if workers:
                notes.append(
                    f"a worker of the cluster left ({self._workers} -> {workers}): "
                    "the scheduler plays its games again on the others"
                )
            else:
                notes.append(f"a worker of the cluster left: none is left, waiting {NO_WORKER_SECONDS:.0f} s for one")
        self._workers = workers
        if workers:
            self._no_worker_since = None
            return None, notes
        self._no_worker_since = self._no_worker_since or now
        if now - self._no_worker_since >= NO_WORKER_SECONDS:
            return f"the cluster at {self.address} has had no worker for {NO_WORKER_SECONDS:.0f} s", notes
        return None, notes

    def connected(self) -> bool:
        """Whether the client still talks to its scheduler (Dask cancels every game
        when the connection is lost)."""
        status: str = self.client.status
        return status == "running"

    def close(self, close_players: Callable[[], None] | None = None) -> None:
        """Close the players the workers built (``close_players`` on each), then the
        client, each within ``CLOSE_SECONDS``; never raises but for Ctrl+C."""
        if close_players is not None and self.connected():
            try:
                self.client.run(close_players, on_error="ignore", callback_timeout=CLOSE_SECONDS)
            except Exception:  # a worker without the game, a scheduler gone: nothing to close
                pass
        try:
            self.client.close(timeout=CLOSE_SECONDS)
        except Exception:
            pass
