"""The player's Glicko-2 rating: Glickman's worked example, the archive's games and puzzles
in order, the ``rating`` command, and the archive's schema 6 (backed up before it)."""

from __future__ import annotations

import io
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ai.ladder import LEVEL_RATINGS
from game.app.rating_keeper import PAGE, RatingKeeper
from game.archive.database import FILE_NAME, MIGRATIONS, SCHEMA_VERSION, backup_path
from game.archive.puzzle_store import PuzzleAttempt, attempts, record_attempt
from game.archive.store import Archive
from game.board import Board
from game.learn.glicko import MAX_VOLATILITY, Glicko, Result, rate
from game.learn.rating import PlayerRating, change_text, player_rating, puzzle_event, replay, streak
from game.records import HUMAN, GameResult
from game.rules import STANDARD, Rules

ROOT = Path(__file__).resolve().parent.parent
WIN_AS_FIRST = "4455667"  # player 1 makes four on the bottom row
WIN_AS_SECOND = "14152627"  # player 2 does


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won),
    1550/100 (lost), 1700/300 (lost) gives 1464.06, 151.52 and 0.05999."""
    after = rate(Glicko(1500, 200, 0.06), [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    after = rate(Glicko(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.deviation == pytest.approx(
        100.0 * (1 + 0.06**2 * 173.7178**2 / 100**2) ** 0.5
    )


def add_games(archive: Archive, level: str, result: GameResult, count: int, *, start: float = 1000.0) -> None:
    """``count`` games between the person (player 1) and ``level``."""
    moves = Board.from_moves(WIN_AS_FIRST if result is GameResult.FIRST else WIN_AS_SECOND).moves
    for number in range(count):
        archive.add_game(STANDARD, moves, result, first=HUMAN, second=level, played_at=start + number)


def rating_of(home: Path) -> dict[str, int]:
    done = run_main("rating", "--json", "--home", str(home))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_beating_expert_six_times_rates_300_above_losing_to_beginner_six_times(tmp_path):
    strong, weak = tmp_path / "strong", tmp_path / "weak"
    add_games(Archive.open(strong), "Expert", GameResult.FIRST, 6)
    add_games(Archive.open(weak), "Beginner", GameResult.SECOND, 6)
    high, low = rating_of(strong), rating_of(weak)
    assert high["games"] == low["games"] == 6 and high["puzzles"] == 0
    assert high["rating"] - low["rating"] >= 300, (high, low)
    assert high["rating"] > LEVEL_RATINGS["Hard"] and low["rating"] < LEVEL_RATINGS["Medium"]


RATING_KEYS = ("rating", "deviation", "games", "puzzles", "skipped")
"""What ``rating --json`` says of the rating (beside it: the solve rate per theme)."""


def test_a_new_player_starts_in_the_middle_with_a_wide_deviation(tmp_path):
    said = rating_of(tmp_path)
    assert {key: said[key] for key in RATING_KEYS} == {
        "rating": 1500,
        "deviation": 350,
        "games": 0,
        "puzzles": 0,
        "skipped": 0,
    }
    assert said["strongest"] is None and all(theme["rate"] is None for theme in said["themes"].values())


def test_two_player_computer_games_and_other_boards_do_not_count(tmp_path):
    archive = Archive.open(tmp_path)
    moves = Board.from_moves(WIN_AS_FIRST).moves
    archive.add_game(STANDARD, moves, GameResult.FIRST, first=HUMAN, second=HUMAN)
    archive.add_game(STANDARD, moves, GameResult.FIRST, first="Hard", second="Expert")
    seven = Rules(rows=7, cols=8)
    archive.add_game(seven, Board.from_moves(WIN_AS_FIRST, seven).moves, GameResult.FIRST, first=HUMAN, second="Expert")
    archive.close()
    assert rating_of(tmp_path)["games"] == 0


def test_imported_games_count_like_games_played_here(tmp_path):
    played = tmp_path / "played"
    add_games(Archive.open(played), "Hard", GameResult.FIRST, 3)
    game = '[Rules "6x7, connect 4"]\n[First "human"]\n[Second "Hard"]\n[Result "1-0"]\n[Timestamp "{at}"]\n\n4455667 1-0\n'
    exported = tmp_path / "games.c4"
    exported.write_text("\n".join(game.format(at=1000.0 + n) for n in range(3)), encoding="utf-8")
    imported = tmp_path / "imported"
    done = run_main("games", "--home", str(imported), "--import", str(exported))
    assert done.returncode == 0, done.stderr
    assert rating_of(imported) == rating_of(played) and rating_of(played)["games"] == 3


def test_puzzles_move_the_rating_and_a_hint_makes_a_solve_a_miss(tmp_path):
    archive = Archive.open(tmp_path)
    assert record_attempt(archive, PuzzleAttempt(10.0, "aaaa0001", 1500, solved=True))
    assert record_attempt(archive, PuzzleAttempt(20.0, "aaaa0002", 1500, solved=True, hints=1))
    kept = attempts(archive)
    assert [a.score for a in kept] == [1.0, 0.0]
    rated = player_rating([], kept)
    first, second = rated.history
    assert first.after.rating > first.before.rating and second.after.rating < second.before.rating
    assert streak(kept) == 0 and streak(kept[:1]) == 1
    archive.close()
    assert rating_of(tmp_path)["puzzles"] == 2


def test_the_change_reads_like_the_game_says_it():
    assert change_text(1480.4, 1511.6) == "1,480 -> 1,512"


def test_schema_4_is_backed_up_then_gets_the_puzzle_tables(tmp_path):
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    for step in MIGRATIONS[:4]:
        for statement in step:
            connection.execute(statement)
    connection.execute("PRAGMA user_version = 4")
    connection.execute(
        "INSERT INTO games (played_at, rules, first, second, moves, result) VALUES (1.0, ?, 'human', 'Easy', '4455667', '1')",
        ('{"rows": 6, "cols": 7, "connect": 4, "gravity": true, "mode": "classic"}',),
    )
    connection.commit()
    connection.close()
    archive = Archive.open(tmp_path)
    assert archive.warning is None and SCHEMA_VERSION >= 5
    assert backup_path(tmp_path / FILE_NAME, 4).is_file()
    assert record_attempt(archive, PuzzleAttempt(5.0, "abcd1234", 1200, solved=False))
    assert len(archive.games()) == 1 and len(attempts(archive)) == 1
    archive.close()
    assert rating_of(tmp_path) == {**rating_of(tmp_path), "games": 1, "puzzles": 1}


def test_an_archive_only_read_has_no_attempts_and_takes_none(tmp_path):
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    for step in MIGRATIONS[:4]:
        for statement in step:
            connection.execute(statement)
    connection.execute("PRAGMA user_version = 99")  # a newer version's file: only read
    connection.commit()
    connection.close()
    archive = Archive.open(tmp_path)
    assert not archive.writable
    assert attempts(archive) == [] and not record_attempt(archive, PuzzleAttempt(5.0, "abcd1234", 1200, solved=True))


def test_rating_and_puzzles_make_no_home_where_none_is(tmp_path):
    """Reading commands make no archive (issue 38): `rating --home MISSING` made the folder."""
    from game.cli.main import main

    missing = tmp_path / "missing"
    assert main(["rating", "--json", "--home", str(missing)], stdout=io.StringIO()) == 0
    assert main(["puzzles", "--json", "--count", "1", "--home", str(missing)], stdout=io.StringIO()) == 0
    assert not missing.exists()


def test_a_new_rating_is_provisional_until_the_results_have_settled_it():
    """A new player who misses a puzzle rated 816 drops from 1,500 to about 880: the screens
    say "provisional" beside such a rating, until the deviation is below 110."""
    first = PuzzleAttempt(1.0, "aaaa0001", 816, solved=False)
    rated = player_rating([], [first])
    assert rated.provisional and 850 < rated.rating < 910
    settled = [PuzzleAttempt(float(n), f"b{n:07d}", 900 + (n % 2) * 40, solved=n % 3 != 0) for n in range(2, 40)]
    rated = player_rating([], [first, *settled])
    assert not rated.provisional and rated.deviation <= 110
    assert player_rating([], [first, *settled[:3]]).provisional


def test_the_rating_command_says_a_new_rating_is_provisional(tmp_path):
    done = run_main("rating", "--home", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Rating 1,500 (provisional, deviation 350), from 0 games and 0 puzzles.\n"


def test_rows_whose_time_is_no_date_do_not_count_and_rating_says_how_many(tmp_path):
    """A damaged file may hold an attempt at +inf or -inf: it must not move the rating (at
    +inf it would be the newest of all), and ``rating`` says how many rows it left out."""
    archive = Archive.open(tmp_path)
    for at in (10.0, 20.0):
        assert record_attempt(archive, PuzzleAttempt(at, f"good{at:04.0f}", 1500, solved=True))
    with archive.connection:
        for at in (float("inf"), float("-inf")):
            archive.connection.execute(
                "INSERT INTO puzzle_attempts (tried_at, puzzle, puzzle_rating, solved, hints) VALUES (?, 'bad', 2400, 0, 0)",
                (at,),
            )
    archive.close()
    good = player_rating([], [PuzzleAttempt(10.0, "a", 1500, True), PuzzleAttempt(20.0, "b", 1500, True)])
    done = run_main("rating", "--json", "--home", str(tmp_path))
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert {key: said[key] for key in RATING_KEYS} == {
        "rating": good.rating,
        "deviation": good.deviation,
        "games": 0,
        "puzzles": 2,
        "skipped": 2,
    }
    assert "2 stored puzzle attempts were left out" in done.stderr, done.stderr


def _everything(archive: Archive) -> PlayerRating:
    """The rating replayed from scratch, as ``rating`` does."""
    return player_rating([r for r in archive.games() if r.id is not None], attempts(archive))


def test_the_windows_rating_keeper_takes_in_only_what_is_new(tmp_path):
    """The window replays the archive once and then folds in each new game and attempt: the
    same rating as a replay from scratch, step by step; a game imported with an older date
    replays it all again."""
    archive = Archive.open(tmp_path)
    add_games(archive, "Hard", GameResult.FIRST, 3, start=100.0)
    for number in range(40):
        record_attempt(archive, PuzzleAttempt(200.0 + number, f"p{number:07d}", 1400 + 20 * number, number % 3 != 0))
    keeper = RatingKeeper(archive)
    assert keeper.refresh() == _everything(archive)  # small: replayed at once
    record_attempt(archive, PuzzleAttempt(500.0, "new00001", 1700, solved=True))
    add_games(archive, "Expert", GameResult.SECOND, 1, start=600.0)
    assert keeper.refresh() == _everything(archive) and not keeper.replaying  # folded in, no replay
    add_games(archive, "Medium", GameResult.FIRST, 2, start=150.0)  # imported: older than the last event
    assert keeper.refresh() == _everything(archive)
    assert keeper.refresh().games == 6 and keeper.refresh().puzzles == 41


def test_a_big_archive_is_replayed_a_page_a_frame(tmp_path):
    """20,000 attempts: the first ask starts the replay and answers None (the screens show
    the start rating), each step stays short, and the end is the replay from scratch."""
    archive = Archive.open(tmp_path)
    archive.connection.execute("BEGIN")  # one transaction (the archive's connection commits each statement)
    archive.connection.executemany(
        "INSERT INTO puzzle_attempts (tried_at, puzzle, puzzle_rating, solved, hints) VALUES (?, ?, ?, ?, 0)",
        [(1000.0 + n, f"p{n:07d}", 800 + (n * 37) % 1600, int(n % 5 < 2)) for n in range(20_000)],
    )
    archive.connection.execute("COMMIT")
    add_games(archive, "Hard", GameResult.SECOND, 3, start=5000.0)
    keeper = RatingKeeper(archive)
    assert keeper.refresh() is None and keeper.replaying
    steps = 0
    while not keeper.step(0.0):  # no time to spend: one page a step
        steps += 1
    assert steps >= 5 and steps <= 20_000 // PAGE
    assert keeper.refresh() == _everything(archive)


def test_results_that_do_not_follow_the_ratings_keep_a_finite_rating():
    """Coin-flip results against puzzles of every rating: the volatility grew without end
    and after 8,821 attempts the rating overflowed (the title screen crashed).  It stays
    at most 0.1 now, and the rating finite and sane."""
    rng = random.Random(1)
    events = [
        puzzle_event(float(n), f"p{n}", rng.randrange(800, 2400), float(rng.random() < 0.5)) for n in range(12_000)
    ]
    rated = replay(events)
    assert rated.current.volatility <= MAX_VOLATILITY and 1000 < rated.rating < 2000 and rated.deviation < 350
