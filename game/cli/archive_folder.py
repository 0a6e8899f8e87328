"""The game archive the ``review``, ``games`` and ``explore`` commands read: ``--home DIR``
names its folder, else the game's preference folder."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from game.archive.store import Archive, default_folder
from game.cli.errors import CliError
from game.i18n import _


def add_home_option(parser: argparse.ArgumentParser) -> None:
    """``--home DIR``: the archive's folder."""
    parser.add_argument("--home", metavar="DIR", help="the archive's folder (default: the game's preference folder)")


def open_archive(home: str | None) -> Archive:
    """The archive in ``home`` (else the preference folder); its warning said once on stderr.

    Raises:
        CliError: the archive holds a newer version's games this one cannot read.
    """
    quiet = logging.NullHandler()  # the warning is said once, below, not also by the log
    logger = logging.getLogger("game.archive.store")
    logger.addHandler(quiet)
    try:
        archive = Archive.open(Path(home) if home else default_folder())
    finally:
        logger.removeHandler(quiet)
    if archive.refusal:  # a newer version's games this one cannot read: said once, not listed as none
        raise CliError(archive.refusal)
    if archive.warning:
        print(_("warning: {warning}").format(warning=archive.warning), file=sys.stderr)
    return archive
