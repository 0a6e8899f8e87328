"""Finding a strategy of pairs: the rules propose, the checker proves.

A candidate is built column by column from Allis's pair rules (``ai.explain.rules``):
each column's empty squares are paired bottom up (claimeven where the upper square of a
pair is even, vertical where it is odd), either from its lowest empty square or from the
one above it; the lowest squares left out are paired across columns (baseinverse: both
directly playable).  A column with an odd number of squares left over keeps its top
square unpaired: the check says whether the game ever gets there.  Candidates come in a
fixed order (each column's natural split first: no top square left over), so the same
position gets the same strategy on every machine; each is handed to
``ai.explain.checker.check`` and the first that holds is the answer.  Past the budget of
candidates or of positions checked, there is none: an honest "not found".
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ai.explain.board import COLS, bit_of, empty_in_column, open_lines, squares_of, threats
from ai.explain.checker import OutOfWork, check
from ai.explain.explanation import WIN, Rule, RuleUse, Square, Strategy
from ai.explain.rules import Instance, below, cells, lowinverse, pair_instance, verticals

MAX_CANDIDATES = 400
"""Candidates one search may check, at most."""
CHECK_BUDGET = 60_000
"""Positions all the checks of one search may visit, at most."""

Pairs = tuple[tuple[int, int], ...]
"""Pairs of cells (one-bit bitboards), the lower (or first) cell first."""


@dataclass(frozen=True)
class Found:
    """A strategy that held, or the work spent finding none."""

    strategy: Strategy | None
    positions: int
    candidates: int


def _matchings(cells: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair up ``cells`` (with an odd count, every way leaving one out)."""
    if len(cells) < 2:
        yield []
        return
    first, rest = cells[0], cells[1:]
    for i, other in enumerate(rest):
        for more in _matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]
    if len(cells) % 2:
        yield from _matchings(rest)


def candidates(mask: int) -> Iterator[Pairs]:
    """Pair sets for the position ``mask``, in the order they are tried."""
    columns = [(col, cells) for col in range(COLS) if (cells := empty_in_column(mask, col))]
    natural = tuple(len(cells) % 2 for _, cells in columns)  # 1: the lowest square goes across
    splits = sorted(
        itertools.product((0, 1), repeat=len(columns)),
        key=lambda split: (sum(a != b for a, b in zip(split, natural)), split),
    )
    for split in splits:
        pairs: list[tuple[int, int]] = []
        lowest: list[int] = []
        for (_, cells), across in zip(columns, split):
            if across:
                lowest.append(cells[0])
                cells = cells[1:]
            pairs += [(cells[i], cells[i + 1]) for i in range(0, len(cells) - 1, 2)]
        for matching in _matchings(lowest):
            yield tuple(pairs + matching)


def find_strategy(
    side: int,
    hold: int,
    mask: int,
    claim: int,
    *,
    after: tuple[int, ...] = (),
    budget: int = CHECK_BUDGET,
    should_stop: Callable[[], bool] | None = None,
) -> Found:
    """The first candidate whose pairs get ``side`` (discs ``hold``) ``claim`` in the position
    ``mask`` (the other side to move), checked against every reply; ``after`` is what
    ``side`` played to get here (it goes into the strategy as said)."""
    spent = 0
    for tried, pairs in enumerate(candidates(mask), start=1):
        if tried > MAX_CANDIDATES:
            return Found(None, spent, tried - 1)
        partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
        try:
            proof = check(hold, mask, partner, claim, budget=budget - spent, should_stop=should_stop)
        except OutOfWork:
            return Found(None, budget, tried)
        spent += proof.positions
        if proof.holds:
            strategy = Strategy(
                side=side,
                after=after,
                pairs=tuple((squares_of(a)[0], squares_of(b)[0]) for a, b in pairs),
                claim=claim,
                uses=rule_uses(pairs, hold, mask, proof.wins_at if claim == WIN else 0),
                wins_at=squares_of(proof.wins_at) if claim == WIN else (),
                forced=_forced(pairs, hold, mask, proof.wins_at) if claim == WIN else (),
                positions=proof.positions,
            )
            return Found(strategy, spent, tried)
    return Found(None, spent, 0)


def rule_uses(pairs: Pairs, hold: int, mask: int, wins_at: int) -> tuple[RuleUse, ...]:
    """Which rule holds which squares of a strategy that held: each pair's rule, then the
    lines of the holder its pairs make sure of where it wins (aftereven, before,
    specialbefore), then the lowinverses that refute lines of the other side."""
    instances = [pair_instance(a, b, mask) for a, b in pairs]
    pair_rules = [found for found in instances if found is not None]
    uses = [found.use() for found in pair_rules]
    if wins_at:
        uses += _line_rules(pair_rules, hold, mask, wins_at)
    uses += [found.use() for found in _lowinverses(pair_rules, hold ^ mask, mask)]
    return tuple(uses)


def _line_rules(pair_rules: list[Instance], hold: int, mask: int, wins_at: int) -> list[RuleUse]:
    """Aftereven, before and specialbefore lines of the holder, through a square it won at."""
    upper_of: dict[Square, Rule] = {}
    across: dict[Square, Square] = {}
    for found in pair_rules:
        low, high = found.squares
        if found.rule is Rule.BASEINVERSE:
            across[low], across[high] = high, low
        else:
            upper_of[high] = found.rule
    uses = []
    for line in open_lines(hold, mask):
        if not line & wins_at:
            continue
        empty = squares_of(line & ~mask)
        held = [upper_of.get(square) for square in empty]
        if all(rule is Rule.CLAIMEVEN for rule in held):
            uses.append(RuleUse(Rule.AFTEREVEN, squares_of(line)))
            continue
        flat = len({square.col for square in squares_of(line)}) > 1 and all(square.row < 6 for square in empty)
        if flat and all(held):
            uses.append(RuleUse(Rule.BEFORE, squares_of(line)))
        elif flat and sum(rule is None for rule in held) == 1:
            inner = empty[held.index(None)]
            outer = across.get(inner)
            if outer is not None and outer.col not in {square.col for square in empty}:
                uses.append(RuleUse(Rule.SPECIALBEFORE, (*squares_of(line), outer)))
    return uses


def _lowinverses(pair_rules: list[Instance], other: int, mask: int) -> list[Instance]:
    """Lowinverses of the strategy's verticals: two of them whose upper squares lie on a line
    of the other side that no single pair refutes."""
    mine = {found.squares for found in pair_rules if found.rule is Rule.VERTICAL}
    pairs = [found for found in verticals(mask) if found.squares in mine]
    lines = [line for line in open_lines(other, mask) if not any(found.refutes(line) for found in pair_rules)]
    found = []
    for a, b in itertools.combinations(pairs, 2):
        made = lowinverse(a, b)
        uppers = bit_of(a.squares[1]) | bit_of(b.squares[1])
        if made is not None and any(line & uppers == uppers for line in lines):
            found.append(made)
    return found


def _forced(pairs: Pairs, hold: int, mask: int, wins_at: int) -> tuple[Square, ...]:
    """The squares right under the holder's winning squares, when every one of those is a
    threat standing at the start and the cell under it is one the holder never plays
    (unpaired, or the lower square of that very pair): the opponent fills it in every
    checked game that ends there.  () when some win is not of that kind."""
    standing = threats(hold, mask)
    lowers = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    forced = []
    for cell in cells(wins_at):
        under = below(cell)
        if not cell & standing or not under or under & mask or lowers.get(under, cell) != cell:
            return ()
        forced.append(under)
    return squares_of(sum(forced))
