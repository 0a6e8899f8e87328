"""The explanation in words (``ai.explain.words``): every kind says what was proved and
no more, "you" gets its own sentences, the catalogs translate them, the diagram marks the
pairs and the line where they are."""

from __future__ import annotations

import re

import pytest

from ai.explain.explainer import explain, explain_move
from ai.explain.explanation import Cause, Explanation, Reason, ReasonKind, Rule, Square
from ai.explain.words import brief, diagram, sentence, spoken
from game.board import Board
from game.i18n import set_language
from game.rules import MAX, MIN
from tests.test_explain_rules import TEXTBOOK

YOU = {MAX: "you", MIN: "the computer"}


@pytest.fixture(autouse=True)
def english_again():
    yield
    set_language("en")


def explained(name: str) -> Explanation:
    board = Board.from_moves(TEXTBOOK[name])
    return explain(board.grid, board.to_move)


def test_a_zugzwang_says_which_square_the_other_side_must_play_under_which_threat():
    explanation = explained("odd threat")
    said = sentence(explanation)
    assert said.startswith("Zugzwang: player 1 answers every disc in the same column (claimeven in columns ")
    assert "Sooner or later the other side has to play c4, right under the threat at c5." in said
    assert said.endswith("Checked against every reply: player 1 completes a line (c5).")
    assert sentence(explanation, YOU).startswith("Zugzwang: you answer every disc")
    assert spoken(explanation) == "Player 1 wins by zugzwang."
    assert spoken(explanation, YOU) == "You win by zugzwang."


def test_a_draw_is_never_said_to_be_won():
    explanation = explained("baseinverse")
    said = sentence(explanation)
    assert "never loses, the other side never completes a line" in said and "completes a line (" not in said
    assert "baseinverse on b4/d6, e6/g4" in said
    assert spoken(explanation) == "Player 2 holds the draw with Allis's rules."


@pytest.mark.parametrize("name", list(TEXTBOOK))
def test_the_words_name_exactly_the_rules_the_strategy_uses(name):
    explanation = explained(name)
    strategy = explanation.reason.strategy
    assert strategy is not None
    said = sentence(explanation)
    used = {use.rule for use in strategy.uses}
    for rule in Rule:
        named = re.search(rf"\b{rule.value}\b", said.lower()) is not None
        assert named == (rule in used), (rule, said)


def test_a_refutation_says_the_cause_and_the_answer():
    board = Board.from_moves("21334544433443316116666655")
    explanation = explain_move(board.grid, board.to_move, 1)
    assert explanation.reason.cause is Cause.PLAYS_UNDER_THREAT
    assert sentence(explanation) == (
        "Column 2 turns the draw into a loss. It lands right under the threat at b3: the other side wins there at once."
    )
    assert spoken(explanation) == "Column 2 plays under the threat at b3."


def test_german_and_spanish_say_it_in_their_words():
    explanation = explained("odd threat")
    set_language("de")
    assert sentence(explanation).startswith("Zugzwang: Spieler 1 antwortet auf jeden Stein in derselben Spalte")
    assert "c4 spielen, direkt unter die Drohung auf c5" in sentence(explanation)
    set_language("es")
    assert "justo debajo de la amenaza en c5" in sentence(explanation)
    assert spoken(explanation) == "Jugador 1 gana por zugzwang."


def test_every_kind_has_a_sentence_and_a_spoken_form():
    squares = (Square(2, 1), Square(4, 1))
    reasons = [
        Reason(ReasonKind.WINS_NOW, MAX, 1, squares[:1], (2,), column=2),
        Reason(ReasonKind.ONLY_MOVE, MAX, 0, squares[:1], column=2),
        Reason(ReasonKind.DOUBLE_THREAT, MAX, 1, squares, (3, 2, 4), column=3),
        Reason(ReasonKind.DOUBLE_THREAT, MIN, 1, (Square(2, 1), Square(2, 2)), (0, 2)),
        Reason(ReasonKind.FORCED_WIN, MIN, 1, line=(3, 3, 2, 2, 4)),
        Reason(ReasonKind.NO_SIMPLE_REASON, MAX, 0),
    ]
    for reason in reasons:
        explanation = Explanation(MAX, reason.outcome if reason.side == MAX else -1, 0, (2,), reason)
        said, short = sentence(explanation), spoken(explanation)
        assert said[:1].isupper() and short[:1].isupper(), said
        for square in reason.squares:
            assert square.name in said
    forced = Explanation(MAX, -1, -2, (2,), reasons[4])
    assert sentence(forced) == "Player 2 wins by force in 5 plies, whatever the replies: 4 4 3 3 5."
    standing = Explanation(MAX, -1, -2, (2,), reasons[3])
    assert "right above it at c2: blocking c1 opens c2" in sentence(standing)


def test_the_diagram_marks_both_squares_of_each_pair_and_the_line_in_order():
    explanation = explained("odd threat")
    rows = diagram(explanation).splitlines()
    assert rows[-1] == "  a b c d e f g"
    assert rows[2][2 + 2 * 2] == "."  # c4: no pair, the square player 2 must play
    strategy = explanation.reason.strategy
    assert strategy is not None
    for a, b in strategy.pairs:
        mark = rows[6 - a.row][2 + 2 * a.col]
        assert mark == rows[6 - b.row][2 + 2 * b.col] and mark not in "OX."
    board = Board.from_moves("2252576253462244111563365343671351441")
    line = explain(board.grid, board.to_move)
    rows = diagram(line).splitlines()
    assert line.reason.line == (5, 6, 6, 6)
    assert rows[0][2 + 2 * 5] == "1" and [rows[r][2 + 2 * 6] for r in (3, 2, 1)] == ["2", "3", "4"]


BRIEF_MOST = 200
"""The longest one-line reason in English (the screens shrink or wrap past their width)."""


@pytest.mark.parametrize("name", list(TEXTBOOK))
def test_the_one_line_reason_is_the_sentences_proof_said_short(name):
    explanation = explained(name)
    strategy = explanation.reason.strategy
    assert strategy is not None
    short = brief(explanation)
    assert short[:1].isupper() and len(short) <= BRIEF_MOST and len(short) < len(sentence(explanation))
    if strategy.follow_up_only and strategy.forced:  # the zugzwang: what the other side is made to play
        forced = ", ".join(square.name for square in strategy.forced)
        assert f"the other side has to play {forced}" in short or f"one of {forced}" in short
        assert all(square.name in short for square in strategy.wins_at)
    elif not strategy.follow_up_only:  # the rules by name, exactly those used
        used = {use.rule for use in strategy.uses}
        for rule in Rule:
            assert (re.search(rf"\b{rule.value}\b", short) is not None) == (rule in used), (rule, short)
    won = re.search(r"\bwins?\b|has to play|completes? a line \(", short) is not None
    assert won == (strategy.claim == 1), short  # a draw is never said to be won


def test_the_one_line_zugzwang_and_refutation():
    explanation = explained("odd threat")
    assert brief(explanation) == (
        "Zugzwang: player 1 answers every disc in the same column, so the other side has to play c4, "
        "right under the threat at c5."
    )
    assert brief(explanation, YOU).startswith("Zugzwang: you answer every disc in the same column, so")
    board = Board.from_moves("21334544433443316116666655")
    under = explain_move(board.grid, board.to_move, 1)
    assert brief(under) == sentence(under)  # its cause says it all, at once
    board = Board.from_moves("64446472544635565562652")  # then player 2 blunders with column 1
    refuted = explain_move(board.grid, board.to_move, 0)
    assert refuted.reason.kind is ReasonKind.REFUTATION and refuted.reason.cause is None
    assert refuted.reason.then is not None and refuted.reason.then.proved
    said = brief(refuted)
    assert said.startswith("Column 1 turns the win into a loss. Then: ") and len(said) <= BRIEF_MOST
    set_language("de")
    assert brief(explanation).startswith("Zugzwang: Spieler 1 antwortet auf jeden Stein in derselben Spalte, also")
    assert brief(refuted).startswith("Spalte 1 macht aus dem Sieg eine Niederlage. Dann: ")


def test_every_kind_has_a_one_line_reason():
    squares = (Square(2, 1), Square(4, 1))
    for reason in (
        Reason(ReasonKind.WINS_NOW, MAX, 1, squares[:1], (2,), column=2),
        Reason(ReasonKind.ONLY_MOVE, MAX, 0, squares[:1], column=2),
        Reason(ReasonKind.DOUBLE_THREAT, MAX, 1, squares, (3, 2, 4), column=3),
        Reason(ReasonKind.FORCED_WIN, MIN, 1, line=(3, 3, 2, 2, 4)),
        Reason(ReasonKind.NO_SIMPLE_REASON, MAX, 0),
    ):
        explanation = Explanation(MAX, reason.outcome if reason.side == MAX else -1, 0, (2,), reason)
        short = brief(explanation)
        assert short[:1].isupper() and len(short) <= BRIEF_MOST and "\n" not in short
        assert all(square.name in short for square in reason.squares)
    unproved = Explanation(MAX, 0, 0, (2,), Reason(ReasonKind.NO_SIMPLE_REASON, MAX, 0))
    assert brief(unproved) == "No simple reason: the verdict is the solver's proof."
