"""The window's icon (``make_icon``) and the icon files of ``assets/`` made from it.

``python -m game.app.icon_files [FOLDER]`` writes ``APP_ID-48.png``, ``-128.png`` and
``-256.png`` (``make_icon`` at those sizes) and ``APP_ID.svg`` (the same drawing as
vector shapes: the board's rounded square, a ringed player-1 disc, a crossed player-2
disc, in the classic palette) into ``assets/`` or FOLDER.  They are made once and
committed; ``tests/test_desktop.py`` checks that they still match the drawn icon.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pygame

from game.app.theme import Theme
from game.desktop.install import APP_ID, ICON_SIZES, SVG_FILE
from game.rules import MAX, MIN

ASSETS = Path(__file__).resolve().parents[2] / "assets"
SVG_SIZE = 256
"""The SVG's view box, in the pixels of the 256 px icon."""


def make_icon(size: int = 64) -> pygame.Surface:
    """The window icon: a player-1 disc and a player-2 disc on the board's blue."""
    theme = Theme("classic")
    icon = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(icon, theme.palette.board, icon.get_rect(), border_radius=size // 6)
    theme.draw_disc(icon, (size * 0.32, size * 0.68), size * 0.24, MAX)
    theme.draw_disc(icon, (size * 0.68, size * 0.32), size * 0.24, MIN)
    return icon


def png_name(size: int) -> str:
    return f"{APP_ID}-{size}.png"


def _hex(color: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*color)


def svg_icon(size: int = SVG_SIZE) -> str:
    """``make_icon``'s drawing as SVG: the same shapes, sizes and colours."""
    theme = Theme("classic")
    p = theme.palette
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">',
        "  <title>Connect Four</title>",
        f'  <rect width="{size}" height="{size}" rx="{size / 6:g}" fill="{_hex(p.board)}"/>',
    ]
    for side, (x, y) in ((MAX, (0.32, 0.68)), (MIN, (0.68, 0.32))):
        cx, cy, r = size * x, size * y, size * 0.24
        fill, mark = theme.side_colors(side)
        edge = (int(fill[0] * 0.7), int(fill[1] * 0.7), int(fill[2] * 0.7))  # theme._darker
        outline = max(1.0, r / 14)
        width = max(2.0, r / 7)
        lines.append(f'  <circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{_hex(fill)}"/>')
        lines.append(
            f'  <circle cx="{cx:g}" cy="{cy:g}" r="{r - outline / 2:g}" fill="none" '
            f'stroke="{_hex(edge)}" stroke-width="{outline:g}"/>'
        )
        if side == MAX:  # a ring: the player-1 mark
            ring = r * 0.55
            lines.append(
                f'  <circle cx="{cx:g}" cy="{cy:g}" r="{ring - width / 2:g}" fill="none" '
                f'stroke="{_hex(mark)}" stroke-width="{width:g}"/>'
            )
        else:  # a cross: the player-2 mark
            arm = r * 0.42
            path = f"M{cx - arm:g} {cy - arm:g}L{cx + arm:g} {cy + arm:g}M{cx - arm:g} {cy + arm:g}L{cx + arm:g} {cy - arm:g}"
            lines.append(f'  <path d="{path}" stroke="{_hex(mark)}" stroke-width="{width + 1:g}"/>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def write_icons(folder: Path = ASSETS) -> list[Path]:
    """Write the PNGs and the SVG into ``folder``; return their paths."""
    written = []
    for size in ICON_SIZES:
        path = folder / png_name(size)
        pygame.image.save(make_icon(size), str(path))
        written.append(path)
    svg = folder / SVG_FILE
    svg.write_text(svg_icon(), encoding="utf-8")
    written.append(svg)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else ASSETS
    pygame.init()
    for path in write_icons(folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
