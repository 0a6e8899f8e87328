"""The game file: a PGN-like ``.c4`` text file of one or more games, read and written.

    [Event "Connect Four"]
    [Date "2026.11.26"]
    [Time "08:56:21"]
    [Rules "6x7, connect 4"]
    [First "human"]
    [Second "Medium"]
    [SecondDepth "6"]
    [Result "1-0"]

    1. 4 4 2. 5 3 3. 6 7 4. 3 {the winning move} 1-0

- A game is its tag lines (``[Name "value"]``, one a line), then its moves.  A tag line
  after moves, or a blank line after moves, starts the next game.
- Values are quoted; ``\\`` ``"`` and control characters inside are escaped (``\\\\``,
  ``\\"``, ``\\n``, ``\\u0007``), so no name can end its tag and start another.
- A tag value is text: no NUL, no lone surrogate, at most ``MAX_TAG_TEXT`` characters.
  ``First`` and ``Second`` are names the window shows: runs of spaces, tabs and line
  breaks become one space, and any other character that cannot be shown (a control or
  format character) refuses the game, as does a name over ``MAX_NAME_TEXT`` characters.
- The moves are in the project's notation (``game.notation``: columns ``4``, letters on
  wide boards, cells ``d1`` without gravity), with or without move numbers (``1.``);
  ``{...}`` and ``;`` to the end of the line are comments; a last ``1-0``, ``0-1``,
  ``1/2-1/2`` or ``*`` is the result.  A ``{`` comment may run over lines but must close
  before the next blank line or tag line: one left open refuses its game, and the games
  after it are read as usual.
- ``Rules`` is ``Rules.describe()``: ``7x9, connect 5, no gravity, full board``
  (standard Connect Four when the tag is missing).  ``Start`` is the position before the
  first move when it is not the empty board: its rows top first, ``/`` between them
  (``0`` empty, ``1`` player 1, ``2`` player 2), then the player to move.
- ``First`` / ``Second`` name player 1 (ring, moves first from the empty board) and
  player 2: ``human`` or a level; ``FirstDepth`` / ``SecondDepth`` the levels' search
  depths.  ``Result`` is from player 1's side: ``1-0`` player 1 won, ``0-1`` player 2,
  ``1/2-1/2`` a draw, ``*`` not finished.
- ``Date`` and ``Time`` are UTC; ``Timestamp`` the exact second the game was stored
  (so a game exported and imported again is the same game).  Other tags (``Round``,
  ``Opening``, ``Termination`` ...) are kept as they are.

``each_game`` is the one reader of this text: ``open``, a dropped file, Ctrl+V and
``games --import`` all take their games from it (through ``game.sources``), so every game
they see has passed ``check_tags`` and ``_checked_moves``.

Nothing here imports pygame; ``docs/game-file.md`` says the same for players.
"""

from __future__ import annotations

import calendar
import math
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from game.board import Board, IllegalMoveError
from game.board_file import BoardFileError, parse_board_text
from game.notation import NotationError, format_move, parse_moves
from game.records import HUMAN, MAX_NAME, GameRecord, GameResult, check_record
from game.rules import MAX, MIN, STANDARD, Mode, Rules, RulesError

SUFFIX = ".c4"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG_ORDER = (
    "Event",
    "Site",
    "Date",
    "Time",
    "Round",
    "Rules",
    "Start",
    "First",
    "FirstDepth",
    "Second",
    "SecondDepth",
    "Result",
)
"""The tags written first, in this order; any others follow as they came."""
OLD_TAGS = {"Player1": "First", "Player2": "Second"}
"""Tags of the archive's earlier export, read as today's."""
OLD_RESULTS = {"player 1 won": "1-0", "player 2 won": "0-1", "draw": "1/2-1/2"}
MAX_GAMES = 100_000
MAX_TAG_TEXT = 1_000
"""Characters a tag value may hold: longer is no tag a program wrote (and no message or
window quotes it whole)."""
MAX_NAME_TEXT = 200
"""Characters a player's name may hold: longer than any engine command a match names (the
archive keeps 40 of them, ``game_record``)."""
_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]')
_MOVE_NUMBER = re.compile(r"\d+\.+")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}
_RULES_TEXT = re.compile(r"(\d+)\s*x\s*(\d+)")
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")
"""NUL and lone surrogates: what no text file holds and no font or UTF-8 encoder takes."""
NAME_TAGS = ("First", "Second")


class GameFileError(ValueError):
    """A game that cannot be read; the message says which and why, in one line."""


@dataclass
class GameText:
    """One game of a game file: its rules, start, moves and who played."""

    rules: Rules = STANDARD
    moves: tuple[int, ...] = ()
    start: np.ndarray | None = field(default=None, compare=False)  # None: the empty board
    start_to_move: int = MAX
    first: str | None = None
    second: str | None = None
    first_depth: int | None = None
    second_depth: int | None = None
    result: str = "*"
    played_at: float | None = None  # seconds since 1970; None: not said
    tags: dict[str, str] = field(default_factory=dict, compare=False)  # every other tag, as read
    line: int = 0  # where the game starts in its file (1-based; 0: not from a file)
    number: int = 0  # its place in the file (1-based)

    def where(self) -> str:
        """``game 2 (line 11)``: how a problem names it."""
        return f"game {self.number} (line {self.line})"

    def board(self) -> Board:
        """The position after every move, with the moves as its history."""
        board = Board(self.rules, _start_grid(self), self.start_to_move)
        for move in self.moves:
            board.push(move)
        return board

    @property
    def from_empty(self) -> bool:
        """The game starts on the empty board with player 1 to move."""
        return (self.start is None or not self.start.any()) and self.start_to_move == MAX

    def moves_string(self) -> str:
        return "".join(format_move(move, self.rules) for move in self.moves)


# -- writing -------------------------------------------------------------------------------


def escape(value: str) -> str:
    """A tag value as it goes between the quotes: nothing in it can end the tag."""
    out = []
    for char in value:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif not char.isprintable():
            out.append(f"\\u{ord(char):04x}" if ord(char) < 0x10000 else f"\\U{ord(char):08x}")
        else:
            out.append(char)
    return "".join(out)


def unescape(value: str) -> str:
    """The text a quoted tag value stands for (``escape`` undone)."""

    def one(found: re.Match[str]) -> str:
        code = found.group(1)
        if code[0] in "uU":
            try:
                return chr(int(code[1:], 16))
            except ValueError:
                return code
        return _UNESCAPES.get(code, code)

    return re.sub(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", one, value)


def start_text(grid: np.ndarray, to_move: int) -> str:
    """``Start``'s value: rows top first, ``/`` between them, then the player to move."""
    digits = {0: "0", MAX: "1", MIN: "2"}
    rows = "/".join("".join(digits[int(v)] for v in row) for row in grid)
    return f"{rows} {1 if to_move == MAX else 2}"


def utc_date(seconds: float) -> tuple[str, str]:
    """(``2026.11.26``, ``08:56:21``) in UTC."""
    moment = time.gmtime(seconds)
    return time.strftime("%Y.%m.%d", moment), time.strftime("%H:%M:%S", moment)


def game_tags(game: GameText) -> dict[str, str]:
    """The tags of ``game``, in the order they are written."""
    known: dict[str, str | None] = {
        "Event": game.tags.get("Event", "Connect Four"),
        "Rules": game.rules.describe(),
        "Start": None if game.from_empty else start_text(_start_grid(game), game.start_to_move),
        "First": game.first,
        "FirstDepth": None if game.first_depth is None else str(game.first_depth),
        "Second": game.second,
        "SecondDepth": None if game.second_depth is None else str(game.second_depth),
        "Result": game.result,
    }
    if game.played_at is not None:
        known["Date"], known["Time"] = utc_date(game.played_at)
        known["Timestamp"] = repr(float(game.played_at))
    tags = {name: known.get(name) or game.tags.get(name) for name in TAG_ORDER}
    for name, value in {**game.tags, **known}.items():
        if name not in tags:
            tags[name] = value
    return {name: value for name, value in tags.items() if value}


def movetext(game: GameText, width: int = 79) -> str:
    """The numbered moves and the result, wrapped at ``width`` characters."""
    side = game.start_to_move
    words: list[str] = []
    for index, move in enumerate(game.moves):
        number = index // 2 + 1 if side == MAX or index == 0 else (index + 1) // 2 + 1
        if index == 0 and side == MIN:
            words.append(f"{number}...")
        elif (index % 2 == 0) == (side == MAX):
            words.append(f"{number}.")
        words.append(format_move(move, game.rules))
    words.append(game.result)
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def game_text(game: GameText) -> str:
    """One game: tag lines, a blank line, the moves, a blank line."""
    tags = "".join(f'[{name} "{escape(value)}"]\n' for name, value in game_tags(game).items())
    return f"{tags}\n{movetext(game)}\n\n"


def games_text(games: Iterable[GameText]) -> str:
    """Several games, one after the other (what ``read_games`` reads back)."""
    return "".join(game_text(game) for game in games)


def _start_grid(game: GameText) -> np.ndarray:
    return game.rules.empty_grid() if game.start is None else game.start


# -- reading -------------------------------------------------------------------------------


def rules_from_text(text: str) -> Rules:
    """``Rules``' value read back: ``6x7, connect 4[, no gravity][, full board]``."""
    size = _RULES_TEXT.search(text)
    if size is None:
        raise GameFileError(f"Rules {text!r} does not give the size (such as 6x7)")
    connect = re.search(r"connect\s*(\d+)", text, re.IGNORECASE)
    lowered = text.lower()
    try:
        return Rules(
            rows=int(size.group(1)),
            cols=int(size.group(2)),
            connect=int(connect.group(1)) if connect else 4,
            gravity="no gravity" not in lowered,
            mode=Mode.FULL_BOARD if "full board" in lowered or "full-board" in lowered else Mode.CLASSIC,
        )
    except RulesError as error:
        raise GameFileError(f"Rules {text!r}: {error}") from None


@dataclass
class _Chunk:
    """The raw text of one game: its tags and its move text, and where it starts."""

    line: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    problem: str | None = None


def _chunks(text: str) -> Iterator[_Chunk]:
    """Split a file into games: tags, then moves; comments taken out.

    A ``{`` comment still open at a blank line or a tag line was never closed: its game
    gets that problem, and the line is read as usual, so the games after it are kept."""
    chunk: _Chunk | None = None
    comment_from = 0  # the line where an open ``{`` comment began (0: none is open)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if comment_from:
            if not line or _TAG_LINE.fullmatch(line):
                chunk = chunk or _Chunk(comment_from)  # what the comment hid may be a game
                chunk.problem = chunk.problem or _unclosed(comment_from)
                comment_from = 0
                if line or not (chunk.tags or chunk.moves):  # what follows is the next game's
                    yield chunk
                    chunk = None
            else:
                end = line.find("}")
                if end < 0:
                    continue
                comment_from, line = 0, line[end + 1 :].strip()
        if line.startswith("%"):
            continue  # an escape line (PGN's)
        if line.startswith("["):
            if chunk is not None and chunk.moves:
                yield chunk
                chunk = None
            chunk = chunk or _Chunk(number)
            found = _TAG_LINE.fullmatch(line)
            if found is None:
                chunk.problem = chunk.problem or f'line {number} is not a tag such as [Event "..."]'
            else:
                name = OLD_TAGS.get(found.group(1), found.group(1))
                chunk.tags.setdefault(name, unescape(found.group(2)))
            continue
        line, still_open = _without_comments(line)
        if still_open:
            comment_from = number
        if not line:
            if chunk is not None and chunk.moves and not comment_from:
                yield chunk
                chunk = None
            continue
        chunk = chunk or _Chunk(number)
        chunk.moves.append(line)
    if comment_from:
        chunk = chunk or _Chunk(comment_from)
        chunk.problem = chunk.problem or _unclosed(comment_from)
    if chunk is not None:
        yield chunk


def _unclosed(line: int) -> str:
    return f"the {{ comment of line {line} is never closed (a comment ends with }} before a blank line or a tag)"


def _without_comments(line: str) -> tuple[str, bool]:
    """The line without its ``{...}`` and ``;`` comments; True if a ``{`` stays open."""
    out, rest = [], line
    while rest:
        brace, semi = rest.find("{"), rest.find(";")
        if semi >= 0 and (brace < 0 or semi < brace):
            out.append(rest[:semi])
            return " ".join(out).strip(), False
        if brace < 0:
            out.append(rest)
            break
        out.append(rest[:brace])
        end = rest.find("}", brace)
        if end < 0:
            return " ".join(out).strip(), True
        rest = rest[end + 1 :]
    return " ".join(out).strip(), False


def _move_words(words: list[str]) -> tuple[str, str | None]:
    """(the moves, the result written after them or None)."""
    result = None
    kept = []
    for word in words:
        word = _MOVE_NUMBER.sub("", word, count=1) if _MOVE_NUMBER.match(word) else word
        if word in RESULTS:
            result = word
        elif word:
            kept.append(word)
    return "".join(kept), result


def _number(tags: dict[str, str], name: str) -> int | None:
    value = tags.get(name)
    if value is None or value.strip() in ("", "-", "?"):
        return None
    if not value.strip().isdigit():
        raise GameFileError(f"{name} {value!r} is not a whole number")
    return int(value)


def _played_at(tags: dict[str, str]) -> float | None:
    """The game's time: ``Timestamp``, else ``Date`` (and ``Time``) in UTC, else None."""
    stamp = tags.get("Timestamp")
    if stamp:
        try:
            seconds = float(stamp)
        except ValueError:
            raise GameFileError(f"Timestamp {stamp!r} is not a number of seconds") from None
        if not math.isfinite(seconds) or seconds < 0:
            raise GameFileError(f"Timestamp {stamp!r} is not a time")
        return seconds
    date = tags.get("Date", "")
    if not date or "?" in date:
        return None
    clock = tags.get("Time", "00:00:00")
    clock = clock if "?" not in clock else "00:00:00"
    for layout in ("%Y.%m.%d %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y.%m.%d %H:%M", "%Y-%m-%d %H:%M"):
        try:
            return float(calendar.timegm(time.strptime(f"{date} {clock}", layout)))
        except ValueError:
            continue
    try:  # the earlier export: "2026-11-26 08:56" (local time) in Date alone
        return time.mktime(time.strptime(date, "%Y-%m-%d %H:%M"))
    except ValueError:
        raise GameFileError(f"Date {date!r} is not a date such as 2026.11.26") from None


def check_tags(tags: dict[str, str]) -> dict[str, str]:
    """The tags as a game may hold them, names cleaned (see the module): every road in
    (``open``, a drop, Ctrl+V, ``games --import``) reads a game's text through here, so
    nothing the window or the archive shows can be text no font draws.

    Raises:
        GameFileError: a tag that is not text, or a name that cannot be shown; it says
        which and why.
    """
    checked = {}
    for name, value in tags.items():
        found = _NOT_TEXT.search(value)
        if found is not None:
            what = "a NUL character" if found.group() == "\x00" else f"a lone surrogate (U+{ord(found.group()):04X})"
            raise GameFileError(f"its {name} tag holds {what}, which is not text")
        if name in NAME_TAGS:
            value = " ".join(value.split())  # a name is one line: tabs and line breaks are spaces
            if len(value) > MAX_NAME_TEXT:
                raise GameFileError(f"the name in {name} is {len(value):,} characters long; at most {MAX_NAME_TEXT}")
            hidden = next((char for char in value if not char.isprintable()), None)
            if hidden is not None:
                raise GameFileError(
                    f"the name in {name} holds U+{ord(hidden):04X}, a character that cannot be shown "
                    "(a control or format character)"
                )
        elif len(value) > MAX_TAG_TEXT:
            raise GameFileError(
                f"its {name} tag is {len(value):,} characters long; a tag holds at most {MAX_TAG_TEXT:,}"
            )
        checked[name] = value
    return checked


def _game_of(chunk: _Chunk) -> GameText:
    """The game a chunk holds, its text and every move checked (``GameFileError`` says
    why not)."""
    if chunk.problem:
        raise GameFileError(chunk.problem)
    tags = check_tags(chunk.tags)
    start_value = tags.pop("Start", None) or tags.pop("FEN", None)
    rules = rules_from_text(tags.pop("Rules")) if "Rules" in tags else STANDARD
    start, to_move = None, MAX
    if start_value:
        rows, _, side = start_value.strip().rpartition(" ")
        try:
            start, to_move = parse_board_text("\n".join([*rows.split("/"), side]), gravity=rules.gravity)
        except BoardFileError as error:
            raise GameFileError(f"Start {start_value!r}: {error}") from None
        if start.shape != (rules.rows, rules.cols):
            if "Rules" in chunk.tags:
                raise GameFileError(f"Start is {start.shape[0]}x{start.shape[1]} but Rules say {rules.describe()}")
            rules = Rules(start.shape[0], start.shape[1], rules.connect, rules.gravity, rules.mode)
    text, written = _move_words(" ".join(chunk.moves).split())
    result = tags.pop("Result", None)
    result = OLD_RESULTS.get(result, result) if result else written
    game = GameText(
        rules,
        (),
        start,
        to_move,
        tags.pop("First", None),
        tags.pop("Second", None),
        _number(tags, "FirstDepth"),
        _number(tags, "SecondDepth"),
        result or "*",
        _played_at(tags),
        tags,
        chunk.line,
    )
    if game.result not in RESULTS:
        raise GameFileError(f"Result {game.result!r} is none of 1-0, 0-1, 1/2-1/2, *")
    game.moves = _checked_moves(game, text)
    return game


def _checked_moves(game: GameText, text: str) -> tuple[int, ...]:
    """The moves, each legal in turn; the result must agree with a finished board."""
    try:
        moves = parse_moves(text, game.rules)
    except NotationError as error:
        raise GameFileError(f"its moves cannot be read: {error}") from None
    board = Board(game.rules, _start_grid(game), game.start_to_move)
    if board.is_game_over():
        raise GameFileError("its start position is already over")
    for ply, move in enumerate(moves, start=1):
        try:
            board.push(move)
        except IllegalMoveError as error:
            raise GameFileError(f"move {ply} ({format_move(move, game.rules)}): {error}") from None
    outcome = board.outcome()
    if outcome is not None:
        said = {MAX: "1-0", MIN: "0-1", None: "1/2-1/2"}[outcome.winner]
        if game.result == "*":
            game.result = said
        elif game.result != said:
            raise GameFileError(f"its Result is {game.result} but the board says {said}")
    return tuple(moves)


def each_game(text: str) -> Iterator[GameText | GameFileError]:
    """Every game of a file in order, or for a game that cannot be read the error that
    says which and why in one line (``game 2 (line 11): move 5 (4): column 4 is full``)."""
    for number, chunk in enumerate(_chunks(text), start=1):
        if number > MAX_GAMES:
            yield GameFileError(f"games after the first {MAX_GAMES:,} were not read")
            return
        try:
            game = _game_of(chunk)
        except GameFileError as error:
            yield GameFileError(f"game {number} (line {chunk.line}): {error}")
        else:
            game.number = number
            yield game


def read_games(text: str) -> tuple[list[GameText], list[str]]:
    """The games of a file that can be read, and one line for each that cannot."""
    games: list[GameText] = []
    problems: list[str] = []
    for item in each_game(text):
        if isinstance(item, GameText):
            games.append(item)
        else:
            problems.append(str(item))
    return games, problems


def looks_like_game_file(text: str) -> bool:
    """The text has a tag line or numbered moves: a game file, not a bare move string."""
    return any(_TAG_LINE.fullmatch(line.strip()) for line in text.splitlines()[:50]) or bool(
        re.search(r"(^|\s)1\.", text[:2000])
    )


# -- the archive's games -------------------------------------------------------------------

_ARCHIVE_RESULTS = {"1-0": "1", "0-1": "2", "1/2-1/2": "draw"}


def record_game(record: GameRecord) -> GameText:
    """A stored game as a game of the file."""
    result = {"1": "1-0", "2": "0-1", "draw": "1/2-1/2"}[record.result.value]
    tags = {"Id": str(record.id)} if record.id is not None else {}
    return GameText(
        record.rules,
        tuple(record.moves),
        None,
        MAX,
        record.first,
        record.second,
        record.first_depth,
        record.second_depth,
        result,
        record.played_at,
        tags,
    )


def game_record(game: GameText, *, now: float | None = None) -> GameRecord:
    """The archive's record of a game read from a file (``played_at``: its time, else
    ``now``).

    Raises:
        GameFileError: the archive cannot keep it (a set-up start, no result, a name or
        depth out of its bounds); the message says why.
    """
    if not game.from_empty:
        raise GameFileError("it starts from a set-up position; the archive keeps games from the empty board")
    if game.result == "*":
        raise GameFileError("it has no result (Result *); the archive keeps finished games")
    names = []
    for name in (game.first, game.second):
        name = " ".join((name or HUMAN).split()) or HUMAN
        names.append(name if len(name) <= MAX_NAME else name[: MAX_NAME - 3] + "...")
    played = game.played_at if game.played_at is not None else (time.time() if now is None else now)
    record = GameRecord(
        None,
        played,
        game.rules,
        names[0],
        names[1],
        game.moves,
        GameResult(_ARCHIVE_RESULTS[game.result]),
        game.first_depth,
        game.second_depth,
    )
    try:
        check_record(record)
    except ValueError as error:
        raise GameFileError(str(error)) from None
    return record
