"""Drawing "MCTS against the truth" (``ai.mcts_truth``) with pygame, for the window and the CLI.

One chart over the budgets of playouts (a decade apart): per budget two bars, the share
of positions where plain MCTS and MCTS-Solver chose a column that keeps the exact outcome
(each bar with its own mark, a circle and a square, and its count); under them the
budget and, with one position, the column each chose and whether the solver proved the
position.  ``draw_mcts_chart`` is pure drawing; ``save_mcts_chart`` draws headless into a PNG.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from ai.mcts_table import VARIANTS, MctsTruth
from game.app.theme import Theme, draw_mark
from game.i18n import N_, _, ngettext, number
from game.notation import format_move

VARIANT_NAMES = {"plain": N_("MCTS (plain UCT)"), "solver": N_("MCTS-Solver")}
VARIANT_SHAPES = {"plain": "circle", "solver": "square"}
PROVED_NAMES = {"win": N_("proved: win"), "draw": N_("proved: draw"), "loss": N_("proved: loss")}


def draw_mcts_chart(
    surface: pygame.Surface, area: pygame.Rect, theme: Theme, truth: MctsTruth | None, status: str = ""
) -> None:
    """Draw the chart in ``area`` (the panel behind is the caller's)."""
    size = 15 if area.height < 560 else 17
    y = _draw_heading(surface, area, theme, truth, status, size)
    if truth is None or not truth.budgets:
        return
    em = theme.font(size - 2).get_linesize()
    one = len(truth.positions) == 1
    below = em * (5.0 if one else 2.4)  # the budgets (and one position's columns) under the bars
    key_h = em * (4.2 if one else 2.2)  # the key (and with one position, what keeps the outcome)
    plot = pygame.Rect(area.left + 64, round(y + em * 2.2), area.width - 80, 0)  # room above for the counts
    plot.height = max(40, round(area.bottom - below - key_h - 8 - plot.top))
    _draw_bars(surface, plot, theme, truth, size)
    _draw_key(surface, plot, area.bottom - key_h + 4, theme, truth, size)


def _draw_heading(
    surface: pygame.Surface, area: pygame.Rect, theme: Theme, truth: MctsTruth | None, status: str, size: int
) -> float:
    """The title, what was measured and the status; returns the y below them."""
    x0, y = area.left + 10, float(area.top + 8)
    width = area.width - 20
    title = _("MCTS against the truth: does the chosen column keep the exact outcome?")
    for line in theme.wrap(title, size + 2, width, bold=True):
        theme.text(surface, line, size + 2, (x0, y), bold=True)
        y += theme.pitch(size + 2, (size + 2) * 1.3, bold=True)
    lines = []
    if truth is not None:
        judged = truth.rows[0].judged if truth.rows else 0
        said = ngettext(
            "{positions} position, seed {seed}; the exact solver referees {judged} of them. "
            "Each search starts afresh with the same seed.",
            "{positions} positions, seed {seed}; the exact solver referees {judged} of them. "
            "Each search starts afresh with the same seed.",
            len(truth.positions),
        )
        lines.append(said.format(positions=len(truth.positions), seed=truth.seed, judged=judged))
        if truth.note:
            lines.append(_("Not judged: {why}").format(why=truth.note))
    if status:
        lines.append(status)
    for said in lines:
        for line in theme.wrap(said, size - 2, width):
            theme.text(surface, line, size - 2, (x0, y), color=theme.palette.muted)
            y += theme.pitch(size - 2, (size - 2) * 1.2)
    return y


def _colours(theme: Theme) -> dict[str, tuple[int, int, int]]:
    return {"plain": theme.palette.max_node, "solver": theme.palette.min_node}


def _draw_bars(surface: pygame.Surface, plot: pygame.Rect, theme: Theme, truth: MctsTruth, size: int) -> None:
    """Two bars a budget (with their marks and counts), the budgets under them, and with
    one position the column each search chose (struck out where it gives the outcome away)."""
    p = theme.palette
    em = theme.font(size - 2).get_linesize()
    left, right, base, height = plot.left, plot.right, plot.bottom, plot.height
    for level in (0.0, 0.5, 1.0):
        gy = base - height * level
        pygame.draw.line(surface, p.muted, (left - 4, gy), (right, gy), 1)
        theme.text(surface, f"{level:.0%}", size - 3, (left - 8, gy), color=p.muted, anchor="midright")
    theme.text(
        surface, _("keeps the outcome"), size - 3, (left, plot.top - em * 1.1), color=p.muted, anchor="bottomleft"
    )
    step = (right - left) / len(truth.budgets)
    colours = _colours(theme)
    one = len(truth.positions) == 1
    for index, row in enumerate(truth.rows):
        centre = left + step * (index + 0.5)
        for offset, variant in zip((-0.2, 0.2), VARIANTS):
            cx = centre + step * offset
            share = row.share(variant)
            bar_h = height * (share or 0.0)
            if share is not None:
                bar = pygame.Rect(round(cx - step * 0.16), round(base - bar_h), round(step * 0.32), round(bar_h))
                pygame.draw.rect(surface, colours[variant], bar)
                pygame.draw.rect(surface, p.text, bar, 1)
                label = f"{row.kept[variant]}/{row.judged}"
                theme.text(surface, label, size - 4, (cx, base - bar_h - 12), color=p.text, anchor="midbottom")
            draw_mark(surface, VARIANT_SHAPES[variant], colours[variant], (cx, base - bar_h - 6), 4, p.text)
        theme.text(surface, number(row.playouts), size - 2, (centre, base + 4), color=p.text, anchor="midtop")
        if one:
            _draw_columns(surface, theme, truth, row.playouts, centre, step, base + 4 + em, size)
        elif row.proved:
            said = _("{count} proved").format(count=row.proved)
            theme.text(surface, said, size - 4, (centre, base + 4 + em), color=p.muted, anchor="midtop")
    name, name_size = theme.fitted(_("playouts"), size - 2, 60)
    theme.text(surface, name, name_size, (left - 8, base + 4), color=p.muted, anchor="topright")
    if one:
        theme.text(surface, _("column"), size - 3, (left - 8, base + 4 + em), color=p.muted, anchor="topright")


def _draw_columns(
    surface: pygame.Surface,
    theme: Theme,
    truth: MctsTruth,
    budget: int,
    centre: float,
    step: float,
    y: float,
    size: int,
) -> None:
    """Under one budget: the column each search chose in the one position, and its proof."""
    p = theme.palette
    position = truth.positions[0]
    rules = position.board.rules
    for offset, variant in zip((-0.2, 0.2), VARIANTS):
        move = position.chosen[variant][budget]
        kept = position.keeps(move)
        said = "-" if move is None else format_move(move, rules)
        colour = p.text if kept is None else (p.good if kept else p.warning)
        cx = centre + step * offset
        rect = theme.text(surface, said, size, (cx, y), color=colour, anchor="midtop", bold=True)
        if kept is False:  # struck out: the column gives the outcome away (not by colour alone)
            pygame.draw.line(surface, colour, (rect.left - 4, rect.centery + 1), (rect.right + 4, rect.centery + 1), 1)
    proved = position.proved[budget]
    if proved is not None:
        em = theme.font(size).get_linesize()
        theme.text(surface, _(PROVED_NAMES[proved]), size - 4, (centre, y + em), color=p.good, anchor="midtop")


def _draw_key(surface: pygame.Surface, plot: pygame.Rect, y: float, theme: Theme, truth: MctsTruth, size: int) -> None:
    """Which bar is which search; with one position, which columns keep the outcome."""
    p = theme.palette
    colours = _colours(theme)
    kx = plot.left
    for variant in VARIANTS:
        pygame.draw.rect(surface, colours[variant], pygame.Rect(kx, y, 22, 12))
        draw_mark(surface, VARIANT_SHAPES[variant], colours[variant], (kx + 11, y + 6), 4, p.text)
        rect = theme.text(surface, _(VARIANT_NAMES[variant]), size - 3, (kx + 28, y - 2), color=p.text)
        kx = rect.right + 18
    if len(truth.positions) == 1 and truth.positions[0].exact is not None:  # on the next line(s)
        rules = truth.positions[0].board.rules
        keeping = " ".join(format_move(move, rules) for move in truth.positions[0].keeping)
        said = _("Columns keeping the exact outcome: {columns}; struck out: a column that gives it away").format(
            columns=keeping
        )
        y += theme.pitch(size - 3, (size - 3) * 1.4)
        for line in theme.wrap(said, size - 3, plot.right - plot.left):
            theme.text(surface, line, size - 3, (plot.left, y), color=p.muted)
            y += theme.pitch(size - 3, (size - 3) * 1.2)


def save_mcts_chart(path: str | Path, truth: MctsTruth, size: tuple[int, int] = (1000, 620)) -> Path:
    """Draw the chart headless and save it as PNG; return the path."""
    pygame.font.init()
    surface = pygame.Surface(size)
    theme = Theme()
    surface.fill(theme.palette.panel)
    draw_mcts_chart(surface, surface.get_rect(), theme, truth)
    target = Path(path)
    pygame.image.save(surface, str(target))
    return target
