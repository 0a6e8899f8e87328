"""The ``puzzles`` and ``rating`` commands: the solver-checked puzzles and the player's rating.

connect4 puzzles --json --count 5 --rating 1500   puzzles near a rating (default: yours)
connect4 puzzles --theme zugzwang                 puzzles of one theme
connect4 puzzles --mine                           your own puzzles, from your reviewed games
connect4 puzzles --play [--theme T]               play one in the terminal (rated, as in the window)
connect4 rating --json                            {"rating": ..., "deviation": ..., "games": ..., "puzzles": ...,
                                                   "themes": {...}, "strongest": ..., "weakest": ...}
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TextIO

from ai.answer import Purpose
from ai.book import BookError
from ai.explain.explainer import ExplainError, explain_move
from ai.explain.words import sentence
from ai.levels import PRESETS
from ai.player import choose_move
from game.archive.puzzle_store import (
    add_own_puzzles,
    own_puzzle_games,
    own_puzzles,
    read_attempts,
    record_attempt,
    tally_pages,
)
from game.archive.store import Archive
from game.cli.archive_folder import add_home_option, open_archive
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.i18n import _, ngettext
from game.learn.dashboard import Dashboard, DashboardFold, practise, themes_by_id
from game.learn.own_puzzles import find_own_puzzles
from game.learn.puzzle_attempt import Played, PuzzleTry
from game.learn.puzzle_set import near, shipped_puzzles
from game.learn.puzzle_words import (
    goal_sentence,
    hint_sentence,
    missed_sentence,
    rate_text,
    right_step_sentence,
    sides,
    solved_sentence,
    strengths_sentence,
    themes_sentence,
    wrong_sentence,
)
from game.learn.rating import PlayerRating, player_rating
from game.learn.training import drills_of_records
from game.puzzle_file import Puzzle, PuzzleFileError, Theme

MAX_COUNT = 1000


def add_puzzles_arguments(puzzles: argparse.ArgumentParser) -> None:
    """puzzles [--json] [--count N] [--seed S] [--rating R] [--mine] [--home DIR]."""
    puzzles.description = (
        "Puzzles on the standard board, each checked by the exact solver: a position, a goal "
        "(win, or save the draw where every other column loses) and its line; at every one of "
        "your steps exactly one column reaches the goal. Each puzzle is rated on the levels' "
        "scale by which levels solve it. Moves and solutions are 1-based columns."
    )
    puzzles.add_argument("--json", action="store_true", help="print one JSON object")
    puzzles.add_argument("--count", type=int, default=10, metavar="N", help="how many (default 10)")
    puzzles.add_argument("--seed", type=int, default=0, metavar="S", help="which of the nearby puzzles (default 0)")
    puzzles.add_argument("--rating", type=int, metavar="R", help="puzzles near this rating (default: yours)")
    puzzles.add_argument(
        "--mine", action="store_true", help="your own puzzles, found in your reviewed games (looked for first)"
    )
    puzzles.add_argument(
        "--theme",
        choices=[theme.value for theme in Theme],
        metavar="NAME",
        help="only puzzles of this theme: " + ", ".join(theme.value for theme in Theme),
    )
    puzzles.add_argument(
        "--play",
        action="store_true",
        help="play the first puzzle here: type a column (1-7), h for a hint, q to leave; rated as in the window",
    )
    add_home_option(puzzles)


def add_rating_arguments(rating: argparse.ArgumentParser) -> None:
    """rating [--json] [--home DIR]."""
    rating.description = (
        "Your Glicko-2 rating on the levels' scale, from your stored games against the levels "
        "on the standard board (imported ones too) and your puzzles."
    )
    rating.add_argument("--json", action="store_true", help="print one JSON object")
    add_home_option(rating)


def archive_rating(archive: Archive) -> PlayerRating:
    """The player's rating from what the archive holds (``skipped``: attempt rows left out)."""
    read = read_attempts(archive)
    return player_rating(archive.games(), read.attempts, skipped=read.skipped)


def archive_dashboard(archive: Archive) -> Dashboard:
    """The solve rate in each theme, from every stored attempt (``game.learn.dashboard``)."""
    try:
        shipped: tuple[Puzzle, ...] = shipped_puzzles()
    except PuzzleFileError:
        shipped = ()
    fold = DashboardFold(themes_by_id(shipped, own_puzzles(archive)))
    for page in tally_pages(archive):
        fold.add(page)
    return fold.dashboard()


def run_rating(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Print the player's rating and their solve rate in each puzzle theme."""
    archive = open_archive(args.home, reading=True)  # a question makes no home
    rated = archive_rating(archive)
    board = archive_dashboard(archive)
    if rated.skipped:
        print(
            ngettext(
                "rating: {count:,} stored puzzle attempt was left out: it is damaged (its time is no date, "
                "or a value is out of range)",
                "rating: {count:,} stored puzzle attempts were left out: they are damaged (their times are no "
                "dates, or a value is out of range)",
                rated.skipped,
            ).format(count=rated.skipped),
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps({**rated.to_json(), **board.to_json()}), file=out)
        return 0
    said = (
        _("Rating {rating:,} (provisional, deviation {deviation}), from {games} games and {puzzles} puzzles.")
        if rated.provisional
        else _("Rating {rating:,} (deviation {deviation}), from {games} games and {puzzles} puzzles.")
    )
    print(
        said.format(rating=rated.rating, deviation=rated.deviation, games=rated.games, puzzles=rated.puzzles), file=out
    )
    if board.attempts:
        print(strengths_sentence(board), file=out)
        for record in board.records:
            if record.attempts:
                print(f"  {_(record.theme.label)}: {rate_text(record)}", file=out)
    return 0


def mine(archive: Archive) -> tuple[list[Puzzle], int]:
    """The player's own puzzles, after looking for new ones in reviewed games not yet read;
    and how many of their games on the standard board still wait for a review."""
    done = own_puzzle_games(archive)
    records = archive.games()
    found, looked = find_own_puzzles([r for r in records if r.id is not None and r.id not in done])
    add_own_puzzles(archive, found, looked)
    unreviewed = len(drills_of_records(records)[1])
    return own_puzzles(archive), unreviewed


def run_puzzles(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Print puzzles near a rating, or the player's own."""
    if not 1 <= args.count <= MAX_COUNT:
        raise CliError(_("--count is a number from 1 to {most}, not {count}").format(most=MAX_COUNT, count=args.count))
    archive = open_archive(args.home, reading=not (args.mine or args.play))  # --mine and --play store
    if args.mine:
        own, unreviewed = mine(archive)
        chosen = own[: args.count]
        if unreviewed:
            print(
                _(
                    "{count} of your games wait for a review (connect4 review id:N): their puzzles are not known yet"
                ).format(count=unreviewed),
                file=sys.stderr,
            )
    else:
        try:
            puzzles = shipped_puzzles()
        except PuzzleFileError as error:
            raise CliError(str(error)) from None
        rating = args.rating if args.rating is not None else archive_rating(archive).rating
        if args.theme is not None:
            chosen = practise(puzzles, Theme(args.theme), rating, args.count, args.seed)
        else:
            chosen = near(puzzles, rating, args.count, args.seed)
    if args.mine and args.theme is not None:
        chosen = [p for p in chosen if Theme(args.theme) in p.themes]
    if args.play:
        if not chosen:
            raise CliError(_("No puzzle to play: none matches."))
        return play_in_terminal(archive, chosen[0], out, stdin)
    if args.json:
        print(json.dumps({"puzzles": [p.to_json() for p in chosen]}), file=out)
        return 0
    if not chosen:
        print(_("No puzzles yet: review your games against the levels to find some."), file=out)
    for puzzle in chosen:
        goal = _("win") if puzzle.goal.value == "win" else _("save the draw")
        print(
            _("{id}  rating {rating:,}  {goal}  position {moves}  answer: column {column}").format(
                id=puzzle.id, rating=puzzle.rating, goal=goal, moves=puzzle.moves, column=puzzle.solution
            ),
            file=out,
        )
        if puzzle.themes:
            print("    " + themes_sentence(puzzle), file=out)
    return 0


def play_in_terminal(archive: Archive, puzzle: Puzzle, out: TextIO, stdin: TextIO) -> int:
    """Play ``puzzle`` on the terminal with the puzzle screen's rules (``PuzzleTry``): each
    line a column (1-7), ``h`` a hint, ``q`` to leave; the result is rated and kept (an
    archive only read keeps nothing)."""
    attempt = PuzzleTry(puzzle, started=time.monotonic(), reply_delay=0.0)
    rated = archive_rating(archive)
    change = (rated.current.rating, rated.current.rating)
    print(f"{puzzle.id} · {puzzle.moves}\n{attempt.board}", file=out)
    print(goal_sentence(puzzle, attempt.person), themes_sentence(puzzle), file=out)
    while not attempt.finished:
        print("> ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line or line.strip().lower() == "q":
            return 0
        typed = line.strip().lower()
        now = time.monotonic()
        if typed == "h":
            right = attempt.take_hint(now)
            if right is not None:
                change = _keep(archive, attempt, change)
                print(hint_sentence(right, *change), file=out)
            continue
        if not (typed.isdigit() and 1 <= int(typed) <= 7):
            print(_("Type a column from 1 to 7, h for a hint or q to leave."), file=out)
            continue
        column = int(typed) - 1
        played = attempt.play(column, now)
        if played is Played.ILLEGAL:
            print(attempt.board.why_illegal(column, zero_based=True), file=out)
        elif played is Played.WRONG:
            change = _keep(archive, attempt, change)
            _refute(attempt, column, out)
            right = attempt.show_right_move()
            assert right is not None
            print(missed_sentence(right, *change), file=out)
        elif played is Played.SOLVED:
            change = _keep(archive, attempt, change)
            print(f"{attempt.board}\n{solved_sentence(puzzle, *change, attempt.hints)}", file=out)
        elif played is Played.RIGHT:
            reply = attempt.advance(now)
            print(f"{attempt.board}\n{right_step_sentence(column, reply)}", file=out)
    return 0


def _keep(archive: Archive, attempt: PuzzleTry, change: tuple[float, float]) -> tuple[float, float]:
    """Store the try's result once it is decided; the rating before and after."""
    row = attempt.take_attempt(time.time())
    if row is None or not record_attempt(archive, row):
        return change
    return change[1], archive_rating(archive).current.rating


def _refute(attempt: PuzzleTry, column: int, out: TextIO) -> None:
    """The wrong move's verdict and refutation (Perfect's hint, as in the window) and why."""
    board = attempt.board
    answer = choose_move(PRESETS["Perfect"], board.grid, board.rules, board.to_move, purpose=Purpose.HINT)
    attempt.refute(answer.exact, answer.move)
    print(f"{attempt.board}\n{wrong_sentence(column, answer.exact, attempt.person, attempt.refutation)}", file=out)
    before = attempt.before_wrong
    if before is None:
        return
    try:
        why = explain_move(before.grid, before.to_move, column)
    except ExplainError:
        return
    attempt.explain_wrong(why)
    print(_("Why: {reason}").format(reason=sentence(why, sides(attempt.person))), file=out)


COMMANDS = {
    "puzzles": CommandCode(add_puzzles_arguments, run_puzzles, user_errors=(BookError,)),
    "rating": CommandCode(add_rating_arguments, run_rating),
}
