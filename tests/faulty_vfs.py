"""A SQLite VFS that counts every write SQLite makes and fails or kills at one of them,
in the manner of SQLite's own crash and I/O-error tests (``crash.test``, ``ioerr.test``).

It is registered, through ctypes, in the very SQLite library the ``sqlite3`` module is
linked to, as the default VFS of the process: every connection the archive opens goes
through it, unchanged (no mock of the archive).  Each file SQLite opens (the database,
its WAL, a journal) keeps the real VFS's file and methods; only ``xWrite``,
``xTruncate`` and ``xSync`` of the file and the VFS's ``xDelete`` are swapped for ones
that count the call (a *write point*) and then:

- ``kill_at=N``: at write point N the process sends itself SIGKILL before the write
  happens (a crash or a power cut at that instant);
- ``fail_at=N``: write point N returns SQLite's I/O error instead of writing; with
  ``persistent=True`` every later one does too (a disk that filled up).

Use it only in a process of its own (a forked child): the VFS stays the default for the
life of the process.
"""

from __future__ import annotations

import _sqlite3
import ctypes
import os
import signal
import sqlite3 as _sqlite3_module  # noqa: F401  (loads the library the VFS goes into)
from dataclasses import dataclass, field

SQLITE_OK = 0
SQLITE_IOERR_WRITE = 10 | (3 << 8)
SQLITE_IOERR_FSYNC = 10 | (4 << 8)
SQLITE_IOERR_TRUNCATE = 10 | (6 << 8)
SQLITE_IOERR_DELETE = 10 | (10 << 8)

_file_p = ctypes.c_void_p
_X_WRITE = ctypes.CFUNCTYPE(ctypes.c_int, _file_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64)
_X_TRUNCATE = ctypes.CFUNCTYPE(ctypes.c_int, _file_p, ctypes.c_int64)
_X_SYNC = ctypes.CFUNCTYPE(ctypes.c_int, _file_p, ctypes.c_int)
# File names stay raw pointers: SQLite keeps the one xOpen gets (and reads the URI
# parameters after it), so a copy made by ctypes would leave it a dangling name.
_X_OPEN = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, _file_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)
)
_X_DELETE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


class _IoMethods(ctypes.Structure):
    """``sqlite3_io_methods`` up to version 3 (the unix VFS's)."""

    _fields_ = [
        ("iVersion", ctypes.c_int),
        ("xClose", ctypes.c_void_p),
        ("xRead", ctypes.c_void_p),
        ("xWrite", _X_WRITE),
        ("xTruncate", _X_TRUNCATE),
        ("xSync", _X_SYNC),
        ("xFileSize", ctypes.c_void_p),
        ("xLock", ctypes.c_void_p),
        ("xUnlock", ctypes.c_void_p),
        ("xCheckReservedLock", ctypes.c_void_p),
        ("xFileControl", ctypes.c_void_p),
        ("xSectorSize", ctypes.c_void_p),
        ("xDeviceCharacteristics", ctypes.c_void_p),
        ("xShmMap", ctypes.c_void_p),
        ("xShmLock", ctypes.c_void_p),
        ("xShmBarrier", ctypes.c_void_p),
        ("xShmUnmap", ctypes.c_void_p),
        ("xFetch", ctypes.c_void_p),
        ("xUnfetch", ctypes.c_void_p),
    ]


class _File(ctypes.Structure):
    """The head every ``sqlite3_file`` starts with."""

    _fields_ = [("pMethods", ctypes.POINTER(_IoMethods))]


class _Vfs(ctypes.Structure):
    """``sqlite3_vfs`` up to version 3."""

    _fields_ = [
        ("iVersion", ctypes.c_int),
        ("szOsFile", ctypes.c_int),
        ("mxPathname", ctypes.c_int),
        ("pNext", ctypes.c_void_p),
        ("zName", ctypes.c_char_p),
        ("pAppData", ctypes.c_void_p),
        ("xOpen", _X_OPEN),
        ("xDelete", _X_DELETE),
        ("xAccess", ctypes.c_void_p),
        ("xFullPathname", ctypes.c_void_p),
        ("xDlOpen", ctypes.c_void_p),
        ("xDlError", ctypes.c_void_p),
        ("xDlSym", ctypes.c_void_p),
        ("xDlClose", ctypes.c_void_p),
        ("xRandomness", ctypes.c_void_p),
        ("xSleep", ctypes.c_void_p),
        ("xCurrentTime", ctypes.c_void_p),
        ("xGetLastError", ctypes.c_void_p),
        ("xCurrentTimeInt64", ctypes.c_void_p),
        ("xSetSystemCall", ctypes.c_void_p),
        ("xGetSystemCall", ctypes.c_void_p),
        ("xNextSystemCall", ctypes.c_void_p),
    ]


@dataclass
class FaultPlan:
    """When to fault, and what was seen: ``points`` lists each write point as
    ``(kind, file name)`` in order."""

    kill_at: int | None = None
    fail_at: int | None = None
    persistent: bool = False
    points: list[tuple[str, str]] = field(default_factory=list)
    failed: int = 0

    def at_point(self, kind: str, name: str) -> bool:
        """Count a write point; return True if it must fail (or kill the process)."""
        self.points.append((kind, name))
        number = len(self.points)
        if self.kill_at == number:
            os.kill(os.getpid(), signal.SIGKILL)
        if self.fail_at is not None and (number == self.fail_at or (self.persistent and number > self.fail_at)):
            self.failed += 1
            return True
        return False


def _base_name(name: int | None) -> str:
    return os.path.basename(ctypes.string_at(name).decode(errors="replace")) if name else "(temp)"


_keep: list[object] = []  # ctypes objects SQLite points at: alive as long as the process


def install(plan: FaultPlan) -> None:
    """Make the counting VFS the default of this process's SQLite, driven by ``plan``."""
    library = ctypes.CDLL(_sqlite3.__file__)  # resolves to the libsqlite3 it is linked to
    library.sqlite3_vfs_find.restype = ctypes.POINTER(_Vfs)
    library.sqlite3_vfs_find.argtypes = [ctypes.c_char_p]
    library.sqlite3_vfs_register.argtypes = [ctypes.POINTER(_Vfs), ctypes.c_int]
    real = library.sqlite3_vfs_find(None).contents
    real_open, real_delete = real.xOpen, real.xDelete
    wrapped: dict[int, _IoMethods] = {}  # real methods table -> its counting copy
    names: dict[int, str] = {}  # file -> its name, for the record

    def methods_for(real_methods: ctypes._Pointer) -> _IoMethods:
        address = ctypes.addressof(real_methods.contents)
        if address not in wrapped:
            original = real_methods.contents
            copy = _IoMethods()
            ctypes.pointer(copy)[0] = original  # every method as the real one
            real_write, real_truncate, real_sync = original.xWrite, original.xTruncate, original.xSync

            def x_write(file, data, amount, offset):
                if plan.at_point("write", names.get(file, "?")):
                    return SQLITE_IOERR_WRITE
                return real_write(file, data, amount, offset)

            def x_truncate(file, size):
                if plan.at_point("truncate", names.get(file, "?")):
                    return SQLITE_IOERR_TRUNCATE
                return real_truncate(file, size)

            def x_sync(file, flags):
                if plan.at_point("sync", names.get(file, "?")):
                    return SQLITE_IOERR_FSYNC
                return real_sync(file, flags)

            copy.xWrite, copy.xTruncate, copy.xSync = _X_WRITE(x_write), _X_TRUNCATE(x_truncate), _X_SYNC(x_sync)
            _keep.extend((copy, copy.xWrite, copy.xTruncate, copy.xSync))
            wrapped[address] = copy
        return wrapped[address]

    def x_open(vfs, name, file, flags, out_flags):
        code = real_open(ctypes.byref(real), name, file, flags, out_flags)
        head = _File.from_address(file)
        if code == SQLITE_OK and head.pMethods:
            names[file] = _base_name(name)
            head.pMethods = ctypes.pointer(methods_for(head.pMethods))
        return code

    def x_delete(vfs, name, sync_dir):
        if plan.at_point("delete", _base_name(name)):
            return SQLITE_IOERR_DELETE
        return real_delete(ctypes.byref(real), name, sync_dir)

    faulty = _Vfs()
    ctypes.pointer(faulty)[0] = real
    faulty.zName = b"faulty"
    faulty.pNext = None
    faulty.xOpen = _X_OPEN(x_open)
    faulty.xDelete = _X_DELETE(x_delete)
    _keep.extend((faulty, faulty.xOpen, faulty.xDelete))
    if library.sqlite3_vfs_register(ctypes.byref(faulty), 1) != SQLITE_OK:
        raise RuntimeError("the counting VFS could not be registered")
