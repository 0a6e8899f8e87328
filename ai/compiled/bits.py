"""The bit helpers of the compiled kernels, written once: popcount, threats, gaps, line_starts.

Plain Python functions over int64 bitboards (the layout of ``ai.bitboard``: a sentinel
bit on top of each column, ``height`` bits a column).  ``ai.compiled.kernel_file.build``
compiles each of them into every kernel it builds (the solver's and the play search's),
in the kernel's own namespace, so a kernel calls them as numba functions; ``popcount``
is replaced there by the CPU's instruction (LLVM's ``ctpop``).  Run as Python they give
the same answers, slowly.

Their Python twins, for the reference searches, are ``ai.bitboard``'s generated
straight-line source (``Geometry.threats``, ``Geometry.line_starts``): tests/test_bits.py
holds these to them, and the kernels' tests (``ai.compiled`` names them) hold the
kernels to the reference searches node for node.
"""

from __future__ import annotations


def popcount(bits: int) -> int:
    """Set bits of a non-negative 64-bit word (compiled: the CPU's popcount)."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((bits * 0x0101010101010101) >> 56) & 255


def gaps(p: int, step: int, connect: int) -> int:
    """Cells with ``connect - 1`` own discs around them in a line of direction ``step``."""
    r = 0
    for below in range(connect):
        m = -1
        for i in range(1, below + 1):
            m &= p << (i * step)
        for i in range(1, connect - below):
            m &= p >> (i * step)
        r |= m
    return r


def threats(p: int, empty: int, height: int, connect: int, gravity: int) -> int:
    """The empty cells that complete a run of ``connect`` of ``p`` (under gravity a
    vertical run only on top): ``ai.bitboard``'s generated ``threats``, for any K."""
    if connect == 4:  # the hottest case, straight-line
        if gravity:
            r = (p << 1) & (p << 2) & (p << 3)
        else:
            b1 = p << 1
            b2 = b1 & (p << 2)
            a1 = p >> 1
            a2 = a1 & (p >> 2)
            r = (b2 & (p << 3)) | (b2 & a1) | (b1 & a2) | (a2 & (p >> 3))
        for step in (height, height - 1, height + 1):
            b1 = p << step
            b2 = b1 & (p << 2 * step)
            a1 = p >> step
            a2 = a1 & (p >> 2 * step)
            r |= (b2 & (p << 3 * step)) | (b2 & a1) | (b1 & a2) | (a2 & (p >> 3 * step))
        return r & empty
    if gravity:
        r = p << 1
        for i in range(2, connect):
            r &= p << i
    else:
        r = gaps(p, 1, connect)
    for step in (height, height - 1, height + 1):
        r |= gaps(p, step, connect)
    return r & empty


def line_starts(p: int, height: int, connect: int) -> int:
    """The lowest cell of every run of ``connect`` in ``p``: ``ai.bitboard``'s generated
    ``line_starts``."""
    r = 0
    for step in (1, height, height - 1, height + 1):
        r |= run_starts(p, step, connect)
    return r


def run_starts(p: int, step: int, connect: int) -> int:
    """The lowest cell of every run of ``connect`` cells of ``p`` in the direction ``step``
    (``ai.bitboard.run_starts_source``, doubling)."""
    m = p
    length = 1
    while length * 2 <= connect:
        m &= m >> (length * step)
        length *= 2
    if connect - length:
        m &= m >> ((connect - length) * step)
    return m


HELPERS = ("popcount", "gaps", "threats", "run_starts", "line_starts")
"""What ``build`` compiles from this module into every kernel (numba compiles a helper
only where a kernel calls it)."""
