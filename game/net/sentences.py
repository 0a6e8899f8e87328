"""What a network game's events say, in the player's language: one home for the terminal
and the window (which also speaks them).  Pure functions of (table, event)."""

from __future__ import annotations

from game.i18n import _
from game.net.events import (
    ChatLine,
    ConnectionLost,
    DrawDeclined,
    DrawOffered,
    Event,
    GameOver,
    HostStopped,
    Joined,
    Moved,
    PlayerLeft,
    Refused,
    SeatExpired,
    Table,
    WatchersChanged,
    WrongCodesFrom,
)
from game.net.protocol import MAX_WRONG_CODE_WAIT
from game.notation import format_move
from game.records import GameResult
from game.rules import MAX


def clock(seconds: float) -> str:
    """``300`` -> ``"5:00"``."""
    whole = max(0, int(seconds + 0.5))
    return f"{whole // 60}:{whole % 60:02d}"


def result_text(table: Table, over: GameOver) -> str:
    """``"Alice wins"``, ``"Bob resigned; Alice wins"``, ``"a draw by agreement"``."""
    if over.result is GameResult.DRAW:
        return _("a draw by agreement") if over.reason == "agreed" else _("a draw")
    winner = MAX if over.result is GameResult.FIRST else -MAX
    if over.reason == "resigned":
        return _("{name} resigned; {winner} wins").format(name=table.name(-winner), winner=table.name(winner))
    return _("{name} wins").format(name=table.name(winner))


def refusal_text(why: str) -> str:
    """What the host's refusal means, in words."""
    return {
        "turn": _("The host refused: it is not your turn."),
        "illegal": _("The host refused: not a legal move."),
        "over": _("The host refused: the game is over."),
        "waiting": _("The host refused: the other player is not there."),
        "watcher": _("The host refused: a watcher does not play."),
    }.get(why, why)


def event_line(table: Table, event: Event) -> str | None:
    """The sentence ``event`` is told in (after ``table`` took it in); None: nothing to say."""
    mine = table.side
    match event:
        case Joined(side, name, again):
            if side == mine:
                return None
            return (_("{name} is back.") if again else _("{name} joined.")).format(name=name)
        case Moved(side, move):
            mover = _("You") if side == mine else table.name(side)
            return _("{name} played {move}.").format(name=mover, move=format_move(move, table.rules))
        case GameOver():
            return _("Game over: {result}").format(result=result_text(table, event))
        case DrawOffered(side):
            if side == mine:
                return _("You offered a draw.")
            return _("{name} offers a draw.").format(name=table.name(side))  # how to answer: each front end's
        case DrawDeclined(side):
            return _("{name} declined the draw.").format(name=_("You") if side == mine else table.name(side))
        case PlayerLeft(side, seconds):
            return _("{name}'s connection dropped: waiting {time} for them to come back.").format(
                name=table.name(side), time=clock(seconds)
            )
        case WatchersChanged(count):
            return _("Watching: {count}").format(count=count)
        case ChatLine(name, text):
            return f"[{name}] {text}"
        case Refused(why):
            return refusal_text(why)
        case SeatExpired(side):
            return _("{name} did not come back: the game is kept unfinished.").format(name=table.name(side))
        case HostStopped():
            if table.over is not None:
                return None
            return _("The host ended the game: the game so far is kept in your archive as unfinished.")
        case WrongCodesFrom(address, count):
            return _(
                "{count} wrong join codes from {address}: each further try from there waits longer, up to {time}."
            ).format(count=count, address=address, time=clock(MAX_WRONG_CODE_WAIT))
        case ConnectionLost(reason, seconds):
            if seconds == 0:
                return _("The host did not come back: giving up.")
            return _(
                "The host is gone ({reason}): the game so far ({count} moves) is kept in your archive "
                "as unfinished. Trying again for {time} ..."
            ).format(reason=reason, count=len(table.board.moves), time=clock(seconds))
    return None
