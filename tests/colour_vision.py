"""Colour-vision simulation and colour difference, in numpy (for tests/test_palettes.py).

The simulation is Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model
for Simulation of Color Vision Deficiency", IEEE TVCG 15(6): one 3x3 matrix per type and
severity, applied to linear RGB.  The matrices here are the paper's for severity 1.0
(dichromacy: protanopia, deuteranopia, tritanopia), the hardest case of each type.
Achromatopsia (no hue at all) is simulated by the CIE luminance alone.

The colour difference is CIEDE2000 (Sharma, Wu and Dalal 2005) in CIELAB under D65.
"""

from __future__ import annotations

import numpy as np

MACHADO_SEVERITY = 1.0
MACHADO = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}
LUMINANCE = np.array([0.2126, 0.7152, 0.0722])
VISIONS = ("normal", *MACHADO, "achromatopsia")


def to_linear(rgb: np.ndarray) -> np.ndarray:
    c = np.asarray(rgb, dtype=float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0.0, 1.0)
    return 255.0 * np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: tuple[int, int, int], vision: str) -> np.ndarray:
    """How ``rgb`` looks with ``vision`` (one of ``VISIONS``), as sRGB floats 0..255."""
    linear = to_linear(np.array(rgb))
    if vision == "normal":
        return to_srgb(linear)
    if vision == "achromatopsia":
        return to_srgb(np.repeat(linear @ LUMINANCE, 3))
    return to_srgb(MACHADO[vision] @ linear)


def to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (0..255) to CIELAB (D65)."""
    xyz = (
        np.array(
            [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
        )
        @ to_linear(rgb)
        / np.array([0.95047, 1.0, 1.08883])
    )
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> float:
    """The CIEDE2000 difference of two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_bar**7 / (c_bar**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * np.cos(np.radians(h_bar - 30))
        + 0.24 * np.cos(np.radians(2 * h_bar))
        + 0.32 * np.cos(np.radians(3 * h_bar + 6))
        - 0.20 * np.cos(np.radians(4 * h_bar - 63))
    )
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / np.sqrt(20 + (l_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -2 * np.sqrt(cp_bar**7 / (cp_bar**7 + 25.0**7)) * np.sin(np.radians(60 * np.exp(-(((h_bar - 275) / 25) ** 2))))
    return float(np.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhp / sh) ** 2 + rt * (dc / sc) * (dhp / sh)))


def difference(first: tuple[int, int, int], second: tuple[int, int, int], vision: str) -> float:
    """CIEDE2000 between two sRGB colours as a person with ``vision`` sees them."""
    return ciede2000(to_lab(simulate(first, vision)), to_lab(simulate(second, vision)))


def contrast_ratio(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours, 1 (the same) to 21 (black on white):
    (L1 + 0.05) / (L2 + 0.05) with L the relative luminance, the lighter one on top."""
    lighter, darker = sorted((float(to_linear(np.array(c)) @ LUMINANCE) for c in (first, second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)
