"""The explainer on hundreds of seeded positions: its verdicts are the solver's, and every
proof it hands out holds when checked again by code that shares none of its own.

Positions: seeded samples of the public benchmark files (end game and middle game, with
their exact scores).  Each strategy is played against every reply on ``game.board.Board``
(``tests/explain_check.py``), each forced line replayed and searched again by plain minimax.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from ai.explain.explainer import ExplainError, explain, explain_move
from ai.explain.explanation import DRAW, FORCED_PLIES, Explanation, Reason, ReasonKind
from ai.solver import Solver
from game.board import Board
from game.rules import STANDARD, Rules
from tests.explain_check import follows_to_the_end, forced_win, replay_line

DATA = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions"


def sample(name: str, count: int, seed: int) -> list[tuple[str, int]]:
    lines = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    picked = random.Random(seed).sample(lines, count)
    return [(moves, int(score)) for moves, score in picked]


END_GAME = sample("Test_L3_R1", 240, seed=49)
MIDDLE_GAME = sample("Test_L2_R1", 24, seed=49)


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


@pytest.fixture(scope="module")
def reference() -> Solver:
    """A solver of its own (not the explainer's shared one), to compare with."""
    return Solver(STANDARD)


@pytest.fixture(scope="module")
def explained() -> list[tuple[Board, int, Explanation]]:
    found = []
    for moves, score in END_GAME + MIDDLE_GAME:
        board = Board.from_moves(moves)
        found.append((board, score, explain(board.grid, board.to_move)))
    return found


def test_every_verdict_and_every_keeping_column_is_the_solvers(explained, reference):
    for board, score, explanation in explained:
        scores = reference.analyze(*reference.position(board.grid, board.to_move)).complete()
        assert explanation.score == score == max(scores.values()), board.moves_string()
        assert explanation.result == _sign(score)
        assert explanation.scores == scores
        keeping = tuple(sorted(col for col, s in scores.items() if _sign(s) == _sign(score)))
        assert explanation.moves == keeping, board.moves_string()


def test_the_sample_is_mostly_proved_with_every_kind_of_proof(explained):
    kinds = Counter(explanation.reason.kind for _, _, explanation in explained)
    proved = sum(explanation.proved for _, _, explanation in explained)
    assert proved >= 0.6 * len(explained), kinds
    for kind in (ReasonKind.DOUBLE_THREAT, ReasonKind.FORCED_WIN, ReasonKind.ONLY_MOVE):  # no file position wins now
        assert kinds[kind] >= 3, kinds
    assert kinds[ReasonKind.ZUGZWANG] + kinds[ReasonKind.STRATEGY] >= 30, kinds


def _holder_result(explanation: Explanation, reason: Reason) -> int:
    """What the position is worth to the reason's side, by the solver."""
    return explanation.result if reason.side == explanation.to_move else -explanation.result


def test_every_strategy_followed_against_every_reply_keeps_its_claim(explained):
    checked = 0
    for board, _, explanation in explained:
        strategy = explanation.reason.strategy
        if strategy is None:
            continue
        assert strategy.claim == explanation.reason.outcome
        assert _holder_result(explanation, explanation.reason) >= strategy.claim  # never more than the solver says
        assert follows_to_the_end(board, strategy), board.moves_string()
        checked += 1
    assert checked >= 30


def test_every_forced_line_is_legal_forced_and_ends_in_the_win(explained, reference):
    lines = 0
    for board, _, explanation in explained:
        reason = explanation.reason
        if reason.kind not in (ReasonKind.WINS_NOW, ReasonKind.DOUBLE_THREAT, ReasonKind.FORCED_WIN):
            assert reason.kind is ReasonKind.ONLY_MOVE or reason.line is None
            continue
        _check_line(board, reason, reference)
        lines += 1
    assert lines >= 30


def _check_line(board: Board, reason: Reason, reference: Solver, longest: int = FORCED_PLIES) -> None:
    """Legal, forced (minimax again), ended by the reason's side, each of its discs keeping
    the win; at most ``longest`` plies."""
    assert reason.line is not None and 1 <= len(reason.line) <= longest
    end = replay_line(board, reason)
    outcome = end.outcome()
    assert outcome is not None and outcome.winner == reason.side, board.moves_string()
    assert forced_win(board.copy(), reason.side, len(reason.line)), board.moves_string()
    walk = board.copy()
    for col in reason.line[:-1]:  # each of the winner's discs keeps the win
        mover = walk.to_move
        walk.push(col)
        if mover == reason.side:
            after = reference.solve_grid(walk.grid, walk.to_move).score
            assert after < 0, (board.moves_string(), col)


def test_the_columns_of_a_position_explained_one_by_one(reference):
    """``explain_move``: a column that keeps the result gets a proof of the mover, one that
    loses value a refutation whose proofs hold too."""
    kinds: Counter[ReasonKind] = Counter()
    for moves, _ in END_GAME[:40]:
        board = Board.from_moves(moves)
        for col in board.legal_moves():
            explanation = explain_move(board.grid, board.to_move, col)
            reason = explanation.reason
            kinds[reason.kind] += 1
            assert explanation.move == col and explanation.move_score == explanation.scores[col]
            kept = _sign(explanation.scores[col])
            if kept < explanation.result:
                assert reason.kind is ReasonKind.REFUTATION
                assert reason.side == -board.to_move and reason.outcome == -kept
            else:
                assert reason.kind is not ReasonKind.REFUTATION
            _check_any(board, explanation, reason, reference)
    assert kinds[ReasonKind.REFUTATION] >= 20, kinds


def _check_any(board: Board, explanation: Explanation, reason: Reason, reference: Solver) -> None:
    if reason.strategy is not None:
        assert follows_to_the_end(board, reason.strategy), board.moves_string()
    if reason.kind is ReasonKind.REFUTATION:  # the other side's proof after the move, its line from before it
        assert reason.then is not None
        reason = replace(reason.then, line=reason.line)
    if reason.line is None or reason.kind is ReasonKind.NO_SIMPLE_REASON:
        return
    if reason.side == board.to_move:
        _check_line(board, reason, reference)
        return
    # the other side's proof after the move: the line starts with the move explained
    assert reason.line[0] == explanation.move
    after = board.copy()
    after.push(reason.line[0])
    _check_line(after, replace(reason, line=reason.line[1:]), reference)


def test_what_the_explainer_does_not_take_is_refused_in_one_sentence():
    board = Board.from_moves("4444441")
    with pytest.raises(ExplainError, match="column 4 is full"):
        explain_move(board.grid, board.to_move, 3)
    other = Board(Rules(rows=7, cols=8))
    with pytest.raises(ExplainError, match="standard board"):
        explain(other.grid, other.to_move, rules=other.rules)
    won = Board.from_moves("1212121")
    with pytest.raises(ExplainError, match="game is over"):
        explain(won.grid, won.to_move)


def test_a_draw_claim_never_says_more_than_the_solver():
    """In a drawn position the strategy of a side says it cannot lose, never that it wins."""
    for moves, score in END_GAME:
        if score:
            continue
        board = Board.from_moves(moves)
        explanation = explain(board.grid, board.to_move)
        if explanation.reason.strategy is not None:
            assert explanation.reason.strategy.claim == DRAW
            assert explanation.reason.outcome == DRAW


def _completes(board: Board, side: int, square) -> bool:
    """Whether a disc of ``side`` on ``square`` makes four in a line (gravity aside)."""
    grid = board.grid.copy()
    row = board.rules.rows - square.row
    assert grid[row, square.col] == 0
    grid[row, square.col] = side
    probe = Board(board.rules, grid, -side)
    outcome = probe.outcome()
    return outcome is not None and outcome.winner == side


def test_only_moves_and_double_threats_are_what_they_say(explained):
    seen = Counter()
    for board, _, explanation in explained:
        reason = explanation.reason
        if reason.kind is ReasonKind.ONLY_MOVE:
            seen[reason.kind] += 1
            (block,) = reason.squares
            assert explanation.moves == (block.col,)  # the solver agrees: no other column keeps it
            assert _completes(board, -board.to_move, block)  # the other side's threat
            for col in board.legal_moves():
                if col != block.col:
                    after = board.copy()
                    after.push(col)
                    after.push(block.col)
                    assert after.outcome() is not None and after.outcome().winner == -board.to_move
        elif reason.kind is ReasonKind.DOUBLE_THREAT:
            seen[reason.kind] += 1
            position = board.copy()
            if reason.column is not None:
                position.push(reason.column)
            assert len(reason.squares) == 2
            for square in reason.squares:
                assert _completes(position, reason.side, square), board.moves_string()
    assert seen[ReasonKind.ONLY_MOVE] >= 10 and seen[ReasonKind.DOUBLE_THREAT] >= 10
