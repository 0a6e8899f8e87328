"""The game without a window: rules, board, match, notation, board files, and the front ends
above the AI (command line, engine, match runner, tournament, ConnectX writer).

    from game import Board, Rules
    board = Board.from_moves("4453", Rules())

``game.app`` (the only package that imports pygame) is the window; nothing here imports it.
"""

from game.board import Board, IllegalMoveError, Outcome, Termination
from game.board_file import BoardFileError, load_board, save_board
from game.match import Match
from game.notation import NotationError, format_move, format_moves, parse_move, parse_moves
from game.rules import EMPTY, MAX, MIN, STANDARD, Mode, Rules, RulesError

__all__ = [
    "EMPTY",
    "MAX",
    "MIN",
    "STANDARD",
    "Board",
    "BoardFileError",
    "IllegalMoveError",
    "Match",
    "Mode",
    "NotationError",
    "Outcome",
    "Rules",
    "RulesError",
    "Termination",
    "format_move",
    "format_moves",
    "load_board",
    "parse_move",
    "parse_moves",
    "save_board",
]
