"""The host's door under attack, measured: ``python -m lab.door_bench [--seconds S]``.

A real ``main.py host --terminal`` listens on 127.0.0.1 in a child process; from this
process, sixteen connections each send one byte every 0.05 s and never join (held, or each
reopened as soon as the host closes it), and one second into the attack the real joiner (a
``game.net.client.Client`` with the code) asks for its seat ("seated in": from asking to
its seat, the key's derivation included).  Then one address sends wrong
codes.  Printed: when the joiner was seated, how long the dribbling connections lived, how
many the attack opened, and the host process's CPU time (user + system, from /proc) over
the attack; and the answers the wrong codes got.  docs/network-play.md ("Hostile peers")
quotes a run.
"""

from __future__ import annotations

import argparse
import os
import platform
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from game.net.client import Client
from game.net.events import JoinFailed, Welcome
from game.net.host import MAX_CONNECTIONS
from game.net.protocol import HANDSHAKE_SECONDS, Seal, connection_key, decode, game_key, new_nonce

ROOT = Path(__file__).resolve().parents[1]
CODE = "moon-sand-fork-lamp"


class HostProcess:
    """``main.py host --terminal`` on 127.0.0.1, a port of the system's choice."""

    def __init__(self, home: Path):
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "host", "--terminal", "--port", "0", "--listen", "127.0.0.1"]
            + ["--code", CODE, "--name", "Alice", "--no-discovery", "--home", str(home)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
            env={**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if "main.py join " in line:
                address = line.split("main.py join ", 1)[1].split()[0]
                host, port = address.rsplit(":", 1)
                self.where = (host, int(port))
                break

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def dribble(
    where: tuple[str, int], again: bool, stop: threading.Event, lifetimes: list[float], opened: list[int]
) -> None:
    """One connection sending a byte every 0.05 s, never joining (``again``: reopened)."""
    first = True
    while not stop.is_set() and (first or again):
        first = False
        try:
            sock = socket.create_connection(where, timeout=5)
        except OSError:
            time.sleep(0.05)
            continue
        opened.append(1)
        started = time.monotonic()
        try:
            while not stop.is_set():
                sock.sendall(b" ")
                time.sleep(0.05)
        except OSError:
            if not stop.is_set():
                lifetimes.append(time.monotonic() - started)
        finally:
            sock.close()


def attack(host: HostProcess, again: bool | None, seconds: float) -> str:
    """One row: the joiner's seat and the host's work under ``again`` (None: no attack)."""
    where = host.where
    stop = threading.Event()
    lifetimes: list[float] = []
    opened: list[int] = []
    threads = [
        threading.Thread(target=dribble, args=(where, bool(again), stop, lifetimes, opened), daemon=True)
        for _ in range(0 if again is None else MAX_CONNECTIONS)
    ]
    cpu, started = host.cpu_seconds(), time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    joiner = Client(*where, CODE, "Bob")
    asked = time.monotonic()
    joiner.start()
    seated = "never"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            event = joiner.events.get(timeout=0.1)
        except queue.Empty:
            continue
        if isinstance(event, Welcome):
            seated = f"{time.monotonic() - asked:.2f} s"
            break
        if isinstance(event, JoinFailed):
            seated = f"refused: {event.reason}"
            break
    time.sleep(max(0.0, seconds - (time.monotonic() - started)))
    stop.set()
    for thread in threads:
        thread.join(timeout=5)
    used = host.cpu_seconds() - cpu
    joiner.close()
    name = {None: "no attack", False: "16 dribbling, held", True: "16 dribbling, reopened at once"}[again]
    longest = f"{max(lifetimes):.2f} s" if lifetimes else "-"
    return f"{name:<32} {seated:>10} {len(opened):>9,} {longest:>14} {used:>9.2f}"


def wrong_codes(where: tuple[str, int], tries: int) -> list[str]:
    """What ``tries`` wrong codes in a row from one address hear (a second apart)."""
    key = None
    answers = []
    for _ in range(tries):
        sock = socket.create_connection(where, timeout=5)
        reader = sock.makefile("rb")
        hello = decode(reader.readline().rstrip(b"\n"))
        if hello.get("t") == "refused":
            answers.append(f"refused before the code: {hello.get('why')} {hello.get('seconds', '')}".strip())
        else:
            key = key or game_key("wrong-code-here", bytes.fromhex(hello["salt"]))
            nonce = new_nonce()
            seal = Seal(connection_key(key, bytes.fromhex(hello["nonce"]), nonce), host=False)
            sock.sendall(seal.seal({"t": "join", "v": 1, "name": "Eve", "watch": False, "seat": ""}, nonce=nonce.hex()))
            answer = decode(reader.readline().rstrip(b"\n"))
            answers.append(f"refused: {answer.get('why')}")
        sock.close()
        time.sleep(1.0)
    return answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.door_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=HANDSHAKE_SECONDS + 3, help="each attack's length")
    args = parser.parse_args(argv)
    print(
        f"# lab.door_bench on {os.cpu_count()} cores ({platform.processor() or platform.machine()}), "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    print(f"\n{'attack':<32} {'seated in':>10} {'opened':>9} {'longest life':>14} {'host CPU s':>9}")
    for again in (None, False, True):
        with tempfile.TemporaryDirectory(prefix="connect4-door-") as home:
            host = HostProcess(Path(home))  # a new game each row: the seat is free
            try:
                print(attack(host, again, args.seconds), flush=True)
            finally:
                host.close()
    print("\nwrong codes from one address, a second apart:")
    with tempfile.TemporaryDirectory(prefix="connect4-door-") as home:
        host = HostProcess(Path(home))
        try:
            for number, answer in enumerate(wrong_codes(host.where, 8), start=1):
                print(f"  try {number}: {answer}")
        finally:
            host.close()
    print(f"# load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
