"""Spoken output: the status line's sentences through the system's voice (espeak-ng here,
writing WAV files), never blocking a frame, and the board read column by column."""

from __future__ import annotations

import os
import shutil
import sys
import time
import wave
from pathlib import Path

import numpy as np
import pygame
import pytest

from ai.levels import Level
from game.app.scenes.play import PlayScene
from game.app.scenes.play_text import Names, board_readout
from game.app.speech import NO_VOICE, Speech, Voice, find_voice
from game.board import Board
from game.rules import MAX, MIN, Rules
from tests.ui import FRAME, key_event, wait_until

ESPEAK = shutil.which("espeak-ng")


def test_the_voice_fits_the_platform():
    found = {"espeak-ng": "/usr/bin/espeak-ng", "say": "/usr/bin/say", "powershell": "C:/ps.exe"}.get
    assert find_voice("linux", found) == Voice("espeak-ng", ("/usr/bin/espeak-ng", "--stdin"))
    assert find_voice("darwin", found) == Voice("say", ("/usr/bin/say",))
    windows = find_voice("win32", found)
    assert windows is not None and windows.argv[0] == "C:/ps.exe" and "System.Speech" in windows.argv[-1]
    assert find_voice("linux", {"espeak": "/bin/espeak"}.get) == Voice("espeak", ("/bin/espeak", "--stdin"))
    assert find_voice("linux", lambda name: None) is None


def test_without_a_voice_it_is_silent_and_says_so_once(caplog):
    speech = Speech(True, voice=None)
    assert speech.say("Your turn") == NO_VOICE
    assert speech.say("The computer played column 4") is None
    assert speech.follow("Hint: column 4") is None
    assert [r.message for r in caplog.records].count(NO_VOICE) == 1


def test_off_says_nothing():
    speech = Speech(False, voice=Voice("true", (sys.executable, "-c", "")))
    assert speech.say("Your turn") is None and speech.process is None and not speech.said


def test_speaking_never_waits_for_the_voice():
    """A voice that takes 5 s: the frame that asks goes on at once; the next sentence
    cuts the first off."""
    slow = Voice("slow", (sys.executable, "-c", "import sys, time; sys.stdin.read(); time.sleep(5)"))
    speech = Speech(True, voice=slow)
    started = time.perf_counter()
    speech.say("The computer played column 5. You are slightly better (estimate)")
    first = speech.process
    speech.say("Your turn")
    assert time.perf_counter() - started < 1.0
    assert first is not None and first.wait(2) is not None  # cut off, not left to talk
    assert speech.busy()
    speech.close()
    assert not speech.busy() and list(speech.said)[-1] == "Your turn"


def test_board_readout_of_a_seeded_position():
    board = Board.from_moves("4453")  # you: 4, 5; the computer: 4, 3
    names = Names("You", "The computer", MAX, True)
    said = board_readout(board.grid, board.rules, names)
    assert said == (
        "Column 1: empty. Column 2: empty. Column 3: theirs, 5 empty. Column 4: yours, theirs, 4 empty. "
        "Column 5: yours, 5 empty. Column 6: empty. Column 7: empty."
    )
    two = board_readout(board.grid, board.rules, Names("Player 1", "Player 2"))
    assert "Column 4: player 1, player 2, 4 empty." in two
    full = Board.from_moves("111111")
    assert board_readout(full.grid, full.rules, Names("You", "The computer", MIN, True)).startswith(
        "Column 1: theirs, yours, theirs, yours, theirs, yours, full."
    )
    loose = Board(Rules(rows=4, cols=4, connect=3, gravity=False))
    loose.push(loose.move_at((0, 1)))  # the top cell of column b, nothing under it
    assert "Column b: 3 empty, player 1." in board_readout(loose.grid, loose.rules, Names("Player 1", "Player 2"))


def spoken_seconds(path: Path) -> float:
    """How long the WAV file ``path`` has sound (samples above a whisper)."""
    with wave.open(str(path)) as wav:
        samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16)
        rate = wav.getframerate()
    return float((np.abs(samples.astype(int)) > 500).sum()) / rate


def heard(app, start: str) -> float:
    """Seconds of speech in the WAV of the last sentence said that starts with ``start``."""
    speech = app.speech
    speech.wait()
    said = list(speech.said)
    index = max(i for i, text in enumerate(said) if text.startswith(start))
    number = speech.count - (len(said) - 1 - index)
    return spoken_seconds(speech.voice.wav_folder / f"speech-{number:03d}.wav")


@pytest.mark.skipif(
    ESPEAK is None and not os.environ.get("CI"), reason="espeak-ng is not installed (.ci/run installs it)"
)
def test_a_move_a_hint_and_a_result_are_spoken(app, tmp_path):
    app.speech = Speech(True, voice=Voice("espeak-ng", (ESPEAK, "--stdin"), tmp_path))
    play = PlayScene(Rules(), Level(2), "computer", "human")
    app.stack.push(play)
    app.step([], FRAME)
    app.step([key_event(pygame.K_4)], FRAME)
    assert wait_until(app, lambda: play.headline().startswith("The computer played") and play.drop is None, 30)
    app.step([], FRAME)
    assert heard(app, "The computer played column") > 0.5
    app.step([key_event(pygame.K_h)], FRAME)
    assert wait_until(app, lambda: play.jobs.hint is not None, 30)
    app.step([], FRAME)
    assert heard(app, "Hint: column") > 0.5
    app.step([key_event(pygame.K_b)], FRAME)
    assert list(app.speech.said)[-1] == board_readout(play.match.board.grid, play.rules, play.names())
    assert heard(app, "Column 1:") > 2.0
    two = PlayScene(Rules(), Level(2), "human")
    app.stack.push(two)
    app.step([], FRAME)
    for key in "1212121":
        app.step([key_event(pygame.K_0 + int(key))], FRAME)
        wait_until(app, lambda: two.drop is None, 5)
    assert two.outcome is not None
    assert heard(app, "Player 1 wins") > 0.5
    app.step([key_event(pygame.K_2)], FRAME)  # an error: the game is over
    assert heard(app, "The game is over") > 0.5
