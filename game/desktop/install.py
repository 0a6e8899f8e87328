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

Only what it wrote is ever its own.  It keeps a record (``RECORD``, in the game's data
folder ``connect4/`` beside them, where SDL keeps the window's settings on Linux): the size
and sha256 of each file it wrote and every folder it made, over all installs.  So:

- a file of those six names that the record does not prove its own (someone else's, a
  symlink, one changed since) is never replaced: the install refuses, names every such
  file and changes nothing.  Refused rather than backed up: a file of this game's id is
  the user's own edit or another copy of this game, and the user moving it is safer than
  us restoring it later (a backup could outlive its record, or come back over a file the
  user wrote since);
- an install that fails half-way puts every file and folder back as it was;
- ``uninstall-desktop`` removes a file only if its bytes are still the ones written (one
  changed since is left and named), then the folders it made that are empty now, and the
  record.  Without a record it removes nothing.

Standard library only: no pygame, no numpy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

from game.i18n import SYSTEM, _, ngettext, set_language
from game.regular_file import (
    NotRegularFile,
    TooLarge,
    open_regular,
    read_regular,
    remove_own,
    write_atomically,
    write_beside,
)

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
RECORD = "connect4/desktop-files.json"
"""The record of what ``install`` wrote, relative to the data folder: in the game's own
data folder (``~/.local/share/connect4`` on Linux, beside its settings)."""
MAX_RECORD_BYTES = 64 * 1024
MAX_ASSET_BYTES = 4 * 1024 * 1024
"""An asset copied (an icon, the entry, the metainfo) is at most this large."""
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


def desktop_entry(template: str, argv: Sequence[str]) -> str:
    """The desktop entry of ``assets/`` with its Exec line running ``argv``."""
    lines = ["Exec=" + exec_line(argv) if line.startswith("Exec=") else line for line in template.splitlines()]
    return "\n".join(lines) + "\n"


# -- the record: what install wrote, so that only that is ever replaced or removed -------


@dataclass(frozen=True)
class Fingerprint:
    """A file's size and sha256: the bytes ``install`` wrote (or ``package`` packed)."""

    size: int
    sha256: str

    @classmethod
    def of(cls, data: bytes) -> Fingerprint:
        return cls(len(data), hashlib.sha256(data).hexdigest())

    @classmethod
    def of_file(cls, path: Path) -> Fingerprint:
        """The regular file at ``path``, read in pieces (a link or anything else: ``OSError``)."""
        digest = hashlib.sha256()
        descriptor, found = open_regular(path, follow_links=False)
        with open(descriptor, "rb") as file:
            while chunk := file.read(1 << 20):
                digest.update(chunk)
        return cls(found.st_size, digest.hexdigest())


@dataclass
class Record:
    """What ``install`` wrote under a data folder, by relative ``/``-separated name: each
    file's fingerprints (one; two while an install replaces its own older file) and every
    folder it made.  ``found``: a readable record was there."""

    files: dict[str, list[Fingerprint]] = field(default_factory=dict)
    folders: list[str] = field(default_factory=list)
    found: bool = False

    def to_json(self) -> bytes:
        files = {name: [asdict(print_) for print_ in prints] for name, prints in self.files.items()}
        text = json.dumps({"written_by": "install-desktop", "files": files, "folders": self.folders}, indent=1)
        return text.encode("utf-8") + b"\n"


def _relative(home: Path, path: Path) -> str:
    return path.relative_to(home).as_posix()


def _names_and_folders(home: Path) -> tuple[set[str], set[str]]:
    """The only names a record may hold: the six files, and the folders on their way
    (and the record's) below ``home``; whatever else an edited record says is ignored."""
    paths = [place.target for place in placements(home, Path())] + [home / RECORD]
    folders = {_relative(home, parent) for path in paths for parent in path.parents if home in parent.parents}
    return {_relative(home, path) for path in paths[:-1]}, folders


def read_record(home: Path) -> Record:
    """The record under ``home``, holding only names it may hold; an empty one (which
    proves nothing) when it is missing, damaged or not a regular file.

    Raises:
        DesktopError: it is a regular file that cannot be read.
    """
    try:
        data = json.loads(read_regular(home / RECORD, MAX_RECORD_BYTES))
    except (FileNotFoundError, NotRegularFile, TooLarge, ValueError, RecursionError):  # ValueError: not JSON
        return Record()
    except OSError as error:
        raise _unreadable(error) from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("files"), dict)
        or not isinstance(data.get("folders"), list)
    ):
        return Record()
    names, folders = _names_and_folders(home)
    record = Record(found=True)
    for name, prints in data["files"].items():
        if name in names and isinstance(prints, list):
            record.files[name] = [
                Fingerprint(p["size"], p["sha256"])
                for p in prints
                if isinstance(p, dict) and type(p.get("size")) is int and isinstance(p.get("sha256"), str)
            ]
    record.folders = [
        folder for folder in dict.fromkeys(data["folders"]) if isinstance(folder, str) and folder in folders
    ]
    return record


def _unreadable(error: OSError) -> DesktopError:
    return DesktopError(
        _("cannot read the desktop files: {value} ({filename})").format(
            value=error.strerror or error, filename=error.filename
        )
    )


def _own_bytes(path: Path, prints: Sequence[Fingerprint]) -> bytes | None:
    """The bytes of ``path`` if they are ones ``install`` wrote there (a regular file, not a
    symlink, of a recorded size and sha256), else None.

    Raises:
        DesktopError: it is there but cannot be read.
    """
    try:
        data = read_regular(path, max((p.size for p in prints), default=0), follow_links=False)
    except (FileNotFoundError, NotRegularFile, TooLarge):  # not there, a link, a FIFO, larger than any written
        return None
    except OSError as error:
        raise _unreadable(error) from None
    return data if Fingerprint.of(data) in prints else None


def install(home: Path | None = None, argv: Sequence[str] | None = None) -> list[Path]:
    """Write the desktop entry, the icons and the metainfo under ``home``; return their paths.

    A file of those names that the record does not prove this game wrote is never
    replaced: the install refuses and names it.  The record gains what this install
    wrote and the folders it made, so a later ``uninstall`` removes exactly those.

    Raises:
        DesktopError: a file is in the way, an asset is missing, or a file cannot be
            written (then every file and folder is put back as it was).
    """
    home = data_home() if home is None else home
    assets = asset_folder()
    command = launch_command() if argv is None else list(argv)
    places = placements(home, assets)
    record = read_record(home)
    old: dict[Path, bytes | None] = {}  # each target's bytes before (None: not there)
    in_the_way = []
    for place in places:
        if os.path.lexists(place.target):
            old[place.target] = _own_bytes(place.target, record.files.get(_relative(home, place.target), []))
            if old[place.target] is None:
                in_the_way.append(place.target)
        else:
            old[place.target] = None
    if in_the_way:
        raise DesktopError(
            ngettext(
                "{files} is there already and install-desktop did not write it: nothing was changed "
                "(move it away, then try again)",
                "{count} files are there already that install-desktop did not write: {files}; nothing was "
                "changed (move them away, then try again)",
                len(in_the_way),
            ).format(count=len(in_the_way), files=", ".join(str(path) for path in in_the_way))
        )
    undo: list[Callable[[], object]] = []  # done in reverse when the install fails
    try:
        contents = [(place.target, _content(place, command)) for place in places]
        record_path = home / RECORD
        made = _missing_folders([place.target.parent for place in places] + [record_path.parent])
        folders = list(dict.fromkeys(record.folders + [_relative(home, f) for f in made if home in f.parents]))
        old_record = record_path.read_bytes() if record.found else None
        # The record first, naming the new bytes beside the old and every folder about to
        # be made: a kill at any later moment leaves nothing this game cannot take away.
        _make_folders([f for f in made if f in record_path.parents], undo)
        pending = {_relative(home, t): [Fingerprint.of(d)] for t, d in contents}
        for target, data in old.items():
            if data is not None:
                pending[_relative(home, target)].append(Fingerprint.of(data))
        undo.append(partial(_put_back, record_path, old_record))
        write_atomically(record_path, Record(pending, folders).to_json())
        _make_folders([f for f in made if f not in record_path.parents], undo)
        staged = []
        for target, data in contents:
            temporary = write_beside(target, data)
            undo.append(partial(temporary.unlink, missing_ok=True))
            staged.append((temporary, target))
        for temporary, target in staged:
            undo.append(partial(_put_back, target, old[target]))
            os.replace(temporary, target)
        final = Record({name: prints[:1] for name, prints in pending.items()}, folders)
        write_atomically(record_path, final.to_json())
    except BaseException as error:  # Ctrl+C too: nothing is left half-done
        for step in reversed(undo):
            try:
                step()
            except OSError:
                pass
        if not isinstance(error, OSError):
            raise
        raise DesktopError(
            _("cannot write the desktop files: {value} ({filename})").format(
                value=error.strerror or error, filename=error.filename
            )
        ) from None
    return [target for target, _data in contents]


def _content(place: Placed, command: Sequence[str]) -> bytes:
    """The bytes ``place`` gets: the asset, the entry's Exec line set to ``command``."""
    data = read_regular(place.source, MAX_ASSET_BYTES)
    if place.target.name == DESKTOP_FILE:
        return desktop_entry(data.decode("utf-8"), command).encode("utf-8")
    return data


def _make_folders(folders: Sequence[Path], undo: list[Callable[[], object]]) -> None:
    """Make each of ``folders`` (outermost first), each one taken away again on undo."""
    for folder in folders:
        folder.mkdir()
        undo.append(folder.rmdir)


def _put_back(path: Path, data: bytes | None) -> None:
    """Undo a write of ``path``: its old bytes back, or no file when there was none."""
    if data is None:
        remove_own(path)
    else:
        write_atomically(path, data)


@dataclass(frozen=True)
class Uninstalled:
    """What ``uninstall`` did: the files it removed, the ones it wrote but that changed
    since (left), and files of its names it has no record of writing (left)."""

    removed: list[Path]
    changed: list[Path]
    unproven: list[Path]


def uninstall(home: Path | None = None) -> Uninstalled:
    """Remove what ``install`` wrote under ``home`` (by the record: only files whose bytes
    are still the ones written), the folders it made if they are empty now, and the record.

    Raises:
        DesktopError: a file is there but cannot be removed.
    """
    home = data_home() if home is None else home
    record = read_record(home)
    removed, changed, unproven = [], [], []
    for place in placements(home, Path()):
        target = place.target
        prints = record.files.get(_relative(home, target))
        if not os.path.lexists(target):
            continue
        if prints is None:
            unproven.append(target)
        elif _own_bytes(target, prints) is None:
            changed.append(target)
        else:
            _remove(target)
            removed.append(target)
    if record.found:
        _remove(home / RECORD)
        _remove_empty([home / folder for folder in record.folders])
    return Uninstalled(removed, changed, unproven)


def _remove(path: Path) -> None:
    try:
        remove_own(path)
    except OSError as error:
        raise DesktopError(
            _("cannot remove {target}: {value}").format(target=path, value=error.strerror or error)
        ) from None


def _missing_folders(folders: Sequence[Path]) -> list[Path]:
    """The folders (and parents) among ``folders`` that do not exist yet, outermost first."""
    missing: list[Path] = []
    for folder in folders:
        chain = []
        while not os.path.lexists(folder) and folder not in missing and folder not in chain:
            chain.append(folder)
            folder = folder.parent
        missing.extend(reversed(chain))
    return missing


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
    set_language(SYSTEM)  # the messages in the system's language, as every command's
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
            done = uninstall(home)
            if done.removed:
                print(_("Removed {count} files under {home}:").format(count=len(done.removed), home=home))
            elif not done.changed and not done.unproven:
                print(_("Nothing to remove: no desktop files of this game under {home}.").format(home=home))
            _list(done.removed, home)
            if done.changed:
                count = len(done.changed)
                print(
                    ngettext(
                        "Left {count} file under {home} that changed since install-desktop wrote it:",
                        "Left {count} files under {home} that changed since install-desktop wrote them:",
                        count,
                    ).format(count=count, home=home)
                )
                _list(done.changed, home)
            if done.unproven:
                count = len(done.unproven)
                print(
                    ngettext(
                        "Left {count} file under {home} that install-desktop has no record of writing:",
                        "Left {count} files under {home} that install-desktop has no record of writing:",
                        count,
                    ).format(count=count, home=home)
                )
                _list(done.unproven, home)
    except DesktopError as error:
        print(
            _("{program} {command}: error: {error}").format(program=program, command=command, error=error),
            file=sys.stderr,
        )
        return 2
    return 0


def _list(paths: Sequence[Path], home: Path) -> None:
    for path in paths:
        print(f"  {path.relative_to(home)}")
