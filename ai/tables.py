"""The exact solver's transposition tables, and the one memory they live in, per process.

A ``TranspositionTable`` is a fixed number of slots of packed bounds (the layout below);
``ai.solver``'s negamax and its compiled twin read and write the words inline.

**One memory per process** (``TABLES``): every ``Solver`` of a process (Perfect's, a
level's own, the review's, the explorer's, ``solve``'s, in the AI worker or in a command)
writes into the same three zeroed buffers, allocated once on first use and kept: one of
``TABLE_SLOTS`` words (64 MB) and two of ``SIGN_TABLE_SLOTS`` (8 MB each).  A new solver
no longer allocates a fresh 64 MB whose pages the kernel zero-fills on first touch (about
0.2 s of system time for one long solve, again for every new solver); it gets the pages
the process already has, cleared.  Pages are taken only as slots are written.

**Who holds a buffer.**  A buffer holds one solver's entries at a time.  A solver that
takes a buffer over from another gets it cleared first (``GIVE_BACK``), so a solver sees
its own entries or none, exactly as with a table of its own: the same answers, node for
node (``tests/test_one_home.py``'s recorded set).  Its entries survive between its calls
as long as no other solver uses the buffer meanwhile.  A table goes to a buffer of the
smallest size it fits, one that no living solver holds where there is one (else the one
lent longest ago), and never to the buffer of the holder's other table (a solver has an
exact table and, on the standard board, one for the 8-ply book's win/draw/loss scale).
So Perfect's two tables are the big buffer and one small one, and a level's own endgame
solver on 6x7 (a million slots, new at every move) the other small one: a level's move
leaves Perfect's tables as they were.  On 7x8 a level's solver needs the big buffer and
clears the board's shared solver (hints, column scores) when it takes it.

**Threads.**  A solver in the middle of a call is never robbed: another solver that asks
for its buffer then gets a table of its own for as long as it lives (allocated as before
the tables were shared), so two searches never write one table at once.  So does a solver
asked with ``own_table`` (two solvers compared side by side) and any table too big for the
buffers or too wide for 64-bit words (boards past 64 bits a position).
"""

from __future__ import annotations

import mmap
import sys
import threading
import weakref
from typing import Protocol

import numpy as np

TABLE_SLOTS = 8_388_617
"""Slots of the exact transposition table: a prime just above 2**23, 8 bytes each (64 MB).
Pascal Pons' size; ``python -m lab.bench --only table`` measures the solver with others
(docs/benchmarks.md, "The transposition table")."""
SIGN_TABLE_SLOTS = 1_048_583
"""Slots of the table of weak searches that stop at the 8-ply (win/draw/loss) book: a prime
(8 MB).  A level's own endgame solves on 6x7 take this size too (``ai.player.level_solver``)."""
WIDE_TABLE_SLOTS = 2_097_169
"""Slots of a level's own endgame table on 7x8 and 8x7 (a prime just above 2**21, 16 MB,
a view of the big buffer): the fewest whose words still hold those boards' 64-bit keys
(``ai.solver.table_fits_compiled``).  The solver takes 1.5% more nodes there than with
``TABLE_SLOTS`` and runs 1.6 times as fast (docs/benchmarks.md, "The transposition table")."""


class TableHolder(Protocol):
    """What the memory asks of a solver holding a buffer: whether it is in the middle of a
    call (a busy holder is never robbed)."""

    @property
    def busy(self) -> bool: ...


GIVE_BACK = sys.platform.startswith("linux") and hasattr(mmap, "MADV_DONTNEED")
"""Whether a buffer is cleared by giving its pages back (Linux: an anonymous private page
given back with ``MADV_DONTNEED`` reads as zero when next touched) rather than by writing
zeros: a cleared buffer then costs no memory, and its next holder pays only for the pages
it writes (about 0.2 ms for 64 MB, and about 7 ms to touch all of it again, where writing
zeros takes 5-15 ms whatever comes next)."""


class _Buffer:
    """One of the process's zeroed buffers and who holds it (guarded by the memory's lock)."""

    def __init__(self, slots: int):
        self.slots = slots
        self.memory: np.ndarray | None = None  # allocated on first use, never unmapped
        self._mapped: mmap.mmap | None = None  # the anonymous mapping under ``memory`` (GIVE_BACK)
        self.holder: weakref.ref[TableHolder] | None = None
        self.lease = 0  # counts the hand-overs: a table of an older lease is stale
        self.dirty = 0  # slots from 0 that may hold entries (cleared before a hand-over)
        self.lent = 0  # when it was last lent (the memory's count of lends)

    def ready(self) -> np.ndarray:
        """The buffer's words, all zero: allocated on first use, else cleared."""
        if self.memory is None:
            if GIVE_BACK:
                # Private: a shared anonymous page given back keeps its contents.
                self._mapped = mmap.mmap(-1, self.slots * 8, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
                if hasattr(mmap, "MADV_HUGEPAGE"):  # as numpy asks for its big arrays: fewer TLB misses
                    self._mapped.madvise(mmap.MADV_HUGEPAGE)
                self.memory = np.frombuffer(self._mapped, dtype=np.uint64, count=self.slots)
            else:
                self.memory = np.zeros(self.slots, dtype=np.uint64)
        elif self.dirty:
            if self._mapped is not None:
                pages = -(-self.dirty * 8 // mmap.PAGESIZE) * mmap.PAGESIZE
                self._mapped.madvise(mmap.MADV_DONTNEED, 0, min(pages, len(self._mapped)))
            else:
                self.memory[: self.dirty] = 0
        self.dirty = 0
        return self.memory


class TranspositionTable:
    """Bounds of position scores in a fixed number of slots, one packed int per slot.

    A slot holds ``check << DATA_BITS | move << 2 * SCORE_BITS | (lower + offset) <<
    SCORE_BITS | (upper + offset)``, where ``check = key // slots + 1`` (with the slot
    index ``key % slots`` it gives back the whole key, and it is never 0, the empty
    slot); ``move`` is 1 + the rank (centre order) of the best move found, 0 for none.
    A new entry replaces whatever was in its slot.  On the standard board the slots are
    8-byte words of a zeroed numpy array (a view of the process's memory, ``TABLES``, or
    its own), so untouched slots cost no memory; the negamax reads the fields inline,
    this class only sets them up.
    """

    SCORE_BITS = 8
    DATA_BITS = 20  # 4 bits of move rank, two scores

    def __init__(self, slots: int, key_bits: int, offset: int, *, memory: np.ndarray | None = None):
        """``memory``: zeroed uint64 words to use (at least ``slots``), else its own."""
        if offset >= 1 << (self.SCORE_BITS - 1):
            raise ValueError(f"scores up to {offset} do not fit a transposition table entry")
        self.slots = slots
        self.offset = offset
        self.words: list[int] | memoryview
        self.array: np.ndarray | None = None
        """The slots as int64 for the compiled search (None: entries wider than 63 bits)."""
        self._memory: np.ndarray | None = None
        self._buffer: _Buffer | None = None  # the process's buffer it is a view of
        self._lease = 0
        largest = self.largest_entry(slots, key_bits)
        if largest < 1 << 64:
            # numpy's zeroed memory (calloc) is only taken as slots are written, and gets
            # huge pages where an anonymous mmap does not (1.7x faster compiled search).
            self._memory = np.zeros(slots, dtype=np.uint64) if memory is None else memory[:slots]
            self.words = self._memory.data.cast("B").cast("Q")
            if largest < 1 << 63:
                self.array = self._memory.view(np.int64)
        else:  # a big board: keys too long for a machine word
            self.words = [0] * slots

    @classmethod
    def largest_entry(cls, slots: int, key_bits: int) -> int:
        """The largest word a table of ``slots`` slots can hold for keys of ``key_bits``."""
        return (((1 << key_bits) // slots + 1) << cls.DATA_BITS) | ((1 << cls.DATA_BITS) - 1)

    @property
    def current(self) -> bool:
        """Whether its words are still its own (False: another solver took the buffer over)."""
        return self._buffer is None or self._buffer.lease == self._lease

    def written(self) -> None:
        """Say that a search is about to write it (the next holder then gets it cleared)."""
        buffer = self._buffer
        if buffer is not None and buffer.lease == self._lease and buffer.dirty < self.slots:
            buffer.dirty = self.slots

    def lookup(self, key: int) -> tuple[int, int, int] | None:
        """(lower, upper, move rank or -1) of ``key``, or None (for tests and tools)."""
        entry = self.words[key % self.slots]
        if entry >> self.DATA_BITS != key // self.slots + 1:
            return None
        score_mask = (1 << self.SCORE_BITS) - 1
        lower = (entry >> self.SCORE_BITS & score_mask) - self.offset
        upper = (entry & score_mask) - self.offset
        return lower, upper, (entry >> 2 * self.SCORE_BITS & 15) - 1

    def __len__(self) -> int:
        """Slots in use (a scan: for tests and reports, not for the search)."""
        if self._memory is not None:
            return int(np.count_nonzero(self._memory))
        assert isinstance(self.words, list)
        return self.slots - self.words.count(0)


class TableMemory:
    """The process's table memory: buffers of fixed sizes, each lent to one solver at a
    time and cleared when it changes hands (the module docstring says the rules)."""

    def __init__(self, sizes: tuple[int, ...] = (SIGN_TABLE_SLOTS, SIGN_TABLE_SLOTS, TABLE_SLOTS)):
        self._buffers = [_Buffer(slots) for slots in sorted(sizes)]
        self._lock = threading.Lock()
        self._lent = 0  # lends so far (a buffer's ``lent`` says when it was last lent)

    def lend(
        self, holder: TableHolder, slots: int, key_bits: int, offset: int, *, beside: TranspositionTable | None = None
    ) -> TranspositionTable:
        """A cleared table of ``slots`` slots for ``holder``: a view of a buffer of the
        smallest size it fits, one no living solver holds if there is one, else the one lent
        longest ago; never the buffer of ``beside`` (the holder's other table), nor one whose
        holder is in a call.  Where none is left, a table of its own."""
        if TranspositionTable.largest_entry(slots, key_bits) >= 1 << 64:
            return TranspositionTable(slots, key_bits, offset)  # a Python list: not a buffer's words
        with self._lock:
            chosen: _Buffer | None = None
            for buffer in self._buffers:  # smallest first
                if buffer.slots < slots or (beside is not None and beside._buffer is buffer and beside.current):
                    continue
                if chosen is not None and buffer.slots > chosen.slots:
                    break
                held = None if buffer.holder is None else buffer.holder()
                if held is not None and held is not holder and held.busy:
                    continue  # in use by a call of another thread
                if held is None or held is holder:
                    chosen = buffer
                    break
                if chosen is None or buffer.lent < chosen.lent:
                    chosen = buffer
            if chosen is None:
                return TranspositionTable(slots, key_bits, offset)
            memory = chosen.ready()
            chosen.holder = weakref.ref(holder)
            chosen.lease += 1
            self._lent += 1
            chosen.lent = self._lent
            table = TranspositionTable(slots, key_bits, offset, memory=memory)
            table._buffer, table._lease = chosen, chosen.lease
            return table

    def give_back(self, table: TranspositionTable) -> None:
        """``table``'s holder is done with it: its buffer is cleared now (its pages given
        back, where ``GIVE_BACK``), and the next table lent from it starts empty."""
        with self._lock:
            buffer = table._buffer
            if buffer is not None and buffer.lease == table._lease:
                buffer.holder = None
                buffer.lease += 1
                buffer.ready()

    def resident_bytes(self) -> int:
        """Bytes of the buffers allocated so far (their pages are taken as they are written)."""
        return sum(buffer.memory.nbytes for buffer in self._buffers if buffer.memory is not None)


TABLES = TableMemory()
"""The process's table memory: every ``ai.solver.Solver`` takes its tables here."""
