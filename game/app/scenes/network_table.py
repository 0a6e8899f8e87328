"""The network table: a game on the local network, hosted, joined, watched or resumed.

The scene draws a headless ``game.net.session.Session`` (the seat, the table, what was
said, the countdowns, the game kept as it goes) and turns keys and clicks into its
actions; it takes the session's news once a frame without waiting.  Leaving the screen
(or closing the window) keeps an unfinished game in the archive, with how to go on with
it over the network, and closes every socket and thread.

A join from the form that fails goes back to the form (``OpenJoinForm``), the address and
code kept, the reason under them.  Going on with an unfinished game that cannot be
reached says so and offers to try again or to play it on at this screen.

Controls: click a column or press 1..9 (Left/Right and Enter) to play, D offers or accepts
a draw, N declines it, R twice resigns, Tab opens the chat line (Enter sends it, Esc
closes it), Esc twice leaves.  After the game: V reviews it, Esc goes back.  A game that
could not be reached again: A tries again, L plays it on here, Esc goes back.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.app.board_view import BoardLayout, BoardView
from game.app.navigation import OpenJoinForm, OpenReview, PlayHere
from game.app.scene import Scene
from game.app.scenes.board_panel import SideLayout, side_layout
from game.app.scenes.network_draw import draw_panel
from game.app.scenes.network_text import (
    chat_prompt,
    host_lines,
    table_status,
    table_title,
    unreachable_lines,
)
from game.app.widgets import Button, click_buttons, display_size, row_rects
from game.board import Board
from game.i18n import N_, _
from game.net.client import JoinSettings
from game.net.comeback import Comeback, Role
from game.net.host import HostSettings
from game.net.protocol import MAX_CHAT_CHARS
from game.net.session import Session
from game.records import InProgress
from game.rules import MAX, MIN

CONFIRM_SECONDS = 3.0
"""A second Esc (leave) or R (resign) within this long does it."""
KEYS = {
    "Esc": pygame.K_ESCAPE,
    "Tab": pygame.K_TAB,
    "D": pygame.K_d,
    "R": pygame.K_r,
    "V": pygame.K_v,
    "A": pygame.K_a,
    "L": pygame.K_l,
}
"""The keys the table's buttons show, as pygame names them."""


class NetworkTableScene(Scene):
    """One network game: ``hosting`` it, ``joining`` (or watching) it, or going on with
    the unfinished game ``kept`` as ``comeback`` says."""

    name = "network table"

    def __init__(
        self,
        *,
        hosting: HostSettings | None = None,
        fallback: bool = False,
        joining: JoinSettings | None = None,
        kept: InProgress | None = None,
        comeback: Comeback | None = None,
    ):
        super().__init__()
        self.hosting, self.fallback, self.joining = hosting, fallback, joining
        self.kept, self.comeback = kept, comeback
        self.session: Session | None = None
        self.cursor = 3
        self.chat_open = False
        self.chat_text = ""
        self.armed: dict[str, float] = {}  # "leave"/"resign" -> app time until a second press does it
        self.view: BoardView | None = None
        self.playing_buttons = [
            Button(N_("Draw"), self.offer_draw, "D"),
            Button(N_("Resign"), self.resign, "R"),
            Button(N_("Chat"), self.open_chat, "Tab"),
            Button(N_("Leave"), self.leave, "Esc"),
        ]
        self.watching_buttons = [Button(N_("Chat"), self.open_chat, "Tab"), Button(N_("Leave"), self.leave, "Esc")]
        self.over_buttons = [Button(N_("Review the game"), self.review, "V"), Button(N_("Back"), self.app_pop, "Esc")]
        self.ended_buttons = [Button(N_("Back"), self.app_pop, "Esc")]
        self.unreachable_buttons = [
            Button(N_("Try again"), self.try_again, "A"),
            Button(N_("Play it here"), self.play_here, "L"),
            Button(N_("Back"), self.app_pop, "Esc"),
        ]

    @property
    def game(self) -> Session:
        assert self.session is not None
        return self.session

    # -- life cycle ------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.start()

    def start(self) -> None:
        self.session = Session(self.app.archive, self.app.home)
        comeback, kept = self.comeback, self.kept
        if comeback is not None and kept is not None:
            if comeback.role is Role.HOST:
                self.game.start_hosting(comeback.host_settings(kept), fallback=False)
            else:
                self.game.start_joining(comeback.join_settings())
        elif self.hosting is not None:
            self.game.start_hosting(self.hosting, fallback=self.fallback)
        elif self.joining is not None:
            self.game.start_joining(self.joining)

    def on_exit(self) -> None:
        """Leave the game: keep it unfinished if it was, close every socket and thread."""
        if self.session is not None:
            self.session.leave()

    def is_animating(self) -> bool:
        """A countdown ticks while a chair waits or the host is being looked for again."""
        session = self.session
        return session is not None and (session.left_until is not None or session.lost_until is not None)

    def status_line(self) -> str | None:
        """The last thing the other side did (a move, a chat line, a drop): read out with spoken output on."""
        return None if self.session is None else self.session.spoken

    def update(self, dt: float) -> None:
        came, toasts = self.game.take_news()
        if came:
            self.app.dirty = True
        for toast in toasts:
            self.app.show_toast(toast, 6.0)
        game = self.game
        if game.failed is not None and game.table is None and self.kept is None and self.joining is not None:
            joining = self.joining  # a join from the form (or the command line): back to the form
            self.app.replace(
                OpenJoinForm(joining.watch, f"{joining.address}:{joining.port}", joining.code, game.failed)
            )
            game.failed = None
        for what, until in list(self.armed.items()):
            if self.app.time >= until:
                del self.armed[what]
                self.app.dirty = True
        table = game.table
        if table is not None and not 0 <= self.cursor < table.rules.cols:
            self.cursor = table.rules.cols // 2

    # -- what is shown ------------------------------------------------------------------------------
    @property
    def unreachable(self) -> bool:
        """Going on with a kept game failed before it was reached (nothing seated)."""
        return self.kept is not None and self.game.failed is not None and self.game.table is None

    def buttons(self) -> list[Button]:
        game = self.game
        table = game.table
        if self.unreachable:
            return self.unreachable_buttons
        if table is not None and table.over is not None:
            return self.over_buttons
        if game.ended is not None:
            return self.ended_buttons
        if table is not None and table.side == 0:
            return self.watching_buttons
        return self.playing_buttons

    # -- actions ------------------------------------------------------------------------------------
    def app_pop(self) -> None:
        self.app.pop()

    def play(self, col: int) -> None:
        why = self.game.play(col)
        if why is not None:
            self.app.show_toast(why)

    def offer_draw(self) -> None:
        self.game.offer_draw()

    def decline_draw(self) -> None:
        self.game.decline_draw()

    def resign(self) -> None:
        if self.game.playing and self.confirmed("resign", _("Press R again to resign.")):
            self.game.resign()

    def leave(self) -> None:
        if not self.game.playing or self.confirmed(
            "leave", _("Press Esc again to leave: the game is kept unfinished.")
        ):
            self.app.pop()

    def review(self) -> None:
        table = self.game.table
        if table is None:
            return
        self.app.push(
            OpenReview(
                table.rules,
                tuple(table.board.moves),
                names={MAX: table.name(MAX), MIN: table.name(MIN)},
                game_id=self.game.keeper.finished_id,
            )
        )

    def try_again(self) -> None:
        self.game.close()
        self.start()
        self.app.dirty = True

    def play_here(self) -> None:
        if self.kept is not None:
            self.app.replace(PlayHere(self.kept))

    def confirmed(self, what: str, question: str) -> bool:
        """True on the second press within ``CONFIRM_SECONDS``; the first asks ``question``."""
        if what in self.armed and self.app.time < self.armed[what]:
            del self.armed[what]
            return True
        self.armed[what] = self.app.time + CONFIRM_SECONDS
        self.app.show_toast(question, CONFIRM_SECONDS)
        return False

    def open_chat(self) -> None:
        if self.game.seat is not None:
            self.chat_open = True

    def send_chat(self) -> None:
        self.game.chat(self.chat_text)
        self.chat_text = ""
        self.chat_open = False

    # -- input --------------------------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> SideLayout:
        return side_layout(size, 0.34, 220, 420, self.app.theme)

    def handle_event(self, event: pygame.event.Event) -> None:
        table = self.game.table
        layout = self.layout(display_size())
        buttons = self.buttons()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(buttons, row_rects(layout.buttons, len(buttons), 8), event):
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
        if self.chat_open:
            self.type_chat(event)
            return
        key = event.key
        keys: dict[int, Callable[[], None]] = {KEYS[button.key_hint]: button.action for button in buttons}
        if buttons is self.playing_buttons:
            keys[pygame.K_n] = self.decline_draw
        if key in keys:
            keys[key]()
        elif table is not None and table.rules.gravity:
            cols = table.rules.cols
            if key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.cursor = (self.cursor + (1 if key == pygame.K_RIGHT else -1)) % cols
            elif key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_DOWN):
                self.play(self.cursor)
            elif pygame.K_1 <= key <= pygame.K_9 and key - pygame.K_1 < cols:
                self.cursor = key - pygame.K_1
                self.play(self.cursor)

    def type_chat(self, event: pygame.event.Event) -> None:
        key = event.key
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.send_chat()
        elif key == pygame.K_ESCAPE:
            self.chat_open = False
        elif key == pygame.K_BACKSPACE:
            self.chat_text = self.chat_text[:-1]
        elif event.unicode and event.unicode.isprintable() and len(self.chat_text) < MAX_CHAT_CHARS:
            self.chat_text += event.unicode

    # -- drawing ------------------------------------------------------------------------------------------
    def heading(self) -> tuple[str, str]:
        """The title and the line under it."""
        game = self.game
        table = game.table
        if table is None:
            if self.unreachable and self.kept is not None and self.comeback is not None:
                return _("Network game"), unreachable_lines(self.comeback, self.kept, game.failed or "")[0]
            return _("Network game"), game.failed or (game.log[-1] if game.log else "")
        left, lost = game.countdowns()
        return table_title(table), game.ended or table_status(table, left=left, lost=lost)

    def draw(self, surface: pygame.Surface) -> None:
        assert self.view is not None
        theme = self.app.theme
        layout = self.layout(surface.get_size())
        game = self.game
        table = game.table
        for index, (line, size) in enumerate(zip(self.heading(), (layout.text + 4, layout.text))):
            shown, fitted = theme.fitted(line, size, layout.header.width, bold=index == 0)
            y = layout.header.top if index == 0 else layout.header.top + layout.second
            theme.text(surface, shown, fitted, (layout.header.centerx, y), bold=index == 0, anchor="midtop")
        if table is not None:
            board_layout = BoardLayout(table.rules, layout.board)
            ghost = None
            if game.to_play and table.rules.gravity:
                cell = table.board.cell_of(self.cursor)
                if cell is not None:
                    ghost = (cell, table.side, False)
            self.view.draw_position(
                surface, board_layout, table.board, ghost=ghost, highlight_col=self.cursor if game.to_play else None
            )
        elif self.kept is not None:  # going on with a kept game: the game so far, until the other side is there
            kept = Board(self.kept.rules)
            for move in self.kept.moves:
                kept.push(move)
            self.view.draw_position(surface, BoardLayout(kept.rules, layout.board), kept)
        if game.host is not None:
            top = host_lines(game.code, game.addresses, table.watchers if table else 0)
        elif self.unreachable and self.kept is not None and self.comeback is not None:
            top = unreachable_lines(self.comeback, self.kept, game.failed or "")[1:]
        else:
            top = [_("You are watching.")] if table is not None and table.side == 0 else []
        chatting = game.seat is not None and (table is None or game.ended is None)
        draw_panel(
            surface,
            theme,
            layout.panel,
            layout.text,
            top,
            game.log,
            chat_prompt(self.chat_open, self.chat_text) if chatting else "",
            self.chat_open,
        )
        buttons = self.buttons()
        for button, rect in zip(buttons, row_rects(layout.buttons, len(buttons), 8)):
            enabled = (
                game.playing and table is not None and len(table.names) == 2
                if button.label in ("Draw", "Resign")
                else True
            )
            button.draw(surface, theme, rect=rect, enabled=enabled)
