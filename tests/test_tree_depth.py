"""Depth against truth: the measurement, the chart in the window and the CLI's PNG."""

from __future__ import annotations

import pygame
import pytest

from ai.depth_truth import benchmark_boards, depth_truth
from ai.levels import Level
from ai.perfect import exact_column_scores
from ai.search import search
from game.app.scenes.play import PlayScene, SearchRecord
from game.app.tree.depth_scene import DepthChartScene
from game.app.worker import JobPurpose
from game.board import Board
from game.cli import main
from tests.ui import press, step, wait_until


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
    board = Board.from_moves("4453")
    result = search(board.grid, board.rules, 4, record_tree=True, to_move=board.to_move)
    play = PlayScene(board.rules, Level(4), "computer")
    play.searches.append(SearchRecord(4, board.to_move, JobPurpose.MOVE, result))
    app.stack.push(play)
    step(app)
    press(app, pygame.K_t, frames=2)
    press(app, pygame.K_d, frames=2)
    chart = app.stack.top
    assert isinstance(chart, DepthChartScene) and chart.job.running  # a job for the worker
    asked = chart.job.id
    press(app, pygame.K_ESCAPE, frames=2)  # closing cancels the measurement
    assert app.worker.current != asked and chart.job.id is None and chart.bench is None
    assert app.worker.cancelled_upto() >= asked
    assert type(app.stack.top).__name__ == "TreeScene"
    small = DepthChartScene(result.tree, positions=1)
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
