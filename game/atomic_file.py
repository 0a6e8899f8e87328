"""A file replaced whole or not at all, and a symlink to it kept a link.

``write_atomically`` writes a temporary file beside the file it replaces, syncs it, renames
it over the old one and syncs the folder: a crash, a kill or a full disk at any moment
leaves either the old file or the new one, never half of one.  Where ``path`` is a
symlink, the file it points to is the one replaced (in the target's folder), so the link
stays a link: a user who keeps a file elsewhere and links it here keeps that arrangement.
A file that is there keeps its permissions.  Standard library only.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path


def write_atomically(path: Path, data: bytes, *, mode: int = 0o666) -> Path:
    """Replace the file at ``path`` (through a symlink: its target) with ``data``.

    Returns the file written (``path`` itself unless it is a symlink).  ``mode`` is the
    permission of a new file (less the umask); a file that is there keeps its own.

    Raises:
        OSError: it cannot be written; the old file is whole and no temporary is left.
    """
    target = Path(os.path.realpath(path))
    temporary = write_beside(target, data, mode=mode)
    try:
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    sync_folder(target.parent)
    return target


def write_beside(target: Path, data: bytes, *, mode: int = 0o666) -> Path:
    """Write ``data`` to a new temporary file in ``target``'s folder, synced, with the
    permissions ``target`` has (``mode`` less the umask if it is not there); the caller
    renames it over ``target`` (``os.replace``) or removes it.

    Raises:
        OSError: it cannot be written; no temporary is left.
    """
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        keep_mode = True
    except OSError:
        keep_mode = False
    while True:
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode)
            break
        except FileExistsError:  # another writer's temporary (or a user's file): never touched
            continue
    try:
        with open(descriptor, "wb") as file:
            if keep_mode:
                os.chmod(temporary, mode)  # the umask narrowed it at creation
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows it: not on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
