"""Depth against truth: the measurement, the chart in the window and the CLI's PNG."""

from __future__ import annotations

import pygame
import pytest

from ai.depth_truth import benchmark_boards, depth_truth
from ai.perfect import exact_column_scores
from ai.search import search
from game.app.tree.depth_scene import DepthChartScene
from game.board import Board
from game.launcher import main
from tests.ui import open_tree_after, press, wait_until


def test_a_move_that_throws_the_win_away_is_counted_as_not_keeping_it():
    # Player 1 wins by force here; at depth 1 the search cannot see it through.
    board = Board.from_moves("4453")
    truth = depth_truth([board], "4453", depths=range(1, 5))
    scores = exact_column_scores(board.grid, board.rules, board.to_move)
    assert scores is not None
    best = max(scores.values())
    for row in truth.rows:
        move = search(board.grid, board.rules, row.depth, to_move=board.to_move).move
        assert move is not None
        assert row.judged == 1 and row.kept == int((scores[move] > 0) == (best > 0))
        assert row.full_nodes is not None and row.pruned_nodes is not None
    assert truth.rows[-1].full_nodes > truth.rows[-1].pruned_nodes  # pruning pays at depth 4


def test_the_benchmark_sample_is_seeded_and_critical():
    first, again = benchmark_boards(3), benchmark_boards(3)
    assert [b.moves for b in first] == [b.moves for b in again]
    for board in first:
        scores = exact_column_scores(board.grid, board.rules, board.to_move)
        assert scores is not None and len({(s > 0) - (s < 0) for s in scores.values()}) > 1


def test_d_opens_the_chart_which_measures_away_from_the_frames_and_stops_on_close(app):
    tree = open_tree_after(app, "4453", 4).known_tree
    press(app, pygame.K_d, frames=2)
    chart = app.stack.top
    assert isinstance(chart, DepthChartScene) and chart.job.running  # a job for the worker
    asked = chart.job.id
    press(app, pygame.K_ESCAPE, frames=2)  # closing cancels the measurement
    assert app.worker.current != asked and chart.job.id is None and chart.bench is None
    assert app.worker.cancelled_upto() >= asked
    assert type(app.stack.top).__name__ == "TreeScene"
    small = DepthChartScene(tree, positions=1)
    app.stack.push(small)
    assert wait_until(app, lambda: small.done, 120)
    assert small.failed is None and small.current is not None and small.bench is not None
    assert small.bench.positions == 1 and all(row.judged <= 1 for row in small.bench.rows)


@pytest.mark.slow
def test_cli_depth_chart_writes_a_png_and_prints_the_table(tmp_path, capsys):
    target = tmp_path / "chart.png"
    assert main(["depth-chart", "4453", "--positions", "1", "--out", str(target)]) == 0
    said = capsys.readouterr().out
    assert "depth" in said and f"Chart written to {target}" in said and len(said.splitlines()) >= 13
    image = pygame.image.load(str(target))
    assert image.get_size() == (1000, 680)
    assert main(["depth-chart", "--out", str(tmp_path / "chart.txt")]) == 2


def test_cli_depth_chart_refuses_before_any_work(tmp_path, capsys):
    assert main(["depth-chart", "--positions", "0", "--out", str(tmp_path / "a.png")]) == 2
    assert "nothing to chart" in capsys.readouterr().err
    assert main(["depth-chart", "44", "--out", str(tmp_path / "missing" / "a.png")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["depth-chart", "8", "--out", str(tmp_path / "a.png")]) == 2
    assert "column 8" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.slow  # several seconds: out of the quick lane, in the full run
def test_the_chart_says_why_an_outcome_or_a_depth_is_missing():
    """'depth-chart 4453' said "without an exact outcome (off the standard board or not
    solved in time)" of a position analyze solves, and "(0 nodes)" at a depth it never
    searched.  The exact outcome is now asked with a budget of positions (the hints' own,
    the same on every machine), and each gap says which reason it is."""
    from ai.depth_truth import PRUNED_CAP, exact_outcome, position_cell
    from ai.perfect import PerfectPlayer
    from game.rules import Rules

    player = PerfectPlayer()
    board = Board.from_moves("4453")
    scores, why = exact_outcome(player, board)
    assert scores is not None and why == ""
    scores, why = exact_outcome(player, Board.from_moves("4453", Rules(rows=5, cols=5)))
    assert scores is None and "standard board" in why and "time" not in why
    past_the_book = Board.from_moves("4444413222242")  # 13 discs: the solver searches
    scores, why = exact_outcome(PerfectPlayer(), past_the_book, node_limit=5)
    assert scores is None and why == "not solved within 5 positions", why
    truth = depth_truth([board], "4453", depths=range(11, 13))
    deep = truth.rows[-1]
    assert deep.depth == 12 and deep.pruned_nodes is None
    assert "0 nodes" not in position_cell(deep) and f"{PRUNED_CAP:,}" in position_cell(deep)
    assert "12" in truth.note and f"{PRUNED_CAP:,}" in truth.note
    assert position_cell(truth.rows[0]).startswith("keeps (")


@pytest.mark.slow
def test_the_first_depth_chart_judges_the_position_while_the_solver_compiles(tmp_path):
    """On a first start the solver compiles (more than 5 s here): the chart's 5-second
    limit ran out and every depth said "-", though analyze solves the position."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "fresh-cache"), "SDL_VIDEODRIVER": "dummy"}
    proc = subprocess.run(
        [
            sys.executable,
            str(root / "main.py"),
            "depth-chart",
            "4453",
            "--positions",
            "0",
            "--out",
            str(tmp_path / "c.png"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=root,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines() if line.strip()[:2].strip().isdigit()]
    assert len(rows) == 12 and rows[0][1] == "keeps", proc.stdout
    assert "without an exact outcome" not in proc.stdout and "(0 nodes)" not in proc.stdout
