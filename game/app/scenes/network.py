"""Network play in the window: host, join or watch a game on the local network.

The network runs beside the frame loop: the host (``game.net.host``) and the client
(``game.net.client``) each run in their own threads and hand this scene their events
through a queue, which ``update`` empties without waiting; the key derivation of a new
host, the search for hosts on the local network and the announcement run in threads too.
Nothing here waits on a socket in a frame.  Leaving the screen (or closing the window)
closes the host or the client, and keeps an unfinished game in the archive as such.

Controls: on the menu H hosts, F says who moves first, J joins, W watches, Esc goes back.
In the join form: type the address, Tab goes to the code, Up/Down pick a game found on the
local network, Enter joins, F5 searches again, Esc goes back.  At the table: click a
column or press 1..9 (Left/Right and Enter) to play, D offers or accepts a draw, N
declines it, R twice resigns, Tab opens the chat line (Enter sends it, Esc closes it),
Esc twice leaves.
"""

from __future__ import annotations

import functools
import queue
import threading
import time
from dataclasses import dataclass, replace
from typing import Any

import pygame

from game.app.board_view import BoardLayout, BoardView
from game.app.scene import Scene
from game.app.scenes.board_panel import side_layout
from game.app.scenes.network_form import JoinForm, draw_heading, draw_panel
from game.app.scenes.network_text import chat_prompt, host_lines, menu_lines, table_status, table_title
from game.app.widgets import Button, click_buttons, display_size, row_rects, stack_rects
from game.i18n import N_, _
from game.net.client import Client, JoinSettings, default_name
from game.net.discovery import Announcement, FoundGame, browse
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
from game.net.protocol import DEFAULT_PORT, MAX_CHAT_CHARS, ProtocolError
from game.net.sentences import event_line
from game.net.words import new_code

LOG_LINES = 8
"""The latest events and chat lines kept beside the board."""
CONFIRM_SECONDS = 3.0
"""A second Esc (leave) or R (resign) within this long does it."""


@dataclass(frozen=True)
class _Started:
    host: GameHost
    addresses: list[str]  # where a joiner can reach it, looked up in the start thread


@dataclass(frozen=True)
class _StartFailed:
    reason: str


@dataclass(frozen=True)
class _Found:
    games: list[FoundGame]
    note: str | None


class NetworkScene(Scene):
    name = "network"

    def __init__(self, host: HostSettings | None = None, join: JoinSettings | None = None):
        super().__init__()
        self.mode = "menu"  # "menu", "form" (join or watch), "table"
        self.host_first = True
        self.form = JoinForm(self.join_from_form, self.search, self.to_menu)
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.seat: GameHost | Client | None = None
        self.host: GameHost | None = None
        self.code = ""
        self.addresses: list[str] = []
        self.announcement: Announcement | None = None
        self.table: Table | None = None
        self.log: list[str] = []
        self.spoken: str | None = None
        self.chat_open = False
        self.chat_text = ""
        self.cursor = 3
        self.sent_at: int | None = None  # the discs on the board when this side sent its move
        self.left_until: float | None = None  # when a dropped player's seat stops waiting
        self.lost_until: float | None = None  # when this joiner stops trying to reach the host
        self.kept = False  # the finished game is in the archive
        self.ended: str | None = None  # why the game stopped unfinished (the host left, a seat expired)
        self.armed: dict[str, float] = {}  # "leave"/"resign" -> app time until a second press does it
        self.stop = threading.Event()  # ends the threads this scene started (start, search)
        self.start_lock = threading.Lock()
        self.pending_host = host
        self.pending_join = join
        self.first_button = Button(N_("Who moves first"), self.toggle_first, "F")
        self.menu_buttons = [
            Button(N_("Host a game"), self.host_game, "H"),
            self.first_button,
            Button(N_("Join a game"), lambda: self.open_form(watch=False), "J"),
            Button(N_("Watch a game"), lambda: self.open_form(watch=True), "W"),
            Button(N_("Back"), self.back, "Esc"),
        ]
        self.table_buttons = [
            Button(N_("Draw"), self.offer_draw, "D"),
            Button(N_("Resign"), self.resign, "R"),
            Button(N_("Chat"), self.open_chat, "Tab"),
            Button(N_("Leave"), self.leave, "Esc"),
        ]
        self.view: BoardView | None = None

    # -- life cycle ------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        if self.pending_host is not None:
            self.start_hosting(self.pending_host, fallback=False)
        elif self.pending_join is not None:
            self.start_joining(self.pending_join)

    def on_exit(self) -> None:
        """Leave the game: keep it unfinished if it was, close every socket and thread."""
        self.keep_if_unfinished()
        self.close_network()

    def close_network(self) -> None:
        with self.start_lock:
            self.stop.set()  # a host still deriving its key closes itself when it is done
        if self.seat is not None:
            self.seat.close()
        if self.announcement is not None:
            self.announcement.close()
        self.seat = self.host = self.announcement = None

    def is_animating(self) -> bool:
        """A countdown ticks while a seat waits or the host is being looked for again."""
        return self.left_until is not None or self.lost_until is not None

    def status_line(self) -> str | None:
        """The last thing the other side did (a move, a chat line, a drop): read out with spoken output on."""
        return self.spoken

    # -- the network's events (taken without waiting, once a frame) -----------------------------
    def update(self, dt: float) -> None:
        for _index in range(200):  # at most this many a frame: a flood cannot hold the frame
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            self.app.dirty = True
            self.take(item)
        for what, until in list(self.armed.items()):
            if self.app.time >= until:
                del self.armed[what]
                self.app.dirty = True

    def take(self, item: Any) -> None:
        if isinstance(item, _Started):
            self.started(item.host, item.addresses)
        elif isinstance(item, _StartFailed):
            self.mode = "menu"
            self.app.show_toast(item.reason, 6.0)
        elif isinstance(item, _Found):
            self.form.searching = False
            self.form.found, self.form.found_note = item.games, item.note
        else:
            try:
                self.follow(item)
            except ProtocolError as error:  # the host sent what its own board refuses
                self.app.show_toast(_("the host broke the protocol: {error}").format(error=error), 6.0)
                self.close_network()

    def follow(self, event: Event) -> None:
        if isinstance(event, Welcome):  # the first, or again after a drop: the game as the host has it
            self.table = Table.from_welcome(event)
            self.keeper.follow(self.table, event)
            self.lost_until = None
            self.sent_at = None
            self.cursor = self.table.rules.cols // 2
            return
        if isinstance(event, JoinFailed):
            self.close_network()
            self.table = None
            self.mode = "form"
            self.form.note = event.reason
            self.app.show_toast(event.reason, 6.0)
            return
        table = self.table
        if table is None:
            return
        table.follow(event)
        self.keeper.follow(table, event)  # the game kept as it goes: a kill of this window loses nothing
        self.kept = self.keeper.finished
        line = event_line(table, event)
        if line is not None:
            self.log = [*self.log, line][-LOG_LINES:]
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

    def keep_if_unfinished(self) -> None:
        self.keeper.keep_so_far(self.table)

    @functools.cached_property
    def keeper(self) -> GameKeeper:
        """This player's copy of the game in the archive (opened on first use)."""
        return GameKeeper(self.app.archive)

    # -- starting ------------------------------------------------------------------------------------
    def host_game(self) -> None:
        settings = HostSettings(
            code=new_code(), name=default_name(), rules=self.app.settings.rules(), host_first=self.host_first
        )
        self.start_hosting(settings, fallback=True)

    def start_hosting(self, settings: HostSettings, *, fallback: bool) -> None:
        """Start the host in a thread (its key takes a moment): ``_Started`` comes through the
        inbox.  ``fallback``: when the usual port is taken, any free one."""
        self.mode = "table"
        self.code = settings.code
        self.log = [_("Starting the game on the local network ...")]

        threading.Thread(
            target=start_host,
            args=(settings, fallback, self.inbox, self.stop, self.start_lock),
            name="net-start",
            daemon=True,
        ).start()

    def started(self, host: GameHost, shown: list[str]) -> None:
        self.seat = self.host = host
        port = host.where[1]
        self.addresses = [f"{each}:{port}" for each in shown]
        self.log = [*self.log, _("Hosting: give the joiner an address and the code.")][-LOG_LINES:]
        lan = [each for each in shown if not each.startswith("127.")]
        if lan:
            self.announcement = Announcement(host.settings.name, port, lan, host.settings.rules.said()).start()

    def start_joining(self, joining: JoinSettings) -> None:
        self.mode = "table"
        self.log = [_("Joining {address} port {port} ...").format(address=joining.address, port=joining.port)]
        client = Client.of(joining, home=self.app.home, events=self.inbox)
        self.seat = client
        client.start()

    def open_form(self, *, watch: bool) -> None:
        self.mode = "form"
        self.form.watch = watch
        self.form.note = None
        self.search()

    def search(self) -> None:
        """Look for hosts on the local network (a thread: ``_Found`` comes through the inbox)."""
        if self.form.searching:
            return
        self.form.searching = True
        stop = self.stop

        def look() -> None:
            games, note = browse(stop=stop)
            if not stop.is_set():
                self.inbox.put(_Found(games, note))

        threading.Thread(target=look, name="net-browse", daemon=True).start()

    def join_from_form(self, address: str, port: int, code: str) -> None:
        self.stop = threading.Event()  # a fresh one: the search's may have been set
        self.start_joining(JoinSettings(address, port, code, default_name(), self.form.watch))

    def toggle_first(self) -> None:
        self.host_first = not self.host_first

    def to_menu(self) -> None:
        self.mode = "menu"

    def back(self) -> None:
        self.app.pop()

    # -- at the table --------------------------------------------------------------------------------
    @property
    def to_play(self) -> bool:
        """This side's turn, and its move not yet sent (the host's answer comes in a moment)."""
        table = self.table
        return table is not None and table.my_turn and self.sent_at != table.board.ply

    def play(self, col: int) -> None:
        table = self.table
        if table is None or self.seat is None or not self.to_play:
            return
        move = col
        if not table.board.is_legal(move):
            self.app.show_toast(table.board.why_illegal(move))
            return
        self.sent_at = table.board.ply
        self.seat.play(move, table.board.ply)

    def offer_draw(self) -> None:
        if self.seat is not None and self.table is not None and self.table.side:
            self.seat.offer_draw()

    def decline_draw(self) -> None:
        if self.seat is not None and self.table is not None and self.table.side:
            self.seat.decline_draw()

    def resign(self) -> None:
        table = self.table
        if self.seat is None or table is None or not table.side or table.over is not None:
            return
        if self.confirmed("resign", _("Press R again to resign.")):
            self.seat.resign()

    def leave(self) -> None:
        table = self.table
        if (
            table is None
            or table.over is not None
            or not table.side
            or self.confirmed("leave", _("Press Esc again to leave: the game is kept unfinished."))
        ):
            self.app.pop()

    def confirmed(self, what: str, question: str) -> bool:
        """True on the second press within ``CONFIRM_SECONDS``; the first asks ``question``."""
        if what in self.armed and self.app.time < self.armed[what]:
            del self.armed[what]
            return True
        self.armed[what] = self.app.time + CONFIRM_SECONDS
        self.app.show_toast(question, CONFIRM_SECONDS)
        return False

    def open_chat(self) -> None:
        self.chat_open = True

    def send_chat(self) -> None:
        text = self.chat_text.strip()
        if text and self.seat is not None:
            self.seat.chat(text)  # (cleaned and cut by the seat, as every chat line)
        self.chat_text = ""
        self.chat_open = False

    # -- input ------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if self.mode == "menu":
            self.handle_menu(event)
        elif self.mode == "form":
            self.form.handle_event(event, display_size())
        else:
            self.handle_table(event)

    def handle_menu(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            click_buttons(self.menu_buttons, self.menu_rects(display_size()), event)
        elif event.type == pygame.KEYDOWN:
            keys = {pygame.K_h: self.host_game, pygame.K_f: self.toggle_first, pygame.K_ESCAPE: self.back}
            keys[pygame.K_j] = lambda: self.open_form(watch=False)
            keys[pygame.K_w] = lambda: self.open_form(watch=True)
            if event.key in keys:
                keys[event.key]()

    def handle_table(self, event: pygame.event.Event) -> None:
        table = self.table
        size = display_size()
        layout = side_layout(size, 0.34, 220, 420, self.app.theme)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.table_buttons, row_rects(layout.buttons, len(self.table_buttons), 8), event):
                return
            if table is not None:
                board = BoardLayout(table.rules, layout.board)
                if table.rules.gravity:
                    col = board.column_at(event.pos)
                    if col is not None:
                        self.cursor = col
                        self.play(col)
                else:
                    cell = board.cell_at(event.pos)
                    if cell is not None:
                        self.play(table.board.move_at(cell))
            return
        if event.type == pygame.MOUSEMOTION and table is not None and table.rules.gravity:
            col = BoardLayout(table.rules, layout.board).column_at(event.pos)
            if col is not None:
                self.cursor = col
            return
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        if self.chat_open:
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.send_chat()
            elif key == pygame.K_ESCAPE:
                self.chat_open = False
            elif key == pygame.K_BACKSPACE:
                self.chat_text = self.chat_text[:-1]
            elif event.unicode and event.unicode.isprintable() and len(self.chat_text) < MAX_CHAT_CHARS:
                self.chat_text += event.unicode
            return
        if key == pygame.K_ESCAPE:
            self.leave()
        elif key == pygame.K_TAB:
            self.open_chat()
        elif key == pygame.K_d:
            self.offer_draw()
        elif key == pygame.K_n:
            self.decline_draw()
        elif key == pygame.K_r:
            self.resign()
        elif table is not None and table.rules.gravity:
            cols = table.rules.cols
            if key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.cursor = (self.cursor + (1 if key == pygame.K_RIGHT else -1)) % cols
            elif key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_DOWN):
                self.play(self.cursor)
            elif pygame.K_1 <= key <= pygame.K_9 and key - pygame.K_1 < cols:
                self.cursor = key - pygame.K_1
                self.play(self.cursor)

    # -- drawing ------------------------------------------------------------------------------------------
    def menu_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        height = max(30, min(48, h // 14))
        area = pygame.Rect(0, h // 6, w, h - h // 3)
        return stack_rects(area, len(self.menu_buttons), height, height // 3, min(w - 40, 420))

    def draw(self, surface: pygame.Surface) -> None:
        if self.mode == "menu":
            self.draw_menu(surface)
        elif self.mode == "form":
            self.form.draw(surface, self.app.theme)
        else:
            self.draw_table(surface)

    def draw_menu(self, surface: pygame.Surface) -> None:
        draw_heading(surface, self.app.theme, _("Network game"), menu_lines(self.app.settings.rules(), self.host_first))
        for button, rect in zip(self.menu_buttons, self.menu_rects(surface.get_size())):
            label = button.label
            if button is self.first_button:
                label = N_("First move: you") if self.host_first else N_("First move: your guest")
            button.draw(surface, self.app.theme, rect=rect, label=label)

    def draw_table(self, surface: pygame.Surface) -> None:
        assert self.view is not None
        theme = self.app.theme
        layout = side_layout(surface.get_size(), 0.34, 220, 420, theme)
        table = self.table
        now = time.monotonic()
        left = None if self.left_until is None else max(0.0, self.left_until - now)
        lost = None if self.lost_until is None else max(0.0, self.lost_until - now)
        if table is None:
            title, status = _("Network game"), (self.log[-1] if self.log else "")
        else:
            title, status = table_title(table), self.ended or table_status(table, left=left, lost=lost)
        for index, (line, size) in enumerate(((title, layout.text + 4), (status, layout.text))):
            shown, fitted = theme.fitted(line, size, layout.header.width, bold=index == 0)
            y = layout.header.top if index == 0 else layout.header.top + layout.second
            theme.text(surface, shown, fitted, (layout.header.centerx, y), bold=index == 0, anchor="midtop")
        if table is not None:
            board_layout = BoardLayout(table.rules, layout.board)
            ghost = None
            if self.to_play and table.rules.gravity:
                cell = table.board.cell_of(self.cursor)
                if cell is not None:
                    ghost = (cell, table.side, False)
            self.view.draw_position(
                surface, board_layout, table.board, ghost=ghost, highlight_col=self.cursor if self.to_play else None
            )
        if self.host is not None:
            top = host_lines(self.code, self.addresses, table.watchers if table else 0)
        else:
            top = [_("You are watching.")] if table is not None and table.side == 0 else []
        draw_panel(
            surface,
            theme,
            layout.panel,
            layout.text,
            top,
            self.log,
            chat_prompt(self.chat_open, self.chat_text),
            self.chat_open,
        )
        for button, rect in zip(self.table_buttons, row_rects(layout.buttons, len(self.table_buttons), 8)):
            playing = table is not None and table.side != 0 and table.over is None
            enabled = playing if button.label in ("Draw", "Resign") else True
            button.draw(surface, theme, rect=rect, enabled=enabled)


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
        host = GameHost(each, inbox)
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
