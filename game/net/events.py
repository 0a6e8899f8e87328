"""What the host or the client hands its front end: typed events, read from the host's
messages by one function (``event_from_body``), and the ``Table`` that follows them.

The host's own front end hears the same events as a joiner (the host makes each message
once and reads it back through ``event_from_body``), so the terminal and the window each
have one road for both roles.  A message from the host that does not read is a
``ProtocolError`` (the client then drops that connection).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from game.board import Board, IllegalMoveError
from game.net.protocol import (
    MAX_CHAT_CHARS,
    MAX_NAME_CHARS,
    Away,
    Ending,
    Kind,
    ProtocolError,
    Refusal,
    int_field,
    kind_of,
    text_field,
)
from game.records import GameResult
from game.rules import MAX, MIN, Mode, Rules, RulesError

TABLE_REFUSALS = frozenset({Refusal.TURN, Refusal.ILLEGAL, Refusal.OVER, Refusal.WAITING, Refusal.WATCHER})
"""Why a move or an offer was refused: not your turn, not a legal move, the game is over,
the opponent has not joined (or left), a watcher does not play."""


@dataclass(frozen=True)
class Welcome:
    """Seated (or watching): the game as it stands.  ``side`` 0: a watcher."""

    side: int
    rules: Rules
    names: dict[int, str]
    moves: tuple[int, ...]
    token: str = ""
    watchers: int = 0
    draw_offer: int = 0
    over: GameOver | None = None


@dataclass(frozen=True)
class Joined:
    """The opponent took the second seat (its ``name``), or came back to it."""

    side: int
    name: str
    again: bool = False


@dataclass(frozen=True)
class Moved:
    side: int
    move: int
    ply: int


@dataclass(frozen=True)
class GameOver:
    result: GameResult
    reason: Ending


@dataclass(frozen=True)
class DrawOffered:
    side: int


@dataclass(frozen=True)
class DrawDeclined:
    side: int


@dataclass(frozen=True)
class PlayerLeft:
    """A player is away (``why``: the connection dropped, they left on purpose, or the
    host hosts the game again); the seat waits ``seconds`` for them."""

    side: int
    seconds: int
    why: Away = Away.DROPPED


@dataclass(frozen=True)
class WatchersChanged:
    count: int


@dataclass(frozen=True)
class ChatLine:
    """A chat line: who said it (``side`` 0: a watcher) and what."""

    name: str
    text: str
    side: int = 0


@dataclass(frozen=True)
class Refused:
    """The host refused what this side asked (``why``: one of ``TABLE_REFUSALS``)."""

    why: Refusal


@dataclass(frozen=True)
class HostStopped:
    """The host ended the game (quit, closed its window)."""


# Made on this side, never sent:
@dataclass(frozen=True)
class ConnectionLost:
    """The connection to the host dropped; trying again until ``seconds`` run out (0: not)."""

    reason: str
    seconds: int


@dataclass(frozen=True)
class JoinFailed:
    """Could not join: ``wrong_code``, the seat is taken, the host is not there..."""

    reason: str
    wrong_code: bool = False


@dataclass(frozen=True)
class WrongCodesFrom:
    """Someone at ``address`` tried wrong codes (``count`` so far): its further tries wait
    longer each time (the host's side, said once per address)."""

    address: str
    count: int


@dataclass(frozen=True)
class SeatExpired:
    """The dropped player did not come back in time (the host's side): the game stops unfinished."""

    side: int


Event = (
    Welcome
    | Joined
    | Moved
    | GameOver
    | DrawOffered
    | DrawDeclined
    | PlayerLeft
    | WatchersChanged
    | ChatLine
    | Refused
    | HostStopped
    | ConnectionLost
    | JoinFailed
    | SeatExpired
    | WrongCodesFrom
)


def rules_body(rules: Rules) -> dict[str, Any]:
    return {
        "rows": rules.rows,
        "cols": rules.cols,
        "connect": rules.connect,
        "gravity": rules.gravity,
        "mode": rules.mode.value,
    }


def rules_from_body(body: Any) -> Rules:
    if not isinstance(body, dict):
        raise ProtocolError("rules that are not an object")
    try:
        gravity = body.get("gravity")
        if not isinstance(gravity, bool):
            raise ProtocolError("rules without gravity")
        return Rules(
            int_field(body, "rows", 0, 99),
            int_field(body, "cols", 0, 99),
            int_field(body, "connect", 0, 99),
            gravity,
            Mode(body.get("mode")),
        )
    except (RulesError, ValueError) as error:
        raise ProtocolError(f"rules this game cannot play ({error})") from None


def side_field(body: dict[str, Any], name: str = "side", *, none: bool = False) -> int:
    side = body.get(name)
    if type(side) is not int or side not in ((MAX, MIN, 0) if none else (MAX, MIN)):
        raise ProtocolError(f"{name!r} is not a side")
    return side


def over_body(over: GameOver | None) -> dict[str, str] | None:
    return None if over is None else {"result": over.result.value, "reason": over.reason.value}


def over_from_body(body: Any) -> GameOver:
    if not isinstance(body, dict):
        raise ProtocolError("a game end without a reason")
    try:
        reason = Ending(body.get("reason"))
    except ValueError:
        raise ProtocolError("a game end without a reason") from None
    try:
        return GameOver(GameResult(body.get("result")), reason)
    except ValueError:
        raise ProtocolError("a game end without a result") from None


def event_from_body(body: dict[str, Any]) -> Event | None:
    """The event a host's message means (None: nothing for the front end, a ping)."""
    match kind_of(body):
        case Kind.PING:
            return None
        case Kind.WELCOME:
            return welcome_from_body(body)
        case Kind.JOINED:
            return Joined(side_field(body), text_field(body, "name", MAX_NAME_CHARS), body.get("again") is True)
        case Kind.MOVE:
            return Moved(side_field(body), int_field(body, "move", 0, 200), int_field(body, "ply", 0, 200))
        case Kind.OVER:
            return over_from_body(body)
        case Kind.DRAW:
            return DrawOffered(side_field(body))
        case Kind.DECLINE:
            return DrawDeclined(side_field(body))
        case Kind.LEFT:
            try:
                why = Away(body.get("why", Away.DROPPED.value))
            except ValueError:
                raise ProtocolError("a player away for no reason this version knows") from None
            return PlayerLeft(side_field(body), int_field(body, "seconds", 0, 86_400), why)
        case Kind.WATCHERS:
            return WatchersChanged(int_field(body, "count", 0, 10_000))
        case Kind.CHAT:
            side = side_field(body, none=True) if "side" in body else 0
            return ChatLine(text_field(body, "name", MAX_NAME_CHARS), text_field(body, "text", MAX_CHAT_CHARS), side)
        case Kind.REFUSED:
            refusal = next((each for each in TABLE_REFUSALS if each.value == body.get("why")), None)
            if refusal is None:
                raise ProtocolError("a refusal without a reason")
            return Refused(refusal)
        case Kind.EXPIRED:
            return SeatExpired(side_field(body))
        case Kind.BYE:
            return HostStopped()
        case kind:
            raise ProtocolError(f"a {kind.value!r} message where the host's news was due")


def welcome_from_body(body: dict[str, Any]) -> Welcome:
    names = body.get("names")
    moves = body.get("moves")
    if not isinstance(names, list) or len(names) != 2 or not isinstance(moves, list) or len(moves) > 200:
        raise ProtocolError("a welcome without names or moves")
    named = {}
    for side, name in zip((MAX, MIN), names, strict=True):
        if name is not None:
            named[side] = text_field({"n": name}, "n", MAX_NAME_CHARS)
    if not all(type(move) is int for move in moves):
        raise ProtocolError("moves that are not numbers")
    token = body.get("token", "")
    return Welcome(
        side_field(body, none=True),
        rules_from_body(body.get("rules")),
        named,
        tuple(moves),
        token if isinstance(token, str) and len(token) <= 64 else "",
        int_field(body, "watchers", 0, 10_000),
        side_field(body, "draw", none=True),
        None if body.get("over") is None else over_from_body(body.get("over")),
    )


@dataclass
class Table:
    """The game as a front end follows it: the board, who sits where, the end, the offers."""

    rules: Rules
    side: int
    """This front end's side (0: watching)."""
    names: dict[int, str]
    board: Board
    watchers: int = 0
    draw_offer: int = 0
    over: GameOver | None = None
    away: dict[int, PlayerLeft] = field(default_factory=dict)
    """Sides that are away: why, and the seconds they were given."""
    host_gone: bool = False
    """The host said goodbye (a joiner's or a watcher's table)."""

    @classmethod
    def from_welcome(cls, welcome: Welcome) -> Table:
        """The table a welcome sets (``ProtocolError`` when its moves are not a game)."""
        board = Board(welcome.rules)
        try:
            for move in welcome.moves:
                board.push(move)
        except (IllegalMoveError, ValueError):
            raise ProtocolError("a welcome whose moves are not a game") from None
        return cls(
            welcome.rules, welcome.side, dict(welcome.names), board, welcome.watchers, welcome.draw_offer, welcome.over
        )

    @property
    def my_turn(self) -> bool:
        return self.side != 0 and self.over is None and self.board.to_move == self.side and len(self.names) == 2

    def name(self, side: int) -> str:
        return self.names.get(side, "?")

    def follow(self, event: Event) -> None:
        """Take ``event`` in (``ProtocolError``: a move the board refuses, so the host lied)."""
        match event:
            case Joined(side, name):
                self.names[side] = name
                self.away.pop(side, None)
            case Moved(side, move, ply):
                if ply != self.board.ply or side != self.board.to_move:
                    raise ProtocolError("a move out of order")
                try:
                    self.board.push(move)
                except (IllegalMoveError, ValueError):
                    raise ProtocolError("an illegal move from the host") from None
                self.draw_offer = 0
            case GameOver():
                self.over = event
                self.draw_offer = 0
            case DrawOffered(side):
                self.draw_offer = side
            case DrawDeclined():
                self.draw_offer = 0
            case PlayerLeft(side):
                self.away[side] = event
            case HostStopped():
                self.host_gone = True
            case WatchersChanged(count):
                self.watchers = count
            case _:
                pass


class Seat(Protocol):
    """What a front end may do at the table: the host's ``GameHost`` and a joiner's ``Client``."""

    def play(self, move: int, ply: int) -> None: ...

    def offer_draw(self) -> None: ...

    def decline_draw(self) -> None: ...

    def resign(self) -> None: ...

    def chat(self, text: str) -> None: ...

    def close(self) -> None: ...
