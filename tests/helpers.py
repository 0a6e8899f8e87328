"""Shared helpers for the tests: the rule variants, random positions, external engines."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from game.board import Board
from game.bots.runners import MatchPlan, run_match
from game.bots.statistics import MatchResult
from game.bots.tournament import EnginePlayer, LevelPlayer
from game.rules import Mode, Rules

CLASSIC_VARIANTS = [
    Rules(),
    Rules(rows=4, cols=5, connect=3),
    Rules(rows=7, cols=8, connect=5),
    Rules(rows=5, cols=10, connect=4),
    Rules(rows=6, cols=6, connect=6),
    Rules(rows=4, cols=4, connect=3, gravity=False),
    Rules(rows=5, cols=5, connect=4, gravity=False),
]
FULL_BOARD_VARIANTS = [
    Rules(mode=Mode.FULL_BOARD),
    Rules(rows=4, cols=5, connect=3, mode=Mode.FULL_BOARD),
    Rules(rows=4, cols=4, connect=3, gravity=False, mode=Mode.FULL_BOARD),
]
ALL_VARIANTS = CLASSIC_VARIANTS + FULL_BOARD_VARIANTS


def variant_id(rules: Rules) -> str:
    return rules.describe().replace(", ", "-").replace(" ", "")


def random_board(rules: Rules, rng: random.Random, plies: int) -> Board:
    """Play up to ``plies`` random moves, stopping before the game would end."""
    board = Board(rules)
    for _ in range(plies):
        moves = board.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            if board.is_game_over():
                board.pop()
                continue
            break
        else:
            break
    return board


def write_bot(folder: Path, name: str, source: str) -> str:
    """Write an engine's Python ``source`` to ``folder/name.py``; return the command that runs it."""
    path = folder / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return f"{sys.executable} {path}"


def match_against(bot: EnginePlayer, level: str = "depth:2", *, games: int = 2, movetime: float = 0.2) -> MatchResult:
    """Play ``level`` (A) against the external ``bot`` (B) on the standard board, then close the bot."""
    try:
        return run_match(LevelPlayer(level), bot, MatchPlan(Rules(), games=games, movetime=movetime))
    finally:
        bot.close()
