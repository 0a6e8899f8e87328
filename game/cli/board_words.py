"""How the commands that search show a board and say a search value, naming the side it favours."""

from __future__ import annotations

from typing import TextIO

from ai.tree import fmt_tree_value, is_forced_value
from ai.values import is_win_value, plies_to_end
from game.board import TEXT_LEGEND, Board
from game.i18n import N_, _, counted
from game.rules import MAX, Mode


def player_name(side: int) -> str:
    """A side as the board legend names it: "player 1 (O)" or "player 2 (X)"."""
    return _("player 1 (O)") if side == MAX else _("player 2 (X)")


VALUE_KEY = N_(
    "Key: values are from player 1's side: + good for player 1 (O), - good for player 2 (X).\nKey: W<n> = a forced win in n plies (a ply is one disc, either player's); a player's moves are its own discs."
)
"""Said once in ``analyze``: what the numbers mean, so "W3" and "3 moves" never mix."""


def value_meaning(value: int) -> str:
    """A search value (player 1's side) in words that name the side it favours."""
    if is_win_value(value):
        plies = plies_to_end(value)
        winner = MAX if value > 0 else -MAX
        moves = (plies + 1) // 2  # the winner plays every other ply, the last one included
        return _("{player} wins in {plies}, {moves} of its own").format(
            player=player_name(winner), plies=counted(plies, "ply"), moves=counted(moves, "move")
        )
    if is_forced_value(value):  # F: a win to play or two threats at a leaf, plies not counted
        return _("{player_name} wins by force just past the search depth").format(
            player_name=player_name(MAX if value > 0 else -MAX)
        )
    if value == 0:
        return _("even")
    return _("better for {player_name} by the heuristic").format(player_name=player_name(MAX if value > 0 else -MAX))


def shown_value(value: int) -> str:
    """A value with its sign and meaning, e.g. "+20: better for player 1 (O) by the heuristic"."""
    number = fmt_tree_value(value)
    if not is_win_value(value) and not is_forced_value(value) and value > 0:
        number = f"+{number}"
    return f"{number}: {value_meaning(value)}"


def print_board(board: Board, out: TextIO) -> None:
    """Print the board with a legend and, in FULL_BOARD mode, the score."""
    print(board, file=out)
    first, second = board.score()
    legend = _(TEXT_LEGEND)
    if board.rules.mode is Mode.FULL_BOARD:
        print(
            _("{legend}.  Score: player 1 = {first}, player 2 = {second}").format(
                legend=legend, first=first, second=second
            ),
            file=out,
        )
    else:
        print(legend, file=out)
