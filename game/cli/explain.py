"""The ``explain`` command: the exact verdict of a position and its proved reason.

connect4 explain 4453...              the board, the verdict, the reason, the line or the pairs drawn
connect4 explain 4453... --json       {"result": "draw", "score": 0, "moves": [1, 5, 7], "reason": ...}
connect4 explain 4453... --move 2     why column 2 keeps the result, or what it gives away

The explanation is ``ai.explain``'s (docs/why-it-wins.md); this module only reads the
position and prints.  ``explanation_json`` is the one JSON form of an explanation.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from ai.book import BookError
from ai.exact import ExactScore, verdict
from ai.explain.explainer import ExplainError, explain, explain_move
from ai.explain.explanation import Explanation, Reason, Strategy
from ai.explain.words import PLAIN_NAMES, diagram, sentence, spoken
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.options import add_game_option, add_rule_options
from game.cli.positions import read_position
from game.i18n import _
from game.rules import MAX, MIN, STANDARD, Mode

RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}
"""The JSON's words for an outcome of the side to move."""


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    """explain SOURCE [--json] [--move N] and the rules (only the standard board is explained)."""
    parser.description = (
        "SOURCE is a position as for analyze: a move string (e.g. 4453), a solver-page link "
        "with ?pos=, a game file (its last position) or a Max-Connect-4 board file. Prints the "
        "exact result for the side to move (the solver's), every column that keeps it, and a "
        "reason proved before it is given: a win at once, an only move, a double threat, a forced "
        "line of at most 7 plies, or a strategy of square pairs checked against every reply "
        "(docs/why-it-wins.md); otherwise 'no simple reason'. Only the standard 6x7 board."
    )
    parser.add_argument("position", metavar="SOURCE")
    add_game_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--move",
        type=int,
        metavar="N",
        help="explain column N (1-based): why it keeps the result or what it gives away",
    )
    add_rule_options(parser, Mode.CLASSIC)


def run_explain(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Explain the position (or one column of it) and print it."""
    board = read_position(args.position, args)
    if board.rules != STANDARD:
        raise CliError(
            _("explanations are for the standard board only (6x7, connect 4, gravity, classic), not {describe}").format(
                describe=board.rules.said()
            )
        )
    outcome = board.outcome()
    if outcome is not None:
        raise CliError(
            _("the game is over ({result_text}): there is nothing to explain").format(result_text=outcome.result_text())
        )
    if args.move is not None and args.move not in [move + 1 for move in board.legal_moves()]:
        raise CliError(_("--move {move}: {why}").format(move=args.move, why=board.why_illegal(args.move - 1)))
    try:
        if args.move is None:
            explanation = explain(board.grid, board.to_move, rules=board.rules)
        else:
            explanation = explain_move(board.grid, board.to_move, args.move - 1, rules=board.rules)
    except ExplainError as error:
        raise CliError(str(error)) from None
    if args.json:
        print(json.dumps(explanation_json(explanation)), file=out)
        return 0
    print_explanation(explanation, out)
    return 0


def print_explanation(explanation: Explanation, out: TextIO) -> None:
    """The board with the line or the pairs drawn, the verdict, the columns and the reason."""
    names = {MAX: _("player 1 (O)"), MIN: _("player 2 (X)")}
    print(diagram(explanation), file=out)
    reason = explanation.reason
    if reason.strategy is not None:
        print(
            _("Digits and letters: the pairs of the strategy (both squares of a pair carry the same mark)."), file=out
        )
        if reason.strategy.after:
            print(_("o, x: the discs played before the pairs start."), file=out)
    elif reason.line:
        print(_("Digits: the discs of the forced line, in order."), file=out)
    mover = names[explanation.to_move]
    exact = ExactScore.from_counts(
        explanation.score,
        len(explanation.discs[0 if explanation.to_move == MAX else 1]),
        len(explanation.discs[1 if explanation.to_move == MAX else 0]),
        explanation.to_move,
        STANDARD.cells,
    )
    said = _("{mover} to move: {verdict}.").format(mover=mover, verdict=verdict(exact, names))
    print(said[:1].upper() + said[1:], file=out)
    if explanation.result < 0:  # every column loses: name the ones that lose the slowest
        slowest = sorted(col for col, score in explanation.scores.items() if score == explanation.score)
        columns = ", ".join(str(col + 1) for col in slowest)
        print(_("Every column loses; the longest resistance: {columns}").format(columns=columns), file=out)
    else:
        columns = ", ".join(str(col + 1) for col in explanation.moves)
        print(_("Columns that keep it: {columns}").format(columns=columns), file=out)
    if explanation.move is not None:
        print(
            _("Column {column} scores {score} (best {best}).").format(
                column=explanation.move + 1, score=explanation.move_score, best=explanation.score
            ),
            file=out,
        )
    print(_("Why: {reason}").format(reason=sentence(explanation, names)), file=out)
    if not reason.proved:
        print(_("(The verdict is the solver's; no short proof of it was found.)"), file=out)


def explanation_json(explanation: Explanation) -> dict[str, object]:
    """The explanation as plain data: columns 1-based, squares written ``c3``, sides 1 and 2;
    the text in English (as all ``--json`` output)."""
    reason = explanation.reason
    data: dict[str, object] = {
        "to_move": 1 if explanation.to_move == MAX else 2,
        "result": RESULT_WORDS[explanation.result],
        "score": explanation.score,
        "scores": {str(col + 1): score for col, score in sorted(explanation.scores.items())},
        "moves": [col + 1 for col in explanation.moves],
        "reason": _reason_json(reason, sentence(explanation, PLAIN_NAMES)),
        "line": None if reason.line is None else [col + 1 for col in reason.line],
        "strategy": None if reason.strategy is None else strategy_json(reason.strategy),
        "threats": [
            {
                "player": 1 if threat.side == MAX else 2,
                "square": threat.square.name,
                "row": "odd" if threat.square.is_odd else "even",
            }
            for threat in explanation.threats
        ],
        "spoken": spoken(explanation, PLAIN_NAMES),
    }
    if explanation.move is not None:
        data["move"] = {"column": explanation.move + 1, "score": explanation.move_score}
    return data


def why_json(explanation: Explanation) -> dict[str, object]:
    """A move's explanation as ``review --json`` gives it to a mistake or blunder (its
    ``why``): the reason's kind, text (English) and squares, and the line (1-based columns
    from the position before the move, or null)."""
    data = _reason_json(explanation.reason, sentence(explanation, PLAIN_NAMES))
    line = explanation.reason.line
    data["line"] = None if line is None else [col + 1 for col in line]
    return data


def _reason_json(reason: Reason, text: str) -> dict[str, object]:
    data: dict[str, object] = {
        "kind": reason.kind.value,
        "text": text,
        "proved": reason.proved,
        "player": 1 if reason.side == MAX else 2,
        "outcome": RESULT_WORDS[reason.outcome],
        "squares": [square.name for square in reason.squares],
    }
    if reason.cause is not None:
        data["cause"] = reason.cause.value
    if reason.then is not None:
        data["answer"] = reason.then.kind.value
    return data


def strategy_json(strategy: Strategy) -> dict[str, object]:
    """A strategy as the issue's form: its side, the columns played first, the pairs; and
    what it claims, the rules that hold its squares and where it wins."""
    return {
        "side": 1 if strategy.side == MAX else 2,
        "after": [col + 1 for col in strategy.after],
        "pairs": [[a.name, b.name] for a, b in strategy.pairs],
        "claim": RESULT_WORDS[strategy.claim],
        "rules": [
            {"rule": use.rule.value, "squares": [square.name for square in use.squares]} for use in strategy.uses
        ],
        "wins_at": [square.name for square in strategy.wins_at],
        "forced": [square.name for square in strategy.forced],
        "positions_checked": strategy.positions,
    }


COMMANDS = {"explain": CommandCode(add_explain_arguments, run_explain, user_errors=(BookError,))}
