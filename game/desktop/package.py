"""The packaged program: one folder that runs with no Python on the machine (PyInstaller).

``build`` runs PyInstaller on ``connect4.spec`` (beside this file) for the game's source
checkout, into ``OUT/connect4/`` (the program ``connect4``, ``connect4.exe`` on Windows),
and packs that folder as ``OUT/connect4[-lite]-VERSION-PLATFORM.tar.gz`` (a .zip on
Windows) to hand over.  The full build carries numba and llvmlite (the compiled solver,
built once per machine into the user's cache folder, as from source); ``lite`` leaves
them out, for a program half the size whose exact solver is the pure-Python one.

Only what it wrote is ever replaced.  ``build`` marks each program folder it makes
(``BUILD_MARK`` inside it: what made it, every file it left in it, and the size and
sha256 of each archive it packed beside it), and before building (minutes) it refuses in
one line, changing nothing: an ``--out`` that is not a folder or cannot be written, an
``OUT/connect4`` that is not an earlier marked build (a user's folder of that name:
PyInstaller would delete it whole) or that holds a file the build did not leave there (a
user's notes put in an earlier build), and an archive of its name that no mark proves it
packed.  The archive is written whole
(``game.regular_file``) and leaves the mark out.

The spec asks this module what goes in (``data_files``, ``ASSET_FILES``) and what stays
out (``excluded_modules``, ``left_out_file``): the rules live here, where they can be read
and tested, and the spec stays a few lines.  The program keeps nothing in its own folder
(settings, the archive and the compiled kernels live in the user's folders), so it runs
from a read-only place.  Standard library only: PyInstaller is imported by its own
process, never by the game.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from game.desktop.install import Fingerprint
from game.regular_file import atomic_writer, read_regular, remove_own, write_atomically
from game.version import __version__

ROOT = Path(__file__).resolve().parents[2]
"""The source checkout the program is built from."""
SPEC = Path(__file__).with_name("connect4.spec")
PROGRAM = "connect4"
ASSET_FILES = (
    "io.github.connect4explorer.ConnectFour.desktop",
    "io.github.connect4explorer.ConnectFour.metainfo.xml",
    "io.github.connect4explorer.ConnectFour.svg",
    "io.github.connect4explorer.ConnectFour-48.png",
    "io.github.connect4explorer.ConnectFour-128.png",
    "io.github.connect4explorer.ConnectFour-256.png",
)
"""What ``install-desktop`` copies from ``assets/`` (game.desktop.install.placements)."""
COMPILER_MODULES = ("numba", "llvmlite")
"""What the lite build leaves out."""
NEVER_USED = (
    "tkinter",
    "_tkinter",
    "distributed",
    "dask",
    "pytest",
    "_pytest",
    "hypothesis",
    "IPython",
    "matplotlib",
    "scipy",
    "pandas",
    "numba.cuda",
    "numba.tests",
    "numpy.f2py",
    "numpy.tests",
    "pygame.tests",
    "pygame.examples",
    "pygame.docs",
    "llvmlite.tests",
)
"""Modules no command of the packaged program imports (``match --cluster`` says Dask is
missing, as it does in a plain install)."""
LEFT_OUT_FOLDERS = ("tests", "examples", "docs", "__pycache__", "f2py", "_pyinstaller")
"""Folders of the packages' files that nothing at run time reads."""
LEFT_OUT_SUFFIXES = (".pyi", ".pxd", ".h", ".c", ".a", ".po", ".pot")
HIDDEN_IMPORTS = ("bitbully_databases", "multiprocessing.resource_tracker", "multiprocessing.popen_spawn_posix")
"""Modules reached only by name: the opening books' package (``ai.book`` imports it by
name; without it the books' folder alone is a namespace package and every book is
missing) and the worker process's start (spawn)."""
COMPILER_HIDDEN_IMPORTS = ("numba._devicearray", "numba.mviewbuf")
"""numba's C extensions that its ``_dispatcher`` imports from C (PyInstaller sees them
only through ``numba.cuda``, which the build leaves out)."""
STRIP = False
"""Never strip the shared libraries: the wheels' libraries patched by auditwheel (numpy's
OpenBLAS) no longer load once stripped ("ELF load command address/offset not
page-aligned"), and llvmlite's shrank by a tenth only."""


def excluded_modules(lite: bool) -> list[str]:
    """The modules PyInstaller leaves out of the build."""
    return [*NEVER_USED, *(COMPILER_MODULES if lite else ())]


def hidden_imports(lite: bool) -> list[str]:
    """Modules the build must carry that no import statement names (the game's command
    modules are imported by name too: the spec adds every module of ``game`` and ``ai``)."""
    return [*HIDDEN_IMPORTS, *(() if lite else COMPILER_HIDDEN_IMPORTS)]


def left_out_file(path: str, lite: bool) -> bool:
    """True for a file of the collected packages that the program never reads."""
    parts = Path(path).parts
    if any(part in LEFT_OUT_FOLDERS for part in parts[:-1]):
        return True
    if lite and parts and parts[0] in COMPILER_MODULES + ("numba.libs", "llvmlite.libs"):
        return True
    return path.endswith(LEFT_OUT_SUFFIXES)


READ_AS_TEXT = ("ai/textbook.py",)
"""Modules whose source the window shows: the code walk reads the textbook's (inspect)."""


def data_files(root: Path) -> list[Path]:
    """The game's own files the program reads at run time, under ``root``: ``ai/data``,
    the compiled catalogs of ``game/locale``, the sources in ``READ_AS_TEXT`` and the
    kernels' sources, which the compiled-code key hashes
    (``ai.compiled.kernel_file.KernelSpec.source``; in the lite build too, where the key
    is asked for before llvmlite is found missing, so the game says that is why)."""
    files = [path for path in sorted((root / "ai" / "data").rglob("*")) if path.is_file()]
    files += sorted((root / "game" / "locale").glob("*/LC_MESSAGES/*.mo"))
    files += [root / name for name in READ_AS_TEXT]
    return files + sorted((root / "ai" / "compiled").glob("*.py"))


def platform_name() -> str:
    """``linux-x86_64``, ``windows-amd64``, ``macos-arm64``: the archive's last word."""
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform.rstrip("0123456789"))
    return f"{system}-{platform.machine().lower() or 'unknown'}"


def archive_name(lite: bool) -> str:
    """``connect4-0.3.0-linux-x86_64.tar.gz`` (``connect4-lite-...``; ``.zip`` on Windows)."""
    suffix = ".zip" if sys.platform == "win32" else ".tar.gz"
    return f"{PROGRAM}{'-lite' if lite else ''}-{__version__}-{platform_name()}{suffix}"


def executable(folder: Path) -> Path:
    """The program inside a built folder (``connect4.exe`` on Windows)."""
    return folder / (PROGRAM + (".exe" if sys.platform == "win32" else ""))


class PackageError(Exception):
    """The build cannot be made here: said in one line."""


@dataclass(frozen=True)
class Built:
    """A finished build: the program's folder, its archive, their sizes, the time it took."""

    folder: Path
    archive: Path
    folder_bytes: int
    archive_bytes: int
    seconds: float


def folder_size(folder: Path) -> int:
    """Bytes of the files under ``folder`` (links not followed)."""
    return sum(path.lstat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def _members(folder: Path) -> Iterator[Path]:
    """Every file and folder under ``folder``, sorted (an archive in a stable order)."""
    yield folder
    yield from sorted(folder.rglob("*"))


def pack(folder: Path, archive: Path, into: BinaryIO | None = None) -> None:
    """``folder`` as ``archive`` (.tar.gz or .zip, by its name), with the folder's name at
    its top and without the build's mark; written into ``into`` when given (an atomic
    writer's file), else to ``archive`` itself."""
    members = [path for path in _members(folder) if path != folder / BUILD_MARK]
    target: BinaryIO | Path = archive if into is None else into
    if archive.suffix == ".zip":
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
            for path in members:
                out.write(path, path.relative_to(folder.parent))
        return
    with tarfile.open(fileobj=into, name=None if into else archive, mode="w:gz", compresslevel=6) as out:
        for path in members:
            out.add(path, str(path.relative_to(folder.parent)), recursive=False)


def pyinstaller_missing() -> str | None:
    """Why PyInstaller cannot run here (None when it can)."""
    if getattr(sys, "frozen", False):
        return "the packaged program cannot package itself: run this from the source checkout"
    done = subprocess.run([sys.executable, "-c", "import PyInstaller"], capture_output=True, check=False)
    if done.returncode != 0:
        return f"PyInstaller is not installed: {sys.executable} -m pip install -r requirements-dev.txt"
    return None


Builder = Callable[[Path, bool, Path, Callable[[str], None]], None]
"""What makes ``OUT/connect4`` from the source checkout: (out, lite, root, say); PyInstaller
(``run_pyinstaller``), or a test's stand-in where minutes are too long.

Raises:
    PackageError: it could not.
"""


def run_pyinstaller(out: Path, lite: bool, root: Path, say: Callable[[str], None]) -> None:
    """Run PyInstaller on the spec into ``out/connect4`` (which it replaces whole)."""
    problem = pyinstaller_missing()
    if problem:
        raise PackageError(problem)
    with tempfile.TemporaryDirectory(prefix="connect4-package-") as work:
        command = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--log-level", "WARN"]
        command += ["--distpath", str(out), "--workpath", work]
        command += ["--", "--root", str(root), *(["--lite"] if lite else [])]
        say(f"PyInstaller: {' '.join(command[1:])}")
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace", check=False)
        if done.returncode != 0:
            tail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-12:]
            raise PackageError("PyInstaller failed:\n" + "\n".join(tail))


def build(
    out: Path,
    lite: bool,
    say: Callable[[str], None] = lambda line: None,
    root: Path = ROOT,
    builder: Builder = run_pyinstaller,
) -> Built:
    """Build the program into ``out/connect4``, mark it, and pack it beside it; ``say``
    hears progress.  Nothing is built where it would replace what this program did not write.

    Raises:
        PackageError: ``out`` is refused (``check_out``), no PyInstaller, or it failed.
    """
    started = time.monotonic()
    earlier = check_out(out, lite)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PackageError(f"cannot make {out}: {error.strerror or error}") from None
    builder(out, lite, root, say)
    folder = out / PROGRAM
    archive = out / archive_name(lite)
    try:
        write_mark(folder, earlier)  # before the archive: a folder without its mark is never replaced
        say(f"packing {archive.name} ...")
        with atomic_writer(archive) as file:
            pack(folder, archive, file)
        earlier[archive.name] = Fingerprint.of_file(archive)
        write_mark(folder, earlier)
    except OSError as error:
        raise PackageError(f"cannot write {error.filename or archive}: {error.strerror or error}") from None
    return Built(folder, archive, folder_size(folder), archive.stat().st_size, time.monotonic() - started)


BUILD_MARK = "connect4-build.json"
"""The mark inside each program folder ``build`` made (left out of the archive)."""
MADE_BY = "connect4 package"
MAX_MARK_BYTES = 64 * 1024


def read_mark(folder: Path) -> dict[str, Fingerprint] | None:
    """The archives an earlier build in ``folder`` packed (by name), or None when ``folder``
    is no marked build of this program (no mark, or not a regular file, or damaged)."""
    mark = _mark_of(folder)
    if mark is None:
        return None
    archives = {}
    for name, value in mark["archives"].items():
        if isinstance(value, dict) and type(value.get("size")) is int and isinstance(value.get("sha256"), str):
            archives[str(name)] = Fingerprint(value["size"], value["sha256"])
    return archives


def _mark_of(folder: Path) -> dict[str, Any] | None:
    """The mark in ``folder`` as written by ``write_mark``, or None (none, or not one of ours)."""
    try:
        data = json.loads(read_regular(folder / BUILD_MARK, MAX_MARK_BYTES, follow_links=False))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("made_by") != MADE_BY:
        return None
    if not isinstance(data.get("archives"), dict) or not isinstance(data.get("files"), dict):
        return None
    return data


def write_mark(folder: Path, archives: dict[str, Fingerprint]) -> None:
    """Mark ``folder`` as made by ``build``: the archives it packed beside it, and every
    entry in it now (so that a file put there later is never replaced with the build)."""
    mark = {
        "made_by": MADE_BY,
        "version": __version__,
        "archives": {name: {"size": p.size, "sha256": p.sha256} for name, p in sorted(archives.items())},
        "files": folder_listing(folder),
    }
    write_atomically(folder / BUILD_MARK, json.dumps(mark, indent=1).encode("utf-8") + b"\n", follow_links=False)


def folder_listing(folder: Path) -> dict[str, list[int] | None]:
    """Every entry under ``folder`` but the mark, by its path inside it: a folder as None,
    anything else (links not followed) as its size and modification time in ns."""
    listing: dict[str, list[int] | None] = {}
    for top, folders, files in os.walk(folder):  # links to folders are not walked into
        for name in folders + files:
            path = Path(top, name)
            relative = path.relative_to(folder).as_posix()
            if relative == BUILD_MARK:
                continue
            info = path.lstat()
            listing[relative] = None if stat.S_ISDIR(info.st_mode) else [info.st_size, info.st_mtime_ns]
    return listing


def foreign_entry(folder: Path, listed: dict[str, Any]) -> str | None:
    """The first entry under ``folder`` (an earlier build) that the build did not leave
    there as it is now: added or changed since; None when there is none."""
    for relative, now in sorted(folder_listing(folder).items()):
        if relative not in listed or listed[relative] != now:
            return relative
    return None


def check_out(out: Path, lite: bool) -> dict[str, Fingerprint]:
    """Refuse, before any work, an ``out`` this build would harm; the archives an earlier
    build there packed (still there, still as packed), to keep in the new mark.

    Raises:
        PackageError: ``out`` is not a folder or cannot be written; ``out/connect4`` is
            there and is no marked build; the archive's name is taken by a file no mark
            proves this program packed.
    """
    if os.path.lexists(out) and not out.is_dir():
        raise PackageError(f"--out {out} is not a folder: nothing was built")
    _check_writable(out)
    folder = out / PROGRAM
    earlier: dict[str, Fingerprint] = {}
    if os.path.lexists(folder):
        mark = _mark_of(folder) if folder.is_dir() and not folder.is_symlink() else None
        marked = read_mark(folder) if mark is not None else None
        if mark is None or marked is None:
            raise PackageError(
                f"{folder} is there and is not a build of this program (it has no {BUILD_MARK}): nothing was "
                "built; move it away or choose another --out"
            )
        foreign = foreign_entry(folder, mark["files"])
        if foreign is not None:
            raise PackageError(
                f"{folder / foreign} is in an earlier build but the build did not write it (or it changed since): "
                "nothing was built; move it away or choose another --out"
            )
        earlier = marked
    archive = out / archive_name(lite)
    kept = {}
    for name, fingerprint in earlier.items():
        try:
            if Fingerprint.of_file(out / name) == fingerprint:
                kept[name] = fingerprint
        except OSError:  # gone, or no longer a regular file: no longer this program's
            pass
    if os.path.lexists(archive) and archive.name not in kept:
        raise PackageError(
            f"{archive} is there and this program did not write it (or it changed since): nothing was built; "
            "move it away or choose another --out"
        )
    return kept


def _check_writable(out: Path) -> None:
    """Refuse an ``out`` (or, when it is not there yet, the folder it would go in) where no
    file can be made: read-only, or not a folder on the way."""
    where = out
    while not os.path.lexists(where) and where != where.parent:
        where = where.parent
    if not where.is_dir():
        raise PackageError(f"--out {out}: {where} is not a folder: nothing was built")
    try:
        descriptor, probe = tempfile.mkstemp(dir=where, prefix=".connect4-package-", suffix=".probe")
    except OSError as error:
        raise PackageError(f"--out {out} cannot be written ({error.strerror or error}): nothing was built") from None
    os.close(descriptor)
    remove_own(probe)


def remove_build(out: Path) -> None:
    """Remove a build's folder under ``out`` (a test's or a script's clean-up)."""
    shutil.rmtree(out / PROGRAM, ignore_errors=True)
