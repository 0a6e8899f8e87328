"""Helpers for the network tests: a terminal command driven line by line, and a raw peer
that speaks the protocol by hand (or breaks it on purpose)."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from game.net.events import rules_body
from game.net.protocol import LineBuffer, Seal, connection_key, decode, encode, game_key, new_nonce
from game.rules import STANDARD

ROOT = Path(__file__).resolve().parent.parent
MAIN = ROOT / "main.py"


class Terminal:
    """``main.py host|join ... --terminal`` in a child process: lines in, lines out."""

    def __init__(self, *args: str):
        env = {**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, str(MAIN), *args, "--terminal"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, text: str, timeout: float = 30.0) -> str:
        """Read lines until one holds ``text``; that line (AssertionError with what came)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.01, left)) if left > 0 else None
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(
                    f"no line with {text!r}; saw:\n" + "\n".join(self.seen[-30:]) + "\nstderr: " + self.stderr_now()
                )
            self.seen.append(line)
            if text in line:
                return line

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def address(self) -> str:
        """The host's ``ADDRESS:PORT`` from its "On the other computer" line."""
        line = self.expect("main.py join ")
        return line.split("main.py join ", 1)[1].split()[0]

    def wait(self, timeout: float = 30.0) -> int:
        return self.proc.wait(timeout=timeout)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stderr_now(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return "(running)"
        return self.proc.stderr.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.reader.join(timeout=10)  # it ends at the end of the output: then the streams close
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


class RawPeer:
    """A hand-made connection to a host: read its hello, join with a code (or not)."""

    def __init__(self, where: tuple[str, int]):
        self.sock = socket.create_connection(where, timeout=5)
        self.buffer = b""
        self.hello = self.read()
        self.seal: Seal | None = None
        self.nonce = new_nonce()

    def read(self, timeout: float = 5.0) -> dict[str, Any]:
        self.sock.settimeout(timeout)
        while b"\n" not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return decode(line)

    def join(self, code: str, *, name: str = "raw", watch: bool = False) -> dict[str, Any]:
        """Join properly; return the first body the host sends back (the welcome)."""
        key = game_key(code, bytes.fromhex(self.hello["salt"]))
        self.seal = Seal(connection_key(key, bytes.fromhex(self.hello["nonce"]), self.nonce), host=False)
        body = {"t": "join", "v": 1, "name": name, "watch": watch, "seat": ""}
        self.sock.sendall(self.seal.seal(body, nonce=self.nonce.hex()))
        return self.receive()

    def receive(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next body that is not a ping."""
        assert self.seal is not None
        while True:
            body = self.seal.open(self.read(timeout))
            if body["t"] != "ping":
                return body

    def send(self, body: dict[str, Any]) -> bytes:
        assert self.seal is not None
        line = self.seal.seal(body)
        self.sock.sendall(line)
        return line

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def is_closed_by_host(self, timeout: float = 5.0) -> bool:
        """True once the host closes this connection (whatever it sent first is skipped)."""
        self.sock.settimeout(timeout)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except TimeoutError:
            return False

    def close(self) -> None:
        self.sock.close()


def forged(line: bytes) -> bytes:
    """``line`` with its body changed and its mac kept."""
    message = json.loads(line)
    message["m"]["move"] = (message["m"].get("move", 0) + 1) % 7
    return json.dumps(message).encode() + b"\n"


class FakeHost:
    """A host that says hello as the real one does, then answers a join with what a test
    hands it: ``answers(seal, join)`` returns the lines to send (raw bytes), for example a
    proper welcome followed by a move the board refuses, or a line no host would send."""

    def __init__(self, code: str, answers: Any):
        self.code, self.answers = code, answers
        self.salt = os.urandom(16)
        self.key = game_key(code, self.salt)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.where: tuple[str, int] = self.listener.getsockname()[:2]
        self.stopping = threading.Event()
        self.joins = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                sock, _where = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with sock:
                try:
                    self._answer(sock)
                except (OSError, ValueError, KeyError):
                    pass

    def _answer(self, sock: socket.socket) -> None:
        nonce = new_nonce()
        hello = {"t": "hello", "v": 1, "game": os.urandom(8).hex(), "salt": self.salt.hex(), "nonce": nonce.hex()}
        sock.sendall(encode(hello))
        sock.settimeout(10)
        buffer = LineBuffer()
        while True:
            data = sock.recv(65536)
            if not data:
                return
            lines = buffer.feed(data)
            if lines:
                break
        join = decode(lines[0])
        seal = Seal(connection_key(self.key, nonce, bytes.fromhex(join["nonce"])), host=True)
        body = seal.open(join, beside=frozenset({"nonce"}))
        self.joins += 1
        for line in self.answers(seal, body):
            sock.sendall(line)
        sock.settimeout(3)
        try:
            while sock.recv(65536):  # until the joiner lets go
                pass
        except OSError:
            pass

    def close(self) -> None:
        self.stopping.set()
        self.listener.close()
        self.thread.join(timeout=5)


def welcome(seal: Seal, moves: list[int], *, side: int = -1, names: tuple[str, str] = ("Alice", "Bob")) -> bytes:
    """A proper sealed welcome to the second seat of a standard game with ``moves`` played."""
    body = {
        "t": "welcome",
        "side": side,
        "rules": rules_body(STANDARD),
        "names": list(names),
        "moves": moves,
        "token": "t" * 32,
        "watchers": 0,
        "draw": 0,
        "over": None,
    }
    return seal.seal(body)
