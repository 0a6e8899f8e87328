"""The joiner's and the watcher's side: one thread that connects, proves the code, reads
the host's messages into ``events``, and after a drop tries again for ``RESUME_SECONDS``.

Nothing here blocks its caller: ``start`` returns at once, ``play`` and the other actions
write one short line (under a lock, with a timeout).  The seat token the host gives is
kept in ``home/network-seats.json`` (``SeatBook``), so a new ``join`` after a crash asks
for the same chair with it.
"""

from __future__ import annotations

import errno
import getpass
import json
import logging
import os
import queue
import select
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.i18n import _
from game.net.events import ConnectionLost, HostStopped, JoinFailed, Welcome, event_from_body
from game.net.protocol import (
    HANDSHAKE_SECONDS,
    MAX_NAME_CHARS,
    PING_SECONDS,
    PROTOCOL_VERSION,
    RESUME_SECONDS,
    SILENCE_SECONDS,
    Kind,
    LineBuffer,
    ProtocolError,
    Refusal,
    Seal,
    clean_chat,
    clean_text,
    connection_key,
    decode,
    game_key,
    hex_field,
    kind_of,
    message,
    new_nonce,
)
from game.regular_file import read_regular, write_atomically

log = logging.getLogger(__name__)

CONNECT_SECONDS = 5.0
RETRY_SECONDS = 2.0
JOIN_TRIES = 5
"""Connections a joiner tries when the host let it in but closed before answering its join
(a door crowded by connections that never join: each newer one closes the oldest); the
key is derived once, so a later try proves the code in a round trip."""
SEATS_FILE = "network-seats.json"
MAX_SEATS = 50
MAX_SEATS_BYTES = 64 * 1024
"""The seats file holds at most ``MAX_SEATS`` short lines; a larger one is not read."""


class SeatBook:
    """The seat tokens this player was given, by game id (newest ``MAX_SEATS``)."""

    def __init__(self, home: Path | None):
        self.path = None if home is None else Path(home) / SEATS_FILE
        self._said: set[str] = set()

    def token(self, game_id: str) -> str:
        seats = self._read()
        token = seats.get(game_id)
        return token if isinstance(token, str) else ""

    def keep(self, game_id: str, token: str) -> None:
        if self.path is None or not token:
            return
        seats = self._read()
        seats.pop(game_id, None)
        seats[game_id] = token
        kept = dict(list(seats.items())[-MAX_SEATS:])
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, json.dumps(kept).encode("utf-8"))
        except OSError as error:
            self._say_once(f"cannot keep the seat token in {self.path}: {error.strerror or error}")

    def _read(self) -> dict[str, Any]:
        """The tokens kept; none when the file is missing, damaged, or not a regular file
        (a FIFO in its place is named in the log, never waited on)."""
        if self.path is None:
            return {}
        try:
            data = json.loads(read_regular(self.path, MAX_SEATS_BYTES))
        except FileNotFoundError:
            return {}
        except OSError as error:
            self._say_once(f"the seat tokens in {self.path} cannot be read: {error.strerror or error}")
            return {}
        except (ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    def _say_once(self, text: str) -> None:
        if text not in self._said:
            self._said.add(text)
            log.warning("%s", text)


@dataclass(frozen=True)
class JoinSettings:
    """Where to join, with which code, as whom, and whether to watch."""

    address: str
    port: int
    code: str
    name: str
    watch: bool = False


def default_name() -> str:
    """The login name, as a player's name (``clean_name``), else "player"."""
    try:
        name = clean_name(getpass.getuser())
    except (OSError, KeyError, ImportError):
        name = ""
    return name or "player"


def clean_name(text: str) -> str:
    """A name as any typed text is taken (``game.net.protocol.clean_text``): one line of
    printable characters, at most ``MAX_NAME_CHARS``; "" when nothing printable is left."""
    return clean_text(text, MAX_NAME_CHARS)


def player_name(chosen: str) -> str:
    """The name a player goes by: the one they chose (cleaned), else the login name."""
    return clean_name(chosen) or default_name()


class _Refusal(Exception):
    """The host will not have us: wrong code, another version, the chairs are taken."""

    def __init__(self, reason: str, *, wrong_code: bool = False):
        super().__init__(reason)
        self.wrong_code = wrong_code


def door_refusal(refusal: dict[str, Any]) -> str:
    """Why the host turned the connection away before the code was asked, in words."""
    why = refusal.get("why")
    if why == Refusal.BUSY:
        return _("the host has as many connections as it takes: try again in a moment")
    if why == Refusal.WAIT:
        seconds = refusal.get("seconds")
        wait = seconds if type(seconds) is int and 0 < seconds <= 3600 else 60
        return _("too many wrong join codes from this computer: the host takes the next try in {seconds} s").format(
            seconds=wait
        )
    return _("the host refused the connection")


def split_address(text: str, default_port: int) -> tuple[str, int]:
    """``"192.168.1.5:4404"`` -> ``("192.168.1.5", 4404)``; without a port, ``default_port``
    (``ValueError`` for a port that is not 1..65535)."""
    text = text.strip()
    host, colon, port = text.rpartition(":")
    if not colon or "]" in port or (host.count(":") and not host.startswith("[")):
        return text.strip("[]"), default_port
    number = int(port)
    if not 1 <= number <= 65535:
        raise ValueError(f"port {number} is not 1..65535")
    return host.strip("[]"), number


class Client:
    """A connection to a host, as a player (``watch`` False) or a watcher."""

    def __init__(
        self,
        address: str,
        port: int,
        code: str,
        name: str,
        *,
        watch: bool = False,
        home: Path | None = None,
        events: queue.Queue[Any] | None = None,
        resume_seconds: int = RESUME_SECONDS,
    ):
        self.address, self.port, self.code, self.name, self.watch = address, port, code, name, watch
        self.seats = SeatBook(home)
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()
        self.resume_seconds = resume_seconds
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._seal: Seal | None = None
        self._keys: dict[bytes, bytes] = {}
        self._welcomed = False
        self._greeted = False  # the host said hello on this connection
        self.game_id = ""
        """The game's id, as the host's hello gave it (its seat token is kept under it)."""
        self.thread = threading.Thread(target=self._run, name="net-client", daemon=True)

    @classmethod
    def of(cls, joining: JoinSettings, *, home: Path | None, events: queue.Queue[Any] | None = None) -> Client:
        return cls(
            joining.address, joining.port, joining.code, joining.name, watch=joining.watch, home=home, events=events
        )

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        """Say goodbye and end the thread (at most a second or so)."""
        self.stopping.set()
        self._send(message(Kind.BYE))
        with self._lock:
            if self._sock is not None:
                try:
                    self._sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout=5)

    # -- actions ------------------------------------------------------------------------------
    def play(self, move: int, ply: int) -> None:
        self._send(message(Kind.MOVE, move=move, ply=ply))

    def offer_draw(self) -> None:
        """Offer a draw, or accept the one offered."""
        self._send(message(Kind.DRAW))

    def decline_draw(self) -> None:
        self._send(message(Kind.DECLINE))

    def resign(self) -> None:
        self._send(message(Kind.RESIGN))

    def chat(self, text: str) -> None:
        """Send a chat line: one line of plain text, cut to ``MAX_CHAT_CHARS`` (the host
        closes a connection that sends control characters)."""
        text = clean_chat(text)
        if text:
            self._send(message(Kind.CHAT, text=text))

    def _send(self, body: dict[str, Any]) -> None:
        with self._lock:
            if self._sock is None or self._seal is None:
                return
            try:
                self._sock.sendall(self._seal.seal(body))
            except (OSError, ProtocolError):
                pass  # the reader sees the drop

    # -- the thread -----------------------------------------------------------------------------
    def _run(self) -> None:
        seated = False
        deadline: float | None = None
        tries = 0
        while not self.stopping.is_set():
            self._welcomed = self._greeted = False
            try:
                if self._session():  # the host said goodbye
                    return
                reason = _("the connection closed")
            except _Refusal as refusal:
                self.events.put(JoinFailed(str(refusal), wrong_code=refusal.wrong_code))
                return
            except (OSError, ProtocolError) as error:
                reason = str(error) or type(error).__name__
            except Exception as error:  # noqa: BLE001 - whatever a host makes of us: said, never a silent thread
                log.warning("the connection to the host failed: %s: %s", type(error).__name__, error)
                reason = _("the host broke the protocol")
            finally:
                with self._lock:
                    if self._sock is not None:
                        self._sock.close()
                    self._sock, self._seal = None, None
            if self.stopping.is_set():
                return
            seated = seated or self._welcomed
            tries += 1
            if not seated and self._greeted and tries < JOIN_TRIES:
                self.stopping.wait(0.05 * tries)  # let in, then closed before an answer: a crowded door
                continue
            if not seated:
                self.events.put(JoinFailed(reason))
                return
            now = time.monotonic()
            if deadline is None or self._welcomed:  # a new drop: a new wait
                deadline = now + self.resume_seconds
                self.events.put(ConnectionLost(reason, self.resume_seconds))
            if now >= deadline:
                self.events.put(ConnectionLost(reason, 0))
                return
            self.stopping.wait(RETRY_SECONDS)

    def _connect(self) -> socket.socket:
        """A connected socket, waiting at most ``CONNECT_SECONDS`` in short steps, so that
        ``close`` ends the wait at once (``OSError``: not reached)."""
        family, kind, proto, _name, where = socket.getaddrinfo(self.address, self.port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        with self._lock:
            self._sock = sock
        sock.setblocking(False)
        error = sock.connect_ex(where)
        deadline = time.monotonic() + CONNECT_SECONDS
        while error in (errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EALREADY) and not self.stopping.is_set():
            if time.monotonic() > deadline:
                raise OSError(_("no answer from {address} port {port}").format(address=self.address, port=self.port))
            _readable, writable, _failed = select.select([], [sock], [], 0.2)
            if writable:
                error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if self.stopping.is_set():
            raise OSError("closed")
        if error:
            raise OSError(error, os.strerror(error))
        sock.setblocking(True)
        return sock

    def _session(self) -> bool:
        """One connection, read until it drops (an exception) or the host says goodbye
        (returns True); ``_welcomed`` tells whether it got as far as a seat."""
        sock = self._connect()
        sock.settimeout(0.5)
        buffer = LineBuffer()
        lines: list[bytes] = []
        heard = pinged = time.monotonic()

        def next_line() -> bytes:
            nonlocal heard, pinged
            while not lines:
                if self.stopping.is_set():
                    raise OSError("closed")
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    now = time.monotonic()
                    if now - heard > (SILENCE_SECONDS if self._welcomed else HANDSHAKE_SECONDS):
                        raise OSError(_("the host has been silent for too long")) from None
                    if self._welcomed and now - pinged > PING_SECONDS:
                        pinged = now
                        self._send(message(Kind.PING))
                    continue
                if not data:
                    raise OSError(_("the host closed the connection"))
                heard = time.monotonic()
                lines.extend(buffer.feed(data))
            return lines.pop(0)

        try:
            hello = decode(next_line())
        except ProtocolError:
            raise _Refusal(_("the other side is not a game host of this version")) from None
        if hello.get("t") == Kind.REFUSED:
            raise _Refusal(door_refusal(hello))
        if hello.get("t") != Kind.HELLO or hello.get("v") != PROTOCOL_VERSION:
            raise _Refusal(_("the other side is not a game host of this version"))
        self._greeted = True
        game_id = hex_field(hello, "game", 8).hex()
        self.game_id = game_id
        salt = hex_field(hello, "salt", 16)
        host_nonce = hex_field(hello, "nonce", 16)
        if salt not in self._keys:
            self._keys[salt] = game_key(self.code, salt)
        nonce = new_nonce()
        seal = Seal(connection_key(self._keys[salt], host_nonce, nonce), host=False)
        join = message(Kind.JOIN, v=PROTOCOL_VERSION, name=self.name, watch=self.watch, seat=self.seats.token(game_id))
        with self._lock:
            sock.sendall(seal.seal(join, nonce=nonce.hex()))
            self._seal = seal
        try:
            first = decode(next_line())
            if first.get("t") == Kind.REFUSED:
                if first.get("why") == Refusal.CODE:
                    raise _Refusal(_("wrong join code: the host refused it"), wrong_code=True)
                raise _Refusal(_("the host runs another version of the game"))
            body = seal.open(first)
            kind = kind_of(body)
        except ProtocolError:  # any answer but a sealed one: no proof, whatever it holds
            raise _Refusal(_("the host did not prove it knows the code")) from None
        if kind is Kind.FULL:
            raise _Refusal(_("the game already has two players (join with --watch to watch it)"))
        event = event_from_body(body)
        if not isinstance(event, Welcome):
            raise ProtocolError("the host did not welcome us first")
        self._welcomed = True
        self.seats.keep(game_id, event.token)
        while True:
            if event is not None:
                self.events.put(event)
            if isinstance(event, HostStopped):
                return True
            event = event_from_body(seal.open(decode(next_line())))
