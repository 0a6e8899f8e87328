"""Learn from your mistakes: the retry screen, driven in the real app with its real worker,
judges each try with the exact solver; Past games trains the stored mistakes in one queue."""

from __future__ import annotations

import pygame

from ai.review import MoveClass
from ai.solver import Solver
from game.app.scenes.past_games import PastGamesScene
from game.app.scenes.retry import RetryScene
from game.app.scenes.review import ReviewScene
from game.learn.training import drills_of_records
from game.notation import parse_moves
from game.records import HUMAN, GameRecord, GameResult
from game.rules import STANDARD
from tests.ui import press, step, wait_until

GAME = "4455667"  # player 1's 3rd disc (column 5) and player 2's reply (column 5) throw the game away


def exact(moves: str) -> int:
    """``solve``'s score of the position after ``moves`` (side to move)."""
    return Solver(STANDARD).solve_moves(parse_moves(moves, STANDARD)).score


def test_the_retry_screen_judges_a_known_mistake_with_the_exact_solver(app):
    review = ReviewScene(STANDARD, parse_moves(GAME, STANDARD), names={1: "you"}, depths={-1: 4})
    app.stack.push(review)
    assert wait_until(app, lambda: review.review is not None, 30)
    press(app, pygame.K_l, frames=2)
    retry = app.stack.top
    assert isinstance(retry, RetryScene)
    # only the person's (player 1's) mistake: move 3, column 5 after 44
    assert [(d.ply, d.played, d.who) for d in retry.drills] == [(3, 4, "you")]
    assert wait_until(app, lambda: retry.columns is not None, 30)
    press(app, pygame.K_1)  # a wrong answer: 44 then 1
    verdict = retry.verdict
    assert verdict is not None and not verdict.kept and verdict.move_class is MoveClass.BLUNDER
    assert exact("441") > 0 and exact("444") < 0  # after column 1 player 2 wins; after column 4 player 1
    assert verdict.best_moves == (3,)
    assert wait_until(app, lambda: retry.reply is not None, 30)
    reply, after = retry.reply
    assert exact("441" + str(reply + 1)) == -exact("441")  # the reply keeps the opponent's win exactly
    assert after.pov(-1) == 1
    assert retry.score.points == 0 and retry.score.tried == 1
    assert app.worker.use_process  # judged in the worker process, not in the window
    press(app, pygame.K_r)
    press(app, pygame.K_4)  # the right answer: it keeps the win
    assert retry.verdict is not None and retry.verdict.kept and retry.verdict.move_class is MoveClass.BEST
    assert retry.score.tried == 1  # a second try does not score
    press(app, pygame.K_r)
    press(app, pygame.K_5)  # the known mistake itself
    assert retry.verdict is not None and retry.verdict.move_class is MoveClass.BLUNDER
    assert "the move played in the game" in " ".join(retry.panel_lines())
    press(app, pygame.K_n)
    assert retry.finished and retry.panel_lines()[0].startswith("Score: 0 of 1")
    press(app, pygame.K_ESCAPE)
    assert app.stack.top is review


def test_past_games_trains_the_persons_stored_mistakes_in_one_queue(app):
    archive = app.archive
    summary = {"exact": True, "accuracy": {}, "mistakes": [3, 4], "turning_points": [3, 4]}
    moves = parse_moves(GAME, STANDARD)
    archive.add_game(STANDARD, moves, GameResult.FIRST, first=HUMAN, second="Medium", review=summary)
    archive.add_game(STANDARD, moves, GameResult.FIRST, first="Medium", second=HUMAN, review=summary)
    archive.add_game(STANDARD, moves, GameResult.FIRST, first=HUMAN, second="Easy")  # not reviewed yet
    app.stack.push(PastGamesScene())
    step(app, 2)
    press(app, pygame.K_m, frames=2)
    queue = app.stack.top
    assert isinstance(queue, RetryScene)
    assert queue.reviewing  # the game without a review is reviewed first, by the worker
    assert wait_until(app, lambda: not queue.reviewing and queue.columns is not None, 30)
    # the person's only: player 1's in the first game, player 2's in the second, then the one reviewed now
    assert [(d.ply, d.played) for d in queue.drills] == [(3, 4), (4, 4), (3, 4)]
    assert archive.games()[0].review["mistakes"] == [3, 4]  # its review is kept
    press(app, pygame.K_4)
    assert queue.verdict is not None and queue.verdict.kept
    press(app, pygame.K_n)
    assert wait_until(app, lambda: queue.columns is not None, 30)
    press(app, pygame.K_5)  # 4455 then 5 again: the blunder of the game
    assert queue.verdict is not None and not queue.verdict.kept
    assert queue.score.points == 1 and queue.score.tried == 2


def test_a_queue_skips_other_rules_and_older_summaries_give_their_turning_points():
    moves = tuple(parse_moves(GAME, STANDARD))
    old = {"exact": True, "turning_points": [3]}
    records = [
        GameRecord(1, 1.0, STANDARD, HUMAN, "Easy", moves, GameResult.FIRST, review=old),
        GameRecord(2, 2.0, STANDARD, "Easy", "Hard", moves, GameResult.FIRST, review=old),  # no person
    ]
    drills, waiting = drills_of_records(records)
    assert [(d.ply, d.label) for d in drills] == [(3, f"the game of {records[0].date_text}")] and waiting == []


def test_a_slower_win_is_well_done_for_half_a_point_and_a_round_says_what_is_left():
    from ai.exact import ExactScore
    from game.board import Board
    from game.learn.training import Drill, RoundScore, judge, verdict_lines

    board = Board.from_moves("44")
    scores = {3: 5, 2: 2, 4: -1}  # column 4 wins sooner than column 3; column 5 loses
    columns = {col: ExactScore.from_score(score, board.grid, board.to_move) for col, score in scores.items()}
    drill = Drill(STANDARD, tuple(board.moves), 4, "a test")
    slower = judge(board, columns, 2)
    assert slower.kept and slower.move_class is MoveClass.GOOD and slower.credit == 0.5
    assert verdict_lines(drill, slower, None)[1].startswith("Column 4 was even better")
    lost = judge(board, columns, 4)
    assert not lost.kept and "played in the game" in " ".join(verdict_lines(drill, lost, None))
    score = RoundScore()
    assert score.text(2, 2) == "2 positions to try"
    score.add(slower)
    assert score.text(2, 1) == "Score: 0.5 of 1 · 1 to go"
    score.add(judge(board, columns, 3))
    assert score.text(2, 0) == "Score: 1.5 of 2 (2 of 2 found)"
