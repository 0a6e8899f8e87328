"""Puzzle themes: the classifier on hand-picked puzzles (``tests/data/puzzle_themes.txt``),
for each theme one where it holds and one where it must not be given, and the shipped set
(every puzzle has a theme, every theme has 15 puzzles, the themes are the classifier's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ai.explain.explanation import ReasonKind
from ai.puzzle_themes import LONG_STEPS, classify, explain_puzzle
from game.learn.puzzle_set import shipped_puzzles
from game.puzzle_file import Goal, Theme, read_puzzles
from game.rules import MAX, MIN

PICKED = {p.id: p for p in read_puzzles(Path(__file__).parent / "data" / "puzzle_themes.txt")}

HOLDS_AND_NOT = {
    Theme.WIN_NOW: ("2b68c08f", "546f23d6"),  # one step and every reply leaves a four / a three-step win
    Theme.FORCED_WIN: ("0ab8f460", "3bc55ca8"),  # a forced line / a win by zugzwang, no short line
    Theme.DOUBLE_THREAT: ("0ab8f460", "546f23d6"),  # the second step makes two threats / a forced line
    Theme.ONLY_MOVE: ("3a233748", "5643ddac"),  # a later step blocks a four / a draw held without a block
    Theme.ODD_THREAT: ("3bc55ca8", "8102d2da"),  # player 1 wins on row 5 / player 2 wins on an even row
    Theme.EVEN_THREAT: ("8102d2da", "3bc55ca8"),
    Theme.ZUGZWANG: ("8102d2da", "546f23d6"),  # the loser must play under the threat / a forced line
    Theme.FOLLOW_UP: ("5643ddac", "2b68c08f"),  # the draw held by pairs / a plain one-step win
    Theme.SAVE_THE_DRAW: ("5643ddac", "2b68c08f"),
    Theme.LONG_COMBINATION: ("546f23d6", "0ab8f460"),  # three steps / two
}


def test_every_theme_has_a_puzzle_where_it_holds_and_one_where_it_must_not():
    assert set(HOLDS_AND_NOT) == set(Theme)


@pytest.mark.parametrize("theme", list(Theme), ids=lambda t: t.value)
def test_a_theme_is_given_where_it_holds_and_not_where_it_does_not(theme):
    holds, lacks = (PICKED[ident] for ident in HOLDS_AND_NOT[theme])
    assert theme in classify(holds), holds.id
    assert theme not in classify(lacks), lacks.id


def test_the_hand_picked_puzzles_get_the_themes_written_beside_them():
    assert len(PICKED) == 10
    for puzzle in PICKED.values():
        assert classify(puzzle) == puzzle.themes, puzzle.id


def test_what_the_themes_rest_on():
    """The reasons behind a few themes, read from the explainer directly."""
    win_now = explain_puzzle(PICKED["2b68c08f"])
    assert len(win_now.right) == 1 and win_now.right[0].kind in (ReasonKind.FORCED_WIN, ReasonKind.DOUBLE_THREAT)
    assert win_now.right[0].line is not None and len(win_now.right[0].line) <= 3
    odd = explain_puzzle(PICKED["3bc55ca8"])
    assert odd.player == MAX and odd.right[0].kind is ReasonKind.ZUGZWANG
    assert any(square.is_odd for square in odd.right[0].strategy.wins_at)
    even = explain_puzzle(PICKED["8102d2da"])
    assert even.player == MIN and not any(square.is_odd for square in even.right[0].strategy.wins_at)
    block = explain_puzzle(PICKED["3a233748"])
    assert [r.kind for r in block.right][1:] == [ReasonKind.ONLY_MOVE]
    # a draw whose lesson is in its refutations: most wrong moves lose to player 1's odd threat
    lost = explain_puzzle(PICKED["f7b44226"])
    assert lost.goal is Goal.DRAW and lost.player == MIN
    zugzwangs = [r for r in lost.wrong if r.then is not None and r.then.kind is ReasonKind.ZUGZWANG]
    assert 2 * len(zugzwangs) >= len(lost.wrong) - sum(r.cause is not None for r in lost.wrong)


# -- the shipped set --------------------------------------------------------------------------
MIN_THEME = 15


def test_every_shipped_puzzle_has_a_theme_and_every_theme_at_least_15_puzzles():
    puzzles = shipped_puzzles()
    assert all(p.themes for p in puzzles)
    counts = {theme: sum(theme in p.themes for p in puzzles) for theme in Theme}
    assert min(counts.values()) >= MIN_THEME, counts
    assert all((Theme.SAVE_THE_DRAW in p.themes) == (p.goal is Goal.DRAW) for p in puzzles)
    assert all((Theme.LONG_COMBINATION in p.themes) == (len(p.steps) >= LONG_STEPS) for p in puzzles)


@pytest.mark.slow  # every shipped puzzle classified again
def test_the_shipped_themes_are_the_classifiers():
    """Every tenth shipped puzzle classified again (the whole set took the maker minutes)."""
    for puzzle in shipped_puzzles()[::10]:
        assert classify(puzzle) == puzzle.themes, puzzle.id
