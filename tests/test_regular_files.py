"""Every file of the game's own, read and written through one helper (``game.regular_file``,
issue 47 item 3): for each of them, a symbolic link to /dev/zero, a FIFO, a device node and
a link to a device node made in a scratch folder, put in the file's place, is named and left
exactly as it was: never read to no end, waited on, copied, moved, replaced or deleted; the
game goes on with its defaults.  (Device nodes need root, which the tests have here; where
``mknod`` is refused, a link to /dev/null stands in for the node, never a skip.)"""

from __future__ import annotations

import errno
import json
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ai import book
from ai.compiled import kernel_file
from ai.search import search
from ai.tree_export import export_tree
from game import regular_file
from game.app.settings import Settings, read_settings, save_settings
from game.archive.database import FILE_NAME
from game.archive.recovery import RECOVERY_PREFIX, RECOVERY_SUFFIX
from game.archive.store import Archive
from game.board import Board
from game.board_file import BoardFileError, load_board, save_board
from game.desktop import install as desktop
from game.net.client import SEATS_FILE, SeatBook
from game.puzzle_file import PuzzleFileError, read_puzzles, write_puzzles
from game.records import GameResult
from game.rules import Rules
from game.sources import SourceError, read_source

HOSTILE = ["link to /dev/zero", "FIFO", "device node", "link to a device node"]


def device_node(path: Path, fallback: str = "/dev/null") -> None:
    """A character device like /dev/zero (1, 5) at ``path``; a link to ``fallback`` where
    the system refuses ``mknod`` (then no test can replace the real one either)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5))
    except PermissionError:
        path.symlink_to(fallback)


def make(kind: str, path: Path, scratch: Path) -> None:
    """Put ``kind`` in ``path``'s place.  The link to /dev/zero points at a copy of it in
    ``scratch`` where this process may make one (root may also replace the real one, and
    code that writes through such a link, as the settings' save did, would)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "link to /dev/zero":
        scratch.mkdir(exist_ok=True)
        zero = scratch / f"zero-{len(list(scratch.iterdir()))}"
        device_node(zero, "/dev/zero")
        path.symlink_to(zero)
    elif kind == "FIFO":
        os.mkfifo(path)
    elif kind == "device node":
        device_node(path)
    else:
        scratch.mkdir(exist_ok=True)
        node = scratch / f"node-{len(list(scratch.iterdir()))}"
        device_node(node)
        path.symlink_to(node)


def state(path: Path) -> tuple[Any, ...]:
    """What ``path`` is, to the byte: its kind, the link's text, the device, and the same of
    a link's target."""
    found = os.lstat(path)
    mine = (stat.S_IFMT(found.st_mode), found.st_ino, found.st_rdev)
    if stat.S_ISLNK(found.st_mode):
        target = Path(os.path.realpath(path))
        there = os.lstat(target)
        return (*mine, os.readlink(path), stat.S_IFMT(there.st_mode), there.st_ino, there.st_rdev)
    return mine


def within(seconds: float, action: Callable[[], Any]) -> Any:
    """``action()``, failing when it has not returned in ``seconds`` (a FIFO waited on, a
    device read to no end)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(("value", action()))
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            outcome.append(("error", error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"still running after {seconds} s: it waits on or reads what it should refuse"
    kind, value = outcome[0]
    if kind == "error":
        raise value
    return value


def said(kind: str) -> str:
    """The words that name ``kind`` (a link to a device node names the device)."""
    return {"link to /dev/zero": "device", "FIFO": "FIFO", "device node": "device", "link to a device node": "device"}[
        kind
    ]


@pytest.fixture(params=HOSTILE)
def hostile(request, tmp_path) -> Callable[[Path], Path]:
    """Put the hostile thing in ``path``'s place; after the test, it must be as it was."""
    made: list[tuple[Path, tuple[Any, ...]]] = []

    def put(path: Path) -> Path:
        make(request.param, path, tmp_path / "scratch")
        made.append((path, state(path)))
        return path

    put.kind = request.param  # type: ignore[attr-defined]
    yield put
    for path, before in made:
        assert state(path) == before, f"{path} changed"
        assert not [p for p in path.parent.iterdir() if ".corrupt-" in p.name or p.name.endswith(".part")]


def test_settings(hostile, tmp_path):
    path = hostile(tmp_path / "home" / "settings.json")
    report = within(10, lambda: read_settings(path))
    assert report.settings == Settings() and report.moved_to is None
    assert said(hostile.kind) in (report.warning or "") and "left as it is" in (report.warning or "")
    assert within(10, lambda: save_settings(Settings(rows=7), path)) is False


@pytest.mark.parametrize("name", [FILE_NAME, FILE_NAME + "-wal", FILE_NAME + "-shm"])
def test_the_archive_and_its_wal_files(hostile, tmp_path, name):
    home = tmp_path / "home"
    hostile(home / name)
    archive = within(10, lambda: Archive.open(home))
    assert archive.warning is not None and said(hostile.kind) in archive.warning and archive.set_aside is None
    archive.add_game(Rules(), [3, 3, 3], GameResult.DRAW)
    assert within(10, archive.close) == []  # kept in a recovery file beside it
    assert len(list(home.glob(RECOVERY_PREFIX + "*"))) == 1


def test_a_recovery_file(hostile, tmp_path):
    home = tmp_path / "home"
    path = hostile(home / f"{RECOVERY_PREFIX}20240101-000000-1{RECOVERY_SUFFIX}")
    archive = within(10, lambda: Archive.open(home))
    assert archive.writable and archive.games() == []
    archive.close()
    assert os.path.lexists(path)


def test_the_network_seats(hostile, tmp_path):
    hostile(tmp_path / SEATS_FILE)
    seats = SeatBook(tmp_path)
    assert within(10, lambda: seats.token("0123456789abcdef")) == ""
    within(10, lambda: seats.keep("0123456789abcdef", "t" * 32))


def test_a_puzzle_file(hostile, tmp_path):
    path = hostile(tmp_path / "puzzles.txt")
    with pytest.raises(PuzzleFileError, match=said(hostile.kind)):
        within(10, lambda: read_puzzles(path))
    with pytest.raises(regular_file.NotRegularFile):
        within(10, lambda: write_puzzles(path, []))


KEY = "k" * 64
FAKE = kernel_file.KernelCode("entry", bytes(range(256)), ())


def test_a_compiled_code_file(hostile, tmp_path):
    path = hostile(tmp_path / "solver.kernel")
    with pytest.raises(kernel_file.KernelFileError):
        within(10, lambda: kernel_file.read(path, KEY))
    with pytest.raises(regular_file.NotRegularFile):
        within(10, lambda: kernel_file.write(path, KEY, FAKE, proven=True))


def test_the_compiled_codes_secret(hostile, tmp_path):
    hostile(tmp_path / kernel_file.SECRET_FILE)
    with pytest.raises(kernel_file.KernelFileError, match="secret"):
        within(10, lambda: kernel_file.write(tmp_path / "solver.kernel", KEY, FAKE, proven=True))


@pytest.mark.parametrize("ending", [".json", ".dot"])
def test_an_exported_tree(hostile, tmp_path, ending):
    board = Board.from_moves("4453")
    tree = search(board.grid, board.rules, 2, record_tree=True, to_move=board.to_move).tree
    assert tree is not None
    path = hostile(tmp_path / f"tree{ending}")
    with pytest.raises(regular_file.NotRegularFile):
        within(10, lambda: export_tree(tree, path))


def test_the_desktop_record_and_files(hostile, tmp_path):
    home = tmp_path / "share"
    hostile(home / desktop.RECORD)
    with pytest.raises(desktop.DesktopError, match=said(hostile.kind)):
        within(10, lambda: desktop.install(home, ["connect4-gui"]))
    target = home / "applications" / desktop.DESKTOP_FILE
    hostile(target)
    with pytest.raises(desktop.DesktopError, match="did not write"):
        within(10, lambda: desktop.install(home, ["connect4-gui"]))
    assert within(10, lambda: desktop.uninstall(home)).removed == []


def test_the_books_checks_file(hostile, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    hostile(book.cache_folder() / book.CHECKS_FILE)
    assert within(10, book._read_verdicts) == {}
    within(10, lambda: book._store_verdict("some book", "ok"))


def test_a_file_a_command_reads(hostile, tmp_path):
    path = hostile(tmp_path / "game.c4")
    with pytest.raises(SourceError, match="not a regular file"):
        within(10, lambda: read_source(str(path)))


def test_a_board_file(hostile, tmp_path):
    path = hostile(tmp_path / "board.txt")
    with pytest.raises(BoardFileError, match=said(hostile.kind)):
        within(10, lambda: load_board(path, Rules()))
    with pytest.raises(BoardFileError, match=said(hostile.kind)):
        within(10, lambda: save_board(path, Board.from_moves("44")))


# -- the helper's own rules ---------------------------------------------------------------------


def test_a_link_to_a_regular_file_is_read_and_written_through_and_stays_a_link(tmp_path):
    kept = tmp_path / "dotfiles" / "settings.json"
    kept.parent.mkdir()
    kept.write_bytes(b"old")
    link = tmp_path / "settings.json"
    link.symlink_to(kept)
    assert regular_file.read_regular(link, 10) == b"old"
    assert regular_file.write_atomically(link, b"new") == kept
    assert link.is_symlink() and kept.read_bytes() == b"new"


def test_a_file_over_the_cap_is_refused_unread(tmp_path):
    path = tmp_path / "big"
    with open(path, "wb") as file:
        file.truncate(1 << 30)  # sparse: a gigabyte costs nothing here
    with pytest.raises(regular_file.TooLarge) as refused:
        regular_file.read_regular(path, 1 << 20)
    assert refused.value.errno == errno.EFBIG and "1,073,741,824 bytes" in refused.value.strerror


def test_set_aside_moves_a_regular_file_copies_behind_a_link_and_leaves_the_rest(tmp_path):
    damaged = tmp_path / "settings.json"
    damaged.write_bytes(b"damaged")
    moved = regular_file.set_aside(damaged)
    assert not damaged.exists() and moved.read_bytes() == b"damaged" and ".corrupt-" in moved.name
    kept = tmp_path / "elsewhere.json"
    kept.write_bytes(b"linked")
    damaged.symlink_to(kept)
    copy = regular_file.set_aside(damaged)
    assert damaged.is_symlink() and kept.read_bytes() == b"linked" and copy.read_bytes() == b"linked"
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(regular_file.NotRegularFile, match="a folder"):
        regular_file.set_aside(folder)


def test_remove_own_removes_only_a_regular_file(tmp_path):
    mine = tmp_path / "mine"
    mine.write_bytes(b"")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "target")
    (tmp_path / "target").write_bytes(b"keep")
    assert regular_file.remove_own(mine) and not mine.exists()
    assert not regular_file.remove_own(link) and link.is_symlink() and (tmp_path / "target").exists()


def test_create_new_never_replaces_anything(tmp_path):
    path = tmp_path / "secret"
    regular_file.create_new(path, b"one", mode=0o600)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(FileExistsError):
        regular_file.create_new(path, b"two")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        regular_file.create_new(dangling, b"two")
    assert path.read_bytes() == b"one" and not (tmp_path / "nowhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "secret"]


def test_no_module_opens_the_games_files_but_through_the_helper():
    """The checks that were copied about (``S_ISREG``, ``O_NONBLOCK``) live in one place now."""
    root = Path(__file__).resolve().parent.parent
    found = [
        str(path.relative_to(root))
        for folder in ("game", "ai", "lab")
        for path in (root / folder).rglob("*.py")
        if path.name != "regular_file.py" and ("S_ISREG" in (text := path.read_text()) or "O_NONBLOCK" in text)
    ]
    assert found == []


def test_json_of_the_export_streams_the_same_data(tmp_path):
    board = Board.from_moves("4453")
    tree = search(board.grid, board.rules, 3, record_tree=True, to_move=board.to_move).tree
    assert tree is not None
    path = export_tree(tree, tmp_path / "tree.json")
    from ai.tree_export import tree_to_dict

    assert json.loads(path.read_text()) == tree_to_dict(tree)
