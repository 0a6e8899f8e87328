"""Level select: named presets, search depth, alpha-beta on/off, move order, the
transposition table, positions per move, and what
each setting means and costs; a warning with an estimate before a level that cannot
finish in reasonable time.  In computer vs computer each side gets its own level.
``PlayOnScene`` (P in a review) is the same screen, then a game from the move shown.

Controls: Up/Down choose a row, Left/Right change it, Enter start, Esc back; or click.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from ai.cost import Calibration, duration_text, full_tree_positions, search_seconds, speed_text, time_lines
from ai.levels import (
    MCTS_PLAYOUTS,
    NODE_BUDGETS,
    PRESET_NOTES,
    PRESETS,
    Level,
    describe,
    level_played,
    level_title,
    mcts_level,
    preset_name,
)
from ai.search import MoveOrder
from game.app.archive_link import level_label
from game.app.navigation import NewGame, PlayFrom
from game.app.scene import Scene
from game.app.settings import Opponent
from game.app.theme import Theme
from game.app.widgets import Button, FocusList, Selector, display_size, row_rects, stack_rects
from game.board import Board
from game.i18n import N_, _, counted, number
from game.rules import MAX, MAX_DEPTH, MIN_DEPTH, STANDARD, Rules

MIN_TEXT = 11
"""The smallest size the explanation shrinks to before lines give way to the buttons."""

SLOW_SECONDS = 60.0
ORDER_NAMES = {
    MoveOrder.LEFT_TO_RIGHT: N_("left to right"),
    MoveOrder.CENTRE_FIRST: N_("centre first"),
    MoveOrder.BEST_FIRST: N_("best first"),
}
"""How the Move order row names an order (the values are the settings file's words)."""
PERFECT_ROWS_TEXT = N_(
    "Opening book + exact solver: search depth, pruning, move order and positions per move do not apply. Choose another preset to set them."
)
"""Shown in place of the search rows while Perfect plays on the standard board."""
"""A level whose worst case takes longer than this (with no node budget) is warned about."""


class Side(enum.Enum):
    """Whose level the rows edit: player 1's (also the computer's level against a person)
    or player 2's (computer vs computer only)."""

    PLAYER1 = N_("player 1")
    PLAYER2 = N_("player 2")


def slow_level_warning(level: Level, rules: Rules, calibration: Calibration | None = None) -> str | None:
    """A warning with an estimate when ``level`` may search far too long, else None.

    Only a full-width search is predictable: without pruning every position to the depth
    is visited, so the worst case is the size of the tree (from the empty board), at this
    machine's measured speed where it is known.
    """
    if level.pruning or level.node_budget:
        return None
    worst = full_tree_positions(rules, level.depth)
    seconds = search_seconds(rules, level.depth, False, calibration)
    if seconds < SLOW_SECONDS:
        return None
    return _(
        "Warning: depth {depth} without pruning and no time limit may visit up to {worst:,} positions per move: about {duration_text} at {speed_text}. Turn pruning on or set positions per move."
    ).format(depth=level.depth, worst=worst, duration_text=duration_text(seconds), speed_text=speed_text(calibration))


class LevelSelectScene(Scene):
    name = "level select"

    def on_enter(self) -> None:
        self.side = Side.PLAYER1

        def setter(field: str) -> Callable[[object], None]:
            def apply(value: object) -> None:
                # A row changed by hand makes a plain search of it (no beginner's blur, no
                # book or solver, no perfect play: those come with their presets).
                change: dict[str, Any] = {field: value}
                plain = replace(
                    self.played_level(), noise=0, perfect=False, book_discs=0, endgame_cells=0, endgame_percent=0
                )
                if field == "playouts" and value:  # MCTS: the playouts and its switches, as ``mcts:N`` names it
                    now = self.played_level()
                    self.set_level(mcts_level(int(str(value)), solver=now.mcts_solver, tactics=now.mcts_tactics))
                    return
                self.set_level(replace(plain, **change))

            return apply

        self.presets = [Button(name, self.preset_action(level)) for name, level in PRESETS.items()]
        self.side_selector = Selector(
            N_("Level of"),
            list(Side),
            0,
            self.choose_side,
            format=lambda v: _("player 1 (ring)") if v is Side.PLAYER1 else _("player 2 (cross)"),
        )
        self.depth = Selector(
            N_("Search depth"),
            list(range(MIN_DEPTH, MAX_DEPTH + 1)),
            0,
            setter("depth"),
            format=lambda v: counted(v, "ply"),
        )
        self.pruning = Selector(
            N_("Alpha-beta pruning"), [True, False], 0, setter("pruning"), format=lambda v: _("on") if v else _("off")
        )
        self.budget = Selector(
            N_("Positions per move"),
            list(NODE_BUDGETS),
            0,
            setter("node_budget"),
            format=lambda v: number(v) if v else _("no limit"),
        )
        self.order = Selector(N_("Move order"), list(MoveOrder), 0, setter("order"), format=lambda v: _(ORDER_NAMES[v]))
        self.table = Selector(
            N_("Transposition table"), [False, True], 0, setter("table"), format=lambda v: _("on") if v else _("off")
        )
        self.playouts = Selector(
            N_("Search"),
            list(MCTS_PLAYOUTS),
            0,
            setter("playouts"),
            format=lambda v: _("MCTS, {playouts:,} playouts").format(playouts=v) if v else _("minimax"),
        )
        self.mcts_solver = Selector(
            N_("MCTS-Solver"), [False, True], 0, setter("mcts_solver"), format=lambda v: _("on") if v else _("off")
        )
        self.mcts_tactics = Selector(
            N_("Playouts"),
            [False, True],
            0,
            setter("mcts_tactics"),
            format=lambda v: _("tactical: win, else block") if v else _("random, as the textbook has them"),
        )
        self.start_button = Button(N_("Start"), self.start, key_hint="Enter")
        self.back = Button(N_("Back"), self.app.pop, key_hint="Esc")
        self.focus = FocusList([])
        self._sync()
        self.layout(display_size())

    @property
    def both_sides(self) -> bool:
        """Computer vs computer: a level for each side."""
        return self.app.settings.opponent is Opponent.DEMO

    @property
    def search_rows_apply(self) -> bool:
        """False while Perfect plays from its book and solver: no search row has a say."""
        return not (self.level().perfect and self.app.settings.rules() == STANDARD) and not self.level().is_mcts

    @property
    def selectors(self) -> list[Selector]:
        """The rows shown: the side (computer vs computer) and the search rows that apply."""
        rows = [self.depth, self.pruning, self.order, self.table, self.budget] if self.search_rows_apply else []
        if self.search_rows_apply or self.level().is_mcts:  # minimax or MCTS (not under Perfect's book)
            rows = [self.playouts, *rows]
        if self.level().is_mcts:
            rows += [self.mcts_solver, self.mcts_tactics]
        return [self.side_selector, *rows] if self.both_sides else rows

    def level(self) -> Level:
        """The level the rows show (player 2's when that side is chosen)."""
        s = self.app.settings
        return s.second_level if self.side is Side.PLAYER2 else s.level

    def set_level(self, level: Level) -> None:
        s = self.app.settings
        if self.side is Side.PLAYER2:
            s.second_level = level
        else:
            s.level = level
        self.app.save_settings()
        self._sync()

    def choose_side(self, side: object) -> None:
        self.side = Side(side)
        self._sync()

    def played_level(self) -> Level:
        """What the rows show: the level as it plays here (Perfect off 6x7 is Expert)."""
        return level_played(self.level(), self.app.settings.rules())

    def _sync(self) -> None:
        level = self.played_level()
        self.side_selector.set_value(self.side)
        self.depth.set_value(level.depth)
        self.pruning.set_value(level.pruning)
        self.order.set_value(level.order)
        self.table.set_value(level.table)
        self.budget.set_value(level.node_budget)
        self.playouts.set_value(level.playouts)
        self.mcts_solver.set_value(level.mcts_solver)
        self.mcts_tactics.set_value(level.mcts_tactics)
        rows: list[Button | Selector] = [*self.selectors, self.start_button]
        if rows != self.focus.items:  # rows came or went (Perfect): the focus stays or goes to Start
            focused = self.focus.items[self.focus.index] if self.focus.items else self.start_button
            self.focus = FocusList(rows)
            self.focus.focus(rows.index(focused) if focused in rows else len(rows) - 1)

    def use_preset(self, level: Level) -> None:
        self.set_level(level)

    def preset_action(self, level: Level) -> Callable[[], None]:
        return lambda: self.use_preset(level)

    def start(self) -> None:
        self.app.save_settings()
        self.app.replace(NewGame())

    # -- layout (on enter, each update, each click) and drawing -----------------------
    def row_height(self, size: tuple[int, int]) -> int:
        """Pixels a row takes: a seventh row (the side to set, beside six search rows) makes
        every row a little lower, so the explanation below keeps its room."""
        return max(24, min(44, size[1] // (17 + max(0, len(self.selectors) - 6))))

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        row = self.row_height(size)
        width = min(w - 40, int(680 * self.app.theme.scale))  # bigger text: wider, where there is room
        left = (w - width) // 2
        presets = pygame.Rect(left, int(row * 2.5), width, row)
        for button, rect in zip(self.presets, row_rects(presets, len(self.presets), row // 4)):
            button.rect = rect
        selectors = self.selectors
        gap = row // 3
        area = pygame.Rect(0, presets.bottom + row // 2, w, len(selectors) * (row + gap))
        for selector, rect in zip(selectors, stack_rects(area, len(selectors), row, gap, width)):
            selector.rect = rect
            selector.measure(self.app.theme)
        widest = max((selector.value_width for selector in selectors), default=0)
        for selector in selectors:
            selector.value_width = widest
        self.text_rect = pygame.Rect(left, area.bottom + row // 4, width, 0)  # where the explanation starts
        self.row = row
        buttons = pygame.Rect(left, h - int(row * 1.7), width, int(row * 1.2))
        self.back.rect, self.start_button.rect = row_rects(buttons, 2, row)

    def update(self, dt: float) -> None:
        self.layout(display_size())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif (
                event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
                and self.focus.items[self.focus.index] is not self.start_button
            ):
                self.start()
            elif self.focus.handle_key(event.key):
                self.app.sounds.play("click")
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.layout(display_size())
            widgets: list[Button | Selector] = [*self.presets, *self.selectors, self.start_button, self.back]
            for widget in widgets:
                if widget.handle_event(event):
                    self.app.sounds.play("click")
                    break

    def headline(self) -> str:
        s = self.app.settings
        if not self.both_sides:
            return _("You vs the computer · {describe}").format(describe=s.rules().said())
        one, two = level_title(level_label(s.level)), level_title(level_label(s.second_level))
        return _("Computer vs computer: player 1 {one}, player 2 {two} · {describe}").format(
            one=one, two=two, describe=s.rules().said()
        )

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        w = surface.get_width()
        row = self.row
        s = self.app.settings
        width = self.text_rect.width
        headline, small = theme.fitted(self.headline(), int(row * 0.55), width)
        # The title: inside the window and above the headline at any UI scale.
        room = row * 1.85 - theme.font(small).size(headline)[1] / 2 - 4
        title = int(row * 1.3)
        while title > 12 and theme.font(title, True).size(_("Level"))[1] > room:
            title -= 1
        half = theme.font(title, True).size(_("Level"))[1] / 2
        top = max(half + 2, min(row * 0.9, room - half))
        theme.text(surface, _("Level"), title, (w / 2, top), bold=True, anchor="center")
        theme.text(
            surface,
            headline,
            small,
            (w / 2, row * 1.85),
            color=p.muted,
            anchor="center",
        )
        level = self.level()
        current = preset_name(level)
        for button in self.presets:
            if button.label == current:
                draw_chosen(surface, theme, button)
            else:
                button.draw(surface, theme, enabled=True)
        for selector in self.selectors:
            selector.draw(surface, theme)
        y = self.text_rect.top + row * 0.35
        warning = slow_level_warning(level, s.rules(), s.calibration)
        paragraphs: list[tuple[str, tuple[int, int, int]]] = []
        if not self.search_rows_apply and not level.is_mcts:
            paragraphs += [(_(PERFECT_ROWS_TEXT), p.text), ("", p.text)]
        if current is not None and current in PRESET_NOTES:
            paragraphs.append((f"{current}: {_(PRESET_NOTES[current])}", p.accent))
        if warning:
            paragraphs.append((warning, p.warning))
        paragraphs += [(sentence, p.text) for sentence in describe(level, s.rules())]
        if self.search_rows_apply:  # a minimax search: how long its move takes here, with pruning and without
            paragraphs += [(sentence, p.accent) for sentence in time_lines(s.rules(), level.depth, s.calibration)]

        def wrapped(size: int) -> list[tuple[str, tuple[int, int, int]]]:
            return [(line, color) for text, color in paragraphs for line in (theme.wrap(text, size, width) or [""])]

        # The explanation shrinks to fit (Expert's five sentences, two sides' selectors);
        # only past the smallest readable size does it give way to the buttons.
        def pitch(size: int) -> float:  # 1.15 x the size, or a line's height at the UI scale
            return theme.pitch(size, size * 1.15)

        size = max(13, int(row * 0.52))
        lines = wrapped(size)
        while size > MIN_TEXT and y + len(lines) * pitch(size) > self.back.rect.top - size * 0.5:
            size -= 1
            lines = wrapped(size)
        bottom = self.back.rect.top - size * 0.5
        for line, color in lines:
            if y + theme.font(size).get_height() > bottom:
                break  # a small window: the explanation gives way to the buttons
            theme.text(surface, line, size, (self.text_rect.left, y), color=color)
            y += pitch(size)
        self.back.draw(surface, theme)
        self.start_button.draw(surface, theme, label=_("Start anyway") if warning else None)


class PlayOnScene(LevelSelectScene):
    """The level screen, then a game from ``board`` against that level: you play the
    side to move, the computer the other."""

    name = "play on"

    def __init__(self, board: Board):
        super().__init__()
        self.board = board.copy()

    def on_enter(self) -> None:
        self.app.settings.opponent = Opponent.COMPUTER  # one level: the computer's
        super().on_enter()

    def headline(self) -> str:
        side = 1 if self.board.to_move == MAX else 2
        return _("Play on after move {count} as player {side} · {describe}").format(
            count=len(self.board.moves), side=side, describe=self.board.rules.said()
        )

    def start(self) -> None:
        self.app.save_settings()
        self.app.replace(PlayFrom(self.board.copy(), self.app.settings.level))
        side = 1 if self.board.to_move == MAX else 2
        level = level_title(level_label(self.app.settings.level))
        self.app.show_toast(
            _("Playing on after move {count}: you are player {side}, against {level}").format(
                count=len(self.board.moves), side=side, level=level
            ),
            5.0,
        )


def draw_chosen(surface: pygame.Surface, theme: Theme, button: Button) -> None:
    """The preset in use, drawn inside out (the panel's colour, a bold edge and label), so
    that a newcomer sees at once which level is set, even before choosing one."""
    p = theme.palette
    rect = button.rect
    radius = max(4, rect.height // 5)
    pygame.draw.rect(surface, p.panel, rect, border_radius=radius)
    pygame.draw.rect(surface, p.accent, rect, max(3, rect.height // 12), border_radius=radius)
    face = button.face(theme, rect=rect)
    theme.text(surface, face.label, face.size, face.center, color=p.text, anchor="center", bold=True)
