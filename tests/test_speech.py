"""Spoken output: the status line's sentences through the system's voice (espeak-ng here,
writing WAV files), never blocking a frame, and the board read column by column."""

from __future__ import annotations

import os
import shutil
import sys
import time
import wave
from collections.abc import Callable
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
    assert wait_until(app, lambda: play.jobs.hint is not None and not play.jobs.explaining, 30)
    app.step([], FRAME)
    assert heard(app, "Hint: column") > 0.5
    hint = list(app.speech.said)[-1]
    assert ". " in hint and ".." not in hint and "play No" not in hint  # the reason is its own sentence
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


# -- no voice outlives its sentence, nor the game ----------------------------------------


def process_stat(pid: int) -> tuple[str, int, int] | None:
    """The state letter, parent and process group of ``pid`` from /proc; None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2])


def running(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie has ended)."""
    return [pid for pid in pids if (stat := process_stat(pid)) is not None and stat[0] != "Z"]


def frames_until(speech: Speech, done: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    """Run frames (``follow`` is the speech's part of one) until ``done``; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, what
        speech.follow(None)
        time.sleep(0.01)


def zombie_children() -> list[int]:
    """This test's own children that ended and were never reaped."""
    return [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and (stat := process_stat(int(entry.name))) and stat[:2] == ("Z", os.getpid())
    ]


def wrapper_voice(folder: Path, *, wrapper_ignores_term: bool) -> tuple[Voice, Path]:
    """A voice as a wrapper script is (``espeak-ng --stdout | aplay``): a shell that reads
    the sentence and waits for a child that ignores SIGTERM (as a sound player busy in
    its device may); the wrapper too, if ``wrapper_ignores_term``.  Each writes its pid
    to the returned file once its SIGTERM is set as it will be."""
    pids = folder / "pids"
    child = (
        "import os, signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        f"open({str(pids)!r}, 'a').write(f'child {{os.getpid()}}\\n'); time.sleep(120)"
    )
    script = folder / "voice.sh"
    script.write_text(
        "#!/bin/sh\n"
        + ("trap '' TERM\n" if wrapper_ignores_term else "")
        + "cat > /dev/null\n"
        + f"'{sys.executable}' -c \"{child}\" &\n"
        + f"echo \"wrapper $$\" >> '{pids}'\n"
        + "wait\n"
    )
    script.chmod(0o755)
    return Voice("wrapper", (str(script),)), pids


def recorded(pids: Path) -> list[int]:
    return [int(line.split()[1]) for line in pids.read_text().splitlines()] if pids.exists() else []


@pytest.mark.parametrize("wrapper_ignores_term", [False, True], ids=["wrapper", "wrapper ignoring TERM"])
def test_cut_off_voices_leave_no_process_and_no_zombie(tmp_path, wrapper_ignores_term):
    """Ten sentences, each cut off by the next while its voice runs (a wrapper and a child
    that ignores SIGTERM): the cut-off voices end in the frames that follow, each voice in
    a process group of its own, and when the game quits not one of them is left, nor a
    zombie."""
    voice, pids = wrapper_voice(tmp_path, wrapper_ignores_term=wrapper_ignores_term)
    speech = Speech(True, voice=voice)
    groups = set()
    for number in range(10):
        speech.say(f"Sentence {number}")
        assert speech.process is not None
        groups.add(os.getpgid(speech.process.pid))
        frames_until(speech, lambda: len(recorded(pids)) == 2 * (number + 1), "the voice did not start", 30)
    cut_off, speaking = recorded(pids)[:-2], recorded(pids)[-2:]
    frames_until(speech, lambda: not running(cut_off), f"cut-off voices still running: {running(cut_off)}")
    assert running(speaking) == speaking, "the sentence being said goes on"
    assert len(groups) == 10 and os.getpgid(0) not in groups
    speech.close()  # the game quits
    assert zombie_children() == []
    frames_until(speech, lambda: not running(speaking), f"the last voice outlived the game: {running(speaking)}", 5)
    assert zombie_children() == []


@pytest.mark.skipif(
    ESPEAK is None and not os.environ.get("CI"), reason="espeak-ng is not installed (.ci/run installs it)"
)
def test_espeak_cut_off_leaves_no_zombie(tmp_path):
    speech = Speech(True, voice=Voice("espeak-ng", (ESPEAK, "--stdin"), tmp_path))
    started = []
    for number in range(8):
        speech.say(f"This is a long sentence number {number} that will not be finished")
        started.append(speech.process.pid)
    frames_until(speech, lambda: all(process_stat(pid) is None for pid in started[:-1]), "a cut-off voice not reaped")
    assert zombie_children() == []
    speech.close()
    assert zombie_children() == [] and all(process_stat(pid) is None for pid in started)


def test_voices_cut_off_as_speech_is_switched_off_still_end(app, tmp_path):
    """Options switches spoken output off while a voice that ignores SIGTERM is speaking:
    the window's frames go on tending it, so it is killed after the grace, not left
    running until the game quits."""
    voice, pids = wrapper_voice(tmp_path, wrapper_ignores_term=True)
    app.speech = Speech(True, voice=voice)
    app.speech.say("A sentence nobody will hear to its end")
    deadline = time.monotonic() + 30
    while len(recorded(pids)) < 2:
        assert time.monotonic() < deadline, "the voice did not start"
        time.sleep(0.01)
    app.speech.enabled = False  # what Options does
    app.speech.stop()
    deadline = time.monotonic() + 10
    while running(recorded(pids)) or zombie_children():
        assert time.monotonic() < deadline, f"left: {running(recorded(pids))}, zombies {zombie_children()}"
        app.step([], FRAME)
        time.sleep(0.01)
