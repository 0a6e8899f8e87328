"""Levels a person can feel: the beginner never misses a win or a block, the presets
climb in order, and the move order changes the work but not the choice."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError, replace

import pytest

import ai.player
from ai.answer import DecidedBy
from ai.bitboard import fits_compiled, geometry
from ai.levels import PRESET_NOTES, PRESETS, Level, describe, solver_nodes_for
from ai.player import choose_move, level_solver
from ai.search import MoveOrder, search
from ai.solver import SolveLimit
from ai.tables import SIGN_TABLE_SLOTS, WIDE_TABLE_SLOTS
from game.board import Board
from game.rules import Rules
from tests.helpers import CLASSIC_VARIANTS, random_board, variant_id


def _winning_moves(board: Board, side: int) -> set[int]:
    """Moves with which ``side`` would complete a line at once."""
    geo = geometry(board.rules)
    first, second = geo.from_grid(board.grid)
    mask = first | second
    own = first if side == 1 else second
    wins = set()
    for move, add, keep in geo.move_steps:
        bit = (mask + add) & keep
        if bit and geo.line_starts(own | bit):
            wins.add(move)
    return wins


@pytest.mark.parametrize("rules", CLASSIC_VARIANTS, ids=variant_id)
def test_beginner_never_misses_an_immediate_win_or_block(rules, rng):
    beginner = PRESETS["Beginner"]
    wins_seen = blocks_seen = 0
    for attempt in range(400):
        board = random_board(rules, rng, rng.randrange(4, rules.cells - 2))
        if board.is_game_over():
            continue
        own_wins = _winning_moves(board, board.to_move)
        threats = _winning_moves(board, -board.to_move)
        if not own_wins and len(threats) != 1:
            continue
        if not own_wins:  # a block that hands over another win at once is no block: skip
            after = board.copy()
            after.push(next(iter(threats)))
            if after.is_game_over() or _winning_moves(after, after.to_move):
                continue
        move = choose_move(beginner, board.grid, rules, board.to_move, seed=attempt).move
        if own_wins:
            assert move in own_wins, board.moves_string()
            wins_seen += 1
        else:
            assert move in threats, board.moves_string()
            blocks_seen += 1
    assert wins_seen >= 5 and blocks_seen >= 5


def test_beginner_noise_is_seeded():
    board = Board.from_moves("4453")
    moves = {choose_move(PRESETS["Beginner"], board.grid, board.rules, board.to_move, seed=7).move for _ in range(3)}
    assert len(moves) == 1


def test_beginner_plays_human_like_variety():
    """Different seeds give different (non-blunder) moves in a quiet position."""
    board = Board.from_moves("44")
    moves = {choose_move(PRESETS["Beginner"], board.grid, board.rules, board.to_move, seed=s).move for s in range(12)}
    assert len(moves) >= 2


@pytest.mark.slow
def test_ladder_order_on_a_small_seeded_tournament():
    """Beginner, Medium and Hard each play the two others from 3 balanced openings,
    both colours: the points come out in ladder order."""
    from game.bots.runners import MatchPlan, run_match
    from lab.strength import Contestant

    names = ["Beginner", "Medium", "Hard"]
    points = dict.fromkeys(names, 0.0)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            result = run_match(
                Contestant(a, PRESETS[a]), Contestant(b, PRESETS[b]), MatchPlan(Rules(), games=6, seed=3)
            )
            points[a] += result.wins + result.draws / 2
            points[b] += result.losses + result.draws / 2
    assert points["Beginner"] < points["Medium"] < points["Hard"], points


def test_move_orders_change_the_work_not_the_choice():
    board = Board()
    results = {order: search(board.grid, board.rules, 6, order=order) for order in MoveOrder}
    assert len({(r.move, r.value) for r in results.values()}) == 1
    left = results[MoveOrder.LEFT_TO_RIGHT].stats.total_nodes
    best = results[MoveOrder.BEST_FIRST].stats.total_nodes
    assert left >= 5 * best  # about an order of magnitude


@pytest.mark.parametrize("order", list(MoveOrder))
def test_every_order_agrees_with_plain_minimax_value(order):
    rules = Rules(rows=4, cols=5, connect=3)
    rng = random.Random(5)
    for _ in range(5):
        board = random_board(rules, rng, 4)
        if board.is_game_over():
            continue
        plain = search(board.grid, rules, 4, pruning=False, to_move=board.to_move)
        ordered = search(board.grid, rules, 4, order=order, to_move=board.to_move)
        assert ordered.value == plain.value


def test_levels_are_frozen_values_with_notes():
    assert list(PRESETS) == ["Beginner", "Easy", "Medium", "Hard", "Expert", "Perfect"]
    assert set(PRESET_NOTES) == set(PRESETS)
    with pytest.raises(FrozenInstanceError):
        PRESETS["Hard"].depth = 3  # type: ignore[misc]
    assert Level().order is MoveOrder.BEST_FIRST and not Level().perfect and Level().noise == 0


def test_describe_says_where_perfect_play_applies():
    assert "Perfect play" in describe(PRESETS["Perfect"], Rules())[0]
    assert "only for the standard" in describe(PRESETS["Perfect"], Rules(rows=7, cols=9))[0]
    assert "plays exactly wherever the solver proves" in describe(PRESETS["Perfect"], Rules(rows=7, cols=8))[0]
    assert "plays exactly wherever the solver proves" in describe(PRESETS["Perfect"], Rules(rows=5, cols=6))[0]
    assert any("left to right" in line for line in describe(Level(4, order=MoveOrder.LEFT_TO_RIGHT), Rules()))


@pytest.mark.parametrize("name", ["Beginner", "Easy"])
def test_a_noisy_level_values_positions_the_same_with_and_without_pruning(name, rng):
    """The blur belongs to the position, so alpha-beta still returns minimax's value."""
    level = PRESETS[name]
    for _ in range(6):
        board = random_board(Rules(), rng, rng.randrange(0, 12))
        pruned = search(board.grid, board.rules, level.depth, pruning=True, to_move=board.to_move, noise=level.noise)
        full = search(board.grid, board.rules, level.depth, pruning=False, to_move=board.to_move, noise=level.noise)
        assert pruned.value == full.value, board.moves_string()


def _keeps_outcome(board: Board, move: int) -> bool:
    """Whether ``move`` keeps the exact outcome (win/draw/loss) of the side to move."""
    from ai.perfect import PerfectPlayer

    scores = PerfectPlayer().column_scores(board.grid, board.to_move, limit=SolveLimit(weak=True))
    return scores[move] == max(scores.values())


def test_hard_keeps_a_won_endgame_that_depth_8_gives_away():
    """26 empty cells, the first player to move wins only with columns 2 and 6: plain
    depth 8 plays column 3 (the zugzwang is past its horizon); Hard's solver keeps the win."""
    board = Board.from_moves("3164444332677421")
    assert int((board.grid == 0).sum()) == PRESETS["Hard"].endgame_cells
    plain = choose_move(Level(8), board.grid, board.rules, board.to_move)
    hard = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)
    assert plain.move is not None and hard.move is not None
    assert not _keeps_outcome(board, plain.move)
    assert _keeps_outcome(board, hard.move)
    assert hard.note is not None and "solver" in hard.note  # the learner is told who chose


def _outcomes(board: Board) -> dict[int, int]:
    """Every playable column's exact outcome (1/0/-1), centre first."""
    from ai.perfect import PerfectPlayer

    return PerfectPlayer().column_scores(board.grid, board.to_move, limit=SolveLimit(weak=True))


def test_the_endgame_solver_keeps_the_outcome_and_lets_the_search_choose_among_keeping_moves():
    """Where the solver proves the position, the search's move stands when it keeps the
    outcome; when it does not, the centre-most column that does is played, and the learner
    is told; a lost position is said lost and the search fights on.  Seeded endgames of
    15-24 discs where a column keeps the outcome and another does not; the same level
    without the solver shows the search's own move."""
    rng = random.Random(28)
    level = Level(1, noise=500, endgame_cells=42, solver_nodes=4_000_000)  # a rough search: it errs
    seen = {"kept": 0, "overruled": 0, "lost": 0}
    for _ in range(300):
        if min(seen.values()) >= 3:
            break
        board = random_board(Rules(), rng, rng.randrange(15, 25))
        outcomes = _outcomes(board) if board.outcome() is None else {}
        best = max(outcomes.values(), default=-1)
        if not outcomes or (best < 0 and seen["lost"] >= 3) or min(outcomes.values()) == best >= 0:
            continue  # over, enough lost ones, or every column keeps it: nothing to choose
        answer = choose_move(level, board.grid, board.rules, board.to_move)
        searched = choose_move(replace(level, endgame_cells=0), board.grid, board.rules, board.to_move).move
        assert answer.exact is not None and answer.exact.pov(board.to_move) == best, board.moves_string()
        if best < 0:
            assert answer.move == searched, board.moves_string()
            seen["lost"] += 1
        elif outcomes[searched] == best:
            assert (answer.move, answer.decided_by, answer.note) == (searched, DecidedBy.SEARCH, None)
            seen["kept"] += 1
        else:
            centre_most = next(col for col, outcome in outcomes.items() if outcome == best)
            assert (answer.move, answer.decided_by) == (centre_most, DecidedBy.OVERRULED), board.moves_string()
            assert answer.note is not None and f"column {centre_most + 1}" in answer.note
            seen["overruled"] += 1
    assert min(seen.values()) >= 3, seen  # every case met


def test_expert_plays_the_opening_book(rng):
    """Up to its book's disc count Expert keeps the exact value of every position, e.g.
    after 4444 only column 4 keeps the first player's win (Hard, searching, misses it)."""
    expert = PRESETS["Expert"]
    board = Board.from_moves("4444")
    assert choose_move(expert, board.grid, board.rules, board.to_move).move == 3
    for _ in range(12):
        board = Board(Rules())
        for _ in range(rng.randrange(expert.book_discs + 1)):
            board.push(rng.choice(board.legal_moves()))
            if board.outcome() is not None:
                break
        if board.outcome() is not None:
            continue
        choice = choose_move(expert, board.grid, board.rules, board.to_move)
        assert choice.move is not None and _keeps_outcome(board, choice.move), board.moves_string()


@pytest.mark.parametrize("rules", CLASSIC_VARIANTS, ids=variant_id)
def test_exact_levels_play_legal_moves_on_every_board(rules, rng):
    """Book and endgame knowledge apply where they can (books: the standard board; the
    solver: classic rules with gravity) and elsewhere the search plays on."""
    level = Level(3, book_discs=6, endgame_cells=rules.cells, solver_nodes=20_000)
    for _ in range(3):
        board = random_board(rules, rng, plies=rng.randrange(rules.cells // 2))
        if board.outcome() is not None:
            continue
        choice = choose_move(level, board.grid, board.rules, board.to_move)
        assert choice.move in board.legal_moves()


def test_a_cancelled_endgame_solve_stops_the_move():
    from ai.search import SearchCancelled
    from ai.solver import SolverStopped

    board = Board.from_moves("3164444332677421")
    with pytest.raises((SolverStopped, SearchCancelled)):
        choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move, should_stop=lambda: True)


WORK_POSITIONS = ("4453", "3463264777", "4127714712536724", "3164444332677421")
"""An opening, two middle games where Expert's node budget cuts its deepening (the second
where Hard and Expert try their solvers from 26 and 28 empty cells), and Hard's overruled
endgame; Perfect plays all four past or from its books."""

PLAY_ALL_PRESETS = """
import sys
from ai.levels import PRESETS
from ai.player import choose_move
from game.board import Board
for moves in sys.argv[1:]:
    board = Board.from_moves(moves)
    for name, level in PRESETS.items():
        answer = choose_move(level, board.grid, board.rules, board.to_move, seed=7)
        print(moves, name, answer.move, answer.nodes, answer.decided_by.name)
"""


@pytest.mark.slow
def test_every_preset_plays_the_same_moves_with_the_same_work_under_load():
    """A level is defined by work: with both cores busy it plays the same move after the
    same number of nodes as on an idle machine (each run in a fresh process)."""
    import subprocess
    import sys

    def run() -> str:
        command = [sys.executable, "-c", PLAY_ALL_PRESETS, *WORK_POSITIONS]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
        return done.stdout

    idle = run()
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        loaded = run()
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert loaded == idle
    assert len(idle.splitlines()) == len(WORK_POSITIONS) * len(PRESETS)


def test_a_levels_move_does_not_depend_on_what_the_process_solved_before():
    """Hard's endgame solve has a node budget: with the tables another look left behind
    it finished where it did not alone, and Hard played column 6 instead of 4.  Each of a
    level's moves now starts from empty tables, as a puzzle's rating and a seeded match
    rerun need."""
    board = Board.from_moves("46644423222663423")
    alone = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)
    choose_move(PRESETS["Expert"], board.grid, board.rules, board.to_move)
    after_expert = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)
    assert (after_expert.move, after_expert.nodes) == (alone.move, alone.nodes) == (3, alone.nodes)


def test_a_levels_own_solver_can_run_compiled_on_every_board_the_compiled_solver_takes():
    """A first version gave every board a million slots: on 7x8 the keys did not fit the
    compiled solver's packed words, the Python solver ran Expert's endgame, and one move took
    15.8 s instead of 0.45 s.  The table stays small (8 MB) where the keys fit."""
    sizes = [(r, c, k) for r in range(4, 10) for c in range(4, 10) for k in (3, 4, 5) if k <= min(r, c)]
    compiled = [rules for rules in (Rules(rows=r, cols=c, connect=k) for r, c, k in sizes) if fits_compiled(rules)]
    assert Rules(rows=7, cols=8) in compiled and Rules(rows=8, cols=7) in compiled
    for rules in compiled:
        assert level_solver(rules).table().array is not None, rules
    assert level_solver(Rules()).table().slots == SIGN_TABLE_SLOTS  # 8 MB where the keys fit
    assert level_solver(Rules(rows=8, cols=7)).table().slots == SIGN_TABLE_SLOTS  # 63-bit keys fit too
    assert level_solver(Rules(rows=7, cols=8)).table().slots == WIDE_TABLE_SLOTS  # 64-bit keys: 16 MB
    assert level_solver(Rules(rows=7, cols=9)).table().slots == SIGN_TABLE_SLOTS  # Python: kept small


def test_expert_solves_a_7x8_endgame_in_a_16_mb_table(monkeypatch):
    """At 37 empty cells of 7x8 Expert's endgame solve took 2.66 million nodes in a 64 MB
    table (0.47 s of CPU for one move): its own solver now has a 16 MB one, 1.6 times as
    fast a node, with the compiled solver.  Expert's nodes are its own on every board."""
    made: list = []

    def kept_level_solver(rules: Rules):
        made.append(level_solver(rules))
        return made[-1]

    monkeypatch.setattr(ai.player, "level_solver", kept_level_solver)
    rules, expert = Rules(rows=7, cols=8), PRESETS["Expert"]
    board = Board.from_moves("3533535512213152226", rules)
    assert rules.cells - board.ply == expert.endgame_cells_on(rules) == 37
    answer = choose_move(expert, board.grid, rules, board.to_move)
    (solver,) = made
    assert solver.compiled and 2_000_000 < solver.nodes <= expert.solver_nodes
    assert answer.exact is not None  # the solve finished: the position's outcome is known
    table = solver.table()
    assert (table.slots, table.array is not None) == (WIDE_TABLE_SLOTS, True)
    assert solver_nodes_for(expert, rules, 37) == solver_nodes_for(expert, Rules(), 28) == 4_000_000


@pytest.mark.slow
def test_a_hint_off_the_compiled_boards_gives_up_on_exact_scores_within_its_budget():
    """7x9 is too big for the compiled solver (72 bits a position): the hint's exact scores
    get the Python budget (not the 20M positions of 6x7, two minutes there) and the
    search's move stands.  7x8, 64 bits, is the largest board it takes."""
    from ai.answer import Purpose
    from ai.bitboard import fits_compiled
    from ai.levels import PYTHON_EXACT_NODES, exact_nodes

    rules = Rules(rows=7, cols=9)
    assert not fits_compiled(rules) and fits_compiled(Rules()) and fits_compiled(Rules(rows=7, cols=8))
    assert exact_nodes(rules) == PYTHON_EXACT_NODES
    answer = choose_move(PRESETS["Medium"], Board(rules).grid, rules, 1, purpose=Purpose.HINT)
    assert answer.move is not None and answer.column_scores is None and answer.exact is None


def test_expert_solves_two_thirds_of_any_board_the_compiled_solver_takes():
    """28 of 6x7's 42 cells, 37 of 7x8's 56 (the same count would leave Expert too close
    to Hard there); small boards keep 28, boards only the Python solver takes keep 28
    (a solve costs 35 times the time there); Hard's count is the same everywhere."""
    expert, hard = PRESETS["Expert"], PRESETS["Hard"]
    assert expert.endgame_cells_on(Rules()) == 28
    assert (
        expert.endgame_cells_on(Rules(rows=7, cols=8))
        == expert.endgame_cells_on(Rules(rows=7, cols=8, connect=5))
        == 37
    )
    assert expert.endgame_cells_on(Rules(rows=4, cols=5)) == 28
    assert expert.endgame_cells_on(Rules(rows=7, cols=9)) == 28
    assert expert.endgame_cells_on(Rules(rows=7, cols=8, gravity=False)) == 0
    assert {hard.endgame_cells_on(Rules(rows=r, cols=c)) for r, c in ((6, 7), (7, 8), (7, 9))} == {26}
    assert "solves the last 37 cells" in " ".join(describe(expert, Rules(rows=7, cols=8)))
