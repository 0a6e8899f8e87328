"""What the network screens draw alike (not a scene): a heading, and the panel beside the
table's board (the code and addresses, the latest lines, the chat line)."""

from __future__ import annotations

import pygame

from game.app.theme import Theme


def draw_heading(surface: pygame.Surface, theme: Theme, title: str, lines: list[str]) -> int:
    """A bold title and muted lines, centred at the top; the y under them."""
    w, h = surface.get_size()
    size = max(15, min(20, h // 34))
    shown, fitted = theme.fitted(title, size + 10, w - 40, bold=True)
    y = theme.text(surface, shown, fitted, (w // 2, 16), bold=True, anchor="midtop").bottom + 8
    for line in lines:
        shown, fitted = theme.fitted(line, size, w - 40)
        y = theme.text(surface, shown, fitted, (w // 2, y), color=theme.palette.muted, anchor="midtop").bottom + 4
    return y


def draw_panel(
    surface: pygame.Surface,
    theme: Theme,
    panel: pygame.Rect,
    text: int,
    top: list[str],
    log: list[str],
    prompt: str,
    chat_open: bool,
) -> None:
    """The panel beside the board: ``top`` (the code, the addresses), the latest ``log``
    lines wrapped, and the chat line at the bottom (framed while it is being typed)."""
    p = theme.palette
    pygame.draw.rect(surface, p.panel, panel, border_radius=8)
    inner = panel.inflate(-16, -16)
    step = int(theme.pitch(text - 2, text + 4))
    lines = [(part, p.text) for line in top for part in theme.wrap(line, text - 2, inner.width)]
    lines += [("", p.text)] if top else []
    lines += [(part, p.muted) for line in log for part in theme.wrap(line, text - 2, inner.width)]
    room = max(0, (inner.height - step * 2) // step)
    y = inner.top
    for line, color in lines[-room:] if len(lines) > room else lines:
        shown, fitted = theme.fitted(line, text - 2, inner.width)
        theme.text(surface, shown, fitted, (inner.left, y), color=color)
        y += step
    shown, fitted = theme.fitted(prompt, text - 2, inner.width)
    box = pygame.Rect(inner.left - 4, inner.bottom - step - 4, inner.width + 8, step + 8)
    if prompt:
        theme.keep_clear(box)  # the chat line: no toast covers it
    if chat_open:
        pygame.draw.rect(surface, p.accent, box, 2, border_radius=6)
    theme.text(surface, shown, fitted, (inner.left, inner.bottom - step), color=p.text if chat_open else p.muted)
