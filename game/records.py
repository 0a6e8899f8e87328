"""What the game archive stores, and the check every stored row passes as it is read.

A row of the archive may have been left by a damaged file, another tool or a bug: any
column can hold any SQLite value (text where a number belongs, a megabyte where a name
belongs, moves that go on after the game was won).  ``record_from_row`` turns a row into
a ``GameRecord`` only when every column is what this version writes, and raises
``DamagedGame`` naming the first that is not; every front end then lists the good games
and counts the others.  The same bounds hold when a game is written (``check_record``),
so what one version stores the next can read:

- a date from 1970 to the end of year 9999 that the system clock can show;
- rules a board of this game can have (``game.rules``), at most ``MAX_RULES_TEXT`` long;
- a side's name (``HUMAN`` or a level's) of 1..``MAX_NAME`` printable characters;
- moves that read in the notation of those rules and are each legal in turn, none after
  the end of the game;
- a search depth of ``game.rules.MIN_DEPTH``..``MAX_DEPTH``, or none (a person);
- a review summary of at most ``MAX_REVIEW_TEXT`` characters of JSON whose accuracy
  values are shares (a summary that fails this is dropped, the game kept: the review
  can be made again).
"""

from __future__ import annotations

import enum
import functools
import json
import logging
import math
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.board import Board, IllegalMoveError
from game.notation import NotationError, format_moves, parse_moves
from game.rules import MAX, MAX_DEPTH, MIN_DEPTH, Mode, Rules, RulesError

log = logging.getLogger("game.archive.store")

HUMAN = "human"
"""The ``first`` / ``second`` of a side a person played."""
MAX_NAME = 40
MAX_RULES_TEXT = 200
MAX_MOVES_TEXT = 400
"""A 10x12 board without gravity: 120 cells of at most 3 characters (``l10``)."""
MAX_REVIEW_TEXT = 16_384
LATEST_DATE = 253402300799.0
MAX_ID = 2**63 - 1
"""The largest id SQLite gives a row; the archive never writes an id below 1."""
"""The last second of year 9999 (UTC): past it no calendar here can show the date."""


class DamagedGame(ValueError):
    """A stored game that cannot be read: the message names it and says why."""


class GameResult(str, enum.Enum):
    """How a stored game ended."""

    FIRST = "1"  # player 1 won
    SECOND = "2"  # player 2 won
    DRAW = "draw"

    @classmethod
    def of_winner(cls, winner: int | None) -> GameResult:
        if winner is None:
            return cls.DRAW
        return cls.FIRST if winner == MAX else cls.SECOND

    @property
    def text(self) -> str:
        return {"1": "player 1 won", "2": "player 2 won", "draw": "draw"}[self.value]


def rules_to_text(rules: Rules) -> str:
    return json.dumps(
        {
            "rows": rules.rows,
            "cols": rules.cols,
            "connect": rules.connect,
            "gravity": rules.gravity,
            "mode": rules.mode.value,
        }
    )


def load_json(text: str) -> Any:
    """``json.loads`` for a stored text, whose damage is a ``ValueError``: JSON nested
    thousands deep raises ``RecursionError`` in the parser, which would escape every check."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("its JSON is nested too deep") from None


def rules_from_text(text: object) -> Rules:
    """The rules a stored text describes (``ValueError`` saying what is wrong)."""
    if not isinstance(text, str) or len(text) > MAX_RULES_TEXT:
        raise ValueError("its rules are not text of a sensible length")
    try:
        data = load_json(text)
    except ValueError:
        raise ValueError("its rules are not JSON") from None
    if not isinstance(data, dict):
        raise ValueError("its rules are not a JSON object")
    rows, cols, connect, gravity = (data.get(key) for key in ("rows", "cols", "connect", "gravity"))
    if not (type(rows) is type(cols) is type(connect) is int) or not isinstance(gravity, bool):
        raise ValueError("its rules have a size, line length or gravity of the wrong type")
    try:
        return Rules(rows, cols, connect, gravity, Mode(data.get("mode")))
    except (RulesError, ValueError) as error:
        raise ValueError(f"its rules are not a board of this game ({error})") from None


@dataclass(frozen=True)
class GameRecord:
    """One stored game.  ``moves`` are 0-based move ids; ``first``/``second`` are
    ``HUMAN`` or a level's name; the depths are the levels' search depths (None: a person)."""

    id: int | None
    played_at: float
    rules: Rules
    first: str
    second: str
    moves: tuple[int, ...]
    result: GameResult
    first_depth: int | None = None
    second_depth: int | None = None
    review: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def moves_string(self) -> str:
        return format_moves(list(self.moves), self.rules)

    @property
    def date_text(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.played_at))

    def level(self) -> str | None:
        """The computer's level in a game against a person (None otherwise)."""
        if self.first == HUMAN and self.second != HUMAN:
            return self.second
        if self.second == HUMAN and self.first != HUMAN:
            return self.first
        return None

    def person_result(self) -> str | None:
        """ "win" / "draw" / "loss" for the person in a game against the computer."""
        if self.level() is None:
            return None
        if self.result is GameResult.DRAW:
            return "draw"
        person_first = self.first == HUMAN
        return "win" if (self.result is GameResult.FIRST) == person_first else "loss"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "date": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.played_at)),
            "rules": self.rules.describe(),
            "first": self.first,
            "second": self.second,
            "moves": self.moves_string,
            "result": self.result.value,
            "review": self.review,
        }


class Unfinished(str, enum.Enum):
    """The kinds of unfinished game, each kept apart: a window keeps one of each (a game
    against the computer left for a network game stays where it was)."""

    COMPUTER = "computer"  # a person against the computer
    TWO_PLAYERS = "human"  # two people at one screen
    DEMO = "demo"  # computer against computer
    NETWORK = "network"  # over the network (its settings say how to go on: ``game.net.comeback``)

    @classmethod
    def of_settings(cls, settings: Mapping[str, Any]) -> Unfinished:
        """The kind a row's settings name (rows kept before kinds were kept apart)."""
        if settings.get("network"):
            return cls.NETWORK
        try:
            return cls(settings.get("opponent", cls.COMPUTER.value))
        except ValueError:
            return cls.COMPUTER


@dataclass(frozen=True)
class InProgress:
    """A game being played when its window last stopped; ``slot`` is its row (the window's
    own, and its ``kind``)."""

    saved_at: float
    rules: Rules
    first: str
    second: str
    moves: tuple[int, ...]
    settings: dict[str, Any]
    slot: str = ""
    kind: Unfinished = Unfinished.COMPUTER


# -- the checks -------------------------------------------------------------------------


def check_id(value: object) -> int | None:
    """A stored game's id (1..``MAX_ID``), or None for a game not stored (a recovery file's)."""
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= MAX_ID:
        raise ValueError(f"its id is not 1..{MAX_ID}")
    return value


def check_date(value: object) -> float:
    """A stored time (seconds since 1970) that the calendar can show."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("its date is not a number")
    if not math.isfinite(value) or not 0 <= value <= LATEST_DATE:
        raise ValueError("its date is out of range")
    try:
        time.localtime(value)
    except (OverflowError, OSError, ValueError):
        raise ValueError("its date is out of range") from None
    return float(value)


def check_name(value: object, side: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME or not value.isprintable():
        raise ValueError(f"the name of {side} is not 1..{MAX_NAME} printable characters")
    return value


def check_depth(value: object, side: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not MIN_DEPTH <= value <= MAX_DEPTH:
        raise ValueError(f"the search depth of {side} is not {MIN_DEPTH}..{MAX_DEPTH}")
    return value


def check_moves(value: object, rules: Rules) -> tuple[int, ...]:
    """Moves that are legal one after the other and stop at the end of the game."""
    if not isinstance(value, str) or len(value) > MAX_MOVES_TEXT:
        raise ValueError("its moves are not text of a sensible length")
    return _legal_moves(rules, value)


@functools.lru_cache(maxsize=8192)
def _legal_moves(rules: Rules, text: str) -> tuple[int, ...]:
    """Replay a move string on a ``Board`` (about 12 microseconds a move, so each
    distinct game is replayed once per process and a list of them is checked at every read)."""
    try:
        moves = parse_moves(text, rules)
    except NotationError as error:
        raise ValueError(f"its moves cannot be read ({error})") from None
    board = Board(rules)
    for ply, move in enumerate(moves):
        if board.is_game_over():
            raise ValueError(f"its move {ply + 1} comes after the end of the game")
        try:
            board.push(move)
        except IllegalMoveError:
            raise ValueError(f"its move {ply + 1} is not legal there") from None
    return tuple(moves)


def check_result(value: object) -> GameResult:
    try:
        return GameResult(value)
    except ValueError:
        raise ValueError("its result is none of 1, 2 or draw") from None


def read_review(value: object, game_id: object) -> dict[str, Any] | None:
    """A stored review summary, or None (said in the log) when it cannot be used."""
    if value is None:
        return None
    try:
        if not isinstance(value, str) or len(value) > MAX_REVIEW_TEXT:
            raise ValueError("not text of a sensible length")
        summary = load_json(value)
        if not isinstance(summary, dict):
            raise ValueError("not a JSON object")
        accuracy = summary.get("accuracy", {})
        if not isinstance(accuracy, dict) or not all(
            v is None or (type(v) in (int, float) and 0 <= v <= 1) for v in accuracy.values()
        ):
            raise ValueError("its accuracy is not a share per player")
    except ValueError as error:
        log.info("the review summary of game %s is dropped: %s", game_id, error)  # it can be made again
        return None
    return summary


def record_from_row(row: sqlite3.Row | Mapping[str, Any]) -> GameRecord:
    """The game a stored row holds, every column checked (see the module).

    Raises:
        DamagedGame: a column is not what this version writes; the message names the
        game and the column.
    """
    game_id = row["id"]
    try:
        game_id = check_id(game_id)
        played_at = check_date(row["played_at"])
        rules = rules_from_text(row["rules"])
        first = check_name(row["first"], "player 1")
        second = check_name(row["second"], "player 2")
        moves = check_moves(row["moves"], rules)
        result = check_result(row["result"])
        first_depth = check_depth(row["first_depth"], "player 1")
        second_depth = check_depth(row["second_depth"], "player 2")
    except ValueError as error:
        name = f"game {game_id}" if type(game_id) is int else "a game"
        raise DamagedGame(f"{name} in the archive cannot be read: {error}") from None
    review = read_review(row["review"], game_id)
    return GameRecord(game_id, played_at, rules, first, second, moves, result, first_depth, second_depth, review)


def check_record(record: GameRecord) -> None:
    """Refuse a game this version could not read back (``ValueError`` says what)."""
    check_date(record.played_at)
    check_name(record.first, "player 1")
    check_name(record.second, "player 2")
    check_depth(record.first_depth, "player 1")
    check_depth(record.second_depth, "player 2")
    check_moves(record.moves_string, record.rules)
    if record.review is not None and len(json.dumps(record.review)) > MAX_REVIEW_TEXT:
        raise ValueError(f"its review summary is longer than {MAX_REVIEW_TEXT} characters")


def record_to_row(record: GameRecord) -> dict[str, Any]:
    """The columns of a stored game (without its id)."""
    return {
        "played_at": record.played_at,
        "rules": rules_to_text(record.rules),
        "first": record.first,
        "second": record.second,
        "moves": record.moves_string,
        "result": record.result.value,
        "first_depth": record.first_depth,
        "second_depth": record.second_depth,
        "review": json.dumps(record.review) if record.review is not None else None,
    }
