"""Opening books of the standard board, read from the ``bitbully-databases`` package.

The package (MIT licence, Markus Thill) ships three sorted binary files of positions
with exactly 8 or 12 discs (first player to move) and their exact values:

- ``book_8ply.dat``: 3-byte big-endian records; the two low bits hold the value for the
  first player (0 draw, 1 loss); a position missing from the file is a first-player win.
- ``book_12ply.dat``: the same with 4-byte signed records.
- ``book_12ply_distances.dat``: 5-byte records, a 4-byte signed key and a signed byte:
  0 draw, ``100 - d`` when the first player wins ``d`` plies from now, ``d - 100`` when
  it loses ``d`` plies from now.

A key is the position's Huffman code, read column by column from the left, bottom up:
``10`` a first-player disc, ``11`` a second-player disc, ``0`` the end of a column, one
more ``0`` at the very end.  A position is stored once for itself and its mirror image,
so a look-up tries both.

Here the files are read lazily (nothing at import, each file on its first look-up),
memory-mapped and searched with numpy ``searchsorted``.  Values are returned in the
benchmark score convention of ``ai.solver`` (from the side to move: 22 minus the winner's
discs at the end on 6x7), so the solver can stop at the book.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
import mmap
import os
import random
import stat
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ai.bitboard import Geometry, geometry
from game.rules import STANDARD

if TYPE_CHECKING:
    from game.board import Board

ROWS, COLS = STANDARD.rows, STANDARD.cols
HEIGHT = ROWS + 1


class BookError(LookupError):
    """A position a book cannot answer, or a book that cannot be used (missing, not a
    regular file, damaged): the message names the file and what is wrong."""


class BookFile(enum.Enum):
    """The three files of ``bitbully-databases``: (package name, plies, record bytes)."""

    PLY_8 = ("8-ply", 8, 3)
    PLY_12 = ("12-ply", 12, 4)
    PLY_12_DISTANCES = ("12-ply-dist", 12, 5)

    @property
    def package_name(self) -> str:
        return self.value[0]

    @property
    def plies(self) -> int:
        return self.value[1]

    @property
    def record_bytes(self) -> int:
        return self.value[2]

    @property
    def has_distances(self) -> bool:
        return self is BookFile.PLY_12_DISTANCES


KNOWN_VERSION = "0.0.2"
"""The ``bitbully-databases`` release whose files were checked entry by entry (tests/test_book.py)."""
KNOWN_FILES = {
    BookFile.PLY_8: (103_545, "d6585494f36e52a6f3731062010c351d8bc168965244968af8f65d8e1c922f88"),
    BookFile.PLY_12: (6_943_780, "3d4b1b5682f67f360e67c61f2faa6db98a94f4647577ec9bf19131a8d00f7956"),
    BookFile.PLY_12_DISTANCES: (21_004_495, "1e01874dbb9b296a96baa2f5483ae69333ac7009377b34b222f112d9d8e89704"),
}
"""(size in bytes, SHA-256) of each file of ``KNOWN_VERSION``: a file of that release that
differs in one byte is damaged."""
MAX_BOOK_BYTES = 64 << 20
"""A book file above this size is refused unread (the largest known one is 21 MB)."""
SAMPLE_ENTRIES = 16
"""Entries of a book of another release checked against the exact solver."""
PLAYED_POSITIONS = 64
"""Positions reached by random play that a book of another release is also checked on: a
packed book reads a missing position as a first-player win, so a file cut short is only
caught on positions it lacks, never on its own entries."""
CHECK_SECONDS = 20.0
"""The most the solver may spend on one book's check (positions it cannot finish in time
are not counted; too few finished and the book is not used)."""
BLOCK = 1024
"""Records per block of the two-level search: a sparse index of every ``BLOCK``-th key is
held in memory, one block of the mapped file is read per look-up (the keys are never copied
whole)."""
CHECKS_FILE = "book-checks.json"
"""The verdicts of earlier checks, in the user's cache folder, by path, inode, size, mtime and ctime."""


def _package():
    try:
        import bitbully_databases
    except ImportError as error:
        raise BookError("the opening books need the 'bitbully-databases' package (pip install it)") from error
    return bitbully_databases


def book_path(which: BookFile) -> Path:
    """The file of ``which`` inside the installed package."""
    try:
        return Path(_package().BitBullyDatabases.get_database_path(which.package_name))
    except BookError:
        raise
    except Exception as error:  # the package's own look-up failed (a damaged install)
        raise BookError(f"the {which.package_name} book cannot be found: {error}") from error


def package_version() -> str:
    """The version of the installed ``bitbully-databases`` ('' when unknown)."""
    return str(getattr(_package(), "__version__", ""))


def cache_folder() -> Path:
    """The user's cache folder for this program (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "connect-four"


MAX_CHECKS_BYTES = 1 << 20
"""A verdict file above this size is ignored (a few hundred bytes per checked file)."""


def _read_verdicts() -> dict[str, str]:
    """The cached verdicts; none when the file is missing, damaged, too large or not a
    regular file (opened without blocking: a FIFO in its place must not hang us)."""
    try:
        fd = os.open(cache_folder() / CHECKS_FILE, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return {}
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CHECKS_BYTES:
            return {}
        with os.fdopen(os.dup(fd), "rb") as file:
            found = json.loads(file.read(MAX_CHECKS_BYTES))
    except (OSError, ValueError):
        return {}
    finally:
        os.close(fd)
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def _store_verdict(key: str, verdict: str) -> None:
    """Remember a verdict; an unwritable cache folder only means checking again next time."""
    verdicts = _read_verdicts()
    verdicts[key] = verdict
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f"{CHECKS_FILE}.{os.getpid()}.tmp"
        temporary.write_text(json.dumps(verdicts, indent=0))
        os.replace(temporary, folder / CHECKS_FILE)
    except OSError:
        pass


def _open_regular(path: str | Path, name: str, expected: str) -> tuple[int, os.stat_result]:
    """Open ``path`` without blocking (a FIFO would wait for a writer) and return the
    descriptor and its stat; the caller closes it.

    Raises:
        BookError: it cannot be opened, or is not a regular file (``name`` is ``expected``'s).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise BookError(f"{name} cannot be read: {error.strerror or error}") from error
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BookError(f"{name} is {_file_kind(info.st_mode)}, not {expected}")
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def _file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


@functools.lru_cache(maxsize=256)
def _column_code(first_bits: int, height: int) -> tuple[int, int]:
    """(code, bit length) of one column: its discs bottom up, then a ``0``."""
    code = 0
    for row in range(height):
        code = code << 2 | (2 if first_bits >> row & 1 else 3)
    return code << 1, 2 * height + 1


def huffman_key(first: int, second: int, *, mirror: bool = False) -> tuple[int, int]:
    """(code, bit length) of the standard-board position (``first`` = first player's bits)."""
    mask = first | second
    code = length = 0
    column_mask = (1 << HEIGHT) - 1
    columns = range(COLS - 1, -1, -1) if mirror else range(COLS)
    for col in columns:
        shift = col * HEIGHT
        height = ((mask >> shift) & column_mask).bit_length()
        column_code, bits = _column_code((first >> shift) & column_mask, height)
        code = code << bits | column_code
        length += bits
    return code << 1, length + 1


def position_of_key(code: int, length: int) -> tuple[int, int]:
    """The (first, second) bitboards of a Huffman key of ``length`` bits (inverse of
    ``huffman_key``; a negative 32-bit key is read as its unsigned bits)."""
    code &= (1 << length) - 1
    bits = format(code, f"0{length}b")
    first = second = 0
    col = row = index = 0
    while col < COLS:
        if bits[index] == "0":  # end of this column
            col, row, index = col + 1, 0, index + 1
            continue
        bit = 1 << (col * HEIGHT + row)
        if bits[index + 1] == "0":
            first |= bit
        else:
            second |= bit
        row, index = row + 1, index + 2
    return first, second


def open_book_file(which: BookFile, path: Path) -> tuple[mmap.mmap, os.stat_result]:
    """Map ``path`` read-only after checking that it is a regular file of a sane size.

    The file is opened without blocking (a FIFO in its place would otherwise wait for a
    writer for ever) and refused unless ``fstat`` says it is a regular file.

    Raises:
        BookError: missing, unreadable, not a regular file, empty, too large, or not a
            whole number of records.
    """
    name = f"the {which.package_name} book {path}"
    fd, info = _open_regular(path, name, "a book file")
    try:
        size = info.st_size
        if size == 0:
            raise BookError(f"{name} is empty")
        if size > MAX_BOOK_BYTES:
            raise BookError(f"{name} is {size:,} bytes, more than any book ({MAX_BOOK_BYTES:,} at most)")
        if size % which.record_bytes:
            raise BookError(
                f"{name} is damaged: {size:,} bytes is not a whole number of {which.record_bytes}-byte records"
            )
        try:
            mapped = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as error:
            raise BookError(f"{name} cannot be read: {error}") from error
    finally:
        os.close(fd)
    return mapped, info


class OpeningBook:
    """One book file, checked and mapped on first use.  ``score`` answers positions with
    ``plies`` discs.

    Invariant once loaded: the records are in ascending key order (checked), and
    ``_index[i]`` is the key of record ``i * BLOCK``.
    """

    def __init__(self, which: BookFile):
        self.which = which
        self.plies = which.plies
        self.path: Path | None = None
        self._mapped: mmap.mmap | None = None
        self._records: np.ndarray | None = None  # a view of the mapped file, never copied
        self._index: np.ndarray | None = None  # native int64 keys of every BLOCK-th record
        self._error: BookError | None = None
        self._ready = False  # checked and mapped
        self._lock = threading.Lock()

    # -- reading records ------------------------------------------------------------
    def _view(self, mapped: mmap.mmap) -> np.ndarray:
        if self.which is BookFile.PLY_8:
            return np.frombuffer(mapped, dtype=np.uint8).reshape(-1, 3)
        if self.which is BookFile.PLY_12:
            return np.frombuffer(mapped, dtype=">i4")
        return np.frombuffer(mapped, dtype=[("key", ">i4"), ("value", "i1")])

    def _codes(self, start: int, stop: int, step: int = 1) -> np.ndarray:
        """Records ``start:stop`` as native int64: the whole record of a packed book (key
        bits and value bits), the key of the distance book."""
        records = self._records
        assert records is not None
        if self.which is BookFile.PLY_8:
            raw = records[start:stop:step].astype(np.int64)
            return raw[:, 0] << 16 | raw[:, 1] << 8 | raw[:, 2]
        if self.which is BookFile.PLY_12:
            return records[start:stop:step].astype(np.int64)
        return records["key"][start:stop:step].astype(np.int64)

    def _value_codes(self, start: int, stop: int) -> np.ndarray:
        records = self._records
        assert records is not None
        if self.which.has_distances:
            return records["value"][start:stop].astype(np.int64)
        return self._codes(start, stop) & 3

    def _keys(self, start: int, stop: int, step: int = 1) -> np.ndarray:
        codes = self._codes(start, stop, step)
        return codes if self.which.has_distances else codes & ~3

    # -- checking -------------------------------------------------------------------
    def _check_structure(self, name: str) -> None:
        """Keys strictly ascending, value codes of the documented kinds (chunk by chunk)."""
        count = self._count()
        previous = None
        chunk = 1 << 18
        for start in range(0, count, chunk):
            keys = self._keys(start, min(start + chunk, count))
            if previous is not None and keys[0] <= previous or np.any(keys[1:] <= keys[:-1]):
                raise BookError(f"{name} is damaged: its positions are not in ascending order near record {start:,}")
            previous = keys[-1]
            values = self._value_codes(start, min(start + chunk, count))
            if self.which.has_distances:
                bad = (values != 0) & ((np.abs(values) < 70) | (np.abs(values) > 99))
            else:
                bad = values > 1
            if np.any(bad):
                where = start + int(np.argmax(bad))
                raise BookError(f"{name} is damaged: record {where:,} holds no valid value")

    def _check_sample(self, name: str) -> None:
        """Compare a few entries with the exact solver (``SAMPLE_ENTRIES``, chosen by a
        fixed seed): close finishes of the distance book solved without a book, entries
        of the packed books against the checked distance book."""
        from ai.solver import Solver

        if not self.which.has_distances:  # checked against the distance book: it must pass first
            try:
                book(BookFile.PLY_12_DISTANCES).check()
            except BookError as error:
                raise BookError(f"{name} cannot be checked without the 12-ply-dist book ({error})") from error
        rng = random.Random(12)
        count = self._count()
        checked = tries = 0
        solver = Solver(STANDARD, use_book=False) if self.which.has_distances else None
        while checked < SAMPLE_ENTRIES and tries < 200 * SAMPLE_ENTRIES:
            tries += 1
            first, second, stored = self._entry(rng.randrange(count))
            if solver is not None:
                if abs(stored) < 90:  # a finish within 10 plies: quick without a book
                    continue
                expected = solver.solve_bits(first, first | second).score
                found = self._score(first, second)
            else:
                exact = book(BookFile.PLY_12_DISTANCES).score(first, second) if self.plies == 12 else None
                if exact is None and self.plies == 12:
                    continue
                if exact is None:  # the 8-ply book: solve down to the 12-ply book
                    exact = Solver(STANDARD).solve_bits(first, first | second).score
                expected, found = (exact > 0) - (exact < 0), self._score(first, second)
            if found != expected:
                raise BookError(f"{name} is damaged: it gives {found} where the exact solver finds {expected}")
            checked += 1

    def _verify(self, name: str, info: os.stat_result) -> None:
        """The file of the known release byte for byte, or a book of another release that
        passes the structure and sample checks; the verdict is kept in the cache folder."""
        # The change time and inode too: a rewrite that keeps size and modification time
        # (a restore, ``touch -r``) still changes ``st_ctime``, which no program can set.
        key = f"{self.path}|{info.st_dev}|{info.st_ino}|{info.st_size}|{info.st_mtime_ns}|{info.st_ctime_ns}"
        verdict = _read_verdicts().get(key)
        if verdict == "ok":
            return
        if verdict is not None:
            raise BookError(verdict)
        try:
            self._verify_now(name, info)
        except BookError as error:
            _store_verdict(key, str(error))
            raise
        _store_verdict(key, "ok")

    def _verify_now(self, name: str, info: os.stat_result) -> None:
        assert self._mapped is not None
        size, digest = KNOWN_FILES[self.which]
        if package_version() == KNOWN_VERSION:
            if info.st_size != size:
                raise BookError(
                    f"{name} is damaged: {info.st_size:,} bytes, not the {size:,} of release {KNOWN_VERSION}"
                )
            if hashlib.sha256(self._mapped).hexdigest() != digest:
                raise BookError(f"{name} is damaged: its checksum differs from release {KNOWN_VERSION}'s")
            return
        self._check_structure(name)
        self._check_sample(name)
        self._check_played(name)

    def _check_played(self, name: str) -> None:
        """Check ``PLAYED_POSITIONS`` positions reached by random play (a fixed seed): the
        distance book must hold each one unless the side to move wins at once (the package
        leaves only those out); a packed book's value must have the sign of the exact score
        (the checked distance book's, or the solver's for the 8-ply book)."""
        from ai.solver import Solver, SolverStopped

        rng = random.Random(17)
        geo = standard_geometry()
        deadline = time.monotonic() + CHECK_SECONDS
        solver = Solver(STANDARD) if self.plies == 8 else None
        solved = 0
        for board in _played_positions(rng, self.plies, PLAYED_POSITIONS if solver is None else SAMPLE_ENTRIES):
            first, second = geo.from_grid(board.grid)
            if self.which.has_distances:
                if self._look(first, second) is None and not _wins_at_once(board):
                    raise BookError(f"{name} is damaged: it lacks positions of {self.plies} discs (cut short?)")
                continue
            if solver is None:
                exact = book(BookFile.PLY_12_DISTANCES).score(first, second)
                if exact is None:
                    continue
            else:
                try:
                    exact = solver.solve_bits(first, first | second, time_limit=deadline - time.monotonic()).score
                except SolverStopped:
                    break
                solved += 1
            expected, found = (exact > 0) - (exact < 0), self._score(first, second)
            if found != expected:
                raise BookError(f"{name} is damaged: it gives {found} where the exact solver finds {expected}")
        if solver is not None and solved < SAMPLE_ENTRIES // 4:
            raise BookError(f"{name} could not be checked within {CHECK_SECONDS:g} s")

    def check(self) -> OpeningBook:
        """Check and map the file (once); return the book.

        Raises:
            BookError: the file is missing, not a regular file or damaged (the same error
                on every later call).
        """
        if self._ready:
            return self
        with self._lock:
            if self._error is not None:
                raise self._error
            if not self._ready:
                try:
                    self._load()
                except BookError as error:
                    self._records = self._index = None
                    self._error = error
                    raise
                self._ready = True
        return self

    def _load(self) -> None:
        path = self.path = book_path(self.which)
        mapped, info = open_book_file(self.which, path)
        self._mapped = mapped
        self._records = self._view(mapped)
        self._index = self._keys(0, len(self._records), BLOCK)
        name = f"the {self.which.package_name} book {path}"
        self._verify(name, info)

    # -- look-ups -------------------------------------------------------------------
    def __len__(self) -> int:
        self.check()
        return self._count()

    def _count(self) -> int:
        assert self._records is not None
        return len(self._records)

    def entry(self, index: int) -> tuple[int, int, int]:
        """The ``index``-th stored position as (first, second, stored value): the raw
        value (distance code, or 0 draw / -1 loss in the packed books)."""
        self.check()
        return self._entry(index)

    def _entry(self, index: int) -> tuple[int, int, int]:
        key = int(self._keys(index, index + 1)[0])
        value = int(self._value_codes(index, index + 1)[0])
        if not self.which.has_distances:
            value = -value
        length = 24 if self.which is BookFile.PLY_8 else 32
        first, second = position_of_key(key, length)
        return first, second, value

    def _find(self, key: int) -> int | None:
        """The record of ``key`` (a first-player value code), or None when absent."""
        index = self._index
        assert index is not None
        block = int(index.searchsorted(key, side="right")) - 1
        if block < 0:
            return None
        start = block * BLOCK
        keys = self._keys(start, start + BLOCK)
        at = int(keys.searchsorted(key))
        if at >= len(keys) or int(keys[at]) != key:
            return None
        value = int(self._value_codes(start + at, start + at + 1)[0])
        return value if self.which.has_distances else -value  # packed: 0 draw, -1 first-player loss

    def _lookup(self, first: int, second: int) -> int | None:
        self.check()
        return self._look(first, second)

    def _look(self, first: int, second: int) -> int | None:
        for mirror in (False, True):
            code, length = huffman_key(first, second, mirror=mirror)
            if length == 32 and code >= 1 << 31:  # the 12-ply files store signed 32-bit keys
                code -= 1 << 32
            found = self._find(code)
            if found is not None:
                return found
        return None

    def score(self, first: int, second: int) -> int | None:
        """The position's value from the side to move (the first player, as plies are even).

        ``first`` and ``second`` are the players' bitboards (``ai.bitboard`` layout of the
        standard board).  The 12-ply distance book gives the benchmark score; the others
        only its sign (1 win, 0 draw, -1 loss).  None: the distance book lacks it (the
        package leaves out some positions where the side to move wins at once).

        Raises:
            BookError: the position does not have this book's number of discs, or the
                book cannot be used (``check``).
        """
        self.check()
        return self._score(first, second)

    def _score(self, first: int, second: int) -> int | None:
        played = (first | second).bit_count()
        if played != self.plies:
            raise BookError(f"the {self.which.package_name} book holds positions of {self.plies} discs, not {played}")
        found = self._look(first, second)
        if not self.which.has_distances:
            return 1 if found is None else found
        if found is None:
            return None
        if found == 0:
            return 0
        cells_half = STANDARD.cells // 2
        if found > 0:  # first player wins ``plies_left`` plies from now
            plies_left = 100 - found
            return cells_half + 1 - (played + plies_left + 1) // 2
        plies_left = 100 + found
        return -(cells_half + 1 - (played + plies_left) // 2)


def _played_positions(rng: random.Random, plies: int, count: int) -> list[Board]:
    """``count`` positions of ``plies`` discs reached by random legal play, none over."""
    from game.board import Board

    found: list[Board] = []
    while len(found) < count:
        board = Board(STANDARD)
        for _ in range(plies):
            board.push(rng.choice(board.legal_moves()))
            if board.is_game_over():
                break
        if not board.is_game_over():
            found.append(board)
    return found


def _wins_at_once(board: Board) -> bool:
    """The side to move has a move that makes four in a row."""
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        outcome = after.outcome()
        if outcome is not None and outcome.winner is not None:
            return True
    return False


EARLY_PLIES = 4
"""Up to this many discs an exact solve reads ``early_scores`` (solved once)."""
EARLY_FILE = Path(__file__).resolve().parent / "data" / "early_exact.txt"
"""Exact scores of every position of at most ``EARLY_PLIES`` discs, one of each mirror
pair, as ``MOVES SCORE`` lines: computed once by the solver searching down to the
12-ply book (``python -m ai.book``), because from so few discs that search takes seconds."""


def canonical_key(first: int, second: int) -> int:
    """One key for a position and its mirror image (the smaller Huffman code)."""
    return min(huffman_key(first, second)[0], huffman_key(first, second, mirror=True)[0])


EARLY_SHA256 = "e080f71252d03e7f39a88e8f718427c351b4ece0819db311f12d3de750a692fe"
"""SHA-256 of the shipped ``EARLY_FILE``: a table that differs is not used (``python -m
ai.book`` rebuilds the file and prints the new digest to put here)."""
MAX_EARLY_BYTES = 1 << 20
_early_error: BookError | None = None


def _read_early_file() -> str:
    """The text of ``EARLY_FILE``, checked: a regular file (opened without blocking), of
    sane size, with the shipped digest.

    Raises:
        BookError: missing, unreadable, not a regular file, or damaged.
    """
    name = f"the table of solved early positions {EARLY_FILE}"
    fd, info = _open_regular(EARLY_FILE, name, "a table")
    try:
        if info.st_size > MAX_EARLY_BYTES:
            raise BookError(f"{name} is {info.st_size:,} bytes, more than the table ({MAX_EARLY_BYTES:,} at most)")
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(MAX_EARLY_BYTES + 1)
    except OSError as error:
        raise BookError(f"{name} cannot be read: {error.strerror or error}") from error
    finally:
        os.close(fd)
    data = data.replace(b"\r\n", b"\n")  # a Windows checkout may turn the line ends to CRLF
    if hashlib.sha256(data).hexdigest() != EARLY_SHA256:
        raise BookError(f"{name} is damaged: its checksum differs from the shipped table's")
    return data.decode("ascii")


@functools.cache
def early_scores() -> dict[int, int]:
    """The table of ``EARLY_FILE`` by ``canonical_key``; empty, with the reason in
    ``book_problems``, when the file fails its check (the solver then searches)."""
    from game.board import Board

    global _early_error
    _early_error = None
    table: dict[int, int] = {}
    try:
        text = _read_early_file()
    except BookError as error:
        _early_error = error
        return table
    geo = standard_geometry()
    for line in text.splitlines():
        words = line.split()
        if len(words) != 2:
            continue
        moves, score = words
        first, second = geo.from_grid(Board.from_moves("" if moves == "-" else moves).grid)
        table[canonical_key(first, second)] = int(score)
    return table


def build_early_file(path: Path = EARLY_FILE, plies: int = EARLY_PLIES) -> int:
    """Solve every position of at most ``plies`` discs (one per mirror pair); write them."""
    from ai.solver import Solver
    from game.board import Board

    geo = standard_geometry()
    solver = Solver(STANDARD)
    seen: set[int] = set()
    lines = []
    frontier = [Board()]
    for _ in range(plies + 1):
        following = []
        for board in frontier:
            first, second = geo.from_grid(board.grid)
            key = canonical_key(first, second)
            if key in seen or board.is_game_over():
                continue
            seen.add(key)
            score = solver.solve_grid(board.grid, board.to_move).score
            lines.append(f"{board.moves_string() or '-'} {score}")
            for move in board.legal_moves():
                child = board.copy()
                child.push(move)
                following.append(child)
        frontier = following
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def book(which: BookFile = BookFile.PLY_12_DISTANCES) -> OpeningBook:
    """The shared (lazily loaded) book of ``which``: one per file, however it is asked for
    (``book()`` and ``book(BookFile.PLY_12_DISTANCES)`` are the same book)."""
    return _shared_book(which)


@functools.cache
def _shared_book(which: BookFile) -> OpeningBook:
    return OpeningBook(which)


def book_problems() -> list[str]:
    """Why each book that failed its check so far is not used (empty: none failed)."""
    problems = [str(book(which)._error) for which in BookFile if book(which)._error is not None]
    if _early_error is not None:
        problems.append(str(_early_error))
    return list(dict.fromkeys(problems))  # a missing package is one problem, not three


def standard_geometry() -> Geometry:
    """The bitboard geometry the books are keyed in."""
    return geometry(STANDARD)


if __name__ == "__main__":
    started = time.perf_counter()
    count = build_early_file()
    print(f"wrote {count} positions to {EARLY_FILE} in {time.perf_counter() - started:.0f} s")
    digest = hashlib.sha256(EARLY_FILE.read_bytes().replace(b"\r\n", b"\n")).hexdigest()
    print(f"its SHA-256, for EARLY_SHA256 in ai/book.py: {digest}")
