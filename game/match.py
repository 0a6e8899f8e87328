"""A match: a board plus undo and redo, which is what the play scene and CLI drive."""

from __future__ import annotations

from game.board import Board, Outcome
from game.rules import MAX, STANDARD, Cell, Rules


class Match:
    """A game in progress, with undo/redo of its moves."""

    def __init__(self, rules: Rules = STANDARD, first: int = MAX, board: Board | None = None):
        self.board = board if board is not None else Board(rules, to_move=first)
        self._redo: list[int] = []

    @property
    def rules(self) -> Rules:
        return self.board.rules

    @property
    def to_move(self) -> int:
        """The side whose turn it is (1 or -1)."""
        return self.board.to_move

    @property
    def moves(self) -> list[int]:
        return self.board.moves

    def play(self, move: int) -> Cell:
        """Play ``move`` and return the cell it filled; a new move forgets the redo list."""
        cell = self.board.push(move)
        self._redo.clear()
        return cell

    def can_undo(self) -> bool:
        return bool(self.board.moves)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> int:
        """Take back the last move and keep it for redo."""
        move = self.board.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Cell:
        """Play again the last move taken back; return the cell it filled."""
        if not self._redo:
            raise IndexError("nothing to redo")
        return self.board.push(self._redo.pop())

    def restart(self) -> None:
        """Go back to the starting position, forgetting the moves."""
        while self.board.moves:
            self.board.pop()
        self._redo.clear()

    def outcome(self) -> Outcome | None:
        return self.board.outcome()

    def is_over(self) -> bool:
        return self.board.is_game_over()
