"""The game window, driven headless through real scenes, events and frames."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pygame
import pytest

from ai.answer import Answer, DecidedBy
from ai.exact import ExactScore
from ai.levels import Level
from game.app.scene import Scene
from game.app.scenes.game_over import GameOverScene
from game.app.scenes.help import HowToPlayScene
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.play_text import Report
from game.app.scenes.title import TitleScene
from game.app.worker_protocol import JobPurpose
from game.rules import MAX, MIN, Mode, Rules
from tests.ui import FRAME, click, column_point, drawn_texts, press, settle, step, wait_until

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.window  # drives the real window (deselect with -m 'not window')


# -- the scene stack -----------------------------------------------------------------
class Recorder(Scene):
    def __init__(self, name: str, log: list, overlay: bool = False, color=(0, 0, 0)):
        super().__init__()
        self.name, self.log, self.is_overlay, self.color = name, log, overlay, color

    def on_enter(self):
        self.log.append(f"enter {self.name}")

    def on_exit(self):
        self.log.append(f"exit {self.name}")

    def on_pause(self):
        self.log.append(f"pause {self.name}")

    def on_resume(self):
        self.log.append(f"resume {self.name}")

    def update(self, dt):
        self.log.append(f"update {self.name}")

    def draw(self, surface):
        if self.is_overlay:
            pygame.draw.rect(surface, self.color, (0, 0, 10, 10))
        else:
            surface.fill(self.color)


def test_stack_changes_happen_between_frames(app):
    log: list = []
    a, b, c = Recorder("a", log), Recorder("b", log), Recorder("c", log)
    app.stack.push(a)
    assert len(app.stack) == 0  # only requested
    step(app)
    assert app.stack.top is a and "enter a" in log
    log.clear()
    app.stack.push(b)
    app.stack.replace(c)
    assert app.stack.top is a
    step(app)
    assert [s.name for s in app.stack.scenes] == ["a", "c"]
    assert log == ["update a", "pause a", "enter b", "exit b", "enter c"]
    log.clear()
    app.stack.pop()
    step(app)
    assert app.stack.top is a and log == ["update c", "exit c", "resume a"]  # a updates next frame


def test_overlay_draws_over_the_scene_beneath(app):
    log: list = []
    base = Recorder("base", log, color=(200, 10, 10))
    over = Recorder("over", log, overlay=True, color=(10, 200, 10))
    app.stack.push(base)
    app.stack.push(over)
    step(app)
    surface = pygame.display.get_surface()
    assert app.stack.visible() == [base, over]
    assert surface.get_at((5, 5))[:3] == (10, 200, 10)
    assert surface.get_at((100, 100))[:3] == (200, 10, 10)
    step(app)
    assert log.count("update over") == 1 and "update base" not in log  # only the top updates


def test_popping_the_last_scene_quits(app):
    app.stack.push(Recorder("only", []))
    step(app)
    app.stack.pop()
    assert app.step([], FRAME) is False
    assert not app.running


def test_closing_the_window_quits(app):
    app.stack.push(TitleScene())
    step(app)
    assert app.step([pygame.event.Event(pygame.QUIT)], FRAME) is False


# -- every scene builds, draws and answers its controls -------------------------------------
def test_title_menu_keys_and_clicks(app):
    app.stack.push(TitleScene())
    step(app, 2)
    press(app, pygame.K_DOWN)  # Two players
    press(app, pygame.K_RETURN, frames=2)
    play = app.stack.top
    assert isinstance(play, PlayScene) and play.opponent == "human"
    press(app, pygame.K_ESCAPE, frames=2)
    assert isinstance(app.stack.top, PauseScene)
    pause = app.stack.top
    click(app, pause.buttons[3].rect.center)  # Main menu
    step(app)
    title = app.stack.top
    assert isinstance(title, TitleScene) and len(app.stack) == 1
    click(app, title.buttons[3].rect.center)  # Options
    step(app)
    assert isinstance(app.stack.top, OptionsScene)
    press(app, pygame.K_ESCAPE, frames=2)
    click(app, title.buttons[4].rect.center)  # How to play
    step(app)
    assert isinstance(app.stack.top, HowToPlayScene)
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.stack.top is title
    click(app, title.buttons[0].rect.center)  # Play vs computer -> level select
    step(app)
    assert isinstance(app.stack.top, LevelSelectScene)
    press(app, pygame.K_ESCAPE, frames=2)
    press(app, pygame.K_ESCAPE, frames=2)  # Esc on the title asks first
    assert app.running and "Press Esc again to quit" in title.subtitle_lines()[1]
    press(app, pygame.K_ESCAPE, frames=2)  # and quits on the second press
    assert not app.running


def test_a_key_between_two_escs_on_the_title_means_the_next_esc_asks_again(app):
    app.stack.push(TitleScene())
    step(app, 2)
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_ESCAPE)
    assert app.running
    step(app, int(4 / FRAME))  # past the 3 s of the question: it is asked again
    press(app, pygame.K_ESCAPE)
    assert app.running
    press(app, pygame.K_ESCAPE)
    assert not app.running


def test_options_change_and_save_the_rules(app):
    app.stack.push(OptionsScene())
    step(app, 2)
    options = app.stack.top
    press(app, pygame.K_DOWN)  # rows
    press(app, pygame.K_RIGHT)
    assert app.settings.rows == 7
    press(app, pygame.K_DOWN)  # columns
    press(app, pygame.K_LEFT)
    assert app.settings.cols == 6
    left, right = options.connect.arrow_rects()
    click(app, right.center)
    assert app.settings.connect == 5
    click(app, options.mode.arrow_rects()[1].center)
    assert app.settings.mode == "full-board"
    click(app, options.gravity.arrow_rects()[1].center)
    assert app.settings.gravity is False
    click(app, options.sound.arrow_rects()[1].center)
    assert app.settings.sound is False and app.sounds.enabled is False
    click(app, options.theme.arrow_rects()[1].center)
    assert app.theme.palette.name == "night"
    saved = json.loads(app.settings_path.read_text())
    assert saved["rows"] == 7 and saved["cols"] == 6 and saved["connect"] == 5 and saved["gravity"] is False
    press(app, pygame.K_ESCAPE, frames=2)
    assert len(app.stack) == 0 or app.stack.top is not options


def test_level_select_presets_and_start(app):
    from dataclasses import replace

    from ai.levels import PRESETS

    app.settings.opponent = "computer"
    app.stack.push(LevelSelectScene())
    step(app, 2)
    level = app.stack.top
    hard = next(b for b in level.presets if b.label == "Hard")
    click(app, hard.rect.center)
    assert app.settings.level == PRESETS["Hard"]
    click(app, level.pruning.arrow_rects()[1].center)
    assert app.settings.level.pruning is False
    click(app, level.budget.arrow_rects()[1].center)
    assert app.settings.level.node_budget == 10_000
    press(app, pygame.K_RETURN, frames=2)
    play = app.stack.top
    assert isinstance(play, PlayScene)
    # A row changed by hand makes a plain search: Hard's exact endgame goes with its preset.
    assert play.level == replace(PRESETS["Hard"], pruning=False, node_budget=10_000, endgame_cells=0)


def test_how_to_play_lists_every_control(app):
    app.stack.push(HowToPlayScene())
    step(app, 2)
    text = " ".join(app.stack.top.rules_text())
    assert "4" in text
    from game.app.scenes.help import CONTROLS

    keys = " ".join(k for k, _ in CONTROLS)
    for needed in ("Left", "Enter", "1 .. 9", "Ctrl+Z", "Ctrl+Y", "H", "T", "R", "Esc", "F11", "F12"):
        assert needed in keys


# -- play ---------------------------------------------------------------------------
def two_player(app, rules: Rules = Rules()) -> PlayScene:
    play = PlayScene(rules, Level(2), "human")
    app.stack.push(play)
    step(app, 2)
    return play


def test_click_drops_a_disc_that_falls_and_lands(app):
    play = two_player(app)
    click(app, column_point(app, play, 3))
    assert play.match.moves == [3]
    assert play.drop is not None and play.drop.y < 0  # it starts above the board
    settle(app, play)
    assert play.match.board.grid[5, 3] == MAX


def test_input_is_ignored_while_a_disc_falls(app):
    play = two_player(app)
    click(app, column_point(app, play, 3))
    click(app, column_point(app, play, 4))
    assert play.match.moves == [3]


def test_keyboard_moves_the_cursor_and_drops(app):
    play = two_player(app)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)
    settle(app, play)
    press(app, pygame.K_2)
    settle(app, play)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_DOWN)
    settle(app, play)
    assert play.match.moves == [5, 1, 0]


def test_undo_redo_restart_keys(app):
    play = two_player(app)
    for col in (3, 3, 4):
        press(app, pygame.K_1 + col)
        settle(app, play)
    press(app, pygame.K_u)
    assert play.match.moves == [3, 3]
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert play.match.moves == [3]
    press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert play.match.moves == [3, 3]
    press(app, pygame.K_r)
    assert play.match.moves == [] and not play.match.can_redo()


def test_toolbar_buttons_work_by_mouse(app):
    play = two_player(app)
    press(app, pygame.K_4)
    settle(app, play)
    click(app, play.buttons["undo"].rect.center)
    assert play.match.moves == []
    click(app, play.buttons["redo"].rect.center)
    settle(app, play)
    assert play.match.moves == [3]
    click(app, play.buttons["restart"].rect.center)
    assert play.match.moves == []
    click(app, play.buttons["menu"].rect.center)
    step(app)
    assert isinstance(app.stack.top, PauseScene)
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.stack.top is play


def test_gravity_off_board_takes_a_click_on_any_cell(app):
    play = two_player(app, Rules(rows=5, cols=5, connect=4, gravity=False))
    layout = play.layout_board(pygame.display.get_surface())
    x, y = layout.center(0, 0)  # the top-left corner cell, nothing under it
    click(app, (int(x), int(y)))
    settle(app, play)
    assert play.match.board.grid[0, 0] == MAX
    press(app, pygame.K_UP)
    press(app, pygame.K_RETURN)
    settle(app, play)
    assert play.match.board.grid[4, 0] == MIN  # the cursor wrapped from row 0 to row 4


def test_full_column_click_says_so(app):
    play = two_player(app)
    for _ in range(6):
        press(app, pygame.K_1)
        settle(app, play)
    press(app, pygame.K_1)
    assert len(play.match.moves) == 6
    assert app.toast is not None and "full" in app.toast[0]


def vs_computer(app, rules: Rules = Rules(), level: Level = Level(2), first: str = "human") -> PlayScene:
    play = PlayScene(rules, level, "computer", first)
    app.stack.push(play)
    step(app, 2)
    return play


def human_moves_until_the_end(app, play, timeout: float = 120.0) -> None:
    deadline = time.perf_counter() + timeout
    while play.outcome is None:
        assert time.perf_counter() < deadline, "the game did not end"
        if play.drop is None and not play.thinking and play.match.to_move == play.human_side and play.outcome is None:
            legal = play.match.board.legal_moves()
            click(app, column_point(app, play, legal[len(legal) // 2]))
        else:
            step(app)
            time.sleep(0.001)


def test_whole_game_against_the_computer_updates_the_tally(app):
    play = vs_computer(app)
    human_moves_until_the_end(app, play)
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 10)
    tally = app.settings.tally
    assert sum(tally.values()) == 1
    assert json.loads(app.settings_path.read_text())["tally"] == tally
    outcome = play.outcome
    if outcome.winner is not None:
        assert outcome.runs and all(len(run) == 4 for run in outcome.runs)
    assert any(record.side == MIN for record in play.searches)  # the computer's searches were kept
    press(app, pygame.K_RETURN, frames=2)  # Play again
    assert app.stack.top is play and play.match.moves in ([], [3]) or play.thinking or play.match.moves == []


def test_full_board_game_on_a_small_board(app):
    rules = Rules(rows=4, cols=5, connect=3, mode=Mode.FULL_BOARD)
    play = vs_computer(app, rules, Level(2), first="computer")
    human_moves_until_the_end(app, play)
    outcome = play.outcome
    assert play.match.board.is_full()
    assert outcome.score == play.match.board.score()
    assert len(outcome.runs) == sum(outcome.score)
    assert sum(app.settings.tally.values()) == 1
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 10)
    assert "Points" in " ".join(app.stack.top.subtitle_lines())


def test_undo_while_the_computer_thinks_cancels_the_search(app):
    play = vs_computer(app, level=Level(12))
    press(app, pygame.K_4)
    assert wait_until(app, lambda: play.thinking, 10)
    press(app, pygame.K_u)
    assert not play.thinking and play.match.moves == []
    deadline = time.perf_counter() + 0.5
    while time.perf_counter() < deadline:
        step(app)
        assert play.match.moves == []  # no computer move lands after the undo


def test_restart_while_the_computer_thinks(app):
    play = vs_computer(app, level=Level(12), first="computer")
    assert wait_until(app, lambda: play.thinking, 10)
    press(app, pygame.K_r)
    assert play.match.moves == []
    step(app, 3)
    assert play.thinking  # the computer starts again, from scratch
    press(app, pygame.K_ESCAPE, frames=2)  # the menu: the search goes on underneath
    assert isinstance(app.stack.top, PauseScene)
    assert play.thinking and app.worker.current == play.jobs.id
    pause = app.stack.top
    click(app, pause.buttons[3].rect.center)  # Main menu: leaving the game cancels it
    step(app)
    assert isinstance(app.stack.top, TitleScene) and app.worker.current is None


def test_click_while_the_computer_thinks_is_refused_politely(app):
    play = vs_computer(app, level=Level(12), first="computer")
    assert wait_until(app, lambda: play.thinking, 10)
    click(app, column_point(app, play, 2))
    assert play.match.moves == []
    assert "thinking" in app.toast[0]


def test_closing_the_window_mid_search_exits_cleanly(tmp_path, make_app):
    app = make_app((800, 600), home=tmp_path)
    play = vs_computer(app, level=Level(12), first="computer")
    assert wait_until(app, lambda: play.thinking, 10)
    assert app.worker.is_alive()
    assert app.step([pygame.event.Event(pygame.QUIT)], FRAME) is False
    app.close()
    assert not app.worker.is_alive()
    assert (tmp_path / "settings.json").exists()


def test_hint_highlights_a_column_with_a_verdict(app):
    play = vs_computer(app, level=Level(4))
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.hint is not None, 30)
    assert play.jobs.hint in play.match.board.legal_moves()
    assert play.searches[-1].purpose is JobPurpose.HINT
    assert play.headline().startswith("Hint: column ")
    # From the empty board the book knows every column: the hint says it exactly.
    assert play.headline() == "Hint: column 4: you win in 21 moves with perfect play"


def test_hint_on_a_won_position_gives_the_exact_verdict(app):
    from game.board import Board

    play = vs_computer(app, level=Level(4))
    board = Board.from_moves("4455")  # you (player 1) to move: an open three, then the win
    for move in board.moves:
        play.match.play(move)
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.hint is not None, 30)
    assert play.headline() in (f"Hint: column {c}: you win in 2 moves with perfect play" for c in (3, 6))


def test_demo_mode_plays_by_itself(app):
    play = PlayScene(Rules(rows=4, cols=4, connect=3), Level(2), "demo")
    app.stack.push(play)
    assert wait_until(app, lambda: play.outcome is not None, 60)
    assert sum(app.settings.tally.values()) == 0  # demos are not counted


# -- persistence, sound, screenshots, window -----------------------------------------
def test_corrupt_settings_file_means_defaults_and_a_warning(tmp_path, caplog, make_app):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text("{ this is not json")
    with caplog.at_level(logging.WARNING):
        app = make_app((640, 480), home=home)
    try:
        assert app.settings.rows == 6 and app.settings.tally == {"wins": 0, "draws": 0, "losses": 0}
        assert "corrupt" in caplog.text
        app.stack.push(TitleScene())
        step(app, 2)
    finally:
        app.close()
    assert json.loads((home / "settings.json").read_text())["rows"] == 6  # rewritten whole


def test_settings_with_bad_values_keep_the_good_ones(tmp_path, caplog):
    from game.app.settings import load_settings

    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {"rows": 99, "cols": 9, "theme": "neon", "tally": {"wins": 3, "draws": 1, "losses": 2}, "depth": "deep"}
        )
    )
    with caplog.at_level(logging.WARNING):
        settings = load_settings(path)
    assert settings.rows == 6 and settings.cols == 9 and settings.theme == "classic" and settings.level.depth == 4
    assert settings.tally == {"wins": 3, "draws": 1, "losses": 2}
    assert "rows=99" in caplog.text and "depth" in caplog.text


def test_tally_survives_a_restart_of_the_app(tmp_path, make_app):
    app = make_app((640, 480), home=tmp_path)
    app.settings.tally["wins"] = 4
    app.close()
    again = make_app((640, 480), home=tmp_path)
    try:
        assert again.settings.tally["wins"] == 4
    finally:
        again.close()


def test_no_audio_device_means_silence(monkeypatch):
    from game.app.sound import Sounds

    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-audio-driver")
    sounds = Sounds(True)
    assert not sounds.available
    sounds.play("drop")  # nothing happens, nothing breaks
    pygame.mixer.quit()


def test_sounds_play_on_the_dummy_device(app):
    assert app.sounds.available
    app.sounds.play("win")


def test_f12_saves_a_screenshot(app):
    app.stack.push(TitleScene())
    step(app, 2)
    press(app, pygame.K_F12)
    shots = list((app.home / "screenshots").glob("*.png"))
    assert len(shots) == 1
    image = pygame.image.load(str(shots[0]))
    assert image.get_size() == pygame.display.get_surface().get_size()


def test_board_scales_with_the_window(app):
    play = two_player(app)
    small = play.layout_board(pygame.Surface((500, 420)))
    large = play.layout_board(pygame.Surface((1600, 1000)))
    assert large.cell > small.cell * 2
    for layout, size in ((small, (500, 420)), (large, (1600, 1000))):
        assert pygame.Rect((0, 0), size).contains(layout.grid_rect)
    pygame.display.set_mode((520, 440), pygame.RESIZABLE)
    step(app, 2)
    click(app, column_point(app, play, 6))
    assert play.match.moves == [6]


def test_discs_differ_by_mark_not_only_colour(app):
    surface = pygame.Surface((100, 50))
    surface.fill((255, 255, 255))
    app.theme.draw_disc(surface, (25, 25), 20, MAX)
    app.theme.draw_disc(surface, (75, 25), 20, MIN)
    # Player 1's centre shows the disc colour inside its ring; player 2's centre is the cross.
    assert surface.get_at((25, 25))[:3] == app.theme.palette.player1
    assert surface.get_at((75, 25))[:3] == app.theme.palette.player2_mark


@pytest.mark.slow
def test_demo_command_writes_screenshots(tmp_path):
    out = tmp_path / "shots"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "demo", "--out", str(out), "--depth", "3", "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    from game.archive.store import Archive

    stored = Archive.open(tmp_path).games()  # the demo's finished games are in its archive
    assert len(stored) == 3 and stored[-1].review is not None  # the first one reviewed
    assert stored[0].review is not None and stored[0].review["mistakes"] == [3, 4]  # two people's, retried
    names = sorted(p.name for p in out.glob("*.png"))
    assert {"11-review.png", "12-past-games.png", "13-analysis.png"} <= set(names)
    assert {"14-retry.png", "15-retry-wrong.png", "16-retry-right.png", "17-retry-queue.png"} <= set(names)
    assert {"18-explorer.png", "19-explorer-deeper.png", "20-explain.png"} <= set(names)
    for needed in (
        "01-title.png",
        "02-options.png",
        "03-level-select.png",
        "04-game-falling.png",
        "06-game-over.png",
        "07-final-board.png",
        "08-tree.png",
    ):
        assert needed in names
    for path in out.glob("*.png"):
        assert pygame.image.load(str(path)).get_width() == 1024


@pytest.mark.slow
def test_demo_command_bad_size_is_one_line():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "demo", "--out", "x", "--size", "big"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


# -- the play screen says the important thing first ------------------------------------
def fits(app, play, text: str, size: tuple[int, int] = (800, 600)) -> bool:
    """The headline fits its room in a window of ``size`` at its full font size."""
    layout = play.frame_layout(size)
    width = layout.text_right - layout.text_left
    return app.theme.font(layout.headline_size, True).size(text)[0] <= width


def real_result(board, depth: int = 2):
    from ai.search import search

    return search(board.grid, board.rules, depth, to_move=board.to_move)


def answer_of(result, exact=None, columns=None, *, note=None):
    """The answer a search gave, as the decider hands it over (with what was known exactly)."""
    decided_by = DecidedBy.SEARCH if note is None else DecidedBy.OVERRULED
    return Answer(result.move, decided_by, Level(2), result.value, exact, columns, result, note=note)


def test_longest_status_texts_fit_at_800x600_and_up(tmp_path, make_app):
    from dataclasses import replace

    from ai.values import WIN
    from game.board import Board, Outcome, Termination

    app = make_app((800, 600), home=tmp_path)
    try:
        play = vs_computer(app, level=Level(2))
        board = Board.from_moves("44")
        result = real_result(board)
        texts = []
        for hint, value, position, columns in (
            (False, -(WIN - 41), None, None),  # the computer forces a win in 20 moves
            (False, 30, None, None),  # a heuristic value
            (True, WIN - 41, None, None),
            (True, 0, ExactScore(MIN, 36), None),  # the position is lost, in 18 of the computer's moves
            (True, 0, None, {6: ExactScore(MIN, 40)}),  # exact: every move loses
            (True, 0, None, {6: ExactScore(MAX, 5)}),
        ):
            side = MAX if hint else MIN
            play.jobs.report = Report(hint, side, answer_of(replace(result, move=6, value=value), position, columns))
            texts.append(play.headline())
        play.jobs.report = None
        play.outcome = Outcome(MIN, Termination.FULL_BOARD, (), (11, 12))
        texts.append(play.headline())
        assert any("force a win in 20 moves" in text for text in texts)
        assert any("Hint: column 7: the computer wins in" in text for text in texts)
        for text in texts:
            for size in ((800, 600), (1024, 720), (1280, 800)):
                assert fits(app, play, text, size), (text, size)
        layout = play.frame_layout((800, 600))
        detail = (
            "hint search: 12 plies deep (time ran out) · 123,456,789 nodes · 12,345,678 cutoffs · 123.45 s · "
            "1,234k nodes/s"
        )
        assert app.theme.font(layout.detail_size).size(detail)[0] <= layout.text_right - layout.text_left
        overruled = "the exact solver chose column 12: it keeps the draw, the search's column 11 would not · 123.45 s"
        assert app.theme.font(layout.detail_size).size(overruled)[0] <= layout.text_right - layout.text_left
    finally:
        app.close()


def test_status_speaks_from_the_viewers_side_in_moves_not_plies(app):
    from dataclasses import replace

    from ai.values import WIN
    from game.app.scenes.play_text import plural
    from game.board import Board

    play = vs_computer(app, level=Level(2), first="computer")
    assert play.human_side == MIN and play.is_computer(MAX)  # the computer starts: it is player 1
    assert wait_until(app, lambda: len(play.match.moves) == 1 and not play.thinking, 30)
    result = real_result(Board.from_moves("4"))
    # MAX (the computer) found a win 5 plies ahead; after its move 4 plies are left,
    # 2 of them its own moves: said from your side, in moves.
    play.jobs.report = Report(False, MAX, answer_of(replace(result, move=3, value=WIN - 5)))
    assert play.headline() == "The computer played column 4. The computer can force a win in 2 moves"
    play.jobs.report = Report(False, MAX, answer_of(replace(result, move=3, value=-300)))
    assert play.headline().endswith("You are much better (estimate)")  # -300 is good for MIN: you
    assert plural(1, "node") == "1 node" and plural(2, "node") == "2 nodes" and plural(6, "ply") == "6 plies"


def win_for_player1(app, play) -> None:
    """Player 1 stacks four in column 1 (player 2 answers in column 2); the last disc still falls."""
    for col in (0, 1, 0, 1, 0, 1):
        press(app, pygame.K_1 + col)
        settle(app, play)
    press(app, pygame.K_1)  # the winning disc, now falling


def test_result_counts_at_once_and_undo_keeps_it(app):
    play = two_player(app)
    win_for_player1(app, play)
    assert play.drop is not None  # still falling ...
    assert app.settings.two_player_tally["player1"] == 1  # ... and already counted
    assert json.loads(app.settings_path.read_text())["two_player_tally"]["player1"] == 1
    settle(app, play)
    press(app, pygame.K_u)
    assert play.outcome is None and app.settings.two_player_tally["player1"] == 1  # Undo keeps it
    press(app, pygame.K_y, mod=pygame.KMOD_CTRL)  # Redo: the same game ends again, not counted twice
    settle(app, play)
    assert play.outcome is not None and app.settings.two_player_tally["player1"] == 1
    press(app, pygame.K_r)
    win_for_player1(app, play)
    assert app.settings.two_player_tally["player1"] == 2  # a new game counts


def test_quitting_while_the_winning_disc_falls_still_counts(tmp_path, make_app):
    app = make_app((800, 600), home=tmp_path)
    play = two_player(app)
    win_for_player1(app, play)
    assert play.drop is not None
    app.step([pygame.event.Event(pygame.QUIT)], FRAME)
    app.close()
    assert json.loads((tmp_path / "settings.json").read_text())["two_player_tally"]["player1"] == 1


def test_result_panel_leaves_the_winning_line_visible(app):
    play = two_player(app)
    win_for_player1(app, play)
    assert wait_until(app, lambda: isinstance(app.stack.top, GameOverScene), 10)
    size = pygame.display.get_surface().get_size()
    panel = app.stack.top.panel_rect(size)
    layout = play.board_layout(size)
    for row, col in play.outcome.runs[0]:
        x, y = layout.center(row, col)
        disc = pygame.Rect(x - layout.radius, y - layout.radius, 2 * layout.radius, 2 * layout.radius)
        assert not panel.colliderect(disc)
    assert not panel.colliderect(layout.grid_rect)  # the whole final board, in fact
    assert "after 7 discs: 4 moves by player 1, 3 by player 2" in app.stack.top.subtitle_lines()


def test_hint_goes_on_undo_and_redo_brings_back_the_tree(app):
    play = vs_computer(app, level=Level(2))
    press(app, pygame.K_4)
    assert wait_until(app, lambda: play.drop is None and not play.thinking and len(play.match.moves) == 2, 30)
    computer_search = play.searches[-1]
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.hint is not None, 30)
    assert play.headline().startswith("Hint: column ")
    press(app, pygame.K_u)
    assert play.jobs.hint is None and not play.headline().startswith("Hint")
    assert play.match.moves == [] and play.searches == []
    press(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert len(play.match.moves) == 2
    assert computer_search in play.searches  # the computer's search of that move, tree and all


def test_pausing_keeps_the_search_running(app):
    play = vs_computer(app, level=Level(12), first="computer")
    assert wait_until(app, lambda: play.thinking, 10)
    job = play.jobs.id
    press(app, pygame.K_ESCAPE, frames=2)
    assert isinstance(app.stack.top, PauseScene) and app.worker.current == job
    press(app, pygame.K_ESCAPE, frames=2)  # resume
    assert app.stack.top is play and play.thinking and play.jobs.id == job


def test_full_board_runs_are_drawn_in_their_players_colours(app):
    from game.app.board_view import BoardLayout, BoardView

    rules = Rules(rows=4, cols=4, connect=3, mode=Mode.FULL_BOARD)
    surface = pygame.Surface((400, 400))
    layout = BoardLayout(rules, surface.get_rect())
    grid = np.zeros((4, 4), dtype=np.int8)
    grid[3, 0:3] = MAX
    grid[0, 0:3] = MIN
    runs = (((3, 0), (3, 1), (3, 2)), ((0, 0), (0, 1), (0, 2)))
    BoardView(app.theme).draw(surface, layout, grid, glow=runs, glow_sides=(MAX, MIN), t=0.9)  # pulse at 0
    for run, side in zip(runs, (MAX, MIN)):
        x, y = layout.center(*run[0])
        ring = surface.get_at((int(x), int(y - layout.radius - 2)))[:3]  # on the ring, above the disc
        assert ring == app.theme.side_colors(side)[1]  # its mark colour, which shows on its discs


def test_exact_scores_label_every_column_and_make_the_hint(app):
    """Exact scores from the solver, as the worker's result carries them, show on the board."""
    from ai.answer import Purpose
    from ai.player import choose_move
    from ai.solver import Solver
    from game.app.worker_protocol import JobPurpose, JobResult, SearchJob
    from game.board import Board

    board = Board.from_moves("6163373712216173362244")  # 22 discs: the solver is quick here
    play = vs_computer(app, level=Level(2))
    for move in board.moves:
        play.match.play(move)
    side = play.match.to_move
    exact = {}
    for move in play.match.board.legal_moves():
        child = Board.from_moves(board.moves_string() + str(move + 1))
        exact[move] = -Solver(board.rules).solve_grid(child.grid, -side).score
    job = SearchJob(play.match.board.grid.copy(), board.rules, side, level=Level(2), purpose=JobPurpose.HINT)
    answer = choose_move(Level(2), job.grid, board.rules, side, purpose=Purpose.HINT)
    assert answer.column_scores is not None
    assert {col: found.score(side, job.grid) for col, found in answer.column_scores.items()} == exact
    play.jobs.purpose, play.jobs.ply = JobPurpose.HINT, len(play.match.moves)
    play.jobs.receive(JobResult(1, job, answer))
    best = max(exact.values())
    assert play.jobs.hint is not None and exact[play.jobs.hint] == best  # the hint is a perfect move
    assert play.headline().startswith(f"Hint: column {play.jobs.hint + 1}: ")
    assert "with perfect play" in play.headline()
    notes = play.column_notes()
    assert [note is not None for note in notes] == [col in exact for col in range(7)]
    best_col = play.jobs.hint
    assert notes[best_col] is not None and notes[best_col].text.startswith("win ")  # "win <own moves>"


def test_scores_toggle_searches_each_of_your_turns_without_a_hint(app):
    from game.app.worker_protocol import JobPurpose

    play = vs_computer(app, level=Level(2))
    press(app, pygame.K_s)
    assert play.jobs.show_scores
    step(app)
    assert play.jobs.purpose is JobPurpose.SCORES  # the scores' own job
    assert wait_until(app, lambda: play.jobs.purpose is None, 30)
    assert play.jobs.analysis_ply == 0 and play.jobs.hint is None and play.headline() == "Your turn"
    press(app, pygame.K_s)  # off: nothing more is searched
    step(app, 3)
    assert not play.jobs.show_scores and play.jobs.purpose is None and play.jobs.exact_scores() is None


def test_one_mark_for_player_1_in_the_window_and_the_text_board(app):
    from game.board import TEXT_LEGEND, Board

    bottom = str(Board.from_moves("45")).splitlines()[-2].split()
    assert bottom[3] == "O" and bottom[4] == "X"  # player 1's ring is O, player 2's cross X
    assert TEXT_LEGEND.startswith("O = player 1")


# -- menus and options -----------------------------------------------------------------
def test_options_values_never_reach_the_arrows(tmp_path, make_app):
    app = make_app((800, 600), home=tmp_path)
    try:
        app.stack.push(OptionsScene())
        step(app, 2)
        options = app.stack.top
        assert "Opponent" not in [selector.label for selector in options.selectors]  # the title menu chooses
        for selector in options.selectors:
            left, right = selector.arrow_rects()
            font = app.theme.font(selector.font_size(), True)
            for option in selector.options:
                assert font.size(selector.format(option))[0] <= right.left - left.right - 6, selector.label
            assert not left.colliderect(right) and selector.rect.contains(left)
    finally:
        app.close()


def test_level_select_warns_before_a_level_that_cannot_finish(app):
    from game.app.scenes.level_select import slow_level_warning

    warning = slow_level_warning(Level(12, pruning=False), Rules())
    assert warning is not None and "16,148,168,400 positions" in warning and "hours" in warning
    assert slow_level_warning(Level(12), Rules()) is None  # pruning: no promise to keep
    assert slow_level_warning(Level(12, pruning=False, node_budget=300_000), Rules()) is None


def test_computer_vs_computer_has_a_level_for_each_side(app):
    from ai.levels import PRESETS
    from game.app.settings import Opponent

    app.settings.opponent = Opponent.DEMO
    app.stack.push(LevelSelectScene())
    step(app, 2)
    scene = app.stack.top
    click(app, next(b for b in scene.presets if b.label == "Hard").rect.center)
    click(app, scene.side_selector.arrow_rects()[1].center)  # now player 2's level
    click(app, next(b for b in scene.presets if b.label == "Easy").rect.center)
    assert app.settings.level == PRESETS["Hard"] and app.settings.second_level == PRESETS["Easy"]
    press(app, pygame.K_RETURN, frames=2)
    play = app.stack.top
    assert isinstance(play, PlayScene)
    assert play.levels[MAX] == PRESETS["Hard"] and play.levels[MIN] == PRESETS["Easy"]


# -- idle: no frames while nothing changes ------------------------------------------------
def test_an_idle_window_draws_nothing_until_something_changes(app):
    app.stack.push(TitleScene())
    step(app, 2)
    drawn = []
    draw = app.draw
    app.draw = lambda: (drawn.append(1), draw())
    step(app, 30)
    assert drawn == []  # half a second of nothing: no frame drawn
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(10, 10), rel=(1, 1), buttons=(0, 0, 0))], FRAME)
    assert len(drawn) == 1
    play = two_player(app)
    drawn.clear()
    press(app, pygame.K_4)
    settle(app, play)
    falling = len(drawn)
    assert falling > 10  # the falling disc is drawn every frame
    layout = play.board_layout(pygame.display.get_surface().get_size())
    x, y = layout.center(5, 3)
    at_rest = pygame.display.get_surface().get_at((int(x + layout.radius * 0.8), int(y)))[:3]
    assert at_rest == app.theme.palette.player1  # the frame where it landed was drawn
    step(app, 30)
    assert len(drawn) == falling  # then nothing more


# -- the window: its name, its folder, its size ------------------------------------------
def test_window_is_called_connect_four_and_remembers_its_size(tmp_path, make_app):
    import os

    app = make_app((700, 500), home=tmp_path)
    try:
        assert pygame.display.get_caption()[0] == "Connect Four"
        assert os.environ["SDL_VIDEO_X11_WMCLASS"] == "Connect Four"  # the task bar's name, not main.py
        app.stack.push(TitleScene())
        app.step([pygame.event.Event(pygame.VIDEORESIZE, w=900, h=640, size=(900, 640))], FRAME)
    finally:
        app.close()
    again = make_app(home=tmp_path)  # no size asked: the last one
    try:
        assert pygame.display.get_surface().get_size() == (900, 640)
    finally:
        again.close()


def test_preference_folder_is_not_doubled(tmp_path, monkeypatch):
    from game.app.loop import preference_folder

    monkeypatch.delenv("CONNECT4_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    old = tmp_path / "connect4" / "connect4"
    old.mkdir(parents=True)
    (old / "settings.json").write_text('{"rows": 7}')
    folder = preference_folder()
    assert folder.name == "connect4" and folder.parent.name != "connect4"
    assert json.loads((folder / "settings.json").read_text()) == {"rows": 7}  # moved up from the old place


def test_level_select_offers_every_preset_and_the_move_order(app):
    from ai.levels import PRESET_NOTES, PRESETS
    from ai.search import MoveOrder
    from game.app.settings import read_settings

    app.stack.push(LevelSelectScene())
    step(app, 2)
    scene = app.stack.top
    assert [b.label for b in scene.presets] == list(PRESETS)  # Beginner ... Perfect
    assert set(PRESETS) <= set(PRESET_NOTES)
    click(app, next(b for b in scene.presets if b.label == "Perfect").rect.center)
    assert app.settings.level == PRESETS["Perfect"]
    assert read_settings(app.settings_path).settings.level == PRESETS["Perfect"]  # kept as chosen
    assert scene.order not in scene.selectors  # Perfect has no move order to change
    click(app, next(b for b in scene.presets if b.label == "Easy").rect.center)
    click(app, scene.order.arrow_rects()[0].center)  # the order row, by hand: a plain search
    level = app.settings.level
    assert level.order is not MoveOrder.BEST_FIRST and not level.perfect and level.noise == 0


def test_level_select_switches_the_transposition_table_beside_pruning_and_order(app):
    from ai.levels import PRESETS
    from ai.player import choose_move
    from game.app.settings import read_settings
    from game.board import Board

    app.stack.push(LevelSelectScene())
    step(app, 2)
    scene = app.stack.top
    click(app, next(b for b in scene.presets if b.label == "Medium").rect.center)
    rows = scene.selectors
    assert rows.index(scene.table) == rows.index(scene.order) + 1 and scene.table.value is False
    click(app, scene.table.arrow_rects()[1].center)
    level = app.settings.level
    assert level.table and (level.depth, level.pruning, level.order) == (6, True, PRESETS["Medium"].order)
    assert read_settings(app.settings_path).settings.level == level  # kept
    shown = " ".join(text for text, _ in drawn_texts(app))
    assert "Transposition table on:" in shown
    board = Board.from_moves("4453")
    with_table = choose_move(level, board.grid, board.rules, board.to_move)
    plain = choose_move(PRESETS["Medium"], board.grid, board.rules, board.to_move)
    assert with_table.result.stats.table is not None and plain.result.stats.table is None
    assert (with_table.move, with_table.value) == (plain.move, plain.value)
    assert with_table.result.stats.nodes < plain.result.stats.nodes


def test_perfect_level_says_the_game_is_won_from_the_first_move(app):
    from ai.levels import PRESETS

    play = vs_computer(app, level=PRESETS["Perfect"], first="computer")
    assert wait_until(app, lambda: len(play.match.moves) == 1 and play.jobs.report is not None, 60)
    assert play.match.moves == [3]  # the centre: the only first move that wins
    assert play.headline().startswith("The computer played column 4. The computer can force a win")
    assert play.detail().startswith("perfect play")


# -- drawing changes no state ----------------------------------------------------------
def comparable(value, depth: int = 0):
    """A copy of ``value`` that compares by content (plain objects by their attributes)."""
    import copy
    import dataclasses

    if isinstance(value, np.ndarray):
        return ("array", value.tobytes())
    if callable(value):
        return ("callable", id(value))
    if isinstance(value, (list, tuple)):
        return type(value)(comparable(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return {key: comparable(item, depth + 1) for key, item in value.items()}
    plain = type(value).__eq__ is object.__eq__ or dataclasses.is_dataclass(value)
    if hasattr(value, "__dict__") and plain and depth < 4:
        own = {name: item for name, item in vars(value).items() if name not in BACK_REFERENCES}
        return (type(value).__name__, comparable(own, depth + 1))
    try:
        return copy.deepcopy(value)
    except (TypeError, pygame.error):
        return ("uncopyable", type(value).__name__)


BACK_REFERENCES = ("app", "view", "play", "scene")
"""The app, caches and the objects that point back at their scene: not the scene's own state."""


def snapshot(scene) -> dict:
    """The scene's state by content (the app, the scene beneath and caches left out)."""
    return {name: comparable(value) for name, value in vars(scene).items() if name not in BACK_REFERENCES}


def test_drawing_changes_no_state_in_any_scene(app):
    play = two_player(app)
    press(app, pygame.K_4)  # a disc in mid-fall
    scenes = [play]
    for make in (TitleScene, OptionsScene, LevelSelectScene, HowToPlayScene, lambda: PauseScene(play)):
        app.stack.push(make())
        step(app, 2)
        scenes.append(app.stack.top)
    surface = pygame.display.get_surface()
    for scene in scenes:
        for size in ((800, 600), (1280, 800)):  # a size the scene was not laid out for, too
            before = snapshot(scene)
            scene.draw(pygame.Surface(size))
            scene.draw(surface)
            assert snapshot(scene) == before, type(scene).__name__


def test_hint_gives_the_exact_verdict_from_the_first_move(app):
    """On the empty standard board: the only winning column, and every column's score."""
    play = vs_computer(app, level=Level(4))
    press(app, pygame.K_h)
    assert wait_until(app, lambda: play.jobs.hint is not None, 60)
    assert play.headline() == "Hint: column 4: you win in 21 moves with perfect play"
    labels = [note.text if note else None for note in play.column_notes()]
    assert labels[3] == "win 21" and [label for label in labels if label.startswith("win")] == ["win 21"]
    assert '"win 3" = you win with your 3rd move' in play.scores_legend()  # not the tree's plies "W3"


# -- the QA report's play-screen items ---------------------------------------------------
def test_perfect_hides_the_search_rows_that_do_not_apply(app):
    """Perfect plays from its book and solver: no depth/pruning/order/time rows to change
    (a row changed by hand used to turn Perfect off quietly); another preset brings them back."""
    from ai.levels import PRESETS

    app.stack.push(LevelSelectScene())
    step(app, 2)
    scene = app.stack.top
    click(app, next(b for b in scene.presets if b.label == "Perfect").rect.center)
    assert scene.selectors == [] and scene.focus.items == [scene.start_button]
    for key in (pygame.K_UP, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_LEFT):
        press(app, key)
    click(app, scene.depth.arrow_rects()[1].center)  # where a hidden row's arrow was: nothing
    assert app.settings.level == PRESETS["Perfect"]
    click(app, next(b for b in scene.presets if b.label == "Hard").rect.center)
    assert scene.selectors == [scene.playouts, scene.depth, scene.pruning, scene.order, scene.table, scene.budget]
    press(app, pygame.K_RETURN, frames=2)
    assert app.stack.top.level_line() == "Hard: depth 8, alpha-beta on, solves the last 26"


def test_perfect_off_the_standard_board_shows_the_expert_rows_it_plays(app):
    """On 7x8 Perfect plays Expert's search (and the solver where it proves the position):
    the rows show that search, not Perfect's unused depth 12 and "no limit", and a row
    changed by hand starts from it."""
    from ai.levels import EXPERT_SEARCH_NODES, PRESETS
    from game.rules import MAX_DEPTH

    app.settings.rows, app.settings.cols = 7, 8
    app.stack.push(LevelSelectScene())
    step(app, 2)
    scene = app.stack.top
    click(app, next(b for b in scene.presets if b.label == "Perfect").rect.center)
    assert scene.selectors == [scene.playouts, scene.depth, scene.pruning, scene.order, scene.table, scene.budget]
    assert (scene.depth.value, scene.budget.value) == (MAX_DEPTH, EXPERT_SEARCH_NODES)
    assert app.settings.level == PRESETS["Perfect"]
    click(app, scene.pruning.arrow_rects()[1].center)
    level = app.settings.level
    assert (level.perfect, level.pruning, level.node_budget) == (False, False, EXPERT_SEARCH_NODES)


def test_perfect_status_line_names_book_and_solver_not_depth(app):
    from ai.levels import PRESETS

    play = vs_computer(app, level=PRESETS["Perfect"])
    assert play.level_line() == "Perfect (opening book + solver)"
    other = vs_computer(app, rules=Rules(rows=5, cols=6), level=PRESETS["Perfect"])  # the Expert preset plays there
    assert other.level_line() == "Perfect: plays Expert here (perfect play is for 6x7)"


def test_hint_rings_the_ghost_disc_instead_of_an_arrow_across_it(app):
    """The ghost disc over the hinted column stays whole (the arrow used to cover it)."""
    play = vs_computer(app, level=Level(2))
    col = 3
    app.step(
        [pygame.event.Event(pygame.MOUSEMOTION, pos=column_point(app, play, col), rel=(0, 0), buttons=(0, 0, 0))], FRAME
    )
    surface = pygame.display.get_surface()
    layout = play.layout_board(surface)
    x, _ = layout.center(0, col)
    below_ghost = (int(x), int(layout.grid_rect.top - layout.cell * 0.3))  # where the arrow was drawn

    def drawn() -> pygame.Surface:
        picture = pygame.Surface(surface.get_size())
        play.draw(picture)
        return picture

    ghost_only = drawn().get_at(below_ghost)
    play.jobs.hint = col
    picture = drawn()
    assert picture.get_at(below_ghost) == ghost_only
    ring = (int(x + layout.radius + 2), int(layout.center(-1.05, col)[1]))
    assert picture.get_at(ring)[:3] == app.theme.palette.glow
    play.hover = play.cursor = (0, col + 1)  # the ghost elsewhere: the arrow points at the hint
    assert drawn().get_at(below_ghost)[:3] == app.theme.palette.glow


def test_scores_on_keeps_the_computers_move_stats_while_working(app):
    play = vs_computer(app, level=Level(2))
    press(app, pygame.K_s)
    assert wait_until(app, lambda: play.jobs.purpose is None, 60)
    press(app, pygame.K_4)
    assert wait_until(app, lambda: play.jobs.report is not None and play.jobs.purpose is JobPurpose.SCORES, 60)
    # The move's own search (its time and positions beside the other setting's), then the scores' work.
    nodes = play.records.done[-1].result.stats.total_nodes
    assert play.detail().split(";")[0].endswith(f", {nodes:,} positions")
    assert "without pruning" in play.detail()
    assert play.detail().endswith("working out the column scores...")


def test_scores_button_is_off_once_the_game_is_over(app):
    play = two_player(app)
    assert play.button_states()["scores"]
    win_for_player1(app, play)
    assert play.outcome is not None and not play.button_states()["scores"]


def test_perfect_detail_says_book_or_solver_without_zero_positions(app):

    from ai.answer import Answer, DecidedBy
    from ai.levels import PRESETS

    play = vs_computer(app, level=Level(2))
    exact = ExactScore(MAX, 21)
    book = Answer(3, DecidedBy.BOOK, PRESETS["Perfect"], exact.value, exact=exact, seconds=0.05)
    play.jobs.report = Report(False, MIN, book)
    assert play.detail() == "perfect play: read from the opening book · 0.05 s"
    solver = Answer(3, DecidedBy.SOLVER, PRESETS["Perfect"], exact.value, exact=exact, nodes=3144, seconds=0.06)
    play.jobs.report = Report(False, MIN, solver)
    assert play.detail() == "perfect play (opening book + solver): 3,144 positions searched · 0.06 s"


def test_detail_says_when_the_solver_overruled_the_search(app):
    from dataclasses import replace

    from game.app.scenes.play_text import standing_after_move
    from game.board import Board

    play = vs_computer(app, level=Level(2))
    result = real_result(Board.from_moves("44"))
    note = "the exact solver chose column 2: it keeps the win, the search's column 3 would not"
    play.jobs.report = Report(False, MIN, answer_of(replace(result, move=1), note=note))
    assert play.detail().startswith(note + " · ")
    play.jobs.report = Report(False, MIN, answer_of(replace(result, move=1)))
    assert play.detail().startswith("search: ")
    # The level's solver knew the outcome: the headline says it, not the search's estimate.
    quiet = replace(result, move=1, value=5)
    names, rules = play.names(), play.rules
    won = Report(False, MIN, answer_of(quiet, ExactScore.from_outcome(1, MIN), note=note))
    assert standing_after_move(won, names, rules) == "The computer can force a win (perfect play)"
    drawn = Report(False, MIN, answer_of(quiet, ExactScore.from_outcome(0, MIN)))
    assert standing_after_move(drawn, names, rules) == "A draw with perfect play"
    assert "(estimate)" in standing_after_move(Report(False, MIN, answer_of(quiet)), names, rules)


def test_level_line_names_what_a_preset_knows_exactly(app):
    from ai.levels import PRESETS

    assert vs_computer(app, level=PRESETS["Hard"]).level_line() == "Hard: depth 8, alpha-beta on, solves the last 26"
    expert = vs_computer(app, level=PRESETS["Expert"]).level_line()
    assert expert == "Expert: depth 12, alpha-beta on, 300,000 positions, book, solves the last 28"
    assert vs_computer(app, level=Level(8)).level_line() == "Custom: depth 8, alpha-beta on"


def test_two_player_hint_names_the_winner_not_the_opponent(app):
    """A lost position for player 2 in two-player mode: the hint names player 1."""
    from ai.answer import Purpose
    from ai.player import choose_move
    from ai.solver import Solver
    from game.app.worker_protocol import JobResult, SearchJob
    from game.board import Board

    board = Board.from_moves("2252576253462244111563365343671351441")  # player 2 to move, lost
    play = two_player(app)
    for move in board.moves:
        play.match.play(move)
    side = play.match.to_move
    assert side == MIN
    exact = {}
    for move in board.legal_moves():
        child = Board.from_moves(board.moves_string() + str(move + 1))
        exact[move] = -Solver(board.rules).solve_grid(child.grid, -side).score
    assert max(exact.values()) < 0
    job = SearchJob(play.match.board.grid.copy(), board.rules, side, level=Level(2), purpose=JobPurpose.HINT)
    answer = choose_move(Level(2), job.grid, board.rules, side, purpose=Purpose.HINT)
    play.jobs.purpose, play.jobs.ply = JobPurpose.HINT, len(play.match.moves)
    play.jobs.receive(JobResult(1, job, answer))
    assert ": player 1 wins in " in play.headline() and "opponent" not in play.headline()
    assert '"lose 5" = player 1 wins with their 5th' in play.scores_legend()  # one possessive (issue 38)


def test_a_hint_never_waits_on_a_level_that_would_take_hours(app):
    """Against depth 12 without pruning (16 billion positions), the hint level answers
    instead, and says so; in two players the hint level is named on screen."""
    play = vs_computer(app, level=Level(12, pruning=False))
    press(app, pygame.K_h)
    assert app.toast is not None and "Looking for a hint with Hard" in app.toast[0]
    assert wait_until(app, lambda: play.jobs.hint is not None, 60)
    assert play.headline().startswith("Hint: column 4")
    assert two_player(app).level_line().startswith("Hints: Hard")


def test_full_board_mode_shows_the_running_score(app):
    """Every line of four scores in full-board mode: the status keeps the points in view."""
    rules = Rules(mode=Mode.FULL_BOARD)
    play = PlayScene(rules, Level(2), "human")
    app.stack.push(play)
    step(app)
    assert play.tally_line() == "Score: player 1 0 · player 2 0"
    for col in (0, 1, 0, 1, 0, 1, 0):  # player 1 fills column 1 with four: one point
        play.match.play(col)
    assert play.tally_line() == "Score: player 1 1 · player 2 0"


def test_full_board_score_stays_on_screen_beside_a_long_headline(app):
    """Issue 17 rerun (screenshot at 1024x720): a long headline ("Computer 1 played column
    1. Computer 1 expects +0.0 points (estimate)") pushed the running score off the status
    bar with the level line; in full-board mode the score is what matters and stays."""
    play = PlayScene(Rules(rows=4, cols=4, mode=Mode.FULL_BOARD), Level(1), "demo", level2=Level(1))
    app.stack.push(play)
    assert wait_until(app, lambda: len(play.match.moves) >= 3 and play.drop is None, 60)
    assert len(play.headline()) > 50
    drawn = [text for text, _ in drawn_texts(app)]
    assert play.tally_line().startswith("Score:") and play.tally_line() in drawn


def test_an_even_full_board_estimate_is_plus_zero_not_minus_zero():
    from game.app.scenes.play_text import estimate_text

    rules = Rules(mode=Mode.FULL_BOARD)
    assert estimate_text(-30, "Computer 1", rules) == "Computer 1 expects +0.0 points (estimate)"
    assert estimate_text(-1500, "You", rules) == "You expect -1.5 points (estimate)"


@pytest.mark.parametrize("size", [(1024, 720), (800, 600)])
@pytest.mark.parametrize("opponent", ["computer", "demo"])
def test_the_level_select_drops_no_line_of_experts_explanation(tmp_path, size, opponent, make_app):
    """Issue 17 rerun (screenshot): in computer vs computer at 1024x720 the last sentence
    (alpha-beta and the full tree's size) was cut off for want of room."""
    from ai.levels import PRESETS, describe
    from game.app.settings import Opponent

    small = make_app(size, home=tmp_path / "home")
    try:
        small.settings.opponent = Opponent(opponent)
        scene = LevelSelectScene()
        small.stack.push(scene)
        step(small, 2)
        scene.use_preset(PRESETS["Expert"])
        step(small)
        shown = " ".join(text for text, _ in drawn_texts(small))
        for sentence in describe(scene.level(), small.settings.rules()):
            assert sentence in shown
    finally:
        small.close()


def test_a_game_kept_in_memory_is_written_when_the_window_closes(tmp_path, make_app):
    """Issue 17 rerun (archive attack): a finished game that could not be written (the
    archive locked) waited in memory for the next game; closing the window lost it."""
    import sqlite3

    from game.archive.store import Archive

    home = tmp_path / "home"
    window = make_app((900, 700), home=home)
    try:
        archive = window.archive
        blocker = sqlite3.connect(home / "games.sqlite3", timeout=0)
        blocker.execute("BEGIN EXCLUSIVE")  # another program holds the archive
        play = PlayScene(Rules(), Level(2), "human")
        window.stack.push(play)
        step(window)
        for column in "1212121":
            press(window, getattr(pygame, f"K_{column}"))
            settle(window, play)
        assert wait_until(window, lambda: play.outcome is not None, 10)
        assert len(archive.pending) == 1  # kept in memory, said once
        blocker.rollback()
        blocker.close()  # the other program is done; the window closes before a next game
    finally:
        window.close()
    reopened = Archive.open(home)
    assert [game.moves_string for game in reopened.games()] == ["1212121"]
    reopened.close()


def test_a_failed_move_job_is_said_once_and_expert_plays_for_the_level(app):
    """A job that fails (a damaged book, say) is not resubmitted in a loop: the screen
    names the cause once, and Expert plays for that level for the rest of the game."""
    from ai.levels import PRESETS
    from game.app.worker_protocol import JobFailed

    play = PlayScene(Rules(), PRESETS["Perfect"], "computer", first="computer")
    app.stack.push(play)
    step(app)  # the scene is on the stack, its first update still to come
    play.jobs.submit(JobPurpose.MOVE, MAX)  # the computer's first move is asked for...
    assert play.jobs.id is not None
    play.jobs.on_event(JobFailed(play.jobs.id, "the opening book cannot be used (damaged)"))  # ...and fails
    assert app.toast is not None and "Expert plays instead" in app.toast[0]
    assert play.jobs.level_for(JobPurpose.MOVE, MAX) == PRESETS["Expert"]
    assert wait_until(app, lambda: len(play.match.moves) == 1, 60)  # Expert's move arrives
    assert play.jobs.report is not None and play.jobs.report.answer.level == PRESETS["Expert"]
