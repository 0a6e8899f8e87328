"""Short synthesised sounds (no files needed) with a mute switch.

If there is no audio device the game is silent and says so in one line; nothing else
changes.  SDL's audio back ends (ALSA above all) write a dozen lines of complaints
straight to file descriptor 2 when there is no sound card; ``quiet_stderr`` silences
that descriptor while the audio is opened.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Callable, Iterator

import numpy as np
import pygame

log = logging.getLogger(__name__)

RATE = 22050


def _tone(
    freqs: list[float], seconds: float, volume: float = 0.35, decay: float = 6.0, noise: float = 0.0
) -> np.ndarray:
    """A mono float wave: the frequencies glide from first to last, fading out."""
    count = int(RATE * seconds)
    t = np.arange(count) / RATE
    freq = np.interp(t, np.linspace(0, seconds, len(freqs)), freqs)
    phase = 2 * np.pi * np.cumsum(freq) / RATE
    wave = np.sin(phase)
    if noise:
        rng = np.random.default_rng(7)
        wave = (1 - noise) * wave + noise * rng.uniform(-1, 1, count)
    envelope = np.exp(-decay * t) * np.minimum(1.0, t * 400)
    sound: np.ndarray = volume * wave * envelope
    return sound


def _melody(notes: list[float], note_seconds: float, volume: float = 0.3) -> np.ndarray:
    return np.concatenate([_tone([n], note_seconds, volume, decay=5.0) for n in notes])


WAVES: dict[str, Callable[[], np.ndarray]] = {
    "drop": lambda: _tone([900, 500], 0.09, 0.2, decay=20),
    "land": lambda: _tone([140, 90], 0.16, 0.5, decay=22, noise=0.35),
    "win": lambda: _melody([523, 659, 784, 1047], 0.13),
    "lose": lambda: _melody([392, 330, 262, 196], 0.16),
    "draw": lambda: _melody([440, 440], 0.15),
    "click": lambda: _tone([1500, 1200], 0.03, 0.15, decay=60),
}


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Send what C libraries write to file descriptor 2 to /dev/null for a moment.

    Python's own ``sys.stderr`` is flushed first and works again afterwards; if the
    descriptors cannot be juggled (no fd 2, a sandbox), nothing is silenced."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def init_mixer() -> tuple[int, int, int] | None:
    """Open the audio device quietly; its (frequency, format, channels), or None."""
    if not pygame.mixer.get_init():
        failure: pygame.error | None = None
        with quiet_stderr():
            try:
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            except pygame.error as error:
                failure = error
        if failure is not None:  # said after fd 2 is back, in the game's own words
            log.warning("no sound (%s): the game stays silent", failure)
            return None
    return pygame.mixer.get_init()


class Sounds:
    """Plays the game's sounds; ``enabled`` is the mute switch."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.available = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        opened = init_mixer()
        if opened is None:
            return
        frequency, _, channels = opened
        try:
            for name, make in WAVES.items():
                wave = make()
                if frequency != RATE:
                    wave = np.interp(
                        np.arange(int(len(wave) * frequency / RATE)) * RATE / frequency, np.arange(len(wave)), wave
                    )
                samples = (np.clip(wave, -1, 1) * 32000).astype(np.int16)
                if channels > 1:
                    samples = np.repeat(samples[:, None], channels, axis=1)
                self._sounds[name] = pygame.mixer.Sound(buffer=samples.tobytes())
            self.available = True
        except (pygame.error, TypeError, ValueError) as error:
            log.warning("no sound (%s): the game stays silent", error)

    def play(self, name: str) -> None:
        if self.enabled and self.available and name in self._sounds:
            self._sounds[name].play()
