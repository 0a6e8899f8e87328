"""The player's rating over time, drawn in a box (Past games shows it with G).

Each point is the rating after one game against a level or one puzzle (``game.learn.rating``),
oldest left; a game is a triangle, a puzzle a dot (the shape, not only the colour, says
which); the band around the line is the rating deviation.  Drawing reads the history and
changes nothing.
"""

from __future__ import annotations

import pygame

from game.app.theme import Theme, draw_mark
from game.i18n import _, number
from game.learn.rating import GAME, RECENT, PlayerRating

MOST_POINTS = RECENT
"""The latest points drawn (older ones would be thinner than a pixel): the points a rating keeps."""


def rating_summary(rated: PlayerRating | None) -> str:
    """The graph's title: the rating now and what it is made of (None: still being worked out)."""
    if rated is None:
        return _("Your rating over time: reading your games and puzzles...")
    if not rated.history:
        return _("Your rating: 1,500 (a new player). Play a level or a puzzle to start the graph.")
    now = rated.current
    return _("Your rating over time: {rating:,} now (deviation {deviation}), {games} games, {puzzles} puzzles").format(
        rating=round(now.rating), deviation=round(now.deviation), games=rated.games, puzzles=rated.puzzles
    )


def draw_rating_graph(
    surface: pygame.Surface, theme: Theme, box: pygame.Rect, rated: PlayerRating | None, text: int
) -> None:
    """The rating line with its deviation band, its scale at the left, a legend at the right."""
    p = theme.palette
    pygame.draw.rect(surface, p.panel, box, border_radius=10)
    small = max(13, text - 2)
    x = box.right - 10
    for shape, word in (("circle", _("a puzzle")), ("triangle", _("a game"))):  # the legend, right to left
        label = theme.text(surface, word, small, (x, box.top + 6), color=p.muted, anchor="topright")
        draw_mark(surface, shape, p.accent, (label.left - 4 - small / 3, label.centery), small / 3, p.text)
        x = label.left - 12 - small
    title, fitted = theme.fitted(rating_summary(rated), small, x - box.left - 20)
    theme.text(surface, title, fitted, (box.left + 10, box.top + 6), color=p.muted)
    points = list(rated.history[-MOST_POINTS:]) if rated is not None else []
    if not points:
        return
    values = [points[0].before.rating] + [point.after.rating for point in points]
    spreads = [points[0].before.deviation] + [point.after.deviation for point in points]
    low = min(v - min(d, 200) for v, d in zip(values, spreads))
    high = max(v + min(d, 200) for v, d in zip(values, spreads))
    low, high = 100 * int(low // 100), 100 * int(high // 100 + 1)
    scale_font = theme.font(small - 2)  # the scale's labels, centred on its lines, right of the box's edge
    label_width = max(scale_font.size(number(level))[0] for level in (low, high))
    half_label = scale_font.get_height() // 2
    top = box.top + int(theme.pitch(small, small + 8)) + 6 + half_label
    left = box.left + 16 + label_width
    plot = pygame.Rect(left, top, box.right - 20 - left, box.bottom - 10 - half_label - top)
    if plot.height < 20 or plot.width < 40:
        return

    def at(index: int, value: float) -> tuple[float, float]:
        x = plot.left + plot.width * index / max(1, len(values) - 1)
        return x, plot.bottom - plot.height * (value - low) / max(1, high - low)

    for level in (low, (low + high) // 2, high):
        y = at(0, level)[1]
        pygame.draw.line(surface, p.hole, (plot.left, y), (plot.right, y))
        theme.text(surface, number(level), small - 2, (plot.left - 6, y), color=p.muted, anchor="midright")
    band = [at(i, v + min(d, 200)) for i, (v, d) in enumerate(zip(values, spreads))]
    band += [at(i, v - min(d, 200)) for i, (v, d) in reversed(list(enumerate(zip(values, spreads))))]
    if len(band) >= 3:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(shade, (*p.accent[:3], 50), band)
        surface.blit(shade, (0, 0))
    line = [at(i, v) for i, v in enumerate(values)]
    if len(line) >= 2:
        pygame.draw.lines(surface, p.accent, False, line, 3)
    size = max(3.0, min(6.0, plot.width / max(1, len(values)) / 2))
    for index, point in enumerate(points, start=1):
        shape = "triangle" if point.event.kind == GAME else "circle"
        draw_mark(surface, shape, p.accent, at(index, point.after.rating), size, p.text)
