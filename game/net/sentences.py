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
from game.net.protocol import MAX_WRONG_CODE_WAIT, Away, Ending, Refusal
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
        return _("a draw by agreement") if over.reason is Ending.AGREED else _("a draw")
    winner = MAX if over.result is GameResult.FIRST else -MAX
    if over.reason is Ending.RESIGNED:
        return _("{name} resigned; {winner} wins").format(name=table.name(-winner), winner=table.name(winner))
    return _("{name} wins").format(name=table.name(winner))


def refusal_text(why: Refusal) -> str:
    """What the host's refusal of a move or an offer means, in words."""
    return {
        Refusal.TURN: _("The host refused: it is not your turn."),
        Refusal.ILLEGAL: _("The host refused: not a legal move."),
        Refusal.OVER: _("The host refused: the game is over."),
        Refusal.WAITING: _("The host refused: the other player is not there."),
        Refusal.WATCHER: _("The host refused: a watcher does not play."),
    }.get(why, why.value)


def away_text(table: Table, side: int, seconds: float, why: Away) -> str:
    """Why ``side``'s chair is empty and how long it waits for them."""
    name, time = table.name(side), clock(seconds)
    if why is Away.LEFT:
        return _("{name} left: waiting {time} for them to come back.").format(name=name, time=time)
    if why is Away.RESUMED:
        return _("Hosting the game again: waiting {time} for {name} to join with the same code.").format(
            name=name, time=time
        )
    return _("{name}'s connection dropped: waiting {time} for them to come back.").format(name=name, time=time)


def host_name(table: Table) -> str:
    """The host as a joiner names it: the other player (a watcher: "the host")."""
    return table.name(-table.side) if table.side else _("the host")


def event_line(table: Table, event: Event) -> str | None:
    """The sentence ``event`` is told in (after ``table`` took it in); None: nothing to say."""
    mine = table.side
    match event:
        case Joined(side, name, again):
            if side == mine:
                return None
            return (_("{name} is back.") if again else _("{name} joined.")).format(name=name)
        case Moved(side, move):
            if side == mine:  # a sentence of its own: "Du hast 4 gespielt", not "Du spielte 4"
                return _("You played {move}.").format(move=format_move(move, table.rules))
            return _("{name} played {move}.").format(name=table.name(side), move=format_move(move, table.rules))
        case GameOver():
            return _("Game over: {result}").format(result=result_text(table, event))
        case DrawOffered(side):
            if side == mine:
                return _("You offered a draw.")
            return _("{name} offers a draw.").format(name=table.name(side))  # how to answer: each front end's
        case DrawDeclined(side):
            return _("{name} declined the draw.").format(name=_("You") if side == mine else table.name(side))
        case PlayerLeft(side, seconds, why):
            return away_text(table, side, seconds, why)
        case WatchersChanged(count):
            return _("Watching: {count}").format(count=count)
        case ChatLine(name, text, side):
            if side and side == mine:
                return _("You: {text}").format(text=text)
            return _("{name}: {text}").format(name=name, text=text)
        case Refused(why):
            return refusal_text(why)
        case SeatExpired(side):
            return _("{name} did not come back: the game is kept unfinished.").format(name=table.name(side))
        case HostStopped():
            if table.over is not None:
                return None
            if not table.side:
                return _("The host ended the game.")
            return _(
                "{name} left and closed the game: it is kept in your archive as unfinished, "
                "to go on when {name} hosts it again."
            ).format(name=host_name(table))
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
