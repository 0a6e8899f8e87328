"""What the explainer hands back: one immutable ``Explanation`` and the values inside it.

This module is light (no solver, no numba, no numpy): the window reads explanations the
worker made, and ``ai.explain.words`` turns them into sentences.  Columns are 0-based in
code (1-based where a person reads them); a square is a column and a row counted 1..6
from the bottom, written ``c3`` as the game writes cells without gravity
(``game.notation.format_cell``).  Sides are ``MAX`` (player 1) and ``MIN`` (player 2).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from game.notation import format_cell
from game.rules import STANDARD

WIN, DRAW, LOSS = 1, 0, -1
"""Outcomes for a side: what it gets with perfect play (a loss is only ever the other side's win)."""


@dataclass(frozen=True, order=True)
class Square:
    """A cell of the standard board: ``col`` 0..6 (a..g), ``row`` 1..6 counted from the bottom."""

    col: int
    row: int

    @property
    def name(self) -> str:
        """``c3``: the column letter and the row from the bottom (``a1`` the bottom-left)."""
        return format_cell((STANDARD.rows - self.row, self.col), STANDARD)

    @property
    def is_odd(self) -> bool:
        """On an odd row (1, 3, 5): player 1's rows in the endgame; the even ones are player 2's."""
        return self.row % 2 == 1

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Threat:
    """An empty square that would complete a line of four for ``side`` (whether or not it
    can be played yet).  Odd threats serve player 1, even ones player 2 (Allis)."""

    side: int
    square: Square


class Rule(enum.Enum):
    """Allis's nine strategic rules (1988); ``ai.explain.rules`` writes each once."""

    CLAIMEVEN = "claimeven"
    BASEINVERSE = "baseinverse"
    VERTICAL = "vertical"
    AFTEREVEN = "aftereven"
    LOWINVERSE = "lowinverse"
    HIGHINVERSE = "highinverse"
    BASECLAIM = "baseclaim"
    BEFORE = "before"
    SPECIALBEFORE = "specialbefore"


@dataclass(frozen=True)
class RuleUse:
    """One rule holding some squares of a strategy: the pairs it answers with (claimeven,
    vertical, baseinverse) or the line it makes sure of (aftereven, before, specialbefore)."""

    rule: Rule
    squares: tuple[Square, ...]


@dataclass(frozen=True)
class Strategy:
    """A follow-up strategy in pairs of squares, checked before it was handed out.

    ``after`` are the columns played first (0-based), from the position explained,
    alternately starting with its side to move; then ``side``'s opponent is to move and
    ``side`` follows the pairs: win at once if it can; otherwise, when the opponent's disc
    fills one square of a pair, take the other square.  ``claim`` is what
    following it gets ``side`` against every reply to the end of the game: ``WIN``, or at
    least a ``DRAW``.  ``uses`` say which rule holds which squares; ``wins_at`` the squares
    where ``side`` completes a line in the checked play.  ``forced`` is the zugzwang, where
    the win is one: the squares the opponent has to play sooner or later, each right under
    a threat of ``side`` standing when the pairs start (``side`` never plays them), so that
    every checked game ends with one of them.  ``positions`` is how many positions the
    check visited.
    """

    side: int
    after: tuple[int, ...]
    pairs: tuple[tuple[Square, Square], ...]
    claim: int
    uses: tuple[RuleUse, ...] = ()
    wins_at: tuple[Square, ...] = ()
    forced: tuple[Square, ...] = ()
    positions: int = 0

    @property
    def follow_up_only(self) -> bool:
        """Every pair is two squares of one column (and there is one): the side answers in
        the column played."""
        return bool(self.pairs) and all(a.col == b.col for a, b in self.pairs)

    @property
    def taken(self) -> tuple[Square, ...]:
        """The squares ``side`` is sure to get if the game reaches them: the upper square of
        every pair within a column (the opponent must fill the lower one first)."""
        return tuple(sorted(b for a, b in self.pairs if a.col == b.col))

    def partner(self, square: Square) -> Square | None:
        """The other square of ``square``'s pair, or None."""
        for a, b in self.pairs:
            if a == square:
                return b
            if b == square:
                return a
        return None


class ReasonKind(enum.Enum):
    """The documented kinds of reason (docs/why-it-wins.md); the values are the JSON's words."""

    WINS_NOW = "wins_now"
    """The side to move completes a line with this disc."""
    ONLY_MOVE = "only_move"
    """The opponent threatens to win at one playable square: every other column loses at once."""
    DOUBLE_THREAT = "double_threat"
    """Two threats the other side cannot both stop (two playable ones, or one above another)."""
    FORCED_WIN = "forced_win"
    """A win of at most ``FORCED_PLIES`` plies, every reply answered (the line shows one)."""
    ZUGZWANG = "zugzwang"
    """A checked strategy of same-column pairs only: row parity decides who plays under whom."""
    STRATEGY = "strategy"
    """A checked strategy that also pairs squares of different columns (baseinverse)."""
    REFUTATION = "refutation"
    """Why a move loses value: what it handed over, and the opponent's proved answer."""
    NO_SIMPLE_REASON = "no_simple_reason"
    """Nothing above was proved (the exact result is still the solver's)."""


FORCED_PLIES = 7
"""The longest forced line called short: a win within this many plies, every reply answered."""


class Cause(enum.Enum):
    """What a move that loses value did wrong, where it is one of these."""

    PLAYS_UNDER_THREAT = "plays_under_threat"
    """The disc lands right under the opponent's threat: the opponent wins there at once."""
    LEAVES_THREAT = "leaves_threat"
    """The opponent threatened to win at a playable square and the move did not block it."""
    GIVES_UP_SQUARE = "gives_up_square"
    """The disc lands right under the mover's own threat: the opponent can now take it."""


@dataclass(frozen=True)
class Reason:
    """Why a side gets what it gets, of one ``kind``.

    ``side`` is the side whose result the reason proves and ``outcome`` what it proves for
    it (``WIN``, or at least a ``DRAW``).  ``squares`` are the key squares: where it wins
    now, the threat it must block, the two threats, the square a mistake handed over.
    ``column`` is the column the reason is about (0-based): the move that makes a double
    threat, the only move, the move refuted; None where it is about no one move (a double
    threat already standing).  ``line`` is a forced line (0-based columns from the position
    explained), ``strategy`` a checked strategy; a refutation says its ``cause`` and the
    reason of the position after the move (``then``, from the opponent's side).
    """

    kind: ReasonKind
    side: int
    outcome: int
    squares: tuple[Square, ...] = ()
    line: tuple[int, ...] | None = None
    strategy: Strategy | None = None
    cause: Cause | None = None
    then: Reason | None = None
    column: int | None = None

    @property
    def proved(self) -> bool:
        """Whether the reason is a proof: every kind but "no simple reason"; a refutation when
        its cause wins at once for the opponent or its answer is proved."""
        if self.kind is ReasonKind.NO_SIMPLE_REASON:
            return False
        if self.kind is ReasonKind.REFUTATION:
            immediate = self.cause in (Cause.PLAYS_UNDER_THREAT, Cause.LEAVES_THREAT)
            return immediate or (self.then is not None and self.then.proved)
        return True


@dataclass(frozen=True)
class Explanation:
    """The exact verdict of a position on the standard board and why.

    ``result`` is the outcome for ``to_move`` with perfect play, ``score`` the solver's
    exact score of its best column (the benchmark convention of ``ai.solver``), ``scores``
    every column's, ``moves`` the columns that keep the result (0-based, left to right).
    ``move`` is the column explained when a move was asked about (``explain_move``), else
    None; then ``reason`` is about that move.  ``threats`` lists both sides' threats, for
    drawing and words.  ``discs`` are the position's cells as ``(player 1's, player 2's)``
    squares, so an explanation can be drawn without the grid.
    """

    to_move: int
    result: int
    score: int
    moves: tuple[int, ...]
    reason: Reason
    threats: tuple[Threat, ...] = ()
    move: int | None = None
    move_score: int | None = None
    scores: dict[int, int] = field(default_factory=dict, compare=False)
    discs: tuple[tuple[Square, ...], tuple[Square, ...]] = ((), ())

    @property
    def proved(self) -> bool:
        return self.reason.proved
