"""Perfect play on the standard board: exact scores, the Perfect level, pondering, verdicts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ai.answer import DecidedBy
from ai.exact import ExactScore, verdict
from ai.levels import PRESETS
from ai.perfect import PerfectPlayer, exact_column_scores
from ai.player import NOT_STANDARD_NOTE, choose_move
from ai.solver import SolveLimit, Solver, SolverStopped
from ai.values import WIN, plies_to_end
from game.board import Board
from game.rules import MAX, MIN, STANDARD, Rules


def _lines(path, step):
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in rows[::step]]


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def test_exact_column_scores_match_the_benchmark_scores(positions_dir):
    """The best column's score is the position's score in the benchmark files."""
    rules = Rules()
    for moves, expected in _lines(positions_dir / "Test_L2_R1", 50):
        board = Board.from_moves(moves)
        scores = exact_column_scores(board.grid, rules, board.to_move, time_limit=None)
        assert scores is not None
        assert max(scores.values()) == expected, moves


def test_exact_column_scores_at_11_discs_are_the_book_one_ply_on():
    """Search down to the book, checked by hand: each column's score is minus the
    12-disc book score of the position it leads to (or an immediate win there)."""
    from ai.book import book

    rng = random.Random(11)
    rules = Rules()
    player = PerfectPlayer()
    checked = 0
    while checked < 20:
        board = Board()
        board.push_random(rng, 11)
        if board.is_game_over():
            continue
        scores = player.column_scores(board.grid, board.to_move)
        for col, score in scores.items():
            child = board.copy()
            child.push(col)
            if child.is_game_over():
                continue
            first, second = player.geo.from_grid(child.grid)
            known = book().score(first, second)
            expected = -known if known is not None else -(22 - 7)  # absent: the first player wins at once
            assert score == expected, (board.moves_string(), col)
        checked += 1
    assert rules == player.rules


def test_empty_board_is_a_first_player_win_in_column_four():
    board = Board()
    scores = exact_column_scores(board.grid, board.rules, board.to_move, time_limit=None)
    assert scores == {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}
    names = {MAX: "you", MIN: "the opponent"}
    said = {
        col: verdict(ExactScore.from_score(score, board.grid, board.to_move), names) for col, score in scores.items()
    }
    assert said[3] == "you win in 21 moves with perfect play"
    assert said[0] == "the opponent wins in 20 moves with perfect play"
    assert said[2] == "a draw with perfect play"


def test_verdict_counts_the_players_own_moves():
    """After 444444535353 the first player wins with its next disc: "in 1 move"."""
    board = Board.from_moves("444444535353")
    scores = exact_column_scores(board.grid, board.rules, board.to_move, time_limit=None)
    assert scores is not None
    exact = ExactScore.from_score(scores[4], board.grid, board.to_move)
    assert verdict(exact, {MAX: "you", MIN: "player 2"}) == "you win in 1 move with perfect play"
    assert exact.plies == 1 and exact.winner_moves == 1 and exact.winner == MAX


def test_perfect_after_4444_keeps_the_win():
    """The issue's example: only column 4 keeps the first player's win after 4444."""
    board = Board.from_moves("4444")
    choice = choose_move(PRESETS["Perfect"], board.grid, board.rules, board.to_move)
    assert choice.move == 3
    assert choice.exact is not None and choice.exact.pov(board.to_move) == 1
    assert choice.decided_by in (DecidedBy.BOOK, DecidedBy.SOLVER)
    assert choice.value > 0


def test_perfect_never_spoils_a_won_or_drawn_position():
    """Seeded random positions; Perfect (no time for the quickest-win polish, so only
    its value-keeping part plays) against a randomised Medium, to the end."""
    rng = random.Random(8)
    rules = Rules()
    solver = Solver(rules)
    checked = 0
    while checked < 10:
        board = Board()
        for _ in range(rng.randrange(16, 28)):
            moves = board.legal_moves()
            board.push(rng.choice(moves))
            if board.is_game_over():
                break
        if board.is_game_over():
            continue
        perfect_side = board.to_move
        expected = solver.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score
        if expected < 0:
            continue
        checked += 1
        player = PerfectPlayer()
        hurried = replace(PRESETS["Perfect"], solver_nodes=1)  # no nodes for distances: the outcome still holds
        while not board.is_game_over():
            if board.to_move == perfect_side:
                move = choose_move(hurried, board.grid, rules, board.to_move, perfect_player=player).move
            elif rng.random() < 0.3:
                move = rng.choice(board.legal_moves())
            else:
                move = choose_move(PRESETS["Medium"], board.grid, rules, board.to_move).move
            assert move is not None
            board.push(move)
        outcome = board.outcome()
        assert outcome is not None
        result = 0 if outcome.winner is None else (1 if outcome.winner == perfect_side else -1)
        assert result >= expected, board.moves_string()


def test_perfect_first_wins_from_the_empty_board_against_beginner():
    board = Board()
    player = PerfectPlayer()
    while not board.is_game_over():
        level = PRESETS["Perfect"] if board.to_move == MAX else PRESETS["Beginner"]
        move = choose_move(level, board.grid, board.rules, board.to_move, perfect_player=player, seed=board.ply).move
        assert move is not None
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == MAX


def test_perfect_prefers_the_quickest_win():
    """Columns 3 and 6 both make an open three: the quickest win (its 4th disc)."""
    board = Board.from_moves("4455")  # 3 or 6 both win (open three), 3 and 6 at once
    choice = choose_move(PRESETS["Perfect"], board.grid, board.rules, board.to_move)
    assert choice.move in (2, 5)
    child = board.copy()
    child.push(choice.move)
    loser = PerfectPlayer().column_scores(child.grid, child.to_move)
    assert max(loser.values()) == -(22 - 4)  # the first player's 4th disc wins


def test_exact_value_uses_the_search_value_scale():
    board = Board.from_moves("444444535353")
    value = ExactScore.from_score(15, board.grid, board.to_move).value  # win with the next disc
    assert value == WIN - 1 and plies_to_end(value) == 1
    value = ExactScore.from_score(-10, Board().grid, MAX).value  # the opponent's 12th disc wins
    assert value == -(WIN - 24)


@pytest.mark.slow
def test_perfect_off_the_standard_board_plays_expert_and_says_so():
    rules = Rules(rows=7, cols=8, connect=5)
    assert rules != STANDARD
    board = Board(rules)
    choice = choose_move(PRESETS["Perfect"], board.grid, rules, board.to_move)
    assert choice.note == NOT_STANDARD_NOTE
    # Expert, trying the solver from the first move (7x8 fits the compiled solver): the
    # empty board is not proven within its nodes, so Expert's search decides.
    assert choice.level == replace(PRESETS["Expert"], endgame_cells=rules.cells)
    assert choice.decided_by is DecidedBy.SEARCH
    expert = choose_move(PRESETS["Expert"], board.grid, rules, board.to_move)
    assert expert.move == choice.move  # the real Expert preset, not a flag switched off
    assert choice.move is not None and board.is_legal(choice.move)
    assert exact_column_scores(board.grid, rules, board.to_move) is None


def test_pondering_fills_the_tables_for_the_next_move():
    """After ponder, the answer to a reply costs far fewer solver nodes; same move.
    (The cold answer first: a player's tables are the process's memory, which the next
    player to solve clears.)"""
    board = Board.from_moves("44444435")
    reply = board.copy()
    reply.push(2)
    cold = PerfectPlayer().choose(reply.grid, reply.rules, reply.to_move, time_limit=None)
    pondered = PerfectPlayer()
    done = pondered.ponder(board.grid, board.rules, board.to_move, should_stop=lambda: False)
    assert done == len(board.legal_moves())
    warm = pondered.choose(reply.grid, reply.rules, reply.to_move, time_limit=None)
    assert warm.move == cold.move and warm.outcome == cold.outcome
    assert warm.nodes < cold.nodes


def test_ponder_stops_when_asked():
    board = Board.from_moves("4444")
    assert PerfectPlayer().ponder(board.grid, board.rules, board.to_move, should_stop=lambda: True) == 0


@pytest.mark.parametrize("moves", ["", "4", "4453", "3344"])
def test_early_lines_are_solved_through_the_book(moves):
    """What `solve` answers from the empty board on: weak and exact agree in sign."""
    solver = Solver(Rules())
    board = Board.from_moves(moves)
    exact = solver.solve_grid(board.grid, board.to_move).score
    weak = solver.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score
    assert weak == _sign(exact)


def _run_cli(argv: list[str], stdin: str = "") -> str:
    import io

    from game.cli.main import main

    out = io.StringIO()
    assert main(argv, stdout=out, stdin=io.StringIO(stdin)) == 0
    return out.getvalue()


def test_solve_answers_from_the_empty_board_on():
    text = _run_cli(["solve"], stdin='""\n4\n44\n4453\n')
    assert text.splitlines() == ['"" 1', "4 -1", "44 1", "4453 -2"]


def test_solve_time_limit_says_unknown_on_that_line():
    """7x8 from its first disc: no opening book reaches it and no solver ends it within a
    millisecond (on 6x7 the books now answer the earlier 13-disc line at once).  The next
    line is still solved: player 1 wins at once, with the board's 7th disc, (57 - 7) / 2."""
    text = _run_cli(["solve", "--rows", "7", "--cols", "8", "--time-limit", "0.001"], stdin="4\n121212\n")
    lines = text.splitlines()
    assert lines[0] == "4 unknown within 0.001 s"
    assert lines[1] == "121212 25"


def test_analyze_prints_exact_values_and_a_levels_move():
    text = _run_cli(["analyze", "4444", "--depth", "2", "--level", "perfect"])
    assert "Exact values" in text and "4:+" in text
    assert "Level perfect plays: 4 (decided by the opening book)" in text
    text = _run_cli(["analyze", "", "--depth", "2", "--level", "beginner"])
    assert "Level beginner plays:" in text and "(decided by the search)" in text


def test_one_player_for_both_sides_keeps_every_outcome():
    """The outcome a player's previous move kept narrows its next search only when the
    position follows that move by one reply: a player asked for both sides in turn (as
    the shared one may be) still gets every outcome right, and perfect play by both
    keeps the value (each side's outcome is minus the other's)."""
    rng = random.Random(21)
    rules = Rules()
    checked = 0
    while checked < 3:
        board = Board()
        board.push_random(rng, rng.randrange(18, 24))
        if board.is_game_over():
            continue
        checked += 1
        player = PerfectPlayer()
        previous = None
        for _ in range(6):
            if board.is_game_over():
                break
            choice = player.choose(board.grid, rules, board.to_move, time_limit=0.0)
            fresh = Solver(rules).solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score
            assert choice.outcome == fresh, board.moves_string()
            if previous is not None:
                assert choice.outcome == -previous, board.moves_string()
            previous = choice.outcome
            board.push(choice.move)


def test_at_twelve_discs_the_quickest_win_look_ends_at_the_books_score():
    """The 12-ply book's score is the best column's: the look for the quickest win ends at
    the first column, centre first, that scores it.  That is the move a whole look would
    choose (its first best column), for a fraction of the nodes."""
    for moves in ("731314533452", "275362445562"):  # a win and a loss: the quickest, the slowest
        board = Board.from_moves(moves)
        choice = PerfectPlayer().choose(board.grid, board.rules, board.to_move, time_limit=None)
        solver = Solver(Rules())
        whole = solver.analyze(*solver.position(board.grid, board.to_move))
        scores = whole.complete()
        assert choice.outcome != 0 and choice.move == max(scores, key=lambda col: scores[col])
        assert choice.score == scores[choice.move] and choice.scores.items() <= scores.items()
        assert choice.nodes * 2 < whole.nodes, (moves, choice.nodes, whole.nodes)


def test_the_next_move_of_a_game_reuses_the_last_proof():
    """Perfect first against a perfect opponent, past the book: the move after a proof
    is found from the same player's tables in far fewer nodes than by a new player, and
    it is the same kind of move (it keeps the win)."""
    rules = Rules()
    board = Board.from_moves("4444466661362522")  # 16 discs, the first player wins
    player = PerfectPlayer()
    choice = player.choose(board.grid, rules, board.to_move, time_limit=0.0)
    assert choice.outcome == 1
    board.push(choice.move)
    referee = Solver(rules, own_table=True)  # beside the player's tables, not in their memory
    board.push(referee.best_move(*_sides_to_move(player, board)).move)  # the best reply
    warm = player.choose(board.grid, rules, board.to_move, time_limit=0.0)
    cold = PerfectPlayer().choose(board.grid, rules, board.to_move, time_limit=0.0)
    assert warm.outcome == cold.outcome == 1
    assert warm.nodes * 10 < cold.nodes
    child = board.copy()
    child.push(warm.move)
    assert (
        child.is_game_over()
        or Solver(rules).solve_grid(child.grid, child.to_move, limit=SolveLimit(weak=True)).score == -1
    )


def _sides_to_move(player: PerfectPlayer, board: Board) -> tuple[int, int]:
    first, second = player.geo.from_grid(board.grid)
    return (first if board.to_move == MAX else second), first | second


def test_ponder_after_a_winning_move_has_nothing_to_do():
    """The worker ponders after every Perfect move, the winning one too."""
    board = Board.from_moves("1212121")  # the first player has just won
    assert board.is_game_over()
    assert PerfectPlayer().ponder(board.grid, board.rules, board.to_move, should_stop=lambda: False) == 0


def test_a_node_budget_makes_perfect_play_the_same_move_every_time(positions_dir):
    """Perfect's polish (the quickest win among winning moves) bounded in nodes, not
    seconds: the same scores, move and node count on every run; no budget, no polish;
    enough budget, every column's exact score."""
    moves, expected = _lines(positions_dir / "Test_L2_R1", 1)[336]  # a loss, proved in ~12,000 nodes
    board = Board.from_moves(moves)
    assert expected < 0
    for limit in (0, 3_000, 30_000, None):
        one = PerfectPlayer().choose(board.grid, board.rules, board.to_move, time_limit=None, node_limit=limit)
        two = PerfectPlayer().choose(board.grid, board.rules, board.to_move, time_limit=None, node_limit=limit)
        assert (one.move, one.scores, one.nodes) == (two.move, two.scores, two.nodes), limit
        assert one.outcome == -1
        if limit == 0:
            assert one.scores == {}
        if limit is None:
            assert set(one.scores) == set(board.legal_moves()) and one.score == expected
    scores = PerfectPlayer().column_scores(board.grid, board.to_move)
    with pytest.raises(SolverStopped):
        PerfectPlayer().column_scores(board.grid, board.to_move, limit=SolveLimit(nodes=100))
    assert max(scores.values()) == expected


@pytest.mark.slow
def test_perfect_on_a_small_board_keeps_the_result_the_solver_proves():
    """4x5 fits the compiled solver: Perfect solves from the first move and keeps the draw,
    where Expert's search alone would play a column that loses."""
    from ai.player import SOLVED_OFF_BOARD_NOTE
    from ai.search import search

    rules = Rules(rows=4, cols=5)
    board = Board(rules)
    choice = choose_move(PRESETS["Perfect"], board.grid, rules, board.to_move)
    assert choice.exact is not None and choice.exact.is_draw
    assert choice.note is not None and choice.note.startswith(SOLVED_OFF_BOARD_NOTE)
    solver = Solver(rules)
    outcomes = solver.analyze(*solver.position(board.grid, board.to_move), limit=SolveLimit(weak=True)).complete()
    assert outcomes[choice.move] == 0 == max(outcomes.values())
    expert = PRESETS["Expert"]
    searched = search(board.grid, rules, expert.depth, node_limit=expert.node_limit, to_move=board.to_move)
    assert outcomes[searched.move] < 0  # why Perfect needs the solver here
