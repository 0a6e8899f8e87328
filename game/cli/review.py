"""The ``review`` command: the exact review of a game in a terminal.

connect4 review 4453...          the review of a game given as a move string
connect4 review id:7 [--json]    the review of stored game 7 (see ``games``)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from typing import TextIO

from ai.book import BookError
from ai.explain.words import sentence
from ai.review import ACCURACY_RULE, ESTIMATE_DEPTH, ESTIMATE_NODES, GameReview, MoveReview, side_number, sparkline
from ai.reviewer import ReviewStopped, review_board
from game.archive.store import Archive
from game.board import Board
from game.cli.archive_folder import add_home_option, open_archive
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.explain import why_json
from game.cli.options import add_game_option, add_rule_options
from game.cli.positions import read_game
from game.i18n import _, counted
from game.notation import format_move
from game.records import HUMAN, DamagedGame, GameRecord
from game.rules import MAX, MIN, STANDARD, Mode

_GAME_ID = re.compile(r"id:?(\d+)", re.IGNORECASE)
PROGRESS_EVERY_SECONDS = 1.0
"""How often a running review says on stderr how far it got (what it does is work-bound)."""


def add_review_arguments(review: argparse.ArgumentParser) -> None:
    """review SOURCE-or-id:N [--game N] [--json] [--home DIR] and the rules."""
    review.description = (
        "SOURCE is a move string from the empty board (e.g. 4453..., 1-based columns), "
        "a solver-page link with ?pos=, a game file (.c4) or id:N, a game of the archive (see 'games'). "
        "On 6x7 connect 4 every move is classed "
        "against the exact solver; on other boards a search estimates the classes."
    )
    review.add_argument("game", metavar="SOURCE-or-id:N")
    add_game_option(review)
    review.add_argument("--json", action="store_true", help="print the review as one JSON object")
    add_home_option(review)
    add_rule_options(review, Mode.CLASSIC)


def player_label(name: str | None, side: int) -> str:
    """ "player 1 (a person)" / "player 2 (Medium)" / "player 1" (who played is not known)."""
    if name is None:
        return _("player {side_number}").format(side_number=side_number(side))
    who = _("a person") if name == HUMAN else name
    return _("player {side_number} ({who})").format(side_number=side_number(side), who=who)


class _Progress:
    """``on_progress`` of a review: "review: 3 of 7 moves (4 s)" on stderr, at most once a
    second, and the last move's line if any was said or a second has passed."""

    def __init__(self) -> None:
        self.started = self.last = time.perf_counter()
        self.said = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        last = done == total and (self.said or now - self.started >= PROGRESS_EVERY_SECONDS)
        if now - self.last < PROGRESS_EVERY_SECONDS and not last:
            return
        self.last, self.said = now, True
        print(
            _("review: {done} of {moves} ({now:.0f} s)").format(done=done, moves=_moves(total), now=now - self.started),
            file=sys.stderr,
            flush=True,
        )


def _moves(count: int) -> str:
    return counted(count, "move")


def _kind(rules_exact: bool) -> str:
    """What the classes rest on, said in the header."""
    if rules_exact:
        return _("exact (solver and opening book)")
    return _(
        "ESTIMATES from a search, not the solver (each move's columns to depth {ESTIMATE_DEPTH} at most, within {ESTIMATE_NODES:,} positions)"
    ).format(ESTIMATE_DEPTH=ESTIMATE_DEPTH, ESTIMATE_NODES=ESTIMATE_NODES)


def run_review(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Review a SOURCE (``read_game`` reads it with the rule options: ``game.sources``) or id:N."""
    found = _GAME_ID.fullmatch(args.game.strip())
    record: GameRecord | None = None
    archive: Archive | None = None
    if found:
        archive = open_archive(args.home, reading=True)
        number = int(found.group(1))
        try:
            record = archive.game(number) if number < 1 << 63 else None  # SQLite ids are 64-bit
        except DamagedGame as error:  # a damaged row: said, never reviewed (its depth may be a billion)
            raise CliError(str(error)) from None
        if record is None:
            raise CliError(_("no game {group} in the archive (see 'games')").format(group=found.group(1)))
        board = Board(record.rules)
        for move in record.moves:
            board.push(move)
        depths = {MAX: record.first_depth, MIN: record.second_depth}
        names: dict[int, str | None] = {MAX: record.first, MIN: record.second}
    else:
        game = read_game(args.game, args).game  # a move string says nothing of who played
        board = game.board()
        depths = {side: d for side, d in ((MAX, game.first_depth), (MIN, game.second_depth)) if d}
        names = {MAX: game.first, MIN: game.second}
    if not board.moves:
        raise CliError(_("no moves to review"))
    if not args.json:  # said at once: the review itself may take a while
        print(
            _("Review of {moves} on {describe}: {kind}").format(
                moves=_moves(len(board.moves)), describe=board.rules.said(), kind=_kind(board.rules == STANDARD)
            ),
            file=out,
            flush=True,
        )
    try:
        review = review_board(board, depths={side: d for side, d in depths.items() if d}, on_progress=_Progress())
    except ReviewStopped:  # pragma: no cover - the command line never stops it
        raise CliError(_("the review was stopped")) from None
    if archive is not None and record is not None and record.id is not None:
        archive.set_review(record.id, review.summary())
    if args.json:
        json.dump(review_json(review, names), out, indent=1)
        out.write("\n")
    else:
        print_review(review, names, out, header=False)
    return 0


def _moved(review: GameReview, move: int) -> str:
    return format_move(move, review.rules)


def _best_text(review: GameReview, m: MoveReview) -> str:
    """The best moves, three at most: "4", "3,6", "4,3,5+4"."""
    best = ",".join(_moved(review, b) for b in m.best_moves[:3])
    return best + (f"+{len(m.best_moves) - 3}" if len(m.best_moves) > 3 else "")


def review_json(review: GameReview, names: dict[int, str | None] | None = None) -> dict[str, object]:
    """The review as plain data (columns 1-based, as people count them); a player's name
    is None where who played is not known."""
    names = names or {MAX: None, MIN: None}
    moves = []
    for m in review.moves:
        entry: dict[str, object] = {"ply": m.ply, "player": side_number(m.side)}
        if review.rules.gravity:
            entry["column"] = m.move + 1
            entry["best_columns"] = [b + 1 for b in m.best_moves]
        else:
            entry["move"] = _moved(review, m.move)
            entry["best_moves"] = [_moved(review, b) for b in m.best_moves]
        entry["class"] = m.move_class.value
        entry["score"] = m.score
        entry["best_score"] = m.best_score
        entry["result"] = review.result_after(m.ply)
        if m.estimate_depth is not None:
            entry["search_depth"] = m.estimate_depth
        if m.horizon_move is not None:
            entry["search"] = {"depth": m.horizon_depth, "move": _moved(review, m.horizon_move)}
        if m.why is not None:
            entry["why"] = why_json(m.why)
        moves.append(entry)
    data = {
        "rules": review.rules.describe(),
        "exact": review.exact,
        "players": {"1": names.get(MAX), "2": names.get(MIN)},
        "moves": moves,
        "accuracy": {"1": review.accuracy(MAX), "2": review.accuracy(MIN)},
        "accuracy_rule": ACCURACY_RULE,
        "turning_points": [m.ply for m in review.turning_points],
        "graph": list(review.graph),
        "start": review.result_after(0) if review.graph else None,
    }
    if not review.exact:
        data["estimate"] = {"max_depth": ESTIMATE_DEPTH, "positions_per_move": ESTIMATE_NODES}
    return data


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def print_review(review: GameReview, names: dict[int, str | None], out: TextIO, *, header: bool = True) -> None:
    """The review as a table, then accuracy, turning points and the graph as a sparkline
    (``header``: the first line too, which ``run_review`` says before the work)."""
    if header:
        print(
            _("Review of {moves} on {describe}: {kind}").format(
                moves=_moves(len(review.moves)), describe=review.rules.said(), kind=_kind(review.exact)
            ),
            file=out,
        )
    print(_("at the start: {result_after}").format(result_after=review.result_after(0)), file=out)
    bests = [_best_text(review, m) for m in review.moves]
    width = max([8, *(len(best) for best in bests)])
    print(f"{'ply':>4}  {'player':<8} {'move':>4}  {'class':<8} {'best':<{width}} result after the move", file=out)
    for m, best in zip(review.moves, bests):
        words = review.result_after(m.ply)
        move = _moved(review, m.move)
        player = _("player {side_number}").format(side_number=side_number(m.side))
        line = f"{m.ply:>4}  {player} {move:>4}  {m.move_class.word:<8} {best:<{width}} {words}"
        if m.horizon_move is not None:
            line += _("  (a depth-{horizon_depth} search: {moved})").format(
                horizon_depth=m.horizon_depth, moved=_moved(review, m.horizon_move)
            )
        print(line, file=out)
        if m.why is not None:
            print("      " + _("why: {reason}").format(reason=sentence(m.why)), file=out)
    depths = sorted({m.estimate_depth for m in review.moves if m.estimate_depth is not None})
    if depths:
        said = (
            str(depths[0])
            if len(depths) == 1
            else _("{depths} to {depths2}").format(depths=depths[0], depths2=depths[-1])
        )
        print(
            _(
                "estimates: each move's columns searched to depth {said} (the deepest all of them finished within {ESTIMATE_NODES:,} positions)"
            ).format(said=said, ESTIMATE_NODES=ESTIMATE_NODES),
            file=out,
        )
    print(_("accuracy: {ACCURACY_RULE}").format(ACCURACY_RULE=_(ACCURACY_RULE)), file=out)
    for side in (MAX, MIN):
        counts = review.counts(side)
        tally = ", ".join(f"{n} {cls.value}" for cls, n in counts.items() if n) or _("no moves")
        print(
            _("accuracy of {player_label}: {percent} ({tally})").format(
                player_label=player_label(names.get(side), side), percent=_percent(review.accuracy(side)), tally=tally
            ),
            file=out,
        )
    points = review.turning_points
    if points:
        said = "; ".join(
            _("ply {ply}, player {number}: {word}").format(
                ply=m.ply, number=side_number(m.side), word=m.move_class.word
            )
            for m in points
        )
        print(_("turning points: {said}").format(said=said), file=out)
    else:
        print(_("turning points: none (no move changed the outcome)"), file=out)
    print(_("graph (high: player 1 ahead, low: player 2): {sparkline}").format(sparkline=sparkline(review)), file=out)


COMMANDS = {"review": CommandCode(add_review_arguments, run_review, user_errors=(BookError,))}
