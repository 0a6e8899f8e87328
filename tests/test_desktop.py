"""A place in the desktop: install-desktop writes a valid entry, icons and metainfo,
uninstall-desktop takes exactly those away, the icon files are the icon the window draws,
and ``--version`` answers from main.py (even before set-up) and the launcher.

The validators are the freedesktop ones (Debian packages desktop-file-utils and
appstream; ``.ci/run`` installs them).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.app.icon_files import make_icon, png_name
from game.app.loop import TITLE
from game.desktop import install as desktop
from game.desktop.install import APP_ID, ICON_SIZES, DesktopError, desktop_entry, exec_line, install, uninstall
from game.version import __version__

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
EXPECTED = [
    f"applications/{APP_ID}.desktop",
    f"icons/hicolor/48x48/apps/{APP_ID}.png",
    f"icons/hicolor/128x128/apps/{APP_ID}.png",
    f"icons/hicolor/256x256/apps/{APP_ID}.png",
    f"icons/hicolor/scalable/apps/{APP_ID}.svg",
    f"metainfo/{APP_ID}.metainfo.xml",
]


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is missing: apt-get install desktop-file-utils appstream (.ci/run does)"
    return found


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``folder``."""
    return {
        str(path.relative_to(folder)): (path.read_bytes() if path.is_file() else None)
        for path in sorted(folder.rglob("*"))
    }


def entry_values(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def test_install_writes_an_entry_icons_and_metainfo_the_validators_pass(tmp_path):
    home = tmp_path / "share"
    command = [str(tmp_path / "a folder" / "python 3"), str(tmp_path / "100% game" / "main.py")]
    written = install(home, command)
    assert [str(path.relative_to(home)) for path in written] == EXPECTED
    entry = home / EXPECTED[0]
    check = subprocess.run([tool("desktop-file-validate"), str(entry)], capture_output=True, text=True)
    assert check.returncode == 0 and not check.stdout.strip(), check.stdout + check.stderr
    values = entry_values(entry.read_text(encoding="utf-8"))
    assert values["Name"] == "Connect Four" and values["Comment"]
    assert values["Categories"] == "Game;BoardGame;"
    assert values["Icon"] == APP_ID
    assert values["StartupWMClass"] == TITLE  # the window's X11 class (game.app.loop.name_the_window)
    assert values["Exec"] == exec_line(command)
    assert values["Exec"].startswith('"') and "%%" in values["Exec"]  # quoted (spaces), % doubled
    metainfo = home / EXPECTED[-1]
    check = subprocess.run(
        [tool("appstreamcli"), "validate", "--no-net", str(metainfo)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    text = metainfo.read_text(encoding="utf-8")
    assert f"<id>{APP_ID}</id>" in text and f'<launchable type="desktop-id">{APP_ID}.desktop</launchable>' in text
    assert re.search(rf'<release version="{re.escape(__version__)}"', text), (
        "metainfo's newest release is not this version"
    )


def test_install_then_uninstall_leaves_the_folder_as_it_was(tmp_path):
    home = tmp_path / "share"
    (home / "applications").mkdir(parents=True)
    (home / "applications" / "other.desktop").write_text("[Desktop Entry]\n")
    (home / "icons" / "hicolor" / "48x48" / "apps").mkdir(parents=True)
    (home / "icons" / "hicolor" / "48x48" / "apps" / "other.png").write_bytes(b"png")
    (home / "metainfo").mkdir()  # the user's empty folder: install uses it, uninstall keeps it
    before = snapshot(home)
    install(home, ["connect4-gui"])
    assert len(snapshot(home)) > len(before)
    removed = uninstall(home).removed
    assert [str(path.relative_to(home)) for path in removed] == EXPECTED
    assert snapshot(home) == before
    assert uninstall(home) == desktop.Uninstalled([], [], [])  # a second time: nothing to remove, no error


def test_install_into_an_empty_folder_then_uninstall_leaves_it_empty(tmp_path):
    home = tmp_path / "share"
    home.mkdir()
    install(home, ["connect4-gui"])
    uninstall(home)
    assert snapshot(home) == {}


def test_a_folder_that_cannot_be_written_is_one_message_and_nothing_left(tmp_path):
    home = tmp_path / "share"
    (home / "icons").mkdir(parents=True)
    (home / "icons" / "hicolor").write_text("a file where a folder should be")
    before = snapshot(home)
    with pytest.raises(DesktopError, match="cannot write the desktop files"):
        install(home, ["connect4-gui"])
    assert snapshot(home) == before


def test_exec_lines_quote_what_the_spec_reserves():
    assert exec_line(["/usr/bin/connect4-gui"]) == "/usr/bin/connect4-gui"
    assert exec_line(["/a b/python", "/c/main.py"]) == '"/a b/python" /c/main.py'
    # In quotes a backslash is escaped, and the key file escapes that backslash again.
    assert exec_line(["C:\\x y\\py.exe"]) == '"C:\\\\\\\\x y\\\\\\\\py.exe"'
    assert exec_line(["/g/50%"]) == "/g/50%%"
    template = "[Desktop Entry]\nExec=connect4-gui\nName=x\n"
    assert desktop_entry(template, ["/p q/r"]).splitlines()[1] == 'Exec="/p q/r"'


def test_the_launch_command_prefers_the_gui_script_beside_connect4(tmp_path):
    scripts = tmp_path / "bin"
    scripts.mkdir()
    (scripts / "connect4").write_text("")
    assert desktop.launch_command(str(scripts / "connect4"), "/py") == ["/py", str(ROOT / "main.py")]
    (scripts / "connect4-gui").write_text("")
    assert desktop.launch_command(str(scripts / "connect4"), "/py") == [str(scripts / "connect4-gui")]
    assert desktop.launch_command("main.py", "/venv/bin/python") == ["/venv/bin/python", str(ROOT / "main.py")]


@pytest.mark.parametrize("size", ICON_SIZES)
def test_the_icon_files_are_the_icon_the_window_draws(size):
    pygame.init()
    drawn = make_icon(size)
    saved = pygame.image.load(str(ASSETS / png_name(size)))
    assert saved.get_size() == (size, size)
    differing = sum(
        1
        for x in range(size)
        for y in range(size)
        if max(abs(a - b) for a, b in zip(drawn.get_at((x, y)), saved.get_at((x, y)))) > 8
    )
    assert differing <= size * size // 100, f"{png_name(size)}: run python -m game.app.icon_files"


def test_the_svg_draws_the_same_icon():
    pygame.init()
    svg = pygame.image.load(str(ASSETS / f"{APP_ID}.svg"))
    png = pygame.image.load(str(ASSETS / png_name(256)))
    assert svg.get_size() == (256, 256)
    far = 0
    for x in range(0, 256, 2):
        for y in range(0, 256, 2):
            a, b = svg.get_at((x, y)), png.get_at((x, y))
            far += max(abs(p - q) for p, q in zip(a, b)) > 60  # edges differ by anti-aliasing only
    assert far <= 128 * 128 * 5 // 100, far


def run_main(*args: str, env: dict[str, str] | None = None, flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *flags, str(ROOT / "main.py"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CONNECT4_NO_SETUP": "1", **(env or {})},
    )


def test_main_py_installs_and_uninstalls_the_desktop_files(tmp_path):
    share = tmp_path / "share"
    done = run_main("install-desktop", env={"XDG_DATA_HOME": str(share)})
    assert done.returncode == 0, done.stderr
    assert f"Wrote 6 files under {share}" in done.stdout and "uninstall-desktop" in done.stdout
    values = entry_values((share / EXPECTED[0]).read_text(encoding="utf-8"))
    assert values["Exec"] == exec_line([str(Path(sys.executable).absolute()), str(ROOT / "main.py")])
    done = run_main("uninstall-desktop", env={"XDG_DATA_HOME": str(share)})
    assert done.returncode == 0, done.stderr
    assert "Removed 6 files" in done.stdout
    assert snapshot(share) == {}


def test_version_from_main_py_the_launcher_and_before_set_up():
    assert run_main("--version").stdout.strip() == f"main.py {__version__}"
    # -S: no site-packages (no numpy, no pygame), as on a fresh clone before set-up.
    bare = run_main("--version", flags=("-S",))
    assert bare.returncode == 0 and bare.stdout.strip() == f"main.py {__version__}", bare.stderr
    code = "import sys; from game.launcher import main; sys.argv = ['/usr/bin/connect4']; sys.exit(main(['--version']))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == f"connect4 {__version__}", proc.stderr


def test_the_window_names_itself_as_the_entry_expects(monkeypatch):
    from game.app.loop import name_the_window

    for hint in ("SDL_VIDEO_X11_WMCLASS", "SDL_VIDEO_WAYLAND_WMCLASS"):
        monkeypatch.delenv(hint, raising=False)
    name_the_window()
    assert os.environ["SDL_VIDEO_X11_WMCLASS"] == TITLE  # StartupWMClass
    assert os.environ["SDL_VIDEO_WAYLAND_WMCLASS"] == APP_ID  # the entry's file name


def test_the_help_names_the_desktop_commands_and_version():
    said = run_main("--help").stdout
    assert "install-desktop" in said and "uninstall-desktop" in said and "--version" in said


def test_the_package_version_is_the_one_in_game_version():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'version = { attr = "game.version.__version__" }' in pyproject
    assert "[project.gui-scripts]\n# The window without a console on Windows" in pyproject
    assert 'connect4-gui = "game.launcher:gui_main"' in pyproject


# -- never overwrite or delete a file install-desktop did not write ----------------------


def foreign(path: Path, data: bytes = b"someone else's file\n") -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("name", EXPECTED)
def test_a_file_of_its_names_it_did_not_write_is_refused_named_and_kept(tmp_path, name):
    home = tmp_path / "share"
    home.mkdir()
    foreign(home / name)
    before = snapshot(home)
    with pytest.raises(DesktopError, match=re.escape(str(home / name))):
        install(home, ["connect4-gui"])
    assert snapshot(home) == before  # nothing written, no folder made, the file as it was
    assert uninstall(home).removed == []
    assert snapshot(home) == before


def test_a_foreign_entry_survives_a_metainfo_folder_that_is_a_file(tmp_path):
    """The issue's steps: the entry is someone else's and the install could not finish."""
    home = tmp_path / "share"
    foreign(home / EXPECTED[0], b"[Desktop Entry]\nName=Mine\n")
    (home / "metainfo").write_text("a file where a folder should be")
    before = snapshot(home)
    with pytest.raises(DesktopError):
        install(home, ["connect4-gui"])
    assert snapshot(home) == before


def test_a_symlink_of_its_name_is_not_written_through(tmp_path):
    home = tmp_path / "share"
    elsewhere = tmp_path / "mine.desktop"
    foreign(elsewhere)
    (home / "applications").mkdir(parents=True)
    (home / EXPECTED[0]).symlink_to(elsewhere)
    with pytest.raises(DesktopError, match="applications"):
        install(home, ["connect4-gui"])
    assert (home / EXPECTED[0]).is_symlink() and elsewhere.read_bytes() == b"someone else's file\n"


def test_a_reinstall_that_fails_half_way_puts_back_what_was_there(tmp_path):
    """Its own files of the first install are overwritten by the second, which then fails:
    the first install's files come back byte for byte, and no folder is added or lost."""
    home = tmp_path / "share"
    install(home, ["/first/connect4-gui"])
    (home / EXPECTED[-1]).unlink()
    (home / "metainfo").rmdir()
    (home / "metainfo").write_text("a file where a folder should be")
    before = snapshot(home)
    with pytest.raises(DesktopError, match="cannot write the desktop files"):
        install(home, ["/second/connect4-gui"])
    assert snapshot(home) == before
    assert "Exec=/first/connect4-gui" in (home / EXPECTED[0]).read_text(encoding="utf-8")


def test_uninstall_with_nothing_installed_deletes_no_file_of_its_names(tmp_path):
    home = tmp_path / "share"
    icon = home / EXPECTED[1]
    foreign(icon, (ASSETS / png_name(48)).read_bytes())  # even the very same bytes: not proven its own
    before = snapshot(home)
    done = uninstall(home)
    assert done.removed == [] and done.unproven == [icon]
    assert snapshot(home) == before


def test_a_file_changed_since_install_is_left_and_named(tmp_path):
    home = tmp_path / "share"
    home.mkdir()
    install(home, ["connect4-gui"])
    entry = home / EXPECTED[0]
    edited = entry.read_text(encoding="utf-8").replace("Name=Connect Four", "Name=My Connect Four")
    entry.write_text(edited, encoding="utf-8")
    done = uninstall(home)
    assert [str(path.relative_to(home)) for path in done.removed] == EXPECTED[1:]
    assert done.changed == [entry]
    assert snapshot(home) == {"applications": None, EXPECTED[0]: edited.encode("utf-8")}


def test_install_twice_then_uninstall_leaves_no_folder_it_made(tmp_path):
    home = tmp_path / "share"
    home.mkdir()
    (home / "icons").mkdir()  # the user's: kept
    install(home, ["/first/connect4-gui"])
    made = [name for name, data in snapshot(home).items() if data is None and name != "icons"]
    assert len(made) == 12  # 11 folders for the six files, and the game's data folder for the record
    install(home, ["/second/connect4-gui"])
    assert "Exec=/second/connect4-gui" in (home / EXPECTED[0]).read_text(encoding="utf-8")
    done = uninstall(home)
    assert len(done.removed) == 6 and not done.changed and not done.unproven
    assert snapshot(home) == {"icons": None}


def test_a_record_that_names_other_places_is_not_followed(tmp_path):
    """The record is a file in the user's folder: it can only ever name the six files and
    the folders on their way, whatever it says."""
    home = tmp_path / "share"
    home.mkdir()
    install(home, ["connect4-gui"])
    keep = tmp_path / "keep.txt"
    foreign(keep)
    (tmp_path / "empty").mkdir()
    (home / "other").mkdir()
    record = home / desktop.RECORD
    data = json.loads(record.read_text(encoding="utf-8"))
    data["files"]["../keep.txt"] = hashlib.sha256(keep.read_bytes()).hexdigest()
    data["folders"] += ["../empty", "other", "/tmp"]
    record.write_text(json.dumps(data), encoding="utf-8")
    uninstall(home)
    assert keep.exists() and (tmp_path / "empty").is_dir() and (home / "other").is_dir()


def test_a_damaged_record_proves_nothing(tmp_path):
    home = tmp_path / "share"
    home.mkdir()
    install(home, ["connect4-gui"])
    (home / desktop.RECORD).write_bytes(b"\xff{not json")
    before = snapshot(home)
    done = uninstall(home)
    assert done.removed == [] and len(done.unproven) == 6
    assert snapshot(home) == before


def test_main_py_names_the_file_in_the_way_in_one_line(tmp_path):
    share = tmp_path / "share"
    foreign(share / EXPECTED[2])
    done = run_main("install-desktop", env={"XDG_DATA_HOME": str(share)})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and str(share / EXPECTED[2]) in done.stderr
    done = run_main("uninstall-desktop", env={"XDG_DATA_HOME": str(share)})
    assert done.returncode == 0 and EXPECTED[2] in done.stdout and "no record" in done.stdout
    assert (share / EXPECTED[2]).read_bytes() == b"someone else's file\n"
    done = run_main("install-desktop", env={"XDG_DATA_HOME": str(share), "LANGUAGE": "de"})
    assert "install-desktop hat diese Datei nicht geschrieben" in done.stderr  # the system's language


@pytest.mark.parametrize("call", ["replace", "mkdir", "open", "fsync"])
@pytest.mark.parametrize("first", [True, False], ids=["first install", "over its own"])
def test_an_install_that_fails_at_any_step_leaves_everything_as_it_was(tmp_path, monkeypatch, call, first):
    """The system call ``call`` fails at its n-th use, for every n the install makes: into
    a folder holding a user's file, and a second install over the first."""
    template = tmp_path / "template"
    foreign(template / "icons" / "hicolor" / "48x48" / "apps" / "other.png")
    if not first:
        install(template, ["/first/connect4-gui"])
    real = getattr(os, call)
    used = 0

    def failing(*args, **kwargs):
        nonlocal used
        used += 1
        if used == fail_at:
            raise OSError(28, "No space left on device", str(args[0]))
        return real(*args, **kwargs)

    fail_at = 0
    counted = shutil.copytree(template, tmp_path / "counted")
    monkeypatch.setattr(os, call, failing)
    install(counted, ["/second/connect4-gui"])
    total, refused = used, 0
    for step in range(1, total + 1):
        fail_at = 0
        home = shutil.copytree(template, tmp_path / f"home-{step}")
        before = snapshot(home)
        used, fail_at = 0, step
        try:
            install(home, ["/second/connect4-gui"])
        except DesktopError as error:
            refused += 1
            assert "No space left on device" in str(error)
            assert snapshot(home) == before, f"os.{call} failing at its use {step} of {total}"
        else:  # a failure the install may pass over (a folder's sync)
            assert "Exec=/second/connect4-gui" in (home / EXPECTED[0]).read_text(encoding="utf-8")
    assert refused >= (1 if first or call != "mkdir" else 0)
