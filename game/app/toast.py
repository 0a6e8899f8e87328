"""Where a toast goes: one place for every screen, found the same way on each.

A toast is one line in a box, centred across the window.  Its place is the one nearest
the usual place (just above the bottom edge's controls, or where the scene asks:
``Scene.toast_bottom``) whose box covers none of the controls the scene on top drew this
frame (its buttons and selectors, its fields, its board with its column names, its chat
line: ``Theme.keep_clear``), and, where a place allows it, none of its lines of text
either.  A place once found is kept while the toast shows and it stays clear of the
controls, so a toast does not wander while the screen below it changes.
"""

from __future__ import annotations

import pygame

STEP = 2
"""Pixels between two places tried, top to bottom."""
MARGIN = 4
"""The least room between a toast and the window's edge."""


def toast_box(size: tuple[int, int], box: tuple[int, int], bottom: int) -> pygame.Rect:
    """The box of ``box`` size centred across a window of ``size`` with its bottom at ``bottom``."""
    rect = pygame.Rect((0, 0), box)
    rect.midbottom = (size[0] // 2, bottom)
    return rect


def covered(rect: pygame.Rect, rects: list[pygame.Rect]) -> int:
    """How many pixels of ``rects`` (overlaps counted each time) ``rect`` covers."""
    return sum(rect.clip(rects[index]).width * rect.clip(rects[index]).height for index in rect.collidelistall(rects))


def place_toast(
    size: tuple[int, int],
    box: tuple[int, int],
    usual_bottom: int,
    controls: list[pygame.Rect],
    words: list[pygame.Rect],
    kept: int | None = None,
) -> pygame.Rect:
    """The toast's box: ``kept`` (the bottom it had) if it still covers no control; else,
    of the places that cover no control, the one that covers the least text and, among
    those, is nearest ``usual_bottom``; where every place covers a control (the window is
    too small), the one that covers the least of them."""
    w, h = size
    if kept is not None:
        rect = toast_box(size, box, kept)
        if rect.collidelist(controls) < 0:
            return rect
    top_bottom = min(h - MARGIN, box[1] + MARGIN)
    tried = range(top_bottom, h - MARGIN + 1, STEP)
    best: tuple[int, int, int] | None = None
    for bottom in tried:
        rect = toast_box(size, box, bottom)
        if rect.collidelist(controls) >= 0:
            continue
        score = (covered(rect, words), abs(bottom - usual_bottom), bottom)
        if best is None or score < best:
            best = score
    if best is None:
        least = min(
            tried, key=lambda bottom: (covered(toast_box(size, box, bottom), controls), abs(bottom - usual_bottom))
        )
        return toast_box(size, box, least)
    return toast_box(size, box, best[2])
