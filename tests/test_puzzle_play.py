"""Playing puzzles, headless: one try (``PuzzleTry``: right steps, a wrong one, a hint that
counts as missed at once), Storm's clock and Streak's rules on a fake clock (neither stores
an attempt), the dashboard recomputed from stored attempts, the archive's schema 7 (an older
archive migrates and keeps everything), and ``puzzles --play`` / ``--theme`` / ``rating``."""

from __future__ import annotations

import io
import json
import random
import sqlite3

import pytest

from game.archive.database import FILE_NAME, MIGRATIONS, SCHEMA_VERSION, backup_path
from game.archive.puzzle_store import (
    PuzzleAttempt,
    add_own_puzzles,
    attempts,
    own_puzzles,
    record_attempt,
    tally_pages,
)
from game.archive.run_store import RunRecord, best_run, record_run
from game.archive.store import Archive
from game.cli.main import main
from game.learn.dashboard import MIN_ATTEMPTS, DashboardFold, DashboardRead, dashboard, practise, themes_by_id
from game.learn.puzzle_attempt import Played, PuzzleTry, TryResult
from game.learn.puzzle_runs import (
    MISS_SECONDS,
    STORM_SECONDS,
    StormRun,
    StreakRun,
    combo_bonus,
    rising_puzzles,
)
from game.learn.puzzle_set import shipped_puzzles
from game.learn.rating import player_rating
from game.puzzle_file import Goal, Puzzle, Theme, make_puzzle, parse_line, read_puzzles
from game.records import HUMAN, GameResult
from game.rules import STANDARD


class FakeClock:
    """Seconds that move only when the test says so."""

    def __init__(self, now: float = 100.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def one_step_puzzles() -> list[Puzzle]:
    """Shipped puzzles solved by one move, easiest first (a run's combo counts moves)."""
    return sorted((p for p in shipped_puzzles() if len(p.steps) == 1), key=lambda p: (p.rating, p.id))


def long_puzzle() -> Puzzle:
    return next(p for p in shipped_puzzles() if len(p.steps) >= 2)


def wrong_column(attempt: PuzzleTry) -> int:
    right = attempt.right_column()
    return next(c for c in attempt.board.legal_moves() if c != right)


def play_out(attempt: PuzzleTry, now: float) -> Played:
    """Play every right step, the replies coming when due."""
    played = Played.IGNORED
    while (right := attempt.right_column()) is not None:
        played = attempt.play(right, now)
        now += attempt.reply_delay
        attempt.advance(now)
    return played


# -- one try ----------------------------------------------------------------------------------
def test_a_try_played_right_is_solved_once_with_its_themes_and_time():
    puzzle = long_puzzle()
    attempt = PuzzleTry(puzzle, started=10.0)
    first = attempt.right_column()
    assert attempt.play(first, 12.0) is Played.RIGHT and attempt.result is None
    assert attempt.play(first, 12.1) is Played.IGNORED  # the reply is due, not the person's turn
    assert attempt.advance(12.0 + attempt.reply_delay / 2) is None
    assert attempt.advance(12.0 + attempt.reply_delay) == puzzle.line_moves[1]
    assert play_out(attempt, 20.0) is Played.SOLVED and attempt.solved and attempt.finished
    assert attempt.board.moves_string() == puzzle.moves + puzzle.line
    row = attempt.take_attempt(99.0)
    assert row is not None and (row.puzzle, row.solved, row.hints, row.score) == (puzzle.id, True, 0, 1.0)
    assert row.themes == puzzle.themes and row.seconds == pytest.approx(20.0 - 10.0, abs=1.0)
    assert attempt.take_attempt(100.0) is None  # handed over once


def test_a_wrong_move_is_missed_shows_its_refutation_then_the_right_move():
    puzzle = shipped_puzzles()[0]
    attempt = PuzzleTry(puzzle, started=0.0)
    right, wrong = attempt.right_column(), wrong_column(attempt)
    assert attempt.play(wrong, 1.0) is Played.WRONG and attempt.missed
    assert attempt.play(right, 1.5) is Played.IGNORED  # the wrong disc is on the board
    reply = next(c for c in attempt.board.legal_moves())
    assert attempt.refute(None, reply) == reply and len(attempt.board.moves) == len(puzzle.moves) + 2
    assert attempt.show_right_move() == right
    assert attempt.board.moves_string() == puzzle.moves + str(right + 1) and attempt.finished
    row = attempt.take_attempt(5.0)
    assert row is not None and (row.solved, row.score, row.seconds) == (False, 0.0, 1.0)


def test_a_hint_counts_the_try_as_missed_at_once_and_playing_on_changes_nothing():
    """Issue 52: a hint followed by N cost no rating, though the hint said the puzzle counts
    as missed.  The result is decided at the hint, so leaving then costs what it said."""
    puzzle = long_puzzle()
    attempt = PuzzleTry(puzzle, started=0.0)
    right = attempt.right_column()
    assert attempt.take_hint(3.0) == right and attempt.hint_column == right
    row = attempt.take_attempt(3.0)
    assert row is not None and (row.solved, row.hints, row.score) == (False, 1, 0.0)
    assert play_out(attempt, 4.0) is Played.SOLVED  # played out: "done with a hint"
    assert attempt.result is TryResult.MISSED and attempt.take_attempt(9.0) is None


def test_a_full_column_is_refused_and_changes_nothing():
    puzzle = make_puzzle([0] * 6, Goal.WIN, [3], 900, "game")  # column 1 full
    attempt = PuzzleTry(puzzle, started=0.0)
    assert attempt.play(0, 1.0) is Played.ILLEGAL and attempt.result is None and attempt.step == 0
    assert attempt.board.moves_string() == "111111"


# -- Storm and Streak on a fake clock ---------------------------------------------------------
def test_storm_adds_3_5_7_10_seconds_at_combos_of_5_12_20_30_and_every_10_after():
    assert [combo_bonus(n) for n in (4, 5, 6, 12, 20, 30, 31, 40, 50)] == [0, 3, 0, 5, 7, 10, 0, 10, 10]
    clock = FakeClock()
    puzzles = one_step_puzzles()
    assert len(puzzles) >= 41
    run = StormRun(puzzles, clock)
    assert run.remaining() == STORM_SECONDS
    gained = []
    for number in range(1, 41):
        before = run.remaining()
        assert run.play(run.current.right_column()) is Played.SOLVED
        gained.append((number, run.remaining() - before))
    assert [n for n, seconds in gained if seconds] == [5, 12, 20, 30, 40]
    assert dict(gained)[5] == 3 and dict(gained)[12] == 5 and dict(gained)[20] == 7 and dict(gained)[30] == 10
    assert run.score == 40 and run.combo == run.best_combo == 40


def test_storm_takes_10_seconds_a_miss_ends_the_combo_and_ends_at_zero():
    clock = FakeClock()
    run = StormRun(one_step_puzzles(), clock)
    for _ in range(4):
        run.play(run.current.right_column())
    first = run.current.puzzle
    assert run.play(wrong_column(run.current)) is Played.WRONG
    assert run.remaining() == STORM_SECONDS - MISS_SECONDS and run.combo == 0 and run.best_combo == 4
    assert run.current.puzzle is not first  # on to the next puzzle
    clock.now += run.remaining() - 0.5
    assert not run.over and run.play(run.current.right_column()) is Played.SOLVED
    clock.now += 1.0
    assert run.remaining() == 0.0
    assert run.play(run.current.right_column()) is Played.IGNORED and run.over
    record = run.record()
    assert record is not None and (record.kind, record.score, record.missed) == ("storm", 5, 1)
    assert record.seconds == pytest.approx(STORM_SECONDS - MISS_SECONDS)


def test_storm_ends_when_a_miss_takes_the_clock_below_zero():
    clock = FakeClock()
    run = StormRun(one_step_puzzles(), clock)
    clock.now += STORM_SECONDS - 5
    assert run.play(wrong_column(run.current)) is Played.WRONG and run.over and run.remaining() == 0


def test_a_run_goes_from_easy_to_hard():
    puzzles = shipped_puzzles()
    for seed in range(5):
        chosen = rising_puzzles(puzzles, 120, seed)
        ratings = [p.rating for p in chosen]
        assert ratings == sorted(ratings) and len(chosen) == 120
        assert ratings[0] < 1000 and ratings[-1] > 1800
    assert rising_puzzles(puzzles, 120, 1) != rising_puzzles(puzzles, 120, 2)


def test_streak_rises_in_difficulty_skips_once_and_stops_at_the_first_miss():
    clock = FakeClock()
    run = StreakRun(rising_puzzles(shipped_puzzles(), 120, 7), clock)
    served = [run.current.puzzle.rating]
    assert run.skip() and not run.skip() and not run.can_skip  # one skip a run
    served.append(run.current.puzzle.rating)
    for _ in range(6):
        play_out_run(run, clock)
        served.append(run.current.puzzle.rating)
    assert served == sorted(served), "the difficulty went down within the run"
    assert run.score == 6 and not run.over
    assert run.play(wrong_column(run.current)) is Played.WRONG and run.over
    assert run.play(0) is Played.IGNORED
    record = run.record()
    assert record is not None and (record.kind, record.score, record.missed) == ("streak", 6, 1)


def play_out_run(run, clock: FakeClock) -> None:
    """Solve the run's current puzzle, the replies coming as the clock moves."""
    current = run.current
    while run.current is current and not run.over:
        right = current.right_column()
        if right is None:
            clock.now += 1.0
            run.tick()
            continue
        run.play(right)


def test_neither_run_changes_the_rating_and_the_best_run_is_kept(tmp_path):
    archive = Archive.open(tmp_path)
    before = player_rating(archive.games(), attempts(archive))
    clock = FakeClock()
    storm = StormRun(one_step_puzzles(), clock)
    for _ in range(3):
        storm.play(storm.current.right_column())
    storm.play(wrong_column(storm.current))
    clock.now += STORM_SECONDS
    storm.tick()
    streak_run = StreakRun(rising_puzzles(shipped_puzzles(), 50, 3), clock)
    play_out_run(streak_run, clock)
    streak_run.play(wrong_column(streak_run.current))
    for run in (storm, streak_run):
        record = run.record()
        assert record is not None and record_run(archive, record)
    assert record_run(archive, RunRecord("storm", 5.0, 1, 0, 1, 180.0))
    assert attempts(archive) == []  # no attempt stored: the rating cannot move
    after = player_rating(archive.games(), attempts(archive))
    assert after.current == before.current and after.puzzles == 0
    best = best_run(archive, "storm")
    assert best is not None and best.score == 3 and best_run(archive, "streak").score == 1
    assert not record_run(archive, RunRecord("marathon", 5.0, 1, 0, 1, 1.0))


# -- the dashboard ----------------------------------------------------------------------------
def store_random_attempts(archive: Archive, count: int, seed: int) -> list[PuzzleAttempt]:
    rng = random.Random(seed)
    puzzles = [p for p in shipped_puzzles() if p.themes]
    kept = []
    for number in range(count):
        puzzle = rng.choice(puzzles)
        row = PuzzleAttempt(
            1000.0 + number, puzzle.id, puzzle.rating, rng.random() < 0.6, int(rng.random() < 0.2), puzzle.themes, 9.0
        )
        assert record_attempt(archive, row)
        kept.append(row)
    return kept


def test_the_dashboard_is_the_stored_attempts_counted_by_theme(tmp_path):
    archive = Archive.open(tmp_path)
    store_random_attempts(archive, 160, seed=5)
    stored = attempts(archive)
    expected = {}
    for theme in Theme:  # recomputed here, plainly, from what the archive holds
        mine = [a for a in stored if theme in a.themes]
        expected[theme] = (len(mine), sum(a.solved and a.hints == 0 for a in mine))
    fold = DashboardFold()
    for page in tally_pages(archive, page=7):
        fold.add(page)
    found = fold.dashboard()
    assert {r.theme: (r.attempts, r.solved) for r in found.records} == expected
    for record in found.records:
        if record.attempts < MIN_ATTEMPTS:
            assert record.rate is None and record.too_few
        else:
            assert record.rate == pytest.approx(record.solved / record.attempts)
    rated = [r for r in found.records if r.rate is not None]
    assert found.strongest == max(rated, key=lambda r: (r.rate, r.attempts)).theme
    assert found.weakest == min(rated, key=lambda r: (r.rate, -r.attempts)).theme
    archive.close()
    printed = json.loads(run_cli("rating", "--json", "--home", str(tmp_path)))
    assert printed["themes"] == {
        r.theme.value: {"attempts": r.attempts, "solved": r.solved, "rate": r.rate} for r in found.records
    }
    assert (printed["strongest"], printed["weakest"]) == (found.strongest.value, found.weakest.value)


def test_no_rate_under_five_attempts_and_no_strongest_with_one_theme():
    draw = (Theme.SAVE_THE_DRAW,)
    outcomes = [PuzzleAttempt(float(n), "0badc0de", 900, n % 2 == 0, themes=draw) for n in range(4)]
    found = dashboard(outcomes)
    record = found.record(Theme.SAVE_THE_DRAW)
    assert (record.attempts, record.solved, record.rate) == (4, 2, None)
    found = dashboard([*outcomes, PuzzleAttempt(9.0, "0badc0de", 900, True, themes=draw)])
    assert found.record(Theme.SAVE_THE_DRAW).rate == pytest.approx(0.6)
    assert found.strongest is None and found.weakest is None  # one theme with a rate: nothing to compare


def test_an_older_attempt_takes_its_puzzles_themes_from_the_set():
    puzzle = next(p for p in shipped_puzzles() if len(p.themes) >= 2)
    old = PuzzleAttempt(1.0, puzzle.id, puzzle.rating, True)  # stored before attempts kept themes
    found = dashboard([old], themes_by_id(shipped_puzzles()))
    assert {r.theme for r in found.records if r.attempts} == set(puzzle.themes)


def test_the_dashboard_read_in_steps_takes_in_what_is_stored_meanwhile(tmp_path):
    archive = Archive.open(tmp_path)
    store_random_attempts(archive, 30, seed=2)
    reading = DashboardRead(tally_pages(archive, page=4), themes_by_id(shipped_puzzles()))
    assert not reading.step(0.0) and reading.dashboard() is None  # one page, then the budget is spent
    store_random_attempts(archive, 1, seed=9)  # stored while the read goes on: read with the pages
    while not reading.step(0.0):
        pass
    assert reading.dashboard().attempts == 31


def test_practise_opens_puzzles_of_the_theme_near_the_rating():
    for theme in Theme:
        found = practise(shipped_puzzles(), theme, 1500, 5, seed=1)
        assert found and all(theme in p.themes for p in found)


# -- the archive's schema 7 -------------------------------------------------------------------
def test_an_archive_of_schema_6_migrates_and_keeps_its_games_attempts_and_own_puzzles(tmp_path):
    connection = sqlite3.connect(tmp_path / FILE_NAME)
    for step in MIGRATIONS[:6]:
        for statement in step:
            connection.execute(statement)
    connection.execute("PRAGMA user_version = 6")
    connection.execute(
        "INSERT INTO games (played_at, rules, first, second, moves, result) VALUES (1.0, ?, 'human', 'Easy', '4455667', '1')",
        ('{"rows": 6, "cols": 7, "connect": 4, "gravity": true, "mode": "classic"}',),
    )
    puzzle = shipped_puzzles()[3]
    connection.execute(
        "INSERT INTO puzzle_attempts (tried_at, puzzle, puzzle_rating, solved, hints) VALUES (5.0, ?, ?, 1, 0)",
        (puzzle.id, puzzle.rating),
    )
    own = parse_line(" ".join(puzzle.to_line().split()[:6]))  # a line as schema 6 kept it: no themes
    connection.execute(
        "INSERT INTO my_puzzles (puzzle, game_id, found_at, line) VALUES (?, 1, 2.0, ?)", (own.id, own.to_line())
    )
    connection.commit()
    connection.close()
    archive = Archive.open(tmp_path)
    assert archive.warning is None and SCHEMA_VERSION == 7
    assert archive.connection.execute("PRAGMA user_version").fetchone()[0] == 7
    assert backup_path(tmp_path / FILE_NAME, 6).is_file()
    assert [g.moves_string for g in archive.games()] == ["4455667"]
    kept = attempts(archive)
    assert [(a.puzzle, a.solved, a.themes, a.seconds) for a in kept] == [(puzzle.id, True, (), None)]
    assert [p.id for p in own_puzzles(archive)] == [own.id] and own_puzzles(archive)[0].themes == ()
    assert record_attempt(archive, PuzzleAttempt(6.0, puzzle.id, puzzle.rating, False, 1, puzzle.themes, 4.5))
    assert attempts(archive)[-1].themes == puzzle.themes and attempts(archive)[-1].seconds == 4.5
    assert record_run(archive, RunRecord("streak", 7.0, 4, 1, 4, 60.0)) and best_run(archive, "streak").score == 4
    fold = DashboardFold(themes_by_id(shipped_puzzles()))
    for page in tally_pages(archive):
        fold.add(page)
    found = fold.dashboard()
    assert found.attempts == 2 and all(found.record(t).attempts == 2 for t in puzzle.themes)


# -- the set's file ---------------------------------------------------------------------------
def test_an_older_set_without_themes_still_loads_beside_a_newer_one(tmp_path):
    path = tmp_path / "puzzles.txt"
    old = shipped_puzzles()[0]
    six = " ".join(old.to_line().split()[:6])
    path.write_text(f"# an older set\n{six}\n{old.to_line()}\n", encoding="utf-8")
    first, second = read_puzzles(path)
    assert first.themes == () and second.themes == old.themes and first.moves == second.moves
    assert first.to_json()["themes"] == [] and second.to_json()["themes"] == [t.value for t in old.themes]
    with pytest.raises(ValueError, match="'sneaky' is no theme"):
        parse_line(six + " zugzwang,sneaky")
    made = make_puzzle([3, 3], Goal.WIN, [2], 900, "game", [Theme.ZUGZWANG, Theme.WIN_NOW])
    assert made.themes == (Theme.WIN_NOW, Theme.ZUGZWANG) and parse_line(made.to_line()) == made


# -- the command line -------------------------------------------------------------------------
def run_cli(*args: str, stdin: str = "") -> str:
    out = io.StringIO()
    assert main(list(args), stdout=out, stdin=io.StringIO(stdin)) == 0
    return out.getvalue()


def test_puzzles_json_lists_themes_and_theme_picks_only_that_theme(tmp_path):
    home = str(tmp_path)
    every = json.loads(run_cli("puzzles", "--json", "--count", "20", "--rating", "1500", "--home", home))
    assert all(p["themes"] and set(p["themes"]) <= {t.value for t in Theme} for p in every["puzzles"])
    for theme in Theme:
        found = json.loads(run_cli("puzzles", "--json", "--theme", theme.value, "--count", "5", "--home", home))
        assert len(found["puzzles"]) == 5 and all(theme.value in p["themes"] for p in found["puzzles"])


def test_an_unknown_theme_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as done:
        main(["puzzles", "--theme", "fork"])
    assert done.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--theme" in said and "fork" in said and "Traceback" not in said


def test_puzzles_play_solves_a_puzzle_in_the_terminal_and_rates_it(tmp_path):
    home = str(tmp_path)
    puzzle = json.loads(run_cli("puzzles", "--json", "--count", "1", "--seed", "4", "--home", home))["puzzles"][0]
    full = next(p for p in shipped_puzzles() if p.id == puzzle["id"])
    said = run_cli(
        "puzzles",
        "--play",
        "--count",
        "1",
        "--seed",
        "4",
        "--home",
        home,
        stdin="\n".join(str(c + 1) for c in full.steps) + "\n",
    )
    assert said.count("Solved") == 1 and "Rating 1,500 -> " in said
    archive = Archive.open(tmp_path)
    assert [(a.puzzle, a.solved, a.themes) for a in attempts(archive)] == [(full.id, True, full.themes)]


def test_puzzles_play_a_hint_then_leaving_counts_as_missed(tmp_path):
    """Issue 52 on the command line: a hint, then q (as N in the window) is a miss."""
    said = run_cli("puzzles", "--play", "--count", "1", "--home", str(tmp_path), stdin="h\nq\n")
    assert "counts as missed: rating 1,500 -> " in said
    kept = attempts(Archive.open(tmp_path))
    assert [(a.solved, a.hints, a.score) for a in kept] == [(False, 1, 0.0)]


def test_puzzles_play_a_wrong_move_says_why_and_the_right_one(tmp_path):
    found = json.loads(run_cli("puzzles", "--json", "--count", "1", "--home", str(tmp_path)))["puzzles"][0]
    puzzle = next(p for p in shipped_puzzles() if p.id == found["id"])
    wrong = next(c for c in puzzle.board().legal_moves() if c != puzzle.steps[0])
    said = run_cli("puzzles", "--play", "--count", "1", "--home", str(tmp_path), stdin=f"{wrong + 1}\n")
    assert f"Column {wrong + 1} fails: " in said and "Why: " in said
    assert f"The right move was column {puzzle.solution}." in said
    kept = attempts(Archive.open(tmp_path))
    assert [(a.puzzle, a.solved) for a in kept] == [(puzzle.id, False)]


def test_own_puzzles_get_their_themes(tmp_path):
    """A reviewed game whose mistake was played where a shipped puzzle starts: the puzzle
    found in it has the shipped puzzle's themes (the same classifier)."""
    puzzle = next(p for p in shipped_puzzles() if len(p.moves) % 2 == 0 and len(p.moves) > 20)
    board = puzzle.board()
    board.push(next(c for c in board.legal_moves() if c != puzzle.steps[0]))
    archive = Archive.open(tmp_path)
    review = {"exact": True, "mistakes": [len(puzzle.moves) + 1]}
    archive.add_game(STANDARD, board.moves, GameResult.SECOND, first=HUMAN, second="Medium", review=review)
    archive.close()
    found = json.loads(run_cli("puzzles", "--mine", "--json", "--home", str(tmp_path)))["puzzles"]
    assert [(p["moves"], p["themes"]) for p in found] == [(puzzle.moves, [t.value for t in puzzle.themes])]
    assert add_own_puzzles(Archive.open(tmp_path), []) == 0


def test_the_rating_command_says_the_strengths(tmp_path):
    archive = Archive.open(tmp_path)
    store_random_attempts(archive, 80, seed=11)
    archive.close()
    said = run_cli("rating", "--home", str(tmp_path))
    assert "Strongest: " in said and "weakest: " in said and "solved" in said
