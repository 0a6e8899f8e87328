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

This module only reads: it trusts the files of the known release by their size and
checksum.  A book of another release has no checksum to compare; the exact solver checks
it (``ai.book_check``, which the decider asks before a level uses a book), and until that
check has passed on the very file, ``OpeningBook.check`` refuses it (``BookUnchecked``).
The table of solved early positions is read here too; ``ai.book_check`` builds it.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import importlib
import json
import mmap
import os
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from ai.bitboard import Geometry, geometry
from game.regular_file import NotRegularFile, open_regular, read_regular, write_atomically
from game.rules import STANDARD

ROWS, COLS = STANDARD.rows, STANDARD.cols
HEIGHT = ROWS + 1


class BookError(LookupError):
    """A position a book cannot answer, or a book that cannot be used (missing, not a
    regular file, damaged): the message names the file and what is wrong."""


class BookUnchecked(BookError):
    """A book of another release that the exact solver has not checked yet: the reader
    refuses it until ``ai.book_check`` has (nothing is remembered, so that check can run)."""


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
BLOCK = 1024
"""Records per block of the two-level search: a sparse index of every ``BLOCK``-th key is
held in memory, one block of the file is read per look-up (the keys are never copied
whole).  Look-ups and the index read the file (``os.pread``), not the mapping: the pages
a mapping touches stay resident in the process (the whole 20 MB of the 12-ply book once
the index was built, in the AI worker all game long), the file's pages read are the
system's page cache, shared and given back under pressure.  The mapping serves the checks."""
INDEX_CHUNK = BLOCK * 256
"""Records read at once while the index is built (1.3 MB of the 12-ply book)."""
CHECKS_FILE = "book-checks.json"
"""The verdicts of earlier checks, in the user's cache folder, by path, inode, size, mtime and ctime."""


def _package() -> ModuleType:
    try:
        return importlib.import_module("bitbully_databases")
    except ImportError as error:
        raise BookError("the opening books need the 'bitbully-databases' package (pip install it)") from error


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


def cache_folder(name: str = "connect4") -> Path:
    """The user's cache folder for this program (``$XDG_CACHE_HOME`` or ``~/.cache``), named
    as every other folder of the program is (``connect4``: the compiled kernels' cache, the
    archive's and settings' folder)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / name


OLD_CACHE_NAME = "connect-four"
"""The name the verdicts' folder had before it took the program's one name: still read."""


MAX_CHECKS_BYTES = 1 << 20
"""A verdict file above this size is ignored (a few hundred bytes per checked file)."""


def _read_verdicts() -> dict[str, str]:
    """The cached verdicts; none when the file is missing, damaged, too large or not a
    regular file (``game.regular_file``: a FIFO in its place must not hang us)."""
    for folder in (cache_folder(), cache_folder(OLD_CACHE_NAME)):  # the old folder's, until written anew
        try:
            found = json.loads(read_regular(folder / CHECKS_FILE, MAX_CHECKS_BYTES))
        except FileNotFoundError:
            continue
        except (OSError, ValueError, RecursionError):
            return {}
        return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}
    return {}


def _store_verdict(key: str, verdict: str) -> None:
    """Remember a verdict; an unwritable cache folder (or a FIFO, a device or a link to one
    in the file's place, left as it is) only means checking again next time."""
    verdicts = _read_verdicts()
    verdicts[key] = verdict
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / CHECKS_FILE, json.dumps(verdicts, indent=0).encode("utf-8"))
    except OSError:
        pass


def _open_regular(path: str | Path, name: str, expected: str) -> tuple[int, os.stat_result]:
    """Open ``path`` through ``game.regular_file`` (without blocking: a FIFO would wait for a
    writer) and return the descriptor and its stat; the caller closes it.

    Raises:
        BookError: it cannot be opened, or is not a regular file (``name`` is ``expected``'s).
    """
    try:
        return open_regular(path)
    except NotRegularFile as error:
        raise BookError(f"{name} is {error.strerror}, not {expected}") from error
    except OSError as error:
        raise BookError(f"{name} cannot be read: {error.strerror or error}") from error


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
    if hasattr(mmap, "MADV_RANDOM"):  # POSIX: look-ups jump about, so no read-ahead and no
        mapped.madvise(mmap.MADV_RANDOM)  # neighbours mapped in: only the pages read count
    return mapped, info


ReleaseCheck = Callable[["OpeningBook", str], None]
"""The exact solver's check of a book of another release: (book, its name for messages);
raises ``BookError`` when the book is wrong (``ai.book_check``)."""


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
        self._fd: int | None = None  # the file, for look-ups (``os.pread``); open while the process runs
        # Looked up on every probe, so kept as plain attributes (an Enum's property costs a microsecond):
        self._size = which.record_bytes
        self._key_bytes = 4 if which.has_distances else which.record_bytes  # the key's bytes of a record
        self._signed = which is not BookFile.PLY_8  # the 12-ply files store signed 32-bit keys
        self._mask = -1 if which.has_distances else ~3  # a packed record's low two bits are its value
        self._index: np.ndarray | None = None  # native int64 keys of every BLOCK-th record
        self._bytes: np.ndarray | None = None  # the mapped file as bytes, for the compiled solver
        self._error: BookError | None = None
        self._ready = False  # checked and mapped
        self._lock = threading.Lock()

    # -- reading records ------------------------------------------------------------
    def _view(self, mapped: mmap.mmap | bytes) -> np.ndarray:
        if self.which is BookFile.PLY_8:
            return np.frombuffer(mapped, dtype=np.uint8).reshape(-1, 3)
        if self.which is BookFile.PLY_12:
            return np.frombuffer(mapped, dtype=">i4")
        return np.frombuffer(mapped, dtype=[("key", ">i4"), ("value", "i1")])

    def _read(self, start: int, stop: int) -> np.ndarray:
        """Records ``start:stop`` read from the file (a copy; see ``BLOCK``)."""
        assert self._fd is not None
        size = self.which.record_bytes
        return self._view(os.pread(self._fd, (stop - start) * size, start * size))

    def _codes_of(self, records: np.ndarray) -> np.ndarray:
        """``records`` as native int64: the whole record of a packed book (key bits and
        value bits), the key of the distance book."""
        if self.which is BookFile.PLY_8:
            raw = records.astype(np.int64)
            return raw[:, 0] << 16 | raw[:, 1] << 8 | raw[:, 2]
        if self.which is BookFile.PLY_12:
            return records.astype(np.int64)
        return records["key"].astype(np.int64)

    def _value_codes_of(self, records: np.ndarray) -> np.ndarray:
        if self.which.has_distances:
            return records["value"].astype(np.int64)
        return self._codes_of(records) & 3

    def _keys_of(self, records: np.ndarray) -> np.ndarray:
        codes = self._codes_of(records)
        return codes if self.which.has_distances else codes & ~3

    def _codes(self, start: int, stop: int, step: int = 1) -> np.ndarray:
        """Records ``start:stop`` of the mapping as ``_codes_of`` gives them."""
        assert self._records is not None
        return self._codes_of(self._records[start:stop:step])

    def _value_codes(self, start: int, stop: int) -> np.ndarray:
        assert self._records is not None
        return self._value_codes_of(self._records[start:stop])

    def _keys(self, start: int, stop: int, step: int = 1) -> np.ndarray:
        assert self._records is not None
        return self._keys_of(self._records[start:stop:step])

    def _record(self, data: bytes, at: int) -> tuple[int, int]:
        """(key, value code) of record ``at`` of ``data`` read from the file, as ``_keys_of``
        and ``_value_codes_of`` give them (plain Python: a look-up reads a few records)."""
        size = self.which.record_bytes
        record = data[at * size : (at + 1) * size]
        if self.which.has_distances:
            return int.from_bytes(record[:4], "big", signed=True), int.from_bytes(record[4:], "big", signed=True)
        code = int.from_bytes(record, "big", signed=self.which is BookFile.PLY_12)
        return code & ~3, code & 3

    def _read_index(self) -> np.ndarray:
        """The key of every ``BLOCK``-th record, read from the file chunk by chunk."""
        count = self.stored_count()
        parts = [
            self._keys_of(self._read(start, min(start + INDEX_CHUNK, count))[::BLOCK])
            for start in range(0, count, INDEX_CHUNK)
        ]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

    # -- checking -------------------------------------------------------------------
    def _check_structure(self, name: str) -> None:
        """Keys strictly ascending, value codes of the documented kinds (chunk by chunk)."""
        count = self.stored_count()
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

    def _verify(self, name: str, info: os.stat_result, release_check: ReleaseCheck | None) -> None:
        """The file of the known release byte for byte, or a book of another release that
        passes the structure check and ``release_check``; the verdict is kept in the cache
        folder (a book of another release not checked yet leaves none)."""
        # The change time and inode too: a rewrite that keeps size and modification time
        # (a restore, ``touch -r``) still changes ``st_ctime``, which no program can set.
        key = f"{self.path}|{info.st_dev}|{info.st_ino}|{info.st_size}|{info.st_mtime_ns}|{info.st_ctime_ns}"
        verdict = _read_verdicts().get(key)
        if verdict == "ok":
            return
        if verdict is not None:
            raise BookError(verdict)
        try:
            self._verify_now(name, info, release_check)
        except BookUnchecked:
            raise
        except BookError as error:
            _store_verdict(key, str(error))
            raise
        _store_verdict(key, "ok")

    def _verify_now(self, name: str, info: os.stat_result, release_check: ReleaseCheck | None) -> None:
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
        if release_check is None:
            raise BookUnchecked(
                f"{name} is of release {package_version() or '(unknown)'}, not {KNOWN_VERSION}: "
                "the exact solver has not checked it yet"
            )
        release_check(self, name)

    def check(self, release_check: ReleaseCheck | None = None) -> OpeningBook:
        """Check and map the file (once); return the book.

        The known release is checked by its size and checksum.  A book of another release
        also needs the exact solver's check: ``release_check`` runs it (``ai.book_check``
        passes it), else only an earlier passed check of the same file trusts the book.

        Raises:
            BookUnchecked: a book of another release the solver has not checked yet.
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
                    self._load(release_check)
                except BookUnchecked:
                    raise
                except BookError as error:
                    self._records = self._index = None
                    self._error = error
                    raise
                self._ready = True
        return self

    def _load(self, release_check: ReleaseCheck | None) -> None:
        path = self.path = book_path(self.which)
        mapped, info = open_book_file(self.which, path)
        name = f"the {self.which.package_name} book {path}"
        fd, again = _open_regular(path, name, "a regular file")
        if (again.st_dev, again.st_ino, again.st_size) != (info.st_dev, info.st_ino, info.st_size):
            os.close(fd)
            raise BookError(f"{name} changed while it was opened")
        self._mapped, self._fd = mapped, fd
        self._records = self._view(mapped)
        self._index = self._read_index()
        self._verify(name, info, release_check)

    # -- look-ups -------------------------------------------------------------------
    def __len__(self) -> int:
        self.check()
        return self.stored_count()

    def searched_view(self) -> tuple[np.ndarray, np.ndarray]:
        """(the sparse index, the file's bytes) for a search that looks positions up itself
        (``ai.compiled.solver_kernel.book_lookup``): the keys of every ``BLOCK``-th record and
        the mapped file, read-only, nothing copied (the pages a look-up reads count in the
        process's memory until ``forget_pages``)."""
        self.check()
        assert self._index is not None and self._mapped is not None
        if self._bytes is None:
            self._bytes = np.frombuffer(self._mapped, dtype=np.uint8)
        return self._index, self._bytes

    def forget_pages(self) -> None:
        """Let the pages of the mapped file that look-ups read leave the process's memory:
        the system's page cache still holds them (shared, given back under pressure), and
        the next look-up reads them from there (the AI worker does this after each job)."""
        if self._mapped is not None and hasattr(mmap, "MADV_DONTNEED"):
            try:
                self._mapped.madvise(mmap.MADV_DONTNEED)
            except OSError:  # advice only
                pass

    def stored_count(self) -> int:
        """The records in the mapped file, trusted or not (for the checks themselves)."""
        assert self._records is not None
        return len(self._records)

    def entry(self, index: int) -> tuple[int, int, int]:
        """The ``index``-th stored position as (first, second, stored value): the raw
        value (distance code, or 0 draw / -1 loss in the packed books)."""
        self.check()
        return self.stored_entry(index)

    def stored_entry(self, index: int) -> tuple[int, int, int]:
        """``entry`` of the mapped file, trusted or not (for the checks themselves)."""
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
        size, key_bytes, signed, mask = self._size, self._key_bytes, self._signed, self._mask
        assert self._fd is not None
        data = os.pread(self._fd, (min(start + BLOCK, self.stored_count()) - start) * size, start * size)
        records = len(data) // size
        low, high = 0, records  # the first record whose key is not below ``key``
        while low < high:
            middle = (low + high) // 2
            at = middle * size
            if int.from_bytes(data[at : at + key_bytes], "big", signed=signed) & mask < key:
                low = middle + 1
            else:
                high = middle
        if low == records:
            return None
        found, value = self._record(data, low)
        if found != key:
            return None
        return value if self.which.has_distances else -value  # packed: 0 draw, -1 first-player loss

    def stored_value(self, first: int, second: int) -> int | None:
        """The raw stored value of a position (or its mirror image), None when absent,
        trusted or not (for the checks themselves)."""
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
        return self.stored_score(first, second)

    def stored_score(self, first: int, second: int) -> int | None:
        """``score`` from the mapped file, trusted or not (for the checks themselves)."""
        played = (first | second).bit_count()
        if played != self.plies:
            raise BookError(f"the {self.which.package_name} book holds positions of {self.plies} discs, not {played}")
        found = self.stored_value(first, second)
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


EARLY_PLIES = 6
"""Up to this many discs an exact solve reads ``early_scores`` (solved once)."""
EARLY_FILE = Path(__file__).resolve().parent / "data" / "early_exact.txt"
"""Exact scores of every position of at most ``EARLY_PLIES`` discs, one of each mirror
pair, as ``MOVES SCORE`` lines: computed once by the solver searching down to the
12-ply book (``python -m ai.book_check``), because from so few discs that search takes seconds."""


def canonical_key(first: int, second: int) -> int:
    """One key for a position and its mirror image (the smaller Huffman code)."""
    return min(huffman_key(first, second)[0], huffman_key(first, second, mirror=True)[0])


EARLY_SHA256 = "33d7a3cfdb29dbf8bc5042251fea313c05b3eb2df4deb3646221fa1c2369d053"
"""SHA-256 of the shipped ``EARLY_FILE``: a table that differs is not used (``python -m
ai.book_check`` rebuilds the file and prints the new digest to put here)."""
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
    global _early_error
    _early_error = None
    table: dict[int, int] = {}
    try:
        text = _read_early_file()
    except BookError as error:
        _early_error = error
        return table
    for line in text.splitlines():
        words = line.split()
        if len(words) != 2:
            continue
        moves, score = words
        table[canonical_key(*sides_of_moves("" if moves == "-" else moves))] = int(score)
    return table


def sides_of_moves(moves: str) -> tuple[int, int]:
    """(first player's bits, second player's) after the 1-based columns of ``moves`` on the
    standard board: the table's move strings are checked (its digest), so no rules are
    applied (``Board.from_moves`` would take a second for the table's 11,000 lines)."""
    heights = [0] * COLS
    sides = [0, 0]
    for index, char in enumerate(moves):
        col = ord(char) - ord("1")
        sides[index & 1] |= 1 << (col * HEIGHT + heights[col])
        heights[col] += 1
    return sides[0], sides[1]


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
