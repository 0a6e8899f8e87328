"""The game without a window and without the AI: rules, board, match, notation, board files,
game files and records, sources, i18n and the version (layer 1: imports nothing above).

The front ends above the AI live in sub-packages named for what they are: ``archive``,
``bots`` (engine, matches, tournament, cluster, ConnectX), ``cli``, ``desktop``, ``learn``
(explorer, retry), and ``app`` (the window).  ``launcher`` routes a command to one of them.

    from game import Board, Rules
    board = Board.from_moves("4453", Rules())

``game.app`` (the only package that imports pygame) is the window; nothing here imports it.
"""

import game.blas_threads  # noqa: F401  # before numpy: game.board imports it
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
