"""Pruning felt in play: this machine's timing, kept with the settings, and the times it
promises (``ai.cost``, ``ai.timing``); a person's Stop of a long move (``ai.player.Thinking``).

The window's side (the timing at the first start, the play screen's line, Stop) is in
tests/test_timing_window.py.  How close the promises come is a benchmark
(``python -m lab.timing_bench``), never a timed test.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace

import numpy as np
import pytest

from ai.answer import DecidedBy
from ai.cost import Calibration, duration_text, expected_positions, felt_depth, search_seconds, time_lines
from ai.levels import Level
from ai.player import Thinking
from ai.search import search
from ai.timing import calibrate
from game.app.settings import Settings, read_settings, save_settings
from game.board import Board
from game.i18n import set_language
from game.rules import STANDARD
from game.version import __version__

MEASURED = Calibration(0.0005, 10_000_000.0, 5_000_000.0, "compiled", __version__)
"""A timing like the project's machine's (a tenth of a millisecond a pass, ten million
positions a second without pruning)."""


def test_the_timing_measures_this_machine_and_is_believable():
    calibration = calibrate()
    assert calibration.is_sane()
    assert calibration.version == __version__
    # Pruning visits far fewer positions: from the empty board a move to depth 8 takes
    # longer without it, by the timing as by the search itself.
    assert search_seconds(STANDARD, 8, False, calibration) > search_seconds(STANDARD, 8, True, calibration)


def test_the_positions_promised_are_the_searchs_own_within_a_factor_of_two():
    grid = np.zeros((6, 7), dtype=np.int8)
    for depth in range(4, 8):
        for pruning in (False, True):
            visited = search(grid, STANDARD, depth, pruning=pruning).stats.total_nodes
            expected = expected_positions(STANDARD, depth, pruning)
            assert visited / 2 <= expected <= visited * 2, (depth, pruning, visited, expected)
            if not pruning:  # the full tree from the empty board, exactly (no game ends before ply 7)
                assert expected == visited or depth == 7


def test_the_level_screen_says_both_times_where_they_come_from_and_the_felt_depth():
    set_language("en")
    lines = time_lines(STANDARD, 6, MEASURED)
    assert "to depth 6" in lines[0] and "137,256 positions" in lines[0]
    assert duration_text(search_seconds(STANDARD, 6, False, MEASURED)) in lines[0]
    assert duration_text(search_seconds(STANDARD, 6, True, MEASURED)) in lines[0]
    assert "Measured at the first start, in CPU time" in lines[1] and "10,000,000 positions a second" in lines[1]
    felt = felt_depth(STANDARD, MEASURED)
    assert felt == 9  # depth 8: 6,725,600 positions, 0.67 s, not yet felt; depth 9: 47 million, 4.7 s
    assert f"felt from depth {felt}" in lines[2]
    assert time_lines(STANDARD, 10, MEASURED)[2].startswith("Here the difference is felt")
    assert "Timing this computer" in time_lines(STANDARD, 6, None)[0]


def test_the_times_are_said_in_german_with_german_numbers():
    set_language("de")
    try:
        line = time_lines(STANDARD, 8, MEASURED)[0]
        assert "6.725.600 Stellungen" in line and "ohne Beschneidung" in line
        assert duration_text(0.0426) == "0,043 s" and duration_text(0.0004) == "0,40 ms"
    finally:
        set_language("en")


def test_the_timing_is_kept_with_the_settings_and_read_back(tmp_path):
    path = tmp_path / "settings.json"
    save_settings(Settings(calibration=MEASURED), path)
    report = read_settings(path)
    assert report.settings.calibration == MEASURED and not report.problems


@pytest.mark.parametrize(
    "stored",
    [
        "fast",
        [1, 2],
        {},
        {"pass_seconds": 0.001},
        {**asdict(MEASURED), "full_rate": -5.0},
        {**asdict(MEASURED), "full_rate": "10000000"},
        {**asdict(MEASURED), "pruned_rate": 1e400},
        {**asdict(MEASURED), "pass_seconds": True},
        {**asdict(MEASURED), "engine": "quantum"},
        {**asdict(MEASURED), "version": 3},
        {**asdict(MEASURED), "extra": 1},
        {**asdict(MEASURED), "full_rate": 10**50},
    ],
)
def test_a_corrupt_stored_timing_is_ignored_and_said_the_rest_kept(tmp_path, stored):
    path = tmp_path / "settings.json"
    text = json.dumps({"rows": 7, "cols": 8, "calibration": stored})
    path.write_text(text.replace("Infinity", "1e400"))
    report = read_settings(path)
    assert report.settings.calibration is None  # the game times the search again
    assert (report.settings.rows, report.settings.cols) == (7, 8)
    assert any(problem.startswith("calibration=") for problem in report.problems)


def test_a_stop_plays_the_deepest_finished_pass_of_an_alpha_beta_search():
    reports = []

    def finish() -> bool:  # the person's Stop, once three passes have finished
        return any(report.completed_depth >= 3 for report in reports)

    board = Board.from_moves("4453", STANDARD)
    thinking = Thinking(Level(40, True), board, None, should_finish=finish, on_report=reports.append)
    answer = thinking.run()
    assert answer.decided_by is DecidedBy.FALLBACK and answer.note is not None
    assert answer.note.startswith("stopped: the deepest finished pass")
    assert answer.move in board.legal_moves()
    deepest = max(report.completed_depth for report in reports)
    assert search(board.grid, STANDARD, deepest, to_move=board.to_move).move == answer.move


def test_a_stop_of_a_full_width_search_plays_the_alpha_beta_search_made_first():
    reports = []

    def finish() -> bool:  # Stop after 50,000 positions of a depth-12 full-width search
        return bool(reports) and reports[-1].nodes > 50_000

    board = Board.from_moves("44", STANDARD)
    thinking = Thinking(Level(12, False), board, None, should_finish=finish, on_report=reports.append)
    answer = thinking.run()
    assert answer.decided_by is DecidedBy.FALLBACK and answer.note is not None
    assert answer.note.startswith("stopped: a quick") and "alpha-beta search answered" in answer.note
    assert answer.move in board.legal_moves()
    assert 50_000 < answer.nodes < expected_positions(STANDARD, 12, False, 7)  # the full search's so far


def test_a_cancel_is_not_a_stop_it_gives_no_move():
    from ai.search import SearchCancelled

    board = Board(STANDARD)
    thinking = Thinking(replace(Level(12, False)), board, None, should_stop=lambda: True, should_finish=lambda: False)
    with pytest.raises(SearchCancelled):
        thinking.run()
