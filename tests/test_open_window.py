"""Opening a game in the window (drop, paste, ``open``), playing on from it, and sharing
it (issue 29, parts 2 and 3), in the real app (headless)."""

from __future__ import annotations

import pygame

from ai.levels import Level
from game.app import clipboard, open_game
from game.app.open_game import show_opened
from game.app.scenes.analysis import AnalysisScene
from game.app.scenes.level_select import PlayOnScene
from game.app.scenes.play import PlayScene
from game.app.scenes.review import ReviewScene
from game.app.scenes.title import TitleScene
from game.game_file import read_games
from game.rules import MIN, Rules
from game.sources import read_source, read_text
from tests.ui import press, step

GAME_FILE = '[Event "shared"]\n[First "human"]\n[Second "Medium"]\n[SecondDepth "6"]\n\n1. 4 4 2. 5 3 *\n'


def dropped(app, path) -> None:
    app.step([pygame.event.Event(pygame.DROPFILE, file=str(path))], 0.016)
    step(app)


def test_a_dropped_game_file_opens_its_review_and_plays_on_from_any_move(app, tmp_path, monkeypatch):
    app.stack.push(TitleScene())
    step(app)
    path = tmp_path / "shared.c4"
    path.write_text(GAME_FILE)
    dropped(app, path)
    review = app.stack.top
    assert isinstance(review, ReviewScene) and review.moves == [3, 3, 4, 2] and review.ply == 4
    assert review.names == {1: "a person", -1: "Medium"} and review.depths == {-1: 6}
    assert app.toast is not None and "Opened 4 moves from shared.c4" in app.toast[0]
    press(app, pygame.K_LEFT)
    press(app, pygame.K_p, frames=2)
    chooser = app.stack.top
    assert isinstance(chooser, PlayOnScene) and "after move 3 as player 2" in chooser.headline()
    chooser.start()
    step(app, 2)
    play = app.stack.top
    assert isinstance(play, PlayScene) and play.match.moves == [3, 3, 4] and play.human_side == MIN


def test_what_is_no_game_is_said_in_a_toast(app, tmp_path):
    app.stack.push(TitleScene())
    step(app)
    path = tmp_path / "bad.c4"
    path.write_text('[Event "x"]\n\n1. 4 4 2. 4 4 3. 4 4 4. 4 *\n')
    dropped(app, path)
    assert isinstance(app.stack.top, TitleScene)
    assert app.toast is not None and app.toast[0].startswith("Not opened: bad.c4: game 1 (line 1): move 7")


def test_pasting_a_link_on_the_title_opens_it_and_a_board_file_opens_the_analysis(app, monkeypatch):
    app.stack.push(TitleScene())
    step(app)
    monkeypatch.setattr(open_game, "get_text", lambda: "https://connect4.gamesolver.org/?pos=4453")
    press(app, pygame.K_v, pygame.KMOD_CTRL, frames=2)
    assert isinstance(app.stack.top, ReviewScene) and app.stack.top.moves == [3, 3, 4, 2]
    show_opened(app, read_text("\n".join(["0000000"] * 5 + ["0001000", "2"]) + "\n"))
    step(app)
    assert isinstance(app.stack.top, AnalysisScene) and app.stack.top.board.ply == 1


def test_the_review_copies_the_link_the_moves_and_the_game(app, monkeypatch):
    copied: list[str] = []
    monkeypatch.setattr(clipboard, "put_text", lambda text: copied.append(text) or True)
    show_opened(app, read_source("4453"))
    step(app)
    press(app, pygame.K_l, pygame.KMOD_CTRL)
    press(app, pygame.K_c, pygame.KMOD_CTRL)
    press(app, pygame.K_c, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert copied[:2] == ["https://connect4.gamesolver.org/?pos=4453", "4453"]
    (game,), problems = read_games(copied[2])
    assert problems == [] and game.moves_string() == "4453" and game.result == "*"


def test_the_play_scene_copies_the_link_and_the_game(app, monkeypatch):
    copied: list[str] = []
    monkeypatch.setattr(clipboard, "put_text", lambda text: copied.append(text) or True)
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app, 2)
    for move in (3, 3):
        play.match.play(move)
    press(app, pygame.K_l, pygame.KMOD_CTRL)
    press(app, pygame.K_c, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert copied[0] == "https://connect4.gamesolver.org/?pos=44"
    (game,), _ = read_games(copied[1])
    assert game.moves == (3, 3) and game.first == "human" and game.second == "human"
    wide = PlayScene(Rules(6, 9), Level(2), "human")
    app.stack.push(wide)
    step(app, 2)
    press(app, pygame.K_l, pygame.KMOD_CTRL)
    assert app.toast is not None and app.toast[0].startswith("No link: the solver page shows only the standard")


def test_a_link_pasted_in_a_game_sets_its_position_up_and_another_board_is_refused(app, monkeypatch):
    play = PlayScene(Rules(), Level(2), "human")
    app.stack.push(play)
    step(app, 2)
    monkeypatch.setattr(clipboard, "get_text", lambda: "https://connect4.gamesolver.org/?pos=4453")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert play.match.moves == [3, 3, 4, 2]
    monkeypatch.setattr(clipboard, "get_text", lambda: '[Rules "7x9, connect 5"]\n\n1. 4 *\n')
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert play.match.moves == [3, 3, 4, 2]
    assert app.toast is not None and "the game is on 7x9, connect 5, this board 6x7, connect 4" in app.toast[0]
