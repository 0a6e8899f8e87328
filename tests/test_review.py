"""The exact review: every class follows from exact scores computed by the solver itself."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from ai.review import MoveClass, classify, graph_height, result_words, sparkline
from ai.reviewer import ReviewStopped, review_board, review_game
from ai.solver import Solver
from game.board import Board
from game.rules import MAX, MIN, Rules


def random_game(rng: random.Random, board: Board) -> Board:
    """Play random moves until the game ends."""
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves()))
    return board


def exact_child_score(solver: Solver, board: Board, move: int) -> int:
    """The benchmark score of playing ``move``, for the side playing it, from first principles:
    a win now scores 22 minus the winner's discs, a full board 0, else minus the solver's
    score of the position the opponent faces."""
    side = board.to_move
    board.push(move)
    try:
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            own_discs = int((board.grid == side).sum())
            return board.rules.cells // 2 + 1 - own_discs
        return -solver.solve_grid(board.grid, board.to_move).score
    finally:
        board.pop()


def expected_class(scores: dict[int, int], move: int) -> MoveClass:
    """The issue's definition, written out again."""
    best = max(scores.values())
    played = scores[move]
    sign = lambda s: (s > 0) - (s < 0)  # noqa: E731
    if played == best:
        return MoveClass.BEST
    if sign(played) == sign(best):
        return MoveClass.GOOD
    if sign(best) - sign(played) == 1:
        return MoveClass.MISTAKE
    return MoveClass.BLUNDER


def check_against_solver(board: Board, review) -> None:
    solver = Solver(Rules())  # its own tables: nothing shared with the review
    replay = Board(board.rules, board.start_grid(), board.start_to_move())
    assert review.exact
    assert len(review.moves) == len(board.moves)
    assert len(review.graph) == len(board.moves) + 1
    for reviewed, move in zip(review.moves, board.moves):
        scores = {m: exact_child_score(solver, replay, m) for m in replay.legal_moves()}
        assert reviewed.scores == scores, f"ply {reviewed.ply}"
        assert reviewed.move == move and reviewed.side == replay.to_move
        assert reviewed.move_class is expected_class(scores, move), f"ply {reviewed.ply}"
        assert reviewed.score == scores[move] and reviewed.best_score == max(scores.values())
        assert set(reviewed.best_moves) == {m for m, s in scores.items() if s == max(scores.values())}
        assert review.graph[reviewed.ply] == replay.to_move * scores[move]
        replay.push(move)


@pytest.mark.parametrize("seed", range(20))
def test_late_game_classes_agree_with_the_solver(seed):
    """Seeded random games from a random 20-disc position to the end: every move checked."""
    rng = random.Random(1000 + seed)
    start = Board()
    while start.ply < 20:
        start.push(rng.choice(start.legal_moves()))
        if start.is_game_over():
            start = Board()
    board = Board(start.rules, start.grid, start.to_move)
    random_game(rng, board)
    review = review_board(board)
    check_against_solver(board, review)


@pytest.mark.parametrize("seed", [5, 11, 12])
def test_whole_short_games_agree_with_the_solver(seed):
    """Whole random games from the empty board (the book answers the early plies)."""
    board = random_game(random.Random(seed), Board())
    review = review_board(board)
    check_against_solver(board, review)
    assert review.graph[0] == 1  # the first player wins standard Connect Four


def test_accuracy_is_the_mean_credit_of_a_players_moves():
    """Best 1, good 1/2, mistake and blunder 0 (``ai.review.ACCURACY_RULE``)."""
    board = random_game(random.Random(12), Board())
    review = review_board(board)
    credit = {MoveClass.BEST: 1, MoveClass.GOOD: 0.5, MoveClass.MISTAKE: 0, MoveClass.BLUNDER: 0}
    for side in (MAX, MIN):
        own = [m for m in review.moves if m.side == side]
        assert review.accuracy(side) == pytest.approx(sum(credit[m.move_class] for m in own) / len(own))
        assert sum(review.counts(side).values()) == len(own)


def test_turning_points_are_the_worst_outcome_changes():
    board = random_game(random.Random(5), Board())
    review = review_board(board)
    points = review.turning_points
    assert 1 <= len(points) <= 3
    assert all(not p.move_class.keeps_outcome for p in points)
    assert [p.ply for p in points] == sorted(p.ply for p in points)
    lost = [m for m in review.moves if not m.move_class.keeps_outcome]
    worst = max(m.outcome_drop for m in lost)
    assert any(p.outcome_drop == worst for p in points)
    for p in points:  # the outcome changes at a turning point: the graph crosses a band
        assert np.sign(review.graph[p.ply]) != np.sign(review.graph[p.ply - 1])


def test_mistakes_say_what_a_depth_n_search_would_have_played():
    board = random_game(random.Random(5), Board())
    review = review_board(board, depths={MAX: 2, MIN: 6})
    for m in review.moves:
        if m.move_class.keeps_outcome:
            assert m.horizon_move is None
        else:
            assert m.horizon_move in m.scores
            assert m.horizon_depth == (2 if m.side == MAX else 6)


def test_other_boards_give_estimates_from_a_search():
    rules = Rules(rows=5, cols=5, connect=4)
    board = random_game(random.Random(3), Board(rules))
    review = review_board(board, estimate_depth=2)
    assert not review.exact
    assert len(review.moves) == len(board.moves)
    for m in review.moves:
        assert m.move_class is classify(m.score, m.best_score, exact=False)
    assert "estimate" in result_words(review.graph[0], 0, exact=False) or "wins" in result_words(
        review.graph[0], 0, exact=False
    )
    # the last move won the game: the search sees a win on the move
    assert review.moves[-1].move_class is MoveClass.BEST or board.outcome().winner is None


def test_progress_and_cancel():
    board = random_game(random.Random(5), Board())
    seen = []
    review_board(board, on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, len(board.moves)) for i in range(1, len(board.moves) + 1)]
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(ReviewStopped):
        review_board(board, should_stop=stop)


def test_words_and_sparkline():
    assert result_words(0, 10, exact=True) == "a draw with perfect play"
    assert result_words(1, 0, exact=True) == "player 1 wins in 21 moves with perfect play"
    assert result_words(-18, 7, exact=True) == "player 2 wins in 1 move with perfect play"  # its 4th disc
    assert graph_height(21, exact=True) == 1.0 and graph_height(0, exact=True) == 0.0
    assert graph_height(-1, exact=True) < -0.5
    board = Board.from_moves("4455667")
    review = review_board(board)
    line = sparkline(review)
    assert len(line) == len(board.moves) + 1 and line[-1] == "█"
    assert review.moves[-1].move_class is MoveClass.BEST
    assert review.summary()["turning_points"] == [m.ply for m in review.turning_points]


REVIEW_CLASSES = Path(__file__).parent / "data" / "review_classes.txt"
"""Seeded games reviewed by commit 7ca6f41, when the review ran in the window's thread
(``tests/data/make_review_classes.py`` says how it was made)."""


@pytest.mark.slow  # 13 whole games reviewed exactly: a long search
def test_the_review_classes_and_graph_are_what_they_were_before_the_review_moved():
    letter = {"b": MoveClass.BEST, "g": MoveClass.GOOD, "m": MoveClass.MISTAKE, "B": MoveClass.BLUNDER}
    lines = REVIEW_CLASSES.read_text().split("\n")
    games = [line.split() for line in lines if line.strip()]
    assert len(games) == 13
    for shape, moves, classes, graph in games:
        rows, cols, connect = (int(n) for n in shape.split("x"))
        rules = Rules(rows=rows, cols=cols, connect=connect)
        review = review_game(rules, [int(m) - 1 for m in moves])
        assert [m.move_class for m in review.moves] == [letter[c] for c in classes], moves
        assert list(review.graph) == [int(v) for v in graph.split(",")], moves


def test_a_review_resumed_from_its_first_moves_is_the_review_run_straight():
    """The window's worker goes on where a stopped review ended (``done``)."""
    board = Board.from_moves("4453726")
    straight = review_board(board)
    seen = []
    resumed = review_board(board, done=straight.moves[:3], on_move=seen.append)
    assert resumed == straight
    assert [m.ply for m in seen] == [4, 5, 6, 7]  # only the fresh moves stream


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_a_review_without_gravity_is_bounded_by_work_and_says_how_deep_it_looked():
    """'review' of a 7-move game without gravity printed nothing for 283 s: every column of
    every position was searched to depth 4 whatever it cost, and a mistake's depth-6 search
    had no budget either.  Now each move has a budget of positions (work, not time): the
    columns are searched as deep as it allows (the same depth for every column) and the
    review says how deep that was."""
    from ai.review import ESTIMATE_NODES, HORIZON_NODES
    from ai.search import CHECK_EVERY

    board = Board.from_moves("d1e1", Rules(rows=8, cols=9, gravity=False))
    polls = 0
    work = ESTIMATE_NODES + HORIZON_NODES + 2 * CHECK_EVERY + 72 * 72  # + the depth-1 pass, always done

    def guard() -> bool:  # the searches poll every CHECK_EVERY nodes: stop a review past its work
        nonlocal polls
        polls += 1
        return polls > len(board.moves) * (work // CHECK_EVERY + 72)

    review = review_board(board, should_stop=guard)
    assert review.complete and not review.exact
    for m in review.moves:
        assert 1 <= m.estimate_depth <= 4
        assert 0 < m.nodes <= work
    assert all(m.estimate_depth is None for m in review_board(Board.from_moves("4455")).moves)


def test_accuracy_counts_distance_as_well_as_outcome():
    """A player who lost from the first move got "accuracy 100% (11 best, 3 good)" though
    the good moves shortened the loss: accuracy counted outcomes only.  A good move (the
    outcome kept, but a slower win or a quicker loss) is not a perfect move."""
    review = review_board(Board.from_moves("45233231343"))  # player 1 perfect, player 2 loses sooner
    assert all(m.move_class.keeps_outcome for m in review.moves)
    counts = review.counts(MIN)
    assert counts[MoveClass.BEST] == 1 and counts[MoveClass.GOOD] == 4
    assert review.accuracy(MAX) == 1.0
    assert review.accuracy(MIN) == pytest.approx((1 + 4 / 2) / 5)
    from ai.review import ACCURACY_RULE  # the rule, said in the review (window and CLI)

    assert "good" in ACCURACY_RULE and "1/2" in ACCURACY_RULE


def test_every_mistake_and_blunder_is_explained_with_the_reviews_solver():
    """On the standard board each move that lost value carries its refutation (the
    explainer's, from the position before it); the others carry none, and a review asked
    without explanations (or off the standard board) has none."""
    from ai.explain.explainer import explain_move
    from ai.explain.explanation import ReasonKind

    board = Board.from_moves("644464725446355655626521722213333311")
    review = review_board(board)
    lost = [m for m in review.moves if not m.move_class.keeps_outcome]
    assert lost and all(m.why is not None for m in lost)
    assert all(m.why is None for m in review.moves if m.move_class.keeps_outcome)
    for m in lost:
        assert m.why is not None and m.why.move == m.move
        before = review.board_at(m.ply - 1)
        again = explain_move(before.grid, before.to_move, m.move)
        assert m.why.reason == again.reason and m.why.result == again.result
        assert m.why.reason.kind in (ReasonKind.REFUTATION, ReasonKind.NO_SIMPLE_REASON)
    assert all(m.why is None for m in review_board(board, explain=False).moves)
    small = review_board(Board.from_moves("1122334", rules=Rules(rows=5, cols=5)))
    assert any(not m.move_class.keeps_outcome for m in small.moves)
    assert all(m.why is None for m in small.moves)
