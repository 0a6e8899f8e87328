"""Exact results of solved positions: one type, seen from either side, put into words here.

Connect Four on the standard board is solved, so a position's exact result is a fact:
who wins with perfect play (or a draw) and, where it was found, how far away the winning
disc is.  ``ExactScore`` holds that fact from player 1's (MAX's) side, as python-chess's
``PovScore`` holds a mate; every front end (window, CLI, tree overlay) carries it and
asks this module for its words, so "you win in 3 moves" is worded in this file only.

    exact = ExactScore.from_score(score, grid, to_move)  # the solver's benchmark score
    exact.winner          # MAX, MIN, or DRAW (0)
    exact.plies           # plies to the winning disc (None: a draw, or not found)
    exact.winner_moves    # the winner's own moves to the end, the winning disc included
    exact.pov(MIN)        # +1 / 0 / -1 for that side
    exact.value           # on the ``ai.values`` scale (MAX's side)
    verdict(exact, {MAX: "you", MIN: "the computer"})  # "you win in 3 moves with perfect play"

The benchmark convention (``ai.solver``): a score is from the side to move; a win is
``cells / 2 + 1`` minus the winner's discs when the game ends (22 minus them on 6x7), a loss
the negative of that, a draw 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ai.values import WIN, is_win_value, plies_to_end
from game.i18n import _, ngettext
from game.rules import MAX, MIN

DRAW = 0


def winner_discs_left(score: int, own_discs: int, opponent_discs: int, cells: int) -> int:
    """For a non-zero benchmark score, the discs the winner still plays, the winning one
    included (the one definition of the moves-to-end arithmetic)."""
    winner_discs_at_end = cells // 2 + 1 - abs(score)
    return winner_discs_at_end - (own_discs if score > 0 else opponent_discs)


@dataclass(frozen=True)
class ExactScore:
    """A solved position's result from MAX's side: the winner and the plies to its win.

    ``winner`` is ``MAX``, ``MIN`` or ``DRAW``; ``plies`` counts the plies from this
    position to the winning disc, that disc included (1: the side to move wins with its
    next disc); it is None for a draw and for a win whose distance was not worked out.
    """

    winner: int
    plies: int | None = None

    @classmethod
    def from_score(cls, score: int, grid: np.ndarray, to_move: int) -> ExactScore:
        """The result of a benchmark score ``score`` of ``to_move`` in ``grid``."""
        grid = np.asarray(grid)
        return cls.from_counts(score, int((grid == to_move).sum()), int((grid == -to_move).sum()), to_move, grid.size)

    @classmethod
    def from_counts(cls, score: int, own_discs: int, other_discs: int, to_move: int, cells: int) -> ExactScore:
        """The result of a benchmark score ``score`` of ``to_move``, who has ``own_discs``
        on a board of ``cells`` where the other side has ``other_discs``."""
        if score == 0:
            return cls(DRAW)
        discs = winner_discs_left(score, own_discs, other_discs, cells)
        plies = 2 * discs - 1 if score > 0 else 2 * discs  # the winner moves first when it is to move
        return cls(to_move if score > 0 else -to_move, max(plies, 0))

    @classmethod
    def from_first_player_score(cls, score: int, plies_played: int, cells: int = 42) -> ExactScore:
        """The result of a benchmark score told from player 1's side after ``plies_played``
        plies (a game's evaluation graph), whoever is to move."""
        to_move = MAX if plies_played % 2 == 0 else MIN
        first, second = (plies_played + 1) // 2, plies_played // 2
        own, other = (first, second) if to_move == MAX else (second, first)
        return cls.from_counts(score * to_move, own, other, to_move, cells)

    @classmethod
    def from_outcome(cls, outcome: int, to_move: int) -> ExactScore:
        """A result known only as an outcome (1 win, 0 draw, -1 loss for ``to_move``)."""
        return cls(DRAW if outcome == 0 else (to_move if outcome > 0 else -to_move))

    @classmethod
    def from_value(cls, value: int) -> ExactScore | None:
        """The result a proven search value states (``ai.values``), or None for a heuristic."""
        if not is_win_value(value):
            return None
        return cls(MAX if value > 0 else MIN, plies_to_end(value))

    @property
    def is_draw(self) -> bool:
        return self.winner == DRAW

    @property
    def winner_moves(self) -> int | None:
        """The winner's own moves to the end, the winning disc included (None if unknown)."""
        return None if self.plies is None else (self.plies + 1) // 2

    def pov(self, side: int) -> int:
        """The outcome for ``side``: 1 a win, 0 a draw, -1 a loss."""
        return 0 if self.is_draw else (1 if self.winner == side else -1)

    def after(self, plies: int = 1) -> ExactScore:
        """The same result ``plies`` plies later along perfect play (the distance shrinks)."""
        if self.plies is None:
            return self
        return ExactScore(self.winner, max(self.plies - plies, 0))

    def score(self, to_move: int, grid: np.ndarray) -> int:
        """Back to the benchmark convention: the score of ``to_move`` in ``grid``."""
        if self.is_draw:
            return 0
        if self.plies is None:
            raise ValueError("a win without its distance has no benchmark score")
        grid = np.asarray(grid)
        winner_discs = int((grid == self.winner).sum()) + self.winner_moves  # type: ignore[operator]
        magnitude = grid.size // 2 + 1 - winner_discs
        return magnitude * self.pov(to_move)

    @property
    def value(self) -> int:
        """On the ``ai.values`` scale from MAX's side; an unknown distance counts as the
        longest possible (``WIN - 1000`` would overstate it), so it stays a win value."""
        if self.is_draw:
            return 0
        plies = self.plies if self.plies is not None else 999
        return (WIN - plies) * self.winner

    def __str__(self) -> str:
        return verdict(self, {MAX: "player 1", MIN: "player 2"})


# -- words: the one place an exact result is said -----------------------------------------
# In the language in use (game.i18n); "you" takes sentences of its own, as most languages
# bend the verb for it.


def is_you(name: str) -> bool:
    """Whether ``name`` is the player themself ("you", in English or the language in use)."""
    return name.lower() in ("you", _("you").lower())


def verdict(exact: ExactScore, names: Mapping[int, str]) -> str:
    """The result in words, naming the sides by ``names`` ({MAX: ..., MIN: ...}).

    "you win in 3 moves with perfect play" (the winner's 3rd own move from now is the
    winning one), "the computer wins with perfect play" (distance not found), "a draw
    with perfect play".
    """
    if exact.is_draw:
        return _("a draw with perfect play")
    name = names[exact.winner]
    moves = exact.winner_moves
    if moves is None:
        said = _("you win with perfect play") if is_you(name) else _("{name} wins with perfect play")
    elif is_you(name):
        said = ngettext(
            "you win in {moves} move with perfect play", "you win in {moves} moves with perfect play", moves
        )
    else:
        said = ngettext(
            "{name} wins in {moves} move with perfect play", "{name} wins in {moves} moves with perfect play", moves
        )
    return said.format(name=name, moves=moves)


def standing(exact: ExactScore, names: Mapping[int, str]) -> str:
    """How the game stands, as a status headline: "You can force a win in 3 moves",
    "The computer can force a win (perfect play)", "A draw with perfect play"."""
    if exact.is_draw:
        return _("A draw with perfect play")
    name = names[exact.winner]
    moves = exact.winner_moves
    if moves is None:
        text = _("You can force a win (perfect play)") if is_you(name) else _("{name} can force a win (perfect play)")
    elif is_you(name):
        text = ngettext("You can force a win in {moves} move", "You can force a win in {moves} moves", moves)
    else:
        text = ngettext("{name} can force a win in {moves} move", "{name} can force a win in {moves} moves", moves)
    text = text.format(name=name, moves=moves)
    return text[0].upper() + text[1:]


def column_label(exact: ExactScore, mover: int) -> str:
    """A column's badge for the side about to play it: "win 3" (the mover wins with its
    3rd move from now), "lose 5" (the other side wins with its 5th), "draw".  Counted in
    the winner's own moves, as the hint says it; never "W3", the tree's plies."""
    if exact.is_draw:
        return _("draw")
    moves = exact.winner_moves
    if exact.winner == mover:
        return _("win") if moves is None else _("win {moves}").format(moves=moves)
    return _("lose") if moves is None else _("lose {moves}").format(moves=moves)


def column_key(mover_name: str, other_name: str) -> str:
    """What the column badges count, said for the side to move."""
    if is_you(mover_name):
        text = _(
            'Column scores, perfect play: "win 3" = you win with your 3rd move from now; '
            '"lose 5" = {other} wins with its 5th.'
        )
    else:
        text = _(
            'Column scores, perfect play: "win 3" = {mover} wins with their 3rd move from now; '
            '"lose 5" = {other} wins with their 5th.'
        )
    return text.format(mover=mover_name, other=other_name)
