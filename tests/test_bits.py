"""The compiled kernels' bit helpers (``ai.compiled.bits``) are ``ai.bitboard``'s generated ones.

The helpers are written once and compiled into both kernels; the reference searches use
the straight-line source ``ai.bitboard`` generates per rule set.  Here both run as Python
on seeded positions of every kind of board the kernels take (K = 4 has its own
straight-line path, other K the loops; with and without gravity).
"""

from __future__ import annotations

import random

import pytest

from ai.bitboard import fits_compiled, geometry
from ai.compiled import bits
from game.board import Board
from game.rules import Rules

RULES = {
    "6x7": Rules(),
    "7x8": Rules(rows=7, cols=8),
    "7x8-k5": Rules(rows=7, cols=8, connect=5),
    "5x5-k3": Rules(rows=5, cols=5, connect=3),
    "6x7-no-gravity": Rules(gravity=False),
    "8x6-k6-no-gravity": Rules(rows=8, cols=6, connect=6, gravity=False),
}


def positions(rules: Rules, count: int, seed: int) -> list[tuple[int, int]]:
    """Seeded (first, second) bitboards: random games stopped at random plies."""
    rng = random.Random(seed)
    geo = geometry(rules)
    found = []
    while len(found) < count:
        board = Board(rules)
        board.push_random(rng, rng.randrange(rules.cells))
        found.append(geo.from_grid(board.grid))
    return found


@pytest.mark.parametrize("name", RULES)
def test_threats_and_line_starts_are_the_generated_ones(name):
    rules = RULES[name]
    assert fits_compiled(rules)
    geo = geometry(rules)
    for first, second in positions(rules, 150, seed=len(name)):
        empty = geo.board_mask ^ (first | second)
        for own in (first, second):
            expected = geo.threats(own, empty)
            assert bits.threats(own, empty, geo.height, rules.connect, int(rules.gravity)) == expected
            assert bits.line_starts(own, geo.height, rules.connect) == geo.line_starts(own)
            assert bits.popcount(own) == own.bit_count()
