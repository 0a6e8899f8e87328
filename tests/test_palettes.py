"""Colour-vision palettes: every meaningful colour pair stays apart, and carries a cue.

Simulation: Machado, Oliveira and Fernandes (2009), severity 1.0 (dichromacy, the
strongest form of each type: protanopia, deuteranopia, tritanopia), plus achromatopsia
(luminance only) for the monochrome palette; see tests/colour_vision.py.

Threshold: two colours that mean different things must differ by at least
``MIN_DIFFERENCE`` = 15 in CIEDE2000 (CIELAB, D65) as the simulated eye sees them.  One
unit is about a just-noticeable difference side by side; 15 is a difference seen at a
glance between small marks apart on the screen.

Which eye sees which palette: every palette with normal colour vision; each deficiency's
palette with that deficiency (the red-green palettes with both red-green types, since
protanopia and deuteranopia confuse the same colours); the monochrome palette with every
type and with no colour vision at all.  The everyday palettes (classic, night, high
contrast) are not claimed safe for a deficiency: that is what the others are for.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pygame
import pytest

from ai.exact import DRAW, ExactScore, column_label
from ai.review import MoveClass
from game.app.board_view import _contrast, readable_on
from game.app.depth_chart import _series
from game.app.scenes.review import CLASS_MARKS
from game.app.settings import THEMES
from game.app.theme import COLOUR_VISION, CUES, PALETTES, Theme, meaningful_groups
from game.app.tree.draw import node_shape
from game.rules import MAX, MIN
from tests.colour_vision import MACHADO_SEVERITY, contrast_ratio, difference

MIN_DIFFERENCE = 15.0
SEEN_BY = {
    "protanopia": ("protanopia", "deuteranopia"),
    "deuteranopia": ("deuteranopia", "protanopia"),
    "tritanopia": ("tritanopia",),
    "monochrome": ("protanopia", "deuteranopia", "tritanopia", "achromatopsia"),
}
CASES = [(name, "normal") for name in PALETTES] + [(name, v) for name in COLOUR_VISION for v in SEEN_BY[name]]


def test_options_offer_every_palette_and_one_per_deficiency():
    assert THEMES == tuple(PALETTES)
    assert set(COLOUR_VISION) == set(SEEN_BY) <= set(PALETTES)
    assert MACHADO_SEVERITY == 1.0


@pytest.mark.parametrize(("palette", "vision"), CASES)
def test_meaningful_colours_stay_apart(palette, vision):
    close = []
    for group, colours in meaningful_groups(PALETTES[palette]).items():
        for (a, first), (b, second) in itertools.combinations(colours, 2):
            seen = difference(first, second, vision)
            if seen < MIN_DIFFERENCE:
                close.append(f"{group}: {a} {first} and {b} {second} differ by {seen:.1f}")
    assert not close, f"{palette} palette seen with {vision}: " + "; ".join(close)


def test_every_meaningful_colour_names_its_cue():
    meaningful = {
        name
        for colours in meaningful_groups(PALETTES["classic"]).values()
        for name, _ in colours
        if name not in ("panel", "text", "hole", "mark", "accent")  # the ground, not a meaning
    }
    assert meaningful <= set(CUES)


def _disc(theme: Theme, side: int) -> np.ndarray:
    surface = pygame.Surface((60, 60))
    surface.fill((0, 0, 0))
    theme.draw_disc(surface, (30, 30), 25, side)
    return pygame.surfarray.array3d(surface)


@pytest.mark.parametrize("palette", list(PALETTES))
def test_discs_differ_by_their_mark_even_in_one_colour(palette):
    """Painted in one and the same colour, the sides still differ: a ring, a cross."""
    theme = Theme(palette)
    p = theme.palette
    theme.palette = replace(p, player2=p.player1, player2_mark=p.player1_mark)
    assert (np.abs(_disc(theme, MAX).astype(int) - _disc(theme, MIN)).sum(axis=2) > 60).sum() > 100


def test_badges_say_win_draw_and_lose_in_words():
    assert column_label(ExactScore(MAX, 5), MAX).startswith("win")
    assert column_label(ExactScore(MIN, 4), MAX).startswith("lose")
    assert column_label(ExactScore(DRAW), MAX) == "draw"


@pytest.mark.parametrize("palette", list(PALETTES))
def test_badge_words_are_readable_on_their_colour(palette):
    p = PALETTES[palette]
    for fill in (p.win, p.draw, p.lose):
        assert _contrast(readable_on(fill), fill) >= 3.0, (palette, fill)


def test_review_classes_have_words_and_marks_of_their_own():
    assert {cls.value for cls in CLASS_MARKS} == {"mistake", "blunder"}
    shapes = [shape for _, shape in CLASS_MARKS.values()]
    assert len(set(shapes)) == len(shapes) and "circle" not in shapes  # the plain line points
    from game.app.scenes.review_text import graph_legend

    class Exact:
        exact = True

    assert all(f"{shape}: {cls.value}" in graph_legend(Exact()) for cls, (_, shape) in CLASS_MARKS.items())
    assert set(CLASS_MARKS) == {c for c in MoveClass if not c.keeps_outcome}


def test_tree_sides_differ_by_shape_and_bounds_by_sign():
    from ai.tree import BoundKind

    assert node_shape(0, 0, 10, True) != node_shape(0, 0, 10, False)
    assert {kind.sign for kind in BoundKind} == {"", ">=", "<="}


def test_depth_chart_lines_differ_by_mark_and_width():
    p = PALETTES["monochrome"]
    series = _series(p, current=object(), bench=object())  # type: ignore[arg-type]
    assert len({shape for *_, shape in series}) == len(series)
    assert {width for _, _, _, width, _ in series} == {1, 3}


def test_past_games_results_have_marks_of_their_own():
    from game.app.scenes.past_games import RESULT_MARKS

    assert set(RESULT_MARKS) == {"win", "draw", "loss"} and len(set(RESULT_MARKS.values())) == 3


MIN_CONTRAST = 3.0
"""WCAG 2's least contrast for graphics a person must make out (1.4.11, non-text contrast)."""


def test_monochrome_discs_stand_out_of_the_board_the_holes_and_each_other():
    """In one colour only brightness tells things apart: each disc must stand out of the
    board and of an empty hole, and the two discs of each other, by WCAG's 3:1 (player 2
    was near-black on the black board, 1.14:1, told apart only by its thin cross)."""
    p = PALETTES["monochrome"]
    pairs = {
        "player 1 / board": (p.player1, p.board),
        "player 2 / board": (p.player2, p.board),
        "player 1 / player 2": (p.player1, p.player2),
        "player 1 / hole": (p.player1, p.hole),
        "player 2 / hole": (p.player2, p.hole),
        "player 1 / its ring": (p.player1, p.player1_mark),
        "player 2 / its cross": (p.player2, p.player2_mark),
    }
    ratios = {name: round(contrast_ratio(*colours), 2) for name, colours in pairs.items()}
    assert all(ratio >= MIN_CONTRAST for ratio in ratios.values()), ratios


def _mark_share(theme: Theme, side: int) -> float:
    """The share of a disc's area painted in its mark's colour."""
    radius = 40
    surface = pygame.Surface((100, 100))
    surface.fill((0, 0, 0))
    theme.draw_disc(surface, (50, 50), radius, side)
    pixels = pygame.surfarray.array3d(surface).reshape(-1, 3).astype(int)
    mark = np.array(theme.side_colors(side)[1])
    return float((np.abs(pixels - mark).sum(axis=1) < 30).sum()) / (np.pi * radius * radius)


@pytest.mark.parametrize("side", [MAX, MIN])
def test_the_monochrome_marks_are_bold(side):
    """Where brightness is the only colour, the ring and the cross are bold: at least a
    sixth of the disc, seen at a glance rather than searched for."""
    assert _mark_share(Theme("monochrome"), side) >= 1 / 6
