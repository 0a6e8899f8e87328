"""The game archive the ``review``, ``games`` and ``explore`` commands read: ``--home DIR``
names its folder, else the game's preference folder.

Only ``games --import`` writes.  The commands that read (a listing, an export, ``explore``,
``review id:N``) never make a folder or an archive where no game was stored: a mistyped
``--home`` is said, not created."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from game.archive.recovery import recovery_files
from game.archive.store import FILE_NAME, Archive, default_folder
from game.cli.errors import CliError
from game.i18n import _


def add_home_option(parser: argparse.ArgumentParser) -> None:
    """``--home DIR``: the archive's folder."""
    parser.add_argument("--home", metavar="DIR", help="the archive's folder (default: the game's preference folder)")


def archive_folder(home: str | None) -> Path:
    """The archive's folder: ``home``, else the preference folder."""
    return Path(home) if home else default_folder()


def nothing_stored(folder: Path) -> bool:
    """No game was ever stored in ``folder``: it has no archive file and no recovery file
    (the games a window could not write, which opening the archive takes in)."""
    try:
        if not folder.exists():
            return True
        if not folder.is_dir():
            return False  # a file or a pipe where the folder should be: the open says so
        return not os.path.lexists(folder / FILE_NAME) and not recovery_files(folder)
    except (OSError, ValueError):  # a folder that cannot be looked at: the open says why
        return False


def open_archive(home: str | None, *, reading: bool = False) -> Archive:
    """The archive in ``home`` (else the preference folder); its warning said once on stderr.

    ``reading``: the command only reads it, so where nothing was stored (``nothing_stored``)
    it gets an empty archive in memory and nothing is made on disk.

    Raises:
        CliError: the archive holds a newer version's games this one cannot read.
    """
    folder = archive_folder(home)
    if reading and nothing_stored(folder):
        return Archive.in_memory()
    quiet = logging.NullHandler()  # the warning is said once, below, not also by the log
    logger = logging.getLogger("game.archive.store")
    logger.addHandler(quiet)
    try:
        archive = Archive.open(folder)
    finally:
        logger.removeHandler(quiet)
    if archive.refusal:  # a newer version's games this one cannot read: said once, not listed as none
        raise CliError(archive.refusal)
    if archive.warning:
        print(_("warning: {warning}").format(warning=archive.warning), file=sys.stderr)
    return archive
