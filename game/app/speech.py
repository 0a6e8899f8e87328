"""Spoken output: the status line's sentences read aloud by the system's voice.

The voice is a command chosen at run time: espeak-ng (or espeak) on Linux and the BSDs,
``say`` on macOS, Windows' own speech synthesiser through PowerShell.  The sentence goes to
the command's standard input, so no text is ever read as an option.  Speaking never blocks
the frame: the command runs as a subprocess that is never waited on in a frame, and a new
sentence cuts off the one still being said (as a screen reader does).  Without any voice
the game stays silent and says so once.

A voice may be a wrapper (a script piping espeak-ng to aplay or paplay) or ignore SIGTERM,
so each sentence's voice runs in its own process group (a new session), and cutting it off
ends the whole group: SIGTERM at once, SIGKILL once ``GRACE_SECONDS`` have passed
(``tend``, each frame), then its leader is reaped.  The leader is reaped only after the
SIGKILL: until then its pid, which is the group's id, cannot be reused, so the signals
reach only this voice's processes.  ``close`` ends every group before the window closes,
so no voice outlives the game.  Windows has no process groups: there the voice
(PowerShell, which speaks in its own process) is ended with TerminateProcess and reaped.

Nothing is worded here: the sentences are the ones the screen shows (the play scene's
status line, the toasts) or are worded where the screen's are (``play_text``).
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from game.i18n import N_, _, language

log = logging.getLogger(__name__)

NO_VOICE = N_("No voice for spoken output was found (on Linux, install espeak-ng): the game stays silent")
WINDOWS_SPEAK = (
    "Add-Type -AssemblyName System.Speech; "
    "(New-Object System.Speech.Synthesis.SpeechSynthesizer).Speak([Console]::In.ReadToEnd())"
)


@dataclass(frozen=True)
class Voice:
    """A command that speaks the text on its standard input.

    ``wav_folder`` (espeak-ng and espeak only) writes each sentence to a numbered WAV
    file there instead of the loudspeaker: what the tests listen to."""

    name: str
    argv: tuple[str, ...]
    wav_folder: Path | None = None

    def command(self, number: int) -> list[str]:
        argv = list(self.argv)
        if self.name in ("espeak-ng", "espeak") and language() != "en":
            argv += ["-v", language()]  # the voice of the language the sentences are in
        if self.wav_folder is None:
            return argv
        return [*argv, "-w", str(self.wav_folder / f"speech-{number:03d}.wav")]


def find_voice(platform: str = sys.platform, which: Callable[[str], str | None] = shutil.which) -> Voice | None:
    """The platform's voice, or None if it has none that this game can drive."""
    if platform == "darwin":
        found = which("say")
        return Voice("say", (found,)) if found else None
    if platform.startswith(("win", "cygwin")):
        found = which("powershell") or which("pwsh")
        return (
            Voice("Windows speech", (found, "-NoProfile", "-NonInteractive", "-Command", WINDOWS_SPEAK))
            if found
            else None
        )
    for name in ("espeak-ng", "espeak"):
        found = which(name)
        if found:
            return Voice(name, (found, "--stdin"))
    return None


GRACE_SECONDS = 0.5
"""How long a cut-off voice has to end after SIGTERM before its group gets SIGKILL."""
PROCESS_GROUPS = os.name == "posix"
"""Each voice in its own process group, ended as one (not on Windows: no groups there)."""

_UNSET = object()


@dataclass
class _Ending:
    """A cut-off sentence's voice: SIGTERM sent, SIGKILL due at ``deadline``."""

    process: subprocess.Popen[bytes]
    deadline: float
    killed: bool = False


class Speech:
    """Says sentences through a ``Voice`` while ``enabled``; ``said`` keeps the last ones."""

    def __init__(self, enabled: bool = False, voice: Voice | None | object = _UNSET):
        self.enabled = enabled
        self._voice = voice
        self.process: subprocess.Popen[bytes] | None = None
        self.ending: list[_Ending] = []  # the voices of cut-off sentences, not yet reaped
        self.said: deque[str] = deque(maxlen=50)
        self.count = 0
        self.noted = False  # the note that there is no voice was given
        self.following: str | None = None  # the status line last said

    @property
    def voice(self) -> Voice | None:
        """The voice, looked for the first time it is needed."""
        if self._voice is _UNSET:
            self._voice = find_voice()
        return self._voice  # type: ignore[return-value]

    def say(self, text: str) -> str | None:
        """Speak ``text`` now (cutting off what is still being said).  Returns a note for
        the screen the first time there is no voice (or it cannot start), else None."""
        text = " ".join(text.split())
        if not self.enabled or not text:
            return None
        voice = self.voice
        if voice is None:
            return self._note(_(NO_VOICE))
        self.stop()
        self.count += 1
        try:
            process = subprocess.Popen(
                voice.command(self.count),
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=PROCESS_GROUPS,  # its own group: the whole voice ends as one
            )
        except OSError as error:
            self._voice = None
            return self._note(
                _("Spoken output cannot start {name} ({value}): the game stays silent").format(
                    name=voice.name, value=error.strerror or error
                )
            )
        self.process = process
        self.said.append(text)
        try:
            assert process.stdin is not None
            process.stdin.write(text.encode("utf-8") + b"\n")  # a sentence: far under a pipe's buffer
            process.stdin.close()
        except OSError:  # the voice ended at once: nothing to say about it
            pass
        return None

    def follow(self, line: str | None) -> str | None:
        """Speak the status line ``line`` if it changed since the last call (each frame:
        the voices of cut-off sentences are tended too)."""
        self.tend()
        if line is None or line == self.following:
            return None
        self.following = line
        return self.say(line)

    def _note(self, text: str) -> str | None:
        if self.noted:
            return None
        self.noted = True
        log.warning("%s", text)
        return text

    def busy(self) -> bool:
        """A sentence is still being said."""
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """Cut off the sentence being said: its group gets SIGTERM now, SIGKILL after the
        grace (``tend``); never waits."""
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        _signal(process, signal.SIGTERM)
        self.ending.append(_Ending(process, time.monotonic() + GRACE_SECONDS))
        self.tend()

    def tend(self, now: float | None = None) -> None:
        """SIGKILL to each cut-off voice's group whose grace is over, then reap its leader,
        and reap the voice of a sentence said to its end; never blocks (each frame)."""
        now = time.monotonic() if now is None else now
        if self.process is not None:
            self.process.poll()
        left = []
        for ending in self.ending:
            if not ending.killed and now >= ending.deadline:
                _signal(ending.process, signal.SIGKILL)
                ending.killed = True
            if not (ending.killed and ending.process.poll() is not None):
                left.append(ending)
        self.ending = left

    def wait(self, timeout: float = 10.0) -> None:
        """Let the sentence being said finish (tests, and not in a frame)."""
        if self.process is not None:
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.stop()

    def close(self) -> None:
        """End every voice, the one speaking and the cut-off ones, and reap them (the
        window closes): waits until their leaders end on SIGTERM, at most the grace, then
        SIGKILL to every group."""
        self.stop()
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline and not all(_has_ended(e.process) for e in self.ending):
            time.sleep(0.01)
        for ending in self.ending:
            _signal(ending.process, signal.SIGKILL)
            try:
                ending.process.wait(5.0)
            except subprocess.TimeoutExpired:  # a process stuck in the kernel: nothing more to do
                log.warning("the voice (process %d) did not end", ending.process.pid)
        self.ending = []


def _signal(process: subprocess.Popen[bytes], number: int) -> None:
    """Send ``number`` to the voice's whole group (Windows: end the voice's own process).
    Not once its leader is reaped: its group's id might then be another's."""
    if process.returncode is not None:
        return
    try:
        if PROCESS_GROUPS:
            os.killpg(process.pid, number)
        elif number == signal.SIGTERM:
            process.terminate()
        else:
            process.kill()
    except OSError:  # the group has ended
        pass


def _has_ended(process: subprocess.Popen[bytes]) -> bool:
    """The voice's leader has ended; not reaped (its pid keeps the group's id reserved)."""
    if process.returncode is not None or not PROCESS_GROUPS:
        return process.poll() is not None
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True
