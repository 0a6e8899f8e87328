"""The files and lines a command reads or writes, checked before any work: a folder, a device,
a huge file, an endless line or a name too long is refused in one line."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from game.cli.errors import CliError
from game.i18n import _
from game.regular_file import NotRegularFile, writable_target
from game.sources import SourceError, read_file

MAX_INPUT_BYTES = 1 << 20
"""A board file is under 1 KB; files and stdin lines past 1 MB are refused unread."""


def shown(path: str | Path) -> str:
    """A path as the user typed it, quoted if it holds characters a terminal cannot show."""
    text = str(path)
    return text if text.isprintable() else repr(text)


def short(path: str | Path) -> str:
    """A path shown in at most about 60 characters."""
    text = shown(path)
    return text if len(text) <= 60 else text[:40] + "..." + text[-12:]


def read_input_file(path: str | Path) -> bytes:
    """The bytes of a board file under ``MAX_INPUT_BYTES``: a folder, a device such as
    /dev/zero, a pipe or a huge file is refused unread."""
    try:
        return read_file(path, shown(path), _("a board file"), MAX_INPUT_BYTES)
    except SourceError as error:
        raise CliError(str(error)) from None


NAME_MAX_BYTES = 255
"""The longest file or folder name most file systems allow."""


def check_name_length(path: str | Path, what: str) -> None:
    """Refuse a path with a part over ``NAME_MAX_BYTES`` bytes, before any system call
    fails on it."""
    for part in Path(path).parts:
        size = len(os.fsencode(part))
        if size > NAME_MAX_BYTES:
            raise CliError(
                _(
                    "{what}: the name {shown}... is {size:,} bytes long; a file name can be at most {NAME_MAX_BYTES} bytes"
                ).format(what=what, shown=shown(part[:24]), size=size, NAME_MAX_BYTES=NAME_MAX_BYTES)
            )


def check_output(output: str | Path, *inputs: str | Path) -> None:
    """Refuse, before any work, to write over an input, or where no regular file can be
    replaced whole (``game.regular_file``): a folder, a FIFO, a device, a link to one."""
    check_name_length(output, _("cannot write {short}").format(short=short(output)))
    target = Path(output)
    if target.is_dir():
        raise CliError(_("{output} is a folder; give a file name to write").format(output=output))
    try:
        writable_target(target)
    except NotRegularFile as error:
        raise CliError(
            _("{output} is {what}: only a regular file is written, and it is left as it is").format(
                output=shown(output), what=error.strerror
            )
        ) from None
    for source in inputs:
        same = False
        try:
            same = os.path.samefile(source, target)
        except (OSError, ValueError):  # one of them does not exist yet (or cannot)
            same = os.path.abspath(source) == os.path.abspath(target)
        if same:
            raise CliError(
                _("{output} is also the input {source}: it would be overwritten; write to another name").format(
                    output=output, source=source
                )
            )


def check_folder(output: str) -> None:
    """Refuse, before any work, to write into a folder that does not exist."""
    folder = Path(output).parent
    if not folder.is_dir():
        raise CliError(
            _("{shown}: the folder {shown2} does not exist").format(shown=shown(output), shown2=shown(folder))
        )


_UNDECODABLE = re.compile("[\udc80-\udcff]")


def read_line(stream: TextIO, what: str) -> str:
    """One line of at most ``MAX_INPUT_BYTES`` characters (an endless line is refused)."""
    line = stream.readline(MAX_INPUT_BYTES + 1)
    if len(line) > MAX_INPUT_BYTES and not line.endswith("\n"):
        raise CliError(
            _("{what} is over {MAX_INPUT_BYTES:,} characters long").format(what=what, MAX_INPUT_BYTES=MAX_INPUT_BYTES)
        )
    if _UNDECODABLE.search(line):  # what a POSIX locale's stdin makes of bytes that are not UTF-8
        raise CliError(_("{what} is not UTF-8 text").format(what=what))
    return line


def capped_lines(stream: TextIO, what: str) -> Iterator[str]:
    """The lines of ``stream`` as ``read_line`` reads them, until the end of input."""
    while line := read_line(stream, what):
        yield line


def is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal (a stream that cannot say is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False
