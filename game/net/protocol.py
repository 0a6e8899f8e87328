"""The wire: JSON lines, bounded in size and rate, each authenticated and numbered.

A connection, step by step (docs/network-play.md draws it):

1. The host sends ``hello`` in the clear: the protocol version, the game's id, the
   game's salt and a fresh random ``nonce`` for this connection (the challenge).
2. Both sides know the join code, so both derive the game key
   ``pbkdf2_hmac("sha256", code, "connect4-join-code|" + salt, KEY_ITERATIONS)`` (the host
   once per game, the joiner once per connection) and, from it and the two nonces, this
   connection's key ``HMAC(game key, "session|" + host nonce + joiner nonce)``.
3. Every later line is sealed: ``{"s": seq, "m": body, "h": mac}`` where ``mac`` is
   ``HMAC-SHA256(connection key, direction + seq + canonical JSON of body)``.  The joiner's
   first line carries its nonce beside the seal and the body ``join``: a host that cannot
   open it knows the joiner lacks the code, says ``refused`` once and closes.  The
   joiner in turn believes nothing the host says until a sealed ``welcome`` opens.

``seq`` counts from 0 in each direction and must be exactly the next one: a line
replayed, dropped or reordered inside a connection fails, and one from another
connection fails its mac (another nonce, another key).  The code itself never travels.

What this is not: encryption.  Anyone who can read the local network reads the moves and
the chat; one who records a handshake can try codes offline against it (four words are
32 bits, each guess costs ``KEY_ITERATIONS`` rounds).  It keeps out whoever lacks the code.

Bounds: a line is at most ``MAX_LINE_BYTES`` (a longer one closes the connection before
it is parsed whole); a peer may send ``RATE_PER_SECOND`` lines a second on average with
bursts up to ``BURST``; a chat line is at most ``MAX_CHAT_CHARS`` plain characters.

The vocabulary: every message's ``t`` is one of ``Kind``; the closed sets of words a
message carries (why something was refused, how a game ended, why a player is away) are
``Refusal``, ``Ending`` and ``Away``.  Both ends build and read messages with them, never
with bare strings (``message`` builds a body, ``kind_of`` reads its kind).
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import json
import secrets
import time
from typing import Any

PROTOCOL_VERSION = 1
DEFAULT_PORT = 4404
"""The port a host listens on unless told (unassigned by IANA)."""
MAX_LINE_BYTES = 4096
MAX_CHAT_CHARS = 200
MAX_NAME_CHARS = 40
KEY_ITERATIONS = 200_000
"""PBKDF2 rounds for the game key: 0.18 s on this project's 2-core AMD EPYC (loaded by other
builds at the time), paid once per game by the host and once per connection by a joiner."""
RATE_PER_SECOND = 10.0
BURST = 30
HANDSHAKE_SECONDS = 10.0
"""A connection that has not sent a valid ``join`` within this long is closed."""
PING_SECONDS = 2.0
FREE_WRONG_CODES = 3
"""Wrong codes an address may send before each further try from it must wait."""
MAX_WRONG_CODE_WAIT = 60
"""The longest wait (seconds) between tries from an address that keeps sending wrong codes:
1, 2, 4, ... seconds after each wrong code past ``FREE_WRONG_CODES``, then this."""
SILENCE_SECONDS = 8.0
"""A connection silent this long (no line, not even a ping) is taken as dropped."""
RESUME_SECONDS = 300
"""How long a dropped player's seat and the game wait for them to come back."""
NONCE_BYTES = 16
MAX_NESTING = 6
"""The deepest a message nests objects and lists (a sealed welcome: 3)."""

HOST_TO_PEER = b"H"
PEER_TO_HOST = b"P"


class ProtocolError(ValueError):
    """A line that breaks the protocol: too long, not JSON, not sealed right, out of order."""


class Kind(str, enum.Enum):
    """What a message is (its ``t``): every kind either end sends."""

    HELLO = "hello"  # host, in the clear: version, game id, salt, the connection's challenge
    JOIN = "join"  # joiner's first line, sealed: version, name, watch, the seat token it holds
    REFUSED = "refused"  # host: at the door (in the clear) or an action it did not take (``Refusal``)
    WELCOME = "welcome"  # host: seated or watching, with the game as it stands
    FULL = "full"  # host: both chairs are taken
    JOINED = "joined"  # host: the second chair is taken (again)
    MOVE = "move"  # a player's move; the host tells everyone the moves it took
    DRAW = "draw"  # offer (or accept) a draw; the host tells who offers
    DECLINE = "decline"  # decline the draw offered
    RESIGN = "resign"  # a player resigns
    OVER = "over"  # host: the game ended (a result and an ``Ending``)
    LEFT = "left"  # host: a player is away, their chair waits (``Away``)
    EXPIRED = "expired"  # host: the away player did not come back in time
    WATCHERS = "watchers"  # host: how many watch
    CHAT = "chat"  # a chat line (the host adds who said it)
    PING = "ping"  # either side: still here
    BYE = "bye"  # either side: leaving on purpose


class Refusal(str, enum.Enum):
    """Why the host refused: at the door (``BUSY``, ``WAIT``, ``CODE``, ``VERSION``) or at
    the table (the rest: not your turn, not a legal move, the game is over, the opponent is
    not there, a watcher does not play)."""

    BUSY = "busy"
    WAIT = "wait"
    CODE = "code"
    VERSION = "version"
    TURN = "turn"
    ILLEGAL = "illegal"
    OVER = "over"
    WAITING = "waiting"
    WATCHER = "watcher"


class Ending(str, enum.Enum):
    """How a game ended: a line, a full board, a resignation, a draw agreed."""

    LINE = "line"
    FULL = "full"
    RESIGNED = "resigned"
    AGREED = "agreed"


class Away(str, enum.Enum):
    """Why a player's chair waits: the connection dropped, the player left on purpose (said
    goodbye), or the host hosts an unfinished game again and waits for them to come back."""

    DROPPED = "dropped"
    LEFT = "left"
    RESUMED = "resumed"


def message(kind: Kind, **fields: Any) -> dict[str, Any]:
    """A message body of ``kind`` with ``fields`` (enumerated values as their words)."""
    return {
        "t": kind.value,
        **{name: value.value if isinstance(value, enum.Enum) else value for name, value in fields.items()},
    }


def kind_of(body: dict[str, Any]) -> Kind:
    """The kind of a message (``ProtocolError``: none, or one this version does not know)."""
    kind = body.get("t")
    try:
        return Kind(kind)
    except ValueError:
        raise ProtocolError(f"an unknown message type {str(kind)[:20]!r}") from None


def new_nonce() -> bytes:
    return secrets.token_bytes(NONCE_BYTES)


def game_key(code: str, salt: bytes) -> bytes:
    """The key both sides derive from the (normalised) join code and the game's salt."""
    return hashlib.pbkdf2_hmac("sha256", code.encode("utf-8"), b"connect4-join-code|" + salt, KEY_ITERATIONS)


def connection_key(key: bytes, host_nonce: bytes, peer_nonce: bytes) -> bytes:
    """This connection's key: a new one for every pair of nonces."""
    return hmac.new(key, b"session|" + host_nonce + peer_nonce, hashlib.sha256).digest()


def canonical(body: dict[str, Any]) -> bytes:
    """The one byte form of ``body`` the mac covers (sorted keys, no spaces, ASCII)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _mac(key: bytes, direction: bytes, seq: int, body: dict[str, Any]) -> str:
    return hmac.new(key, direction + seq.to_bytes(8, "big") + canonical(body), hashlib.sha256).hexdigest()


def encode(message: dict[str, Any]) -> bytes:
    """A message as one line on the wire."""
    line = json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(f"a line of {len(line)} bytes is over the limit of {MAX_LINE_BYTES}")
    return line


def decode(line: bytes) -> dict[str, Any]:
    """One line (without its newline) as a JSON object, nested at most ``MAX_NESTING`` deep
    (deeper is refused before anything walks it: re-encoding it for the mac would recurse)."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("a line that is not JSON text") from None
    if not isinstance(message, dict):
        raise ProtocolError("a line that is not a JSON object")
    if _deeper_than(message, MAX_NESTING):
        raise ProtocolError(f"a line nested more than {MAX_NESTING} deep")
    return message


def _deeper_than(value: object, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` deep (walked without recursion)."""
    level: list[object] = [value]
    for _depth in range(limit):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return False
    return any(isinstance(item, dict | list) for item in level)


class Seal:
    """The numbering and macs of one connection, for the side that ``sends`` in one direction."""

    def __init__(self, key: bytes, *, host: bool):
        self.key = key
        self.out_direction, self.in_direction = (HOST_TO_PEER, PEER_TO_HOST) if host else (PEER_TO_HOST, HOST_TO_PEER)
        self.sent = 0
        self.received = 0

    def seal(self, body: dict[str, Any], **beside: Any) -> bytes:
        """``body`` as the next sealed line (``beside``: clear fields such as the nonce)."""
        line = encode({**beside, "s": self.sent, "m": body, "h": _mac(self.key, self.out_direction, self.sent, body)})
        self.sent += 1
        return line

    def open(self, message: dict[str, Any], *, beside: frozenset[str] = frozenset()) -> dict[str, Any]:
        """The body of the next sealed message, or ``ProtocolError``."""
        if set(message) != {"s", "m", "h"} | beside:
            raise ProtocolError("a message that is not sealed")
        seq, body, mac = message["s"], message["m"], message["h"]
        if type(seq) is not int or not isinstance(body, dict) or not isinstance(mac, str):
            raise ProtocolError("a sealed message of the wrong shape")
        if not hmac.compare_digest(
            mac.encode("ascii", "replace"), _mac(self.key, self.in_direction, seq, body).encode()
        ):
            raise ProtocolError("a message whose mac does not match (forged, or another code)")
        if seq != self.received:
            raise ProtocolError(f"message {seq} where {self.received} was due (replayed or reordered)")
        self.received += 1
        if not isinstance(body.get("t"), str):
            raise ProtocolError("a message without a type")
        return body


class LineBuffer:
    """Bytes in, whole lines out; a line longer than ``MAX_LINE_BYTES`` is a ``ProtocolError``."""

    def __init__(self) -> None:
        self.pending = b""

    def feed(self, data: bytes) -> list[bytes]:
        self.pending += data
        *lines, self.pending = self.pending.split(b"\n")
        if len(self.pending) > MAX_LINE_BYTES or any(len(line) > MAX_LINE_BYTES for line in lines):
            raise ProtocolError(f"a line longer than {MAX_LINE_BYTES} bytes")
        return [line.rstrip(b"\r") for line in lines]


class RateLimit:
    """A token bucket: ``RATE_PER_SECOND`` on average, ``BURST`` at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = BURST):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last = time.monotonic()

    def take(self) -> bool:
        """One line's worth: False once the peer sends faster than allowed."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# -- reading fields ---------------------------------------------------------------------------
def text_field(body: dict[str, Any], name: str, limit: int) -> str:
    """A printable string field of at most ``limit`` characters (``ProtocolError`` otherwise)."""
    value = body.get(name)
    if not isinstance(value, str) or len(value) > limit or not value.isprintable():
        raise ProtocolError(f"{name!r} is not printable text of at most {limit} characters")
    return value


def int_field(body: dict[str, Any], name: str, low: int, high: int) -> int:
    value = body.get(name)
    if type(value) is not int or not low <= value <= high:
        raise ProtocolError(f"{name!r} is not a whole number {low}..{high}")
    return value


def hex_field(body: dict[str, Any], name: str, size: int) -> bytes:
    value = body.get(name)
    try:
        data = bytes.fromhex(value) if isinstance(value, str) and len(value) == 2 * size else None
    except ValueError:
        data = None
    if data is None:
        raise ProtocolError(f"{name!r} is not {size} bytes in hex")
    return data


def clean_chat(text: str) -> str:
    """A chat line as it is shown: one line, printable, at most ``MAX_CHAT_CHARS`` (never interpreted)."""
    return clean_text(text, MAX_CHAT_CHARS)


def clean_text(text: str, limit: int) -> str:
    """Text from elsewhere as it is shown: one line, printable (a NUL, an escape code or a
    line break becomes a space), at most ``limit`` characters (never interpreted)."""
    text = "".join(char if char.isprintable() else " " for char in " ".join(text.split()))
    return " ".join(text.split())[:limit].strip()
