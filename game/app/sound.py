"""Short synthesised sounds (no files needed) with a mute switch.

If there is no audio device the game is silent; nothing else changes.
"""

from __future__ import annotations

import logging

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
    return volume * wave * envelope


def _melody(notes: list[float], note_seconds: float, volume: float = 0.3) -> np.ndarray:
    return np.concatenate([_tone([n], note_seconds, volume, decay=5.0) for n in notes])


WAVES = {
    "drop": lambda: _tone([900, 500], 0.09, 0.2, decay=20),
    "land": lambda: _tone([140, 90], 0.16, 0.5, decay=22, noise=0.35),
    "win": lambda: _melody([523, 659, 784, 1047], 0.13),
    "lose": lambda: _melody([392, 330, 262, 196], 0.16),
    "draw": lambda: _melody([440, 440], 0.15),
    "click": lambda: _tone([1500, 1200], 0.03, 0.15, decay=60),
}


class Sounds:
    """Plays the game's sounds; ``enabled`` is the mute switch."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.available = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            frequency, _, channels = pygame.mixer.get_init()
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
