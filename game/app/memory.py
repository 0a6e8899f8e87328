"""Gives the memory a closed scene freed back to the system.

The C allocator (glibc's malloc) keeps freed memory for the next allocation instead of
returning it; with the surfaces, fonts and tree chunks a scene allocates and frees, the
window's resident memory crept up by about 17 MB over 200 games (``lab.memory_bench``)
while Python's own heap stayed flat.  ``malloc_trim(0)`` hands the free pages back; it
takes a few milliseconds, so the scene stack calls it only when a scene has left.
Elsewhere (macOS, Windows, musl) there is no such call and this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable
from pathlib import Path


def _find_malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # no glibc (musl has no malloc_trim)
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_MALLOC_TRIM = _find_malloc_trim()


def give_back_freed_memory() -> bool:
    """Return the allocator's free pages to the system; False where it cannot."""
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True


def peak_rss_mb(pid: int | None) -> float | None:
    """The highest resident memory process ``pid`` has had (Linux's VmHWM), in MB; None
    where it cannot be read (no such process, not Linux)."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def rss_mb(pid: int | None = None) -> float:
    """The resident memory of process ``pid`` (default this one) now, in MB (Linux /proc; 0
    elsewhere or where it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid or 'self'}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0
