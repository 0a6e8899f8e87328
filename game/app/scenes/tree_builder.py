"""Trees you build (a lesson of the course): build a small game tree, mark where you expect
alpha-beta to cut, and let the textbook's alpha-beta judge (``game.learn.tree_builder``).

The tree is drawn top down: MAX's nodes as triangles pointing up, MIN's pointing down,
leaves as boxes with their values.  A marked branch carries a cross; after the check each
node the search entered shows the value it returned, the branches it cut are drawn as
broken lines with a double bar, and each mark is ringed (right) or struck (wrong), each
missed cut labelled.  The check runs in this process: it is the textbook's twelve lines on
at most 32 leaves, microseconds, not AI work for the worker.

Controls:
- click a branch, or X: mark it as cut (again: unmark); click a node, or arrows: choose it
- digits, -, Backspace: the chosen leaf's value; + / =: one more move at the chosen node,
  Delete: one fewer; , and .: move the chosen node left or right among its siblings
- Enter: check; O / W: every node's moves best first / worst first
- R: a new random tree; D / B: its depth / moves a node (2 to 4)
- E: the next exercise; F: free building; Esc: back
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pygame

from ai.textbook_tree import GameTree, Path
from ai.values import INF
from game.app.scene import Scene
from game.app.tree.draw import node_shape
from game.app.widgets import Button, display_size, row_rects
from game.i18n import N_, _
from game.learn.tree_builder import (
    EXERCISES,
    MAX_BRANCHING,
    MAX_DEPTH,
    MIN_BRANCHING,
    MIN_DEPTH,
    BuilderError,
    TreeBuilder,
    all_paths,
    exercise_task,
    judgement_lines,
    random_tree,
)

BRANCH_REACH = 9
"""Pixels from a branch within which a click marks it."""


def bound_text(value: int) -> str:
    """A bound as the textbook writes it: a number, or plus or minus infinity."""
    return _("+infinity") if value >= INF else _("-infinity") if value <= -INF else str(value)


class TreeBuilderScene(Scene):
    """Trees you build: free building, or exercise ``exercise`` (0-based) of ``EXERCISES``."""

    name = "tree builder"

    def __init__(self, exercise: int | None = None, seed: int | None = None):
        super().__init__()
        self.rng = random.Random(seed)
        self.depth, self.branching = 2, 3
        self.builder = TreeBuilder.of_exercise(exercise) if exercise is not None else self.fresh()
        self.exercise = exercise
        self.selected: Path = (0,)
        self.typed = ""  # the digits typed into the chosen leaf

    def fresh(self) -> TreeBuilder:
        return TreeBuilder(random_tree(self.depth, self.branching, self.rng))

    # -- actions -----------------------------------------------------------------------------
    def attempt(self, edit: Callable[[], None]) -> None:
        """Run an edit of the builder; a refused one is said in a toast."""
        try:
            edit()
        except BuilderError as error:
            self.app.show_toast(str(error), 3.0)
        self.app.dirty = True

    def new_tree(self) -> None:
        self.exercise = None
        self.builder = self.fresh()
        self.selected, self.typed = (0,), ""
        self.app.dirty = True

    def next_exercise(self) -> None:
        self.exercise = 0 if self.exercise is None else (self.exercise + 1) % len(EXERCISES)
        self.builder = TreeBuilder.of_exercise(self.exercise)
        self.selected, self.typed = (0,), ""
        self.app.dirty = True

    def check(self) -> None:
        judgement = self.builder.check()
        done = self.builder.exercise_done()
        self.app.sounds.play("win" if done or (done is None and judgement.all_right) else "click")
        self.app.speak(" ".join(judgement_lines(judgement) + self.builder.exercise_lines()))
        self.app.dirty = True

    def type_key(self, key: int, text: str) -> None:
        """A digit, minus or Backspace for the chosen leaf's value."""
        if not isinstance(self.builder.node(self.selected), int):
            self.app.show_toast(_("Choose a leaf (a box at the bottom) to type its value"), 3.0)
            return
        typed = self.typed
        if key == pygame.K_BACKSPACE:
            typed = typed[:-1]
        elif text == "-":
            typed = typed[1:] if typed.startswith("-") else "-" + typed
        elif len(typed.lstrip("-")) < 2:
            typed += text
        value = int(typed) if typed.lstrip("-") else 0
        self.attempt(lambda: self.builder.set_value(self.selected, value))
        self.typed = typed

    def choose(self, path: Path) -> None:
        if path != self.selected:
            self.selected, self.typed = path, ""
        self.app.dirty = True

    def walk(self, key: int) -> None:
        """Arrows: Up the parent, Down the first move, Left/Right the neighbour on this row."""
        path = self.selected
        if key == pygame.K_UP and path:
            self.choose(path[:-1])
        elif key == pygame.K_DOWN and isinstance(self.builder.node(path), tuple):
            self.choose((*path, 0))
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            row = [p for p in all_paths(self.builder.tree) if len(p) == len(path)]
            if path in row:
                self.choose(row[(row.index(path) + (1 if key == pygame.K_RIGHT else -1)) % len(row)])

    # -- input -------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.handle_key(event.key, getattr(event, "unicode", ""))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            size = display_size()
            for button in self.buttons(size):
                if button.handle_event(event):
                    self.app.sounds.play("click")
                    return
            self.click(event.pos, size)

    def handle_key(self, key: int, text: str) -> None:
        builder = self.builder
        actions: dict[int, Callable[[], None]] = {
            pygame.K_ESCAPE: self.app.pop,
            pygame.K_RETURN: self.check,
            pygame.K_KP_ENTER: self.check,
            pygame.K_r: self.new_tree,
            pygame.K_e: self.next_exercise,
            pygame.K_f: self.new_tree,
            pygame.K_d: lambda: self.reshape(depth=True),
            pygame.K_b: lambda: self.reshape(depth=False),
            pygame.K_x: lambda: self.attempt(lambda: builder.toggle_mark(self.selected)),
            pygame.K_o: lambda: self.attempt(lambda: builder.order(best_first=True)),
            pygame.K_w: lambda: self.attempt(lambda: builder.order(best_first=False)),
            pygame.K_COMMA: lambda: self.shift(-1),
            pygame.K_PERIOD: lambda: self.shift(1),
            pygame.K_DELETE: lambda: self.attempt(lambda: builder.remove_move(self.selected)),
        }
        if key in actions:
            actions[key]()
        elif text in ("+", "="):
            self.attempt(lambda: builder.add_move(self.selected, self.rng))
        elif key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT):
            self.walk(key)
        elif (text.isdigit() and text.isascii()) or text == "-" or key == pygame.K_BACKSPACE:
            self.type_key(key, text)
        self.app.dirty = True

    def reshape(self, *, depth: bool) -> None:
        """D / B: the next depth or number of moves a node, and a new random tree of that shape."""
        if depth:
            self.depth = MIN_DEPTH + (self.depth - MIN_DEPTH + 1) % (MAX_DEPTH - MIN_DEPTH + 1)
        else:
            self.branching = MIN_BRANCHING + (self.branching - MIN_BRANCHING + 1) % (MAX_BRANCHING - MIN_BRANCHING + 1)
        self.new_tree()

    def shift(self, step: int) -> None:
        """, and .: move the chosen node among its siblings; the choice follows it."""
        path = self.selected

        def move() -> None:
            self.builder.shift(path, step)
            self.selected = (*path[:-1], path[-1] + step)

        self.attempt(move)

    def click(self, pos: tuple[int, int], size: tuple[int, int]) -> None:
        """A click near a branch marks it; on a node, chooses it."""
        places = self.places(size)
        node = min(places, key=lambda p: math.dist(places[p], pos))
        if math.dist(places[node], pos) <= self.radius(size) * 1.4:
            self.choose(node)
            return
        near = [(segment_distance(pos, places[path[:-1]], places[path]), path) for path in places if path]
        distance, branch = min(near)
        if distance <= BRANCH_REACH:
            self.choose(branch)
            self.attempt(lambda: self.builder.toggle_mark(branch))

    # -- layout ------------------------------------------------------------------------------
    def unit(self, size: tuple[int, int]) -> int:
        return max(24, min(40, size[1] // 18))

    def tree_area(self, size: tuple[int, int]) -> pygame.Rect:
        w, h = size
        row = self.unit(size)
        margin = max(14, w // 40)
        top = int(row * 3.0)
        return pygame.Rect(margin, top, w - 2 * margin, int(h * 0.62) - top)

    def radius(self, size: tuple[int, int]) -> float:
        area = self.tree_area(size)
        levels = self.builder.depth + 1
        leaves = sum(1 for path in all_paths(self.builder.tree) if isinstance(self.builder.node(path), int))
        return max(6.0, min(area.height / levels * 0.22, area.width / max(leaves, 1) * 0.32, 18.0))

    def places(self, size: tuple[int, int]) -> dict[Path, tuple[float, float]]:
        """Each node's centre: leaves evenly across, an inner node above its moves' middle."""
        area = self.tree_area(size)
        tree = self.builder.tree
        leaf_paths = [path for path in all_paths(tree) if isinstance(self.builder.node(path), int)]
        pitch = area.width / len(leaf_paths)
        level = area.height / max(1, self.builder.depth)
        found: dict[Path, tuple[float, float]] = {}
        for index, path in enumerate(leaf_paths):
            found[path] = (area.left + pitch * (index + 0.5), area.top + level * len(path) - level * 0.25)

        def place(node: GameTree, path: Path) -> float:
            if isinstance(node, int):
                return found[path][0]
            xs = [place(child, (*path, index)) for index, child in enumerate(node)]
            found[path] = ((xs[0] + xs[-1]) / 2, area.top + level * len(path) + level * 0.15)
            return found[path][0]

        place(tree, ())
        return found

    def buttons(self, size: tuple[int, int]) -> list[Button]:
        w, h = size
        row = self.unit(size)
        margin = max(14, w // 40)
        specs: list[tuple[str, Callable[[], None], str]] = [
            (N_("Check"), self.check, "Enter"),
            (N_("New tree"), self.new_tree, "R"),
            (N_("Best first"), lambda: self.attempt(lambda: self.builder.order(best_first=True)), "O"),
            (N_("Worst first"), lambda: self.attempt(lambda: self.builder.order(best_first=False)), "W"),
            (N_("Exercise"), self.next_exercise, "E"),
            (N_("Back"), self.app.pop, "Esc"),
        ]
        area = pygame.Rect(margin, h - int(row * 1.4), w - 2 * margin, row)
        buttons = []
        for (label, action, key), rect in zip(specs, row_rects(area, len(specs), 8)):
            button = Button(label, action, key_hint=key)
            button.rect = rect
            buttons.append(button)
        return buttons

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        size = surface.get_size()
        w, h = size
        row = self.unit(size)
        margin = max(14, w // 40)
        surface.fill(p.background)
        title, title_size = theme.fitted(
            _("Trees you build: where does alpha-beta cut?"), row * 0.8, w - 2 * margin, bold=True
        )
        theme.text(surface, title, title_size, (margin, row * 0.4), bold=True)
        said = self.task_line()
        y = row * 1.5
        for line in theme.wrap(said, row * 0.5, w - 2 * margin):
            theme.text(surface, line, row * 0.5, (margin, y), color=p.muted)
            y += theme.pitch(row * 0.5, row * 0.62)
        self.draw_tree(surface, size)
        text_top = self.tree_area(size).bottom + row * 0.6
        bottom = h - row * 1.6
        lines = self.info_lines()
        text = max(12.0, row * 0.5)
        while text > 11 and len(self.wrapped(lines, text, w - 2 * margin)) * theme.pitch(text, text * 1.25) > (
            bottom - text_top
        ):
            text -= 0.5
        for line, colour in self.wrapped(lines, text, w - 2 * margin):
            if text_top + theme.font(text).get_height() > bottom:
                break
            theme.text(surface, line, text, (margin, text_top), color=colour)
            text_top += theme.pitch(text, text * 1.25)
        for button in self.buttons(size):
            button.draw(surface, theme)

    def wrapped(
        self, lines: list[tuple[str, tuple[int, int, int]]], size: float, width: int
    ) -> list[tuple[str, tuple[int, int, int]]]:
        theme = self.app.theme
        return [(part, colour) for text, colour in lines for part in theme.wrap(text, size, width)]

    def task_line(self) -> str:
        if self.exercise is not None:
            return _("Exercise {number} of {count}: {task}").format(
                number=self.exercise + 1, count=len(EXERCISES), task=exercise_task(EXERCISES[self.exercise])
            )
        return _(
            "Your tree: depth {depth}, up to {moves} moves a node (D, B). Click the branches you expect "
            "alpha-beta to cut, then Enter. MAX moves at the top."
        ).format(depth=self.builder.depth, moves=self.branching)

    def info_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Under the tree: the verdict, the exercise's, and the chosen node."""
        p = self.app.theme.palette
        lines: list[tuple[str, tuple[int, int, int]]] = []
        judgement = self.builder.judgement
        if judgement is not None:
            colour = p.good if judgement.all_right else p.warning
            lines += [(line, colour) for line in judgement_lines(judgement)]
            done = self.builder.exercise_done()
            lines += [(line, p.good if done else p.warning) for line in self.builder.exercise_lines()]
        else:
            marks = len(self.builder.marks)
            lines.append((_("Branches marked as cut: {count}. Enter checks them.").format(count=marks), p.text))
        lines.append((self.node_line(), p.text))
        lines.append(
            (
                _(
                    "Keys: click or X marks a branch · digits, - type a leaf's value · + / Delete add or "
                    "remove a move · , . reorder · arrows choose"
                ),
                p.muted,
            )
        )
        return lines

    def node_line(self) -> str:
        """The chosen node: what it is, and (after the check) how the search met it."""
        path = self.selected
        node = self.builder.node(path)
        side = _("MAX") if len(path) % 2 == 0 else _("MIN")
        if isinstance(node, int):
            said = _("Chosen: a leaf worth {value}").format(value=node)
        else:
            said = _("Chosen: a {side} node with {count} moves").format(side=side, count=len(node))
        judgement = self.builder.judgement
        if judgement is not None:
            run = judgement.run
            if path in run.values:
                alpha, beta = run.windows[path]
                said += " · " + _("searched with alpha {alpha}, beta {beta}; it returned {value}").format(
                    alpha=bound_text(alpha), beta=bound_text(beta), value=run.values[path]
                )
            else:
                said += " · " + _("never reached: cut above")
        return said

    def draw_tree(self, surface: pygame.Surface, size: tuple[int, int]) -> None:
        theme = self.app.theme
        p = theme.palette
        places = self.places(size)
        radius = self.radius(size)
        judgement = self.builder.judgement
        run = judgement.run if judgement is not None else None
        entered = set(run.entered) if run is not None else set(places)
        marks = self.builder.marks
        label = max(10.0, min(radius * 1.1, 16.0))
        for path in places:  # the branches first, under the nodes
            if not path:
                continue
            start, end = places[path[:-1]], places[path]
            cut = run is not None and path in run.cut
            colour = p.muted if path not in entered else p.text
            if cut:
                draw_dashed(surface, colour, start, end)
                draw_cut_bar(surface, p.warning if judgement and path in judgement.missed else p.muted, start, end)
            else:
                pygame.draw.line(surface, colour, start, end, 2)
            middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
            if path in marks:
                right = judgement is not None and path in judgement.right
                wrong = judgement is not None and path in judgement.wrong
                draw_cross(surface, p.good if right else p.warning if wrong else p.accent, middle, 7)
                if right:  # ringed: a mark alpha-beta agrees with
                    pygame.draw.circle(surface, p.good, middle, 12, 2)
                if wrong:  # struck through and said: a mark where alpha-beta does not cut
                    pygame.draw.line(
                        surface, p.warning, (middle[0] - 12, middle[1] + 9), (middle[0] + 12, middle[1] - 9), 2
                    )
            said = None
            if judgement is not None and path in judgement.missed:
                said = _("missed")
            elif judgement is not None and path in judgement.wrong:
                said = _("not cut")
            if said is not None:  # beside the branch, on whichever side keeps it inside the window
                width = theme.font(label * 0.85).size(said)[0]
                right = middle[0] + 12 + width <= surface.get_width() - 4
                spot, anchor = (
                    ((middle[0] + 12, middle[1]), "midleft") if right else ((middle[0] - 12, middle[1]), "midright")
                )
                theme.text(surface, said, label * 0.85, spot, color=p.warning, anchor=anchor)
        for path, (x, y) in places.items():
            node = self.builder.node(path)
            faded = path not in entered
            self.draw_node(surface, path, node, (x, y), radius, faded, label)
            if run is not None and path in run.values and isinstance(node, tuple):
                value = str(run.values[path])
                spot = (x + radius * 1.6 + 3, y)  # clear of the ring round the chosen node
                theme.text(surface, value, label, spot, color=p.accent, anchor="midleft", bold=True)

    def draw_node(
        self,
        surface: pygame.Surface,
        path: Path,
        node: GameTree,
        centre: tuple[float, float],
        radius: float,
        faded: bool,
        label: float,
    ) -> None:
        theme = self.app.theme
        p = theme.palette
        x, y = centre
        max_node = len(path) % 2 == 0
        colour = p.muted if faded else (p.max_node if max_node else p.min_node)
        if isinstance(node, int):
            text, size = theme.fitted(str(node), label, radius * 3.1)  # at most the space between two leaves
            width, height = theme.font(size).size(text)
            box = pygame.Rect(0, 0, round(max(radius * 2.2, width + 6)), round(max(radius * 1.6, height + 2)))
            box.center = (round(x), round(y))
            pygame.draw.rect(surface, p.panel, box, border_radius=3)
            pygame.draw.rect(surface, colour, box, 2, border_radius=3)
            theme.text(surface, text, size, box.center, color=p.muted if faded else p.text, anchor="center")
        else:
            points = node_shape(x, y, radius, max_node)  # the tree overlay's triangles: MAX up, MIN down
            pygame.draw.polygon(surface, colour, points)
            pygame.draw.polygon(surface, p.text, points, 1)
        if path == self.selected:
            pygame.draw.circle(surface, p.text, (round(x), round(y)), round(radius * 1.55), 2)


def segment_distance(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """Pixels from ``point`` to the segment from ``a`` to ``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((point[0] - ax) * dx + (point[1] - ay) * dy) / length))
    return math.dist(point, (ax + t * dx, ay + t * dy))


def draw_dashed(
    surface: pygame.Surface, colour: tuple[int, int, int], a: tuple[float, float], b: tuple[float, float]
) -> None:
    """A broken line: a branch alpha-beta never followed."""
    length = math.dist(a, b)
    steps = max(2, int(length / 8))
    for index in range(0, steps, 2):
        t0, t1 = index / steps, min(1.0, (index + 1) / steps)
        start = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        end = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(surface, colour, start, end, 2)


def draw_cut_bar(
    surface: pygame.Surface, colour: tuple[int, int, int], a: tuple[float, float], b: tuple[float, float]
) -> None:
    """Two short bars across a branch, a third of the way down: where alpha-beta cut it."""
    length = max(1.0, math.dist(a, b))
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    for offset in (-3, 3):
        cx, cy = a[0] + (b[0] - a[0]) * 0.33 + ux * offset, a[1] + (b[1] - a[1]) * 0.33 + uy * offset
        pygame.draw.line(surface, colour, (cx - uy * 8, cy + ux * 8), (cx + uy * 8, cy - ux * 8), 3)


def draw_cross(surface: pygame.Surface, colour: tuple[int, int, int], centre: tuple[float, float], size: float) -> None:
    """A cross: the learner's mark on a branch."""
    x, y = centre
    pygame.draw.line(surface, colour, (x - size, y - size), (x + size, y + size), 3)
    pygame.draw.line(surface, colour, (x - size, y + size), (x + size, y - size), 3)
