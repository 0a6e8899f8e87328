"""Allis's nine strategic rules (1988), each written once: where it applies and what it refutes.

Allis's rules are for the *controller*: the side that answers (in the endgame, player 2
by claimeven, or player 1 once an odd threat gives it the zugzwang).  Each rule asks some
empty squares of a certain shape and gives the controller a share of them whatever the
other side does; every line of four of the other side that contains what the controller
is sure to get is *refuted* (Allis's "solutions").  Rows count 1..6 from the bottom; a
square is *directly playable* when a disc dropped in its column lands there.

- **claimeven**: two empty squares of one column, the upper one even: the controller
  answers a disc on the lower square by taking the upper one.  Refutes lines through the
  upper square.
- **baseinverse**: two directly playable squares of different columns: when one is
  taken the controller takes the other.  Refutes lines through both.
- **vertical**: two empty squares of one column, the upper one odd: answered like a
  claimeven.  Refutes lines through both.
- **aftereven**: a line of the controller whose empty squares are all even, each reached
  by claimevens from its column's lowest empty square: the controller completes it as the
  columns fill.  Refutes lines of the other side that have, in every column of the
  aftereven line's empty squares, a square above it (they come too late).
- **lowinverse**: two verticals in different columns.  Refutes what each vertical refutes
  and lines through both upper squares.
- **highinverse**: two columns with three empty squares each (lower even, middle odd,
  upper even).  Refutes lines through both upper squares, through both middle squares,
  through the two upper squares of one column, and through a directly playable lower
  square of one column and the upper square of the other.
- **baseclaim**: three directly playable squares, the middle one odd: lines through the
  first and the square above the middle one, and through the middle and the third.
- **before**: a line of the controller (not vertical), none of its empty squares in the
  top row, each empty square in a claimeven or vertical of the rule.  Refutes lines of the
  other side through the square directly above every empty square of the before line, and
  whatever its claimevens and verticals refute.
- **specialbefore**: a before with a directly playable square of its line and another
  directly playable square outside its columns; refutes lines through both, and lines
  through that outer square and every square directly above the before line's squares.

The explainer hands out strategies of fixed pairs only (``ai.explain.checker``), so it
answers with the pair rules (claimeven, vertical, baseinverse) and names the rules that
the pairs make true: aftereven, before and specialbefore lines of the side that follows
them, and lowinverse where a line of the other side is refuted only by two verticals
together.  Highinverse and baseclaim answer a move with a square that depends on the
order of play, which no fixed set of pairs can say: they are found and tested here, but
never claimed in an explanation.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ai.explain.board import (
    COLS,
    HEIGHT,
    ODD_ROWS,
    ROWS,
    bit_of,
    bits_of,
    column_mask,
    open_lines,
    playable,
    square_of,
    squares_of,
)
from ai.explain.explanation import Rule, RuleUse, Square

MAX_BEFORES = 256
"""Before lines looked at in one position, at most (the search for them is exponential)."""


@dataclass(frozen=True)
class Instance:
    """One place a rule applies: the squares it uses, the pairs it answers with where it
    answers with fixed pairs, and what it refutes.

    A line of four is refuted when it contains every cell of one of ``refuted`` (each a
    bitboard), or, for an aftereven, meets every bitboard of ``later`` (each the cells above
    the aftereven line in one of its columns)."""

    rule: Rule
    squares: tuple[Square, ...]
    pairs: tuple[tuple[Square, Square], ...] = ()
    refuted: tuple[int, ...] = ()
    later: tuple[int, ...] = ()

    def refutes(self, line: int) -> bool:
        if any(line & need == need for need in self.refuted):
            return True
        return bool(self.later) and all(line & above for above in self.later)

    def use(self) -> RuleUse:
        return RuleUse(self.rule, self.squares)


def is_even(bit: int) -> bool:
    return not bit & ODD_ROWS


def above(bit: int) -> int:
    """The cell directly above (0 past the top row, or above no cell)."""
    return (bit << 1) & column_mask((bit.bit_length() - 1) // HEIGHT) if bit else 0


def below(bit: int) -> int:
    """The cell directly below (0 under the bottom row, or below no cell)."""
    return (bit >> 1) & column_mask((bit.bit_length() - 1) // HEIGHT) if bit else 0


def above_all(bit: int) -> int:
    """Every cell of the column above this one."""
    col = (bit.bit_length() - 1) // HEIGHT
    return column_mask(col) & ~((bit << 1) - 1)


def cells(bits: int) -> list[int]:
    """The one-bit bitboards of ``bits``, lowest first."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low)
        bits ^= low
    return found


# -- the three pair rules -------------------------------------------------------------------
def claimeven(lower: int, upper: int, mask: int) -> Instance | None:
    """A claimeven on two cells, or None where the shape is not one."""
    if not upper or upper != above(lower) or (lower | upper) & mask or not is_even(upper):
        return None
    return Instance(Rule.CLAIMEVEN, (square_of(lower), square_of(upper)), _pair(lower, upper), (upper,))


def vertical(lower: int, upper: int, mask: int) -> Instance | None:
    """A vertical on two cells, or None."""
    if not upper or upper != above(lower) or (lower | upper) & mask or is_even(upper):
        return None
    return Instance(Rule.VERTICAL, (square_of(lower), square_of(upper)), _pair(lower, upper), (lower | upper,))


def baseinverse(first: int, second: int, mask: int) -> Instance | None:
    """A baseinverse on two cells, or None."""
    low = playable(mask)
    if first == second or not (first & low and second & low):
        return None
    a, b = sorted((first, second))
    return Instance(Rule.BASEINVERSE, (square_of(a), square_of(b)), _pair(a, b), (a | b,))


def _pair(a: int, b: int) -> tuple[tuple[Square, Square], ...]:
    return ((square_of(a), square_of(b)),)


def pair_instance(a: int, b: int, mask: int) -> Instance | None:
    """The pair rule two cells make at the start of a strategy (claimeven, vertical or
    baseinverse), or None when they make none (such a pair is never handed out)."""
    lower, upper = min(a, b), max(a, b)
    return claimeven(lower, upper, mask) or vertical(lower, upper, mask) or baseinverse(a, b, mask)


def claimevens(mask: int) -> list[Instance]:
    return [found for lower in _empty(mask) if (found := claimeven(lower, above(lower), mask))]


def verticals(mask: int) -> list[Instance]:
    return [found for lower in _empty(mask) if (found := vertical(lower, above(lower), mask))]


def baseinverses(mask: int) -> list[Instance]:
    low = cells(playable(mask))
    return [found for a, b in itertools.combinations(low, 2) if (found := baseinverse(a, b, mask))]


def _empty(mask: int) -> list[int]:
    return [1 << (col * HEIGHT + r) for col in range(COLS) for r in range(ROWS) if not mask >> (col * HEIGHT + r) & 1]


# -- the rules on lines of the controller -----------------------------------------------------
def aftereven(line: int, own: int, mask: int) -> Instance | None:
    """An aftereven on a line of the controller (``own``: its discs), or None.

    Every empty square of the line is even and claimevens reach it from the lowest empty
    square of its column (so that square is odd); the squares above the line's squares
    are the ones the refuted lines need."""
    if line & (own ^ mask):
        return None
    empty = line & ~mask
    if not empty or not all(is_even(cell) for cell in cells(empty)):
        return None
    later = []
    for col in sorted({(cell.bit_length() - 1) // HEIGHT for cell in cells(empty)}):
        top = max(cell for cell in cells(empty & column_mask(col)))
        lowest = playable(mask) & column_mask(col)
        if is_even(lowest):  # claimevens from an even square would start on the wrong parity
            return None
        later.append(above_all(top))
    return Instance(Rule.AFTEREVEN, squares_of(line), refuted=(), later=tuple(later))


def afterevens(own: int, mask: int) -> list[Instance]:
    return [found for line in open_lines(own, mask) if (found := aftereven(line, own, mask))]


def lowinverse(first: Instance, second: Instance) -> Instance | None:
    """A lowinverse of two verticals, or None (not two verticals of different columns)."""
    if Rule.VERTICAL is not first.rule or Rule.VERTICAL is not second.rule:
        return None
    if first.squares[0].col == second.squares[0].col:
        return None
    uppers = bit_of(first.squares[1]) | bit_of(second.squares[1])
    squares = tuple(sorted(first.squares + second.squares))
    return Instance(Rule.LOWINVERSE, squares, refuted=(*first.refuted, *second.refuted, uppers))


def lowinverses(mask: int) -> list[Instance]:
    found = verticals(mask)
    return [made for a, b in itertools.combinations(found, 2) if (made := lowinverse(a, b))]


def highinverse(lower_a: int, lower_b: int, mask: int) -> Instance | None:
    """A highinverse on the columns of two even cells with two empty cells above each, or None."""
    columns = []
    for lower in (lower_a, lower_b):
        middle = above(lower)
        upper = above(middle)
        if not upper or (lower | middle | upper) & mask or not is_even(lower) or not is_even(upper):
            return None
        columns.append((lower, middle, upper))
    (la, ma, ua), (lb, mb, ub) = columns
    if (la.bit_length() - 1) // HEIGHT == (lb.bit_length() - 1) // HEIGHT:
        return None
    refuted = [ua | ub, ma | mb, ma | ua, mb | ub]
    low = playable(mask)
    if la & low:
        refuted.append(la | ub)
    if lb & low:
        refuted.append(lb | ua)
    return Instance(Rule.HIGHINVERSE, squares_of(la | ma | ua | lb | mb | ub), refuted=tuple(refuted))


def highinverses(mask: int) -> list[Instance]:
    lowers = [cell for cell in _empty(mask) if is_even(cell)]
    return [found for a, b in itertools.combinations(lowers, 2) if (found := highinverse(a, b, mask))]


def baseclaim(first: int, second: int, third: int, mask: int) -> Instance | None:
    """A baseclaim on three directly playable cells (``second`` odd, with a cell above), or None."""
    low = playable(mask)
    if len({first, second, third}) < 3 or not (first & low and second & low and third & low):
        return None
    top = above(second)
    if is_even(second) or not top:
        return None
    squares = (square_of(first), square_of(second), square_of(third), square_of(top))
    return Instance(Rule.BASECLAIM, squares, refuted=(first | top, second | third))


def baseclaims(mask: int) -> list[Instance]:
    low = cells(playable(mask))
    return [found for a, b, c in itertools.permutations(low, 3) if a < c and (found := baseclaim(a, b, c, mask))]


def _before_covers(cell: int, mask: int) -> list[Instance]:
    """The claimevens and verticals that can hold one empty square of a before line."""
    ways = []
    up = above(cell)
    if up and not up & mask and (found := vertical(cell, up, mask)):
        ways.append(found)
    down = below(cell)
    if down and not down & mask:
        found = vertical(down, cell, mask) or claimeven(down, cell, mask)
        if found:
            ways.append(found)
    return ways


def befores(own: int, mask: int) -> list[Instance]:
    """Every before of the controller (``own``), up to ``MAX_BEFORES``."""
    found: list[Instance] = []
    for line in open_lines(own, mask):
        empty = cells(line & ~mask)
        if not empty or _is_vertical(line) or any(not above(cell) for cell in empty):
            continue
        successors = sum(above(cell) for cell in empty)
        for choice in itertools.product(*(_before_covers(cell, mask) for cell in empty)):
            if not any(part.rule is Rule.VERTICAL for part in choice):
                continue  # claimevens only: that is an aftereven
            used = sum(bits_of(part.squares) for part in choice)
            if bin(used).count("1") != 2 * len(choice):
                continue  # two squares of the line in one pair
            refuted = (successors, *(r for part in choice for r in part.refuted))
            pairs = tuple(pair for part in choice for pair in part.pairs)
            found.append(Instance(Rule.BEFORE, squares_of(line), pairs, refuted))
            if len(found) >= MAX_BEFORES:
                return found
    return found


def _is_vertical(line: int) -> bool:
    return len({(cell.bit_length() - 1) // HEIGHT for cell in cells(line)}) == 1


def specialbefore(before: Instance, inner: int, outer: int, mask: int) -> Instance | None:
    """A specialbefore: a before, a directly playable square of its line (``inner``) and
    one outside the columns of its empty squares (``outer``), or None."""
    if before.rule is not Rule.BEFORE:
        return None
    line = bits_of(before.squares)
    low = playable(mask)
    empty = line & ~mask
    if not (inner & empty & low) or not outer & low or outer & line:
        return None
    if any(column_mask((cell.bit_length() - 1) // HEIGHT) & outer for cell in cells(empty)):
        return None
    successors = sum(above(cell) for cell in cells(empty))
    squares = (*before.squares, square_of(outer))
    return Instance(Rule.SPECIALBEFORE, squares, refuted=(inner | outer, outer | successors))


def specialbefores(own: int, mask: int) -> list[Instance]:
    low = cells(playable(mask))
    found = []
    for before in befores(own, mask):
        for inner, outer in itertools.product(low, low):
            if made := specialbefore(before, inner, outer, mask):
                found.append(made)
    return found
