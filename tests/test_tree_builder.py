"""Trees you build (``game.learn.tree_builder``): the textbook's alpha-beta judges the learner's cuts.

``ai.textbook_tree`` runs ``ai.textbook.maximize`` itself on a built tree; here, over
seeded random trees of every depth and branching the builder allows, its value is the
minimax value, its cuts are those of an alpha-beta written out again below, pruning off
enters every node, and the builder's verdict on a set of marks is exactly right.
"""

from __future__ import annotations

import random

import pytest

from ai.textbook_tree import alpha_beta, minimax_value, subtree
from game.learn.tree_builder import (
    EXERCISES,
    MAX_LEAVES,
    BuilderError,
    ExerciseKind,
    TreeBuilder,
    all_paths,
    judge,
    judgement_lines,
    leaves,
    ordered,
    random_tree,
    same_tree_reordered,
)

SHAPES = [(depth, branching) for depth in (2, 3, 4) for branching in (2, 3, 4)]


def reference_cuts(tree) -> tuple[int, set[tuple[int, ...]]]:
    """Alpha-beta written out again (fail-hard, MAX at the root): the value and the cut
    branches (children of entered nodes that were never entered)."""
    entered: set[tuple[int, ...]] = set()

    def search(node, path, alpha, beta, max_to_move):
        entered.add(path)
        if isinstance(node, int):
            return node
        best = -(10**9) if max_to_move else 10**9
        for index, child in enumerate(node):
            value = search(child, (*path, index), alpha, beta, not max_to_move)
            if max_to_move:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    value = search(tree, (), -(10**9), 10**9, True)
    cut = set()
    for path in entered:
        node = subtree(tree, path)
        if isinstance(node, tuple):
            cut |= {(*path, index) for index in range(len(node)) if (*path, index) not in entered}
    return value, cut


def random_trees(count: int, seed: int):
    rng = random.Random(seed)
    for number in range(count):
        depth, branching = SHAPES[number % len(SHAPES)]
        yield random_tree(depth, branching, rng)


def test_the_textbooks_alpha_beta_on_random_trees_is_minimax_and_cuts_what_alpha_beta_cuts():
    for tree in random_trees(300, seed=50):
        run = alpha_beta(tree)
        value, cut = reference_cuts(tree)
        assert run.value == value == minimax_value(tree)
        assert run.cut == cut
        assert run.values[()] == run.value and set(run.values) == set(run.entered)
        full = alpha_beta(tree, pruning=False)
        assert full.value == run.value and not full.cut and list(full.entered) == all_paths(tree)
        assert full.leaves == leaves(tree) >= run.leaves


def test_the_verdict_on_marks_is_the_searchs_cuts_exactly():
    rng = random.Random(7)
    for tree in random_trees(120, seed=51):
        run = alpha_beta(tree)
        assert judge(tree, frozenset(run.cut)).all_right
        branches = [path for path in all_paths(tree) if path]
        extra = rng.choice([path for path in branches if path not in run.cut])
        wrong = judge(tree, frozenset(run.cut | {extra}))
        assert not wrong.all_right and wrong.wrong == {extra} and wrong.right == run.cut
        inside_cut = any(extra[: len(cut)] == cut for cut in run.cut)
        assert (extra in wrong.inside) == inside_cut
        if run.cut:
            missing = rng.choice(sorted(run.cut))
            missed = judge(tree, frozenset(run.cut - {missing}))
            assert missed.missed == {missing} and not missed.wrong


def test_the_best_order_looks_at_the_fewest_leaves_and_the_worst_at_the_most():
    rng = random.Random(3)
    for depth, branching in SHAPES:
        for _ in range(8):
            values = iter(rng.sample(range(-99, 100), MAX_LEAVES))  # distinct values: one best order
            shape = random_tree(depth, branching, rng)
            tree = _refilled(shape, values)
            best, worst = ordered(tree, best_first=True), ordered(tree, best_first=False)
            assert same_tree_reordered(tree, best) and same_tree_reordered(tree, worst)
            seen = alpha_beta(tree).leaves
            assert alpha_beta(best).leaves <= seen <= alpha_beta(worst).leaves
            assert alpha_beta(best).value == alpha_beta(worst).value == minimax_value(tree)


def _refilled(tree, values):
    return next(values) if isinstance(tree, int) else tuple(_refilled(child, values) for child in tree)


def test_random_trees_have_the_depth_asked_and_stay_readable():
    rng = random.Random(9)
    for depth, branching in SHAPES:
        for _ in range(40):
            tree = random_tree(depth, branching, rng)
            assert leaves(tree) <= MAX_LEAVES
            paths = all_paths(tree)
            assert max(len(path) for path in paths) == depth
            inner = [subtree(tree, path) for path in paths if isinstance(subtree(tree, path), tuple)]
            assert all(2 <= len(node) <= branching for node in inner)
            assert all(len(path) == depth for path in paths if isinstance(subtree(tree, path), int))


def test_editing_clears_the_marks_and_refuses_what_would_not_fit():
    rng = random.Random(1)
    builder = TreeBuilder(((3, 12, 8), (2, 4, 6)))
    builder.toggle_mark((1, 1))
    builder.check()
    builder.set_value((1, 1), -42)
    assert builder.tree == ((3, 12, 8), (2, -42, 6)) and not builder.marks and builder.judgement is None
    with pytest.raises(BuilderError, match="-99 to 99"):
        builder.set_value((0, 0), 100)
    with pytest.raises(BuilderError, match="only a leaf"):
        builder.set_value((0,), 5)
    builder.add_move((), rng)
    assert len(builder.tree) == 3 and all(isinstance(leaf, int) for leaf in builder.tree[2])
    builder.remove_move((0,))
    assert builder.tree[0] == (3, 12)
    with pytest.raises(BuilderError, match="at least 2"):
        builder.remove_move((0,))
    added = builder.tree[2]
    builder.shift((2,), -2)  # the search's order: the new move first, the shortened one last
    assert builder.tree == (added, (2, -42, 6), (3, 12))
    with pytest.raises(BuilderError, match="at that end"):
        builder.shift((0,), -1)
    big = TreeBuilder(random_tree(4, 2, rng))
    with pytest.raises(BuilderError, match="at most 32 leaves"):
        for _ in range(20):
            big.add_move((0, 0), rng) if len(big.node((0, 0))) < 4 else big.add_move((0,), rng)
            big.add_move((1,), rng) if len(big.node((1,))) < 4 else big.add_move((1, 1), rng)
    assert leaves(big.tree) <= MAX_LEAVES


def test_every_exercise_has_a_checked_answer_the_given_tree_does_not_already_meet():
    for number, exercise in enumerate(EXERCISES):
        builder = TreeBuilder.of_exercise(number)
        builder.check()
        if exercise.kind is ExerciseKind.MARK_CUTS:
            assert not builder.exercise_done()  # no marks yet
            run = alpha_beta(exercise.tree)
            assert run.cut, exercise.key
            for path in run.cut:
                builder.toggle_mark(path)
            builder.check()
            assert builder.exercise_done() and "Exercise solved." in builder.exercise_lines()
            with pytest.raises(BuilderError, match="gives the tree"):
                builder.set_value((0, 0), 1)
        else:
            assert builder.exercise_done() is False, exercise.key  # the order as given does not do it
            builder.order(best_first=exercise.goal > 0)
            builder.check()
            assert builder.exercise_done(), exercise.key
            with pytest.raises(BuilderError, match="gives the tree"):
                builder.add_move((), random.Random(0))


def test_an_order_exercise_is_not_solved_by_changing_the_tree():
    number = next(n for n, e in enumerate(EXERCISES) if e.kind is ExerciseKind.ORDER and e.goal > 0)
    builder = TreeBuilder.of_exercise(number)
    builder.tree = ((9, 9, 9), (1, 1, 1), (2, 2, 2))  # not the given tree, however few leaves it takes
    builder.check()
    assert builder.exercise_done() is False


def test_the_verdict_says_the_value_the_cuts_and_the_marks():
    builder = TreeBuilder(((3, 12, 8), (2, 4, 6), (14, 5, 2)))
    builder.toggle_mark((1, 1))
    builder.toggle_mark((2, 1))
    lines = judgement_lines(builder.check())
    assert lines[0] == "Alpha-beta gives the root the value 3 and looks at 7 of the leaves."
    assert "It cuts 2 branches." in lines
    assert "You marked 1 of them; 1 missed, 1 marked that it does not cut." in lines
