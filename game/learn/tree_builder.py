"""Trees you build: a small game tree, your prediction of alpha-beta's cuts, and the verdict.

The learner builds a tree (depth 2 to 4, 2 to 4 moves a node, at most ``MAX_LEAVES``
leaves so every value stays readable), types or draws its leaves' values, reorders moves,
and marks the branches they expect alpha-beta to cut.  ``check`` runs the textbook's own
alpha-beta on the tree (``ai.textbook_tree``: ``ai.textbook.maximize`` on the built tree)
and compares: the cuts marked right, the cuts missed, the marks that are wrong.  Any edit
of the tree clears the marks and the verdict (a mark names a branch of the tree as it was).

``EXERCISES`` are trees with a task and a checked answer: mark every cut, or order the
moves so that alpha-beta looks at no more than a number of leaves.  Pure data and rules,
no pygame: the window's scene (``game.app.scenes.tree_builder``) draws a ``TreeBuilder``
and feeds it the learner's edits.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from ai.textbook_tree import AlphaBetaRun, GameTree, Path, alpha_beta, minimax_value, subtree, tree_height
from game.i18n import N_, _, ngettext

MIN_DEPTH, MAX_DEPTH = 2, 4
MIN_BRANCHING, MAX_BRANCHING = 2, 4
MAX_LEAVES = 32
"""The most leaves a built tree may have: each value stays readable across the window."""
VALUE_LIMIT = 99
"""Typed values run from -99 to 99."""
RANDOM_VALUES = (-9, 9)
"""Values drawn at random: one digit, either sign."""


class BuilderError(ValueError):
    """An edit the builder refuses (too many leaves, too few moves, a value out of range)."""


def uniform_tree(depth: int, branching: int, rng: random.Random) -> GameTree:
    """A tree with ``branching`` moves at every node, ``depth`` plies, random leaf values."""
    if depth == 0:
        return rng.randint(*RANDOM_VALUES)
    return tuple(uniform_tree(depth - 1, branching, rng) for _ in range(branching))


def random_tree(depth: int, branching: int, rng: random.Random) -> GameTree:
    """A tree ``depth`` plies deep, 2 to ``branching`` moves a node (drawn), at most
    ``MAX_LEAVES`` leaves, random leaf values: the whole of ``branching`` where it fits."""
    if branching**depth <= MAX_LEAVES:
        return uniform_tree(depth, branching, rng)

    def grow(plies: int, budget: int) -> GameTree:
        """A subtree ``plies`` deep with at most ``budget`` leaves."""
        if plies == 0:
            return rng.randint(*RANDOM_VALUES)
        least = MIN_BRANCHING ** (plies - 1)  # the fewest leaves a child's subtree has
        count = rng.randint(MIN_BRANCHING, min(branching, budget // least))
        children = []
        for index in range(count):
            room = budget - least * (count - index - 1)  # what is left once the later children have their least
            share = budget // (count - index)
            child = grow(plies - 1, max(least, rng.randint(min(share, room), room)))
            budget -= leaves(child)
            children.append(child)
        return tuple(children)

    return grow(depth, MAX_LEAVES)


def leaves(tree: GameTree) -> int:
    """The leaves of ``tree``."""
    return 1 if isinstance(tree, int) else sum(leaves(child) for child in tree)


def all_paths(tree: GameTree, path: Path = ()) -> list[Path]:
    """Every node's path, the root first, depth first in move order."""
    found = [path]
    if isinstance(tree, tuple):
        for index, child in enumerate(tree):
            found += all_paths(child, (*path, index))
    return found


def replaced(tree: GameTree, path: Path, new: GameTree) -> GameTree:
    """``tree`` with the node at ``path`` replaced by ``new``."""
    if not path:
        return new
    assert isinstance(tree, tuple)
    head, rest = path[0], path[1:]
    return tuple(replaced(child, rest, new) if index == head else child for index, child in enumerate(tree))


def ordered(tree: GameTree, *, best_first: bool, max_to_move: bool = True) -> GameTree:
    """``tree`` with every node's moves sorted by their minimax value: the best for the side
    to move first (``best_first``: the most cuts alpha-beta can make), or the worst first."""
    if isinstance(tree, int):
        return tree
    children = [ordered(child, best_first=best_first, max_to_move=not max_to_move) for child in tree]
    children.sort(key=lambda child: minimax_value(child, not max_to_move), reverse=best_first == max_to_move)
    return tuple(children)


@dataclass(frozen=True)
class Judgement:
    """The verdict on the marks: alpha-beta's run, and the marks right, missed and wrong
    (``inside``: wrong marks below a cut branch, never reached anyway)."""

    run: AlphaBetaRun
    right: frozenset[Path]
    missed: frozenset[Path]
    wrong: frozenset[Path]
    inside: frozenset[Path]

    @property
    def all_right(self) -> bool:
        return not self.missed and not self.wrong


def judge(tree: GameTree, marks: frozenset[Path]) -> Judgement:
    """Compare ``marks`` with the cuts of the textbook's alpha-beta on ``tree``."""
    run = alpha_beta(tree)
    wrong = marks - run.cut
    inside = frozenset(mark for mark in wrong if any(mark[: len(cut)] == cut for cut in run.cut))
    return Judgement(run, marks & run.cut, run.cut - marks, wrong, inside)


def judgement_lines(judgement: Judgement) -> list[str]:
    """The verdict in sentences."""
    run = judgement.run
    lines = [
        _("Alpha-beta gives the root the value {value} and looks at {leaves} of the leaves.").format(
            value=run.value, leaves=run.leaves
        )
    ]
    cuts = len(run.cut)
    if not cuts:
        lines.append(_("It cuts nothing here: every branch can still change the root's value."))
    else:
        lines.append(ngettext("It cuts {count} branch.", "It cuts {count} branches.", cuts).format(count=cuts))
    if judgement.all_right:
        lines.append(_("Your marks are exactly its cuts."))
        return lines
    lines.append(
        _("You marked {right} of them; {missed} missed, {wrong} marked that it does not cut.").format(
            right=len(judgement.right), missed=len(judgement.missed), wrong=len(judgement.wrong)
        )
    )
    if judgement.inside:
        lines.append(_("A branch inside a cut branch is never reached anyway: mark the top of the cut."))
    return lines


class ExerciseKind(enum.Enum):
    """What an exercise asks."""

    MARK_CUTS = "mark cuts"  # mark every branch alpha-beta cuts in the tree as given
    ORDER = "order"  # order the moves so alpha-beta looks at no more than ``goal`` leaves


@dataclass(frozen=True)
class TreeExercise:
    """A tree and a task with a checked answer (``goal``: the leaves an ORDER may look at)."""

    key: str
    task: str
    tree: GameTree
    kind: ExerciseKind
    goal: int = 0


EXERCISES: tuple[TreeExercise, ...] = (
    TreeExercise(
        "textbook",
        N_("The textbook's tree: mark every branch alpha-beta cuts, searching left to right."),
        ((3, 12, 8), (2, 4, 6), (14, 5, 2)),
        ExerciseKind.MARK_CUTS,
    ),
    TreeExercise(
        "three plies",
        N_("Three plies: MAX, MIN, MAX. Mark every branch alpha-beta cuts, a whole subtree included."),
        (((4, 7), (2, 9)), ((1, 3), (8, 6)), ((5, 2), (0, 9))),
        ExerciseKind.MARK_CUTS,
    ),
    TreeExercise(
        "deep cutoff",
        N_("Four plies: a cut can come from a bound set far above. Mark every cut."),
        ((((6, 3), (5, 8)), ((1, 4), (7, 2))), (((9, 0), (3, 6)), ((2, 5), (8, 1)))),
        ExerciseKind.MARK_CUTS,
    ),
    TreeExercise(
        "best first",
        N_("Reorder the moves (the same tree) so that alpha-beta looks at no more than {goal} leaves."),
        ((2, 4, 6), (14, 5, 2), (3, 12, 8)),
        ExerciseKind.ORDER,
        goal=7,
    ),
    TreeExercise(
        "worst first",
        N_("Now the other way: order the moves so that alpha-beta cuts nothing at all (all {goal} leaves)."),
        ((5, 1, 9), (7, 6, 8), (2, 3, 4)),
        ExerciseKind.ORDER,
        goal=-9,
    ),
)
"""The builder's exercises, in order (a negative ``goal``: at least that many leaves)."""


def exercise_task(exercise: TreeExercise) -> str:
    return _(exercise.task).format(goal=abs(exercise.goal))


def same_tree_reordered(tree: GameTree, other: GameTree) -> bool:
    """Whether ``other`` is ``tree`` with only the order of moves changed."""
    if isinstance(tree, int) or isinstance(other, int):
        return tree == other
    if len(tree) != len(other):
        return False
    left = list(other)
    for child in tree:
        match = next((index for index, candidate in enumerate(left) if same_tree_reordered(child, candidate)), None)
        if match is None:
            return False
        left.pop(match)
    return True


class TreeBuilder:
    """The learner's tree and marks, edited a step at a time (every edit clears the marks
    and the verdict); ``exercise`` is the task being done, if any."""

    def __init__(self, tree: GameTree, exercise: TreeExercise | None = None):
        if isinstance(tree, int):
            raise BuilderError("a game tree needs moves at its root")
        self.tree: tuple[GameTree, ...] = tree
        self.exercise = exercise
        self.marks: set[Path] = set()
        self.judgement: Judgement | None = None

    @classmethod
    def of_exercise(cls, number: int) -> TreeBuilder:
        exercise = EXERCISES[number]
        return cls(exercise.tree, exercise)

    @property
    def depth(self) -> int:
        return tree_height(self.tree)

    @property
    def editable(self) -> bool:
        """Whether values and shape may change (not during an exercise: its tree is given)."""
        return self.exercise is None

    @property
    def reorderable(self) -> bool:
        return self.exercise is None or self.exercise.kind is ExerciseKind.ORDER

    def node(self, path: Path) -> GameTree:
        return subtree(self.tree, path)

    def _changed(self, tree: GameTree) -> None:
        assert isinstance(tree, tuple)  # every edit keeps moves at the root
        self.tree = tree
        self.marks.clear()
        self.judgement = None

    # -- editing ---------------------------------------------------------------------------
    def set_value(self, path: Path, value: int) -> None:
        """Give the leaf at ``path`` the value ``value``."""
        self._need(self.editable)
        if not isinstance(self.node(path), int):
            raise BuilderError(_("only a leaf has a value of its own"))
        if not -VALUE_LIMIT <= value <= VALUE_LIMIT:
            raise BuilderError(_("a value runs from -{limit} to {limit}").format(limit=VALUE_LIMIT))
        self._changed(replaced(self.tree, path, value))

    def add_move(self, path: Path, rng: random.Random) -> None:
        """Give the inner node at ``path`` one more move (a subtree as deep as its siblings)."""
        self._need(self.editable)
        node = self.node(path)
        if isinstance(node, int):
            raise BuilderError(_("a leaf has no moves: add a move to the node above it"))
        if len(node) >= MAX_BRANCHING:
            raise BuilderError(_("at most {count} moves a node").format(count=MAX_BRANCHING))
        child = uniform_tree(tree_height(node) - 1, MIN_BRANCHING, rng)
        if leaves(self.tree) + leaves(child) > MAX_LEAVES:
            raise BuilderError(_("at most {count} leaves: the tree would not stay readable").format(count=MAX_LEAVES))
        self._changed(replaced(self.tree, path, (*node, child)))

    def remove_move(self, path: Path) -> None:
        """Take the last move of the inner node at ``path`` away."""
        self._need(self.editable)
        node = self.node(path)
        if isinstance(node, int):
            raise BuilderError(_("a leaf has no moves: take one from the node above it"))
        if len(node) <= MIN_BRANCHING:
            raise BuilderError(_("at least {count} moves a node").format(count=MIN_BRANCHING))
        self._changed(replaced(self.tree, path, node[:-1]))

    def shift(self, path: Path, step: int) -> None:
        """Move the node at ``path`` ``step`` places among its siblings (the search's order)."""
        self._need(self.reorderable)
        if not path:
            raise BuilderError(_("the root has no siblings: choose one of its moves"))
        parent = self.node(path[:-1])
        assert isinstance(parent, tuple)
        index, other = path[-1], path[-1] + step
        if not 0 <= other < len(parent):
            raise BuilderError(_("it is already at that end"))
        children = list(parent)
        children[index], children[other] = children[other], children[index]
        self._changed(replaced(self.tree, path[:-1], tuple(children)))

    def order(self, *, best_first: bool) -> None:
        """Sort every node's moves, the best for the side to move first (or the worst)."""
        self._need(self.reorderable)
        self._changed(ordered(self.tree, best_first=best_first))

    def _need(self, allowed: bool) -> None:
        if not allowed:
            raise BuilderError(_("this exercise gives the tree: only marks (and, where asked, the order) change"))

    # -- predicting and checking -----------------------------------------------------------
    def toggle_mark(self, path: Path) -> None:
        """Mark the branch into ``path`` as cut, or unmark it."""
        if not path:
            raise BuilderError(_("the root is no branch: mark a move"))
        if path not in all_paths(self.tree):
            raise BuilderError(_("there is no such branch in this tree"))
        self.marks ^= {path}
        self.judgement = None

    def check(self) -> Judgement:
        """Judge the marks against the textbook's alpha-beta on the tree."""
        self.judgement = judge(self.tree, frozenset(self.marks))
        return self.judgement

    def exercise_done(self) -> bool | None:
        """Whether the exercise's task is done (None: no exercise, or not checked yet)."""
        exercise, judgement = self.exercise, self.judgement
        if exercise is None or judgement is None:
            return None
        if exercise.kind is ExerciseKind.MARK_CUTS:
            return judgement.all_right
        if not same_tree_reordered(exercise.tree, self.tree):
            return False
        seen = judgement.run.leaves
        return seen <= exercise.goal if exercise.goal > 0 else seen >= -exercise.goal

    def exercise_lines(self) -> list[str]:
        """What the check says of the exercise."""
        done, exercise = self.exercise_done(), self.exercise
        if done is None or exercise is None:
            return []
        if exercise.kind is ExerciseKind.MARK_CUTS:
            return [_("Exercise solved.") if done else _("Not yet: look again at the cuts above.")]
        seen = self.judgement.run.leaves if self.judgement else 0
        if done:
            return [_("Exercise solved: alpha-beta looked at {seen} leaves.").format(seen=seen)]
        return [_("Not yet: alpha-beta looked at {seen} leaves. Try putting other moves first.").format(seen=seen)]
