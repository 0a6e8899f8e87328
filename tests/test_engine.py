"""The engine on stdin/stdout, run as a bot host runs it: a subprocess fed line by line."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ai.levels import PRESETS, Level, LevelNotFound, find_level
from ai.player import choose_move, quick_move
from game.board import Board
from game.bots.engine import ProtocolError, parse_arena_field
from game.bots.notes import NotesSaid
from game.rules import MAX, MIN, Rules
from tests.helpers import random_board

ROOT = Path(__file__).resolve().parent.parent
ANSWER_WAIT = 20.0
"""How long a test waits for a line before calling the engine hung (not a speed limit)."""


class EngineProcess:
    """``python main.py engine`` in a subprocess, with line reads that cannot hang the test."""

    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self) -> str:
        line = self.lines.get(timeout=ANSWER_WAIT)
        assert line is not None, "the engine closed its output"
        return line

    def read_until(self, prefix: str) -> list[str]:
        """Every line up to and including the first that starts with ``prefix``."""
        seen = []
        while True:
            line = self.read()
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def end_input(self) -> tuple[int, list[str], str]:
        """Close stdin; return the exit code, the remaining stdout lines and stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=ANSWER_WAIT)
        rest = []
        while (line := self.lines.get(timeout=ANSWER_WAIT)) is not None:
            rest.append(line)
        assert self.process.stderr is not None
        return code, rest, self.process.stderr.read()


@pytest.fixture
def engine_process():
    started: list[EngineProcess] = []

    def start(*args: str) -> EngineProcess:
        started.append(EngineProcess(*args))
        return started[-1]

    yield start
    for engine in started:
        if engine.process.poll() is None:
            engine.process.kill()
        engine.process.wait()


@pytest.mark.slow
def test_native_session_answers_legal_moves_errors_and_ends_with_the_input(engine_process):
    engine = engine_process("--level", "depth:4")
    engine.send("isready")
    assert engine.read() == "readyok"
    engine.send("position 3 3 2 4", "go movetime 2000")
    answer = engine.read_until("bestmove")
    infos, best = answer[:-1], answer[-1]
    assert infos and all(line.startswith("info depth ") for line in infos)
    assert [int(line.split()[2]) for line in infos] == list(range(1, len(infos) + 1))
    move = int(best.split()[1])
    assert Board.from_moves("4435").is_legal(move)

    engine.send("jump 3")
    assert engine.read().startswith("error unknown command 'jump'")
    engine.send("position 0 0 0 0 0 0 0")  # the seventh disc does not fit in column 1
    assert engine.read().startswith("error position: move 7 (0): column 0 is full")
    engine.send("level grandmaster")
    assert engine.read().startswith("error unknown level 'grandmaster'")
    engine.send("go movetime soon")
    assert engine.read().startswith("error bad go")

    # the session went on after the errors: the last good position still stands
    engine.send("go movetime 500")
    assert Board.from_moves("4435").is_legal(int(engine.read_until("bestmove")[-1].split()[1]))

    # a win in one (player 1 has three in the bottom row) is taken
    engine.send("position 0 0 1 1 2 2", "go movetime 500")
    assert engine.read_until("bestmove")[-1] == "bestmove 3"

    engine.send("position 0 1 0 1 0 1 0", "go")  # the game is over
    assert engine.read() == "bestmove none"

    code, rest, log = engine.end_input()
    assert code == 0 and rest == []
    assert "native dialect" in log  # logs go to stderr, never stdout


@pytest.mark.slow
def test_native_engine_answers_in_time_even_at_a_depth_it_cannot_finish(engine_process):
    engine = engine_process("--level", "depth:40")
    engine.send("position 3", "go movetime 300")
    best = engine.read_until("bestmove")[-1]
    assert Board.from_moves("4").is_legal(int(best.split()[1]))
    # without a clock it thinks until told to stop, then gives its best move so far
    engine.send("position 3 3", "go")
    engine.send("stop")
    best = engine.read_until("bestmove")[-1]
    assert Board.from_moves("44").is_legal(int(best.split()[1]))
    engine.send("quit")
    assert engine.process.wait(timeout=ANSWER_WAIT) == 0


@pytest.mark.slow
def test_native_rules_command_plays_other_boards(engine_process):
    engine = engine_process("--level", "depth:3")
    engine.send("rules rows 5 cols 10 connect 4", "position 9 9 8", "go movetime 500")
    move = int(engine.read_until("bestmove")[-1].split()[1])
    assert Board.from_moves("jji", Rules(rows=5, cols=10)).is_legal(move)
    engine.send("rules rows 3 cols 7 connect 4")
    assert engine.read().startswith("error rules: rows must be 4..10")
    engine.send("rules rows 4 cols 4 connect 3 gravity off", "position 5 6", "go movetime 500")
    cell = int(engine.read_until("bestmove")[-1].split()[1])
    board = Board(Rules(rows=4, cols=4, connect=3, gravity=False))
    board.push(5)
    board.push(6)
    assert board.is_legal(cell)
    assert engine.end_input()[0] == 0


ARENA_SETTINGS = [
    "settings timebank 10000",
    "settings time_per_move 500",
    "settings player_names player1,player2",
    "settings your_bot player1",
    "settings your_botid 1",
    "settings field_columns 7",
    "settings field_rows 6",
]


def arena_field(rows: list[str]) -> str:
    """An arena field from rows of digits written top first: ``"0001000"``."""
    return ";".join(",".join(row) for row in rows)


@pytest.mark.slow
def test_arena_session_places_legal_discs_takes_wins_and_reports_bad_lines(engine_process):
    engine = engine_process("--level", "depth:4")
    engine.send(*ARENA_SETTINGS)
    engine.send("update game round 1", "update game field " + arena_field(["0000000"] * 6), "action move 10000")
    answer = engine.read()
    assert answer.startswith("place_disc ")
    assert 0 <= int(answer.split()[1]) < 7

    # our discs (1) have three in a row in column 5 (0-based 4): the fourth wins
    field = arena_field(["0000000", "0000000", "0000000", "0000100", "0000120", "0220120"])
    engine.send("update game round 4", "update game field " + field, "action move 9000")
    assert engine.read() == "place_disc 4"

    engine.send("settings field_rows many")
    assert engine.read().startswith("error settings field_rows: expected a whole number")
    engine.send("update game field " + arena_field(["0000000"] * 5))
    engine.send("action move 8000")
    assert engine.read().startswith("error field has 5 rows, settings say 6")
    engine.send("dance")
    assert engine.read().startswith("error unknown command 'dance'")

    # the newer arena field ('.' empty, bots 0 and 1) with us as bot 0, second to move
    engine.send("settings your_botid 0", "update game field " + arena_field(["......."] * 5 + ["...1..."]))
    engine.send("action move 500")
    assert engine.read() in {f"place_disc {c}" for c in range(7)}

    code, rest, log = engine.end_input()
    assert code == 0 and rest == []
    assert "arena dialect" in log


@pytest.mark.slow
def test_first_line_of_neither_dialect_is_an_error_and_the_session_waits(engine_process):
    engine = engine_process("--level", "depth:2")
    engine.send("hello")
    assert engine.read().startswith("error unknown command 'hello'")
    engine.send("position", "go movetime 200")
    assert engine.read_until("bestmove")[-1].startswith("bestmove ")
    assert engine.end_input()[0] == 0


def test_arena_field_reads_both_cell_styles_and_finds_whose_turn():
    rules = Rules()
    old_style = arena_field(["0000000"] * 5 + ["0001200"])
    board = parse_arena_field(old_style, rules, botid=1)
    assert board.to_move == MAX and board.grid[5, 3] == MAX and board.grid[5, 4] == MIN
    new_style = arena_field(["......."] * 5 + ["...0..."])
    board = parse_arena_field(new_style, rules, botid=1)
    assert board.to_move == MIN and board.grid[5, 3] == MAX
    with pytest.raises(ProtocolError, match="floating"):
        parse_arena_field(arena_field(["0000000"] * 4 + ["0001000", "0000000"]), rules, botid=2)


def test_levels_are_found_by_name_in_any_case_and_by_depth():
    for name, level in PRESETS.items():
        assert find_level(name.upper()) == level
    assert find_level("depth:6") == Level(6)
    for bad in ("depth:0", "depth:x", "godlike"):
        with pytest.raises(LevelNotFound):
            find_level(bad)


def wins_at_once(board: Board, move: int) -> bool:
    """Tell whether ``move`` ends the game with a win for the side playing it."""
    board.push(move)
    try:
        outcome = board.outcome()
        return outcome is not None and outcome.winner == -board.to_move
    finally:
        board.pop()


def test_quick_move_wins_then_blocks_then_avoids_giving_a_win(rng):
    assert quick_move(Board.from_moves("112233")) == 3  # player 1 completes the bottom row
    assert quick_move(Board.from_moves("12131")) == 0  # player 2 blocks column 1
    for _ in range(60):
        board = random_board(Rules(), rng, rng.randrange(4, 30))
        move = quick_move(board)
        assert move is not None and board.is_legal(move)
        if any(wins_at_once(board, m) for m in board.legal_moves()):
            assert wins_at_once(board, move)
            continue
        board.push(move)
        gives_win = any(wins_at_once(board, reply) for reply in board.legal_moves())
        board.pop()
        if gives_win:  # then every move gives one (or a block was forced)
            blocked = board.copy()
            blocked.to_move = -blocked.to_move
            assert any(wins_at_once(blocked, m) for m in blocked.legal_moves()) or all(
                _gives_a_win(board, m) for m in board.legal_moves()
            )


def _gives_a_win(board: Board, move: int) -> bool:
    board.push(move)
    try:
        return any(wins_at_once(board, reply) for reply in board.legal_moves())
    finally:
        board.pop()


def play_in_time(level, board, seconds):
    """A level's move under the engine's clock: ``choose_move`` with ``movetime``."""
    return choose_move(level, board.grid, board.rules, board.to_move, movetime=seconds)


def test_play_in_time_gives_a_legal_move_even_when_the_level_cannot_finish():
    board = Board.from_moves("4453")
    timed = play_in_time(Level(40), board, 0.3)
    assert board.is_legal(timed.move)
    assert timed.cut_short


@pytest.mark.slow
def test_stray_bytes_are_a_bad_line_and_the_session_goes_on():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "engine", "--level", "depth:2"],
        input=b"position 3\n\xff\xfe go\ngo movetime 200\n",
        capture_output=True,
        timeout=ANSWER_WAIT,
    )
    lines = proc.stdout.decode().splitlines()
    assert proc.returncode == 0
    assert lines[0].startswith("error unknown command")
    assert lines[-1].startswith("bestmove ") and Board.from_moves("4").is_legal(int(lines[-1].split()[1]))
    assert all(line.split()[0] in ("error", "info", "bestmove") for line in lines)


MIDGAME_SLOW_FOR_THE_SOLVER = "244446735556"
"""A position past the opening books where Perfect's exact solver needs seconds."""


@pytest.mark.slow
def test_perfect_answers_in_time_through_the_engine(engine_process):
    engine = engine_process("--level", "perfect")
    moves = " ".join(str(int(c) - 1) for c in MIDGAME_SLOW_FOR_THE_SOLVER)
    engine.send(f"position {moves}", "go movetime 300")
    best = engine.read_until("bestmove")[-1]
    assert Board.from_moves(MIDGAME_SLOW_FOR_THE_SOLVER).is_legal(int(best.split()[1]))
    assert engine.end_input()[0] == 0


def test_a_level_that_reports_no_passes_falls_back_to_a_searched_move():
    board = Board.from_moves(MIDGAME_SLOW_FOR_THE_SOLVER)
    timed = play_in_time(find_level("perfect"), board, 0.3)
    assert board.is_legal(timed.move)
    assert timed.depth >= 1 or not timed.cut_short  # the safety net's search, not a guess


@pytest.mark.slow
def test_our_own_engine_plays_a_match_through_the_native_dialect():
    from game.bots.runners import MatchPlan, run_match
    from game.bots.tournament import EnginePlayer, LevelPlayer

    rules = Rules(rows=5, cols=8, connect=4)
    engine = EnginePlayer(f"{sys.executable} {ROOT / 'main.py'} engine --level depth:3", name="engine")
    try:
        result = run_match(LevelPlayer("depth:1"), engine, MatchPlan(rules, games=2, movetime=0.3))
    finally:
        engine.close()
    assert all(game.failure is None for game in result.games)
    assert all(Board.from_moves(game.moves_string(rules), rules).is_game_over() for game in result.games)


def test_illegal_position_errors_name_columns_and_cells_0_based_as_the_wire_does():
    """A program reads 0-based columns; an error naming column 10 of a 5-column board
    (the 1-based number of wire column 9) would point it at the wrong column."""
    import io

    from game.cli.main import main

    session = (
        "rules rows 5 cols 5 connect 4\nposition 9\nposition 3 3 3 3 3 3\n"
        "rules rows 4 cols 4 connect 3 gravity off\nposition 3 3\nposition 16\n"
        "rules\nposition 0 1 0 1 0 1 0 2\n"
    )
    out = io.StringIO()
    assert main(["engine", "--level", "depth:2"], stdout=out, stdin=io.StringIO(session)) == 0
    assert out.getvalue().splitlines() == [
        "error position: move 1 (9): column 9 is off the board (0..4)",
        "error position: move 6 (3): column 3 is full",
        "error position: move 2 (3): cell 3 (row 0 from the top, column 3) is taken",
        "error position: move 1 (16): cell 16 is off the board (0..15)",
        "error position: move 8 (2): the game is already over (a line is complete or the board full)",
    ]


def test_a_note_said_with_a_clocks_clause_is_not_said_again_without_it():
    """Under load the first move's note carried the clock's clause beside the refused book's,
    and the next move said the book's note a second time."""
    said = NotesSaid()
    book = "the opening book cannot be used (a FIFO): Expert plays for Perfect; reinstall bitbully-databases"
    assert said.fresh(f"{book}; the clock ran out: a 6-ply safety-net search answered") == (
        f"{book}; the clock ran out: a 6-ply safety-net search answered"
    )
    assert said.fresh(book) is None
    assert said.fresh(None) is None
    assert said.fresh("the clock ran out: the deepest finished pass (5 plies) answered") == (
        "the clock ran out: the deepest finished pass (5 plies) answered"
    )
