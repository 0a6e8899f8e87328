"""The review, past games and analysis board in the real app (headless), and the archive
the play scene fills."""

from __future__ import annotations

import pygame

from ai.levels import Level
from ai.review import MoveClass
from game.app.clipboard import get_text, put_text
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.past_games import PastGamesScene, game_line
from game.app.scenes.play import PlayScene
from game.app.scenes.review import ReviewScene, review_layout
from game.app.scenes.review_text import detail_lines
from game.app.scenes.title import TitleScene
from game.board import Board
from game.records import HUMAN, GameResult
from game.rules import MAX, MIN, Rules
from tests.ui import click, press, settle, step, wait_until

GAME = "4455667"  # player 2's 4th move (ply 4) throws the game away: player 1 wins at ply 7


def two_player_game(app, moves: str = GAME) -> PlayScene:
    play = PlayScene(Rules(), Level(4), "human")
    app.stack.push(play)
    step(app, 2)
    for char in moves:
        play.try_human_move(int(char) - 1)
        settle(app, play)
    return play


def test_a_finished_game_is_stored_at_once_and_the_game_in_progress_before(app):
    play = two_player_game(app, GAME[:5])
    archive = app.archive
    kept = archive.in_progress()
    assert kept is not None and kept.moves == (3, 3, 4, 4, 5)
    play.try_human_move(5)
    settle(app, play)
    play.try_human_move(6)  # the winning disc: stored before it has even landed
    games = archive.games()
    assert [g.moves_string for g in games] == [GAME]
    assert games[0].result is GameResult.FIRST and games[0].first == games[0].second == HUMAN
    assert archive.in_progress() is None


def test_the_result_panel_opens_the_review_and_the_review_is_exact(app):
    play = two_player_game(app)
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 10)
    press(app, pygame.K_v, frames=2)
    review = app.stack.top
    assert isinstance(review, ReviewScene)
    assert wait_until(app, lambda: review.review is not None, 30)
    step(app)
    classes = [m.move_class for m in review.review.moves]
    assert classes[2] is MoveClass.BLUNDER and classes[3] is MoveClass.BLUNDER
    assert review.ply == 7  # it opens at the end
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert review.ply == 4
    assert "blunder" in detail_lines(review.review, 4, review.names)[0]
    # the summary went into the archive with the game
    stored = app.archive.games()[0]
    assert stored.review is not None and stored.review["turning_points"] == [3, 4]
    # a click on the graph picks the nearest ply
    lay = review_layout(pygame.display.get_surface().get_size())
    plot = ReviewScene.plot_rect(lay.graph)
    click(app, (plot.left + 1, plot.centery))
    assert review.ply == 0
    click(app, (plot.right - 1, plot.centery))
    assert review.ply == 7
    press(app, pygame.K_HOME)
    assert review.ply == 0
    press(app, pygame.K_ESCAPE, frames=2)
    assert isinstance(app.stack.top, GameOverScene)
    assert play.match.is_over()


def test_the_review_of_a_game_in_progress_from_the_pause_menu(app):
    play = two_player_game(app, "44")
    press(app, pygame.K_ESCAPE, frames=2)
    pause = app.stack.top
    button = next(b for b in pause.buttons if b.label.startswith("Review"))
    click(app, button.rect.center)
    step(app)
    review = app.stack.top
    assert isinstance(review, ReviewScene) and review.moves == [3, 3]
    assert wait_until(app, lambda: review.review is not None, 30)
    assert [m.move_class for m in review.review.moves] == [MoveClass.BEST, MoveClass.BEST]
    assert play.match.moves == [3, 3]


def test_leaving_a_review_under_way_cancels_it(app):
    review = ReviewScene(Rules(), Board.from_moves("4444332").moves)
    app.stack.push(review)
    step(app)
    assert review.reviewing and review.job.running  # a job for the worker, not a thread here
    asked = review.job.id
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.stack.top is not review
    assert app.worker.current != asked and app.worker.cancelled_upto() >= asked


def test_a_review_stopped_by_another_job_goes_on_where_it_stopped(app):
    """The analysis board pushed over a review takes the worker; back on top, the review
    asks again from the first move not reviewed, and ends the same as one run straight."""
    from ai.reviewer import review_game

    moves = Board.from_moves(GAME).moves
    review = ReviewScene(Rules(), moves)
    app.stack.push(review)
    assert wait_until(app, lambda: len(review.reviewed) >= 2, 30)
    review.set_ply(3)  # a position with moves left: the analysis board asks for its scores
    review.open_analysis()
    step(app, 2)
    assert isinstance(app.stack.top, AnalysisScene) and not review.job.running
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.stack.top is review
    assert wait_until(app, lambda: review.review is not None, 60)
    straight = review_game(Rules(), moves)
    assert [m.move_class for m in review.review.moves] == [m.move_class for m in straight.moves]
    assert review.review.graph == straight.graph


def test_past_games_lists_filters_and_opens_a_review(app):
    archive = app.archive
    archive.add_game(Rules(), Board.from_moves("4455667").moves, GameResult.FIRST, second="Easy", played_at=1.0)
    archive.add_game(
        Rules(), Board.from_moves("1122334").moves, GameResult.FIRST, first="Medium", second=HUMAN, played_at=2.0
    )
    archive.add_game(Rules(), Board.from_moves("4455667").moves, GameResult.FIRST, second="Medium", played_at=3.0)
    app.stack.push(TitleScene())
    step(app, 2)
    title = app.stack.top
    button = next(b for b in title.buttons if b.label == "Past games")
    click(app, button.rect.center)
    step(app)
    past = app.stack.top
    assert isinstance(past, PastGamesScene)
    assert [r.played_at for r in past.records] == [3.0, 2.0, 1.0]
    assert past.stats == {"Medium": {"win": 1, "draw": 0, "loss": 1}, "Easy": {"win": 1, "draw": 0, "loss": 0}}
    assert "you v Medium: you won" in game_line(past.records[0])
    press(app, pygame.K_l)  # level: Easy (sorted), then Medium
    assert past.level == "Easy" and [r.played_at for r in past.records] == [1.0]
    press(app, pygame.K_l)
    press(app, pygame.K_r)  # result: you won
    assert past.level == "Medium" and [r.played_at for r in past.records] == [3.0]
    press(app, pygame.K_RETURN, frames=2)
    review = app.stack.top
    assert isinstance(review, ReviewScene) and review.names[MIN] == "Medium"
    assert wait_until(app, lambda: review.review is not None, 30)


def test_the_analysis_board_plays_both_sides_takes_back_and_branches(app):
    app.stack.push(TitleScene())
    step(app, 2)
    title = app.stack.top
    click(app, next(b for b in title.buttons if b.label == "Analysis board").rect.center)
    step(app)
    board = app.stack.top
    assert isinstance(board, AnalysisScene)
    for key in (pygame.K_4, pygame.K_4, pygame.K_5):
        press(app, key)
    assert board.board.moves_string() == "445"
    assert wait_until(app, lambda: board.scores is not None, 30)
    assert set(board.scores) == set(range(7)) and board.board.to_move == MIN
    press(app, pygame.K_u)
    press(app, pygame.K_3)  # another third move: a branch, the old line kept
    assert board.board.moves_string() == "443" and board.lines == [[3, 3, 4]]
    press(app, pygame.K_b)
    assert board.board.moves_string() == "445" and board.lines == [[3, 3, 2]]
    press(app, pygame.K_c, pygame.KMOD_CTRL)
    assert get_text() == "445"
    put_text("4453")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert board.board.moves_string() == "4453"
    put_text("0000000\n0000000\n0000000\n0000000\n0000000\n0001000\n2\n")  # a Max-Connect-4 board
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert board.board.ply == 1 and board.board.to_move == MIN and board.board.grid[5, 3] == MAX
    put_text("hello")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert board.board.ply == 1 and app.toast is not None and "Not pasted" in app.toast[0]


def test_ctrl_c_and_ctrl_v_in_a_game(app):
    play = two_player_game(app, "44")
    press(app, pygame.K_c, pygame.KMOD_CTRL)
    assert get_text() == "44"
    put_text("123")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert play.match.board.moves_string() == "123" and play.match.to_move == MIN


def test_an_unfinished_game_is_offered_on_the_next_start(app, tmp_path, make_app):
    two_player_game(app, "445")
    again = make_app((900, 700), home=app.home)
    try:
        again.stack.push(TitleScene())
        step(again, 2)
        title = again.stack.top
        resume = title.buttons[-1]  # the last row: the other buttons stay where they always are
        assert resume.label == "Resume the two-player game (3 discs)"  # issue 52: each kind named
        click(again, resume.rect.center)
        step(again)
        play = again.stack.top
        assert isinstance(play, PlayScene) and play.match.moves == [3, 3, 4] and play.opponent == "human"
    finally:
        again.close()


def test_t_opens_the_tree_of_a_search_where_the_shown_move_was_chosen(app):
    from game.app.tree.scene import TreeScene

    board = Board.from_moves(GAME)
    review = ReviewScene(board.rules, board.moves, depths={MIN: 3})
    app.stack.push(review)
    step(app)
    review.set_ply(4)  # player 2's losing move: the tree of its depth-3 search
    press(app, pygame.K_t)
    assert wait_until(app, lambda: isinstance(app.stack.top, TreeScene), 30)
    tree = app.stack.top
    step(app, 2)
    assert tree.record.side == MIN and tree.record.result.stats.depth == 3
    assert (tree.record.result.tree.grid == review.board_at(3).grid).all()
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.stack.top is review


def test_the_analysis_board_shows_the_exact_column_scores_the_solver_finds(app):
    """Past the book (13 discs) the worker's answer (Perfect's hint, the one decider) gives
    every column the same exact result as the reference solve in this process."""
    from ai.exact import ExactScore
    from ai.perfect import exact_column_scores

    app.stack.push(AnalysisScene())
    step(app, 2)
    board = app.stack.top
    put_text("4444413222242")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert board.board.ply == 13
    assert wait_until(app, lambda: board.scores is not None or board.no_scores_reason is not None, 120)
    grid, side = board.board.grid, board.board.to_move
    reference = exact_column_scores(grid, board.rules, side, time_limit=None)
    assert reference is not None and board.scores is not None
    assert dict(board.scores) == {col: ExactScore.from_score(score, grid, side) for col, score in reference.items()}
    assert board.status_lines()[1].startswith("Player 2 to move: ")


def test_the_review_says_how_accuracy_counts_distance(app):
    """Player 2 lost from the first move and shortened the loss four times: the window said
    "player 2 100%" under "accuracy (moves that kept the outcome)".  Now a good move counts
    1/2 and the review says so."""
    from ai.review import ACCURACY_RULE
    from tests.ui import drawn_texts

    review = ReviewScene(Rules(), Board.from_moves("45233231343").moves)
    app.stack.push(review)
    assert wait_until(app, lambda: review.review is not None, 60)
    texts = [text for text, _ in drawn_texts(app)]
    assert any("player 2 60%" in text for text in texts), texts
    assert any(ACCURACY_RULE in text for text in texts), texts
    assert not any("moves that kept the outcome" in text for text in texts)


def test_an_estimated_review_says_how_deep_it_looked_and_within_what(app):
    """The window's review of a game without gravity said only "search estimates (not
    exact)": not how deep the columns were searched nor within what budget."""
    from ai.review import ESTIMATE_NODES
    from game.app.scenes.review_text import graph_legend
    from tests.ui import drawn_texts

    rules = Rules(rows=4, cols=5, connect=3, gravity=False)
    review = ReviewScene(rules, Board.from_moves("a1b1a2", rules).moves)
    app.stack.push(review)
    assert wait_until(app, lambda: review.review is not None, 60)
    legend = graph_legend(review.review)
    depths = {m.estimate_depth for m in review.review.moves}
    assert f"{ESTIMATE_NODES:,} positions" in legend and f"depth {max(depths)}" in legend
    assert legend in [text for text, _ in drawn_texts(app)]
