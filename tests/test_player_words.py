"""Issue 52, item 7: words a player met in English on a German or Spanish screen, and a
count without its plural form.

"Paused" was drawn untranslated (a menu's title was never worded as it was drawn); the
level names stayed English on the level select and in the play screen's words; the title
said "Resume the unfinished game (1 discs)".
"""

from __future__ import annotations

import sys

import pytest

from ai.levels import PRESETS, level_title
from game.app.scenes.level_select import LevelSelectScene
from game.app.scenes.options import OptionsScene
from game.app.scenes.pause import PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.play_text import level_text
from game.app.scenes.title import TitleScene
from game.app.worker_jobs import no_fast_solver_note
from game.board import Board
from game.i18n import set_language
from game.net.events import Moved, Table
from game.net.sentences import event_line
from game.records import HUMAN, Unfinished
from game.rules import MAX, MIN, Rules
from tests.ui import drawn_texts, step


@pytest.fixture(autouse=True)
def english_again():
    yield
    set_language("en")


@pytest.mark.parametrize("language, paused", [("de", "Pausiert"), ("es", "En pausa")])
def test_the_pause_menu_is_titled_in_the_players_language(app, language, paused):
    play = PlayScene(Rules(), PRESETS["Easy"], "computer")
    app.stack.reset(play)
    step(app)
    app.stack.push(PauseScene(play))
    step(app, 2)
    set_language(language)
    drawn = [text for text, _rect in drawn_texts(app)]
    assert paused in drawn and "Paused" not in drawn


@pytest.mark.parametrize("language, easy, perfect", [("de", "Leicht", "Perfekt"), ("es", "Fácil", "Perfecto")])
def test_level_names_are_worded_for_a_person_and_kept_in_english_for_the_archive(app, language, easy, perfect):
    set_language(language)
    assert level_title("Easy") == easy and level_title("depth 5") == "depth 5"
    assert level_text(PRESETS["Perfect"], Rules()).startswith(perfect)
    app.stack.reset(LevelSelectScene())
    step(app, 2)
    drawn = [text for text, _rect in drawn_texts(app)]
    assert easy in drawn and "Easy" not in drawn
    assert [button.label for button in app.stack.top.presets][1] == "Easy"  # the name itself stays


@pytest.mark.parametrize(
    "language, one, many",
    [
        ("en", "Resume the game against Perfect (1 disc)", "Resume the two-player game (2 discs)"),
        ("de", "Spiel gegen Perfekt fortsetzen (1 Stein)", "Spiel zu zweit fortsetzen (2 Steine)"),
        ("es", "Reanudar la partida contra Perfecto (1 ficha)", "Reanudar la partida a dos (2 fichas)"),
    ],
)
def test_the_title_counts_the_discs_of_each_unfinished_game_with_its_plural(app, language, one, many):
    app.archive.save_in_progress(Rules(), [3], first=HUMAN, second="Perfect", settings={"opponent": "computer"})
    app.archive.save_in_progress(Rules(), [3, 4], first=HUMAN, second=HUMAN, kind=Unfinished.TWO_PLAYERS)
    set_language(language)
    app.stack.reset(TitleScene())
    step(app, 2)
    drawn = " ".join(text for text, _rect in drawn_texts(app))
    assert one in drawn and many in drawn


def test_the_lite_programs_note_says_what_it_means_and_not_a_fault(monkeypatch):
    """Issue 52: the lite program (no numba, by design) was greeted with "Fast solver
    unavailable: using the slower pure-Python solver", which reads like a fault."""
    monkeypatch.setitem(sys.modules, "numba", None)  # as where it is not installed: find_spec finds nothing
    note = no_fast_solver_note()
    assert note.startswith("This is the lite program") and "unavailable" not in note
    set_language("de")
    assert no_fast_solver_note().startswith("Das ist das Lite-Programm")


def test_the_sound_row_says_when_there_is_no_sound_device(app):
    """Issue 52: Options said "Sound: on" on a computer with no audio device."""
    app.sounds.available = True
    options = OptionsScene()
    app.stack.reset(options)
    step(app, 2)
    assert options.sound.format(options.sound.value) == "on"
    app.sounds.available = False  # as ``Sounds`` finds it when no device opens
    assert options.sound.format(options.sound.value) == "no sound device"
    assert "no sound device" in [text for text, _rect in drawn_texts(app)]


@pytest.mark.parametrize(
    "language, said", [("en", "You played 4."), ("de", "Du hast 4 gespielt."), ("es", "Jugaste 4.")]
)
def test_ones_own_network_move_is_a_sentence_of_its_own(language, said):
    """The network log said "Du spielte 4." ("You" put into "{name} played {move}")."""
    table = Table(Rules(), MAX, {MAX: "Alice", MIN: "Bob"}, Board(Rules()))
    set_language(language)
    assert event_line(table, Moved(MAX, 3, 0)) == said
