"""Which window a game in progress belongs to.

Each window keeps its game in progress in its own row of the archive (its ``slot``),
with the process that owns it.  A row whose process is still running belongs to that
window and is offered to no other; a row whose process has gone (a crash, a kill) is
offered to the next window, which takes it over when it resumes the game.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Mapping
from typing import Any

from game.records import InProgress, check_moves, check_name, load_json, rules_from_text


def unfinished_from_row(row: sqlite3.Row | Mapping[str, Any]) -> InProgress:
    """The game in progress a row holds (``ValueError``, ``KeyError``... when damaged)."""
    rules = rules_from_text(row["rules"])
    settings = load_json(row["settings"] or "{}")
    if not isinstance(settings, dict):
        raise ValueError("its settings are not a JSON object")
    return InProgress(
        float(row["saved_at"]),
        rules,
        check_name(row["first"], "player 1"),
        check_name(row["second"], "player 2"),
        check_moves(row["moves"], rules),
        settings,
        str(row["slot"]),
    )


def this_process() -> str:
    """This process as an in-progress row names its owner: the process id, and on Linux
    its start time too (a process id is reused once its process has gone)."""
    started = _start_time(os.getpid())
    return f"{os.getpid()}" if started is None else f"{os.getpid()}@{started}"


def _start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            return file.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return None


def owner_is_running(owner: object) -> bool:
    """Whether the process that owns an in-progress row still runs (another window's
    game, not to be offered); this process's own rows and rows of older versions (no
    owner) are free."""
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
