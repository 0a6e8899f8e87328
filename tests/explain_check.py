"""Independent checks of what the explainer hands out, written on ``game.board.Board`` (its
push, pop and outcome), not on the explainer's bitboards: a strategy followed against every
reply, and a forced line replayed."""

from __future__ import annotations

from ai.explain.explanation import DRAW, Reason, Square, Strategy
from game.board import Board


def square_of_cell(board: Board, cell: tuple[int, int]) -> Square:
    row, col = cell
    return Square(col, board.rules.rows - row)


def next_square(board: Board, col: int) -> Square | None:
    """Where a disc dropped in ``col`` would land (None: full)."""
    empty = [row for row in range(board.rules.rows) if board.grid[row, col] == 0]
    return Square(col, board.rules.rows - max(empty)) if empty else None


def _ends_well(board: Board, side: int, claim: int) -> bool:
    outcome = board.outcome()
    assert outcome is not None
    return outcome.winner == side or (outcome.winner is None and claim == DRAW)


def follows_to_the_end(start: Board, strategy: Strategy) -> bool:
    """Play ``strategy`` from ``start`` against every reply to the end of the game: True when
    every game ends as it claims (the side wins, or with a draw claim does not lose) and the
    pairs always had an answer."""
    board = start.copy()
    for col in strategy.after:
        board.push(col)
        assert board.outcome() is None, "the first columns end the game"
    side = strategy.side
    assert board.to_move == -side, "after the first columns the other side is to move"
    partner = {a: b for a, b in strategy.pairs} | {b: a for a, b in strategy.pairs}
    assert len(partner) == 2 * len(strategy.pairs), "a square in two pairs"
    seen: dict[bytes, bool] = {}

    def holder_answers(board: Board) -> bool:
        for col in board.legal_moves():  # win at once if it can
            board.push(col)
            won = board.outcome() is not None and board.outcome().winner == side  # type: ignore[union-attr]
            board.pop()
            if won:
                return True
        landed = square_of_cell(board, board.last_cell())  # type: ignore[arg-type]
        other = partner.get(landed)
        if other is None or next_square(board, other.col) != other:
            return False  # no pair answers this disc
        board.push(other.col)
        good = _ends_well(board, side, strategy.claim) if board.outcome() is not None else replies(board)
        board.pop()
        return good

    def replies(board: Board) -> bool:
        key = board.grid.tobytes()
        if key not in seen:
            seen[key] = True
            ok = True
            for col in board.legal_moves():
                board.push(col)
                ok = _ends_well(board, side, strategy.claim) if board.outcome() is not None else holder_answers(board)
                board.pop()
                if not ok:
                    break
            seen[key] = ok
        return seen[key]

    return replies(board)


def replay_line(start: Board, reason: Reason) -> Board:
    """The board after the reason's line, every disc legal; the game must end on its last disc."""
    board = start.copy()
    assert reason.line
    for index, col in enumerate(reason.line):
        assert board.outcome() is None, f"the game ended before disc {index + 1} of the line"
        assert board.is_legal(col), f"disc {index + 1} of the line: column {col + 1} is full"
        board.push(col)
    return board


def forced_win(board: Board, side: int, plies: int) -> bool:
    """Whether ``side`` wins within ``plies`` plies against every reply (plain minimax on Board)."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner == side
    if plies == 0:
        return False
    results = []
    for col in board.legal_moves():
        board.push(col)
        results.append(forced_win(board, side, plies - 1))
        board.pop()
        if board.to_move == side and results[-1]:
            return True
        if board.to_move != side and not results[-1]:
            return False
    return board.to_move != side
