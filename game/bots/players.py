"""The players of a match: its two sides, what a player is, and how one can lose a game
without the board deciding it.

A player has a ``name``, ``choose(board, seconds) -> move`` (raising ``PlayerFailed``
to lose the game) and ``close()``.  A *player spec* is a small picklable, hashable
value with a ``name`` that builds a player when called: a worker process receives the
spec, builds the player once and keeps it for its later games (one engine process per
running game).  ``LevelSpec`` builds a level; ``game.bots.tournament`` adds external
engines and the command line's players.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

from ai.levels import Level
from ai.perfect import PerfectPlayer
from ai.player import choose_move
from game.board import Board


class Side(enum.Enum):
    """Which player of the match: the first named (A) or the second (B)."""

    A = "A"
    B = "B"


def other(side: Side) -> Side:
    """The opponent's side."""
    return Side.B if side is Side.A else Side.A


class Failure(enum.Enum):
    """How a player can lose a game without the board deciding it."""

    ILLEGAL_MOVE = "illegal move"
    CRASH = "crash"
    TIME = "time"


class PlayerFailed(Exception):
    """A player could not give a legal move in time; it loses the game."""

    def __init__(self, failure: Failure, detail: str):
        super().__init__(f"{failure.value}: {detail}")
        self.failure = failure
        self.detail = detail


class Player(Protocol):
    """Anything that can play moves in a match."""

    name: str

    def choose(self, board: Board, seconds: float) -> int:
        """Return a move for the side to move within ``seconds`` (raises ``PlayerFailed``)."""
        ...

    def close(self) -> None:
        """Free what the player holds (an engine process)."""
        ...


class PlayerSpec(Protocol, Hashable):
    """A picklable, hashable recipe for a player: ``spec()`` builds it, ``spec.name`` names it."""

    @property
    def name(self) -> str: ...

    def __call__(self) -> Player: ...


# -- a level as a player ---------------------------------------------------------------


def level_move(
    name: str,
    level: Level,
    board: Board,
    *,
    seed: int,
    movetime: float | None = None,
    perfect_player: PerfectPlayer | None = None,
) -> int:
    """``level``'s move on ``board``, decided by ``ai.player.choose_move`` (``movetime``:
    under the move clock; None: the level's own budget).

    Raises:
        PlayerFailed: the level found no move (a crash: it loses the game).
    """
    answer = choose_move(
        level,
        board.grid,
        board.rules,
        board.to_move,
        movetime=movetime,
        seed=seed,
        perfect_player=perfect_player,
    )
    if answer.move is None:
        raise PlayerFailed(Failure.CRASH, f"{name} found no move")
    return answer.move


class LevelChooser:
    """A level playing through ``ai.player.choose_move`` with its own budget (no move clock).

    ``seed + ply`` seeds a noisy level's judgement, so the same position in the same game
    gets the same move on every run.
    """

    def __init__(self, name: str, level: Level, *, seed: int = 0):
        self.name = name
        self.level = level
        self.seed = seed
        self.perfect = PerfectPlayer() if level.perfect else None

    def choose(self, board: Board, seconds: float) -> int:
        return level_move(self.name, self.level, board, seed=self.seed + board.ply, perfect_player=self.perfect)

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class LevelSpec:
    """A ``LevelChooser`` to build in a worker: its name, level and seed."""

    name: str
    level: Level
    seed: int = 0

    def __call__(self) -> LevelChooser:
        return LevelChooser(self.name, self.level, seed=self.seed)
