"""The puzzle screen in the real App: reached from the title, a puzzle played right, one
played wrong (the solver's verdict and the refutation on the board, then the right move),
a hint that counts the puzzle as missed, the daily puzzle, and the rating graph in Past
games."""

from __future__ import annotations

import datetime

import pygame

from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.puzzles import PuzzlesScene
from game.app.scenes.rating_graph import rating_summary
from game.app.scenes.title import TitleScene
from game.archive.puzzle_store import attempts
from game.learn.puzzle_set import daily, shipped_puzzles
from game.learn.puzzle_words import Source
from game.learn.rating import player_rating
from tests.ui import click, press, step, wait_until


def open_puzzles(app) -> PuzzlesScene:
    app.stack.push(TitleScene())
    step(app, 2)
    click(app, next(b for b in app.stack.top.buttons if b.label == "Puzzles").rect.center)
    step(app, 2)
    scene = app.stack.top
    assert isinstance(scene, PuzzlesScene) and scene.puzzle is not None
    return scene


def play_line(app, scene: PuzzlesScene) -> None:
    """Play every step of the puzzle's line, waiting for each reply."""
    while scene.right_column() is not None:
        press(app, pygame.K_1 + scene.right_column())
        assert wait_until(app, lambda: scene.reply_due is None, 10)
        step(app, 2)


def test_a_puzzle_played_right_moves_the_rating_up_and_counts_the_streak(app):
    scene = open_puzzles(app)
    puzzle = scene.puzzle
    assert "rating" in app.stack.scenes[0].subtitle_lines()[-1].lower()
    assert scene.status_line().startswith("Puzzles for you")
    assert f"Position after {puzzle.moves}." in scene.status_line() and "You play player" in scene.status_line()
    play_line(app, scene)
    assert scene.done and not scene.failed
    assert scene.board.moves_string() == puzzle.moves + puzzle.line
    kept = attempts(app.archive)
    assert [(a.puzzle, a.solved, a.hints) for a in kept] == [(puzzle.id, True, 0)]
    before, after = scene.change
    assert after > before and scene.streak == 1
    assert scene.said.startswith("Solved") and f"{round(after):,}" in scene.said


def test_a_wrong_move_shows_the_verdict_and_the_refutation_then_the_right_move(app):
    scene = open_puzzles(app)
    puzzle = scene.puzzle
    right = scene.right_column()
    wrong = next(c for c in scene.board.legal_moves() if c != right)
    press(app, pygame.K_1 + wrong)
    assert wait_until(app, lambda: scene.verdict_job.id is None, 60)
    step(app, 2)
    assert scene.said.startswith(f"Column {wrong + 1} fails: ")
    assert "perfect play" in scene.said and "refutation: column" in scene.said
    assert scene.status_line().startswith(scene.said)  # what spoken output says
    assert scene.board.moves_string().startswith(puzzle.moves + str(wrong + 1))
    assert len(scene.board.moves) == len(puzzle.moves) + 2  # the wrong disc and the refutation
    before, after = scene.change
    assert after < before
    press(app, pygame.K_SPACE)
    assert scene.board.moves_string() == puzzle.moves + str(right + 1)
    assert scene.said.startswith(f"The right move was column {right + 1}")
    assert [(a.solved, a.score) for a in attempts(app.archive)] == [(False, 0.0)]


def test_a_hint_shows_the_column_and_counts_the_puzzle_as_missed(app):
    scene = open_puzzles(app)
    right = scene.right_column()
    press(app, pygame.K_h)
    assert scene.hint_column == right and scene.said.startswith(f"Hint: column {right + 1}")
    assert "counts as missed: rating 1,500 -> " in scene.said  # what it costs, said and done at once
    assert [(a.solved, a.hints, a.score) for a in attempts(app.archive)] == [(False, 1, 0.0)]
    play_line(app, scene)
    kept = attempts(app.archive)
    assert [(a.solved, a.hints, a.score, a.themes) for a in kept] == [(False, 1, 0.0, scene.puzzle.themes)]
    assert "counts as missed" in scene.said


def test_a_hint_then_next_costs_the_rating_and_the_graph_agrees_with_the_stored_attempts(app):
    """Issue 52: a hint followed by N cost no rating, though the hint said the puzzle counts
    as missed, and the rating graph counted 2 puzzles after 3."""
    scene = open_puzzles(app)
    press(app, pygame.K_h)
    press(app, pygame.K_n, frames=2)
    for _ in range(2):
        play_line(app, scene)
        press(app, pygame.K_n, frames=2)
    kept = attempts(app.archive)
    assert [a.hints for a in kept] == [1, 0, 0] and [a.score for a in kept] == [0.0, 1.0, 1.0]
    stored = player_rating(app.archive.games(), kept)
    assert scene.rating == stored.rating and stored.puzzles == 3
    press(app, pygame.K_ESCAPE, frames=2)
    title = app.stack.top
    assert isinstance(title, TitleScene) and title.rating == stored.rating
    past = PastGamesScene()
    app.stack.push(past)
    step(app, 2)
    press(app, pygame.K_g, frames=2)
    assert past.rated is not None
    assert [point.after.rating for point in past.rated.history] == [p.after.rating for p in stored.history]
    assert "3 puzzles" in rating_summary(past.rated)


def test_the_daily_puzzle_is_the_dates_and_the_d_key_opens_it(app):
    day = datetime.date(2026, 11, 29)
    scene = PuzzlesScene(Source.DAILY, today=day)
    app.stack.push(scene)
    step(app, 2)
    assert scene.puzzle == daily(shipped_puzzles(), day)
    press(app, pygame.K_f)
    assert scene.source is Source.FOR_YOU
    press(app, pygame.K_d)
    assert scene.puzzle == daily(shipped_puzzles(), day)


def test_past_games_draws_the_rating_over_time(app):
    scene = open_puzzles(app)
    play_line(app, scene)
    press(app, pygame.K_n)
    play_line(app, scene)
    press(app, pygame.K_ESCAPE, frames=2)
    past = PastGamesScene()
    app.stack.push(past)
    step(app, 2)
    press(app, pygame.K_g, frames=2)
    assert past.show_rating and past.rated is not None and len(past.rated.history) == 2
    assert past.rated.history[-1].after.rating > past.rated.history[0].before.rating


def test_from_my_games_finds_the_puzzle_before_my_mistake_in_the_worker(app):
    from game.records import HUMAN, GameResult
    from game.rules import STANDARD

    puzzle = next(p for p in shipped_puzzles() if len(p.moves) % 2 == 0)  # the person (player 1) to move
    board = puzzle.board()
    board.push(next(c for c in board.legal_moves() if c != puzzle.steps[0]))
    review = {"exact": True, "mistakes": [len(puzzle.moves) + 1]}
    app.archive.add_game(STANDARD, board.moves, GameResult.SECOND, first=HUMAN, second="Easy", review=review)
    scene = PuzzlesScene(Source.MINE)
    app.stack.push(scene)
    step(app, 2)
    assert scene.looking and scene.puzzle is None and scene.said.startswith("Looking for puzzles")
    assert wait_until(app, lambda: not scene.looking, 120)
    step(app, 2)
    assert scene.puzzle is not None and (scene.puzzle.moves, scene.puzzle.line) == (puzzle.moves, puzzle.line)
    assert scene.puzzle.source == "game"
    press(app, pygame.K_m, frames=2)  # looked at once: not asked again
    assert not scene.looking and scene.puzzle.moves == puzzle.moves


def test_the_game_over_banner_says_the_rating_change_after_a_game_against_a_level(app):
    import time

    from ai.levels import PRESETS
    from game.app.scenes.game_over import GameOverScene
    from game.app.scenes.play import PlayScene
    from game.rules import Rules

    play = PlayScene(Rules(), PRESETS["Beginner"], "computer", "human")
    app.stack.push(play)
    step(app, 2)
    deadline = time.perf_counter() + 120
    while play.outcome is None:
        assert time.perf_counter() < deadline, "the game did not end"
        if play.drop is None and not play.thinking and play.match.to_move == play.human_side:
            legal = play.match.board.legal_moves()
            press(app, pygame.K_1 + legal[len(legal) // 2])
        else:
            step(app)
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 10)
    line = app.stack.top.subtitle_lines()[-1]
    assert "rating 1,500 -> " in line, line
    press(app, pygame.K_m, frames=3)  # the main menu: the title shows the new rating
    assert isinstance(app.stack.top, TitleScene)
    title = app.stack.top
    assert title.rating != 1500 and title.subtitle_lines()[-1] == f"Your rating: {title.rating:,} (provisional)"


def drawn_text(app) -> str:
    """Every line one frame draws, as one text."""
    theme, drawn = app.theme, []
    text = theme.text

    def spy(surface, line, size, pos, **options):
        drawn.append(line)
        return text(surface, line, size, pos, **options)

    theme.text = spy
    try:
        app.draw()
    finally:
        del theme.text
    return " ".join(" ".join(drawn).split())


def test_at_200_the_panel_drops_the_keys_whole_rather_than_cut_them_mid_sentence(make_app):
    """800x600 at 200 %: the keys sentence ended at "Space the" after a wrong move."""
    app = make_app((800, 600))
    app.settings.ui_scale, app.theme.scale = 200, 2.0
    scene = open_puzzles(app)
    right = scene.right_column()
    press(app, pygame.K_1 + next(c for c in scene.board.legal_moves() if c != right))
    assert wait_until(app, lambda: scene.verdict_job.id is None, 60)
    step(app, 2)
    shown = drawn_text(app)
    assert scene.said.split(".")[0] in shown
    assert ("Keys:" in shown) == ("Ctrl+L copy the link." in shown), shown


def test_a_hint_then_the_line_is_said_as_a_miss_not_as_solved_and_the_rating_is_provisional(app):
    scene = open_puzzles(app)
    assert "(provisional)" in scene.header()[1]
    press(app, pygame.K_h)
    play_line(app, scene)
    assert scene.said.startswith("Done with a hint: ") and "It counts as missed: rating 1,500 -> " in scene.said
