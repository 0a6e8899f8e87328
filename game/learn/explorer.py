"""The solved-opening explorer's data: every playable column of a position, its exact
value and, beside it, what the player's own archive did there.

    rows = explore_rows(board, scores, archive.games())   # scores: {col: ExactScore} or None
    explore_json(board, rows)   # {"moves": "44", "columns": [{"column": 4, "score": 1, ...}]}

The exact values come from the opening book and the solver within the hint's budget
(``ai.player.column_scores``, in the worker process for the window: ``exact_columns``
here is for the command line only).  A column's ``score`` is Pons' convention from the
side to move: the negation of ``solve``'s score of the position the column leaves.

The archive's part counts the stored games of the same rules, from the empty board,
that reached this position with a person to move there (the player's own moves): how
often they played each column, how those games ended for them, and how often the
column they played left the truth (it threw away the exact outcome: a mistake or a
blunder of the review).  Nothing here imports pygame or the solver at module level.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ai.exact import ExactScore
from game.board import Board
from game.i18n import _, ngettext
from game.notation import format_moves
from game.records import HUMAN, GameRecord, GameResult
from game.rules import MAX, Rules


@dataclass(frozen=True)
class ColumnGames:
    """The player's stored games through one column of a position."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def plus(self, result: str) -> ColumnGames:
        """One more game, ``result`` ("win", "draw" or "loss") for the player."""
        return ColumnGames(
            self.games + 1,
            self.wins + (result == "win"),
            self.draws + (result == "draw"),
            self.losses + (result == "loss"),
        )


@dataclass(frozen=True)
class ExploreRow:
    """One playable column: its exact result (None: not proven within the budget) and
    the player's games through it."""

    column: int  # 0-based
    mover: int  # the side to move in the position
    exact: ExactScore | None
    score: int | None  # Pons' score from the side to move
    games: ColumnGames
    left_truth: int  # games in which playing this column threw the exact outcome away

    @property
    def words(self) -> str:
        return column_words(self.exact, self.mover) if self.exact is not None else _("not proven")


def column_words(exact: ExactScore, mover: int) -> str:
    """A column's exact value for the side about to play it, in the game's words:
    "win in 3 moves" (the mover's 3rd move from now wins), "draw", "loss in 5 moves"
    (the other side's 5th wins); counted in the winner's own moves, as the badges."""
    if exact.is_draw:
        return _("draw")
    moves = exact.winner_moves
    if exact.winner == mover:
        return (
            _("win")
            if moves is None
            else ngettext("win in {moves} move", "win in {moves} moves", moves).format(moves=moves)
        )
    return (
        _("loss")
        if moves is None
        else ngettext("loss in {moves} move", "loss in {moves} moves", moves).format(moves=moves)
    )


def person_result(record: GameRecord, side: int) -> str:
    """How ``record`` ended for ``side``: "win", "draw" or "loss"."""
    if record.result is GameResult.DRAW:
        return "draw"
    winner = MAX if record.result is GameResult.FIRST else -MAX
    return "win" if winner == side else "loss"


def games_here(
    records: Iterable[GameRecord], rules: Rules, moves: tuple[int, ...]
) -> tuple[int, dict[int, ColumnGames]]:
    """(the stored games that reached ``moves``, and per column the games in which a
    person was to move there and played that column, with their results)."""
    side = MAX if len(moves) % 2 == 0 else -MAX
    reached = 0
    columns: dict[int, ColumnGames] = {}
    for record in records:
        if record.rules != rules or tuple(record.moves[: len(moves)]) != moves:
            continue
        reached += 1
        if len(record.moves) <= len(moves):
            continue
        mover = record.first if side == MAX else record.second
        if mover != HUMAN:
            continue
        column = record.moves[len(moves)]
        columns[column] = columns.get(column, ColumnGames()).plus(person_result(record, side))
    return reached, columns


def explore_rows(
    board: Board, scores: Mapping[int, ExactScore] | None, records: Iterable[GameRecord]
) -> tuple[int, list[ExploreRow]]:
    """(the stored games that reached ``board``, and a row for every playable column,
    left to right) for the position of ``board`` (moves from the empty board)."""
    moves = tuple(board.moves)
    reached, columns = games_here(records, board.rules, moves)
    mover = board.to_move
    best = None
    if scores:
        best = max(exact.pov(mover) for exact in scores.values())
    rows = []
    for column in sorted(board.legal_moves()):
        exact = scores.get(column) if scores else None
        games = columns.get(column, ColumnGames())
        left = games.games if exact is not None and best is not None and exact.pov(mover) < best else 0
        known = exact is not None and (exact.is_draw or exact.plies is not None)
        score = exact.score(mover, board.grid) if known and exact is not None else None
        rows.append(ExploreRow(column, mover, exact, score, games, left))
    return reached, rows


def explore_json(board: Board, reached: int, rows: list[ExploreRow]) -> dict[str, Any]:
    """The command's JSON: the moves and one object per playable column (1-based)."""
    return {
        "moves": format_moves(list(board.moves), board.rules),
        "to_move": 1 if board.to_move == MAX else 2,
        "games_here": reached,
        "columns": [
            {
                "column": row.column + 1,
                "score": row.score,
                "words": row.words,
                "games": row.games.games,
                "wins": row.games.wins,
                "draws": row.games.draws,
                "losses": row.games.losses,
                "left_truth": row.left_truth,
            }
            for row in rows
        ],
    }


def exact_columns(board: Board) -> dict[int, ExactScore] | None:
    """Every playable column's exact result within the hint's budget (the book, then
    the solver: ``ai.player.column_scores``), or None.  Loads the solver: the command
    line's, never the window's (the window asks its worker)."""
    from ai.player import column_scores  # lazy: the solver loads in the command line, never in the window

    if board.is_game_over():
        return None
    return column_scores(board.grid, board.rules, board.to_move)
