"""The host: its board is the game, its socket the one door.

``GameHost`` listens where it is told (all interfaces, or one address), greets each
connection with a challenge (``game.net.protocol``), seats the first joiner who has the
code in the second chair and every ``--watch`` joiner among the watchers, and checks every
move against the rules itself (``game.board``): a peer can play only its own side, on its
turn, a legal move.  The host's own player acts through the same methods in-process
(``play``, ``offer_draw``, ...), and hears the same events as a joiner, on ``events``.

Threads: one accepts, each connection has a reader and a writer (a bounded outbox, so a
peer that does not read cannot stall the game), and one ticker pings, closes the silent
and counts down a dropped player's seat.  One lock guards the game; nothing blocks while
holding it.  What a peer sends that breaks the protocol closes that connection and
nothing else (one log line, whatever it was).

The door (docs/network-play.md, "Hostile peers"): a connection that has not joined
``HANDSHAKE_SECONDS`` after it opened is closed, whatever it sends meanwhile; one that has
not joined gives way to a newer connection, from its own address past
``MAX_WAITING_PER_ADDRESS``, from anywhere once the host holds ``MAX_CONNECTIONS``, so
connections that only wait cannot keep a player out; when every connection has joined a
newcomer hears ``busy``.  An address that sent more than ``FREE_WRONG_CODES`` wrong codes
waits before each further try (1, 2, 4 ... ``MAX_WRONG_CODE_WAIT`` seconds) and hears
``wait``; the host's player is told once per address (``WrongCodesFrom``).
"""

from __future__ import annotations

import logging
import math
import queue
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from game.board import Board, Termination
from game.net.events import (
    GameOver,
    PlayerLeft,
    Refused,
    Welcome,
    WrongCodesFrom,
    event_from_body,
    over_body,
    rules_body,
)
from game.net.protocol import (
    DEFAULT_PORT,
    FREE_WRONG_CODES,
    HANDSHAKE_SECONDS,
    MAX_CHAT_CHARS,
    MAX_NAME_CHARS,
    MAX_WRONG_CODE_WAIT,
    NONCE_BYTES,
    PING_SECONDS,
    PROTOCOL_VERSION,
    RESUME_SECONDS,
    SILENCE_SECONDS,
    Away,
    Ending,
    Kind,
    LineBuffer,
    ProtocolError,
    RateLimit,
    Refusal,
    Seal,
    clean_chat,
    clean_text,
    connection_key,
    decode,
    encode,
    game_key,
    hex_field,
    int_field,
    kind_of,
    message,
    new_nonce,
    text_field,
)
from game.records import GameResult
from game.rules import MAX, MIN, STANDARD, Rules

log = logging.getLogger(__name__)

ALL_INTERFACES = "0.0.0.0"
MAX_CONNECTIONS = 16
MAX_WAITING_PER_ADDRESS = 4
"""Connections from one address that have not joined yet; a newer one closes the oldest."""
WRONG_CODE_MEMORY = 600.0
"""Seconds after its last wrong code that an address is forgiven."""
OUTBOX_LINES = 256
"""Lines waiting for a slow peer; past this it is closed (it does not read)."""
SEND_SECONDS = 5.0


@dataclass(frozen=True)
class HostSettings:
    """What the host chose: the code, its name, the rules, who moves first, where it listens.

    ``again`` (an unfinished game hosted once more): the game as it was left, the same
    game id, the moves, the guest's name and seat token; the host waits
    ``resume_seconds`` for that guest to come back with the same code."""

    code: str
    name: str
    rules: Rules = STANDARD
    host_first: bool = True
    address: str = ALL_INTERFACES
    port: int = DEFAULT_PORT
    resume_seconds: int = RESUME_SECONDS
    again: HostedBefore | None = None


@dataclass(frozen=True)
class HostedBefore:
    """An unfinished game as its host kept it: its id, moves, the guest's name and seat token."""

    game_id: str
    moves: tuple[int, ...]
    guest_name: str
    guest_token: str


class Connection:
    """One peer: its socket, its seal once it has joined, its outbox and writer thread."""

    def __init__(self, sock: socket.socket, where: tuple[Any, ...]):
        self.sock = sock
        self.address = str(where[0])
        self.where = f"{where[0]}:{where[1]}"
        self.opened = time.monotonic()
        self.seal: Seal | None = None
        self.role = "new"  # then "player" or "watcher"
        self.name = ""  # the name it joined with
        self.said_bye = False  # it left on purpose
        self.rate = RateLimit()
        self.heard = time.monotonic()
        self.pinged = time.monotonic()
        self.outbox: queue.Queue[bytes | None] = queue.Queue(OUTBOX_LINES)
        self.closed = threading.Event()
        self.lock = threading.Lock()
        self.writer = threading.Thread(target=self._write, name=f"net-writer {self.where}", daemon=True)
        self.writer.start()

    def send(self, body: dict[str, Any]) -> None:
        """Queue ``body`` sealed (in order: sealing and queueing under one lock)."""
        with self.lock:
            if self.closed.is_set() or self.seal is None:
                return
            self._queue(self.seal.seal(body))

    def send_clear(self, body: dict[str, Any]) -> None:
        with self.lock:
            self._queue(encode(body))

    def _queue(self, line: bytes) -> None:
        try:
            self.outbox.put_nowait(line)
        except queue.Full:
            log.info("%s does not read: closed", self.where)
            self.close()

    def _write(self) -> None:
        self.sock.settimeout(SEND_SECONDS)
        while True:
            line = self.outbox.get()
            if line is None:
                break
            try:
                self.sock.sendall(line)
            except OSError:
                break
        self.close()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()

    def close(self) -> None:
        """Stop: what is queued goes first, then the socket closes (the writer does it)."""
        if not self.closed.is_set():
            self.closed.set()
            try:
                self.outbox.put_nowait(None)
            except queue.Full:  # it does not read: drop what waits
                while not self.outbox.empty():
                    self.outbox.get_nowait()
                self.outbox.put_nowait(None)


@dataclass
class WrongCodes:
    """The wrong codes one address sent: how many, when the last, when it may try again."""

    count: int = 0
    last: float = 0.0
    next_try: float = 0.0
    told: bool = False


class GameHost:
    """The hosted game: the board, the seats, the watchers, and the door they come in by."""

    def __init__(self, settings: HostSettings, events: queue.Queue[Any] | None = None):
        self.settings = settings
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()
        again = settings.again
        self.game_id = again.game_id if again is not None else secrets.token_hex(8)
        self.salt = secrets.token_bytes(16)
        self.key = game_key(settings.code, self.salt)
        self.board = Board(settings.rules)
        self.host_side = MAX if settings.host_first else MIN
        self.guest_side = -self.host_side
        self.names = {self.host_side: settings.name}
        self.guest: Connection | None = None
        self.guest_token = ""
        self.left_at: float | None = None
        if again is not None:  # (``ValueError`` for moves that are not a game of these rules)
            for move in again.moves:
                self.board.push(move)
            if self.board.outcome() is not None:
                raise ValueError("the game kept is already over")
            self.names[self.guest_side] = again.guest_name
            self.guest_token = again.guest_token
            self.left_at = time.monotonic()  # the guest's chair waits for them from now on
        self.expired = False
        self.watchers: list[Connection] = []
        self.connections: list[Connection] = []
        self.over: GameOver | None = None
        self.draw_offer = 0
        self.lock = threading.RLock()
        self.stopping = threading.Event()
        self.listener: socket.socket | None = None
        self.threads: list[threading.Thread] = []
        self.refused_lines = 0
        """Connections closed for breaking the protocol (for the tests and the log)."""
        self.wrong_codes: dict[str, WrongCodes] = {}
        """By address: the wrong codes it sent (each further try waits longer)."""

    # -- starting and stopping -------------------------------------------------------------
    def start(self) -> tuple[str, int]:
        """Listen (``OSError``: the address is taken or not this machine's); return where."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((self.settings.address, self.settings.port))
            listener.listen(64)  # a burst of connections is accepted, not left to retry its SYN
        except OSError:
            listener.close()
            raise
        listener.settimeout(0.5)
        self.listener = listener
        self.events.put(
            Welcome(self.host_side, self.settings.rules, dict(self.names), tuple(self.board.moves), watchers=0)
        )
        if self.left_at is not None:
            self.events.put(PlayerLeft(self.guest_side, self.settings.resume_seconds, Away.RESUMED))
        for target, name in ((self._accept, "net-accept"), (self._tick, "net-ticker")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self.threads.append(thread)
        return self.where

    @property
    def where(self) -> tuple[str, int]:
        """The address and port the host listens on."""
        assert self.listener is not None
        address, port = self.listener.getsockname()[:2]
        return str(address), int(port)

    def close(self) -> None:
        """Say goodbye to everyone, stop listening and end every thread."""
        if self.stopping.is_set():
            return
        with self.lock:
            self._publish(message(Kind.BYE), local=False)
            self.stopping.set()
        if self.listener is not None:
            try:
                self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread at once
            except OSError:
                pass
            self.listener.close()
        for connection in list(self.connections):
            connection.close()
        for thread in self.threads:
            thread.join(timeout=3)
        for connection in list(self.connections):
            connection.writer.join(timeout=3)

    # -- the host's own player ---------------------------------------------------------------
    def play(self, move: int, ply: int | None = None) -> None:
        """The host's move (``ply``: the discs it was chosen at; None: now)."""
        self._play(self.host_side, move, self.board.ply if ply is None else ply, None)

    def offer_draw(self) -> None:
        """Offer a draw, or accept the one offered."""
        self._draw(self.host_side, None)

    def decline_draw(self) -> None:
        self._decline(self.host_side)

    def resign(self) -> None:
        self._resign(self.host_side, None)

    def chat(self, text: str) -> None:
        self._chat(self.settings.name, self.host_side, text)

    @property
    def watcher_count(self) -> int:
        return len(self.watchers)

    # -- the game: every change under the lock, told to everyone ----------------------------------
    def _publish(self, body: dict[str, Any], *, local: bool = True) -> None:
        """Send ``body`` to the seated guest and every watcher, and hand it to the host's front end."""
        for connection in [self.guest, *self.watchers]:
            if connection is not None:
                connection.send(body)
        if local:
            event = event_from_body(body)
            if event is not None:
                self.events.put(event)

    def _refuse(self, why: Refusal, connection: Connection | None) -> None:
        if connection is None:
            self.events.put(Refused(why))
        else:
            connection.send(message(Kind.REFUSED, why=why))

    def _play(self, side: int, move: int, ply: int, connection: Connection | None) -> None:
        with self.lock:
            if self.over is not None:
                return self._refuse(Refusal.OVER, connection)
            if len(self.names) < 2 or self.expired:
                return self._refuse(Refusal.WAITING, connection)
            if self.board.to_move != side or ply != self.board.ply:
                return self._refuse(Refusal.TURN, connection)
            if not self.board.is_legal(move):
                return self._refuse(Refusal.ILLEGAL, connection)
            self.board.push(move)
            self.draw_offer = 0
            self._publish(message(Kind.MOVE, side=side, move=move, ply=ply))
            outcome = self.board.outcome()
            if outcome is not None:
                line = outcome.termination is Termination.LINE and outcome.winner is not None
                self._finish(GameResult.of_winner(outcome.winner), Ending.LINE if line else Ending.FULL)

    def _finish(self, result: GameResult, reason: Ending) -> None:
        self.over = GameOver(result, reason)
        self.draw_offer = 0
        self._publish(message(Kind.OVER, **(over_body(self.over) or {})))

    def _draw(self, side: int, connection: Connection | None) -> None:
        with self.lock:
            if self.over is not None or len(self.names) < 2:
                return self._refuse(Refusal.OVER if self.over else Refusal.WAITING, connection)
            if self.draw_offer == -side:
                self._finish(GameResult.DRAW, Ending.AGREED)
            elif self.draw_offer == 0:
                self.draw_offer = side
                self._publish(message(Kind.DRAW, side=side))

    def _decline(self, side: int) -> None:
        with self.lock:
            if self.draw_offer == -side:
                self.draw_offer = 0
                self._publish(message(Kind.DECLINE, side=side))

    def _resign(self, side: int, connection: Connection | None) -> None:
        with self.lock:
            if self.over is not None or len(self.names) < 2:
                return self._refuse(Refusal.OVER if self.over else Refusal.WAITING, connection)
            self._finish(GameResult.of_winner(-side), Ending.RESIGNED)

    def _chat(self, name: str, side: int, text: str) -> None:
        text = clean_chat(text)
        if text:
            with self.lock:
                self._publish(message(Kind.CHAT, name=name, side=side, text=text))

    # -- connections -------------------------------------------------------------------------
    def _accept(self) -> None:
        assert self.listener is not None
        while not self.stopping.is_set():
            try:
                sock, where = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                if self.stopping.is_set():
                    sock.close()
                    continue
                turned_away = self._door(str(where[0]))
                if turned_away is not None:
                    _turn_away(sock, turned_away)
                    continue
                connection = Connection(sock, where)
                self.connections.append(connection)
            thread = threading.Thread(target=self._serve, args=(connection,), name="net-reader", daemon=True)
            thread.start()

    def _door(self, address: str) -> dict[str, Any] | None:
        """Make room for a connection from ``address`` (under the lock): None to let it in,
        else the refusal it hears.  A connection that has not joined gives way to a newer
        one, from its own address past ``MAX_WAITING_PER_ADDRESS``, from anywhere once the
        host holds ``MAX_CONNECTIONS``: a real joiner proves the code in well under a second,
        so connections that only wait cannot keep it out."""
        now = time.monotonic()
        record = self.wrong_codes.get(address)
        if record is not None and now < record.next_try:
            return message(Kind.REFUSED, why=Refusal.WAIT, seconds=math.ceil(record.next_try - now))
        waiting = [c for c in self.connections if c.seal is None and not c.closed.is_set()]
        mine = [c for c in waiting if c.address == address]
        if len(mine) >= MAX_WAITING_PER_ADDRESS:
            self._make_way(mine[0], "more connections from its address waiting to join than allowed")
        elif len(self.connections) >= MAX_CONNECTIONS:
            if not waiting:
                return message(Kind.REFUSED, why=Refusal.BUSY)
            self._make_way(waiting[0], "the host is full and it had not joined")
        return None

    def _make_way(self, connection: Connection, why: str) -> None:
        log.info("%s closed: %s", connection.where, why)
        connection.close()
        self.connections.remove(connection)  # its reader lets it go (``_gone`` finds it gone)

    def _wrong_code(self, address: str) -> None:
        """Count a wrong code from ``address``; past ``FREE_WRONG_CODES`` its next try waits
        (1, 2, 4 ... ``MAX_WRONG_CODE_WAIT`` seconds), and the host's player is told once."""
        now = time.monotonic()
        with self.lock:
            for known, record in list(self.wrong_codes.items()):
                if now - record.last > WRONG_CODE_MEMORY:
                    del self.wrong_codes[known]
            if len(self.wrong_codes) >= 4096:  # a flood of addresses: forget the oldest
                del self.wrong_codes[min(self.wrong_codes, key=lambda known: self.wrong_codes[known].last)]
            record = self.wrong_codes.setdefault(address, WrongCodes())
            record.count += 1
            record.last = now
            if record.count > FREE_WRONG_CODES:
                record.next_try = now + min(2 ** (record.count - FREE_WRONG_CODES - 1), MAX_WRONG_CODE_WAIT)
                if not record.told:
                    record.told = True
                    self.events.put(WrongCodesFrom(address, record.count))

    def _serve(self, connection: Connection) -> None:
        """Read ``connection`` until it closes or breaks the protocol; then let it go."""
        host_nonce = new_nonce()
        sock = connection.sock
        try:
            connection.send_clear(
                message(Kind.HELLO, v=PROTOCOL_VERSION, game=self.game_id, salt=self.salt.hex(), nonce=host_nonce.hex())
            )
            buffer = LineBuffer()
            sock.settimeout(0.5)
            while not connection.closed.is_set() and not self.stopping.is_set():
                if connection.seal is None and time.monotonic() - connection.opened > HANDSHAKE_SECONDS:
                    raise ProtocolError("no join within the handshake time")  # whatever it sends
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    continue
                if not data:
                    break
                for line in buffer.feed(data):
                    if not connection.rate.take():
                        raise ProtocolError("more lines a second than allowed (a flood)")
                    received = decode(line)
                    connection.heard = time.monotonic()
                    if connection.seal is None:
                        self._handshake(connection, received, host_nonce)
                    else:
                        self._handle(connection, connection.seal.open(received))
        except ProtocolError as error:
            self.refused_lines += 1
            log.info("%s closed: %s", connection.where, error)
        except OSError:
            pass
        except Exception as error:  # noqa: BLE001 - whatever a peer makes of a line: one log line, its connection closed
            self.refused_lines += 1
            log.warning("%s closed: %s: %s", connection.where, type(error).__name__, error)
        finally:
            connection.close()
            self._gone(connection)

    def _handshake(self, connection: Connection, received: dict[str, Any], host_nonce: bytes) -> None:
        peer_nonce = hex_field(received, "nonce", NONCE_BYTES)
        seal = Seal(connection_key(self.key, host_nonce, peer_nonce), host=True)
        try:
            body = seal.open(received, beside=frozenset({"nonce"}))
        except ProtocolError:
            connection.send_clear(message(Kind.REFUSED, why=Refusal.CODE))
            self._wrong_code(connection.address)
            raise
        if kind_of(body) is not Kind.JOIN:
            raise ProtocolError("the first message is not a join")
        if body.get("v") != PROTOCOL_VERSION:
            connection.send_clear(message(Kind.REFUSED, why=Refusal.VERSION))
            raise ProtocolError("another protocol version")
        name = clean_text(text_field(body, "name", MAX_NAME_CHARS), MAX_NAME_CHARS)
        if not name:
            raise ProtocolError("a join without a name")
        connection.name = name
        token = body.get("seat")
        connection.seal = seal
        with self.lock:
            self._seat(connection, name, body.get("watch") is True, token if isinstance(token, str) else "")

    def _seat(self, connection: Connection, name: str, watch: bool, token: str) -> None:
        """Seat a joiner: a watcher; the opponent's chair if free (or theirs again); else full."""
        if watch:
            connection.role = "watcher"
            self.watchers.append(connection)
            connection.send(self._welcome(0, ""))
            self._publish(message(Kind.WATCHERS, count=len(self.watchers)))
            return
        first_time = self.guest_side not in self.names
        if self.expired or (
            self.guest is not None and not (self.guest_token and secrets.compare_digest(token, self.guest_token))
        ):
            connection.send(message(Kind.FULL))
            connection.close()
            return
        if self.guest is not None:  # the same player on a new connection: the old one is dead
            old, self.guest = self.guest, None
            old.role = "replaced"
            old.close()
        connection.role = "player"
        self.guest = connection
        self.left_at = None
        if first_time:
            self.names[self.guest_side] = unlike(name, self.settings.name)
            self.guest_token = secrets.token_hex(16)
        connection.send(self._welcome(self.guest_side, self.guest_token))
        self._publish(
            message(Kind.JOINED, side=self.guest_side, name=self.names[self.guest_side], again=not first_time)
        )

    def _welcome(self, side: int, token: str) -> dict[str, Any]:
        return message(
            Kind.WELCOME,
            side=side,
            rules=rules_body(self.settings.rules),
            names=[self.names.get(MAX), self.names.get(MIN)],
            moves=list(self.board.moves),
            token=token,
            watchers=len(self.watchers),
            draw=self.draw_offer,
            over=over_body(self.over),
        )

    def _handle(self, connection: Connection, body: dict[str, Any]) -> None:
        """One authenticated message from a seated player or a watcher."""
        kind = kind_of(body)
        if kind is Kind.PING:
            return
        if kind is Kind.BYE:
            connection.said_bye = True
            raise ProtocolError("left")  # said goodbye: closed, and its chair waits as after a drop
        if kind is Kind.CHAT:
            if connection.role == "player":
                name, side = self.names.get(self.guest_side, "?"), self.guest_side
            else:
                name, side = connection.name or "?", 0
            return self._chat(name, side, text_field(body, "text", MAX_CHAT_CHARS * 4))
        if kind not in (Kind.MOVE, Kind.DRAW, Kind.DECLINE, Kind.RESIGN):
            raise ProtocolError(f"a {kind.value!r} message from a player")
        if connection.role != "player":
            return self._refuse(Refusal.WATCHER, connection)
        side = self.guest_side
        if kind is Kind.MOVE:
            self._play(side, int_field(body, "move", 0, 1000), int_field(body, "ply", 0, 1000), connection)
        elif kind is Kind.DRAW:
            self._draw(side, connection)
        elif kind is Kind.DECLINE:
            self._decline(side)
        else:
            self._resign(side, connection)

    def _gone(self, connection: Connection) -> None:
        with self.lock:
            if connection in self.connections:
                self.connections.remove(connection)
            if connection in self.watchers:
                self.watchers.remove(connection)
                if not self.stopping.is_set():
                    self._publish(message(Kind.WATCHERS, count=len(self.watchers)))
            elif connection is self.guest:
                self.guest = None
                if self.over is None and not self.stopping.is_set():
                    self.left_at = time.monotonic()
                    why = Away.LEFT if connection.said_bye else Away.DROPPED
                    self._publish(
                        message(Kind.LEFT, side=self.guest_side, seconds=self.settings.resume_seconds, why=why)
                    )

    def _tick(self) -> None:
        """Ping, close the silent, and end the wait for a player who does not come back."""
        while not self.stopping.wait(0.5):
            now = time.monotonic()
            with self.lock:
                for connection in list(self.connections):
                    if connection.seal is None:
                        if now - connection.opened > HANDSHAKE_SECONDS + 1:  # its reader is stuck: close it here
                            log.info("%s closed: no join within the handshake time", connection.where)
                            connection.close()
                        continue
                    if now - connection.heard > SILENCE_SECONDS:
                        connection.close()
                    elif now - connection.pinged >= PING_SECONDS:
                        connection.pinged = now
                        connection.send(message(Kind.PING))
                if self.left_at is not None and now - self.left_at > self.settings.resume_seconds and not self.expired:
                    self.expired = True
                    self.left_at = None
                    self._publish(message(Kind.EXPIRED, side=self.guest_side))


def unlike(name: str, other: str) -> str:
    """``name``, made unlike ``other`` where the two read the same ("root" and "root": the
    guest becomes "root (2)"), so each side's words name one player."""
    if name.casefold() != other.casefold():
        return name
    return f"{name[: MAX_NAME_CHARS - 4]} (2)"


def _turn_away(sock: socket.socket, refusal: dict[str, Any]) -> None:
    """Say why in one clear line (without waiting on a peer that does not read), then close."""
    try:
        sock.setblocking(False)
        sock.send(encode(refusal))
    except OSError:
        pass
    finally:
        sock.close()


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses a joiner on the local network might use (best first)."""
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    found.append("127.0.0.1")
    return list(dict.fromkeys(address for address in found if address and address != "0.0.0.0"))


def reachable_addresses(host: GameHost) -> list[str]:
    """Where a joiner can reach ``host``: its one address, or every address of this machine
    (a name lookup that can take seconds: never in the window's frame loop)."""
    address, _port = host.where
    return local_addresses() if address == ALL_INTERFACES else [address]
