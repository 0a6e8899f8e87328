"""Spoken output: the status line's sentences read aloud by the system's voice.

The voice is a command chosen at run time: espeak-ng (or espeak) on Linux and the BSDs,
``say`` on macOS, Windows' own speech synthesiser through PowerShell.  The sentence goes to
the command's standard input, so no text is ever read as an option.  Speaking never blocks
the frame: the command runs as a subprocess that is never waited on in a frame, and a new
sentence cuts off the one still being said (as a screen reader does).  Without any voice
the game stays silent and says so once.

Nothing is worded here: the sentences are the ones the screen shows (the play scene's
status line, the toasts) or are worded where the screen's are (``play_text``).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
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


_UNSET = object()


class Speech:
    """Says sentences through a ``Voice`` while ``enabled``; ``said`` keeps the last ones."""

    def __init__(self, enabled: bool = False, voice: Voice | None | object = _UNSET):
        self.enabled = enabled
        self._voice = voice
        self.process: subprocess.Popen[bytes] | None = None
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
        """Speak the status line ``line`` if it changed since the last call."""
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
        """Cut off the sentence being said (without waiting for the voice to end)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
        self.process = None

    def wait(self, timeout: float = 10.0) -> None:
        """Let the sentence being said finish (tests, and not in a frame)."""
        if self.process is not None:
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.stop()

    def close(self) -> None:
        """Stop speaking and reap the voice (the window closes)."""
        process = self.process
        self.stop()
        if process is not None:
            try:
                process.wait(1.0)
            except subprocess.TimeoutExpired:
                process.kill()
