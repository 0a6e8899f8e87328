"""Colours, fonts and the look of discs: one place for how things are drawn.

The two sides differ by a mark as well as by colour (a ring for player 1, a cross for
player 2), and the colours differ in brightness, so colour-blind players can tell them
apart.  Besides the everyday palettes there is one per type of colour-vision deficiency
(protanopia, deuteranopia, tritanopia) and a monochrome one; every colour that carries a
meaning also carries a shape or a word (``CUES``), and tests/test_palettes.py simulates
each type of colour vision on each palette's meaningful pairs (``MEANINGFUL``).

The theme also holds the two other ways the look adapts to a person: the UI scale (every
font size passes through ``Theme.font``, so every scene's text grows with it) and the
motion setting (``Theme.still``: nothing pulses or blinks).
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from dataclasses import dataclass, replace

import pygame

from game.rules import MAX

Color = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    name: str
    background: Color
    panel: Color
    board: Color
    board_edge: Color
    hole: Color
    text: Color
    muted: Color
    accent: Color
    player1: Color
    player1_mark: Color
    player2: Color
    player2_mark: Color
    button: Color
    button_hover: Color
    button_text: Color
    disabled: Color
    glow: Color
    max_node: Color
    min_node: Color
    pruned: Color
    warning: Color
    good: Color
    win: Color  # the column badges: a won, drawn, lost column (each also says so in words)
    draw: Color
    lose: Color
    caution: Color  # a mistake in the review (a blunder is ``warning``)
    cutoff: Color  # the tree: cutoffs and bounded values (written with >= or <=)
    mark_weight: float = 1.0  # how bold a disc's ring and cross are (monochrome: bolder, shape tells)


PALETTES = {
    "classic": Palette(
        "classic",
        background=(228, 236, 246),
        panel=(250, 252, 255),
        board=(32, 84, 190),
        board_edge=(20, 56, 140),
        hole=(214, 226, 244),
        text=(24, 32, 48),
        muted=(96, 108, 130),
        accent=(32, 84, 190),
        player1=(250, 200, 30),
        player1_mark=(150, 105, 0),
        player2=(200, 36, 52),
        player2_mark=(255, 214, 214),
        button=(44, 98, 210),
        button_hover=(66, 124, 236),
        button_text=(255, 255, 255),
        disabled=(170, 178, 194),
        glow=(60, 255, 150),
        max_node=(232, 150, 20),
        min_node=(40, 120, 220),
        pruned=(175, 180, 190),
        warning=(184, 30, 40),
        good=(20, 140, 70),
        win=(20, 140, 70),
        draw=(96, 108, 130),
        lose=(184, 30, 40),
        caution=(226, 132, 24),
        cutoff=(200, 36, 52),
    ),
    "night": Palette(
        "night",
        background=(18, 22, 32),
        panel=(30, 36, 50),
        board=(40, 60, 110),
        board_edge=(26, 40, 80),
        hole=(14, 18, 28),
        text=(232, 236, 244),
        muted=(150, 160, 180),
        accent=(120, 170, 255),
        player1=(255, 206, 60),
        player1_mark=(130, 90, 0),
        player2=(236, 70, 90),
        player2_mark=(255, 225, 230),
        button=(60, 90, 160),
        button_hover=(84, 118, 196),
        button_text=(245, 248, 255),
        disabled=(80, 88, 104),
        glow=(90, 255, 170),
        max_node=(240, 170, 50),
        min_node=(90, 150, 250),
        pruned=(90, 96, 110),
        warning=(255, 120, 120),
        good=(60, 190, 110),
        win=(40, 150, 90),
        draw=(110, 120, 140),
        lose=(200, 60, 70),
        caution=(240, 170, 70),
        cutoff=(236, 70, 90),
    ),
    "contrast": Palette(
        "contrast",
        background=(255, 255, 255),
        panel=(255, 255, 255),
        board=(0, 0, 0),
        board_edge=(0, 0, 0),
        hole=(255, 255, 255),
        text=(0, 0, 0),
        muted=(60, 60, 60),
        accent=(0, 0, 0),
        player1=(255, 220, 0),
        player1_mark=(0, 0, 0),
        player2=(0, 90, 200),
        player2_mark=(255, 255, 255),
        button=(0, 0, 0),
        button_hover=(60, 60, 60),
        button_text=(255, 255, 255),
        disabled=(150, 150, 150),
        glow=(0, 200, 90),
        max_node=(255, 190, 0),
        min_node=(0, 90, 200),
        pruned=(170, 170, 170),
        warning=(200, 0, 0),
        good=(0, 130, 0),
        win=(0, 130, 0),
        draw=(90, 90, 90),
        lose=(200, 0, 0),
        caution=(200, 110, 0),
        cutoff=(0, 90, 200),
    ),
}

_CLASSIC = PALETTES["classic"]
PALETTES["protanopia"] = replace(
    _CLASSIC,
    name="protanopia",
    board=(52, 58, 74),
    board_edge=(30, 34, 46),
    player1=(250, 215, 60),
    player1_mark=(120, 90, 0),
    player2=(0, 80, 170),
    player2_mark=(220, 235, 255),
    max_node=(240, 170, 30),
    min_node=(90, 170, 235),
    warning=(150, 60, 0),
    good=(0, 100, 170),
    win=(0, 100, 170),
    draw=(120, 120, 120),
    lose=(160, 80, 0),
    caution=(215, 150, 0),
    cutoff=(0, 80, 170),
)
PALETTES["deuteranopia"] = replace(PALETTES["protanopia"], name="deuteranopia")
PALETTES["tritanopia"] = replace(
    _CLASSIC,
    name="tritanopia",
    board=(52, 58, 74),
    board_edge=(30, 34, 46),
    player1=(235, 60, 70),
    player1_mark=(255, 220, 225),
    player2=(0, 130, 140),
    player2_mark=(210, 255, 255),
    max_node=(235, 90, 100),
    min_node=(40, 170, 180),
    warning=(180, 0, 30),
    good=(0, 110, 120),
    win=(0, 110, 120),
    draw=(120, 120, 120),
    lose=(190, 20, 50),
    caution=(220, 100, 170),
    cutoff=(0, 110, 120),
)
PALETTES["monochrome"] = Palette(
    "monochrome",
    background=(255, 255, 255),
    panel=(255, 255, 255),
    board=(0, 0, 0),
    board_edge=(0, 0, 0),
    hole=(50, 50, 50),  # dark pockets, so that both discs stand out of them (WCAG >= 3:1)
    text=(0, 0, 0),
    muted=(70, 70, 70),
    accent=(0, 0, 0),
    player1=(255, 255, 255),
    player1_mark=(0, 0, 0),
    player2=(128, 128, 128),  # mid grey: 5:1 on the black board, 4:1 under white
    player2_mark=(0, 0, 0),
    button=(0, 0, 0),
    button_hover=(70, 70, 70),
    button_text=(255, 255, 255),
    disabled=(150, 150, 150),
    glow=(0, 0, 0),
    max_node=(170, 170, 170),
    min_node=(40, 40, 40),
    pruned=(150, 150, 150),
    warning=(60, 60, 60),
    good=(0, 0, 0),
    win=(0, 0, 0),
    draw=(175, 175, 175),
    lose=(255, 255, 255),
    caution=(115, 115, 115),
    cutoff=(90, 90, 90),
    mark_weight=2.4,
)

COLOUR_VISION = ("protanopia", "deuteranopia", "tritanopia", "monochrome")
"""The palettes made for a type of colour vision (monochrome: for any, and for none)."""

CUES: dict[str, str] = {
    "player1": "a ring on the disc",
    "player2": "a cross on the disc",
    "win": 'the badge says "win"; past games: a triangle',
    "draw": 'the badge says "draw"; past games: a diamond',
    "lose": 'the badge says "lose"; past games: a square',
    "caution": 'the move list says "mistake"; a triangle on the graph',
    "warning": 'the move list says "blunder"; a square on the graph',
    "max_node": "a triangle pointing up",
    "min_node": "a triangle pointing down",
    "bound": "the value is written with >= or <=",
    "glow": "a line drawn through the winning discs",
}
"""The shape or word that says what each meaningful colour says (checked by
tests/test_palettes.py against the drawing and wording code)."""


def meaningful_groups(p: Palette) -> dict[str, tuple[tuple[str, Color], ...]]:
    """The colours that must stay apart, group by group: any two in a group mean different
    things on the same screen (a disc must also stand out of its hole, a mark of its disc)."""
    return {
        "discs": (("player1", p.player1), ("player2", p.player2), ("hole", p.hole)),
        "player 1 mark": (("player1", p.player1), ("mark", p.player1_mark)),
        "player 2 mark": (("player2", p.player2), ("mark", p.player2_mark)),
        "column badges": (("win", p.win), ("draw", p.draw), ("lose", p.lose)),
        "move classes": (("caution", p.caution), ("warning", p.warning), ("text", p.text), ("panel", p.panel)),
        "tree nodes": (("max_node", p.max_node), ("min_node", p.min_node)),
        "tree values": (("bound", p.cutoff), ("text", p.text), ("panel", p.panel)),
        "depth chart, benchmark": (("max_node", p.max_node), ("min_node", p.min_node), ("panel", p.panel)),
        "depth chart, position": (("accent", p.accent), ("warning", p.warning), ("panel", p.panel)),
    }


TEXT_CACHE_BYTES = 4 << 20
"""Pixels of rendered text lines kept for reuse across frames: past this the lines used
least recently are dropped (a line of 20-pixel text is about 25 KB)."""
WRAPPED_KEPT = 512
"""Paragraphs whose wrapping into lines ``Theme.wrap`` keeps (each a few lines of text)."""


SUPERSAMPLE = 2
"""Text is rendered this many times larger and scaled down.  Hinted at small sizes, the
default font rounds each letter's width to whole pixels, so some pairs stand apart ("Compu
ter", "Le ft"); rendered larger, the rounding shrinks below what the eye sees."""


MAX_DRAWN_CHARACTERS = 1_000
"""Characters of one line drawn at most: more than any window is wide at the smallest
size, so a line past it (a name or a message from a file) is cut, never a huge surface."""
_NOT_DRAWABLE = re.compile("[\x00\ud800-\udfff]")
"""What the font's UTF-8 encoding refuses (NUL: ``ValueError``; a lone surrogate:
``UnicodeEncodeError``)."""
REPLACEMENT = "\ufffd"


def drawable(text: str) -> str:
    """``text`` as the font can always draw it: NUL and lone surrogates become U+FFFD and
    a line past ``MAX_DRAWN_CHARACTERS`` is cut.  The readers refuse such text first
    (``game.game_file.check_tags``); this is the last guard, so a string that slipped
    through is drawn wrong, never raised out of a scene's ``draw``."""
    if len(text) > MAX_DRAWN_CHARACTERS:
        text = text[:MAX_DRAWN_CHARACTERS]
    return _NOT_DRAWABLE.sub(REPLACEMENT, text)


class TextFont:
    """A font of one size whose text is rendered supersampled (``SUPERSAMPLE``); it measures
    what it renders, with the methods of ``pygame.font.Font`` the app uses.  Both take any
    string (``drawable``)."""

    def __init__(self, size: int, bold: bool):
        self.base = pygame.font.Font(None, size)  # the line height of this size
        self.base.set_bold(bold)
        self.fine = pygame.font.Font(None, size * SUPERSAMPLE)
        self.fine.set_bold(bold)

    def size(self, text: str) -> tuple[int, int]:
        """The width and height of ``text`` as ``render`` draws it (a line's height at least)."""
        width, height = self.fine.size(drawable(text))
        height = max(height, self.fine.get_linesize())
        return -(-width // SUPERSAMPLE), -(-height // SUPERSAMPLE)

    def get_linesize(self) -> int:
        return self.base.get_linesize()

    def get_height(self) -> int:
        return self.base.get_height()

    def render(self, text: str, antialias: bool, color: Color) -> pygame.Surface:
        """``text`` drawn in ``color`` on a transparent surface (always antialiased)."""
        text = drawable(text)
        image = self.fine.render(text, True, color)
        if not text or image.get_width() < SUPERSAMPLE:
            return self.base.render(text, True, color)
        width, height = image.get_size()
        return pygame.transform.smoothscale(image, (-(-width // SUPERSAMPLE), -(-height // SUPERSAMPLE)))


MAX_WORDS = 4096
"""Lines of text a frame remembers at most (a toast's place is looked for among them)."""


class Theme:
    """The palette in use, a cache of fonts by size and one of rendered text lines."""

    def __init__(self, name: str = "classic", *, scale: int = 100, motion: str = "normal"):
        self.palette = PALETTES.get(name, PALETTES["classic"])
        self.scale = scale / 100  # every font size is multiplied by it (Options: text size)
        self.motion = motion  # "off": nothing pulses or blinks (``still``)
        self._fonts: dict[tuple[int, bool], TextFont] = {}
        # rendered lines, least recently used first; their pixels total ``text_bytes``
        self._texts: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()
        self.text_bytes = 0
        self._wrapped: OrderedDict[tuple[str, int, bool, int], list[str]] = OrderedDict()  # ``wrap``'s answers
        # What the scene on top drew this frame (``begin_frame`` forgets the last): the
        # controls, the board and its column names, the chat line, which a toast never
        # covers (``keep_clear``, every button and selector), and every line of text, which
        # it covers only where no other place is free (``game.app.toast``).
        self.controls: list[pygame.Rect] = []
        self.words: list[pygame.Rect] = []

    def close(self) -> None:
        """Let go of the fonts (each holds its font file open) and the rendered lines."""
        self._fonts.clear()
        self._texts.clear()
        self._wrapped.clear()
        self.text_bytes = 0

    def begin_frame(self) -> None:
        """Forget what the last scene drawn kept clear and wrote (a scene begins to draw)."""
        self.controls.clear()
        self.words.clear()

    def keep_clear(self, rect: pygame.Rect) -> None:
        """``rect`` holds a control (a button, a field, a board's columns, the chat line):
        no toast covers it."""
        self.controls.append(pygame.Rect(rect))

    def set(self, name: str) -> None:
        self.palette = PALETTES.get(name, PALETTES["classic"])

    @property
    def still(self) -> bool:
        """Motion is off: what would pulse or blink is drawn steady."""
        return self.motion == "off"

    def pulse(self, t: float, period: float = 1.2) -> float:
        """``pulse(t)``, or a steady 1 when motion is off."""
        return 1.0 if self.still else pulse(t, period)

    def font(self, size: float, bold: bool = False) -> TextFont:
        """The font for text of ``size`` at this UI scale (every scene's text comes here)."""
        size = max(8, round(size * self.scale))
        key = (size, bold)
        if key not in self._fonts:
            self._fonts[key] = TextFont(size, bold)
        return self._fonts[key]

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        size: float,
        pos: tuple[float, float],
        *,
        color: Color | None = None,
        bold: bool = False,
        anchor: str = "topleft",
        cache: bool = True,
    ) -> pygame.Rect:
        """Draw one line of text; ``anchor`` is a Rect attribute name such as "center".

        ``cache=False`` for a line that changes every few frames (a search's progress):
        it is rendered each time and never kept.
        """
        color = color or self.palette.text
        key = (text, size, self.scale, bold, color)
        image = self._texts.get(key)
        if image is not None:
            self._texts.move_to_end(key)
        else:
            image = self.font(size, bold).render(text, True, color)
            if cache:
                self._keep(key, image)
        rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
        surface.blit(image, rect)
        if len(self.words) < MAX_WORDS:  # (drawn outside ``App.draw``, nothing forgets them)
            self.words.append(rect)
        return rect

    def _keep(self, key: tuple[object, ...], image: pygame.Surface) -> None:
        self._texts[key] = image
        self.text_bytes += _surface_bytes(image)
        while self.text_bytes > TEXT_CACHE_BYTES and len(self._texts) > 1:
            _, dropped = self._texts.popitem(last=False)
            self.text_bytes -= _surface_bytes(dropped)

    def pitch(self, size: float, least: float, bold: bool = False) -> float:
        """Pixels from a line of text of ``size`` down to the next: ``least`` (the spacing a
        scene chose at 100 %), or more where the UI scale makes the line taller than that."""
        return max(least, self.font(size, bold).get_linesize() + 2)

    def shrink(self, text: str, size: float, width: float, bold: bool = False) -> float:
        """The largest size up to ``size`` at which ``text`` fits ``width`` pixels, but not
        below ``size`` at 100 %: a box that does not grow with the UI scale keeps its text
        whole at the size it had, rather than cutting it (``fit`` cuts what still does not fit)."""
        floor = size / self.scale if self.scale > 1 else size
        while size > floor and self.font(size, bold).size(text)[0] > width:
            size = max(floor, size - 1)
        return size

    def fitted(self, text: str, size: float, width: float, bold: bool = False) -> tuple[str, float]:
        """``text`` and its size for a box ``width`` wide: ``shrink``, then ``fit``."""
        size = self.shrink(text, size, width, bold)
        return self.fit(text, size, width, bold), size

    def fit(self, text: str, size: float, width: float, bold: bool = False) -> str:
        """Shorten ``text`` with an ellipsis until it fits ``width`` pixels."""
        font = self.font(size, bold)
        if font.size(text)[0] <= width:
            return text
        while text and font.size(text + "...")[0] > width:
            text = text[:-1]
        return text.rstrip() + "..." if text else ""

    def wrap(self, text: str, size: float, width: float, bold: bool = False) -> list[str]:
        """Split ``text`` into lines that fit ``width`` pixels (remembered: a panel that
        tries sizes until its paragraphs fit asks the same each frame it is drawn)."""
        key = (text, max(8, round(size * self.scale)), bold, int(width))
        known = self._wrapped.get(key)
        if known is None:
            known = self._wrapped[key] = self._wrap(text, size, width, bold)
            if len(self._wrapped) > WRAPPED_KEPT:
                self._wrapped.popitem(last=False)
        else:
            self._wrapped.move_to_end(key)
        return list(known)

    def _wrap(self, text: str, size: float, width: float, bold: bool) -> list[str]:
        font = self.font(size, bold)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            words = paragraph.split(" ")
            line = ""
            for word in words:
                candidate = f"{line} {word}".strip()
                if font.size(candidate)[0] <= width or not line:
                    line = candidate
                else:
                    lines.append(line)
                    line = word
            lines.append(line)
        return lines

    def side_colors(self, side: int) -> tuple[Color, Color]:
        p = self.palette
        return (p.player1, p.player1_mark) if side == MAX else (p.player2, p.player2_mark)

    def draw_disc(
        self, surface: pygame.Surface, center: tuple[float, float], radius: float, side: int, alpha: int = 255
    ) -> None:
        """Draw a disc with its side's mark: a ring for player 1, a cross for player 2."""
        radius = max(2, int(radius))
        fill, mark = self.side_colors(side)
        if alpha < 255:
            size = radius * 2 + 4
            layer = pygame.Surface((size, size), pygame.SRCALPHA)
            self.draw_disc(layer, (size / 2, size / 2), radius, side)
            layer.set_alpha(alpha)
            surface.blit(layer, (center[0] - size / 2, center[1] - size / 2))
            return
        cx, cy = round(center[0]), round(center[1])
        pygame.draw.circle(surface, fill, (cx, cy), radius)
        pygame.draw.aacircle(surface, _darker(fill), (cx, cy), radius, max(1, radius // 14))
        width = max(2, int(radius / 7 * self.palette.mark_weight))
        if side == MAX:
            pygame.draw.circle(surface, mark, (cx, cy), int(radius * 0.55), width)
        else:
            arm = radius * 0.42
            for dx in (-1, 1):
                pygame.draw.line(surface, mark, (cx - arm, cy - dx * arm), (cx + arm, cy + dx * arm), width + 1)


MARK_SHAPES = ("circle", "triangle", "square", "diamond")
"""The shapes a mark on a chart can take, so that no series or class is told by colour alone."""


def draw_mark(
    surface: pygame.Surface, shape: str, color: Color, center: tuple[float, float], radius: float, edge: Color
) -> None:
    """A filled mark of ``shape`` (one of ``MARK_SHAPES``) with an ``edge`` outline."""
    x, y = center
    r = max(2.0, radius)
    if shape == "circle":
        pygame.draw.circle(surface, color, (x, y), r)
        pygame.draw.circle(surface, edge, (x, y), r, 1)
        return
    if shape == "triangle":
        points = [(x, y - r * 1.15), (x - r * 1.1, y + r * 0.8), (x + r * 1.1, y + r * 0.8)]
    elif shape == "square":
        points = [
            (x - r * 0.9, y - r * 0.9),
            (x + r * 0.9, y - r * 0.9),
            (x + r * 0.9, y + r * 0.9),
            (x - r * 0.9, y + r * 0.9),
        ]
    else:
        points = [(x, y - r * 1.2), (x + r * 1.2, y), (x, y + r * 1.2), (x - r * 1.2, y)]
    pygame.draw.polygon(surface, color, points)
    pygame.draw.polygon(surface, edge, points, 1)


def _surface_bytes(image: pygame.Surface) -> int:
    return image.get_width() * image.get_height() * image.get_bytesize()


def _darker(color: Color, factor: float = 0.7) -> Color:
    return tuple(int(c * factor) for c in color)  # type: ignore[return-value]


def pulse(t: float, period: float = 1.2) -> float:
    """A 0..1 wave for glowing things."""
    return 0.5 + 0.5 * math.sin(2 * math.pi * t / period)
