"""``host`` and ``join``: network play in the terminal (``--terminal``), one move a line.

Without ``--terminal`` these commands open the window on the network screen instead
(``game.launcher`` sends them to ``game.app.network_command``); the arguments are the
same and are defined here.  The game itself is ``game.net``: this module reads the
person's lines, prints the host's events and keeps the game in the archive.

Both sides keep the game in the archive as it goes (``game.net.keeping``): a kill of
either process loses nothing.

Lines the player types: a column (``4``; a cell such as ``d1`` without gravity),
``draw`` (offer or accept a draw), ``no`` (decline it), ``resign``, ``say TEXT`` (chat),
``board``, ``q`` (leave: an unfinished game is kept as such).
"""

from __future__ import annotations

import argparse
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from game.archive.store import Archive
from game.cli.archive_folder import add_home_option, open_archive
from game.cli.board_words import print_board
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import MAX_INPUT_BYTES
from game.cli.options import add_rule_options, rules_from_args
from game.i18n import _
from game.net.client import Client, JoinSettings, clean_name, default_name, split_address
from game.net.comeback import Comeback
from game.net.discovery import Announcement
from game.net.events import (
    ConnectionLost,
    DrawOffered,
    Event,
    GameOver,
    HostStopped,
    Joined,
    JoinFailed,
    Moved,
    PlayerLeft,
    Seat,
    SeatExpired,
    Table,
    Welcome,
)
from game.net.host import ALL_INTERFACES, GameHost, HostSettings, reachable_addresses
from game.net.keeping import GameKeeper
from game.net.protocol import DEFAULT_PORT, MAX_NAME_CHARS, ProtocolError
from game.net.sentences import clock, event_line, result_text
from game.net.words import CodeError, new_code, normal_code
from game.notation import NotationError, parse_move
from game.rules import MAX, Mode

COUNTDOWN_EVERY = 30
"""Seconds between the lines that count down a dropped player's wait."""


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    """host [--port P] [--listen ADDRESS] [--code CODE] [--first host|guest] [rules] [--terminal] [--home DIR]."""
    parser.description = (
        "Host a game on the local network: show this computer's address and a join code of words "
        "to read aloud; the other player runs 'join ADDRESS --code CODE'. Your game is the game: "
        "every move is checked here. docs/network-play.md says what is sent and what the code protects."
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"the port to listen on (default {DEFAULT_PORT}; 0: any free one)",
    )
    parser.add_argument(
        "--listen",
        default=ALL_INTERFACES,
        metavar="ADDRESS",
        help="listen only on this address (default: every interface)",
    )
    parser.add_argument("--code", help="the join code (default: four new random words)")
    parser.add_argument(
        "--first", choices=["host", "guest"], default="host", help="who moves first (default: the host)"
    )
    parser.add_argument("--no-discovery", action="store_true", help="do not announce the game on the local network")
    add_player_options(parser)
    add_rule_options(parser, Mode.CLASSIC)


def add_join_arguments(parser: argparse.ArgumentParser) -> None:
    """join ADDRESS[:PORT] --code CODE [--watch] [--terminal] [--home DIR]."""
    parser.description = (
        "Join a game hosted on the local network (or watch it with --watch). "
        "Joining again with the same address and code after a drop gives back the same seat."
    )
    parser.add_argument(
        "address", metavar="ADDRESS[:PORT]", help=f"the host's address (port {DEFAULT_PORT} unless given)"
    )
    parser.add_argument("--code", required=True, help="the join code the host shows")
    parser.add_argument("--watch", action="store_true", help="follow the game move by move without playing")
    add_player_options(parser)


def add_player_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", help="your name as the other side sees it (default: your login name)")
    parser.add_argument(
        "--terminal", action="store_true", help="play in the terminal, one move a line (default: the window)"
    )
    add_home_option(parser)


def player_name(args: argparse.Namespace) -> str:
    """``--name`` taken as any typed text is (``game.net.client.clean_name``: one line,
    printable, at most 40 characters), else the login name."""
    if args.name is None:
        return default_name()
    name = clean_name(str(args.name))
    if not name:
        raise CliError(
            _("--name must be printable text (at most {count} characters are kept)").format(count=MAX_NAME_CHARS)
        )
    return name


def code_from_args(text: str | None) -> str:
    try:
        return new_code() if text is None else normal_code(text)
    except CodeError as error:
        raise CliError(str(error)) from None


def host_settings(args: argparse.Namespace) -> HostSettings:
    """The host's choices from its arguments (``CliError`` for a bad one)."""
    if not 0 <= args.port <= 65535:
        raise CliError(_("--port must be 0..65535, not {port}").format(port=args.port))
    return HostSettings(
        code=code_from_args(args.code),
        name=player_name(args),
        rules=rules_from_args(args),
        host_first=args.first == "host",
        address=args.listen,
        port=args.port,
    )


def join_settings(args: argparse.Namespace) -> JoinSettings:
    """The joiner's choices from its arguments (``CliError`` for a bad one)."""
    address, port = join_target(args)
    return JoinSettings(address, port, code_from_args(args.code), player_name(args), args.watch)


def join_target(args: argparse.Namespace) -> tuple[str, int]:
    try:
        return split_address(args.address, DEFAULT_PORT)
    except ValueError:
        raise CliError(_("{address} is not an address with a port 1..65535").format(address=args.address)) from None


def start_host(settings: HostSettings, inbox: queue.Queue[Any] | None = None) -> GameHost:
    """A started host (``CliError``: it cannot listen there)."""
    host = GameHost(settings, inbox)
    try:
        host.start()
    except OSError as error:
        raise CliError(
            _("cannot listen on {address} port {port}: {error}").format(
                address=settings.address, port=settings.port, error=error.strerror or error
            )
        ) from None
    return host


def shown_addresses(host: GameHost) -> list[str]:
    """Where a joiner can reach ``host``: its one address, or every address of this machine."""
    port = host.where[1]
    return [f"{each}:{port}" for each in reachable_addresses(host)]


def run_host(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    if not args.terminal:  # (game.launcher sends the window's host to game.app.network_command)
        raise CliError(_("host without --terminal opens the window (python main.py host)"))
    settings = host_settings(args)
    inbox: queue.Queue[Any] = queue.Queue()
    archive = open_archive(args.home)
    host = start_host(settings, inbox)
    listening, port = host.where
    reachable = reachable_addresses(host)
    where = [f"{each}:{port}" for each in reachable]
    say(
        out,
        _("Hosting {rules} as {name}; listening on {address} port {port}.").format(
            rules=settings.rules.said(), name=settings.name, address=listening, port=port
        ),
    )
    say(out, _("Join code: {code}").format(code=settings.code))
    say(
        out,
        _("On the other computer: main.py join {address} --code {code}").format(address=where[0], code=settings.code),
    )
    if len(where) > 1:
        say(out, _("This computer's addresses: {addresses}").format(addresses=", ".join(where)))
    announcement = None
    if not args.no_discovery and listening != "127.0.0.1":
        announcement = Announcement(
            settings.name, port, [each for each in reachable if not each.startswith("127.")], settings.rules.said()
        ).start()
    try:
        return TerminalTable(host, inbox, out, stdin, archive, lambda table: Comeback.of_host(host)).run()
    finally:
        host.close()
        if announcement is not None:
            announcement.close()
        archive.close()


def run_join(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    if not args.terminal:
        raise CliError(_("join without --terminal opens the window (python main.py join)"))
    joining = join_settings(args)
    archive = None if args.watch else open_archive(args.home)
    inbox: queue.Queue[Any] = queue.Queue()
    home = archive.home if archive is not None else None
    client = Client.of(joining, home=home, events=inbox)
    say(out, _("Joining {address} port {port} ...").format(address=joining.address, port=joining.port))
    client.start()
    try:
        return TerminalTable(
            client,
            inbox,
            out,
            stdin,
            archive,
            lambda table: None if table is None else Comeback.of_guest(joining, client, table.side),
        ).run()
    finally:
        client.close()
        if archive is not None:
            archive.close()


def say(out: TextIO, text: str) -> None:
    print(text, file=out, flush=True)


@dataclass(frozen=True)
class TypedLine:
    """A line the player typed (None: the input ended)."""

    text: str | None


def read_lines(stdin: TextIO, inbox: queue.Queue[Any]) -> None:
    """Hand each typed line to ``inbox`` (a thread: the game's events come meanwhile)."""
    try:
        while True:
            line = stdin.readline(MAX_INPUT_BYTES + 1)
            if not line:
                break
            inbox.put(TypedLine(line.strip()))
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    inbox.put(TypedLine(None))


class TerminalTable:
    """The terminal's side of one network game: typed lines in, the host's events out."""

    def __init__(
        self,
        seat: Seat,
        inbox: queue.Queue[Any],
        out: TextIO,
        stdin: TextIO,
        archive: Archive | None,
        comeback: Callable[[Table | None], Comeback | None] = lambda table: None,
    ):
        self.seat, self.inbox, self.out, self.stdin, self.archive = seat, inbox, out, stdin, archive
        # The game kept as it goes, with how to go on with it (a kill of this process loses nothing):
        self.keeper = GameKeeper(archive, lambda: comeback(self.table))
        self.table: Table | None = None
        self.waiting_until: float | None = None
        self.next_countdown = 0.0
        self.input_ended = False  # standard input ended before the game began

    def run(self) -> int:
        threading.Thread(target=read_lines, args=(self.stdin, self.inbox), name="stdin", daemon=True).start()
        while True:
            try:
                item = self.inbox.get(timeout=1.0)
            except queue.Empty:
                self.count_down()
                continue
            if isinstance(item, TypedLine):
                done = self.typed(item.text)
            else:
                try:
                    done = self.event(item)
                except ProtocolError as error:  # the host sent a move its own board would refuse
                    self.keeper.keep_so_far(self.table)
                    kept = self.table is not None and self.table.side and self.table.board.moves
                    message = _("the host broke the protocol: {error}").format(error=error)
                    if kept:
                        message += _("; the game so far is kept in your archive as unfinished")
                    raise CliError(message) from None
            if done is not None:
                return done

    # -- what the host says ---------------------------------------------------------------------
    def event(self, event: Event) -> int | None:
        if isinstance(event, Welcome):
            self.table = Table.from_welcome(event)
            self.keeper.follow(self.table, event)
            self.waiting_until = None
            self.welcome(event)
            return self.typed(None) if self.input_ended and self.table.side else None
        if isinstance(event, JoinFailed):
            raise CliError(event.reason)
        table = self.table
        if table is None:
            return None
        table.follow(event)
        self.keeper.follow(table, event)  # before the line that says it is kept: a reader may look at once
        line = event_line(table, event)
        if line is not None:
            say(self.out, line)
        if isinstance(event, DrawOffered) and table.side and event.side != table.side:
            say(self.out, _("Type draw to accept, no to decline."))
        match event:
            case Joined(side):
                self.waiting_until = None
                if side != table.side:
                    self.prompt()
            case Moved():
                print_board(table.board, self.out)
                self.prompt()
            case GameOver():
                return self.game_over()
            case PlayerLeft(side, seconds):
                self.waiting_until = time.monotonic() + seconds
                self.next_countdown = time.monotonic() + COUNTDOWN_EVERY
            case SeatExpired() | HostStopped():
                return 0
            case ConnectionLost(_reason, 0):
                return 1
        return None

    def welcome(self, event: Welcome) -> None:
        table = self.table
        assert table is not None
        if table.side == 0:
            say(
                self.out,
                _("Watching {first} against {second} ({rules}).").format(
                    first=table.name(MAX), second=table.name(-MAX), rules=table.rules.said()
                ),
            )
        elif len(table.names) < 2:
            say(self.out, _("Waiting for the other player ..."))
            return
        else:
            say(
                self.out,
                _("{first} against {second} ({rules}); you are player {number}.").format(
                    first=table.name(MAX),
                    second=table.name(-MAX),
                    rules=table.rules.said(),
                    number=1 if table.side == MAX else 2,
                ),
            )
        print_board(table.board, self.out)
        if table.over is not None:
            say(self.out, _("The game is over: {result}").format(result=result_text(table, table.over)))
        self.prompt()

    def prompt(self) -> None:
        table = self.table
        if table is not None and table.my_turn:
            say(self.out, _("Your move: column 1..{cols}, draw, resign, say TEXT or q").format(cols=table.rules.cols))

    def game_over(self) -> int:
        """Say where the finished game was kept (a player's side, not a watcher's); the exit code."""
        if self.keeper.finished_id is not None:
            say(self.out, _("Kept in your archive as game {id}.").format(id=self.keeper.finished_id))
        return 0

    def count_down(self) -> None:
        if self.waiting_until is None or time.monotonic() < self.next_countdown:
            return
        self.next_countdown = time.monotonic() + COUNTDOWN_EVERY
        say(
            self.out, _("Still waiting: {time} left.").format(time=clock(max(0, self.waiting_until - time.monotonic())))
        )

    # -- what the player types --------------------------------------------------------------------
    def typed(self, text: str | None) -> int | None:
        table = self.table
        if text is None and table is None:  # input ended before the host answered: hear it first
            self.input_ended = True
            return None
        if text is None or text.lower() in ("q", "quit", "exit"):
            if table is not None and table.over is None and table.side:
                self.keeper.keep_so_far(table)
                say(self.out, _("You left: the game so far is kept in your archive as unfinished."))
            return 0
        if not text:
            return None
        word, _space, rest = text.partition(" ")
        if word.lower() in ("say", "chat"):
            self.seat.chat(rest)
            return None
        if table is None:
            say(self.out, _("Not connected yet."))
            return None
        if word.lower() == "board":
            print_board(table.board, self.out)
        elif not table.side:
            say(self.out, _("You are watching: only say TEXT and q work here."))
        elif word.lower() == "draw":
            self.seat.offer_draw()
        elif word.lower() == "no":
            self.seat.decline_draw()
        elif word.lower() == "resign":
            self.seat.resign()
        elif not table.my_turn:
            say(self.out, _("It is not your turn."))
        else:
            try:
                move = parse_move(text, table.rules)
            except NotationError as error:
                say(self.out, _("Not a move: {error}").format(error=error))
                return None
            if not table.board.is_legal(move):
                say(self.out, _("Not a legal move: {error}. Try again.").format(error=table.board.why_illegal(move)))
                return None
            self.seat.play(move, table.board.ply)
        return None


COMMANDS = {
    "host": CommandCode(add_host_arguments, run_host),
    "join": CommandCode(add_join_arguments, run_join),
}
