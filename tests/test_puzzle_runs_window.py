"""Storm, Streak and the puzzle themes in the real App: reached from the puzzle screen through
the router, played with keys, the run kept in the archive and the rating left alone; the
themes screen shows the rates recomputed from the stored attempts (no rate under five) and
plays the chosen theme."""

from __future__ import annotations

import pygame

from game.app.scenes.puzzle_themes import THEMES, PuzzleThemesScene
from game.app.scenes.puzzles import PuzzlesScene
from game.app.scenes.storm import StormScene
from game.app.scenes.streak import StreakScene
from game.app.scenes.title import TitleScene
from game.archive.puzzle_store import PuzzleAttempt, attempts, record_attempt
from game.archive.run_store import best_run
from game.learn.puzzle_set import shipped_puzzles
from game.learn.puzzle_words import Source
from game.learn.rating import player_rating
from game.puzzle_file import Theme
from tests.ui import FRAME, press, step


def open_from_puzzles(app, key: int):
    app.stack.push(TitleScene())
    app.stack.push(PuzzlesScene(seed=3))
    step(app, 2)
    press(app, key, frames=2)
    return app.stack.top


def solve_current(app, scene) -> None:
    """Play the run's current puzzle right, frame by frame (the replies come as time goes)."""
    current = scene.run.current
    while scene.run.current is current and not scene.run.over:
        right = current.right_column()
        if right is None:
            step(app)
        else:
            press(app, pygame.K_1 + right)


def test_storm_runs_three_minutes_keeps_its_score_and_leaves_the_rating_alone(app):
    scene = open_from_puzzles(app, pygame.K_s)
    assert isinstance(scene, StormScene) and scene.run is None
    assert "Unrated" in scene.said and "+3 s at 5" in scene.said
    press(app, pygame.K_1)  # before the start: nothing is played
    assert scene.run is None
    press(app, pygame.K_SPACE)
    run = scene.run
    assert run is not None and run.remaining() == 180.0
    for _ in range(5):
        solve_current(app, scene)
    assert run.score == 5 and run.combo >= 5 and "left · solved 5" in scene.header()[1]
    wrong = next(c for c in run.current.board.legal_moves() if c != run.current.right_column())
    press(app, pygame.K_1 + wrong)
    assert scene.said.startswith(f"Column {wrong + 1} was wrong: -10 s") and run.combo == 0
    left = run.remaining()
    app.step([], left + 1.0)  # the clock runs out
    step(app)
    assert run.over and scene.said.startswith("Time is up: 5 puzzles solved.")
    assert best_run(app.archive, "storm").score == 5
    assert attempts(app.archive) == [] and player_rating(app.archive.games(), []).rating == 1500
    press(app, pygame.K_ESCAPE, frames=2)
    puzzles = app.stack.top
    assert isinstance(puzzles, PuzzlesScene) and puzzles.rating == 1500


def test_streak_ends_at_the_first_miss_shows_the_right_move_and_keeps_the_best(app):
    scene = open_from_puzzles(app, pygame.K_k)
    assert isinstance(scene, StreakScene)
    press(app, pygame.K_RETURN)
    run = scene.run
    press(app, pygame.K_s)
    assert run.skipped and "Skipped" in scene.said
    press(app, pygame.K_s)
    assert run.index == 2  # one skip a run
    solve_current(app, scene)
    solve_current(app, scene)
    current = run.current
    right = current.right_column()
    wrong = next(c for c in current.board.legal_moves() if c != right)
    press(app, pygame.K_1 + wrong, frames=2)
    assert run.over and scene.said.startswith(f"Column {wrong + 1} was wrong: the right move was column {right + 1}.")
    assert "The streak ends at 2 puzzles." in scene.said and "best run so far" in scene.said
    shown = current.puzzle.moves + current.puzzle.line[: current.step] + str(right + 1)
    assert current.board.moves_string() == shown  # the wrong disc taken back, the right one played
    assert best_run(app.archive, "streak").score == 2 and attempts(app.archive) == []
    press(app, pygame.K_SPACE)  # another run
    assert scene.run is not run and not scene.run.over and not scene.run.skipped


def test_the_themes_screen_shows_the_stored_rates_and_plays_the_chosen_theme(app):
    puzzles = [p for p in shipped_puzzles() if Theme.DOUBLE_THREAT in p.themes]
    for number, puzzle in enumerate(puzzles[:6]):  # six tries of double threats: a rate, 4 of 6
        record_attempt(
            app.archive, PuzzleAttempt(100.0 + number, puzzle.id, puzzle.rating, number < 4, 0, puzzle.themes)
        )
    draw = next(p for p in shipped_puzzles() if Theme.SAVE_THE_DRAW in p.themes and Theme.DOUBLE_THREAT not in p.themes)
    record_attempt(app.archive, PuzzleAttempt(200.0, draw.id, draw.rating, False, 0, draw.themes))
    scene = open_from_puzzles(app, pygame.K_t)
    assert isinstance(scene, PuzzleThemesScene)
    step(app, 3)
    board = scene.dashboard()
    assert board is not None
    double = board.record(Theme.DOUBLE_THREAT)
    assert (double.attempts, double.solved, double.rate) == (6, 4, 4 / 6)
    said = scene.status_line()
    assert said.startswith("Puzzle themes.")
    scene.selected = THEMES.index(Theme.SAVE_THE_DRAW)
    assert "too few to tell" in scene.status_line()
    scene.selected = THEMES.index(Theme.DOUBLE_THREAT)
    assert "67% of 6 solved" in scene.status_line()
    press(app, pygame.K_RETURN, frames=2)
    under = app.stack.top
    assert isinstance(under, PuzzlesScene) and under.source is Source.THEME and under.theme is Theme.DOUBLE_THREAT
    assert Theme.DOUBLE_THREAT in under.puzzle.themes and "Theme: Double threat" in under.header()[0]


def test_the_puzzle_screen_says_the_puzzles_themes_and_the_dashboard(app):
    app.stack.push(PuzzlesScene(seed=5))
    for _ in range(3):
        app.step([], FRAME)
    scene = app.stack.top
    assert scene.puzzle.themes
    assert "Theme" in scene.status_line()
    assert scene.dashboard() is not None  # an empty archive is read at once
