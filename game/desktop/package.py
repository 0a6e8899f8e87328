"""The packaged program: one folder that runs with no Python on the machine (PyInstaller).

``build`` runs PyInstaller on ``connect4.spec`` (beside this file) for the game's source
checkout, into ``OUT/connect4/`` (the program ``connect4``, ``connect4.exe`` on Windows),
and packs that folder as ``OUT/connect4[-lite]-VERSION-PLATFORM.tar.gz`` (a .zip on
Windows) to hand over.  The full build carries numba and llvmlite (the compiled solver,
built once per machine into the user's cache folder, as from source); ``lite`` leaves
them out, for a program half the size whose exact solver is the pure-Python one.

The spec asks this module what goes in (``data_files``, ``ASSET_FILES``) and what stays
out (``excluded_modules``, ``left_out_file``): the rules live here, where they can be read
and tested, and the spec stays a few lines.  The program keeps nothing in its own folder
(settings, the archive and the compiled kernels live in the user's folders), so it runs
from a read-only place.  Standard library only: PyInstaller is imported by its own
process, never by the game.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

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


def pack(folder: Path, archive: Path) -> None:
    """``folder`` as ``archive`` (.tar.gz or .zip), with the folder's name at its top."""
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
            for path in _members(folder):
                out.write(path, path.relative_to(folder.parent))
        return
    with tarfile.open(archive, "w:gz", compresslevel=6) as out:
        for path in _members(folder):
            out.add(path, str(path.relative_to(folder.parent)), recursive=False)


def pyinstaller_missing() -> str | None:
    """Why PyInstaller cannot run here (None when it can)."""
    if getattr(sys, "frozen", False):
        return "the packaged program cannot package itself: run this from the source checkout"
    done = subprocess.run([sys.executable, "-c", "import PyInstaller"], capture_output=True, check=False)
    if done.returncode != 0:
        return f"PyInstaller is not installed: {sys.executable} -m pip install -r requirements-dev.txt"
    return None


def build(out: Path, lite: bool, say: Callable[[str], None] = lambda line: None, root: Path = ROOT) -> Built:
    """Build the program into ``out/connect4`` and pack it beside it; ``say`` hears progress.

    Raises:
        PackageError: no PyInstaller, an unwritable ``out``, or PyInstaller failed.
    """
    problem = pyinstaller_missing()
    if problem:
        raise PackageError(problem)
    started = time.monotonic()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PackageError(f"cannot make {out}: {error.strerror or error}") from None
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
    folder = out / PROGRAM
    archive = out / archive_name(lite)
    say(f"packing {archive.name} ...")
    archive.unlink(missing_ok=True)
    pack(folder, archive)
    return Built(folder, archive, folder_size(folder), archive.stat().st_size, time.monotonic() - started)


def remove_build(out: Path) -> None:
    """Remove a build's folder under ``out`` (a test's or a script's clean-up)."""
    shutil.rmtree(out / PROGRAM, ignore_errors=True)
