"""One player's side of one network game, as a front end follows and draws it: headless.

A ``Session`` holds what the network table shows and what a player resumes: the seat (the
host's ``GameHost`` or a joiner's ``Client``), the ``Table`` the events build, the lines
said so far, the countdowns (a dropped player's chair, a host looked for again), how the
game stopped unfinished, and the ``GameKeeper`` that keeps it in the archive as it goes,
with how to go on with it (``game.net.comeback``).  The window's table scene draws it and
turns keys into its actions; nothing here knows pygame.

Nothing waits on the network: the host's key derivation and its start run in a thread,
the host and the client run in their own threads, and everything they say arrives on
``inbox``, which ``take_news`` empties without waiting (at most ``NEWS_PER_CALL`` items a
call, so a flood cannot hold a frame).
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.archive.store import Archive
from game.i18n import _
from game.net.client import Client, JoinSettings
from game.net.comeback import Comeback
from game.net.discovery import Announcement
from game.net.events import (
    ConnectionLost,
    Event,
    GameOver,
    HostStopped,
    Joined,
    JoinFailed,
    Moved,
    PlayerLeft,
    Refused,
    SeatExpired,
    Table,
    Welcome,
)
from game.net.host import GameHost, HostSettings, reachable_addresses
from game.net.keeping import GameKeeper
from game.net.protocol import DEFAULT_PORT, ProtocolError
from game.net.sentences import event_line

LOG_LINES = 8
"""The latest events and chat lines kept."""
NEWS_PER_CALL = 200


@dataclass(frozen=True)
class _Started:
    host: GameHost
    addresses: list[str]  # where a joiner can reach it, looked up in the start thread


@dataclass(frozen=True)
class _StartFailed:
    reason: str


class Session:
    """One player's (or a watcher's) side of one network game."""

    def __init__(self, archive: Archive | None, home: Path | None):
        self.archive = archive
        self.home = home
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.seat: GameHost | Client | None = None
        self.host: GameHost | None = None
        self.joining: JoinSettings | None = None
        self.code = ""
        self.addresses: list[str] = []
        self.announcement: Announcement | None = None
        self.table: Table | None = None
        self.log: list[str] = []
        self.spoken: str | None = None
        """The last thing the other side did (a move, a chat line, a drop): read out."""
        self.sent_at: int | None = None  # the discs on the board when this side sent its move
        self.left_until: float | None = None  # when an away player's chair stops waiting
        self.lost_until: float | None = None  # when this joiner stops looking for the host
        self.ended: str | None = None  # why the game stopped unfinished (the host left, a chair expired)
        self.failed: str | None = None  # why this side could not start or join (nothing was seated)
        self.wrong_code = False  # ... because the code was wrong
        self.stop = threading.Event()  # ends the threads this session started
        self.start_lock = threading.Lock()
        self.keeper = GameKeeper(archive, self.comeback)

    # -- starting -------------------------------------------------------------------------
    def start_hosting(self, settings: HostSettings, *, fallback: bool) -> None:
        """Start the host in a thread (its key takes a moment); ``fallback``: when the
        usual port is taken, any free one."""
        self.code = settings.code
        self.say(_("Starting the game on the local network ..."))
        threading.Thread(
            target=start_host,
            args=(settings, fallback, self.inbox, self.stop, self.start_lock),
            name="net-start",
            daemon=True,
        ).start()

    def start_joining(self, joining: JoinSettings) -> None:
        """Join (or watch) the game ``joining`` names (a thread: its events come to ``inbox``)."""
        self.joining = joining
        self.say(_("Joining {address} port {port} ...").format(address=joining.address, port=joining.port))
        client = Client.of(joining, home=self.home, events=self.inbox)
        self.seat = client
        client.start()

    def comeback(self) -> Comeback | None:
        """How this player goes on with the game over the network (None: a watcher, or not yet)."""
        if self.host is not None:
            return Comeback.of_host(self.host)
        client, table = self.seat, self.table
        if isinstance(client, Client) and self.joining is not None and table is not None:
            return Comeback.of_guest(self.joining, client, table.side)
        return None

    # -- news -----------------------------------------------------------------------------
    def take_news(self) -> tuple[bool, list[str]]:
        """Take what came without waiting: whether anything did, and the sentences to show
        at once (a host that could not start, one that broke the protocol)."""
        toasts: list[str] = []
        came = False
        for _index in range(NEWS_PER_CALL):
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            came = True
            if isinstance(item, _Started):
                self.started(item.host, item.addresses)
            elif isinstance(item, _StartFailed):
                self.failed = item.reason
                toasts.append(item.reason)
            else:
                try:
                    self.follow(item)
                except ProtocolError as error:  # the host sent what its own board refuses
                    toasts.append(_("the host broke the protocol: {error}").format(error=error))
                    self.keep_if_unfinished()
                    self.close()
        return came, toasts

    def started(self, host: GameHost, shown: list[str]) -> None:
        self.seat = self.host = host
        port = host.where[1]
        self.addresses = [f"{each}:{port}" for each in shown]
        self.say(_("Hosting: give the joiner an address and the code."))
        lan = [each for each in shown if not each.startswith("127.")]
        if lan:
            self.announcement = Announcement(host.settings.name, port, lan, host.settings.rules.said()).start()

    def follow(self, event: Event) -> None:
        """Take one event of the game in (``ProtocolError``: the host lied)."""
        if isinstance(event, Welcome):  # the first, or again after a drop: the game as the host has it
            self.table = Table.from_welcome(event)
            self.log = [line for line in self.log if not line.startswith(self._joining_line())]
            self.keeper.follow(self.table, event)
            self.lost_until = None
            self.sent_at = None
            self.failed = None
            return
        if isinstance(event, JoinFailed):
            self.close()
            self.log = [line for line in self.log if not line.startswith(self._joining_line())]  # not joining now
            self.failed = event.reason
            self.wrong_code = event.wrong_code
            return
        table = self.table
        if table is None:
            return
        table.follow(event)
        self.keeper.follow(table, event)  # the game kept as it goes: a kill of this window loses nothing
        line = event_line(table, event)
        if line is not None:
            self.say(line)
            if not isinstance(event, Moved) or event.side != table.side:
                self.spoken = line  # the opponent's moves and messages, not one's own
        match event:
            case Joined():
                self.left_until = None
            case Refused():
                self.sent_at = None  # the host did not take it: this side may move again
            case PlayerLeft(_side, seconds):
                self.left_until = time.monotonic() + seconds
            case GameOver():
                self.left_until = None
            case SeatExpired() | HostStopped():
                self.left_until = self.lost_until = None
                self.ended = line
                self.keep_if_unfinished()
            case ConnectionLost(_reason, seconds):
                self.lost_until = time.monotonic() + seconds if seconds else None
                self.keep_if_unfinished()

    def _joining_line(self) -> str:
        joining = self.joining
        if joining is None:
            return "\0"
        return _("Joining {address} port {port} ...").format(address=joining.address, port=joining.port)

    def say(self, line: str) -> None:
        self.log = [*self.log, line][-LOG_LINES:]

    def keep_if_unfinished(self) -> None:
        self.keeper.keep_so_far(self.table)

    # -- what the player does ------------------------------------------------------------
    @property
    def kept(self) -> bool:
        """The finished game is in the archive."""
        return self.keeper.finished

    @property
    def playing(self) -> bool:
        """A player's seat at a game still going on (not a watcher's, not over)."""
        table = self.table
        return table is not None and table.side != 0 and table.over is None and self.ended is None

    @property
    def to_play(self) -> bool:
        """This side's turn, and its move not yet sent (the host's answer comes in a moment)."""
        table = self.table
        return table is not None and table.my_turn and self.sent_at != table.board.ply and self.ended is None

    def play(self, move: int) -> str | None:
        """Send ``move`` (None), or say why it cannot be played."""
        table = self.table
        if table is None or self.seat is None or not self.to_play:
            return None
        if not table.board.is_legal(move):
            return table.board.why_illegal(move)
        self.sent_at = table.board.ply
        self.seat.play(move, table.board.ply)
        return None

    def offer_draw(self) -> None:
        if self.seat is not None and self.playing:
            self.seat.offer_draw()

    def decline_draw(self) -> None:
        if self.seat is not None and self.playing:
            self.seat.decline_draw()

    def resign(self) -> None:
        if self.seat is not None and self.playing:
            self.seat.resign()

    def chat(self, text: str) -> None:
        """Say ``text`` (cleaned and cut by the seat, as every chat line)."""
        if text.strip() and self.seat is not None:
            self.seat.chat(text)

    def countdowns(self) -> tuple[float | None, float | None]:
        """Seconds left for an away player's chair, and for finding the host again."""
        now = time.monotonic()
        left = None if self.left_until is None else max(0.0, self.left_until - now)
        lost = None if self.lost_until is None else max(0.0, self.lost_until - now)
        return left, lost

    def close(self) -> None:
        """Close every socket and thread this session started (a host still deriving its
        key closes itself when it is done)."""
        with self.start_lock:
            self.stop.set()
        if self.seat is not None:
            self.seat.close()
        if self.announcement is not None:
            self.announcement.close()
        self.seat = self.host = self.announcement = None

    def leave(self) -> None:
        """Leave the game: keep it unfinished if it was, then close."""
        self.keep_if_unfinished()
        self.close()


def start_host(
    settings: HostSettings, fallback: bool, inbox: queue.Queue[Any], stop: threading.Event, lock: threading.Lock
) -> None:
    """Derive the host's key and start it listening (in a thread): ``_Started`` or
    ``_StartFailed`` goes to ``inbox``; a host made after ``stop`` (the screen was left) closes."""
    tries = [settings]
    if fallback and settings.port == DEFAULT_PORT:  # the usual port is taken: any free one
        tries.append(replace(settings, port=0))
    error: OSError | None = None
    for each in tries:
        try:
            host = GameHost(each, inbox)
        except ValueError as kept_wrong:  # an unfinished game whose moves are not a game
            inbox.put(_StartFailed(_("the game kept cannot be hosted again: {error}").format(error=kept_wrong)))
            return
        try:
            host.start()
        except OSError as refused:
            error = refused
            continue
        shown = reachable_addresses(host)
        with lock:
            if stop.is_set():
                host.close()
            else:
                inbox.put(_Started(host, shown))
        return
    reason = error.strerror if error is not None else ""
    inbox.put(
        _StartFailed(
            _("cannot listen on {address} port {port}: {error}").format(
                address=settings.address, port=settings.port, error=reason
            )
        )
    )
