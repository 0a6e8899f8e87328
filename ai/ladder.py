"""The levels' ratings: one scale for the presets, the puzzles and the player.

Each preset's place comes from the measured 6x7 ladder in docs/strength.md
(``python -m lab.strength --ladder --openings 18``: the Elo difference of each preset
over the one below it, 36 games a pair): Easy +247 over Beginner, Medium +218 over Easy,
Hard +191 over Medium, Expert +218 over Hard, Perfect +204 over Expert.  The scale is
anchored so that its middle, 1500 (where Glicko-2 starts a new player), lies halfway
between Medium and Hard.  ``LEVEL_DEVIATION`` is about the ladder's error bars (95% +/-
81..147 Elo a step: one standard deviation is about 40..75).
"""

from __future__ import annotations

LADDER_STEPS: tuple[tuple[str, int], ...] = (
    ("Beginner", 0),
    ("Easy", 247),
    ("Medium", 218),
    ("Hard", 191),
    ("Expert", 218),
    ("Perfect", 204),
)
"""Each preset and its measured Elo over the one before it (docs/strength.md, 6x7)."""
SCALE_MIDDLE = 1500
"""Where a new player starts: halfway between Medium and Hard."""
LEVEL_DEVIATION = 60
"""A level's rating deviation on the scale (the ladder's measurement error)."""


def _ratings() -> dict[str, int]:
    """The presets' ratings: the ladder's steps summed, shifted so Medium-Hard's middle is 1500."""
    total, raw = 0, {}
    for name, step in LADDER_STEPS:
        total += step
        raw[name] = total
    shift = SCALE_MIDDLE - (raw["Medium"] + raw["Hard"]) / 2
    return {name: round(value + shift) for name, value in raw.items()}


LEVEL_RATINGS: dict[str, int] = _ratings()
"""Beginner 940, Easy 1187, Medium 1405, Hard 1596, Expert 1814, Perfect 2018."""
BELOW_BEGINNER = LEVEL_RATINGS["Beginner"] - LADDER_STEPS[1][1]
"""A level one Beginner-to-Easy step below Beginner: where a puzzle every level solves sits beside."""


def level_rating(name: str) -> int | None:
    """The rating of a preset by name (None: not a preset of the ladder)."""
    return LEVEL_RATINGS.get(name)


def puzzle_rating(solve_rates: dict[str, float]) -> int:
    """A puzzle's rating from each preset's share of solves (1.0: it always finds the line).

    The puzzle sits between the strongest level that misses it (solves it less than half
    the time) and the next one up: one that Medium misses and Hard finds halfway between
    Medium and Hard, one every level finds halfway between ``BELOW_BEGINNER`` and Beginner,
    one only Perfect finds halfway between Expert and Perfect.  A noisy level's share moves
    it within that rung: the strongest misser solving it a quarter of the time puts it a
    quarter rung lower; Beginner solving a puzzle no level misses three times in four, a
    quarter rung higher.  Levels missing from ``solve_rates`` count as solving it.
    """
    names = list(LEVEL_RATINGS)
    points = [BELOW_BEGINNER, *LEVEL_RATINGS.values()]
    middles = [(low + high) / 2 for low, high in zip(points, points[1:], strict=False)]
    missed = [index + 1 for index, name in enumerate(names) if solve_rates.get(name, 1.0) < 0.5]
    rung = min(max(missed, default=0), len(middles) - 1)
    if rung == 0:
        share = solve_rates.get(names[0], 1.0)
        return round(middles[0] + (1.0 - share) * (middles[1] - middles[0]))
    share = solve_rates.get(names[rung - 1], 1.0)
    return round(middles[rung] - share * (middles[rung] - middles[rung - 1]))
