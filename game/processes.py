"""Which process owns a thing the game left behind, and whether it still runs.

A window's game in progress (``game.archive.windows``) and a compiled-code file being
loaded (``ai.compiled.kernel_file``) name the process that owns them with
``this_process``; ``owner_is_running`` tells a living owner from one that has gone (a
crash, a kill), on Linux by the process's start time too, since a process id is reused
once its process has gone.  Standard library only.
"""

from __future__ import annotations

import os
import sys


def this_process() -> str:
    """This process as an owner is named: the process id, and on Linux its start time too
    (a process id is reused once its process has gone)."""
    started = _start_time(os.getpid())
    return f"{os.getpid()}" if started is None else f"{os.getpid()}@{started}"


def _start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            return file.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return None


def owner_is_running(owner: object) -> bool:
    """Whether the process ``owner`` names (``this_process``) still runs: an in-progress
    row of a running window is that window's, not to be offered.  This process itself, and
    no owner (a row of an older version), count as not running: free to take."""
    if not isinstance(owner, str):
        return False
    pid_text, _, started = owner.partition("@")
    try:
        pid = int(pid_text)
    except ValueError:
        return False
    if pid == os.getpid() or pid <= 0:
        return False
    if sys.platform == "win32":  # pragma: no cover - the CI runs on Linux
        return _windows_process_running(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it runs
        pass
    except OSError:
        return False
    return not started or _start_time(pid) in (None, started)


def _windows_process_running(pid: int) -> bool:  # pragma: no cover - the CI runs on Linux
    import ctypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(0x00100000 | 0x1000, False, pid)  # SYNCHRONIZE, QUERY_LIMITED_INFORMATION
    if not handle:
        return bool(kernel32.GetLastError() == 5)  # access denied: it runs
    try:
        return bool(kernel32.WaitForSingleObject(handle, 0) == 0x102)  # WAIT_TIMEOUT: still running
    finally:
        kernel32.CloseHandle(handle)
