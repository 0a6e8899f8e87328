"""Damaged opening books are refused, never trusted: a copy of ``bitbully-databases``
with its values flipped in place (keys intact, still sorted), truncated, padded to 2 GB or
replaced by a FIFO is placed first on the path of a real ``main.py`` process; answers stay
exact (or the line says it is unknown), with one note naming the file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ai.book import BookFile, book, book_path
from ai.solver import SolveLimit, Solver
from game.board import Board
from game.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
LINES_11 = ["15211441215", "54121572342", "51535762155", "46547345433", "32441617557"]
"""11-disc lines whose search reaches the 12-disc book, quick to solve even without it."""


def _copy_package(site: Path, version: str | None = None) -> Path:
    """A copy of the installed package under ``site`` (its book files linked, not copied);
    returns the copy's folder of book files."""
    source = book_path(BookFile.PLY_8).parent.parent
    target = site / "bitbully_databases"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "assets"))
    (target / "assets").mkdir()
    for which in BookFile:
        (target / "assets" / book_path(which).name).symlink_to(book_path(which))
    if version is not None:
        init = target / "__init__.py"
        init.write_text(init.read_text().replace('__version__: str = "0.0.2"', f'__version__: str = "{version}"'))
    return target / "assets"


def _replace(assets: Path, which: BookFile, data: bytes | np.ndarray) -> Path:
    path = assets / book_path(which).name
    path.unlink()
    if isinstance(data, np.ndarray):
        data.tofile(path)
    else:
        path.write_bytes(data)
    return path


def _flip_values(assets: Path) -> None:
    """Every value flipped in place: draws become losses and back, wins become losses."""
    eight = np.fromfile(book_path(BookFile.PLY_8), dtype=np.uint8).reshape(-1, 3)
    eight[:, 2] ^= 1
    _replace(assets, BookFile.PLY_8, eight)
    packed = (np.fromfile(book_path(BookFile.PLY_12), dtype=">i4") ^ 1).astype(">i4")
    _replace(assets, BookFile.PLY_12, packed)
    records = np.fromfile(book_path(BookFile.PLY_12_DISTANCES), dtype=[("key", ">i4"), ("value", "i1")])
    records["value"] = -records["value"]
    _replace(assets, BookFile.PLY_12_DISTANCES, records)


def _with_compiled_kernels(cache: Path) -> Path:
    """A fresh cache folder (no book verdicts) that has this machine's compiled kernels, so
    each command does not compile the solver again (tests/test_kernel_cache.py does that)."""
    from ai.compiled.kernel_file import cache_folder

    kernels = cache / "connect4" / "solver"
    if not kernels.exists() and not cache.is_file():  # (a file where the folder should be: a test of its own)
        kernels.mkdir(parents=True)
        for built in cache_folder().glob("*.kernel"):
            shutil.copyfile(built, kernels / built.name)
    return cache


def _run(site: Path, cache: Path, *args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{ROOT}", XDG_CACHE_HOME=str(_with_compiled_kernels(cache)))
    return subprocess.run(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,  # a hang guard, not a speed test: a FIFO must not block for ever
    )


def _run_script(site: Path, cache: Path, script: str, *, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run the Python ``script`` in a fresh process with ``site`` first on its path and
    ``cache`` as its cache folder (no compiled kernels copied in)."""
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{ROOT}", XDG_CACHE_HOME=str(cache))
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def _solved(lines: list[str], *, weak: bool = False) -> dict[str, int]:
    solver = Solver(Rules())
    return {line: solver.solve_moves(Board.from_moves(line).moves, limit=SolveLimit(weak=weak)).score for line in lines}


def _check_solve_output(stdout: str, expected: dict[str, int]) -> int:
    """Each line the exact score or 'unknown'; returns how many were solved."""
    solved = 0
    for line in stdout.splitlines():
        moves, answer = line.split(" ", 1)
        if answer.startswith("unknown"):
            continue
        assert int(answer) == expected[moves], line
        solved += 1
    assert len(stdout.splitlines()) == len(expected)
    return solved


@pytest.fixture(scope="module")
def flipped(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("flipped")
    _flip_values(_copy_package(site))
    return site


@pytest.mark.slow
def test_flipped_values_are_refused_and_solve_stays_exact(flipped, tmp_path):
    expected = _solved(LINES_11)
    proc = _run(flipped, tmp_path, "solve", "--time-limit", "30", stdin="\n".join(LINES_11) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert _check_solve_output(proc.stdout, expected) >= 3
    notes = [line for line in proc.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "book_12ply_distances.dat is damaged" in notes[0], proc.stderr
    verdicts = (tmp_path / "connect4" / "book-checks.json").read_text()
    assert "book_12ply_distances.dat" in verdicts and "damaged" in verdicts  # cached for the next run


@pytest.mark.slow
def test_flipped_values_never_give_analyze_a_wrong_exact_value(flipped, tmp_path):
    from ai.perfect import exact_column_scores

    board = Board.from_moves(LINES_11[1])
    scores = exact_column_scores(board.grid, board.rules, board.to_move, 60)  # with the real books
    assert scores is not None
    truth = {col + 1: score for col, score in scores.items()}
    proc = _run(flipped, tmp_path, "analyze", LINES_11[1], "--depth", "2", "--time-limit", "30", "--level", "perfect")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    exact = [line for line in proc.stdout.splitlines() if line.startswith("Exact values")]
    assert len(exact) == 1
    if exact[0].startswith("Exact values for"):  # else not found within the time limit
        shown = dict(part.split(":") for part in exact[0].split(": ", 1)[1].split())
        assert {int(col): int(score) for col, score in shown.items()} == truth
    played = [line for line in proc.stdout.splitlines() if line.startswith("Level perfect plays:")]
    assert len(played) == 1 and "the opening book cannot be used (the 12-ply-dist book" in played[0]
    assert "Expert plays for Perfect; reinstall bitbully-databases" in played[0]  # the decider's note, shown


@pytest.mark.slow
def test_a_truncated_eight_ply_book_does_not_make_weak_solve_call_a_missing_position_a_win(tmp_path):
    site = tmp_path / "site"
    assets = _copy_package(site)
    raw = book_path(BookFile.PLY_8).read_bytes()
    _replace(assets, BookFile.PLY_8, raw[: len(raw) // 2 // 3 * 3])  # whole records, still sorted
    eight = book(BookFile.PLY_8)
    tail = [eight.entry(index) for index in range(len(eight) - 40, len(eight))]
    lines = []
    geo = Solver(Rules()).geo
    for first, second, _ in tail:  # positions only in the cut half: draws and losses
        lines.append(_moves_of(geo.to_grid(first, second)))
        if len(lines) == 6:
            break
    expected = _solved(lines, weak=True)
    assert any(score < 1 for score in expected.values())
    proc = _run(site, tmp_path / "cache", "solve", "--weak", "--time-limit", "60", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert _check_solve_output(proc.stdout, expected) == len(lines)  # the 12-ply book still answers
    assert "book_8ply.dat is damaged" in proc.stderr


def _moves_of(grid: np.ndarray) -> str:
    """A move string that builds ``grid`` (player 1 = 1 moves first), found by a small search."""
    rows, cols = grid.shape
    columns = [[int(grid[row, col]) for row in range(rows - 1, -1, -1) if grid[row, col]] for col in range(cols)]
    total = sum(len(column) for column in columns)

    def extend(heights: list[int], side: int, moves: list[int]) -> list[int] | None:
        if len(moves) == total:
            return moves
        for col in range(cols):
            if heights[col] < len(columns[col]) and columns[col][heights[col]] == side:
                heights[col] += 1
                found = extend(heights, -side, moves + [col])
                heights[col] -= 1
                if found is not None:
                    return found
        return None

    moves = extend([0] * cols, 1, [])
    assert moves is not None
    return "".join(str(col + 1) for col in moves)


@pytest.mark.slow
def test_a_fifo_in_a_books_place_is_refused_not_waited_on(tmp_path):
    site = tmp_path / "site"
    assets = _copy_package(site)
    path = assets / book_path(BookFile.PLY_12_DISTANCES).name
    path.unlink()
    os.mkfifo(path)
    proc = _run(site, tmp_path / "cache", "solve", "--time-limit", "30", stdin=LINES_11[0] + "\n", timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert _check_solve_output(proc.stdout, _solved(LINES_11[:1])) == 1
    assert "is a FIFO (named pipe), not a book file" in proc.stderr


@pytest.mark.slow
def test_a_book_padded_to_two_gigabytes_is_refused_unread(tmp_path):
    site = tmp_path / "site"
    assets = _copy_package(site)
    path = _replace(assets, BookFile.PLY_12_DISTANCES, book_path(BookFile.PLY_12_DISTANCES).read_bytes())
    with open(path, "r+b") as padded:
        padded.truncate(2 * 1024**3 + 5 * 7)  # sparse: no disc space, still 2 GB to a reader
    # The peak of this process alone: VmHWM starts afresh at exec, while ru_maxrss keeps
    # the parent's peak across fork and exec (a big pytest process would fail the test).
    script = (
        "import resource\n"
        "from ai.book import BookError, book\n"
        "try:\n    book().check()\nexcept BookError as error:\n    print(error)\n"
        "try:\n    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
        "    print(int(status.split()[0]))\n"
        "except OSError:\n    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)  # macOS: bytes\n"
    )
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{ROOT}", XDG_CACHE_HOME=str(tmp_path / "cache"))
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    message, peak_kb = proc.stdout.splitlines()
    assert "2,147,483,683 bytes, more than any book" in message
    assert int(peak_kb) < 400_000  # well under the 2 GB a copy would take


@pytest.mark.slow
def test_a_book_of_another_release_is_checked_against_the_solver(tmp_path):
    """Not the checksum of the known release: the order and a sample of entries decide.
    The reader alone (``ai.book``, below the solver) refuses such a book until the
    solver's check (``ai.book_check``) has passed on that very file."""
    intact = tmp_path / "intact"
    _copy_package(intact, version="0.0.9")
    assert _reader_verdicts(intact, tmp_path / "cache") == ["has not checked it yet"] * 3
    script = (
        "from ai.book import BookFile\nfrom ai.book_check import trusted_book\n"
        "for w in BookFile:\n    trusted_book(w)\nprint('ok')\n"
    )
    proc = _run_script(intact, tmp_path / "cache", script)
    assert proc.stdout.strip() == "ok", proc.stderr
    assert _reader_verdicts(intact, tmp_path / "cache") == ["ok"] * 3  # the verdicts, kept by file
    flipped = tmp_path / "flipped"
    _flip_values(_copy_package(flipped, version="0.0.9"))
    script = (
        "from ai.book import BookError, BookFile\nfrom ai.book_check import trusted_book\n"
        "for w in BookFile:\n    try:\n        trusted_book(w)\n    except BookError as error:\n        print(error)\n"
    )
    proc = _run_script(flipped, tmp_path / "cache2", script)
    problems = proc.stdout.splitlines()
    assert len(problems) == 3, proc.stdout + proc.stderr
    assert all("where the exact solver finds" in line or "cannot be checked" in line for line in problems), "\n".join(
        problems
    )


def _reader_verdicts(site: Path, cache: Path) -> list[str]:
    """What the reader alone (``OpeningBook.check``) says of each book: ``ok``, ``has not
    checked it yet``, or the error."""
    script = (
        "from ai.book import BookError, BookFile, BookUnchecked, book\n"
        "for w in BookFile:\n    try:\n        book(w).check()\n        print('ok')\n"
        "    except BookUnchecked:\n        print('has not checked it yet')\n"
        "    except BookError as error:\n        print(error)\n"
    )
    proc = _run_script(site, cache, script, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.slow
def test_an_unwritable_cache_folder_only_means_checking_again(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    proc = _run(tmp_path, blocker, "solve", stdin=LINES_11[0] + "\n")
    # Nothing to say but solve's own progress line, which a slow (loaded) machine earns.
    said = [line for line in proc.stderr.splitlines() if not line.startswith("solve: 1 line")]
    assert proc.returncode == 0 and said == [], proc.stderr
    assert proc.stdout.split() == [LINES_11[0], str(_solved(LINES_11[:1])[LINES_11[0]])]


@pytest.mark.slow
def test_without_the_books_package_solve_and_analyze_say_so_once_and_stay_exact(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "bitbully_databases.py").write_text('raise ImportError("No module named bitbully_databases")\n')
    proc = _run(site, tmp_path / "cache", "solve", "--time-limit", "30", stdin="\n".join(LINES_11[:3]) + "\n")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert _check_solve_output(proc.stdout, _solved(LINES_11[:3])) >= 2
    assert proc.stderr.count("need the 'bitbully-databases' package") == 1
    proc = _run(site, tmp_path / "cache", "analyze", LINES_11[0], "--level", "perfect", "--time-limit", "2")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.count("need the 'bitbully-databases' package") == 1  # in the level's answer, once
    played = [line for line in proc.stdout.splitlines() if line.startswith("Level perfect plays:")]
    assert len(played) == 1 and "(decided by the search: the opening book cannot be used" in played[0]


@pytest.mark.slow
def test_a_book_changed_in_place_after_passing_its_check_is_checked_again(tmp_path):
    """The cached 'ok' verdict must not outlive the file it was given to: values flipped
    in place, size and modification time kept (as a restore or ``touch -r`` does)."""
    site = tmp_path / "site"
    assets = _copy_package(site)
    path = _replace(assets, BookFile.PLY_12_DISTANCES, book_path(BookFile.PLY_12_DISTANCES).read_bytes())
    script = "from ai.book import BookError, book\ntry:\n    book().check()\n    print('ok')\nexcept BookError as error:\n    print(error)\n"

    def check() -> str:
        proc = _run_script(site, tmp_path / "cache", script, timeout=120)
        return proc.stdout.strip() + proc.stderr

    assert check() == "ok"
    before = path.stat()
    records = np.fromfile(path, dtype=[("key", ">i4"), ("value", "i1")])
    records["value"] = -records["value"]
    with open(path, "r+b") as file:  # the same file (inode), rewritten
        file.write(records.tobytes())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    assert "is damaged" in check()


def _check_all(site: Path, cache: Path) -> list[str]:
    """Each book's verdict (``ok`` or the error) in a fresh process with ``site`` first."""
    script = (
        "from ai.book import BookError, BookFile\nfrom ai.book_check import trusted_book\n"
        "for w in BookFile:\n    try:\n        trusted_book(w)\n        print('ok')\n"
        "    except BookError as error:\n        print(error)\n"
    )
    proc = _run_script(site, cache, script)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.slow
def test_books_of_another_release_cut_short_are_refused(tmp_path):
    """No checksum for another release: a packed book cut in half (whole records, sorted)
    reads every position it lost as a first-player win, and its own entries all pass."""
    site = tmp_path / "packed"
    assets = _copy_package(site, version="0.0.9")
    for which in (BookFile.PLY_8, BookFile.PLY_12):
        raw = book_path(which).read_bytes()
        _replace(assets, which, raw[: len(raw) // 2 // which.record_bytes * which.record_bytes])
    eight, twelve, distances = _check_all(site, tmp_path / "cache")
    assert distances == "ok"
    assert "book_8ply.dat is damaged" in eight and "book_12ply.dat is damaged" in twelve
    site = tmp_path / "distances"
    assets = _copy_package(site, version="0.0.9")
    raw = book_path(BookFile.PLY_12_DISTANCES).read_bytes()
    _replace(assets, BookFile.PLY_12_DISTANCES, raw[: len(raw) // 2 // 5 * 5])
    verdicts = _check_all(site, tmp_path / "cache2")
    assert "book_12ply_distances.dat is damaged: it lacks positions of 12 discs" in verdicts[2]
    assert all("cannot be checked without the 12-ply-dist book" in line for line in verdicts[:2])


def _fifo_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    assets = _copy_package(site)
    path = assets / book_path(BookFile.PLY_12_DISTANCES).name
    path.unlink()
    os.mkfifo(path)
    return site


def _said_once(clause: str, log: str) -> bool:
    """Whether the log's notes say ``clause`` exactly once.  Other notes may come beside it:
    on a busy machine a move's clock runs out (a fresh kernel cache compiles meanwhile), and
    that is said too, in the same note or a later one."""
    notes = [text for text in log.splitlines() if "note:" in text]
    return sum(clause in note for note in notes) == 1


@pytest.mark.slow
def test_the_engine_says_once_that_perfect_plays_without_a_refused_book(tmp_path):
    """The engine and ConnectX played Perfect's moves without the books and said nothing
    (a weaker move, -3 where +2 was there, went unexplained in the attack rerun)."""
    line = "position 4 1 2 5 2 2 2 0 1 4 4\n"  # 0-based moves, 11 discs: the book is asked
    stdin = "level perfect\n" + line + "go movetime 300\n"
    proc = _run(_fifo_site(tmp_path), tmp_path / "cache", "engine", stdin=stdin, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.count("bestmove") == 1
    assert _said_once("book_12ply_distances.dat is a FIFO", proc.stderr), proc.stderr


@pytest.mark.slow
def test_connectx_says_once_that_perfect_plays_without_a_refused_book(tmp_path):
    script = (
        "from game.bots.connectx import agent\nfrom game.board import Board\n"
        "board = Board.from_moves('52363332315')\n"
        "cells = [0 if v == 0 else (1 if v == 1 else 2) for v in board.grid.flatten().tolist()]\n"
        "for _ in range(2):\n"
        "    print(agent({'board': cells, 'mark': 2}, {'rows': 6, 'columns': 7, 'inarow': 4, 'actTimeout': 5}))\n"
    )
    env = dict(
        os.environ,
        PYTHONPATH=f"{_fifo_site(tmp_path)}{os.pathsep}{ROOT}",
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        CONNECT4_CONNECTX_LEVEL="perfect",
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.split()) == 2
    assert _said_once("book_12ply_distances.dat is a FIFO", proc.stderr), proc.stderr


@pytest.fixture
def early_file(tmp_path, monkeypatch):
    """A copy of the table of solved early positions in ``ai.book.EARLY_FILE``'s place."""
    import ai.book

    path = tmp_path / "early_exact.txt"
    path.write_bytes(ai.book.EARLY_FILE.read_bytes())
    monkeypatch.setattr(ai.book, "EARLY_FILE", path)
    ai.book.early_scores.cache_clear()
    yield path
    monkeypatch.undo()
    ai.book.early_scores.cache_clear()
    assert ai.book.early_scores()  # the real table again, its problem forgotten


def _early_refused(fragment: str) -> None:
    from ai.book import book_problems, early_scores

    assert early_scores() == {}
    assert any(fragment in problem and "early_exact.txt" in problem for problem in book_problems()), book_problems()


def test_the_shipped_early_table_passes(early_file):
    from ai.book import book_problems, early_scores

    assert len(early_scores()) > 700
    assert not [problem for problem in book_problems() if "early_exact" in problem]


def test_an_early_table_with_a_value_changed_is_refused(early_file):
    """One score changed ('1 2' to '1 -2') would be a wrong exact value with no note."""
    text = early_file.read_text()
    early_file.write_text(text.replace("\n1 2\n", "\n1 -2\n", 1))
    _early_refused("is damaged")


def test_a_garbled_early_table_is_refused_not_a_traceback(early_file):
    early_file.write_text(early_file.read_text().replace("\n44 ", "\n44 x", 1))  # int('x...') raised
    _early_refused("is damaged")


def test_a_fifo_in_the_early_tables_place_is_refused_not_waited_on(early_file):
    early_file.unlink()
    os.mkfifo(early_file)
    _early_refused("FIFO")


def test_a_missing_early_table_is_said(early_file):
    early_file.unlink()
    _early_refused("cannot be read")


def test_an_early_table_with_windows_line_ends_still_passes(early_file):
    from ai.book import early_scores

    early_file.write_bytes(early_file.read_bytes().replace(b"\n", b"\r\n"))
    assert len(early_scores()) > 700


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "huge"])
@pytest.mark.slow
def test_a_verdict_cache_that_is_not_a_small_file_is_ignored_not_waited_on(tmp_path, kind):
    """A FIFO or /dev/zero in the place of book-checks.json blocked every 'solve' for ever."""
    checks = tmp_path / "cache" / "connect-four" / "book-checks.json"
    checks.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(checks)
    elif kind == "dev_zero":
        checks.symlink_to("/dev/zero")
    else:
        with open(checks, "wb") as file:
            file.truncate(2 * 1024**3)  # sparse
    proc = _run(tmp_path / "site", tmp_path / "cache", "solve", stdin=LINES_11[0] + "\n", timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.split() == [LINES_11[0], str(_solved(LINES_11[:1])[LINES_11[0]])]


def test_the_verdicts_live_under_the_programs_one_name_and_the_old_folder_is_read(tmp_path, monkeypatch):
    """Issue 52: the cache folder was named "connect-four", every other folder "connect4"."""
    import json

    from ai import book

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert book.cache_folder() == tmp_path / "connect4"
    old = tmp_path / "connect-four" / book.CHECKS_FILE
    old.parent.mkdir()
    old.write_text(json.dumps({"a book": "ok"}))
    assert book._read_verdicts() == {"a book": "ok"}  # kept before the rename: still read
    book._store_verdict("another", "ok")
    assert json.loads((tmp_path / "connect4" / book.CHECKS_FILE).read_text()) == {"a book": "ok", "another": "ok"}
    assert old.exists()  # not ours to delete
