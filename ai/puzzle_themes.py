"""A puzzle's themes, decided from the explainer's proved reasons (``ai.explain``).

The classifier explains, with ``explain_move``, every one of the player's right steps along
the line (why the one right column reaches the goal) and every wrong column of the first
step (its refutation: the opponent's proved answer).  The themes are pure functions of
those reasons, the goal and the line's length (``themes_of``), so the same puzzle always
gets the same themes: the explainer's work is counted in positions, never in time.

- **win now**: a win in one step: after the player's move every reply leaves a four (the
  line has one step);
- **forced win**: the first step's reason is a short forced win (a forced line or a double
  threat, at most ``FORCED_PLIES`` plies);
- **double threat**: a step of the player makes two threats one disc cannot both stop, or
  most of the wrong first moves are answered by the opponent's double threat;
- **only move**: at a later step the opponent threatens four at one square and the block
  is the only move (the step's reason is *only move*);
- **odd threat** / **even threat**: a checked winning strategy in the puzzle (the player's,
  or the opponent's after most of the wrong first moves) wins on an odd row for player 1,
  or on an even row for player 2 (Allis: odd threats serve player 1, even ones player 2);
- **zugzwang**: such a checked win is a zugzwang (pairs within columns only: in the end
  the loser has to play under the winner's threat);
- **follow-up strategy**: a step of the player is proved by a checked strategy of pairs
  (claimeven, baseinverse, vertical and the rules built on them), with or without a win;
- **save the draw**: the goal is the draw;
- **long combination**: the line has ``LONG_STEPS`` or more player steps.

"Most of the wrong first moves" counts the wrong columns that do not lose at once (a disc
right under the opponent's threat teaches nothing of the position): the theme holds when
at least half of them are answered that way.  Solver work: the puzzle maker, the worker's
search for the player's own puzzles and commands run it, never the window's frame loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ai.explain.explainer import explain_move
from ai.explain.explanation import FORCED_PLIES, WIN, Cause, Reason, ReasonKind
from ai.solver import Solver
from game.puzzle_file import Goal, Puzzle, Theme
from game.rules import MAX, MIN

LONG_STEPS = 3
"""Player steps from which a line is a long combination."""
STRATEGY_KINDS = (ReasonKind.ZUGZWANG, ReasonKind.STRATEGY)


@dataclass(frozen=True)
class PuzzleReasons:
    """What the explainer says about a puzzle: the reason of each right step (the
    player's, in the line's order) and the refutation of each wrong first-step column."""

    goal: Goal
    player: int
    right: tuple[Reason, ...]
    wrong: tuple[Reason, ...]


def explain_puzzle(
    puzzle: Puzzle, *, solver: Solver | None = None, should_stop: Callable[[], bool] | None = None
) -> PuzzleReasons:
    """Explain each right step of ``puzzle`` and each wrong column of its first step.

    Raises:
        SolverStopped: ``should_stop`` said so.
    """
    board = puzzle.board()
    player = board.to_move
    right: list[Reason] = []
    wrong: list[Reason] = []
    for index, move in enumerate(puzzle.line_moves):
        if index % 2 == 0:
            right.append(explain_move(board.grid, player, move, solver=solver, should_stop=should_stop).reason)
            if index == 0:
                for col in board.legal_moves():
                    if col != move:
                        explained = explain_move(board.grid, player, col, solver=solver, should_stop=should_stop)
                        wrong.append(explained.reason)
        board.push(move)
    return PuzzleReasons(puzzle.goal, player, tuple(right), tuple(wrong))


def classify(
    puzzle: Puzzle, *, solver: Solver | None = None, should_stop: Callable[[], bool] | None = None
) -> tuple[Theme, ...]:
    """The puzzle's themes, in ``Theme``'s order (see the module's docstring)."""
    return themes_of(explain_puzzle(puzzle, solver=solver, should_stop=should_stop))


def themes_of(reasons: PuzzleReasons) -> tuple[Theme, ...]:
    """The themes the reasons show, in ``Theme``'s order."""
    right, first = reasons.right, reasons.right[0]
    answers = _answers(reasons.wrong)
    wins = [r for r in (*right, *answers) if _checked_win(r)]
    found = {
        Theme.WIN_NOW: reasons.goal is Goal.WIN and len(right) == 1,
        Theme.FORCED_WIN: reasons.goal is Goal.WIN and _short_win(first),
        Theme.DOUBLE_THREAT: any(r.kind is ReasonKind.DOUBLE_THREAT for r in (*right, *answers)),
        Theme.ONLY_MOVE: any(r.kind is ReasonKind.ONLY_MOVE for r in right[1:]),
        Theme.ODD_THREAT: any(r.side == MAX and _wins_on(r, odd=True) for r in wins),
        Theme.EVEN_THREAT: any(r.side == MIN and _wins_on(r, odd=False) for r in wins),
        Theme.ZUGZWANG: any(r.kind is ReasonKind.ZUGZWANG for r in wins),
        Theme.FOLLOW_UP: any(r.strategy is not None and r.side == reasons.player for r in right),
        Theme.SAVE_THE_DRAW: reasons.goal is Goal.DRAW,
        Theme.LONG_COMBINATION: len(right) >= LONG_STEPS,
    }
    return tuple(theme for theme in Theme if found[theme])


def _answers(wrong: Sequence[Reason]) -> list[Reason]:
    """The opponent's proofs that answer most of the wrong first moves: a kind of answer
    counts when it answers at least half of the wrong columns that do not lose at once."""
    thought = [r for r in wrong if r.cause not in (Cause.PLAYS_UNDER_THREAT, Cause.LEAVES_THREAT)]
    answers = [r.then for r in thought if r.then is not None and r.then.proved]
    kept = []
    for answer in answers:
        alike = sum(_alike(answer, other) for other in answers)
        if 2 * alike >= len(thought):
            kept.append(answer)
    return kept


def _alike(one: Reason, other: Reason) -> bool:
    """Two answers of the same kind and the same parity of their winning squares."""
    return one.kind is other.kind and _parities(one) == _parities(other)


def _parities(reason: Reason) -> frozenset[bool]:
    return (
        frozenset(square.is_odd for square in reason.strategy.wins_at) if reason.strategy is not None else frozenset()
    )


def _checked_win(reason: Reason) -> bool:
    """A checked strategy that wins (a zugzwang, a strategy, or an only move followed by one)."""
    strategy = reason.strategy
    return strategy is not None and strategy.claim == WIN and reason.outcome == WIN


def _wins_on(reason: Reason, *, odd: bool) -> bool:
    """Whether the checked win completes its line on an odd (or even) row."""
    assert reason.strategy is not None
    return any(square.is_odd == odd for square in reason.strategy.wins_at)


def _short_win(reason: Reason) -> bool:
    """A forced line or a double threat of at most ``FORCED_PLIES`` plies for the player."""
    if reason.kind not in (ReasonKind.FORCED_WIN, ReasonKind.DOUBLE_THREAT) or reason.outcome != WIN:
        return False
    return reason.line is None or len(reason.line) <= FORCED_PLIES
