"""How the play screen looks: its layout and its painting, functions of the scene's state.

``draw`` changes nothing; the status lines come from the sentences of ``play_text``
chosen by the scene's state (whose turn, the last answer, the job under way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import pygame

from ai.exact import ExactScore
from ai.levels import PRESETS, Level
from game.app.board_view import BoardLayout, BoardView, ColumnNote
from game.app.play_screen import JobsGame
from game.app.scenes import play_text as say
from game.app.scenes.play_jobs import HINT_LEVEL, PlayJobs
from game.app.scenes.play_text import Names
from game.app.settings import Opponent
from game.app.theme import Palette, Theme
from game.app.widgets import Button, row_rects
from game.app.worker_protocol import JobPurpose
from game.board import Board, Outcome
from game.i18n import _
from game.rules import MAX, MIN, Cell, Mode, Rules

GLOW_SECONDS = 6.0  # the winning line pulses this long, then stays lit (no redraws while idle)


class PlayShown(JobsGame, Protocol):
    """What the play screen's painting and sentences read of the scene (and never change)."""

    @property
    def level(self) -> Level: ...

    @property
    def jobs(self) -> PlayJobs: ...

    @property
    def view(self) -> BoardView | None: ...

    @property
    def buttons(self) -> Mapping[str, Button]: ...

    @property
    def cursor(self) -> Cell: ...

    @property
    def hover(self) -> Cell | None: ...

    @property
    def glow_started(self) -> float | None: ...

    @property
    def thinking(self) -> bool: ...

    def names(self) -> Names: ...

    def side_name(self, side: int) -> str: ...

    def result_text(self) -> str: ...

    def button_states(self) -> dict[str, bool]: ...

    @property
    def stop_button(self) -> Button: ...


@dataclass(frozen=True)
class PlayLayout:
    """Where everything goes in a window of one size (computed, never stored by draw)."""

    status: pygame.Rect
    board: BoardLayout
    toolbar: pygame.Rect
    buttons: tuple[pygame.Rect, ...]
    headline_size: int
    detail_size: int
    text_left: int
    text_right: int
    why: pygame.Rect | None = None  # the reason's line, at the status bar's foot (where hints say why)


def frame_layout(
    rules: Rules, size: tuple[int, int], buttons: int, theme: Theme | None = None, *, why: bool = False
) -> PlayLayout:
    """Status bar, board and toolbar for a window of ``size``; ``why``: the status bar keeps
    room for the reason under its two lines (``why_rows``: one line of the detail's size at
    the ``theme``'s UI scale, two where the window is narrow for its text), so the board
    does not move when a reason comes."""
    w, h = size
    top = max(64, int(h * 0.14))
    bottom = max(44, int(h * 0.085))
    detail = max(15, min(22, int(top * 0.21)))
    strip = 0
    if why:
        rows = why_rows(w, theme.scale if theme is not None else 1.0)
        strip = rows * (int(theme.pitch(detail, detail + 6)) if theme is not None else detail + 8) + 6
    status = pygame.Rect(0, 0, w, top + strip)
    why_rect = pygame.Rect(0, top, w, strip) if why else None
    top += strip
    board = BoardLayout(rules, pygame.Rect(10, top, w - 20, h - top - bottom - 10))
    toolbar = pygame.Rect(0, h - bottom, w, bottom)
    area = toolbar.inflate(-20, -12)
    area.width = min(area.width, 980)
    area.centerx = toolbar.centerx
    rects = tuple(row_rects(area, buttons or 7, 8))
    headline = max(20, min(34, int((top - strip) * 0.30)))
    return PlayLayout(status, board, toolbar, rects, headline, detail, int(headline * 2.2), w - 14, why_rect)


def layout_for(scene: PlayShown, size: tuple[int, int]) -> PlayLayout:
    """``frame_layout`` for the scene: its rules and buttons, the reason's line where hints say why."""
    return frame_layout(scene.rules, size, len(scene.buttons), scene.app.theme, why=scene.jobs.explains)


# -- what the status bar says -----------------------------------------------------------
def headline(scene: PlayShown) -> str:
    """The first status line: what matters now."""
    if scene.outcome is not None:
        return scene.result_text()
    side = scene.match.to_move
    report = scene.jobs.report
    if report is not None and report.hint:
        return say.hint_text(report, scene.names(), scene.rules)
    if scene.thinking and (report is None or report.side == side):
        return _("{side_name} is thinking...").format(side_name=scene.side_name(side))
    if report is not None:  # (computer vs computer: while the other thinks)
        return say.played_text(report, scene.names(), scene.rules)
    computer = scene.is_computer(side)
    return say.turn_text(scene.names(), side, scene.opponent is Opponent.COMPUTER, computer)


def detail(scene: PlayShown) -> str:
    """The second status line: the answer's cost, or the search's progress."""
    scores_only = scene.jobs.purpose is JobPurpose.SCORES
    if scene.jobs.purpose is not None and not scores_only:
        progress = scene.jobs.progress
        # Computer vs computer shows the last move above: say here who thinks.
        who = (
            _("{side_name} is thinking").format(side_name=scene.side_name(scene.match.to_move))
            if scene.thinking and scene.jobs.report
            else _("searching")
        )
        level = scene.jobs.level_for(scene.jobs.purpose or JobPurpose.MOVE, scene.match.to_move)
        if level.perfect and scene.thinking and say.no_compiler():
            return say.slow_perfect_text(who)
        if progress is None:
            return f"{who}..."
        if scene.jobs.is_long():
            expected = scene.jobs.expected()
            assert expected is not None  # a long move is a minimax move with an expectation
            return say.long_progress_text(who, progress.nodes, progress.seconds, expected, scene.jobs.stopping)
        return say.progress_text(who, progress.depth, progress.nodes, progress.seconds, level, scene.rules)
    working = _("working out the column scores...")
    report = scene.jobs.report
    if report is None:
        return working if scores_only else ""
    other = scene.jobs.other
    line = say.pruning_line(report, other) if other is not None and not report.hint else None
    detail = line or say.answer_detail(report)
    return f"{detail} · {working}" if scores_only else detail


def why_line(scene: PlayShown) -> str:
    """The third status line: why the hint or the column scores say what they say."""
    jobs = scene.jobs
    if not jobs.explains or scene.outcome is not None:
        return ""
    shown = jobs.shown_why()
    asked = jobs.hint is not None or jobs.exact_scores() is not None
    return say.why_text(shown, scene.names(), waiting=asked and jobs.explaining)


def status_line(scene: PlayShown) -> str:
    """What spoken output reads: the headline, and the reason's spoken form once the hint
    or the column scores have one."""
    why, said = why_spoken(scene), headline(scene)
    if not why:
        return said
    return f"{said} {why}" if said.endswith((".", "!", "?", ":")) else f"{said}. {why}"


def why_spoken(scene: PlayShown) -> str:
    """The reason as spoken output reads it after the headline (nothing while none is shown)."""
    if not scene.jobs.explains or scene.outcome is not None:
        return ""
    return say.why_spoken(scene.jobs.shown_why(), scene.names())


def level_line(scene: PlayShown) -> str:
    if scene.opponent is Opponent.HUMAN:
        return _("Hints: {level_text}").format(level_text=say.level_text(PRESETS[HINT_LEVEL], scene.rules))
    if scene.opponent is Opponent.DEMO and scene.levels[MAX] != scene.levels[MIN]:
        return _("{short_level} vs {short_level2}").format(
            short_level=say.short_level(scene.levels[MAX]), short_level2=say.short_level(scene.levels[MIN])
        )
    return say.level_text(scene.level, scene.rules)


def toolbar(scene: PlayShown) -> Mapping[str, Button]:
    """The toolbar as shown: during a long computer move, Stop in Hint's place."""
    if not scene.jobs.is_long():
        return scene.buttons
    return {name: scene.stop_button if name == "hint" else button for name, button in scene.buttons.items()}


def tally_key(opponent: Opponent, human_side: int, outcome: Outcome) -> tuple[str, str] | None:
    """Which tally of the settings counts ``outcome`` and under which key (none in a demo)."""
    if opponent is Opponent.COMPUTER:
        if outcome.winner is None:
            return "tally", "draws"
        return "tally", "wins" if outcome.winner == human_side else "losses"
    if opponent is Opponent.HUMAN:
        key = "draws" if outcome.winner is None else ("player1" if outcome.winner == MAX else "player2")
        return "two_player_tally", key
    return None


def tally_line(scene: PlayShown) -> str:
    """The games won so far; in full-board mode, this game's running score instead."""
    if scene.rules.mode is Mode.FULL_BOARD:
        first, second = scene.match.board.score()
        return say.running_score(scene.names(), first, second)
    s = scene.app.settings
    if scene.opponent is Opponent.COMPUTER:
        t = s.tally
        return _("You {t} · draws {t2} · computer {t3}").format(t=t["wins"], t2=t["draws"], t3=t["losses"])
    if scene.opponent is Opponent.HUMAN:
        t = s.two_player_tally
        return _("Player 1: {t} · draws {t2} · player 2: {t3}").format(t=t["player1"], t2=t["draws"], t3=t["player2"])
    return ""


def column_notes(scene: PlayShown) -> list[ColumnNote | None]:
    """Each column's exact score, when the scores are shown and known."""
    exact = scene.jobs.exact_scores()
    if not exact or not scene.rules.gravity:
        return []
    return notes_for(exact, scene.rules, scene.match.to_move, scene.app.theme.palette)


def notes_for(columns: Mapping[int, ExactScore], rules: Rules, mover: int, palette: Palette) -> list[ColumnNote | None]:
    """The board's column badges for ``mover`` ("win 3", "draw", "lose 5"), coloured by
    what they mean for the mover (the play screen, the review and the analysis board)."""
    colors = {1: palette.win, 0: palette.draw, -1: palette.lose}
    labels = say.column_labels(dict(columns), rules.cols, mover)
    return [None if label is None else ColumnNote(label[0], colors[label[1]]) for label in labels]


def notes_from_scores(scores: Mapping[int, int | None], board: Board, palette: Palette) -> list[ColumnNote | None]:
    """``notes_for`` from benchmark scores of the side to move in ``board``."""
    columns = {
        col: ExactScore.from_score(score, board.grid, board.to_move)
        for col, score in scores.items()
        if score is not None
    }
    return notes_for(columns, board.rules, board.to_move, palette) if board.rules.gravity else []


def scores_legend(scene: PlayShown) -> str:
    return say.scores_legend(scene.names(), scene.match.to_move)


def read_board(scene: PlayShown) -> None:
    """Say the board column by column (B), with spoken output on."""
    if scene.app.speech.enabled:
        scene.app.speak(say.board_readout(scene.match.board.grid, scene.rules, scene.names()))
    else:
        scene.app.show_toast(_("B reads the board aloud when spoken output is on (Options)"))


def ghost(scene: PlayShown) -> tuple[Cell, int, bool] | None:
    side = scene.match.to_move
    if scene.outcome is not None or scene.drop is not None or scene.is_computer(side):
        return None
    board = scene.match.board
    if scene.rules.gravity:
        col = (scene.hover or scene.cursor)[1]
        cell = board.cell_of(col)
        return None if cell is None else (cell, side, True)
    row, col = scene.hover or scene.cursor
    move = board.move_at((row, col))
    return ((row, col), side, False) if board.cell_of(move) is not None else None


# -- painting (changes no state) --------------------------------------------------------
def draw(scene: PlayShown, surface: pygame.Surface) -> None:
    assert scene.view is not None, "drawn before on_enter"
    theme = scene.app.theme
    layout = layout_for(scene, surface.get_size())
    board = scene.match.board
    hidden = {(scene.drop.row, scene.drop.col)} if scene.drop else set()
    cursor_col = (scene.hover or scene.cursor)[1]
    human_turn = not scene.is_computer(scene.match.to_move) and scene.outcome is None
    notes = column_notes(scene)
    hint: int | Cell | None = None
    if scene.jobs.hint is not None:
        hint = scene.jobs.hint if scene.rules.gravity else board.cell_of(scene.jobs.hint)
    outcome = scene.outcome if scene.drop is None else None  # the line lights up once the disc lands
    runs = outcome.runs if outcome is not None else ()
    sides = [int(board.grid[run[0]]) for run in runs] if scene.rules.mode is Mode.FULL_BOARD else None
    scene.view.draw(
        surface,
        layout.board,
        board.grid,
        hidden=hidden,
        drop=scene.drop,
        highlight_col=cursor_col if human_turn and scene.rules.gravity else None,
        highlight_cell=(scene.hover or scene.cursor) if human_turn and not scene.rules.gravity else None,
        ghost=ghost(scene),
        hint=hint,
        glow=runs,
        glow_sides=sides,
        notes=notes,
        last=board.last_cell() if scene.drop is None else None,
        t=scene.app.time if scene.glow_started is None else min(scene.app.time, scene.glow_started + GLOW_SECONDS),
    )
    if any(notes):
        draw_scores_legend(scene, surface, layout.board)
    draw_status(scene, surface, layout)
    states = scene.button_states()
    for (name, button), rect in zip(toolbar(scene).items(), layout.buttons):
        button.draw(surface, theme, rect=rect, enabled=states.get(name, True))


def draw_scores_legend(scene: PlayShown, surface: pygame.Surface, board: BoardLayout) -> None:
    """The badges' legend in the margin left of the board, from the badges' row down
    (left out when the margin is too narrow for it)."""
    theme = scene.app.theme
    width = board.grid_rect.left - int(board.cell * 0.4) - 12
    if width < 110:
        return
    size: float = max(13, min(18, board.cell // 4))
    y = float(board.note_rect(0).top)
    least = size / theme.scale if theme.scale > 1 else size

    def pitch(size: float) -> float:  # 1.2 x the size, or a line's height at the UI scale
        return theme.pitch(size, size * 1.2)

    lines = theme.wrap(scores_legend(scene), size, width)
    while size > least and y + len(lines) * pitch(size) > board.grid_rect.bottom:  # beside the board
        size = max(least, size - 1)
        lines = theme.wrap(scores_legend(scene), size, width)
    for line in lines:
        theme.text(surface, line, size, (12, y), color=theme.palette.muted)
        y += pitch(size)


def side_texts(
    scene: PlayShown, first: str, second: str, room: float, big: float, small: float
) -> tuple[str, str, float]:
    """The level and the games won, right of the headline, and their size.

    They stay while the headline and the detail fit beside them (the headline may shrink,
    the detail be cut), so a long hint in German or Spanish no longer pushes them out.
    Where that is too tight they give way one step at a time: the level's short form,
    then their 100 % size, then the level, then the games won (never this game's running
    score in full-board mode).
    """
    theme = scene.app.theme
    least_head = 14 / max(1.0, theme.scale)
    level, tally = level_line(scene), tally_line(scene)
    short = say.short_level(scene.level) if scene.opponent is Opponent.COMPUTER else level
    steps = [(level, tally, small), (short, tally, small)]
    steps.append((short, tally, small / max(1.0, theme.scale)))
    steps.append(("", tally, small / max(1.0, theme.scale)))
    if scene.rules.mode is not Mode.FULL_BOARD:
        steps.append(("", "", small))
    detail_width = theme.font(small).size(second)[0]
    # Both kept, first where the headline keeps three quarters of its size and the detail
    # is as whole as the bar allows, then where they keep their least; only then fewer.
    alone = big  # the headline's size with the whole width to itself
    while alone > least_head and theme.font(alone, True).size(first)[0] > room:
        alone -= 1
    keeping_both, giving_way = steps[:3], steps[3:]
    at_100 = [(level, tally, small / max(1.0, theme.scale)), steps[2]]  # the room goes to the headline
    tries = ((max(least_head, alone * 0.75), 1.0, keeping_both), (least_head, 0.45, at_100))
    for head_size, detail_share, choices in (*tries, (least_head, 0.45, giving_way)):
        head = theme.font(head_size, True).size(first)[0]
        for level_text, tally_text, size in choices:
            width = max(theme.font(size).size(level_text)[0], theme.font(size).size(tally_text)[0])
            beside = room - (width + 24 if width else 0)
            if head <= beside and min(detail_width, beside) >= min(detail_width, room * detail_share):
                return level_text, tally_text, size
    return steps[-1]


def draw_status(scene: PlayShown, surface: pygame.Surface, layout: PlayLayout) -> None:
    """Headline (big) and detail (small) on the left; level and tally on the right
    when there is room for them beside the texts."""
    theme = scene.app.theme
    p = theme.palette
    status = layout.status
    big, small = layout.headline_size, layout.detail_size
    pygame.draw.rect(surface, p.panel, status)
    if scene.outcome is None:
        theme.draw_disc(surface, (status.left + big * 1.1, status.top + big), big * 0.6, scene.match.to_move)
    first, second = headline(scene), detail(scene)
    x, right = layout.text_left, layout.text_right
    level, tally, side = side_texts(scene, first, second, right - x, big, small)
    side_width = max(theme.font(side).size(level)[0], theme.font(side).size(tally)[0])
    if side_width:
        right -= side_width + 24  # the headline shrinks (or is cut) beside the score
    bottom = layout.why.top if layout.why is not None else status.bottom  # the reason's strip is below
    y = status.top + (bottom - status.top) * 0.16
    second, detail_size = theme.fitted(second, small, right - x)  # the UI scale's size, as far as it fits
    below = theme.font(detail_size).size(second)[1]

    def fits(size: float) -> bool:  # the window's width, and the bar's height over the second line
        width, height = theme.font(size, True).size(first)
        return width <= right - x and y + max(big * 1.25, height + 2) + below <= bottom - 2

    size = big
    while size > 14 / max(1.0, theme.scale) and not fits(size):
        size -= 1  # shrink rather than cut the headline (at 100 %: to 14, at any scale: as small)
    theme.text(surface, theme.fit(first, size, right - x, bold=True), size, (x, y), bold=True)
    color = p.accent if scene.jobs.purpose is not None else p.muted
    searching = scene.jobs.purpose is not None  # a progress line: new text each update, never cached
    second_y = y + max(big * 1.25, theme.font(size, True).size(first)[1] + 2)  # under the headline
    theme.text(
        surface,
        second,
        detail_size,
        (x, second_y),
        color=color,
        cache=not searching,
    )
    draw_progress_bar(scene, surface, status)
    edge = layout.text_right
    if level:
        theme.text(surface, level, side, (edge, y + 4), anchor="topright", color=p.muted)
    if tally:
        theme.text(surface, tally, side, (edge, second_y), anchor="topright", color=p.muted)
    if layout.why is not None:  # never bigger than the headline it explains (at 200 % that shrinks)
        under = int(second_y + below) + 2  # the bar's room under the second line is the reason's too
        room = layout.why.union(pygame.Rect(layout.why.left, under, 1, 1)) if under < layout.why.top else layout.why
        draw_why(scene, surface, room, min(layout.detail_size, size), x, layout.text_right)


def draw_why(scene: PlayShown, surface: pygame.Surface, rect: pygame.Rect, size: float, left: int, right: int) -> None:
    """The reason's line across the status bar's foot: at the detail's size where it fits,
    smaller down to ``WHY_LEAST`` of it, else on two lines (never cut while they fit)."""
    text = why_line(scene)
    if not text:
        return
    theme = scene.app.theme
    color = theme.palette.text if scene.jobs.shown_why() is not None else theme.palette.muted
    lines, fitted = fill_lines(theme, text, size, right - left, rect.height - 2)
    pitch = theme.pitch(fitted, 0)  # a line and 2 pixels: two lines never touch
    y = rect.top + (rect.height - pitch * len(lines)) / 2
    for line in lines:
        theme.text(surface, line, fitted, (left, y), color=color)
        y += pitch


WHY_LEAST = 0.75
"""The reason's line shrinks to this share of its size before it takes two lines."""
WHY_WIDE = 900
"""Pixels of window (at 100 % text) from which the reason gets one line; narrower, two."""


def why_rows(width: int, scale: float) -> int:
    """The lines the status bar keeps for the reason in a window ``width`` wide."""
    return 1 if width / max(1.0, scale) >= WHY_WIDE else 2


def fill_lines(theme: Theme, text: str, size: float, width: float, height: float) -> tuple[list[str], float]:
    """``text`` in a box ``width`` x ``height``: one line at ``size``, else two at ``size``
    where the box is tall enough, else one line as big as fits (down to ``WHY_LEAST`` of
    ``size``), else two lines at the largest size whose two lines fit; cut with an
    ellipsis only where even that does not fit."""
    if theme.font(size).size(text)[0] > width and theme.pitch(size, 0) * 2 <= height:
        two = theme.wrap(text, size, width)
        if len(two) <= 2:
            return two, size
    current = size
    while current > size * WHY_LEAST and theme.font(current).size(text)[0] > width:
        current -= 0.5
    if theme.font(current).size(text)[0] <= width:
        return [text], current
    current = size
    while current > 6 and (theme.pitch(current, 0) * 2 > height or len(theme.wrap(text, current, width)) > 2):
        current -= 0.5
    lines = theme.wrap(text, current, width)
    if len(lines) <= 2:
        return lines, current
    return [theme.fit(text, current, width)], current


def draw_progress_bar(scene: PlayShown, surface: pygame.Surface, status: pygame.Rect) -> None:
    """Along the status bar's foot, a long search's share of its expected positions (the
    line above says it in numbers too)."""
    progress, expected = scene.jobs.progress, scene.jobs.expected()
    if progress is None or expected is None or not scene.jobs.is_long() or not expected[0]:
        return
    p = scene.app.theme.palette
    height = max(4, status.height // 14)
    bar = pygame.Rect(status.left, status.bottom - height, status.width, height)
    pygame.draw.rect(surface, p.muted, bar)
    bar.width = round(bar.width * min(1.0, progress.nodes / expected[0]))
    pygame.draw.rect(surface, p.accent, bar)
