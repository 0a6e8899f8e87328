"""Hostile external engines: each one of the ways an engine attacked the runner (issue 19)
loses that engine its game, and the runner neither hangs, crashes, nor leaves a process."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.board import Board
from game.bots.players import Failure, Side
from game.bots.runners import MatchPlan, run_match
from game.bots.tournament import MAX_QUEUED_LINES, EnginePlayer, LevelPlayer, PgnWriter, make_player
from game.rules import Rules
from tests.helpers import match_against, write_bot

ROOT = Path(__file__).resolve().parent.parent

LEFTMOST = """
def leftmost(words):
    moves = [int(m) for m in words[1:]]
    return next(c for c in range(7) if moves.count(c) < 6)
"""
"""The column a leftmost-playing bot answers for a ``position`` line's words."""


def alive(pid: int) -> bool:
    """True while ``pid`` is a process that is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def gone_soon(pid: int, seconds: float = 5.0) -> bool:
    """The process is gone now or within ``seconds`` (init reaps an orphan a moment later)."""
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def pids_in(folder: Path) -> list[int]:
    return [int(p.read_text()) for p in folder.glob("*.pid") if p.read_text().strip()]


pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups are tested on POSIX")


@pytest.mark.slow
def test_an_engine_that_closes_its_output_but_keeps_running_loses_and_is_killed(tmp_path):
    source = f"""
import os, sys, time
open({str(tmp_path / "bot.pid")!r}, "w").write(str(os.getpid()))
for line in sys.stdin:
    if line.startswith("go"):
        os.close(1)
        time.sleep(600)
"""
    bot = EnginePlayer(write_bot(tmp_path, "mute", source), name="mute", grace=0.3, startup=2.0)
    result = match_against(bot)
    assert result.failures(Side.B)[Failure.CRASH] == 2
    assert "closed its output" in result.games[0].detail
    assert all(gone_soon(pid) for pid in pids_in(tmp_path))


@pytest.mark.slow
def test_a_crash_that_leaves_a_child_holding_the_output_loses_and_the_child_goes_too(tmp_path):
    source = f"""
import os, subprocess, sys
for line in sys.stdin:
    if line.startswith("go"):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(tmp_path)!r} + f"/child{{child.pid}}.pid", "w").write(str(child.pid))
        os._exit(3)
"""
    bot = EnginePlayer(write_bot(tmp_path, "orphaner", source), name="orphaner", grace=0.3, startup=2.0)
    result = match_against(bot)
    assert result.failures(Side.B)[Failure.CRASH] == 2
    assert "exited (code 3)" in result.games[0].detail
    children = pids_in(tmp_path)
    assert len(children) == 2 and all(gone_soon(pid) for pid in children)


@pytest.mark.slow
def test_an_engine_behind_a_wrapper_shell_without_exec_is_killed_with_its_shell(tmp_path):
    source = f"""
import os, sys, time
open({str(tmp_path)!r} + f"/bot{{os.getpid()}}.pid", "w").write(str(os.getpid()))
for line in sys.stdin:
    if line.startswith("go"):
        time.sleep(600)
"""
    command = write_bot(tmp_path, "sleeper", source)
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text(f"#!/bin/sh\n{command}\necho done\n")  # no exec: the shell stays the parent
    wrapper.chmod(0o755)
    bot = EnginePlayer(str(wrapper), name="wrapped", grace=0.3, startup=2.0)
    result = match_against(bot)
    assert result.failures(Side.B)[Failure.TIME] == 2
    sleepers = pids_in(tmp_path)
    assert len(sleepers) == 2 and all(gone_soon(pid) for pid in sleepers)


@pytest.mark.parametrize("answer", ["bestmove \u00b2", "bestmove " + "7" * 5000, "bestmove -0x3", "bestmove 3 4"])
@pytest.mark.slow
def test_an_unreadable_bestmove_loses_that_game_and_the_match_goes_on(tmp_path, answer):
    source = (
        f"import sys\nfor line in sys.stdin:\n    if line.startswith('go'):\n        print({answer!r}, flush=True)\n"
    )
    bot = EnginePlayer(write_bot(tmp_path, "garbled", source), name="garbled")
    result = match_against(bot)
    assert result.wins == 2
    assert result.failures(Side.B)[Failure.ILLEGAL_MOVE] == 2
    assert "unreadable answer" in result.games[0].detail and len(result.games[0].detail) < 120


@pytest.mark.slow
def test_a_stale_second_bestmove_is_not_the_answer_to_the_next_position(tmp_path):
    """The bot answers each position with its leftmost column, then, a moment later, says
    ``bestmove`` again with another column: only the first answer may be played."""
    source = (
        LEFTMOST
        + """
import sys, time
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        position = words
    elif words[0] == "go":
        column = leftmost(position)
        print(f"bestmove {column}", flush=True)
        time.sleep(0.2)
        moves = [int(m) for m in position[1:]] + [column]
        print(f"bestmove {max(c for c in range(7) if moves.count(c) < 6)}", flush=True)
"""
    )
    bot = EnginePlayer(write_bot(tmp_path, "stale", source), name="stale")
    result = match_against(bot, "depth:1", movetime=1.0)
    assert result.failures(Side.B) == {failure: 0 for failure in Failure}
    for game in result.games:
        board = Board(Rules())
        for ply, move in enumerate(game.moves):
            if ply >= len(game.opening) and game.side_at(ply) is Side.B:
                assert move == next(c for c in range(7) if board.is_legal(c)), game.moves_string(Rules())
            board.push(move)


@pytest.mark.slow
def test_a_flooding_engine_costs_no_memory_while_it_waits(tmp_path):
    source = (
        LEFTMOST
        + """
import sys, threading
def flood():
    while True:
        sys.stdout.write("info " + "x" * 200 + "\\n")
threading.Thread(target=flood, daemon=True).start()
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "position":
        position = words
    elif words and words[0] == "go":
        sys.stdout.write(f"bestmove {leftmost(position)}\\n")
        sys.stdout.flush()
"""
    )
    bot = EnginePlayer(write_bot(tmp_path, "flood", source), name="flood")
    try:
        result = run_match(LevelPlayer("depth:2"), bot, MatchPlan(Rules(), games=2, movetime=1.0))
        assert result.failures(Side.B) == {failure: 0 for failure in Failure}
        time.sleep(0.5)  # the engine floods on while nobody asks it anything
        assert bot._reader is not None and bot._reader.lines.qsize() <= MAX_QUEUED_LINES
        assert bot._reader.lines.qsize() == 0  # its info lines are read and dropped
    finally:
        bot.close()


@pytest.mark.slow
def test_a_command_that_ends_in_a_quote_is_accepted(tmp_path):
    folder = tmp_path / "my bots"
    folder.mkdir()
    path = folder / "leftmost.py"
    path.write_text(
        LEFTMOST
        + "import sys\nfor line in sys.stdin:\n    w = line.split()\n"
        + "    if w and w[0] == 'position':\n        p = w\n"
        + "    elif w and w[0] == 'go':\n        print(f'bestmove {leftmost(p)}', flush=True)\n"
    )
    player = make_player(f'engine:{sys.executable} "{path}"')
    assert isinstance(player, EnginePlayer) and player.command.endswith('"')
    result = run_match(LevelPlayer("depth:2"), player, MatchPlan(Rules(), games=2, movetime=1.0))
    player.close()
    assert result.failures(Side.B) == {failure: 0 for failure in Failure} and result.wins == 2
    whole = make_player(f"engine:'{sys.executable} -u'")  # a command quoted whole loses its quotes
    assert isinstance(whole, EnginePlayer) and whole.command == f"{sys.executable} -u"


def test_a_pgn_file_is_not_truncated_before_the_first_game(tmp_path):
    path = tmp_path / "old.pgn"
    path.write_text('[Event "an older match"]\n')
    writer = PgnWriter(str(path), "a", "b", Rules())
    writer.close()  # the match ended before its first game
    assert path.read_text() == '[Event "an older match"]\n'


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.slow
def test_match_on_a_full_disk_says_so_once_and_still_reports_every_game(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "match", "depth:2", "depth:1", "--games", "4", "--movetime", "200"]
        + ["--pgn", "/dev/full", "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    said = [line for line in proc.stderr.splitlines() if "cannot write /dev/full: No space left on device" in line]
    # Said once as it happens, and once more as the clear last line (issue 32), never per game.
    assert len(said) == 2 and proc.stderr.strip().splitlines()[-1] == said[-1]
    assert said[-1].startswith("error:") or ": error: " in said[-1]
    assert "Traceback" not in proc.stderr
    assert "Match: depth:2 (A) vs depth:1 (B)" in proc.stdout and "  4. B first" in proc.stdout
    assert "Games written" not in proc.stdout
