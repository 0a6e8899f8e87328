"""A place in the desktop: install-desktop writes a valid entry, icons and metainfo,
uninstall-desktop takes exactly those away, the icon files are the icon the window draws,
and ``--version`` answers from main.py (even before set-up) and the launcher.

The validators are the freedesktop ones (Debian packages desktop-file-utils and
appstream; ``.ci/run`` installs them).
"""

from __future__ import annotations

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
    removed = uninstall(home)
    assert [str(path.relative_to(home)) for path in removed] == EXPECTED
    assert snapshot(home) == before
    assert uninstall(home) == []  # a second time: nothing to remove, no error


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
    assert desktop_entry(template, ["r"], ["icons", "icons/hicolor"]).endswith(
        "X-Connect4-Made-Folders=icons;icons/hicolor;\n"
    )


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
