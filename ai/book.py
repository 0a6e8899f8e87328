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
from pathlib import Path

import numpy as np

from ai.bitboard import Geometry, geometry
from ai.solver import EARLY_PLIES
from game.rules import Rules

STANDARD_RULES = Rules()
ROWS, COLS = STANDARD_RULES.rows, STANDARD_RULES.cols
HEIGHT = ROWS + 1


class BookError(LookupError):
    """A position a book cannot answer (wrong number of discs, or a book file missing)."""


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
    def has_distances(self) -> bool:
        return self is BookFile.PLY_12_DISTANCES


def book_path(which: BookFile) -> Path:
    """The file of ``which`` inside the installed package."""
    try:
        from bitbully_databases import BitBullyDatabases
    except ImportError as error:  # pragma: no cover - a requirement of the project
        raise BookError("the opening books need the 'bitbully-databases' package (pip install it)") from error
    return Path(BitBullyDatabases.get_database_path(which.package_name))


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


class OpeningBook:
    """One book file, loaded on first use.  ``score`` answers positions with ``plies`` discs."""

    def __init__(self, which: BookFile):
        self.which = which
        self.plies = which.plies
        self._keys: np.ndarray | None = None  # sorted keys (value bits cleared where packed)
        self._raw: np.ndarray | None = None  # the records as read (packed books)
        self._values: np.ndarray | None = None  # the value bytes (distance book)

    def _load(self) -> None:
        path = book_path(self.which)
        if self.which is BookFile.PLY_8:
            raw = np.fromfile(path, dtype=np.uint8).reshape(-1, 3).astype(np.int64)
            self._raw = raw[:, 0] << 16 | raw[:, 1] << 8 | raw[:, 2]
            self._keys = self._raw & ~3
        elif self.which is BookFile.PLY_12:
            # Native int32 (a copy of the mapped file): searchsorted on big-endian data or
            # with a key of another type would convert the whole array on every call.
            self._raw = np.asarray(np.memmap(path, dtype=">i4", mode="r"), dtype=np.int32)
            self._keys = self._raw  # key bits never use the two low bits: order is the same
        else:
            records = np.memmap(path, dtype=[("key", ">i4"), ("value", "i1")], mode="r")
            self._keys = np.ascontiguousarray(records["key"]).astype(np.int32)
            self._values = records["value"]

    def __len__(self) -> int:
        if self._keys is None:
            self._load()
        assert self._keys is not None
        return len(self._keys)

    def entry(self, index: int) -> tuple[int, int, int]:
        """The ``index``-th stored position as (first, second, stored value): the raw
        value (distance code, or 0 draw / -1 loss in the packed books)."""
        if self._keys is None:
            self._load()
        assert self._keys is not None
        if self.which.has_distances:
            assert self._values is not None
            key, value = int(self._keys[index]), int(self._values[index])
        else:
            assert self._raw is not None
            record = int(self._raw[index])
            key, value = record & ~3, -(record & 3)
        length = 24 if self.which is BookFile.PLY_8 else 32
        first, second = position_of_key(key, length)
        return first, second, value

    def _find(self, key: int) -> int | None:
        """The record of ``key`` (a first-player value code), or None when absent."""
        keys = self._keys
        assert keys is not None
        index = int(keys.searchsorted(keys.dtype.type(key)))
        if index >= len(keys):
            return None
        if self.which.has_distances:
            if int(keys[index]) != key:
                return None
            assert self._values is not None
            return int(self._values[index])
        assert self._raw is not None
        record = int(self._raw[index])
        if record & ~3 != key:
            return None
        return -(record & 3)  # 0 draw, -1 first-player loss

    def _lookup(self, first: int, second: int) -> int | None:
        if self._keys is None:
            self._load()
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
            BookError: the position does not have this book's number of discs.
        """
        played = (first | second).bit_count()
        if played != self.plies:
            raise BookError(f"the {self.which.package_name} book holds positions of {self.plies} discs, not {played}")
        found = self._lookup(first, second)
        if not self.which.has_distances:
            return 1 if found is None else found
        if found is None:
            return None
        if found == 0:
            return 0
        cells_half = STANDARD_RULES.cells // 2
        if found > 0:  # first player wins ``plies_left`` plies from now
            plies_left = 100 - found
            return cells_half + 1 - (played + plies_left + 1) // 2
        plies_left = 100 + found
        return -(cells_half + 1 - (played + plies_left) // 2)


EARLY_FILE = Path(__file__).resolve().parent / "data" / "early_exact.txt"
"""Exact scores of every position of at most ``EARLY_PLIES`` discs, one of each mirror
pair, as ``MOVES SCORE`` lines: computed once by the solver searching down to the
12-ply book (``python -m ai.book``), because from so few discs that search takes seconds."""


def canonical_key(first: int, second: int) -> int:
    """One key for a position and its mirror image (the smaller Huffman code)."""
    return min(huffman_key(first, second)[0], huffman_key(first, second, mirror=True)[0])


@functools.cache
def early_scores() -> dict[int, int]:
    """The table of ``EARLY_FILE`` by ``canonical_key`` (empty if the file is missing)."""
    from game.board import Board

    table: dict[int, int] = {}
    if not EARLY_FILE.exists():
        return table
    geo = standard_geometry()
    for line in EARLY_FILE.read_text().splitlines():
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
    solver = Solver(STANDARD_RULES)
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


@functools.cache
def book(which: BookFile = BookFile.PLY_12_DISTANCES) -> OpeningBook:
    """The shared (lazily loaded) book of ``which``."""
    return OpeningBook(which)


def standard_geometry() -> Geometry:
    """The bitboard geometry the books are keyed in."""
    return geometry(STANDARD_RULES)


if __name__ == "__main__":
    import time

    started = time.perf_counter()
    count = build_early_file()
    print(f"wrote {count} positions to {EARLY_FILE} in {time.perf_counter() - started:.0f} s")
