"""A place in the desktop's menu: ``install-desktop`` and ``uninstall-desktop``.

``install-desktop`` copies the freedesktop files of ``assets/`` into the user's data
folder (``$XDG_DATA_HOME``, else ``~/.local/share``), with the desktop entry's ``Exec``
line set to the command that started this game:

- ``applications/APP_ID.desktop``: the menu entry (Name, Comment, Exec, Icon,
  Categories=Game;BoardGame;, StartupWMClass "Connect Four", the window's X11 class);
- ``icons/hicolor/{48x48,128x128,256x256}/apps/APP_ID.png`` and
  ``icons/hicolor/scalable/apps/APP_ID.svg``: the window's icon (``game.app.icon_files``
  made them from the icon the window draws);
- ``metainfo/APP_ID.metainfo.xml``: the AppStream description software centres read.

``uninstall-desktop`` removes exactly those files, and the folders ``install-desktop``
made for them (the entry keeps their list) when nothing else is in them.  Standard library only: no pygame, no numpy.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from game.i18n import _

APP_ID = "io.github.connect4explorer.ConnectFour"
"""The desktop entry's id: its file name, the icon's name, the AppStream id and the
window's Wayland app id (``game.app.loop.name_the_window``)."""
ICON_SIZES = (48, 128, 256)
DESKTOP_FILE = f"{APP_ID}.desktop"
METAINFO_FILE = f"{APP_ID}.metainfo.xml"
SVG_FILE = f"{APP_ID}.svg"
GUI_SCRIPT = "connect4-gui"
"""The package's gui-scripts entry (no console window on Windows)."""
SHARE_NAME = "connect4-minimax-explorer"
"""The folder under ``{prefix}/share`` where ``pip install`` puts the assets."""
MADE_FOLDERS_KEY = "X-Connect4-Made-Folders"
"""The entry's record of the folders ``install`` made (``uninstall`` removes them if empty)."""
EXEC_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")
"""Characters that make an Exec argument need quotes (Desktop Entry spec, "The Exec key")."""


class DesktopError(Exception):
    """Something the user can fix: a file that cannot be written, assets that are missing."""


@dataclass(frozen=True)
class Placed:
    """One file the desktop gets: where it comes from (``assets/``) and where it goes."""

    source: Path
    target: Path


def data_home(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME`` if set to an absolute path, else ``~/.local/share``."""
    environ = dict(os.environ) if environ is None else environ
    value = environ.get("XDG_DATA_HOME", "")
    if value and Path(value).is_absolute():
        return Path(value)
    return Path(environ.get("HOME") or Path.home()) / ".local" / "share"


def asset_folder() -> Path:
    """The folder holding the desktop entry, the icons and the metainfo.

    Raises:
        DesktopError: neither a source checkout's ``assets/`` nor an installed copy.
    """
    candidates = (
        Path(__file__).resolve().parents[2] / "assets",
        Path(sys.prefix) / "share" / SHARE_NAME / "assets",
    )
    for folder in candidates:
        if (folder / DESKTOP_FILE).is_file():
            return folder
    raise DesktopError(
        _("the desktop files are missing (looked in {join})").format(join=", ".join(str(c) for c in candidates))
    )


def placements(home: Path, assets: Path) -> list[Placed]:
    """Every file ``install`` writes, from ``assets`` into the data folder ``home``."""
    icons = home / "icons" / "hicolor"
    placed = [Placed(assets / DESKTOP_FILE, home / "applications" / DESKTOP_FILE)]
    for size in ICON_SIZES:
        name = f"{APP_ID}-{size}.png"
        placed.append(Placed(assets / name, icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png"))
    placed.append(Placed(assets / SVG_FILE, icons / "scalable" / "apps" / SVG_FILE))
    placed.append(Placed(assets / METAINFO_FILE, home / "metainfo" / METAINFO_FILE))
    return placed


def launch_command(argv0: str | None = None, executable: str | None = None, frozen: bool | None = None) -> list[str]:
    """The command that opens the window, as it was started now.

    The packaged program (PyInstaller: ``sys.frozen``) is its own executable.  The
    installed ``connect4`` script has the ``connect4-gui`` script beside it (no console
    on Windows); ``main.py`` runs with the Python that runs it now (``.venv``'s after the
    first start); else the launcher as a module of this Python.
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    if getattr(sys, "frozen", False) if frozen is None else frozen:
        return [str(Path(executable).resolve())]
    started = Path(argv0)
    if started.stem in ("connect4", GUI_SCRIPT):
        gui = started.resolve().with_name(GUI_SCRIPT + started.suffix)
        if gui.is_file():
            return [str(gui)]
    main_py = Path(__file__).resolve().parents[2] / "main.py"
    if main_py.is_file():
        return [str(Path(executable).absolute()), str(main_py)]
    return [str(Path(executable).absolute()), "-m", "game.launcher"]


def exec_line(argv: Sequence[str]) -> str:
    """``argv`` as a desktop entry's Exec value: quoted where the spec asks, escaped twice
    (once for the Exec quoting, once for the key file's string), ``%`` doubled."""
    words = []
    for arg in argv:
        if any(c in EXEC_RESERVED for c in arg) or not arg:
            arg = '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'
        words.append(arg.replace("%", "%%"))
    return " ".join(words).replace("\\", "\\\\")


def desktop_entry(template: str, argv: Sequence[str], made_folders: Sequence[str] = ()) -> str:
    """The desktop entry of ``assets/`` with its Exec line running ``argv``, and the
    folders ``install`` made (relative, ``/``-separated) for ``uninstall`` to remove."""
    lines = []
    for line in template.splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + exec_line(argv)
        lines.append(line)
    if made_folders:
        lines.append(f"{MADE_FOLDERS_KEY}={';'.join(made_folders)};")
    return "\n".join(lines) + "\n"


def install(home: Path | None = None, argv: Sequence[str] | None = None) -> list[Path]:
    """Write the desktop entry, the icons and the metainfo under ``home``; return their paths.

    The entry records the folders this made (``X-Connect4-Made-Folders``), so that
    ``uninstall`` removes those and no folder that was there before.

    Raises:
        DesktopError: an asset is missing or a file cannot be written (nothing is left
            half-written: what was written before the failure is removed again).
    """
    home = data_home() if home is None else home
    assets = asset_folder()
    command = launch_command() if argv is None else list(argv)
    places = placements(home, assets)
    made = _missing_folders([place.target.parent for place in places])
    written: list[Path] = []
    try:
        for place in places:
            data = place.source.read_bytes()
            if place.target.name == DESKTOP_FILE:
                folders = [folder.relative_to(home).as_posix() for folder in made if home in folder.parents]
                data = desktop_entry(data.decode("utf-8"), command, folders).encode("utf-8")
            place.target.parent.mkdir(parents=True, exist_ok=True)
            temporary = place.target.with_name(place.target.name + ".part")
            temporary.write_bytes(data)
            os.replace(temporary, place.target)
            written.append(place.target)
    except OSError as error:
        for path in written:
            path.unlink(missing_ok=True)
        _remove_empty(made)
        raise DesktopError(
            _("cannot write the desktop files: {value} ({filename})").format(
                value=error.strerror or error, filename=error.filename
            )
        ) from None
    return written


def uninstall(home: Path | None = None) -> list[Path]:
    """Remove what ``install`` wrote under ``home``, and the folders it made if they are
    empty now; return the files removed (none when nothing was installed).

    Raises:
        DesktopError: a file is there but cannot be removed.
    """
    home = data_home() if home is None else home
    places = placements(home, Path())
    made = [home / folder for folder in _made_folders(places[0].target)]
    removed = []
    for place in places:
        try:
            place.target.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise DesktopError(
                _("cannot remove {target}: {value}").format(target=place.target, value=error.strerror or error)
            ) from None
        removed.append(place.target)
    _remove_empty(made)
    return removed


def _missing_folders(folders: Sequence[Path]) -> list[Path]:
    """The folders (and parents) among ``folders`` that do not exist yet, outermost first."""
    missing: list[Path] = []
    for folder in folders:
        chain = []
        while not folder.exists() and folder not in missing and folder not in chain:
            chain.append(folder)
            folder = folder.parent
        missing.extend(reversed(chain))
    return missing


def _made_folders(entry: Path) -> list[str]:
    """The folders an installed entry says ``install`` made (none if it is unreadable)."""
    try:
        text = entry.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    for line in text.splitlines():
        if line.startswith(MADE_FOLDERS_KEY + "="):
            return [part for part in line.split("=", 1)[1].split(";") if part and ".." not in part.split("/")]
    return []


def _remove_empty(folders: Sequence[Path]) -> None:
    """Remove each of ``folders`` that is empty, innermost first."""
    for folder in sorted(folders, key=lambda path: len(path.parts), reverse=True):
        try:
            folder.rmdir()
        except OSError:
            pass


def main(argv: Sequence[str], program: str = "main.py") -> int:
    """``install-desktop`` / ``uninstall-desktop``: say what was done; 2 on a failure."""
    command = argv[0]
    parser = argparse.ArgumentParser(
        prog=f"{program} {command}",
        description=(
            _(
                "Give the game a menu entry and icons (freedesktop: Linux and the BSDs), in $XDG_DATA_HOME or ~/.local/share."
            )
            if command == "install-desktop"
            else _("Remove the menu entry, icons and metainfo that install-desktop wrote.")
        ),
    )
    parser.parse_args(argv[1:])
    home = data_home()
    try:
        if command == "install-desktop":
            written = install(home)
            print(_("Wrote {count} files under {home}:").format(count=len(written), home=home))
            for path in written:
                print(f"  {path.relative_to(home)}")
            print(_("The menu entry runs: {exec_line}").format(exec_line=exec_line(launch_command())))
            print(_("(to remove them: {program} uninstall-desktop)").format(program=program))
        else:
            removed = uninstall(home)
            if not removed:
                print(_("Nothing to remove: no desktop files of this game under {home}.").format(home=home))
            else:
                print(_("Removed {count} files under {home}:").format(count=len(removed), home=home))
                for path in removed:
                    print(f"  {path.relative_to(home)}")
    except DesktopError as error:
        print(
            _("{program} {command}: error: {error}").format(program=program, command=command, error=error),
            file=sys.stderr,
        )
        return 2
    return 0
