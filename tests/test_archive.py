"""The game archive: stored games survive kills, full disks, read-only folders, corrupt files."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game.archive.database import FILE_NAME, MIGRATIONS, SCHEMA_VERSION
from game.archive.recovery import read_recovery_file, recovery_files
from game.archive.store import Archive
from game.archive.windows import row_slot
from game.board import Board
from game.records import HUMAN, DamagedGame, GameResult, Unfinished, rules_to_text
from game.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def add(archive: Archive, moves: str, result: GameResult, *, second: str = "Medium", at: float = 0.0, **extra):
    rules = extra.pop("rules", Rules())
    board = Board.from_moves(moves, rules)
    return archive.add_game(rules, board.moves, result, first=HUMAN, second=second, played_at=at or None, **extra)


def write_old_archive(folder: Path, version: int, *extra: str) -> None:
    """Write an archive of schema ``version`` (its migrations, then the ``extra``
    statements) holding one game, 4455667, as that version stored it."""
    connection = sqlite3.connect(folder / FILE_NAME)
    for step in MIGRATIONS[:version]:
        for statement in step:
            connection.execute(statement)
    for statement in extra:
        connection.execute(statement)
    connection.execute(f"PRAGMA user_version = {version}")
    connection.execute(
        "INSERT INTO games (played_at, rules, first, second, moves, result) VALUES (1.0, ?, 'human', 'Easy', '4455667', '1')",
        ('{"rows": 6, "cols": 7, "connect": 4, "gravity": true, "mode": "classic"}',),
    )
    connection.commit()
    connection.close()


def test_games_round_trip_newest_first_with_filters_and_stats(tmp_path):
    archive = Archive.open(tmp_path)
    assert archive.warning is None
    first = add(archive, "4455667", GameResult.FIRST, at=100.0, second_depth=6)
    add(archive, "1122334", GameResult.FIRST, second="Hard", at=200.0)
    add(archive, "444444333333", GameResult.DRAW, second="Medium", at=300.0)  # a cut-off record is fine
    seven = Rules(rows=7, cols=8)
    add(archive, "12", GameResult.SECOND, second="Medium", at=400.0, rules=seven)
    games = archive.games()
    assert [g.played_at for g in games] == [400.0, 300.0, 200.0, 100.0]
    assert games[0].rules == seven and games[0].moves_string == "12"
    assert [g.played_at for g in archive.games(level="Medium")] == [400.0, 300.0, 100.0]
    assert [g.played_at for g in archive.games(result="win")] == [200.0, 100.0]
    assert [g.played_at for g in archive.games(result="loss")] == [400.0]
    assert archive.stats() == {"Medium": {"win": 1, "draw": 1, "loss": 1}, "Hard": {"win": 1, "draw": 0, "loss": 0}}
    assert archive.history("Medium") == ["win", "draw", "loss"]
    record = archive.game(first)
    assert record is not None and record.moves_string == "4455667" and record.second_depth == 6
    assert archive.set_review(first, {"accuracy": {"1": 1.0}})
    assert archive.game(first).review == {"accuracy": {"1": 1.0}}
    text = archive.export_text()
    assert text.index("1. 4 4 2. 5 5") < text.index("1. 1 1 2. 2 2") and '[Result "1/2-1/2"]' in text
    archive.close()
    again = Archive.open(tmp_path)
    assert len(again.games()) == 4
    assert again.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert again.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_the_game_in_progress_is_kept_until_the_game_ends(tmp_path):
    archive = Archive.open(tmp_path)
    assert archive.in_progress() is None
    archive.save_in_progress(Rules(), [3, 3, 4], first=HUMAN, second="Easy", settings={"opponent": "computer"})
    archive.connection.close()  # a crash: nothing else said
    again = Archive.open(tmp_path)
    kept = again.in_progress()
    assert kept is not None and kept.moves == (3, 3, 4) and kept.second == "Easy"
    assert kept.settings == {"opponent": "computer"}
    assert again.take_in_progress(kept)  # resumed in this window
    add(again, "4455667", GameResult.FIRST, kind=Unfinished.COMPUTER)  # and played to the end
    assert again.in_progress() is None


def test_each_kind_of_unfinished_game_is_kept_apart(tmp_path):
    """Issue 52: a network game left unfinished replaced the unfinished game against
    Perfect.  A window keeps one of each kind; finishing one forgets that one only."""
    archive = Archive.open(tmp_path)
    archive.save_in_progress(Rules(), [3, 3, 4], first=HUMAN, second="Perfect", settings={"opponent": "computer"})
    archive.save_in_progress(
        Rules(), [3, 2], first="Alice", second="Bob", settings={"network": True}, kind=Unfinished.NETWORK
    )
    archive.save_in_progress(Rules(), [0], first=HUMAN, second=HUMAN, kind=Unfinished.TWO_PLAYERS)
    kinds = {kept.kind: kept.moves for kept in archive.unfinished_games()}
    assert kinds == {Unfinished.COMPUTER: (3, 3, 4), Unfinished.NETWORK: (3, 2), Unfinished.TWO_PLAYERS: (0,)}
    add(archive, "4455667", GameResult.FIRST, kind=Unfinished.NETWORK)  # the network game ended
    assert {kept.kind for kept in archive.unfinished_games()} == {Unfinished.COMPUTER, Unfinished.TWO_PLAYERS}
    archive.connection.close()  # a crash: the next window is offered both, and takes each over apart
    again = Archive.open(tmp_path)
    left = again.unfinished_games()
    assert [kept.kind for kept in left] == [Unfinished.TWO_PLAYERS, Unfinished.COMPUTER]  # newest first
    for kept in left:
        assert again.take_in_progress(kept)
    assert {(kept.kind, kept.moves) for kept in again.unfinished_games()} == {
        (Unfinished.COMPUTER, (3, 3, 4)),
        (Unfinished.TWO_PLAYERS, (0,)),
    }
    assert all(kept.slot.startswith(again.slot) for kept in again.unfinished_games())


def test_an_unfinished_game_kept_before_kinds_were_apart_is_still_offered(tmp_path):
    """A row of the version before (the window's slot alone) is read, its kind from its
    settings, and taken over into its kind's row."""
    archive = Archive.open(tmp_path)
    archive.connection.execute(
        "INSERT INTO in_progress (slot, owner, saved_at, rules, first, second, moves, settings)"
        " VALUES ('0123abcd', NULL, 5.0, ?, 'Alice', 'Bob', '43', ?)",
        (rules_to_text(Rules()), json.dumps({"opponent": "human", "network": True})),
    )
    (kept,) = archive.unfinished_games()
    assert kept.kind is Unfinished.NETWORK and kept.moves == (3, 2)
    assert archive.take_in_progress(kept)
    (mine,) = archive.unfinished_games()
    assert mine.kind is Unfinished.NETWORK and mine.slot == f"{archive.slot}/network"


def test_an_old_schema_is_migrated_and_keeps_its_games(tmp_path):
    write_old_archive(tmp_path, 1)
    archive = Archive.open(tmp_path)
    assert archive.warning is None
    assert [g.moves_string for g in archive.games()] == ["4455667"]
    assert archive.games()[0].first_depth is None
    assert archive.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_corrupt_file_is_kept_aside_and_a_fresh_archive_started(tmp_path):
    junk = b"this is not a database at all" * 200
    (tmp_path / FILE_NAME).write_bytes(junk)
    archive = Archive.open(tmp_path)
    assert archive.warning and "kept as" in archive.warning
    assert archive.set_aside is not None and archive.set_aside.read_bytes() == junk
    add(archive, "4455667", GameResult.FIRST)
    assert len(Archive.open(tmp_path).games()) == 1


def test_a_damaged_database_page_is_kept_aside(tmp_path):
    archive = Archive.open(tmp_path)
    for i in range(40):
        add(archive, "4455667", GameResult.FIRST, review={"pad": "x" * 500}, at=float(i + 1))
    archive.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    archive.connection.close()
    path = tmp_path / FILE_NAME
    data = bytearray(path.read_bytes())
    data[4096 * 2 : 4096 * 4] = b"\xff" * 8192  # two pages of garbage in the middle
    path.write_bytes(bytes(data))
    again = Archive.open(tmp_path)
    assert again.warning and "kept as" in again.warning
    assert again.games() == []


def test_a_directory_in_the_way_is_left_as_it_is_and_the_games_kept_beside_it(tmp_path):
    """Issue 47: only a regular file is ever moved aside; a folder of the archive's name is
    named and left, and the session's games go to a recovery file beside it."""
    (tmp_path / FILE_NAME).mkdir()
    (tmp_path / FILE_NAME / "inside.txt").write_text("keep me")
    archive = Archive.open(tmp_path)
    assert archive.warning and "is a folder" in archive.warning and archive.set_aside is None
    add(archive, "4455667", GameResult.FIRST)
    assert archive.close() == []  # kept in a recovery file, not lost
    assert (tmp_path / FILE_NAME / "inside.txt").read_text() == "keep me"
    assert [record.moves_string for record in read_recovery_file(recovery_files(tmp_path)[0])[0]] == ["4455667"]


def test_no_folder_at_all_keeps_the_session_games_in_memory(tmp_path):
    (tmp_path / "home").write_text("a file where the folder should be")
    archive = Archive.open(tmp_path / "home")
    assert archive.warning and "not kept" in archive.warning
    add(archive, "4455667", GameResult.FIRST)
    assert len(archive.games()) == 1


def test_a_full_disk_keeps_the_game_and_writes_it_later(tmp_path):
    archive = Archive.open(tmp_path)
    add(archive, "4455667", GameResult.FIRST, at=1.0)
    pages = archive.connection.execute("PRAGMA page_count").fetchone()[0]
    archive.connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk full"
    game = add(archive, "1122334", GameResult.FIRST, review={"pad": "y" * 16000}, at=2.0)
    assert game is None and len(archive.pending) == 1
    assert archive.warning and "full" in archive.warning
    assert [g.played_at for g in archive.games()] == [2.0, 1.0]  # still listed
    archive.connection.execute("PRAGMA max_page_count = 1000000")  # space again
    add(archive, "7766554", GameResult.FIRST, at=3.0)
    assert archive.pending == []
    stored = Archive.open(tmp_path).games()
    assert [g.played_at for g in stored] == [3.0, 2.0, 1.0]


def test_two_windows_at_once(tmp_path):
    one, two = Archive.open(tmp_path), Archive.open(tmp_path)
    for i in range(5):
        add(one, "4455667", GameResult.FIRST, at=float(2 * i + 1))
        add(two, "1122334", GameResult.FIRST, at=float(2 * i + 2))
    assert len(one.games()) == len(two.games()) == 10
    # One window holds a write transaction: the other's game waits, then goes in.
    two.connection.execute("PRAGMA busy_timeout = 50")
    one.connection.execute("BEGIN IMMEDIATE")
    assert add(two, "7766554", GameResult.FIRST, at=50.0) is None
    assert two.pending
    one.connection.execute("COMMIT")
    assert two.flush()
    assert len(one.games()) == 11


KILL_SCRIPT = textwrap.dedent(
    """
    import sys
    from game.archive.store import Archive, GameResult, HUMAN
    from game.rules import Rules
    archive = Archive.open(sys.argv[1])
    i = 0
    while True:
        i += 1
        archive.add_game(Rules(), [3, 3, 4, 4, 5, 5, 6], GameResult.FIRST, first=HUMAN, second="Easy",
                         review={"n": i, "pad": "z" * 3000}, played_at=float(i))
        print(i, flush=True)
    """
)


def test_killing_the_program_mid_write_loses_no_finished_game(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-c", KILL_SCRIPT, str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    done = 0
    for line in process.stdout:
        done = int(line)
        if done >= 30:
            break
    process.send_signal(signal.SIGKILL)
    process.wait()
    archive = Archive.open(tmp_path)
    assert archive.warning is None
    assert archive.connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = {g.review["n"] for g in archive.games()}
    assert set(range(1, done + 1)) <= stored


READ_ONLY_SCRIPT = textwrap.dedent(
    """
    import sys
    from game.archive.store import Archive, GameResult, HUMAN
    from game.rules import Rules
    archive = Archive.open(sys.argv[1])
    print(archive.warning)
    archive.add_game(Rules(), [0, 1, 0, 1, 0, 1, 0], GameResult.FIRST, first=HUMAN, second="Easy")
    print(len(archive.games()))
    """
)


def test_a_read_only_folder_shows_old_games_and_never_touches_them(tmp_path):
    folder = tmp_path / "home"
    archive = Archive.open(folder)
    add(archive, "4455667", GameResult.FIRST)
    archive.close()
    before = (folder / FILE_NAME).read_bytes()
    command = [sys.executable, "-c", READ_ONLY_SCRIPT, str(folder)]
    if os.geteuid() == 0:  # root writes through permissions: a read-only mount of the folder
        mount = f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} {folder}"
        command = ["unshare", "-m", "sh", "-c", f'{mount} && exec "$@"', "sh", *command]
    else:
        os.chmod(folder, 0o555)
    try:
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False
        )
    finally:
        os.chmod(folder, 0o755)
    assert done.returncode == 0, done.stderr
    warning, count = done.stdout.strip().splitlines()
    assert "read-only" in warning
    assert count == "2"  # the old game and this session's
    assert (folder / FILE_NAME).read_bytes() == before


@pytest.mark.parametrize("result", list(GameResult))
def test_results_read_back(tmp_path, result):
    archive = Archive.in_memory()
    add(archive, "4455667", result)
    assert archive.games()[0].result is result


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_a_database_locked_at_start_takes_the_games_once_it_is_free(tmp_path):
    path = tmp_path / FILE_NAME
    other = sqlite3.connect(path, isolation_level=None)  # another program, no WAL yet
    other.execute("CREATE TABLE mine (x)")
    other.execute("BEGIN EXCLUSIVE")
    archive = Archive.open(tmp_path)
    assert archive.warning and "locked" in archive.warning
    assert archive.set_aside is None and path.exists()  # nothing moved: the file is in use
    add(archive, "4455667", GameResult.FIRST, at=1.0)
    assert [g.played_at for g in archive.games()] == [1.0]
    other.execute("COMMIT")
    other.close()
    add(archive, "1122334", GameResult.FIRST, at=2.0)
    assert [g.played_at for g in Archive.open(tmp_path).games()] == [2.0, 1.0]


# -- versions (issue 32) ------------------------------------------------------------------


def make_newer_archive(folder: Path, *, readable: bool = True) -> bytes:
    """An archive as a newer version of the game would leave it (a schema this one does
    not know): two games, then what the newer version changed.  Returns its bytes."""
    archive = Archive.open(folder)
    add(archive, "4455667", GameResult.FIRST, at=100.0)
    add(archive, "1122334", GameResult.SECOND, at=200.0)
    archive.close()
    connection = sqlite3.connect(folder / FILE_NAME)
    connection.execute("ALTER TABLE games ADD COLUMN opening TEXT")
    connection.execute("CREATE TABLE tags (game INTEGER, tag TEXT)")
    if not readable:
        connection.execute("ALTER TABLE games RENAME COLUMN moves TO plies")
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.commit()
    connection.close()  # the last connection: the WAL goes into the file
    assert sorted(p.name for p in folder.iterdir()) == [FILE_NAME]
    return (folder / FILE_NAME).read_bytes()


def run_games_command(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "games", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def test_games_json_lists_a_newer_archive_and_leaves_it_byte_for_byte_unchanged(tmp_path):
    """Issue 32: a newer version's archive was renamed .corrupt-<time> and a fresh one
    started, hiding every stored game from the older version."""
    folder = tmp_path / "home"
    before = make_newer_archive(folder)
    done = run_games_command("--json", "--home", str(folder))
    assert done.returncode == 0, done.stderr
    assert [g["moves"] for g in json.loads(done.stdout)["games"]] == ["1122334", "4455667"]
    assert done.stderr.count("\n") == 1 and "newer version" in done.stderr, done.stderr
    assert (folder / FILE_NAME).read_bytes() == before
    assert not [p.name for p in folder.iterdir() if "corrupt" in p.name]


def test_a_newer_archive_it_cannot_read_is_refused_in_one_line_and_left_alone(tmp_path):
    folder = tmp_path / "home"
    before = make_newer_archive(folder, readable=False)
    done = run_games_command("--json", "--home", str(folder))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "newer version" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert (folder / FILE_NAME).read_bytes() == before


def test_the_window_shows_a_newer_archive_and_keeps_its_new_games_beside_it(tmp_path):
    folder = tmp_path / "home"
    before = make_newer_archive(folder)
    archive = Archive.open(folder)
    assert archive.warning and "newer version" in archive.warning and archive.set_aside is None
    assert [g.moves_string for g in archive.games()] == ["1122334", "4455667"]
    assert add(archive, "7766554", GameResult.FIRST, at=300.0) is None  # not written into it
    assert [g.moves_string for g in archive.games()] == ["7766554", "1122334", "4455667"]
    assert archive.close() == []  # nothing lost: it went to the recovery file
    assert (folder / FILE_NAME).read_bytes() == before
    recovered = list(folder.glob("*recovery*"))
    assert len(recovered) == 1 and "7766554" in recovered[0].read_text()


def test_an_older_archive_is_backed_up_then_migrated(tmp_path):
    write_old_archive(tmp_path, 1)
    archive = Archive.open(tmp_path)
    assert archive.warning is None and [g.moves_string for g in archive.games()] == ["4455667"]
    backups = [p for p in tmp_path.iterdir() if "backup" in p.name]
    assert len(backups) == 1
    copy = sqlite3.connect(backups[0])
    assert copy.execute("PRAGMA user_version").fetchone()[0] == 1
    assert copy.execute("SELECT moves FROM games").fetchall() == [("4455667",)]
    copy.close()
    archive.close()
    Archive.open(tmp_path).close()
    assert len([p for p in tmp_path.iterdir() if "backup" in p.name]) == 1  # made once


def test_a_migration_that_fails_leaves_the_old_archive_as_it_was_and_shows_its_games(tmp_path):
    write_old_archive(tmp_path, 2, "CREATE TABLE in_progress (x)")  # a table in the way of step 3
    archive = Archive.open(tmp_path)
    assert archive.warning and "cannot be upgraded" in archive.warning and archive.set_aside is None
    assert [g.moves_string for g in archive.games()] == ["4455667"]
    archive.close()
    check = sqlite3.connect(tmp_path / FILE_NAME)
    assert check.execute("PRAGMA user_version").fetchone()[0] == 2
    assert check.execute("SELECT moves FROM games").fetchall() == [("4455667",)]


# -- damage (issue 32) ----------------------------------------------------------------------

GOOD_ROW = {
    "played_at": 1000.0,
    "rules": '{"rows": 6, "cols": 7, "connect": 4, "gravity": true, "mode": "classic"}',
    "first": "human",
    "second": "Easy",
    "moves": "4455667",
    "result": "1",
    "first_depth": None,
    "second_depth": 2,
    "review": None,
}
BAD_ROWS = {
    "a date past year 9999": {"played_at": 1e20},
    "a date before 1970": {"played_at": -1e18},
    "a date in words": {"played_at": "yesterday"},
    "rules that are not JSON": {"rules": "six by seven"},
    "rules off every board": {"rules": '{"rows": 99, "cols": 7, "connect": 4, "gravity": true, "mode": "classic"}'},
    "rules as a list": {"rules": "[6, 7, 4]"},
    "rules with a text size": {"rules": '{"rows": "6", "cols": 7, "connect": 4, "gravity": true, "mode": "classic"}'},
    "a huge name": {"first": "x" * 100_000},
    "a name with a line break": {"second": "Easy\nHard"},
    "an overfull column": {"moves": "4444444"},
    "a move after the win": {"moves": "44556677"},
    "moves that are no notation": {"moves": "zz"},
    "a megabyte of moves": {"moves": "4" * 1_000_000},
    "moves as bytes": {"moves": b"\x00\xff"},
    "an unknown result": {"result": "maybe"},
    "a huge depth": {"second_depth": 10**9},
    "a negative depth": {"first_depth": -3},
    "a depth in words": {"first_depth": "deep"},
}
"""Rows as a damaged file, another tool or a bad migration could leave them."""


def damaged_archive(folder: Path) -> dict[str, int]:
    """An archive with two good games and one row of each kind in ``BAD_ROWS``; returns
    the id of each bad row by its kind."""
    Archive.open(folder).close()
    connection = sqlite3.connect(folder / FILE_NAME)
    columns = ", ".join(GOOD_ROW)
    marks = ", ".join("?" * len(GOOD_ROW))
    connection.execute(f"INSERT INTO games ({columns}) VALUES ({marks})", tuple(GOOD_ROW.values()))
    ids = {}
    for kind, change in BAD_ROWS.items():
        row = {**GOOD_ROW, **change}
        ids[kind] = connection.execute(f"INSERT INTO games ({columns}) VALUES ({marks})", tuple(row.values())).lastrowid
    later = {**GOOD_ROW, "played_at": 2000.0, "moves": "1122334", "review": '{"accuracy": [1, 2]}'}
    connection.execute(f"INSERT INTO games ({columns}) VALUES ({marks})", tuple(later.values()))
    connection.commit()
    connection.close()
    return ids


def test_every_damaged_row_is_skipped_and_counted_and_the_good_games_read(tmp_path):
    """Issue 32: one row with an out-of-range date crashed every screen that lists games."""
    ids = damaged_archive(tmp_path)
    archive = Archive.open(tmp_path)
    games = archive.games()
    assert [g.moves_string for g in games] == ["1122334", "4455667"]
    assert games[0].review is None  # a summary that cannot be read is dropped, the game kept
    assert archive.unreadable == len(BAD_ROWS)
    assert archive.unreadable_note() == f"{len(BAD_ROWS)} stored games could not be read"
    assert [g.date_text for g in games] and [g.to_json()["date"] for g in games]
    assert archive.stats() == {"Easy": {"win": 2, "draw": 0, "loss": 0}} and archive.levels() == ["Easy"]
    assert archive.export_text().count("[Id ") == 2
    for game_id in ids.values():
        with pytest.raises(DamagedGame, match=f"game {game_id} in the archive cannot be read: "):
            archive.game(game_id)


def test_the_games_command_counts_damaged_rows_in_the_list_the_json_and_the_export(tmp_path, capsys):
    from game.cli.main import main

    damaged_archive(tmp_path)
    assert main(["games", "--home", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "4455667" in captured.out and f"{len(BAD_ROWS)} stored games could not be read" in captured.out
    assert captured.err == ""  # said once, in the listing; no log lines besides
    assert main(["games", "--json", "--home", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert captured.err == ""
    assert len(data["games"]) == 2 and data["unreadable"] == len(BAD_ROWS)
    export = tmp_path / "out.pgn"
    assert main(["games", "--export", str(export), "--home", str(tmp_path)]) == 1  # games left out: no success
    assert f"2 games written to {export}; {len(BAD_ROWS)} stored games could not be read" in capsys.readouterr().out
    assert export.read_text().count("[Id ") == 2


@pytest.mark.parametrize("kind", ["a date past year 9999", "rules as a list", "a move after the win", "a huge depth"])
def test_reviewing_a_damaged_game_is_one_line(tmp_path, capsys, kind):
    """Issue 32: ``review id:N`` on damaged rows gave five kinds of traceback; a huge
    stored depth made the review run for ever."""
    from game.cli.main import main

    game_id = damaged_archive(tmp_path)[kind]
    assert main(["review", f"id:{game_id}", "--home", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"game {game_id} in the archive cannot be read" in err


def test_stored_names_depths_and_reviews_are_bounded_when_written(tmp_path):
    archive = Archive.open(tmp_path)
    rules = Rules()
    with pytest.raises(ValueError, match="depth"):
        archive.add_game(rules, [3, 3, 4], GameResult.DRAW, second="Easy", second_depth=10**9)
    with pytest.raises(ValueError, match="name"):
        archive.add_game(rules, [3, 3, 4], GameResult.DRAW, second="x" * 1000)
    assert archive.games() == [] and archive.pending == []


# -- faults (issue 32) --------------------------------------------------------------------


def test_the_warning_counts_every_game_that_waits(tmp_path):
    """Issue 32: the warning kept saying "1 game" while 5 waited."""
    archive = Archive.open(tmp_path)
    pages = archive.connection.execute("PRAGMA page_count").fetchone()[0]
    archive.connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk full"
    for i in range(5):
        assert add(archive, "1122334", GameResult.FIRST, review={"pad": "y" * 16000}, at=float(i + 1)) is None
    assert "5 finished games kept in memory" in archive.warning


def test_games_a_full_disk_refuses_go_to_a_recovery_file_the_next_start_takes_in(tmp_path):
    """Issue 32: games kept in memory when the file could not be written were dropped at
    close with no message."""
    archive = Archive.open(tmp_path)
    add(archive, "4455667", GameResult.FIRST, at=1.0)
    pages = archive.connection.execute("PRAGMA page_count").fetchone()[0]
    archive.connection.execute(f"PRAGMA max_page_count = {pages}")
    for i in range(3):
        add(archive, "1122334", GameResult.FIRST, review={"pad": "y" * 16000}, at=float(i + 2))
    assert len(archive.pending) == 3
    assert archive.close() == []  # none kept nowhere
    assert len(archive.recovery_files()) == 1
    again = Archive.open(tmp_path)
    assert [g.played_at for g in again.games()] == [4.0, 3.0, 2.0, 1.0]
    assert again.recovery_files() == [] and again.warning is None
    again.close()
    assert len(Archive.open(tmp_path).games()) == 4  # taken in once


NAMED_AT_CLOSE = """
import resource, sys
from game.app.archive_link import store_finished
from game.app.scenes.play import PlayScene
from ai.levels import Level
from game.rules import Rules
app = start_app()
app.archive  # the archive is open; then the disk is full for this process
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
play = PlayScene(Rules(), Level(2), "human")
app.stack.push(play)
app.step([], 0.016)
for move in [0, 1, 0, 1, 0, 1, 0]:
    play.match.play(move)
print("stored as", store_finished(play), flush=True)
app.close()
"""


def test_games_no_file_would_take_are_named_when_the_window_closes(tmp_path, window_script):
    """A disk so full that not even the recovery file can be written: the window names
    the games it could not keep as it closes (stderr), in one line each."""
    done = subprocess.run(
        [sys.executable, "-c", window_script(NAMED_AT_CLOSE), str(tmp_path / "home")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "stored as None" in done.stdout
    assert "Traceback" not in done.stderr
    named = [line for line in done.stderr.splitlines() if "could not be kept" in line]
    assert len(named) == 1 and "1212121" in named[0] and "player 1 won" in named[0], done.stderr


WINDOW_IN_PROGRESS = """
import sys, time
from game.archive.store import Archive, HUMAN
from game.rules import Rules
archive = Archive.open(sys.argv[1])
archive.save_in_progress(Rules(), [int(c) - 1 for c in sys.argv[2]], first=HUMAN, second="Easy")
print("saved", flush=True)
time.sleep(120)
"""


def test_each_window_keeps_its_own_game_in_progress_and_both_can_be_resumed(tmp_path):
    """Issue 32: two windows shared the one "game in progress" slot, so after a crash at
    most one of their games could be resumed (and a live window's game was offered to
    another)."""
    Archive.open(tmp_path).close()
    windows = [
        subprocess.Popen(
            [sys.executable, "-c", WINDOW_IN_PROGRESS, str(tmp_path), moves],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for moves in ("444", "1234")
    ]
    try:
        for window in windows:
            assert window.stdout is not None and window.stdout.readline().strip() == "saved"
        assert Archive.open(tmp_path).in_progress() is None  # both windows still play them
    finally:
        for window in windows:
            window.send_signal(signal.SIGKILL)
            window.wait()
    archive = Archive.open(tmp_path)
    first = archive.in_progress()
    assert first is not None and first.moves in ((3, 3, 3), (0, 1, 2, 3))
    assert archive.take_in_progress(first)  # resumed here: its row is this window's now
    mine = archive.in_progress()
    assert mine is not None and mine.moves == first.moves and mine.slot == row_slot(archive.slot, first.kind)
    archive.add_game(first.rules, first.moves, GameResult.DRAW, first=HUMAN, second="Easy", kind=first.kind)
    second = archive.in_progress()  # the game finished: the other crashed window's game is next
    assert second is not None and {first.moves, second.moves} == {(3, 3, 3), (0, 1, 2, 3)}
    third = Archive.open(tmp_path).in_progress()  # and a third window sees it too
    assert third is not None and third.moves == second.moves


def test_exporting_to_a_pipe_nobody_reads_says_so_at_once(tmp_path):
    """Issue 32: ``games --export`` to a FIFO with no reader blocked for ever."""
    folder = tmp_path / "home"
    add(Archive.open(folder), "4455667", GameResult.FIRST)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    done = run_games_command("--export", str(pipe), "--home", str(folder), timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "no program is reading" in done.stderr, done.stderr
    assert pipe.exists() and not pipe.is_file()  # the pipe is left as it was


@pytest.mark.parametrize("column", ["first", "second", "rules", "moves", "result", "review"])
def test_a_row_whose_text_is_not_utf8_is_skipped_and_the_other_games_read(tmp_path, capsys, column):
    """Issue 38: one row with bytes that are not UTF-8 in a text column (a bit flip; the
    integrity check says ok) made the whole listing fail: no games, an empty export."""
    archive = Archive.open(tmp_path)
    for moves in ("4455667", "1122334", "4453"):
        add(archive, moves, GameResult.FIRST if moves != "4453" else GameResult.DRAW, second="Easy")
    archive.close()
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    columns = ("played_at", "rules", "first", "second", "moves", "result", "first_depth", "second_depth", "review")
    chosen = ", ".join("CAST(X'45FF61' AS TEXT)" if name == column else name for name in columns)
    connection.execute(f"INSERT INTO games ({', '.join(columns)}) SELECT {chosen} FROM games WHERE id = 1")
    connection.commit()
    connection.close()

    archive = Archive.open(tmp_path)
    games = archive.games()
    if column == "review":  # a summary that cannot be read is dropped, the game kept
        assert len(games) == 4 and archive.unreadable == 0
    else:
        assert sorted(g.moves_string for g in games) == ["1122334", "4453", "4455667"]
        assert archive.unreadable == 1 and archive.unreadable_note() == "1 stored game could not be read"
    assert archive.export_text().count("[Id ") == len(games)
    archive.close()

    from game.cli.main import main

    export = tmp_path / "backup.c4"
    left_out = 0 if column == "review" else 1
    assert main(["games", "--export", str(export), "--home", str(tmp_path)]) == left_out
    assert export.read_text(encoding="utf-8").count("[Id ") == len(games)
    assert f"{len(games)} games written to {export}" in capsys.readouterr().out


@pytest.mark.parametrize("column", ["rules", "review"])
def test_a_row_of_json_nested_thousands_deep_is_skipped_not_raised(tmp_path, column):
    """Issue 38: a review or rules text nested 5,000 deep raised RecursionError out of every
    listing, export and the window's Past games."""
    archive = Archive.open(tmp_path)
    add(archive, "4455667", GameResult.FIRST, second="Easy")
    add(archive, "1122334", GameResult.FIRST, second="Easy")
    archive.close()
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    deep = "[" * 5000 + "]" * 5000
    connection.execute(f"UPDATE games SET {column} = ? WHERE id = 1", (deep,))
    connection.commit()
    connection.close()

    archive = Archive.open(tmp_path)
    games = archive.games()
    if column == "review":  # the summary is dropped, the game kept
        assert len(games) == 2 and all(g.review is None for g in games)
    else:
        assert [g.moves_string for g in games] == ["1122334"] and archive.unreadable == 1
    assert archive.export_text().count("[Id ") == len(games)


ROW_COLUMNS = "played_at, rules, first, second, moves, result, first_depth, second_depth, review"


def copy_game_to_id(folder: Path, source: int, new_id: int) -> None:
    """Another program's row: game ``source`` copied to id ``new_id``."""
    connection = sqlite3.connect(folder / FILE_NAME)
    connection.execute(
        f"INSERT INTO games (id, {ROW_COLUMNS}) SELECT ?, {ROW_COLUMNS} FROM games WHERE id = ?", (new_id, source)
    )
    connection.commit()
    connection.close()


@pytest.mark.parametrize("then_deleted", [False, True])
def test_a_row_at_the_largest_id_does_not_stop_saving(tmp_path, then_deleted):
    """Issue 38 item 9: a row at id 2**63 - 1 made every later save fail with "database or
    disk is full" (AUTOINCREMENT goes past the largest id ever used, even once deleted)."""
    archive = Archive.open(tmp_path)
    add(archive, "4455667", GameResult.FIRST, second="Easy")
    add(archive, "1122334", GameResult.FIRST, second="Easy")
    archive.close()
    copy_game_to_id(tmp_path, 1, 2**63 - 1)
    if then_deleted:
        connection = sqlite3.connect(tmp_path / FILE_NAME)
        connection.execute("DELETE FROM games WHERE id = ?", (2**63 - 1,))
        connection.commit()
        connection.close()
    archive = Archive.open(tmp_path)
    first = add(archive, "4453", GameResult.DRAW, second="Easy")
    second = add(archive, "44", GameResult.DRAW, second="Easy")
    assert (first, second) == (3, 4) and not archive.pending and archive.warning is None
    archive.close()
    archive = Archive.open(tmp_path)
    stored = {g.id: g.moves_string for g in archive.games()}
    assert stored[3] == "4453" and stored[4] == "44" and archive.unreadable == 0
    assert len(stored) == (4 if then_deleted else 5)
    assert archive.game(3) is not None and archive.recovery_files() == []


@pytest.mark.parametrize("bad_id", [0, -5, -(2**63)])
def test_a_row_whose_id_is_out_of_range_is_skipped_and_counted(tmp_path, capsys, bad_id):
    """The archive never writes an id below 1 (``review ID`` could not name it): such a row
    is damaged, skipped and counted like a row whose text or JSON cannot be read."""
    archive = Archive.open(tmp_path)
    add(archive, "4455667", GameResult.FIRST, second="Easy")
    add(archive, "1122334", GameResult.FIRST, second="Easy")
    archive.close()
    copy_game_to_id(tmp_path, 1, bad_id)
    archive = Archive.open(tmp_path)
    games = archive.games()
    assert sorted(g.id for g in games) == [1, 2]
    assert archive.unreadable == 1 and archive.unreadable_note() == "1 stored game could not be read"
    assert archive.export_text().count("[Id ") == 2
    assert add(archive, "4453", GameResult.DRAW) == 3  # saving goes on
    archive.close()

    from game.cli.main import main

    printed = io.StringIO()
    assert main(["games", "--json", "--home", str(tmp_path)], stdout=printed) == 0
    said = json.loads(printed.getvalue())
    assert len(said["games"]) == 3 and said["unreadable"] == 1
