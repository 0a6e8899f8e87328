"""Anything a player may hand the game, turned into a game: ``read_source``.

A SOURCE is one of
- a move string from the empty board: ``4453`` (``game.notation``);
- a solver-page link with ``?pos=``: ``https://connect4.gamesolver.org/?pos=4453``
  (1-based columns on the standard board; ``pos=`` empty is the empty board);
- a game file (``game.game_file``: tags and moves, several games in one file);
- a Max-Connect-4 board file (``game.board_file``: rows of digits, then the player to
  move): a position without moves;
- the name of a file holding any of these, or (pasted, dropped) its text.

``open``, ``analyze``, ``review``, ``solve`` and ``explore`` on the command line, a file
dropped on the window and Ctrl+V all read through here, so each takes the same sources and
says the same one line when it cannot; a game file's games come from its one reader,
``game.game_file.each_game`` (which ``games --import`` reads too), so the same checks hold
its names and moves on every road.  Nothing here imports pygame.
"""

from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from game.board import IllegalMoveError
from game.board_file import BoardFileError, parse_board_text
from game.game_file import GameFileError, GameText, each_game, looks_like_game_file
from game.i18n import _
from game.notation import NotationError, ascii_digits, parse_moves
from game.regular_file import NotRegularFile, TooLarge, read_regular
from game.rules import STANDARD, Rules, RulesError

MAX_SOURCE_BYTES = 1 << 20
"""A file past 1 MB is refused unread (a game file of thousands of games is less)."""
SOLVER_SITE = "connect4.gamesolver.org"
SOLVER_LINK = f"https://{SOLVER_SITE}/?pos="
LINK_HOSTS = ("gamesolver.org",)
"""Sites whose ``?pos=`` links are read (and their subdomains)."""
_MOVES_TEXT = re.compile(r"[\s,]*(?:[0-9a-lA-L][\s,]*)*")
"""What a move string can be made of (``is_moves_text``): text of only these is moves, never
a file name (``./NAME`` names such a file)."""
_LINK = re.compile(r"(?i)(https?://|www\.|[\w-]+(\.[\w-]+)+/)")


class SourceError(ValueError):
    """A source that is no game; the message says why in one line."""


@dataclass
class Source:
    """What a source held: the game, where it came from, and how many games its file has."""

    game: GameText
    label: str
    games_in_file: int = 1


def is_moves_text(text: str) -> bool:
    """True for text made only of moves (columns 1-9 or a-l, cells such as d1) and the spaces
    or commas between them, in any digits (``４４５３`` too, refused by ``other_digits``): a
    SOURCE read as moves, never as a file name."""
    return _MOVES_TEXT.fullmatch(ascii_digits(text)) is not None


def other_digits(text: str) -> None:
    """Refuse a move string written in digits other than ASCII (full-width ``４４５３``,
    Arabic-Indic ``٤٤٥٣``), naming the ASCII one meant: the game writes and links only ASCII
    move strings, and the same text must not mean a file on one command and moves on another.

    Raises:
        SourceError: ``text`` is such a move string.
    """
    meant = ascii_digits(text)
    if meant != text and _MOVES_TEXT.fullmatch(meant):
        raise SourceError(
            _("{text!r} has digits other than ASCII: write the columns as {meant}").format(
                text=text.strip(), meant=meant.strip()
            )
        )


def shown(text: str, width: int = 60) -> str:
    """A source as a message quotes it: on one line, at most about ``width`` characters."""
    text = " ".join(text.split()) if "\n" in text else text
    text = text if text.isprintable() else repr(text)
    return text if len(text) <= width else text[: width - 3] + "..."


def solver_link(moves: str) -> str:
    """The solver page's link for a move string of the standard board."""
    return SOLVER_LINK + moves


def read_file(name: str | Path, label: str, kind: str, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of the regular file ``name`` (``game.regular_file``): a folder (not
    ``kind``), a device, a pipe, a link to one or a file over ``limit`` bytes is refused
    unread, in one line."""
    try:
        return read_regular(name, limit)
    except OSError as error:
        raise file_error(error, name, label, kind, limit) from None


def file_error(error: OSError, name: str | Path, label: str, kind: str, limit: int) -> SourceError:
    """What a file that cannot be read as ``kind`` is, in one line."""
    if isinstance(error, NotRegularFile) and error.errno == errno.EISDIR:
        return SourceError(_("{label} is a folder, not {kind}").format(label=label, kind=kind))
    if isinstance(error, NotRegularFile):
        return SourceError(_("{label} is not a regular file: it is {what}").format(label=label, what=error.strerror))
    if isinstance(error, TooLarge):
        size = os.stat(name).st_size
        return SourceError(
            _("{label} is {st_size:,} bytes; input files are at most {limit:,}").format(
                label=label, st_size=size, limit=limit
            )
        )
    return SourceError(_("cannot read {label}: {value}").format(label=label, value=error.strerror or error))


def read_text_file(name: str | Path) -> str:
    """A file's UTF-8 text, the file checked first (``read_file``)."""
    label = shown(str(name))
    data = read_file(name, label, _("a game, board or move file"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError(_("{label} is not a text file (bytes that are not UTF-8)").format(label=label)) from None


def is_link(text: str) -> bool:
    """``text`` is a web link (with or without ``https://``)."""
    return bool(_LINK.match(text.strip())) and " " not in text.strip() and "\n" not in text.strip()


def read_link(link: str) -> GameText:
    """The position of a solver-page link (standard board; ``?pos=`` 1-based columns)."""
    text = link.strip()
    parts = urlsplit(text if "://" in text else "https://" + text)
    host = (parts.hostname or "").lower()
    wanted = _("only links of {SOLVER_SITE} with ?pos= are understood, such as {SOLVER_LINK}4453").format(
        SOLVER_SITE=SOLVER_SITE, SOLVER_LINK=SOLVER_LINK
    )
    if not any(host == site or host.endswith("." + site) for site in LINK_HOSTS):
        raise SourceError(_("unknown link {shown}: {wanted}").format(shown=shown(text), wanted=wanted))
    query = parse_qs(parts.query, keep_blank_values=True)
    if "pos" not in query:
        raise SourceError(_("the link {shown} has no ?pos=: {wanted}").format(shown=shown(text), wanted=wanted))
    pos = query["pos"][0].strip()
    if not re.fullmatch(r"[1-7]*", pos):
        raise SourceError(
            _("the link's pos={shown} is not a move string of columns 1 to 7").format(shown=shown(pos, 30))
        )
    return _moves_game(pos, STANDARD, _("the link's pos={shown}").format(shown=shown(pos, 30)))


def _moves_game(text: str, rules: Rules, label: str) -> GameText:
    try:
        moves = parse_moves(text, rules)
        game = GameText(rules, tuple(moves))
        game.board()  # every move legal in turn
    except NotationError as error:
        raise SourceError(_("bad move string {label}: {error}").format(label=label, error=error)) from None
    except IllegalMoveError as error:
        raise SourceError(_("move string {label}: {error}").format(label=label, error=error)) from None
    return game


def _board_game(text: str, rules: Rules, label: str, rows: int | None, cols: int | None) -> GameText:
    size = {name: value for name, value in (("rows", rows), ("cols", cols)) if value is not None}
    try:
        grid, to_move = parse_board_text(text, gravity=rules.gravity, **size)
        board_rules = replace(rules, rows=grid.shape[0], cols=grid.shape[1])
    except (BoardFileError, RulesError) as error:
        raise SourceError(f"{label}: {error}") from None
    return GameText(board_rules, (), grid, to_move)


def _is_board_text(text: str) -> bool:
    """Rows of board digits (most lines only 0, 1 and 2), then the player to move: a
    board file, even a damaged one (whose error then names its line)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    rows = [line for line in lines[:-1] if line and set(line) <= set("012")]
    return len(lines) >= 5 and len(rows) * 2 > len(lines) - 1 and len({len(row) for row in rows}) == 1


def _moves_lines(text: str, rules: Rules, label: str, number: int) -> Source:
    """A file of move strings, one game a line (``games --export FILE.txt``, benchmark files)."""
    lines = [line.split()[0] for line in text.splitlines() if line.split()]
    if not 1 <= number <= len(lines):
        raise SourceError(
            _("{label} holds {count} games; there is no game {number}").format(
                label=label, count=len(lines), number=number
            )
        )
    where = _("line {number} of {label}").format(number=number, label=label) if len(lines) > 1 else label
    return Source(_moves_game(lines[number - 1], rules, f"{where} {shown(lines[number - 1])!r}"), where, len(lines))


def read_text(
    text: str,
    rules: Rules = STANDARD,
    *,
    label: str | None = None,
    number: int = 1,
    rows: int | None = None,
    cols: int | None = None,
) -> Source:
    """The game in ``text``: a game file (its game ``number``), a board file, a link or
    a move string (``label`` names it in messages: "the text" by default)."""
    label = label or _("the text")
    stripped = text.strip()
    if not stripped:
        raise SourceError(_("{label} is empty: no game in it").format(label=label))
    if is_link(stripped) and ("?" in stripped or "://" in stripped):
        return Source(read_link(stripped), _("the link"))
    if _is_board_text(stripped):
        return Source(_board_game(stripped, rules, label, rows, cols), label)
    if "\n" not in stripped:
        other_digits(stripped)
    if not looks_like_game_file(stripped) and all(
        _MOVES_TEXT.fullmatch(line.split()[0]) for line in stripped.splitlines() if line.split()
    ):
        return _moves_lines(stripped, rules, label, number)
    if not looks_like_game_file(stripped) and "\n" not in stripped:
        raise SourceError(
            _("{label} is no game: neither a move string such as 4453, a link with ?pos=, nor a game file").format(
                label=label
            )
        )
    return _file_game(stripped, label, number)


def _file_game(text: str, label: str, number: int) -> Source:
    found: list[GameText | GameFileError] = list(each_game(text))
    if not found:
        raise SourceError(_("{label} holds no game").format(label=label))
    if not 1 <= number <= len(found):
        raise SourceError(
            _("{label} holds {count} games; there is no game {number}").format(
                label=label, count=len(found), number=number
            )
        )
    chosen = found[number - 1]
    if isinstance(chosen, GameFileError):
        raise SourceError(f"{label}: {chosen}")
    where = (
        _("game {number} of {count} in {label}").format(number=number, count=len(found), label=label)
        if len(found) > 1
        else label
    )
    return Source(chosen, where, len(found))


def read_source(
    source: str, rules: Rules = STANDARD, *, number: int = 1, rows: int | None = None, cols: int | None = None
) -> Source:
    """The game a SOURCE names (see the module): text made only of moves is moves; a link
    is a link; anything else is a file's name (``./NAME`` for a file named like moves).

    ``rules`` are for move strings and board files (a board file gives its own size,
    unless ``rows``/``cols`` demand one); a game file and a link say their own rules.

    Raises:
        SourceError: one line saying why ``source`` is no game.
    """
    if "\x00" in source:
        raise SourceError(_("{shown} holds a NUL character").format(shown=shown(source)))
    text = source.strip()
    other_digits(text)
    if _MOVES_TEXT.fullmatch(text):  # "" too: the empty board
        return Source(_moves_game(text, rules, f"{shown(text)!r}"), _("the moves"))
    if is_link(text) and not os.path.exists(source):
        return Source(read_link(text), _("the link"))
    contents = read_text_file(source)
    return read_text(
        contents, rules, label=shown(os.path.basename(source) or source), number=number, rows=rows, cols=cols
    )
