"""The one door to the game's own files: regular files only, read within a cap, written whole.

Every file the game keeps or reads of its own goes through here: the settings, the archive
and its recovery files, the network seats, the puzzle files, the compiled code and its
secret, exported trees, the desktop files and their record, the books' checks, and the
files a command reads (``game.sources``).  The rules, in one place:

- **Regular files only.**  A FIFO, a device, a folder or a socket, or a symbolic link to
  one, is refused and named (``NotRegularFile``: "settings.json is a link to a device
  (/dev/zero)"), never opened for reading in a way that can wait (a FIFO is opened without
  blocking, and only to be refused), never read, followed for writing, copied, moved or
  replaced.  A link to a regular file is followed: a player who keeps a file elsewhere and
  links it here keeps that arrangement.
- **Read within a cap.**  ``read_regular(path, limit)`` reads at most ``limit`` bytes and
  refuses a larger file (``TooLarge``) without reading it.
- **Written whole.**  ``write_atomically`` and ``atomic_writer`` write a temporary file
  beside the target, sync it, rename it over the target and sync the folder: a crash, a
  kill or a full disk at any moment leaves the old file or the new one, never half of one.
  Through a symlink the target is replaced in its own folder (the link stays a link), but
  only when that target is a regular file or is not there yet.  A file that is there keeps
  its permissions.  ``create_new`` makes a file that must not exist yet (a secret, a
  recovery file), whole, or fails.
- **An export may go to a program.**  ``write_export`` (``games --export``) replaces a
  regular file whole as above, and writes through to a pipe a program reads, a device or
  a link (``/dev/stdout``): a pipe no program reads is refused at once, never waited on.
- **Nothing the game did not write is deleted.**  ``set_aside`` keeps a damaged file beside
  itself: a regular file is renamed, a link's regular target is copied (the link kept);
  anything else is left where it is.  ``remove_own`` deletes only a regular file (never a
  link, never anything else), and callers call it only for files they wrote.

Standard library only (and ``game.i18n`` for the words a player reads).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from game.i18n import _

COPY_LIMIT = 64 * 1024 * 1024
"""The largest damaged file ``set_aside`` copies from behind a link (a game's own file is
far smaller; a larger one is left as it is, and the caller says so)."""
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
"""Opening for reading never waits: a FIFO without a writer opens at once (then refused)."""


class NotRegularFile(OSError):
    """A path that is not a regular file, nor a link to one: never read, written, moved or
    removed.  ``strerror`` names what it is ("a FIFO (named pipe)", "a link to a device
    (/dev/zero)")."""


class TooLarge(OSError):
    """A regular file larger than the reader's cap: refused unread."""


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a folder", "a FIFO (named pipe)", ...)."""
    if stat.S_ISREG(mode):
        return _("a regular file")
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a FIFO (named pipe)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    if stat.S_ISLNK(mode):
        return _("a symbolic link that leads nowhere (a loop)")
    return _("not a regular file")


def _refusal(path: str | os.PathLike[str], mode: int) -> NotRegularFile:
    """The error that names what ``path`` is (through a link: the link and its target)."""
    kind = kind_of(mode)
    if os.path.islink(path):
        kind = _("a link to {kind} ({target})").format(kind=kind, target=os.path.realpath(path))
    number = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
    return NotRegularFile(number, kind, str(path))


def _link_refused(path: str | os.PathLike[str]) -> NotRegularFile:
    """A link where no link is followed (a cache of the game's own), named with its target."""
    target = os.path.realpath(path)
    return NotRegularFile(errno.ELOOP, _("a symbolic link (to {target})").format(target=target), str(path))


def regular_status(path: str | os.PathLike[str]) -> os.stat_result | None:
    """The status of the regular file at ``path`` (through a link); None when nothing is
    there (a link to nothing included).

    Raises:
        NotRegularFile: something else is there.
        OSError: it cannot be looked at (a folder on the way cannot be entered...).
    """
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    except ValueError:  # a NUL character: no file can have that name
        raise FileNotFoundError(errno.ENOENT, _("not a possible file name"), str(path)) from None
    if not stat.S_ISREG(found.st_mode):
        raise _refusal(path, found.st_mode)
    return found


def open_regular(path: str | os.PathLike[str], *, follow_links: bool = True) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file at ``path``, opened for reading without waiting,
    and its status; the caller closes it.  ``follow_links`` False refuses a link as such.

    Raises:
        FileNotFoundError: nothing is there.
        NotRegularFile: a FIFO, a device, a folder, a socket (or a link to one; any link
            without ``follow_links``).
        OSError: it cannot be opened.
    """
    if not follow_links and os.path.islink(path):
        raise _link_refused(path)
    if regular_status(path) is None:  # checked before opening: opening some devices does things
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    flags = _READ_FLAGS | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    descriptor = os.open(path, flags)
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):  # swapped since the check
            raise _refusal(path, found.st_mode)
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, found


def read_regular(path: str | os.PathLike[str], limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises:
        FileNotFoundError: nothing is there.
        NotRegularFile: something else than a regular file is there (see ``open_regular``).
        TooLarge: the file is larger than ``limit`` bytes (it is not read).
        OSError: it cannot be read.
    """
    descriptor, found = open_regular(path, follow_links=follow_links)
    with open(descriptor, "rb") as file:
        if found.st_size > limit:
            raise TooLarge(errno.EFBIG, too_large_words(found.st_size, limit), str(path))
        data = file.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise TooLarge(errno.EFBIG, too_large_words(len(data), limit), str(path))
    return data


def too_large_words(size: int, limit: int) -> str:
    """ "over the limit": the file's size and the cap, in words."""
    return _("{size:,} bytes, over the limit of {limit:,}").format(size=size, limit=limit)


def writable_target(path: str | os.PathLike[str], *, follow_links: bool = True) -> Path:
    """The file a write of ``path`` replaces: ``path``, or through a symlink its target
    (``follow_links`` False: a link is refused as such).

    Raises:
        NotRegularFile: what is there (or what a link points to) is not a regular file.
    """
    if not follow_links and os.path.islink(path):
        raise _link_refused(path)
    target = Path(os.path.realpath(path))
    try:
        found = os.lstat(target)
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(found.st_mode):
        raise _refusal(path, found.st_mode)
    return target


def write_atomically(
    path: str | os.PathLike[str], data: bytes, *, mode: int = 0o666, follow_links: bool = True
) -> Path:
    """Replace the regular file at ``path`` (through a symlink: its target) with ``data``.

    Returns the file written (``path`` itself unless it is a symlink).  ``mode`` is the
    permission of a new file (less the umask); a file that is there keeps its own.

    Raises:
        NotRegularFile: something else than a regular file is there (left as it is).
        OSError: it cannot be written; the old file is whole and no temporary is left.
    """
    with atomic_writer(path, mode=mode, follow_links=follow_links) as file:
        file.write(data)
    return writable_target(path, follow_links=follow_links)


@contextmanager
def atomic_writer(path: str | os.PathLike[str], *, mode: int = 0o666, follow_links: bool = True) -> Iterator[BinaryIO]:
    """A file to write ``path``'s new bytes into (a large export streams through it); when
    the block ends it replaces ``path`` as ``write_atomically`` does, and when the block
    raises the old file stays and the temporary goes.  ``follow_links`` False refuses a
    link in ``path``'s place (a cache that keeps no links).

    Raises:
        NotRegularFile: something else than a regular file is there (checked first).
        OSError: it cannot be written.
    """
    target = writable_target(path, follow_links=follow_links)
    temporary, file = _open_beside(target, mode)
    try:
        with file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        writable_target(path, follow_links=follow_links)  # still a regular file (or nothing) to replace
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    sync_folder(target.parent)


def write_beside(target: Path, data: bytes, *, mode: int = 0o666, durable: bool = True) -> Path:
    """Write ``data`` to a new temporary file in ``target``'s folder, synced, with the
    permissions ``target`` has (``mode`` less the umask if it is not there); the caller
    renames it over ``target`` (``os.replace``, after ``writable_target``) or removes it.

    Raises:
        OSError: it cannot be written; no temporary is left.
    """
    temporary, file = _open_beside(target, mode)
    try:
        with file:
            file.write(data)
            file.flush()
            if durable:
                os.fsync(file.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def _open_beside(target: Path, mode: int) -> tuple[Path, BinaryIO]:
    """A new temporary file in ``target``'s folder, open for writing, with ``target``'s
    permissions (``mode`` less the umask when it is not there)."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        keep_mode = True
    except OSError:
        keep_mode = False
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    while True:
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")
        try:
            descriptor = os.open(temporary, flags, mode)
            break
        except FileExistsError:  # another writer's temporary (or a user's file): never touched
            continue
    try:
        if keep_mode:
            os.chmod(temporary, mode)  # the umask narrowed it at creation
        return temporary, open(descriptor, "wb")
    except BaseException:
        os.close(descriptor)
        temporary.unlink(missing_ok=True)
        raise


def create_new(path: str | os.PathLike[str], data: bytes, *, mode: int = 0o666, durable: bool = True) -> Path:
    """Make the file ``path`` with ``data``, whole (written beside, then linked into place),
    only if nothing is there: not even a link.  ``durable`` False skips the syncs (a marker
    that only matters while this process runs, made in a hot path).

    Raises:
        FileExistsError: something is there already (left as it is).
        OSError: it cannot be written; nothing is left behind.
    """
    target = Path(path)
    temporary = write_beside(target, data, mode=mode, durable=durable)
    try:
        os.link(temporary, target)  # fails if anything is there, a dangling link included
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP) or os.path.lexists(target):
            raise
        fallback = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
        os.close(fallback)  # no hard links here (FAT): claim the name, then rename over it
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    if durable:
        sync_folder(target.parent)
    return target


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


def aside_name(path: Path, word: str) -> Path:
    """A free name beside ``path`` for a copy kept aside: ``NAME.WORD-<time>[-N]``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{word}-{stamp}")
    counter = 1
    while os.path.lexists(target):
        target = path.with_name(f"{path.name}.{word}-{stamp}-{counter}")
        counter += 1
    return target


def set_aside(path: str | os.PathLike[str], word: str = "corrupt") -> Path:
    """Keep a damaged file beside itself so that nothing writes over it: a regular file is
    renamed to ``NAME.WORD-<time>``; behind a symlink, the regular target's bytes are copied
    there (the link stays, and the next save writes through it).  Returns the copy kept.

    Raises:
        NotRegularFile: ``path`` is not a regular file nor a link to one (left as it is).
        TooLarge: a link's target is over ``COPY_LIMIT`` (not copied).
        OSError: it cannot be renamed or copied (nothing is left half-made).
    """
    path = Path(path)
    target = aside_name(path, word)
    if regular_status(path) is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    if not os.path.islink(path):
        os.replace(path, target)
        return target
    descriptor, found = open_regular(path)
    with open(descriptor, "rb") as source:
        if found.st_size > COPY_LIMIT:
            raise TooLarge(errno.EFBIG, too_large_words(found.st_size, COPY_LIMIT), str(path))
        with atomic_writer(target, mode=stat.S_IMODE(found.st_mode)) as copy:
            while chunk := source.read(1 << 20):
                copy.write(chunk)
    return target


def remove_own(path: str | os.PathLike[str]) -> bool:
    """Delete ``path`` if it is a regular file (the caller wrote it); a link, a folder, a
    FIFO or a device of its name is left as it is.  True when it was removed (or was not there).

    Raises:
        OSError: a regular file that cannot be removed.
    """
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return True
    if not stat.S_ISREG(found.st_mode):
        return False
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    return True


def write_export(path: str | os.PathLike[str], text: str) -> None:
    """Write an export to ``path``: a regular file there (or none) is replaced whole; a
    device, a pipe a program reads, or a link (``/dev/stdout``) is written through as it
    reads.  A pipe that no program reads is refused at once, never waited on for ever.

    Raises:
        OSError: it cannot be written (a folder, say); ``strerror`` says why in words.
    """
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is None or stat.S_ISREG(found.st_mode):
        write_atomically(path, text.encode("utf-8"))
        return
    if stat.S_ISDIR(found.st_mode):
        raise _refusal(path, found.st_mode)
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a pipe without a reader fails
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | nonblocking | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, _("no program is reading from that pipe"), str(path)) from None
        raise
    if nonblocking:
        os.set_blocking(descriptor, True)  # a reader is there: write at its pace
    with open(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
