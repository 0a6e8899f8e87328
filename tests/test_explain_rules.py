"""Allis's nine rules, one by one: where each applies and where it must not be claimed, on
textbook positions (the shapes of Allis 1988, chapter 7), and the rules an explanation
names checked against their definitions, written again here in plain terms.

The positions with a strategy come from the public benchmark files and from the levels'
self-play (``lab.explain_bench``), each the smallest of its kind found there.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ai.explain import rules
from ai.explain.board import GEO, bit_of, playable
from ai.explain.checker import check
from ai.explain.explainer import explain
from ai.explain.explanation import DRAW, WIN, ReasonKind, Rule, Square, Strategy
from ai.explain.strategies import find_strategy
from ai.explain.words import sentence
from game.board import Board
from game.rules import MAX, MIN
from tests.explain_check import follows_to_the_end, next_square


def sq(name: str) -> Square:
    return Square(ord(name[0]) - ord("a"), int(name[1:]))


def cell(name: str) -> int:
    return bit_of(sq(name))


def bits(moves: str) -> tuple[int, int, int]:
    """(player 1's discs, player 2's discs, all discs) after ``moves``."""
    board = Board.from_moves(moves)
    first, second = GEO.from_grid(board.grid)
    return first, second, first | second


def line(*names: str) -> int:
    return sum(cell(name) for name in names)


# -- the shapes -------------------------------------------------------------------------------
def test_claimeven_is_two_squares_of_a_column_with_the_upper_one_even():
    empty = 0
    found = rules.claimeven(cell("a1"), cell("a2"), empty)
    assert found is not None and found.squares == (sq("a1"), sq("a2"))
    assert found.refutes(line("a2", "b2", "c2", "d2")) and not found.refutes(line("a1", "b1", "c1", "d1"))
    assert rules.claimeven(cell("a2"), cell("a3"), empty) is None  # the upper one odd: a vertical
    assert rules.claimeven(cell("a1"), cell("b2"), empty) is None
    _, _, mask = bits("1")
    assert rules.claimeven(cell("a1"), cell("a2"), mask) is None  # a1 is taken
    assert len(rules.claimevens(0)) == 7 * 3


def test_vertical_is_two_squares_of_a_column_with_the_upper_one_odd():
    found = rules.vertical(cell("c2"), cell("c3"), 0)
    assert found is not None
    assert found.refutes(line("c2", "c3", "c4", "c5")) and not found.refutes(line("a3", "b3", "c3", "d3"))
    assert rules.vertical(cell("c1"), cell("c2"), 0) is None
    assert len(rules.verticals(0)) == 7 * 2


def test_baseinverse_takes_two_directly_playable_squares_of_different_columns():
    _, _, mask = bits("44")  # d1 and d2 taken: d3 is column d's playable square
    found = rules.baseinverse(cell("b1"), cell("d3"), mask)
    assert found is not None
    assert found.refutes(line("b1", "c2", "d3", "e4")) and not found.refutes(line("a1", "b1", "c1", "d1"))
    assert rules.baseinverse(cell("c1"), cell("c2"), mask) is None  # c2 is not playable
    assert rules.baseinverse(cell("d2"), cell("c1"), mask) is None  # d2 is taken
    assert rules.baseinverse(cell("c1"), cell("c1"), mask) is None
    assert len(rules.baseinverses(mask)) == 21  # 7 playable squares, two at a time


def test_aftereven_is_a_line_held_by_claimevens_and_refutes_what_comes_later():
    # player 2 has b2, c2, d2 over player 1's b1, c1, d1 (and e1): a2 even, a1 empty below it
    first, second, mask = bits("2233445")
    found = rules.aftereven(line("a2", "b2", "c2", "d2"), second, mask)
    assert found is not None
    assert found.refutes(line("a3", "b3", "c3", "d3"))  # above the aftereven square in its column
    assert not found.refutes(line("b1", "c1", "d1", "e1"))
    assert rules.aftereven(line("b2", "c2", "d2", "e2"), second, mask) is None  # e2 is the lowest of e: even
    assert rules.aftereven(line("a1", "b1", "c1", "d1"), first, mask) is None  # a1 is odd
    assert rules.aftereven(line("a2", "b2", "c2", "d2"), first, mask) is None  # not player 1's line
    assert found in rules.afterevens(second, mask)


def test_lowinverse_is_two_verticals_of_different_columns():
    a, b = rules.vertical(cell("a2"), cell("a3"), 0), rules.vertical(cell("b4"), cell("b5"), 0)
    same = rules.vertical(cell("a4"), cell("a5"), 0)
    assert a is not None and b is not None and same is not None
    found = rules.lowinverse(a, b)
    assert found is not None
    assert found.refutes(line("a3", "b4", "c5", "d6")) is False
    assert found.refutes(line("a3", "b3", "c3", "d3")) is False
    assert rules.lowinverse(a, same) is None
    two = rules.lowinverse(a, rules.vertical(cell("b2"), cell("b3"), 0))  # type: ignore[arg-type]
    assert two is not None and two.refutes(line("a3", "b3", "c3", "d3"))  # both upper squares
    assert len(rules.lowinverses(0)) == 14 * 13 // 2 - 7  # two of the 14 verticals, not of one column


def test_highinverse_is_two_columns_of_three_squares_the_upper_ones_even():
    _, _, mask = bits("1122")
    assert rules.highinverse(cell("a3"), cell("b3"), mask) is None  # a3 is odd
    _, _, mask = bits("12")
    found = rules.highinverse(cell("a2"), cell("b2"), mask)
    assert found is not None
    assert found.refutes(line("a4", "b4", "c4", "d4")) and found.refutes(line("a3", "b3", "c3", "d3"))
    assert found.refutes(line("a2", "b3", "c4", "d5")) is False  # with the playable a2 it is b4 that counts
    assert found.refutes(line("a2", "a3", "a4", "a5")) is True  # the upper two of column a
    assert rules.highinverse(cell("a2"), cell("a2"), mask) is None
    assert [found.squares for found in rules.highinverses(mask)].count(found.squares) == 1
    assert all(found.squares[0].row % 2 == 0 for found in rules.highinverses(mask))


def test_baseclaim_needs_three_directly_playable_squares_the_middle_one_odd():
    _, _, mask = bits("44")  # d3 is the playable square of column d, odd
    found = rules.baseclaim(cell("c1"), cell("d3"), cell("e1"), mask)
    assert found is not None and found.squares[-1] == sq("d4")
    assert found.refutes(cell("c1") | cell("d4")) and found.refutes(cell("d3") | cell("e1"))
    assert not found.refutes(cell("c1") | cell("d3"))
    assert any(made.squares == found.squares for made in rules.baseclaims(mask))
    assert all(made.squares[1].row % 2 for made in rules.baseclaims(mask))  # the middle one odd
    _, _, mask = bits("4")  # d2 is even: no baseclaim on it
    assert rules.baseclaim(cell("c1"), cell("d2"), cell("e1"), mask) is None
    assert rules.baseclaim(cell("c1"), cell("d3"), cell("e2"), mask) is None


def test_before_needs_a_vertical_and_no_square_in_the_top_row():
    first, second, mask = bits("4455")  # player 1 d1 e1, player 2 d2 e2
    befores = rules.befores(first, mask)
    assert befores
    for found in befores:
        line_bits = sum(bit_of(square) for square in found.squares)
        empty = [square for square in found.squares if not bit_of(square) & mask]
        assert not line_bits & second and len({square.col for square in found.squares}) > 1
        assert all(square.row < 6 for square in empty)
        paired = [square for pair in found.pairs for square in pair]
        assert all(square in paired for square in empty) and len(found.pairs) == len(empty)
        assert any(b.row % 2 for _, b in found.pairs)  # a vertical: else it is an aftereven
        successors = sum(rules.above(bit_of(square)) for square in empty)
        assert found.refutes(successors)  # the squares right above every empty square
    # the bottom row cannot be held: c1 has no square under it and c2 is even
    assert not [found for found in befores if sq("c1") in found.squares and sq("f1") in found.squares]
    # player 2's lines through d2 and e2 are not player 1's befores
    assert not [found for found in befores if sq("d2") in found.squares]


def test_specialbefore_joins_a_playable_square_of_the_line_and_one_outside_its_columns():
    first, second, mask = bits("6763525635134453444361412671365712")  # the textbook position below
    low = playable(mask)
    made = rules.specialbefores(second, mask)
    assert made
    for found in made:
        outer = bit_of(found.squares[4])
        line_squares = found.squares[:4]
        assert outer & low and found.squares[4] not in line_squares
        assert all(square.col != found.squares[4].col for square in line_squares if not bit_of(square) & mask)
    before = next(found for found in rules.befores(second, mask) if any(bit_of(s) & low for s in found.squares))
    inner = next(bit_of(s) for s in before.squares if bit_of(s) & low)
    inner_col = rules.square_of(inner).col
    outer = next(bit for bit in rules.cells(low) if not any(s.col == rules.square_of(bit).col for s in before.squares))
    assert rules.specialbefore(before, inner, outer, mask) is not None
    same_column = next(bit for bit in rules.cells(low) if rules.square_of(bit).col == inner_col)
    assert rules.specialbefore(before, inner, same_column, mask) is None  # outer in the line's column
    assert rules.specialbefore(before, rules.above(inner), outer, mask) is None  # inner not playable


# -- the rules in explanations ----------------------------------------------------------------
TEXTBOOK = {
    "claimeven": "4115555533333441444532616666622222",
    "baseinverse": "6274476136716665132411555412333345",
    "vertical": "332443322132177727725553115511756",
    "aftereven": "6657145337754463364426736452532251",
    "before": "431713416222114524617524366353662",
    "specialbefore": "6763525635134453444361412671365712",
    "odd threat": "565467743237614662472111544623151",
}


def _strategy(name: str) -> tuple[Board, Strategy]:
    board = Board.from_moves(TEXTBOOK[name])
    strategy = explain(board.grid, board.to_move).reason.strategy
    assert strategy is not None
    assert follows_to_the_end(board, strategy)
    return board, strategy


def test_claimeven_holds_the_draw_for_player_2():
    board, strategy = _strategy("claimeven")
    assert strategy.side == MIN and strategy.claim == DRAW and strategy.follow_up_only
    assert {use.rule for use in strategy.uses} == {Rule.CLAIMEVEN}
    assert all(b.row % 2 == 0 for _, b in strategy.pairs)  # player 2 takes every even square
    assert "claimeven" in sentence(explain(board.grid, board.to_move))


def test_baseinverse_pairs_the_bottoms_of_two_odd_columns():
    _, strategy = _strategy("baseinverse")
    across = [use for use in strategy.uses if use.rule is Rule.BASEINVERSE]
    assert across and strategy.claim == DRAW


def test_vertical_takes_the_odd_square_above_an_even_one():
    _, strategy = _strategy("vertical")
    assert Rule.VERTICAL in {use.rule for use in strategy.uses}
    assert strategy.side == MAX  # player 1 keeps the odd squares of column f


def test_aftereven_names_the_line_the_claimevens_complete():
    _, strategy = _strategy("aftereven")
    assert strategy.claim == WIN and strategy.side == MIN
    aftereven = [use for use in strategy.uses if use.rule is Rule.AFTEREVEN]
    assert aftereven and all(
        square.row % 2 == 0 for use in aftereven for square in use.squares if square in strategy.taken
    )


def test_before_and_specialbefore_name_lines_the_pairs_make_sure_of():
    _, strategy = _strategy("before")
    assert Rule.BEFORE in {use.rule for use in strategy.uses}
    _, strategy = _strategy("specialbefore")
    assert Rule.SPECIALBEFORE in {use.rule for use in strategy.uses}


def test_an_odd_threat_wins_player_1_the_zugzwang_and_claimeven_cannot_stop_it():
    board, strategy = _strategy("odd threat")
    assert strategy.side == MAX and strategy.claim == WIN
    assert strategy.forced == (sq("c4"),) and strategy.wins_at == (sq("c5"),)
    # player 2's claimeven in every column (the rule where it does not apply) fails the check
    first, second, mask = bits(TEXTBOOK["odd threat"])
    assert board.to_move == MIN
    partner: dict[int, int] = {}
    for col in range(7):
        empty = [1 << (col * 7 + r) for r in range(6) if not mask >> (col * 7 + r) & 1]
        for low, high in zip(empty[0::2], empty[1::2]):
            partner[low], partner[high] = high, low
    # player 2 to move: its claimeven needs player 1 to move; after any first disc it still fails
    for col in range(7):
        move = playable(mask) & (((1 << 6) - 1) << (col * 7))
        if move and not partner.get(move):
            assert not check(second | move, mask | move, partner, DRAW, budget=50_000).holds
    explanation = explain(board.grid, board.to_move)
    assert explanation.result == -1 and explanation.reason.side == MAX


def test_the_checker_refuses_pairs_that_leave_a_disc_unanswered():
    first, second, mask = bits(TEXTBOOK["claimeven"])
    found = find_strategy(MIN, second, mask, DRAW)
    assert found.strategy is not None
    partner = {bit_of(a): bit_of(b) for a, b in found.strategy.pairs} | {
        bit_of(b): bit_of(a) for a, b in found.strategy.pairs
    }
    broken = dict(partner)
    low = playable(mask) & -playable(mask)
    del broken[broken.pop(low)]  # the lowest playable square's pair is gone
    proof = check(second, mask, broken, DRAW, budget=50_000)
    assert not proof.holds and "not answer" in proof.failure


# -- every rule named is the rule's shape ---------------------------------------------------
DATA = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions" / "Test_L3_R1"


def _start(board: Board, strategy: Strategy) -> Board:
    start = board.copy()
    for col in strategy.after:
        start.push(col)
    return start


def _holds_shape(start: Board, strategy: Strategy, rule: Rule, squares: tuple[Square, ...]) -> bool:
    """The rule's definition, said again in plain terms on the position where the pairs start."""
    taken = set(strategy.taken)
    low = {next_square(start, col) for col in range(7)}
    if rule in (Rule.CLAIMEVEN, Rule.VERTICAL):
        a, b = squares
        return a.col == b.col and b.row == a.row + 1 and (b.row % 2 == 0) == (rule is Rule.CLAIMEVEN)
    if rule is Rule.BASEINVERSE:
        a, b = squares
        return a.col != b.col and a in low and b in low
    empty = [s for s in squares[:4] if start.grid[6 - s.row, s.col] == 0]
    if rule is Rule.AFTEREVEN:
        return bool(empty) and all(s in taken and s.row % 2 == 0 for s in empty)
    if rule is Rule.BEFORE:
        return len({s.col for s in squares}) > 1 and all(s in taken and s.row < 6 for s in empty)
    if rule is Rule.SPECIALBEFORE:
        outer = squares[4]
        inner = [s for s in empty if s not in taken]
        return len(inner) == 1 and inner[0] in low and outer in low and strategy.partner(inner[0]) == outer
    if rule is Rule.LOWINVERSE:
        return len({s.col for s in squares}) == 2 and all(s.row % 2 for s in squares[1::2])
    return False  # highinverse and baseclaim are never named in a strategy


@pytest.mark.parametrize("seed", [1, 2])
def test_every_rule_an_explanation_names_has_the_rules_shape(seed):
    lines = [text.split()[0] for text in DATA.read_text().splitlines() if text.strip()]
    named = 0
    for moves in random.Random(seed).sample(lines, 150):
        board = Board.from_moves(moves)
        strategy = explain(board.grid, board.to_move).reason.strategy
        if strategy is None:
            continue
        start = _start(board, strategy)
        for use in strategy.uses:
            assert _holds_shape(start, strategy, use.rule, use.squares), (moves, use)
            named += 1
        pair_rules = [use for use in strategy.uses if use.rule in (Rule.CLAIMEVEN, Rule.VERTICAL, Rule.BASEINVERSE)]
        assert len(pair_rules) == len(strategy.pairs)  # every pair is one of the pair rules
    assert named >= 100


def test_kinds_follow_the_strategy_shape():
    for name in TEXTBOOK:
        board = Board.from_moves(TEXTBOOK[name])
        reason = explain(board.grid, board.to_move).reason
        assert reason.strategy is not None
        expected = ReasonKind.ZUGZWANG if reason.strategy.follow_up_only else ReasonKind.STRATEGY
        assert reason.kind is expected
