"""The command line, run in-process through ``game.cli.main.main`` (two subprocess smoke
tests run ``main.py`` as a student would)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.board_file import parse_board_text
from game.cli.commands import Command
from game.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run(*args: str, stdin: str | bytes = "", cwd: Path | None = None, more: Sequence[Command] = ()) -> Ran:
    """``main.py ARGS`` in this process: exit code, standard output, standard error
    (``more``: commands beyond the command line's own, such as the window's)."""
    out, err = io.StringIO(), io.StringIO()
    source = io.TextIOWrapper(io.BytesIO(stdin if isinstance(stdin, bytes) else stdin.encode()), encoding="utf-8")
    here = os.getcwd()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err  # argparse and the error line write to the sys streams
    try:
        if cwd is not None:
            os.chdir(cwd)
        try:
            code = main(list(args), stdout=out, stdin=source, more=more)
        except SystemExit as exit_:  # argparse: --help, or a bad option
            code = exit_.code if isinstance(exit_.code, int) else 2
    finally:
        sys.stdout, sys.stderr = saved
        os.chdir(here)
    return Ran(code, out.getvalue(), err.getvalue())


def run_process(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd or ROOT,
    )


def assert_clean_error(proc: Ran | subprocess.CompletedProcess, fragment: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert fragment in lines[0]


@pytest.mark.slow
def test_main_py_plays_one_move_in_a_process(data_dir, tmp_path):
    """Smoke test: the real entry point, a real process, a real file written."""
    out = tmp_path / "out.txt"
    proc = run_process("one-move", str(data_dir / "maxconnect4" / "midgame_lf.txt"), str(out), "2")
    assert proc.returncode == 0, proc.stderr
    assert "Computer plays 4 as player 1 (O), value +" in proc.stdout and out.exists()


@pytest.mark.slow
def test_main_py_refuses_dev_zero_in_a_process(tmp_path):
    """Smoke test: an endless input is refused unread, in one line."""
    proc = run_process("one-move", "/dev/zero", str(tmp_path / "out.txt"), "2")
    assert_clean_error(proc, "not a regular file")


def test_one_move_plays_one_disc_and_writes_the_file(data_dir, tmp_path):
    source = data_dir / "maxconnect4" / "midgame_lf.txt"
    out = tmp_path / "out.txt"
    proc = run("one-move", str(source), str(out), "4")
    assert proc.returncode == 0, proc.stderr
    assert "Score: player 1 =" in proc.stdout and "Computer plays 4 as player 1 (O)" in proc.stdout
    before, to_move_before = parse_board_text(source.read_text())
    after, to_move_after = parse_board_text(out.read_text())
    assert (after != 0).sum() == (before != 0).sum() + 1
    assert (after == 1).sum() == (before == 1).sum() + 1
    assert to_move_before == 1 and to_move_after == -1


@pytest.mark.parametrize("name", ["empty_crlf.txt", "midgame_cr.txt"])
def test_one_move_reads_every_line_ending(data_dir, tmp_path, name):
    proc = run("one-move", str(data_dir / "maxconnect4" / name), str(tmp_path / "o.txt"), "2")
    assert proc.returncode == 0, proc.stderr


def test_interactive_plays_a_whole_game(tmp_path):
    # Human-next from a missing file: an empty full-board game on a 4x4 board.
    moves = "x\n9\n" + "\n".join(str(c) for c in [1, 2, 3, 4] * 8) + "\n"
    proc = run(
        "interactive",
        str(tmp_path / "none.txt"),
        "human-next",
        "2",
        "--rows",
        "4",
        "--cols",
        "4",
        "--dir",
        str(tmp_path),
        stdin=moves,
    )
    assert proc.returncode == 0, proc.stderr
    assert "starting from an empty board" in proc.stdout
    assert "Not a legal move" in proc.stdout  # 'x' and '9' were refused, then play went on
    assert "Game over:" in proc.stdout
    computer, _ = parse_board_text((tmp_path / "computer.txt").read_text())
    human, _ = parse_board_text((tmp_path / "human.txt").read_text())
    assert (computer != 0).sum() == 16  # the computer made the last move: a full board
    assert (human != 0).sum() == 15


def test_interactive_ends_cleanly_when_input_ends(data_dir, tmp_path):
    """End of input (Ctrl+D, or a script's last line) is a way to stop, not an error."""
    proc = run(
        "interactive",
        str(data_dir / "maxconnect4" / "empty_lf.txt"),
        "computer-next",
        "2",
        "--dir",
        str(tmp_path),
        stdin="",
    )
    assert proc.returncode == 0
    assert proc.stderr == "input ended\n"
    assert (tmp_path / "computer.txt").exists()  # the computer's move was saved first


def test_interactive_echoes_the_move_typed_and_names_whose_side_a_value_is_for(tmp_path):
    proc = run("interactive", str(tmp_path / "none.txt"), "human-next", "2", "--dir", str(tmp_path), stdin="4\nq\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "Your move, player 1 (O): column 1..7, or q to quit: 4" in lines  # piped input shown as typed
    assert "You play 4 as player 1 (O)." in lines
    computer = next(line for line in lines if line.startswith("Computer plays"))
    assert " as player 2 (X), value " in computer
    assert "for player 1 (O)" in computer or "for player 2 (X)" in computer


def test_one_move_says_whose_side_its_value_is_for(data_dir, tmp_path):
    proc = run("one-move", str(data_dir / "maxconnect4" / "midgame_lf.txt"), str(tmp_path / "out.txt"), "3")
    computer = next(line for line in proc.stdout.splitlines() if line.startswith("Computer plays"))
    assert computer.startswith("Computer plays 4 as player 1 (O), value +")
    assert ": better for player 1 (O) by the heuristic  [depth 3," in computer


def test_analyze_prints_move_values_stats_and_tree():
    proc = run("analyze", "4453", "--depth", "4", "--tree", "--tree-depth", "1")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for expected in ("Best move:", "Expected line:", "Move values:", "nodes", "cutoffs", "root MAX value="):
        assert expected in out
    tree_lines = out.split("Search tree")[1].splitlines()[1:]
    assert sum(1 for line in tree_lines if line.startswith("  ") and not line.startswith("    ")) == 7


def test_analyze_without_pruning_reports_the_full_tree():
    proc = run("analyze", "", "--depth", "3", "--no-pruning")
    assert proc.returncode == 0, proc.stderr
    assert "alpha-beta off: 399 nodes" in proc.stdout  # 7 + 49 + 343


def test_analyze_reads_a_board_file_and_other_rules(data_dir):
    proc = run("analyze", str(data_dir / "maxconnect4" / "midgame_cr.txt"), "--mode", "full-board", "--depth", "3")
    assert proc.returncode == 0, proc.stderr
    assert "full board" in proc.stdout
    proc = run("analyze", "d1c1", "--no-gravity", "--rows", "5", "--cols", "5", "--depth", "2")
    assert proc.returncode == 0, proc.stderr
    assert "no gravity" in proc.stdout


def test_solve_prints_benchmark_lines(positions_dir, tmp_path):
    lines = (positions_dir / "Test_L3_R1").read_text().splitlines()[:20]
    proc = run("solve", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == lines
    sample = tmp_path / "in.txt"
    sample.write_text("\n".join(lines[:5]) + "\n")
    weak = run("solve", str(sample), "--weak")
    signs = [str((int(line.split()[1]) > 0) - (int(line.split()[1]) < 0)) for line in lines[:5]]
    assert [line.split()[1] for line in weak.stdout.splitlines()] == signs


@pytest.mark.parametrize(
    "args, stdin, fragment",
    [
        (["one-move", "missing.txt", "out.txt", "3"], "", "cannot read missing.txt"),
        (["one-move", "{bad}", "out.txt", "3"], "", "line 6, column 4: '3' is not 0, 1 or 2"),
        (["one-move", "{good}", "out.txt", "0"], "", "depth must be at least 1"),
        (["analyze", "4444444"], "", "column 4 is full"),
        (["analyze", "48"], "", "column 8 does not exist on a 7-column board"),
        (["analyze", "1212121"], "", None),
        (["analyze", "44", "--depth", "x"], "", "invalid int value"),
        (["analyze", "44", "--connect", "9"], "", "connect must be 3..6"),
        (["analyze", "44", "--mode", "bogus"], "", "invalid choice"),
        (["solve"], "4444444\n", "line 1: 4444444"),
        (["solve", "--no-gravity"], "", "CLASSIC rules with gravity"),
        (["nonsense"], "", "invalid choice"),
    ],
)
def test_bad_input_gets_one_line_and_exit_code_2(tmp_path, data_dir, args, stdin, fragment):
    bad = tmp_path / "bad.txt"
    bad.write_text("0000000\n" * 5 + "0003000\n1\n")
    args = [
        a.replace("{bad}", str(bad)).replace("{good}", str(data_dir / "maxconnect4" / "empty_lf.txt")) for a in args
    ]
    proc = run(*args, stdin=stdin, cwd=tmp_path)
    if fragment is None:  # a finished game is reported, not an error
        assert proc.returncode == 0 and "The game is over: Player 1 wins" in proc.stdout
        return
    assert_clean_error(proc, fragment)


def test_help_lists_the_commands():
    proc = run("--help")
    assert proc.returncode == 0
    for command in ("one-move", "interactive", "analyze", "solve"):
        assert command in proc.stdout


# -- hostile input (issue 11): one line, exit code 2, the input file unchanged ----------------
def test_an_input_over_a_megabyte_or_a_device_or_a_folder_is_refused_unread(tmp_path):
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"0000000\n" * 200_000)
    assert_clean_error(run("one-move", str(huge), str(tmp_path / "o.txt"), "2"), "input files are at most")
    assert_clean_error(run("one-move", "/dev/zero", str(tmp_path / "o.txt"), "2"), "not a regular file")
    assert_clean_error(run("analyze", str(tmp_path)), "is a folder")
    assert_clean_error(run("solve", str(huge)), "input files are at most")
    assert_clean_error(run("solve", "/dev/zero"), "not a regular file")
    assert not (tmp_path / "o.txt").exists()


def test_an_endless_line_on_stdin_is_refused():
    assert_clean_error(run("solve", stdin="4" * (1 << 20) + "5"), "over 1,048,576 characters")


@pytest.mark.parametrize("command", [["solve"], ["interactive", "{none}", "human-next", "2"]])
def test_invalid_utf8_on_stdin_is_refused(tmp_path, command):
    args = [a.replace("{none}", str(tmp_path / "none.txt")) for a in command] + ["--dir", str(tmp_path)] * (
        command[0] == "interactive"
    )
    assert_clean_error(run(*args, stdin=b"44\xff\xfe\n"), "not UTF-8")


def test_analyze_decides_moves_or_file_by_content(data_dir):
    long_moves = "5273212553524744215772343433766165766611"  # 40 legal moves, no line yet
    assert run("analyze", long_moves, "--depth", "2").returncode == 0
    assert_clean_error(run("analyze", "4" * 150), "column 4 is full")
    spaced = run("analyze", "4, 4 5,3", "--depth", "2")
    plain = run("analyze", "4453", "--depth", "2")
    assert spaced.returncode == 0 and spaced.stdout.split("Depth")[0] == plain.stdout.split("Depth")[0]
    assert_clean_error(run("analyze", "x" * 5000), "cannot read")  # a name too long: no OSError
    assert run("analyze", str(data_dir / "maxconnect4" / "midgame_lf.txt"), "--depth", "2").returncode == 0


@pytest.mark.parametrize(
    ("depth", "fragment"),
    [("abc", "invalid int value"), ("-3", "at least 1"), ("0", "at least 1"), ("1.5", "invalid int value")],
)
def test_a_depth_that_is_not_a_positive_number_is_refused(depth, fragment):
    assert_clean_error(run("analyze", "4453", "--depth", depth), fragment)


@pytest.mark.parametrize("depth", ["1000000000", "99999999999999999999999"])
def test_a_huge_depth_is_capped_at_the_empty_cells_and_said_once(depth):
    nearly_full = "5273212553524744215772343433766165"  # 34 discs, 8 empty cells, no line yet
    done = run("analyze", nearly_full, "--depth", depth)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("capped at 8") == 1 and "Best move:" in done.stdout


@pytest.mark.slow
def test_rows_zero_is_refused_and_one_size_alone_keeps_the_files_other(tmp_path, data_dir):
    source = data_dir / "maxconnect4" / "midgame_lf.txt"
    assert_clean_error(run("analyze", str(source), "--rows", "0"), "rows must be")
    wide = tmp_path / "wide.txt"
    wide.write_text("00000000\n" * 6 + "1\n")  # 6 rows, 8 columns
    done = run("analyze", str(wide), "--rows", "6", "--depth", "1")
    assert done.returncode == 0 and "6x8" in done.stdout
    assert_clean_error(run("analyze", str(wide), "--cols", "7"), "expected 7")


def test_an_output_that_is_the_input_is_refused_and_the_input_unchanged(tmp_path, data_dir):
    source = tmp_path / "in.txt"
    source.write_bytes((data_dir / "maxconnect4" / "midgame_lf.txt").read_bytes())
    before = source.read_bytes()
    assert_clean_error(run("one-move", str(source), str(source), "2"), "also the input")
    assert_clean_error(run("one-move", "in.txt", "./in.txt", "2", cwd=tmp_path), "also the input")
    assert_clean_error(run("one-move", str(source), str(tmp_path), "2"), "is a folder")
    computer = tmp_path / "computer.txt"
    computer.write_bytes(before)
    interactive = run("interactive", str(computer), "computer-next", "2", "--dir", str(tmp_path))
    assert_clean_error(interactive, "also the input")
    assert source.read_bytes() == before and computer.read_bytes() == before


def test_connectx_never_writes_over_the_games_own_main_py():
    before = (ROOT / "main.py").read_bytes()
    assert_clean_error(run("connectx", "--out", str(ROOT)), "this game's own main.py")
    assert_clean_error(run("connectx", "--out", str(ROOT / "main.py")), "is a file, not a folder")
    assert (ROOT / "main.py").read_bytes() == before


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "\x00"],
        ["one-move", "in\x00.txt", "out.txt", "2"],
        ["solve", "lines\x00.txt"],
        ["interactive", "none.txt", "human-next", "2", "--dir", "a\x00b"],
        ["match", "Easy", "Easy", "--pgn", "\x00"],
    ],
)
def test_a_nul_character_in_a_name_is_refused_in_one_line(tmp_path, args):
    """A shell cannot pass NUL, a program calling main() can: one line, exit 2."""
    assert_clean_error(run(*args, cwd=tmp_path), "NUL character")


def test_engine_ends_an_endless_line_with_one_error_instead_of_reading_it_all():
    done = run("engine", "--level", "Easy", stdin="settings field_columns 7\n" + "x" * (1 << 20) + "y")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith("a protocol line is over 1,048,576 characters long")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--level", "godlike"], "--level: unknown level 'godlike'"),
        (["--level", "depth:0"], "--level: bad depth"),
        (["--tree", "--tree-depth", "-1"], "--tree-depth must be 0 (the root only) or more, not -1"),
    ],
)
def test_analyze_refuses_a_bad_level_or_tree_depth_before_any_output(args, fragment):
    proc = run("analyze", "4453", *args)
    assert_clean_error(proc, fragment)
    assert proc.stdout == ""


def test_analyze_names_the_sides_instead_of_you_and_keeps_w_n_in_plies():
    """'you win' was said to whoever was to move; a reader of the analysis is neither side."""
    first = run("analyze", "4", "--depth", "4")
    lines = first.stdout.splitlines()
    assert "To move: player 2 (X), MIN" in lines
    assert (
        "Key: W<n> = a forced win in n plies (a ply is one disc, either player's); a player's moves are its own discs."
        in lines
    )
    assert "Best: column 4: player 1 (O) wins in 20 moves with perfect play" in lines
    second = run("analyze", "42443", "--depth", "4").stdout
    assert "Best: column 4: player 2 (X) wins in 15 moves with perfect play" in second
    assert "Exact values for player 2 (X), to move (perfect play;" in second
    lost = run("analyze", "44553", "--depth", "4").stdout  # O threatens 2 and 6: X cannot block both
    assert "Best move: 4   value +W2: player 1 (O) wins in 2 plies, 1 move of its own" in lost.splitlines()
    for text in (first.stdout, second, lost):
        assert "you win" not in text and "you lose" not in text and "for MAX" not in text


def test_a_heuristic_value_says_which_side_it_favours():
    text = run("analyze", "4455366", "--depth", "6").stdout
    assert "Best move: 2   value +13: better for player 1 (O) by the heuristic" in text.splitlines()


def test_a_search_that_may_take_long_is_announced_with_its_size_and_how_to_stop_it():
    from game.board import Board
    from game.cli.search_watch import SearchWatch
    from game.rules import Rules

    board = Board.from_moves("4453", Rules())
    full = SearchWatch("analyze", board, 9, False, "--time-limit S limits it").warning
    assert full is not None and "depth 9 without alpha-beta: up to 47,079,207 positions" in full
    assert "Ctrl+C stops it; --time-limit S limits it." in full
    deep = SearchWatch("analyze", board, 38, True, "--time-limit S limits it").warning
    assert deep is not None and "more than a year" in deep and "up to 10^32 without cutoffs" in deep
    assert SearchWatch("analyze", board, 6, True, "").warning is None  # a quick search says nothing
    assert SearchWatch("analyze", board, 38, True, "", time_limit=2.0).warning is None  # bounded by the clock
    quick = run("analyze", "4453", "--depth", "6")
    assert quick.returncode == 0 and "Ctrl+C" not in quick.stderr  # no warning (a starved process may print progress)


@pytest.mark.slow  # a process or seconds of solving: out of the quick lane, in the full run
def test_a_long_search_shows_progress_on_stderr_and_ctrl_c_ends_it_cleanly():
    """The QA's hang: depth 99 ran 10 minutes with no sign of life. Now a warning, a
    progress line a second on stderr (never stdout), and Ctrl+C (a real
    KeyboardInterrupt in this thread, sent once a progress line appears) ends with 130."""
    import _thread
    import signal
    import threading

    out, err = io.StringIO(), io.StringIO()
    main_returned = threading.Event()

    def press_ctrl_c_after_progress() -> None:
        while "searching depth" not in err.getvalue():
            if main_returned.wait(0.05):
                return
        # Once more every 2 s until the stop is said, in case one interrupt is lost.
        while "stopped by Ctrl+C" not in err.getvalue():
            _thread.interrupt_main()
            if main_returned.wait(2.0):
                return

    saved = sys.stderr
    sys.stderr = err
    # Python's own Ctrl+C handler, as a terminal's python has it: interrupt_main does
    # nothing where SIGINT is ignored, as it is for pytest started in the background by
    # a non-interactive shell (found by the loaded runs of the README's test command).
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser = threading.Thread(target=press_ctrl_c_after_progress, daemon=True)
    presser.start()
    try:
        code = main(["analyze", "4453", "--depth", "99"], stdout=out)
    finally:
        main_returned.set()
        sys.stderr = saved
        signal.signal(signal.SIGINT, handler)
    presser.join()
    lines = err.getvalue().splitlines()
    assert code == 130
    assert lines[0] == "note: depth 99 capped at 38, the empty cells left"
    assert lines[1].startswith("analyze: depth 38 with alpha-beta: roughly ")
    assert "Ctrl+C stops it; --time-limit S plays the deepest depth finished in S seconds." in lines[1]
    progress = re.compile(r"analyze: \d+ s, searching depth \d+, [\d,]+ nodes(; depth \d+ done, best move \d)?")
    assert lines[2:-1] and all(progress.fullmatch(line) for line in lines[2:-1])
    assert lines[-1].startswith("analyze: stopped by Ctrl+C after ")
    assert "Traceback" not in err.getvalue() and "searching depth" not in out.getvalue()


def test_a_forced_leaf_value_is_shown_as_f_with_its_side_not_as_a_bare_100000():
    """QA: 'analyze 4455366372' printed 'value -100000', a number no key explained."""
    lines = run("analyze", "4455366372").stdout.splitlines()
    assert "Best move: 2   value -F: player 2 (X) wins by force just past the search depth" in lines
    assert any(line.startswith("Key: +F / -F: a side wins by force") for line in lines)
    assert not any("100000" in line for line in lines)


def test_analyze_gives_exact_values_off_the_standard_board_where_the_solver_proves_them():
    """7x8 with 12 cells left: the solver proves every column (an estimate said nowhere);
    without gravity it has no solver: the values are said to be estimates."""
    from ai.player import column_scores
    from game.board import Board
    from game.rules import Rules

    rules = Rules(rows=7, cols=8)
    board = Board(rules)
    while board.ply < rules.cells - 12:  # fill column by column without ending the game
        board.push(next(col for col in board.legal_moves() if not _ends_game(board, col)))
    moves = board.moves_string()
    text = run("analyze", moves, "--rows", "7", "--cols", "8", "--depth", "2").stdout
    exact = column_scores(board.grid, rules, board.to_move)
    assert exact is not None
    shown = " ".join(f"{col + 1}:{score.score(board.to_move, board.grid):+d}" for col, score in sorted(exact.items()))
    assert f"|score| = 29 - the winner's discs at the end): {shown.replace(' ', '  ')}" in text
    assert "estimate" not in text
    no_gravity = run("analyze", "d1", "--no-gravity", "--depth", "2").stdout
    assert "Exact values: none for these rules" in no_gravity and "the values above are estimates" in no_gravity


def _ends_game(board, col: int) -> bool:
    child = board.copy()
    child.push(col)
    return child.is_game_over()


def test_solve_on_a_board_too_wide_for_the_compiled_solver_answers():
    """6x12: 84 bits of board do not fit the compiled search's int64 columns (a traceback)."""
    proc = run("solve", "--cols", "12", "--time-limit", "60", stdin="aabbcc\n")
    assert proc.returncode == 0, proc.stderr
    moves, score = proc.stdout.split()
    assert moves == "aabbcc" and int(score) > 0  # the side to move wins at once


@pytest.mark.slow
def test_python_dash_m_game_cli_runs_the_command():
    """``python -m game.cli.main solve`` exited 0 having done nothing (no ``__main__`` block)."""
    proc = subprocess.run(
        [sys.executable, "-m", "game.cli.main", "solve"],
        input="4453\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[0] == "4453" and len(proc.stdout.split()) == 2
