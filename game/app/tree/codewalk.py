"""The textbook code beside the replay: which line of ``ai/textbook.py`` runs at each step.

``code_steps(tree)`` turns a tree recorded by ``ai.textbook.textbook_search`` into the
line-by-line run of ``maximize`` / ``minimize``: one step per line Python executes in
them (the ``for`` line once per child and once more when the moves run out), each with
the node being searched, the path of calls down to it and the function's locals as they
stand when the line starts (``alpha``, ``beta``, ``value``).  The lines are found in the
module's source at run time, so the panel can never drift from the code.  No pygame here.
"""

from __future__ import annotations

import enum
import inspect
from dataclasses import dataclass

from ai import textbook
from ai.tree import SearchTree, fmt_tree_value
from ai.values import INF
from game.app.tree.text import LEAF_WHY
from game.i18n import _, ngettext
from game.notation import format_move


class Line(enum.Enum):
    """The lines of ``maximize`` / ``minimize`` a step can be on, by what they do."""

    ENTER = "value = s.terminal_value(depth)"
    IS_LEAF = "if value is not None:"
    LEAF = "return value  # a leaf"
    START = "value = -INF"  # ``value = INF`` in minimize
    LOOP = "for move in s.board.legal_moves():"
    PUSH = "s.push(move)"
    CALL = "value = max(value, minimize("  # ``min``/``maximize`` in minimize
    POP = "s.pop()"
    RAISE = "alpha = max(alpha, value)"  # ``beta = min(beta, value)`` in minimize
    TEST = "if s.pruning and alpha >= beta:"
    CUTOFF = "break"
    RETURN = "return value"


_MIRROR = {Line.START: "value = INF", Line.CALL: "value = min(value, maximize(", Line.RAISE: "beta = min(beta, value)"}


@dataclass(frozen=True)
class CodeSource:
    """``ai/textbook.py`` as read at run time, and where each ``Line`` is in it."""

    lines: tuple[str, ...]  # the module's lines; line n is ``lines[n - 1]``
    first: int  # the first line worth showing (``maximize``'s decorator)
    last: int  # the last line of ``minimize``
    max_lines: dict[Line, int]
    min_lines: dict[Line, int]

    def line_of(self, kind: Line, is_max: bool) -> int:
        return (self.max_lines if is_max else self.min_lines)[kind]


def _find(code: list[str], start: int, kind: Line, is_max: bool) -> int:
    text = kind.value if is_max else _MIRROR.get(kind, kind.value)
    for offset, line in enumerate(code):
        stripped = line.strip()
        if kind is Line.RETURN and stripped != text:
            continue  # the function's last return, not the leaf's
        if stripped.startswith(text):
            return start + offset
    raise LookupError(_("ai/textbook.py no longer has the line {text!r}").format(text=text))


def read_source() -> CodeSource:
    """Read ``ai/textbook.py`` and find the lines of ``maximize`` and ``minimize``."""
    module_lines = tuple(inspect.getsource(textbook).splitlines())
    found = {}
    bounds = []
    for function, is_max in ((textbook.maximize, True), (textbook.minimize, False)):
        code, start = inspect.getsourcelines(inspect.unwrap(function))
        found[is_max] = {kind: _find(code, start, kind, is_max) for kind in Line}
        bounds.append((start, start + len(code) - 1))
    return CodeSource(module_lines, bounds[0][0], bounds[1][1], found[True], found[False])


@dataclass(frozen=True)
class CodeStep:
    """One executed line: where, in which node, with which locals (None: not yet set)."""

    line: int
    kind: Line
    node: int
    stack: tuple[int, ...]  # the nodes whose calls are open, the root first, ``node`` last
    alpha: int
    beta: int
    value: int | None


def code_steps(tree: SearchTree, source: CodeSource | None = None, limit: int = 200_000) -> list[CodeStep]:
    """The run of the textbook functions over ``tree``, one step per executed line.

    Raises:
        ValueError: the tree is incomplete, or its run would take more than ``limit`` steps.
    """
    if not tree.is_complete:
        raise ValueError(_("the tree was not stored whole: its code cannot be replayed"))
    if len(tree) * 8 > limit:
        raise ValueError(_("a tree of {count:,} nodes is too big to replay line by line").format(count=len(tree)))
    source = source or read_source()
    steps: list[CodeStep] = []

    def run(index: int, stack: tuple[int, ...]) -> int:
        node = tree.node(index)
        stack = stack + (index,)
        is_max = node.is_max
        alpha, beta = node.alpha_in, node.beta_in

        def emit(kind: Line, value: int | None) -> None:
            steps.append(CodeStep(source.line_of(kind, is_max), kind, index, stack, alpha, beta, value))

        emit(Line.ENTER, None)
        emit(Line.IS_LEAF, node.value if node.is_leaf else None)
        if node.is_leaf:
            emit(Line.LEAF, node.value)
            return node.value
        emit(Line.START, None)
        value = -INF if is_max else INF
        for child in tree.child_indices(index):
            emit(Line.LOOP, value)
            emit(Line.PUSH, value)
            emit(Line.CALL, value)
            child_value = run(child, stack)
            value = max(value, child_value) if is_max else min(value, child_value)
            emit(Line.POP, value)
            emit(Line.RAISE, value)
            if is_max:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            emit(Line.TEST, value)
            if tree.pruning and alpha >= beta:
                emit(Line.CUTOFF, value)
                break
        else:
            emit(Line.LOOP, value)  # the moves ran out
        emit(Line.RETURN, value)
        return value

    run(0, ())
    return steps


def _move_name(tree: SearchTree, index: int) -> str:
    move = tree.node(index).move
    return _("the root") if move is None else _("move {format_move}").format(format_move=format_move(move, tree.rules))


def step_sentence(tree: SearchTree, steps: list[CodeStep], at: int) -> str:
    """What the line of step ``at`` does, in one sentence a learner can follow."""
    step = steps[at]
    node = tree.node(step.node)
    side, other = ("MAX", "MIN") if node.is_max else ("MIN", "MAX")
    bound = "alpha" if node.is_max else "beta"
    kind = step.kind
    if kind is Line.ENTER:
        return _("{side} enters {move_name} with alpha {fmt_tree_value}, beta {fmt_tree_value2}").format(
            side=side,
            move_name=_move_name(tree, step.node),
            fmt_tree_value=fmt_tree_value(step.alpha),
            fmt_tree_value2=fmt_tree_value(step.beta),
        )
    if kind is Line.IS_LEAF:
        if node.is_leaf:
            return _("A leaf ({LEAF_WHY}): its value is {fmt_tree_value}").format(
                LEAF_WHY=_(LEAF_WHY[node.leaf_reason]), fmt_tree_value=fmt_tree_value(node.value)
            )
        return _("Not a leaf: the game goes on and the depth limit is not reached")
    if kind is Line.LEAF:
        return _("Return {fmt_tree_value} to the caller").format(fmt_tree_value=fmt_tree_value(node.value))
    if kind is Line.START:
        return _("No child searched yet: {side}'s value starts at {infinity}").format(
            side=side, infinity="-inf" if node.is_max else "+inf"
        )
    following = steps[at + 1] if at + 1 < len(steps) else None
    if kind is Line.LOOP:
        if following is not None and following.kind is Line.PUSH and at + 3 < len(steps):
            return _("Take the next legal move: {move_name}").format(move_name=_move_name(tree, steps[at + 3].node))
        return _("No legal move left: the loop ends")
    if kind is Line.PUSH:
        return _("Play the move on the board (one node deeper)")
    if kind is Line.CALL:
        callee = steps[at + 1].node if at + 1 < len(steps) else step.node
        return _(
            "Ask {other} for the value of {move_name}, with the window [{fmt_tree_value}, {fmt_tree_value2}]"
        ).format(
            other=other,
            move_name=_move_name(tree, callee),
            fmt_tree_value=fmt_tree_value(step.alpha),
            fmt_tree_value2=fmt_tree_value(step.beta),
        )
    if kind is Line.POP:
        return _("{side}'s best value so far is {fmt_tree_value}; take the move back").format(
            side=side, fmt_tree_value=fmt_tree_value(step.value or 0)
        )
    if kind is Line.RAISE:
        new = max(step.alpha, step.value or 0) if node.is_max else min(step.beta, step.value or 0)
        old = step.alpha if node.is_max else step.beta
        if new == old:
            return _("{bound} stays {fmt_tree_value}").format(bound=bound, fmt_tree_value=fmt_tree_value(old))
        return (
            _("{bound} rises from {old} to {new}") if node.is_max else _("{bound} falls from {old} to {new}")
        ).format(bound=bound, old=fmt_tree_value(old), new=fmt_tree_value(new))
    if kind is Line.TEST:
        closed = step.alpha >= step.beta
        if not tree.pruning:
            return _("Pruning is off: always search on")
        verdict = _("yes: the window is closed") if closed else _("no: search on")
        return _("alpha {fmt_tree_value} >= beta {fmt_tree_value2}? {verdict}").format(
            fmt_tree_value=fmt_tree_value(step.alpha), fmt_tree_value2=fmt_tree_value(step.beta), verdict=verdict
        )
    if kind is Line.CUTOFF:
        pruned = node.pruned_count
        return ngettext(
            "Cutoff: {other} above would never allow this line; {pruned} move not searched",
            "Cutoff: {other} above would never allow this line; {pruned} moves not searched",
            pruned,
        ).format(other=other, pruned=pruned)
    return _("Return {fmt_tree_value} to the caller").format(fmt_tree_value=fmt_tree_value(step.value or 0))
