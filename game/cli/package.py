"""The ``package`` command: the game as one folder that runs without Python (PyInstaller).

connect4 package --out DIR           DIR/connect4/connect4 and DIR/connect4-VERSION-PLATFORM.tar.gz
connect4 package --lite --out DIR    the same without numba and llvmlite (pure-Python solver)

The build itself is ``game.desktop.package``; docs/packaging.md says how to hand it over.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.desktop.package import PackageError, build, executable

MB = 1_000_000


def add_package_arguments(parser: argparse.ArgumentParser) -> None:
    """package [--lite] --out DIR."""
    parser.description = (
        "build the packaged program with PyInstaller (requirements-dev.txt): DIR/connect4/ runs with no "
        "Python on the machine, and DIR/connect4-VERSION-PLATFORM.tar.gz (.zip on Windows) is that "
        "folder to hand over."
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="where the program's folder and archive go")
    parser.add_argument(
        "--lite", action="store_true", help="leave numba and llvmlite out: smaller, slower past the opening book"
    )


def run_package(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Build, pack, and say where the program is, how big, and how long it took."""

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        built = build(Path(args.out), args.lite, say=say)
    except PackageError as error:
        raise CliError(str(error)) from None
    print(f"program: {executable(built.folder)} ({built.folder_bytes / MB:.0f} MB)", file=out)
    print(f"archive: {built.archive} ({built.archive_bytes / MB:.0f} MB)", file=out)
    print(f"built in {built.seconds:.0f} s", file=out)
    return 0


COMMANDS = {"package": CommandCode(add_package_arguments, run_package)}
