"""Drawing "depth against truth" (``ai.depth_truth``) with pygame, for the window and the CLI.

Two charts over depth 1..12: above, the share of positions whose depth-limited move keeps
the exact outcome (bars: the benchmark sample; marks: the current position, kept or
not); below, the nodes searched with and without pruning on a logarithmic scale.
``draw_depth_chart`` is pure drawing; ``save_depth_chart`` draws headless into a PNG.
"""

from __future__ import annotations

import math
from pathlib import Path

import pygame

from ai.depth_truth import DepthTruth
from game.app.theme import Theme

Color = tuple[int, int, int]


def _log_y(nodes: float, top: int, height: int, decades: int) -> float:
    return top + height - height * min(decades, math.log10(max(1.0, nodes))) / decades


def draw_depth_chart(
    surface: pygame.Surface,
    area: pygame.Rect,
    theme: Theme,
    current: DepthTruth | None,
    bench: DepthTruth | None,
    status: str = "",
) -> None:
    """Draw both charts in ``area`` (the panel behind is the caller's)."""
    p = theme.palette
    size = 15 if area.height < 560 else 17
    x0, y = area.left + 10, area.top + 8
    theme.text(
        surface,
        theme.fit(
            "Depth against truth: when does the search keep the exact outcome?", size + 2, area.width - 20, bold=True
        ),
        size + 2,
        (x0, y),
        bold=True,
    )
    y += size + 8
    lines = []
    if bench is not None:
        lines.append(f"Bars: {bench.label} ({bench.positions} positions). {bench.note}".strip())
    if current is not None:
        lines.append(f"Marks: {current.label}. {current.note}".strip())
    if status:
        lines.append(status)
    for line in lines:
        theme.text(surface, theme.fit(line, size - 2, area.width - 20), size - 2, (x0, y), color=p.muted)
        y += size
    shown = bench or current
    depths = [row.depth for row in shown.rows] if shown is not None else list(range(1, 13))
    left = area.left + 64
    right = area.right - 16
    step = (right - left) / max(1, len(depths))
    free = area.bottom - y - 6 * size - 30  # less the labels above each chart, the depths and the key
    top_h = int(free * 0.42)
    low_h = free - top_h
    # -- above: the share that keeps the outcome --------------------------------------------
    top = y + size + 6
    pygame.draw.line(surface, p.muted, (left, top + top_h), (right, top + top_h))
    for share in (0.0, 0.5, 1.0):
        gy = top + top_h - top_h * share
        pygame.draw.line(surface, p.muted, (left - 4, gy), (left, gy))
        theme.text(surface, f"{share:.0%}", size - 3, (left - 8, gy), color=p.muted, anchor="midright")
    theme.text(surface, "keeps the outcome", size - 3, (left, top - 4), color=p.muted, anchor="bottomleft")
    for index in range(len(depths)):
        cx = left + step * (index + 0.5)
        if bench is not None:
            row = bench.rows[index]
            if row.share is not None:
                bar_h = top_h * row.share
                pygame.draw.rect(surface, p.max_node, (cx - step * 0.3, top + top_h - bar_h, step * 0.6, bar_h))
                pygame.draw.rect(surface, p.text, (cx - step * 0.3, top + top_h - bar_h, step * 0.6, bar_h), 1)
                theme.text(
                    surface,
                    f"{row.kept}/{row.judged}",
                    size - 4,
                    (cx, top + top_h - bar_h - 2),
                    color=p.text,
                    anchor="midbottom",
                )
        if current is not None:
            row = current.rows[index]
            if row.judged:
                mark_y = top + top_h - (top_h if row.kept else 0) + (8 if row.kept else -8)
                color = p.good if row.kept else p.warning
                pygame.draw.circle(surface, color, (cx + step * 0.32, mark_y), 5)
                pygame.draw.circle(surface, p.text, (cx + step * 0.32, mark_y), 5, 1)
    if not any(row.judged for truth in (bench, current) if truth for row in truth.rows):
        message = "No exact outcome to compare with: the solver knows the standard 6x7 board"
        theme.text(surface, message, size, ((left + right) / 2, top + top_h / 2), color=p.muted, anchor="center")
    # -- below: nodes, log scale ------------------------------------------------------------
    low = top + top_h + 2 * size + 6
    values = [n for t in (bench, current) if t for r in t.rows for n in (r.pruned_nodes, r.full_nodes) if n]
    decades = max(2, math.ceil(math.log10(max(values)))) if values else 6
    for decade in range(0, decades + 1, max(1, decades // 6)):
        gy = _log_y(10**decade, low, low_h, decades)
        pygame.draw.line(surface, p.muted, (left - 4, gy), (right, gy), 1)
        theme.text(surface, f"1e{decade}", size - 3, (left - 8, gy), color=p.muted, anchor="midright")
    theme.text(surface, "nodes searched (log scale)", size - 3, (left, low - 4), color=p.muted, anchor="bottomleft")
    series: list[tuple[DepthTruth, str, Color, int]] = []
    if bench is not None:
        series += [(bench, "pruned_nodes", p.max_node, 3), (bench, "full_nodes", p.min_node, 3)]
    if current is not None:
        series += [(current, "pruned_nodes", p.accent, 1), (current, "full_nodes", p.warning, 1)]
    for truth, name, color, width in series:
        points = []
        for index, row in enumerate(truth.rows):
            nodes = getattr(row, name)
            if nodes:
                points.append((left + step * (index + 0.5), _log_y(nodes, low, low_h, decades)))
        if len(points) > 1:
            pygame.draw.lines(surface, color, False, points, width)
        for point in points:
            pygame.draw.circle(surface, color, point, width + 2)
    for index, depth in enumerate(depths):
        theme.text(
            surface, str(depth), size - 2, (left + step * (index + 0.5), low + low_h + 4), color=p.text, anchor="midtop"
        )
    theme.text(surface, "depth", size - 2, (left - 8, low + low_h + 4), color=p.muted, anchor="topright")
    key_y = low + low_h + size + 10
    key = [("with pruning", p.max_node), ("without (until the cap)", p.min_node)] if bench is not None else []
    if current is not None:
        key += [
            ("this position, pruning", p.accent),
            ("without (until the cap)" if bench is None else "without", p.warning),
        ]
    kx = left
    for text, color in key:
        pygame.draw.line(surface, color, (kx, key_y + size // 2), (kx + 18, key_y + size // 2), 3)
        rect = theme.text(surface, text, size - 3, (kx + 22, key_y), color=p.text)
        kx = rect.right + 14


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
