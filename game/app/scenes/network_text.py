"""The network screen's sentences: pure functions of the table and what the scene knows
(no pygame).  The events' own sentences are ``game.net.sentences``, shared with the terminal."""

from __future__ import annotations

from game.i18n import _, ngettext
from game.net.comeback import Comeback, Role
from game.net.events import Table
from game.net.sentences import away_text, clock, result_text
from game.records import InProgress
from game.rules import MAX, MIN, Rules


def menu_lines(rules: Rules, host_first: bool) -> list[str]:
    """Under the menu's title: what a hosted game would be."""
    first = _("you move first") if host_first else _("your guest moves first")
    return [
        _("Play a friend on the local network: {rules}, {first}.").format(rules=rules.said(), first=first),
        _("The rules are the Options' rules; the joiner needs your address and the join code."),
    ]


def form_title(watch: bool) -> str:
    return _("Watch a game") if watch else _("Join a game")


def table_title(table: Table) -> str:
    """``"Alice (1) against Bob (2) · 6x7, connect 4"``."""
    second = table.names.get(MIN, _("(waiting)")) if MIN in table.names else _("(waiting)")
    first = table.names.get(MAX, _("(waiting)"))
    return _("{first} (1) against {second} (2) · {rules}").format(first=first, second=second, rules=table.rules.said())


def table_status(table: Table, *, left: float | None, lost: float | None) -> str:
    """The line under the title: whose turn, who is away and for how long, or the result."""
    if table.over is not None:
        return _("Game over: {result}").format(result=result_text(table, table.over))
    if lost is not None:
        return _("The host is gone: trying again, {time} left.").format(time=clock(lost))
    if len(table.names) < 2:
        return _("Waiting for someone to join ...")
    for side, away in table.away.items():
        if left is not None:
            return away_text(table, side, left, away.why)
    if table.draw_offer and table.draw_offer != table.side:
        if table.side:
            return _("{name} offers a draw: D accepts, N declines.").format(name=table.name(table.draw_offer))
        return _("{name} offers a draw.").format(name=table.name(table.draw_offer))
    if table.my_turn:
        return _("Your move.")
    return _("{name} to move.").format(name=table.name(table.board.to_move))


def host_lines(code: str, addresses: list[str], watchers: int) -> list[str]:
    """What the host shows beside the board: the code, where to join, how many watch."""
    lines = [_("Join code: {code}").format(code=code)]
    lines += [_("Address: {address}").format(address=address) for address in addresses[:3]]
    lines.append(_("Watching: {count}").format(count=watchers))
    return lines


def chat_prompt(open_: bool, text: str) -> str:
    return _("Say: {text}_").format(text=text) if open_ else _("Tab: chat")


def unreachable_lines(comeback: Comeback, kept: InProgress, reason: str) -> list[str]:
    """An unfinished network game that could not be taken up again: what happened (the
    first line), then what the player can do."""
    other = comeback.other_name(kept)
    if comeback.role is Role.HOST:
        said = _("The game with {name} cannot be hosted again: {reason}").format(name=other, reason=reason)
        ask = _("Try again (A) when the port is free, or play it on here, two players at this screen (L).")
    else:
        said = _("{name}'s game is not open at {address} port {port}: {reason}").format(
            name=other, address=comeback.address, port=comeback.port, reason=reason
        )
        ask = _(
            "Ask {name} to resume it (title menu, Resume), then try again (A); "
            "or play it on here, two players at this screen (L)."
        ).format(name=other)
    count = len(kept.moves)
    return [
        said,
        ask,
        ngettext("The game so far: {count} disc.", "The game so far: {count} discs.", count).format(count=count),
    ]
