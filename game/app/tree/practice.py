"""Practice, "you are alpha-beta": predict each node's value and its cutoffs, checked at once.

A practice is a depth-2 search of a real position: the root, its children (one row each)
and their children, the leaves, whose heuristic values are given.  Node by node in the
order the search finished them, the learner says how many moves of a row the search
skips (with pruning) and the row's value (``<=v`` / ``>=v`` when it is only a bound), then
the root's value.  Expected answers come from the recorded tree of the search being
practised, never from a second implementation; the leaves' values shown for the moves a
cutoff skipped come from the same position's recorded tree without pruning.  The trees
are recorded by the AI worker (``practice_asks``).  No pygame here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ai.tree import BoundKind, Node, SearchTree, fmt_bounded, fmt_tree_value
from game.app.tree.tree_fetch import TreeAsk
from game.board import Board
from game.i18n import N_, _, ngettext
from game.notation import format_move

DEPTH = 2
"""Plies of a practice: every leaf's value can be shown, every inner node asked."""


MAX_MOVES = 9
"""Moves at a node, at most, for a practice: its rows and columns must stay readable."""


def why_not_practice(board: Board) -> str | None:
    """Why ``board`` cannot be practised (too many moves, or over), or None if it can."""
    if board.is_game_over():
        return _("The game is over here: nothing to practise")
    widest = max(len(board.legal_moves()), max_reply_count(board))
    if widest > MAX_MOVES:
        return _(
            "Practice needs at most {MAX_MOVES} moves per position; this one has {widest} (try a board with gravity)"
        ).format(MAX_MOVES=MAX_MOVES, widest=widest)
    return None


def max_reply_count(board: Board) -> int:
    """The most replies any move of ``board`` allows."""
    most = 0
    for move in board.legal_moves():
        board.push(move)
        most = max(most, 0 if board.is_game_over() else len(board.legal_moves()))
        board.pop()
    return most


class Difficulty(enum.Enum):
    """How the practised search runs."""

    MINIMAX = N_("minimax only")
    PRUNING = N_("with pruning")  # the fast search's order: best moves first, many cutoffs
    BAD_ORDER = N_("with a bad move order")  # the textbook's left to right: fewer cutoffs


class Ask(enum.Enum):
    PRUNED = "pruned"
    VALUE = "value"


@dataclass(frozen=True)
class Cell:
    move: int
    value: int
    searched: bool  # False: a cutoff skipped it (its value is what the search never saw)


@dataclass(frozen=True)
class Row:
    """A child of the root and its children's leaf values, in the order the search tried them."""

    node: int  # index in the practised tree
    move: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Question:
    node: int
    ask: Ask
    expected: str
    prompt: str
    why: str  # one sentence, shown when the answer is wrong


@dataclass
class Practice:
    """A practice under way: its tree, rows, questions, and the answers so far."""

    tree: SearchTree
    difficulty: Difficulty
    rows: tuple[Row, ...]
    questions: tuple[Question, ...]
    at: int = 0
    score: int = 0
    results: list[tuple[Question, str, bool]] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.at >= len(self.questions)

    @property
    def question(self) -> Question | None:
        return None if self.done else self.questions[self.at]

    def answer(self, text: str) -> tuple[bool, str]:
        """Check ``text`` against the current question; move on.  Return (right, sentence)."""
        question = self.question
        if question is None:
            raise ValueError(_("the practice is over"))
        right = normalise(text) == normalise(question.expected)
        self.results.append((question, text, right))
        self.at += 1
        if right:
            self.score += 1
            return True, _("Right: {expected}.").format(expected=question.expected)
        return False, _("Not {value} but {expected}. {why}").format(
            value=text.strip() or _("blank"), expected=question.expected, why=question.why
        )

    def answered(self, node: int, ask: Ask) -> bool:
        return any(q.node == node and q.ask is ask for q, _, _ in self.results)


def normalise(text: str) -> str:
    """An answer as compared: no spaces, one case, ``=v`` read as ``v``, a leading ``+`` dropped from numbers."""
    text = "".join(text.split()).upper().replace("=<", "<=").replace("=>", ">=")
    sign = ""
    for mark in ("<=", ">="):
        if text.startswith(mark):
            sign, text = mark, text[len(mark) :]
    text = text.lstrip("=")
    if text.startswith("+") and text[1:].isdigit():
        text = text[1:]
    return sign + text


def practice_asks(board: Board, difficulty: Difficulty) -> list[TreeAsk]:
    """The trees a practice of ``board`` needs (depth ``DEPTH``), for the AI worker: the
    practised search's, then the textbook's without pruning (every leaf's value)."""
    if difficulty is Difficulty.PRUNING:
        practised = TreeAsk.of(board, DEPTH, pruning=True, textbook=False)
    else:
        practised = TreeAsk.of(board, DEPTH, pruning=difficulty is Difficulty.BAD_ORDER, textbook=True)
    return [practised, TreeAsk.of(board, DEPTH, pruning=False, textbook=True)]


def _values(nodes: list[Node]) -> str:
    return ", ".join(fmt_tree_value(node.value) for node in nodes)


def _pruned_why(child: Node, searched: list[Node], skipped: list[int], other: str) -> str:
    """Why a reply searched what it did: its window, and the moves a cutoff skipped."""
    window_side, window = ("alpha", child.alpha_in) if not child.is_max else ("beta", child.beta_in)
    if not skipped:
        said = _("{window_side} is {fmt_tree_value} here and no value reached it, so {other} tries every move")
        return said.format(window_side=window_side, fmt_tree_value=fmt_tree_value(window), other=other)
    said = ngettext(
        "{window_side} is {window} here, so after {value} {other} stops: the remaining {count} move is cut",
        "{window_side} is {window} here, so after {value} {other} stops: the remaining {count} moves are cut",
        len(skipped),
    )
    value = fmt_tree_value(searched[-1].value)
    return said.format(
        window_side=window_side, window=fmt_tree_value(window), value=value, other=other, count=len(skipped)
    )


def _value_why(child: Node, searched: list[Node], other: str) -> str:
    """How a reply's value comes from its children: the greatest or least, or only a bound."""
    if child.bound is BoundKind.EXACT:
        said = (
            _("{other} takes the greatest of {values}: {value}")
            if child.is_max
            else _("{other} takes the least of {values}: {value}")
        )
        return said.format(other=other, values=_values(searched), value=fmt_tree_value(child.value))
    said = _(
        "{other} stopped at {fmt_tree_value} before seeing every move, so the value is only a bound: {mark}{fmt_tree_value2}"
    )
    first, last = fmt_tree_value(searched[-1].value), fmt_tree_value(child.value)
    return said.format(other=other, fmt_tree_value=first, mark=child.bound.sign, fmt_tree_value2=last)


def build_practice(board: Board, difficulty: Difficulty, tree: SearchTree, full: SearchTree) -> Practice:
    """A practice on ``board``'s depth-2 ``tree`` (``board`` unfinished); ``full`` is the
    same position's tree without pruning (``practice_asks`` says which searches)."""
    leaf_of = {tuple(node.path()): node.value for node in full.iter_nodes() if node.ply == DEPTH}
    rules = tree.rules
    root = tree.root
    rows, questions = [], []
    side, other = ("MAX", "MIN") if root.is_max else ("MIN", "MAX")
    for child in root.children():
        move = child.move
        assert move is not None
        searched = child.children()
        tried = [c.move for c in searched]
        skipped = [m for m in child.board().legal_moves() if m not in tried] if not child.is_leaf else []
        cells = [Cell(c.move, c.value, True) for c in searched if c.move is not None]
        cells += [Cell(m, leaf_of[(move, m)], False) for m in skipped]
        rows.append(Row(child.index, move, tuple(cells)))
        if child.is_leaf:
            continue  # its value is the game's end: shown, not asked
        where = _("after {format_move}").format(format_move=format_move(move, rules))
        if tree.pruning:
            ask = _("{where}: how many moves does {other} skip?").format(where=where, other=other)
            questions.append(
                Question(child.index, Ask.PRUNED, str(len(skipped)), ask, _pruned_why(child, searched, skipped, other))
            )
        hint = _(" (only a bound? write <=v or >=v)") if tree.pruning else ""
        ask = _("{where}: {other}'s value?{hint}").format(where=where, other=other, hint=hint)
        expected = fmt_bounded(child.value, child.bound)
        questions.append(Question(child.index, Ask.VALUE, expected, ask, _value_why(child, searched, other)))
    if root.is_max:
        said = _("{side} takes the greatest of its children's values, {values}: {value}")
    else:
        said = _("{side} takes the least of its children's values, {values}: {value}")
    why = said.format(side=side, values=_values(root.children()), value=fmt_tree_value(root.value))
    ask = _("the root: {side}'s value?").format(side=side)
    questions.append(Question(0, Ask.VALUE, fmt_bounded(root.value, root.bound), ask, why))
    return Practice(tree, difficulty, tuple(rows), tuple(questions))
