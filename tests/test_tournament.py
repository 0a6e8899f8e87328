"""The match runner: built-in levels, external engines (tiny bots written here), Elo, output."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from game.board import Board
from game.bots.openings import STANDARD_OPENINGS, openings
from game.bots.players import Failure, Side
from game.bots.runners import MatchPlan, play_game, run_match
from game.bots.statistics import elo
from game.bots.tournament import EnginePlayer, LevelPlayer, format_report, make_player, write_pgn
from game.game_file import read_games
from game.rules import MAX, MIN, Rules
from tests.helpers import match_against, write_bot

ROOT = Path(__file__).resolve().parent.parent

LEFTMOST_BOT = """
import sys
rules_cols = 7
moves = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "rules":
        rules_cols = int(words[words.index("cols") + 1])
    elif words[0] == "position":
        moves = [int(m) for m in words[1:]]
    elif words[0] == "go":
        heights = [moves.count(c) for c in range(rules_cols)]
        column = next(c for c in range(rules_cols) if heights[c] < 6)
        print("info depth 1 nodes 1 value 0", flush=True)
        print(f"bestmove {column}", flush=True)
    elif words[0] == "quit":
        break
"""
"""A legal but weak bot: always the leftmost column that is not full."""

BROKEN_BOTS = {
    "illegal": "import sys\nfor line in sys.stdin:\n    if line.startswith('go'):\n        print('bestmove 99', flush=True)\n",
    "crash": "import sys\nfor line in sys.stdin:\n    if line.startswith('go'):\n        sys.exit(3)\n",
    "hang": "import sys, time\nfor line in sys.stdin:\n    if line.startswith('go'):\n        time.sleep(600)\n",
}
EXPECTED_FAILURE = {"illegal": Failure.ILLEGAL_MOVE, "crash": Failure.CRASH, "hang": Failure.TIME}

NOISY_BOT = LEFTMOST_BOT.replace(
    'print("info depth 1 nodes 1 value 0", flush=True)',
    'sys.stdout.write("info " + "x" * 5_000_000 + "\\n"); sys.stdout.buffer.write(b"\\xff\\xfe junk\\n"); sys.stdout.flush()',
)
"""The leftmost bot, but before each answer a 5 MB line and a line that is not UTF-8."""


def replay(moves: tuple[int, ...], rules: Rules) -> Board:
    board = Board(rules)
    for move in moves:
        board.push(move)
    return board


# Where a test needs the same moves every run, the move time is far more than the levels
# use, so that a busy machine never cuts a search short.


@pytest.mark.slow
def test_match_between_two_levels_plays_each_opening_with_both_colours():
    rules = Rules()
    result = run_match(LevelPlayer("depth:4"), LevelPlayer("depth:1"), MatchPlan(rules, games=6, movetime=5.0))
    assert len(result.games) == 6
    assert result.wins + result.draws + result.losses == 6
    assert [g.opening for g in result.games] == [o for o in STANDARD_OPENINGS[:3] for _ in range(2)]
    assert [g.first for g in result.games] == [Side.A, Side.B] * 3
    for game in result.games:
        board = replay(game.moves, rules)
        assert board.moves_string().startswith(game.opening)
        outcome = board.outcome()
        assert outcome is not None  # every game is played to its end
        second = Side.B if game.first is Side.A else Side.A
        assert game.winner == {None: None, MAX: game.first, MIN: second}[outcome.winner]
        assert game.failure is None
    assert result.score > 0.5  # four plies ahead beats one
    assert result.mean_move_seconds(Side.A) > 0


@pytest.mark.slow
def test_match_on_another_board_uses_its_own_balanced_openings():
    rules = Rules(rows=5, cols=6, connect=4)
    result = run_match(LevelPlayer("depth:2"), LevelPlayer("easy"), MatchPlan(rules, games=4, movetime=0.3))
    chosen = openings(rules, 2)
    assert chosen == openings(rules, 2)  # deterministic
    assert [g.opening for g in result.games] == [chosen[0]] * 2 + [chosen[1]] * 2
    for game in result.games:
        assert replay(game.moves, rules).is_game_over()


def test_seed_shuffles_the_openings_reproducibly():
    assert openings(Rules(), 5, seed=7) == openings(Rules(), 5, seed=7)
    assert openings(Rules(), 5, seed=7) != openings(Rules(), 5)
    assert set(openings(Rules(), len(STANDARD_OPENINGS), seed=7)) == set(STANDARD_OPENINGS)


@pytest.mark.slow
def test_a_level_beats_an_external_engine_and_the_engine_moves_are_legal(tmp_path):
    bot = EnginePlayer(write_bot(tmp_path, "leftmost", LEFTMOST_BOT), name="leftmost")
    result = match_against(bot, "depth:4", games=4, movetime=5.0)
    assert result.wins == 4
    assert all(game.failure is None for game in result.games)
    assert result.mean_move_seconds(Side.B) > 0


@pytest.mark.slow
def test_external_engine_on_another_board_gets_the_rules(tmp_path):
    rules = Rules(rows=6, cols=9, connect=4)
    bot = EnginePlayer(write_bot(tmp_path, "leftmost", LEFTMOST_BOT), name="leftmost")
    try:
        game = play_game(LevelPlayer("depth:1"), bot, "", rules, a_first=False, movetime=0.3)
    finally:
        bot.close()
    assert game.failure is None
    assert replay(game.moves, rules).is_game_over()


@pytest.mark.parametrize("kind", ["illegal", "crash", "hang"])
@pytest.mark.slow
def test_a_broken_engine_loses_its_games_and_the_match_goes_on(tmp_path, kind):
    # only the hanging bot makes the runner wait out its clock: keep that one short
    clock = {"grace": 0.3, "startup": 1.0} if kind == "hang" else {}
    bot = EnginePlayer(write_bot(tmp_path, kind, BROKEN_BOTS[kind]), name=kind, **clock)
    result = match_against(bot)
    assert result.wins == 2
    assert result.failures(Side.B)[EXPECTED_FAILURE[kind]] == 2
    assert result.failures(Side.A) == {failure: 0 for failure in Failure}
    report = format_report(result)
    assert f"games lost by failure: 2 {EXPECTED_FAILURE[kind].value}" in report


def test_make_player_reads_levels_and_engine_commands():
    assert isinstance(make_player("Hard"), LevelPlayer)
    assert isinstance(make_player("depth:5"), LevelPlayer)
    player = make_player('engine:"python3 bot.py"')
    assert isinstance(player, EnginePlayer) and player.command == "python3 bot.py"
    with pytest.raises(ValueError, match="no program"):
        make_player("engine:/no/such/bot --fast")


def test_elo_is_zero_for_an_even_score_and_grows_with_it():
    assert elo(0.5, 100) == (0.0, pytest.approx(elo(0.5, 100)[1]))
    diff, error = elo(0.75, 100)
    assert diff == pytest.approx(190.8, abs=0.1)
    assert elo(0.25, 100)[0] == pytest.approx(-diff)
    assert elo(0.75, 400)[1] < error  # more games, a narrower bar
    assert elo(0.75, 100, draws=30)[1] < error  # draws are less noisy than wins and losses
    assert elo(1.0, 10) == (math.inf, math.inf)
    assert elo(0.0, 10)[0] == -math.inf


@pytest.mark.slow
def test_match_command_prints_the_report_and_writes_replayable_games(tmp_path):
    pgn = tmp_path / "games.pgn"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "match", "depth:2", "easy", "--games", "2", "--movetime", "200"]
        + ["--pgn", str(pgn)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for fragment in ("Match: depth:2 (A) vs easy (B)", "score", "Elo difference (A - B):", "ms per move", "Games"):
        assert fragment in out
    assert "2/2 games" in proc.stderr  # the progress bar
    games, problems = read_games(pgn.read_text())
    assert len(games) == 2 and not problems
    moves = [game.moves_string() for game in games]
    assert all(move_string in out for move_string in moves)
    analyze = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "analyze", moves[0]], capture_output=True, text=True, timeout=60
    )
    assert analyze.returncode == 0 and "The game is over" in analyze.stdout


@pytest.mark.slow
def test_match_command_refuses_unknown_players():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "match", "hard", "wizard"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "unknown level 'wizard'" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_pgn_has_tags_and_numbered_moves(tmp_path):
    result = run_match(LevelPlayer("depth:1"), LevelPlayer("depth:1"), MatchPlan(Rules(), games=1, movetime=0.2))
    path = tmp_path / "one.pgn"
    with path.open("w") as out:
        write_pgn(result, out, date="2026.11.22")
    text = path.read_text()
    assert '[Date "2026.11.22"]' in text and '[Opening "344"]' in text
    assert "1. 3 4 2. 4 " in text and text.rstrip().endswith(("1-0", "0-1", "1/2-1/2"))


@pytest.mark.slow
def test_the_same_seed_replays_the_same_match():
    def games(seed: int) -> list[tuple[int, ...]]:
        beginner, medium = make_player("beginner", seed=seed), make_player("medium", seed=seed)
        result = run_match(beginner, medium, MatchPlan(Rules(), games=2, movetime=5.0, seed=seed))
        return [game.moves for game in result.games]

    assert games(5) == games(5)


@pytest.mark.slow
def test_an_engine_flooding_its_output_still_plays(tmp_path):
    """Overlong and undecodable lines are skipped: the runner keeps at most
    ``MAX_ENGINE_LINE`` characters of a line and the engine's moves still count."""
    bot = EnginePlayer(write_bot(tmp_path, "noisy", NOISY_BOT), name="noisy")
    result = match_against(bot, movetime=1.0)
    assert result.failures(Side.B) == {failure: 0 for failure in Failure}
    assert all(replay(game.moves, Rules()).is_game_over() for game in result.games)


def test_the_output_reader_keeps_only_the_start_of_an_overlong_line():
    import io

    from game.bots.tournament import MAX_ENGINE_LINE, _Reader

    text = b"x" * (3 * MAX_ENGINE_LINE) + b"\nbestmove 3\nbestmove " + b"9" * (3 * MAX_ENGINE_LINE) + b"\n"
    reader = _Reader(io.BytesIO(text))
    assert reader.ended.wait(10)
    assert reader.get(1) == "bestmove 3\n"  # the long line that is not an answer is dropped whole
    assert reader.get(1) == "bestmove " + "9" * (MAX_ENGINE_LINE - len("bestmove "))
    assert reader.get(0) is None


def test_a_pgn_file_the_disk_refuses_is_said_in_a_clear_last_line(capsys):
    """Issue 32: ``match --pgn /dev/full`` played the match and exited 1, its only word on
    the failure lost among the progress lines."""
    from game.cli.main import main

    assert main(["match", "depth:1", "depth:1", "--games", "2", "--jobs", "1", "--pgn", "/dev/full"]) == 1
    captured = capsys.readouterr()
    assert "A: 0 wins" in captured.out or "Match: depth:1" in captured.out  # the report is all there
    last = captured.err.strip().splitlines()[-1]
    assert last == (
        "match: error: cannot write /dev/full: No space left on device; "
        "0 of 2 games written to it (the report above has them all)"
    ), captured.err
