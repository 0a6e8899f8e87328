"""Pruning felt in the window, with the real worker and real scenes: the timing at the
first start kept and reused, a damaged one timed again, the play screen's line after a
computer move (its own numbers beside the other setting's search), and Stop on a long
move playing the best move found so far."""

from __future__ import annotations

import json

import numpy as np
import pygame

from ai.cost import Calibration, duration_text, expected_positions
from ai.levels import Level
from ai.search import search
from game.app.navigation import BackToTitle, ShowLevelSelect
from game.app.scenes import play_view
from game.app.scenes.play import PlayScene
from game.app.worker_protocol import CalibrateJob
from game.rules import STANDARD
from game.version import __version__
from tests.ui import drawn_texts, press, settle, step, wait_until

SLOW = Calibration(0.0005, 1_000_000.0, 1_000_000.0, "compiled", __version__)
"""A timing that makes a depth-9 search without pruning a long one (47 s expected)."""


def started(make_app, home):
    app = make_app((900, 700), home=home)
    app.reset(BackToTitle())
    step(app, 2)
    app.start_worker()  # as the loop does once the first frame is on screen
    return app


def test_the_first_start_times_the_search_in_the_worker_and_keeps_it(tmp_path, make_app):
    home = tmp_path / "home"
    app = started(make_app, home)
    assert app.settings.calibration is None
    assert wait_until(app, lambda: app.settings.calibration is not None, 240)
    kept = json.loads((home / "settings.json").read_text())["calibration"]
    assert Calibration(**kept) == app.settings.calibration and app.settings.calibration.is_sane()
    # The level screen says the times now.
    app.push(ShowLevelSelect())
    step(app, 3)
    assert any(text.startswith("On this computer a move to depth") for text, _ in drawn_texts(app))
    app.close()

    again = started(make_app, home)  # the second start: the timing is reused, not made again
    assert again.settings.calibration == app.settings.calibration
    step(again, 120)  # two seconds of frames with the worker idle
    assert again.timing.job_id is None and not again.timing.needed


def test_a_damaged_stored_timing_is_timed_again(tmp_path, make_app):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"calibration": {"full_rate": "fast"}, "rows": 7, "cols": 8}))
    app = started(make_app, home)
    assert app.settings.calibration is None and (app.settings.rows, app.settings.cols) == (7, 8)
    submitted = []
    submit = app.worker.submit
    app.worker.submit = lambda job, owner=None: submitted.append(job) or submit(job, owner)  # type: ignore[method-assign]
    assert wait_until(app, lambda: app.settings.calibration is not None, 240)
    assert [type(job) for job in submitted] == [CalibrateJob]
    assert app.settings.calibration.is_sane()


def test_a_computer_move_says_its_numbers_beside_the_other_settings_search(tmp_path, make_app):
    app = make_app((900, 700), home=tmp_path / "home")
    app.settings.calibration = SLOW
    play = PlayScene(STANDARD, Level(5, False), "computer", "computer")
    app.stack.push(play)
    assert wait_until(app, lambda: len(play.match.moves) == 1, 60)
    assert wait_until(app, lambda: play.jobs.other is not None and play.jobs.other.searched, 60)
    step(app, 2)
    record = play.records.done[-1]
    line = play.detail()
    # The move's own search: depth 5 without pruning from the empty board, all of it.
    assert record.result.stats.total_nodes == expected_positions(STANDARD, 5, False) == 19_607
    assert line.startswith(f"{duration_text(record.result.stats.seconds)}, 19,607 positions; with alpha-beta")
    # The other setting, searched after the move in the worker: alpha-beta's real count.
    pruned = search(np.zeros((6, 7), dtype=np.int8), STANDARD, 5, pruning=True)
    assert play.jobs.other.positions == pruned.stats.total_nodes
    assert line.endswith(f", {pruned.stats.total_nodes:,} (searched)")
    # The person moves: the line goes with the move it was about.
    settle(app, play)
    press(app, pygame.K_1)
    assert len(play.match.moves) == 2 and play.jobs.other is None
    assert "positions; with alpha-beta" not in play.detail()


def test_a_long_move_shows_its_progress_and_stop_plays_a_legal_best_move(tmp_path, make_app):
    app = make_app((900, 700), home=tmp_path / "home")
    app.settings.calibration = SLOW
    play = PlayScene(STANDARD, Level(9, False), "computer", "computer")
    app.stack.push(play)
    assert wait_until(app, lambda: play.jobs.progress is not None and play.jobs.progress.nodes > 100_000, 60)
    assert play.jobs.is_long()
    line = play.detail()
    assert "of about 47,079,207 positions" in line and "X: stop, play the best so far" in line
    assert play_view.toolbar(play)["hint"] is play.stop_button
    press(app, pygame.K_x)
    assert "stopping: the best move so far comes" in play.detail()
    assert wait_until(app, lambda: len(play.match.moves) == 1, 30)
    answer = play.jobs.report.answer
    assert answer.note is not None and answer.note.startswith("stopped: a quick")
    assert 100_000 < answer.nodes < 47_079_207
    assert play.match.moves[0] in range(7)
    assert "stopped: a quick" in play.detail()
    assert play_view.toolbar(play)["hint"] is play.buttons["hint"]  # Hint is back once the move is made
