"""Monte Carlo tree search (``ai.mcts``) and the level ``mcts:N`` that plays it."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from ai.answer import DecidedBy
from ai.compiled import mcts_kernel
from ai.levels import (
    MCTS_MEASURED,
    MCTS_MEASURED_GAMES,
    MCTS_PLAYOUTS,
    LevelNotFound,
    describe,
    find_level,
    level_label,
    level_names,
    mcts_level,
    mcts_name,
)
from ai.mcts import DRAW, MAX_WON, MIN_WON, MctsError, mcts
from ai.player import choose_move, column_scores
from ai.search import search
from ai.search_types import SearchCancelled
from game.board import Board
from game.bots import connectx
from game.rules import MAX, Mode, Rules
from tests.helpers import random_board
from tests.test_cli import assert_clean_error
from tests.test_cli import run as run_cli
from tests.test_engine import EngineProcess

TACTICS = [
    # (moves, the one right column 1-based, what it is)
    ("112233", 4, "player 1 wins at once on the bottom row"),
    ("1212727", 2, "player 2 wins at once in column 2"),
    ("11223", 4, "player 2's only block of the bottom row"),
    ("12121", 1, "player 2's only block of column 1"),
]


def run(moves: str, playouts: int, seed: int = 0, rules: Rules = Rules()):
    board = Board.from_moves(moves, rules)
    return mcts(board.grid, board.rules, playouts, to_move=board.to_move, seed=seed)


def tree_fingerprint(result) -> list[tuple[int | None, int, int | None, int, float]]:
    return [(n.parent.index if n.parent else None, n.index, n.move, n.visits, n.mean) for n in result.tree.iter_nodes()]


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(mode=Mode.FULL_BOARD), Rules(rows=5, cols=5, connect=3, gravity=False)], ids=str
)
def test_the_roots_visits_are_the_playouts_and_no_node_has_fewer_visits_than_its_children(rules, rng):
    for _ in range(3):
        board = random_board(rules, rng, rng.randrange(0, 8))
        if board.is_game_over():
            continue
        result = mcts(board.grid, rules, 700, to_move=board.to_move, seed=rng.randrange(1000))
        tree = result.tree
        assert tree.root.visits == result.playouts == 700
        started_at = [0] * len(tree)
        for number in range(result.playouts):
            started_at[tree.playout(number).path[-1]] += 1
        for node in tree.iter_nodes():
            below = sum(child.visits for child in node.children())
            assert below <= node.visits
            assert all(child.visits <= node.visits for child in node.children())
            assert node.visits == started_at[node.index] + below  # back-up counted every playout once
        assert len(tree) <= result.playouts + 1  # one node a playout at most


@pytest.mark.parametrize("moves, column, why", TACTICS, ids=[t[2] for t in TACTICS])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finds_the_win_at_once_and_the_only_block_with_5000_playouts(moves, column, why, seed):
    result = run(moves, 5000, seed)
    assert result.move == column - 1, f"{why}: played {result.move + 1}"


def test_tactical_positions_have_the_answer_the_test_says():
    """The positions above: the win wins, the block is the only move that does not lose at once."""
    for moves, column, _why in TACTICS:
        board = Board.from_moves(moves)
        wins_now = []
        for move in board.legal_moves():
            board.push(move)
            if board.outcome() is not None:
                wins_now.append(move)
            board.pop()
        if wins_now:
            assert wins_now == [column - 1]
            continue
        saving = []
        for move in board.legal_moves():
            board.push(move)
            replies = board.legal_moves()
            loses = False
            for reply in replies:
                board.push(reply)
                loses |= board.outcome() is not None
                board.pop()
            if not loses:
                saving.append(move)
            board.pop()
        assert saving == [column - 1], moves


def test_the_same_seed_grows_the_same_tree_and_another_seed_another():
    first, again, other = run("4453", 1500, seed=7), run("4453", 1500, seed=7), run("4453", 1500, seed=8)
    assert tree_fingerprint(first) == tree_fingerprint(again)
    assert [first.tree.playout(n) for n in range(1500)] == [again.tree.playout(n) for n in range(1500)]
    assert tree_fingerprint(first) != tree_fingerprint(other)


def test_the_move_is_the_most_visited_root_child_and_the_line_follows_visits():
    result = run("", 2000, seed=3)
    children = result.root_children
    assert [c.move for c in children] == list(range(7))
    assert result.move == max(children, key=lambda c: (c.visits, c.mean)).move
    line = result.tree.best_line()
    assert line[0].move == result.move
    for above, below in zip(line, line[1:]):
        assert below.parent == above and below.visits == max(c.visits for c in above.children())
    assert result.principal_variation == tuple(n.move for n in line)


def test_ucb_is_the_mean_plus_the_exploration_term():
    result = run("44", 400, seed=1)
    root = result.tree.root
    for child in root.children():
        assert child.ucb == pytest.approx(child.mean + 2**0.5 * (math.log(root.visits) / child.visits) ** 0.5)
    assert root.ucb is None


def test_each_playout_is_kept_for_replay_and_ends_the_game():
    rules = Rules()
    result = run("4453", 300, seed=5)
    tree = result.tree
    for number in range(result.playouts):
        playout = tree.playout(number)
        node = tree.node(playout.path[-1])
        assert playout.path[0] == 0 and len(playout.path) == node.ply + 1
        if playout.expanded is None:  # selection ended on a finished game: no new node, no random moves
            assert node.game_over is not None and playout.moves == ()
        else:
            assert playout.expanded == node.index
        board = Board.from_moves("4453" + "".join(str(m + 1) for m in node.path() + list(playout.moves)), rules)
        outcome = board.outcome()
        assert outcome is not None
        expected = DRAW if outcome.winner is None else MAX_WON if outcome.winner == MAX else MIN_WON
        assert playout.result == expected


def test_a_finished_game_answers_no_move_and_bad_budgets_are_refused():
    assert run("4455667", 10).move is None
    with pytest.raises(MctsError, match="1 to 1,000,000 playouts"):
        run("", 0)


def test_a_stop_request_cancels_and_a_clock_answers_with_the_playouts_so_far():
    board = Board()
    with pytest.raises(SearchCancelled):
        mcts(board.grid, board.rules, 10_000, to_move=board.to_move, should_stop=lambda: True)
    cut = mcts(board.grid, board.rules, 10_000, to_move=board.to_move, time_limit=0.0)
    assert not cut.completed and cut.playouts == 64 and cut.tree.root.visits == 64 and cut.move is not None


def test_the_level_mcts_n_is_found_by_name_and_plays_its_search():
    level = find_level("MCTS:3000")
    assert level.playouts == 3000 and level.is_mcts and level_label(level) == "MCTS 3,000"
    assert "mcts:N[+solver][+tactics]" in level_names()
    for bad in ("mcts:0", "mcts:", "mcts:1e3", "mcts:2000000", "mcts:100+sover", "mcts:100+solver+solver"):
        with pytest.raises(LevelNotFound, match="mcts:N"):
            find_level(bad)
    both = find_level("mcts:20000+TACTICS+solver")
    assert both.mcts_solver and both.mcts_tactics and both.playouts == 20000
    assert find_level(mcts_name(both)) == both and mcts_name(both) == "mcts:20000+solver+tactics"
    assert level_label(both) == "MCTS-Solver 20,000, tactical playouts"
    board = Board.from_moves("11223")
    answer = choose_move(level, board.grid, board.rules, board.to_move, seed=4)
    assert answer.decided_by is DecidedBy.MCTS and answer.move == 3
    assert answer.mcts is not None and answer.mcts.playouts == 3000 and answer.mcts.seed == 4
    again = choose_move(level, board.grid, board.rules, board.to_move, seed=4)
    assert tree_fingerprint(again.mcts) == tree_fingerprint(answer.mcts)


def test_the_level_answers_on_an_outside_clock_with_the_playouts_it_ran():
    mcts_kernel.LOADER.prepare()  # compiled ahead (a clock never waits for the first start's compiling)
    board = Board.from_moves("4453")
    # a second: a loaded machine still runs playouts in it (at 0.3 s the safety net answered)
    answer = choose_move(find_level("mcts:1000000"), board.grid, board.rules, board.to_move, movetime=1.0)
    assert answer.move is not None and board.is_legal(answer.move)
    assert answer.cut_short and answer.note is not None and "playouts" in answer.note


def test_the_connectx_agent_plays_mcts_levels(monkeypatch):
    monkeypatch.setenv(connectx.LEVEL_ENV, "mcts:2000")
    board = Board.from_moves("112233")
    cells = [0 if v == 0 else (1 if v == MAX else 2) for v in board.grid.reshape(-1).tolist()]
    assert connectx.agent({"board": cells, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}) == 3


def test_analyze_mcts_prints_the_move_each_childs_visits_and_writes_every_node(tmp_path):
    target = tmp_path / "mcts.json"
    ran = run_cli("analyze", "11223", "--mcts", "5000", "--seed", "2", "--export-tree", str(target))
    assert ran.returncode == 0, ran.stderr
    assert "Best move: 4" in ran.stdout
    found = run("11223", 5000, seed=2)
    for child in found.root_children:  # the same search: the same visits and means, column by column
        assert f"  {child.move + 1}: {child.visits:>8,} visits   mean {child.mean:.3f}" in ran.stdout
    assert "5,000 playouts (seed 2)" in ran.stdout and "Exact values" in ran.stdout
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["search"] == "mcts" and data["playouts"] == 5000 and len(data["nodes"]) == len(found.tree)
    first = data["nodes"][0]
    assert first["parent"] is None and first["visits"] == 5000
    assert set(first) >= {"id", "parent", "move", "visits", "value"}
    by_id = {node["id"]: node for node in data["nodes"]}
    for node in data["nodes"][1:]:
        assert by_id[node["parent"]]["visits"] >= node["visits"]


def test_analyze_mcts_draws_a_dot_picture_and_refuses_bad_budgets_in_one_line(tmp_path):
    target = tmp_path / "mcts.dot"
    ran = run_cli("analyze", "4453", "--mcts", "2000", "--export-tree", str(target), "--tree", "--tree-depth", "1")
    assert ran.returncode == 0, ran.stderr
    assert target.read_text(encoding="utf-8").startswith("digraph mcts {") and "MCTS tree" in ran.stdout
    assert_clean_error(run_cli("analyze", "4453", "--mcts", "0"), "--mcts must be 1 to 1,000,000 playouts")


def test_the_engine_and_the_match_runner_play_mcts_levels():
    engine = EngineProcess("--level", "mcts:2000")
    try:
        engine.send("position 0 0 1 1 2", "go")  # 0-based on the wire: player 2 must block column 3
        assert engine.read_until("bestmove")[-1] == "bestmove 3"
    finally:
        engine.process.kill()
        engine.process.wait()
    ran = run_cli("match", "mcts:300", "depth:1", "--games", "2", "--jobs", "1")
    assert ran.returncode == 0, ran.stderr
    assert "A mcts:300" in ran.stdout and "games lost by failure: none" in ran.stdout


def test_a_solver_level_plays_the_proven_move_and_says_the_exact_result():
    board = Board.from_moves("2252576253462244111563365343671351441")  # player 2 to move loses
    answer = choose_move(find_level("mcts:5000+solver"), board.grid, board.rules, board.to_move)
    assert answer.decided_by is DecidedBy.MCTS and answer.mcts.proved.value == "loss"
    assert answer.exact is not None and answer.exact.winner == MAX and answer.mcts.playouts < 5000
    plain = choose_move(find_level("mcts:5000"), board.grid, board.rules, board.to_move)
    assert plain.exact is None and plain.mcts.playouts == 5000


def test_analyze_json_says_the_search_in_one_object():
    ran = run_cli("analyze", "4453", "--json", "--depth", "4")
    assert ran.returncode == 0, ran.stderr
    data = json.loads(ran.stdout)
    board = Board.from_moves("4453")
    result = search(board.grid, board.rules, 4, to_move=board.to_move, table=True)  # analyze's default: the table on
    assert data["search"] == "minimax" and data["move"] == str(result.move + 1) and data["value"] == result.value
    assert data["depth"] == 4 and data["nodes"] == result.stats.total_nodes and data["pruning"] is True
    assert data["table"] == result.stats.table.as_dict() and data["seconds"] >= 0 and data["moves"] == "4453"
    assert set(data["table"]) == {"probes", "hits", "stores", "cutoffs"}
    assert 0 < data["table"]["hits"] <= data["table"]["probes"]
    without = json.loads(run_cli("analyze", "4453", "--json", "--depth", "4", "--no-table").stdout)
    assert without["table"] is None and (without["move"], without["value"]) == (data["move"], data["value"])
    assert without["nodes"] == search(board.grid, board.rules, 4, to_move=board.to_move).stats.total_nodes
    assert without["nodes"] > data["nodes"]
    exact = column_scores(board.grid, board.rules, board.to_move)
    assert data["exact"] == {str(col + 1): score.score(board.to_move, board.grid) for col, score in exact.items()}
    unpruned = json.loads(run_cli("analyze", "4453", "--json", "--depth", "4", "--no-pruning").stdout)
    assert unpruned["pruning"] is False and unpruned["value"] == data["value"] and unpruned["nodes"] > data["nodes"]


def test_analyze_json_with_mcts_gives_each_childs_visits_and_mean_and_the_proof():
    ran = run_cli("analyze", "11223", "--mcts", "3000", "--seed", "5", "--json")
    assert ran.returncode == 0, ran.stderr
    data = json.loads(ran.stdout)
    found = run("11223", 3000, seed=5)
    assert data["search"] == "mcts" and data["playouts"] == 3000 and data["move"] == "4" and data["proved"] is None
    assert data["nodes"] == len(found.tree) and data["table"] is None and data["pruning"] is None
    assert [(c["move"], c["visits"], c["mean"]) for c in data["children"]] == [
        (str(c.move + 1), c.visits, round(c.mean, 6)) for c in found.root_children
    ]
    refused = run_cli("analyze", "11223", "--mcts", "300", "--no-table")  # minimax's switch: no table in MCTS
    assert_clean_error(refused, "--no-table")
    proved = json.loads(
        run_cli(
            "analyze", "2252576253462244111563365343671351441", "--mcts", "200000", "--mcts-solver", "--json"
        ).stdout
    )
    assert proved["proved"] == "loss" and proved["solver"] and proved["playouts"] < 200000
    assert {c["proved"] for c in proved["children"]} == {"loss"}
    assert all(score < 0 for score in proved["exact"].values())  # the referee agrees


def test_analyze_refuses_mcts_switches_without_mcts_and_tree_text_with_json():
    assert_clean_error(run_cli("analyze", "4453", "--mcts-solver"), "--mcts-solver")
    assert_clean_error(run_cli("analyze", "4453", "--json", "--tree"), "--export-tree")


def test_the_level_screen_says_what_the_ladder_measured_of_every_mcts_level_it_offers():
    """docs/strength.md's table (72 games a pair) and the level screen's line agree."""
    table = (Path(__file__).resolve().parent.parent / "docs" / "strength.md").read_text(encoding="utf-8")
    rows = re.findall(r"^  (mcts:\S+) vs (\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)%", table, flags=re.MULTILINE)
    scores = {(name, opponent): float(score) for name, opponent, _w, _d, _l, score in rows}
    for playouts in MCTS_PLAYOUTS[1:]:
        for solver in (False, True):
            for tactics in (False, True):
                level = mcts_level(playouts, solver=solver, tactics=tactics)
                said = describe(level, Rules())[-1]
                measured = MCTS_MEASURED[(playouts, solver, tactics)]
                for opponent, percent in zip(("Beginner", "Easy", "Medium", "Hard"), measured):
                    games = sum(
                        int(n) for name, o, *wdl, _s in rows if name == mcts_name(level) and o == opponent for n in wdl
                    )
                    assert games == MCTS_MEASURED_GAMES
                    assert percent == int(scores[(mcts_name(level), opponent)] + 0.5)
                    assert f"{percent}% against {opponent}" in said
