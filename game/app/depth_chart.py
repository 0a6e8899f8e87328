"""Drawing "depth against truth" (``ai.depth_truth``) with pygame, for the window and the CLI.

Two charts over depth 1..12: above, the share of positions whose depth-limited move keeps
the exact outcome (bars: the benchmark sample; marks: the current position, kept or
not); below, the nodes searched with and without pruning on a logarithmic scale.
``draw_depth_chart`` is pure drawing; ``save_depth_chart`` draws headless into a PNG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pygame

from ai.depth_table import DepthTruth
from game.app.theme import Palette, Theme, draw_mark
from game.i18n import _

Color = tuple[int, int, int]


def _log_y(nodes: float, top: float, height: int, decades: int) -> float:
    return top + height - height * min(decades, math.log10(max(1.0, nodes))) / decades


@dataclass(frozen=True)
class _Axes:
    """Where the charts' columns go: one per depth between ``left`` and ``right``."""

    left: float
    right: float
    depths: list[int]
    size: int  # the text size

    @property
    def step(self) -> float:
        return (self.right - self.left) / max(1, len(self.depths))

    def x(self, index: int) -> float:
        return self.left + self.step * (index + 0.5)


def draw_depth_chart(
    surface: pygame.Surface,
    area: pygame.Rect,
    theme: Theme,
    current: DepthTruth | None,
    bench: DepthTruth | None,
    status: str = "",
) -> None:
    """Draw both charts in ``area`` (the panel behind is the caller's)."""
    size = 15 if area.height < 560 else 17
    y = _draw_heading(surface, area, theme, current, bench, status, size)
    shown = bench or current
    depths = [row.depth for row in shown.rows] if shown is not None else list(range(1, 13))
    axes = _Axes(area.left + 64, area.right - 16, depths, size)
    em = size * theme.scale  # a line of text's height, at the UI scale
    # Above the bars: the chart's label, then the bars' own labels (a full bar's reach up to it).
    head = theme.font(size - 3).get_linesize() + theme.font(size - 4).get_linesize() + 6
    free = int(area.bottom - y - 6 * em - 30 - max(0, head - em - 6))  # less the labels, the depths, the key
    top_h = int(free * 0.42)
    top = y + head
    _draw_shares(surface, theme, axes, top, top_h, current, bench)
    low = top + top_h + 2 * em + 6
    low_h = free - top_h
    _draw_nodes(surface, theme, axes, low, low_h, current, bench)
    _draw_key(surface, theme, axes, low + low_h + em + 10, current, bench)


def _draw_heading(
    surface: pygame.Surface,
    area: pygame.Rect,
    theme: Theme,
    current: DepthTruth | None,
    bench: DepthTruth | None,
    status: str,
    size: int,
) -> float:
    """The title and what the bars and marks are; returns the y below them."""
    x0, y = area.left + 10, float(area.top + 8)
    title = _("Depth against truth: when does the search keep the exact outcome?")
    title_size, title_lines = _shrunk_lines(theme, title, size + 2, area.width - 20, bold=True)
    for line in title_lines:
        theme.text(surface, line, title_size, (x0, y), bold=True)
        y += theme.pitch(title_size, size * theme.scale, bold=True)
    y += 8
    lines = []
    if bench is not None:
        lines.append(
            _("Bars: {label} ({positions} positions). {note}")
            .format(label=bench.label, positions=bench.positions, note=bench.note)
            .strip()
        )
    if current is not None:
        lines.append(_("Marks: {label}. {note}").format(label=current.label, note=current.note).strip())
    if status:
        lines.append(status)
    small = min((theme.shrink(said, size - 2, area.width - 20) for said in lines), default=size - 2)  # one size
    for said in lines:
        for line in theme.wrap(said, small, area.width - 20):  # on two lines where even that is too wide
            theme.text(surface, line, small, (x0, y), color=theme.palette.muted)
            y += theme.pitch(small, size * theme.scale)
    return y


def _shrunk_lines(theme: Theme, text: str, size: float, width: int, *, bold: bool = False) -> tuple[float, list[str]]:
    """``text`` on one line, smaller (as far as the 100 % size) where the UI scale makes it
    too wide; on two lines or more if even that does not fit: never cut."""
    size = theme.shrink(text, size, width, bold)
    if theme.font(size, bold).size(text)[0] <= width:
        return size, [text]
    return size, theme.wrap(text, size, width, bold)


def _draw_shares(
    surface: pygame.Surface,
    theme: Theme,
    axes: _Axes,
    top: float,
    height: int,
    current: DepthTruth | None,
    bench: DepthTruth | None,
) -> None:
    """Above: the share of positions whose move keeps the outcome, per depth."""
    p, size, left, right, step = theme.palette, axes.size, axes.left, axes.right, axes.step
    base = top + height
    pygame.draw.line(surface, p.muted, (left, base), (right, base))
    for share in (0.0, 0.5, 1.0):
        gy = base - height * share
        pygame.draw.line(surface, p.muted, (left - 4, gy), (left, gy))
        theme.text(surface, f"{share:.0%}", size - 3, (left - 8, gy), color=p.muted, anchor="midright")
    label_bottom = top - theme.font(size - 4).get_linesize() - 4  # above the bars' labels
    theme.text(surface, _("keeps the outcome"), size - 3, (left, label_bottom), color=p.muted, anchor="bottomleft")
    for index in range(len(axes.depths)):
        cx = axes.x(index)
        if bench is not None and bench.rows[index].share is not None:
            row = bench.rows[index]
            bar_h = height * (row.share or 0.0)
            bar = (cx - step * 0.3, base - bar_h, step * 0.6, bar_h)
            pygame.draw.rect(surface, p.max_node, bar)
            pygame.draw.rect(surface, p.text, bar, 1)
            label = f"{row.kept}/{row.judged}"
            theme.text(surface, label, size - 4, (cx, base - bar_h - 2), color=p.text, anchor="midbottom")
        if current is not None and current.rows[index].judged:
            kept = current.rows[index].kept
            mark_y = base - (height if kept else 0) + (8 if kept else -8)
            color, shape = (p.good, "circle") if kept else (p.warning, "square")  # and at the top or the bottom
            draw_mark(surface, shape, color, (cx + step * 0.4, mark_y), 5, p.text)  # clear of the bar's label
    if not any(row.judged for truth in (bench, current) if truth for row in truth.rows):
        why = next((truth.note for truth in (current, bench) if truth is not None and truth.note), "")
        message = theme.fit(
            _("No exact outcome to compare with: {why}").format(why=why) if why else _("No exact outcome yet"),
            size,
            right - left,
        )
        theme.text(surface, message, size, ((left + right) / 2, top + height / 2), color=p.muted, anchor="center")


def _draw_nodes(
    surface: pygame.Surface,
    theme: Theme,
    axes: _Axes,
    low: float,
    height: int,
    current: DepthTruth | None,
    bench: DepthTruth | None,
) -> None:
    """Below: the nodes searched with and without pruning, on a log scale, and the depths."""
    p, size, left, right = theme.palette, axes.size, axes.left, axes.right
    values = [n for t in (bench, current) if t for r in t.rows for n in (r.pruned_nodes, r.full_nodes) if n]
    decades = max(2, math.ceil(math.log10(max(values)))) if values else 6
    tick = theme.font(size - 3).size("1e0")[1]  # a label's height: every decade labelled where they fit
    for decade in range(0, decades + 1, max(1, decades // 6, math.ceil(tick / max(1, height / decades)))):
        gy = _log_y(10**decade, low, height, decades)
        pygame.draw.line(surface, p.muted, (left - 4, gy), (right, gy), 1)
        theme.text(surface, f"1e{decade}", size - 3, (left - 8, gy), color=p.muted, anchor="midright")
    theme.text(surface, _("nodes searched (log scale)"), size - 3, (left, low - 4), color=p.muted, anchor="bottomleft")
    series = _series(p, current, bench)
    for truth, name, color, width, shape in series:
        points = [
            (axes.x(index), _log_y(getattr(row, name), low, height, decades))
            for index, row in enumerate(truth.rows)
            if getattr(row, name)
        ]
        if len(points) > 1:
            pygame.draw.lines(surface, color, False, points, width)
        for point in points:
            draw_mark(surface, shape, color, point, width + 2, p.text)
    below = low + height + max(4, tick // 2 + 1)  # under the "1e0" at its side
    for index, depth in enumerate(axes.depths):
        theme.text(surface, str(depth), size - 2, (axes.x(index), below), color=p.text, anchor="midtop")
    name, name_size = theme.fitted(_("depth"), size - 2, 60)  # in the margin left of the axis, to its edge
    theme.text(surface, name, name_size, (left - 8, below), color=p.muted, anchor="topright")


def _draw_key(
    surface: pygame.Surface,
    theme: Theme,
    axes: _Axes,
    y: float,
    current: DepthTruth | None,
    bench: DepthTruth | None,
) -> None:
    """What each line's colour stands for, in a row under the depths."""
    p, size = theme.palette, axes.size
    words = [_("with pruning"), _("without (until the cap)")] if bench is not None else []
    if current is not None:
        words += [_("this position, pruning"), _("without (until the cap)") if bench is None else _("without")]
    kx = axes.left
    for text, (_name, _values, color, width, shape) in zip(words, _series(p, current, bench)):
        if kx > axes.left and kx + 26 + theme.font(size - 3).size(text)[0] > axes.right + 16:
            kx, y = axes.left, y + theme.font(size - 3).get_linesize() + 4  # the next row, not off the edge
        pygame.draw.line(surface, color, (kx, y + size // 2), (kx + 22, y + size // 2), width)
        draw_mark(surface, shape, color, (kx + 11, y + size // 2), width + 2, p.text)
        rect = theme.text(surface, text, size - 3, (kx + 26, y), color=p.text)
        kx = rect.right + 14


def _series(
    p: Palette, current: DepthTruth | None, bench: DepthTruth | None
) -> list[tuple[DepthTruth, str, Color, int, str]]:
    """The lines of the node chart: whose, which count, colour, width and mark shape (the
    benchmark's thick, this position's thin; each with its own mark)."""
    series: list[tuple[DepthTruth, str, Color, int, str]] = []
    if bench is not None:
        series += [(bench, "pruned_nodes", p.max_node, 3, "circle"), (bench, "full_nodes", p.min_node, 3, "square")]
    if current is not None:
        series += [(current, "pruned_nodes", p.accent, 1, "triangle"), (current, "full_nodes", p.warning, 1, "diamond")]
    return series


def save_depth_chart(
    path: str | Path, current: DepthTruth | None, bench: DepthTruth | None, size: tuple[int, int] = (1000, 680)
) -> Path:
    """Draw the chart headless and save it as PNG; return the path."""
    pygame.font.init()
    surface = pygame.Surface(size)
    theme = Theme()
    surface.fill(theme.palette.panel)
    draw_depth_chart(surface, surface.get_rect(), theme, current, bench)
    target = Path(path)
    pygame.image.save(surface, str(target))
    return target
